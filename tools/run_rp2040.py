#!/usr/bin/env python3
"""Play an event script against the real firmware on the emulated Pico (tools/rp2040).

    python tools/run_rp2040.py SCRIPT [--json] [--png FILE] [--firmware UF2]

SCRIPT is an event script (tools/toolkit/event_script.py; `-` reads standard input): the pieces
of its `position` line (the standard start without one) stand on the board and that game is saved on
the board's flash, so the firmware boots straight into play. Event times are simulated ms after
boot (the main loop's first LED frame). At the end it prints what a person would see and what
the board saved: the game record (game.txt, records.txt read back from littlefs), the lit
squares, the text on the OLED, lift-to-light per lift and the longest time the loop went
without scanning the sensors (flash writes excluded). --png writes the OLED picture.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from toolkit import event_script  # noqa: E402
from rp2040 import board, pico  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description="Play an event script on the emulated Pico.")
    ap.add_argument("script", help="event script file, or - for standard input")
    ap.add_argument("--json", action="store_true", help="print the report as one JSON object")
    ap.add_argument("--png", help="write the OLED picture at the end to this PNG file")
    ap.add_argument("--firmware", help="MicroPython v1.28 UF2 for RPI_PICO (default: $%s; "
                    "tools/README.md says where to get it)" % pico.ENV_UF2)
    args = ap.parse_args(argv)
    try:
        if args.script == "-":
            text = sys.stdin.read()
        else:
            with open(args.script, encoding="utf-8") as f:
                text = f.read()
        script = event_script.parse(text)
    except OSError as e:
        print("run_rp2040: cannot read %s: %s" % (args.script, e.strerror or e), file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print("run_rp2040: %s is not a text file (an event script)" % args.script,
              file=sys.stderr)
        return 2
    except event_script.ScriptError as e:
        print("run_rp2040: %s: %s" % (args.script, e), file=sys.stderr)
        return 2
    why = pico.missing(args.firmware)
    if why:
        print("run_rp2040: " + why, file=sys.stderr)
        return 2
    try:
        occupied = board.occupancy(script.position)
    except ValueError as e:                      # RulesError: a bad position
        print("run_rp2040: position: %s" % e, file=sys.stderr)
        return 2
    build = board.build_firmware()
    image = board.firmware_image(build, position=script.position, game=True,
                                 firmware=args.firmware)
    with board.EmulatedBoard(image, firmware=args.firmware) as b:
        b.boot(occupied, boot_screen=False)   # (its first event ends the boot screen)
        report = b.play(script)
        if args.png:
            b.pico.screen_png(args.png)
    if args.json:
        print(json.dumps(report))
        return 0
    print("after %.0f ms (simulated):" % report["t_ms"])
    print("game.txt:\n  " + "\n  ".join(report["game"].rstrip("\n").split("\n")))
    if report["records"]:
        print("records.txt:\n  " + "\n  ".join(report["records"].rstrip("\n").split("\n")))
    print("screen: " + " | ".join(report["screen"]))
    print("LEDs lit: " + (", ".join("%s %s" % (k, tuple(v)) for k, v in
                                     sorted(report["leds"].items())) or "none"))
    print("lift to first LED bit (ms): " + ", ".join("%.1f" % v for v in
                                                    report["lift_to_light_ms"]))
    print("longest time without a sensor scan: %.1f ms (flash writes excluded, %.1f ms of "
          "them)" % (report["loop_gap_ms_max"], report["flash_ms"]))
    if report["resets"]:
        print("resets: %s" % report["resets"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
