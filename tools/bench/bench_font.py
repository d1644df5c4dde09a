#!/usr/bin/env python3
"""The OLED text's cost on the emulated Pico: firmware/controller/font.py's heap and drawing
time beside framebuf's own fb.text.

    python tools/bench/bench_font.py [--json] [--firmware UF2]

Runs in rp2040js at 125 MHz (simulated cycles: the load on this machine does not change the
figures), by default on the stock MicroPython v1.28 UF2 with the .mpy build, or on the board's
own build (--firmware build/barragoon-...uf2: the firmware frozen in). The board's modules are
imported (`import app`, as at boot) before the timing, so the interpreter's string pool is
the board's.
Heap (gc.mem_alloc() after gc.collect()): importing controller.font (before the rest); the
8x8 cell made by the first glyph drawn; drawing every glyph in one text (the UTF-8 buffer
grows past its first 64 bytes). Time (time.ticks_us, mean of 40): one 16-character line with
fb.text, the same ASCII line with font.text, a German and a Spanish line with font.text, and a
whole message screen (screens.message: a title bar and four lines) in English with fb.text
alone (as before font.py), in English and in German.
"""
import argparse
import json
import os
import sys

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # tools/bench/..
sys.path.insert(0, TOOLS)
sys.path.insert(0, os.path.join(os.path.dirname(TOOLS), "firmware"))

PICO = r"""
import gc, time, framebuf
import controller
fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
gc.collect()
a = gc.mem_alloc()
from controller import font
gc.collect()
b = gc.mem_alloc()
import app
from controller import screens
gc.collect()
m = b - a
b = gc.mem_alloc()
font.text(fb, '\u00e4', 0, 0)
gc.collect()
c = gc.mem_alloc()
font.text(fb, font.EXTRA, 0, 0)
gc.collect()
d = gc.mem_alloc()
EN = 'Put back on d2: '
DE = 'Zur\u00fcck auf d2, Wei\u00df'
ES = '\u00bfQu\u00e9 pieza? \u00a1S\u00ed!'
def builtin(fb, s, x, y, c):
    fb.text(s, x, y, c)
def per_call(fn, s, n=40):
    t = time.ticks_us()
    for i in range(n):
        fn(fb, s, 0, 0, 1)
    return time.ticks_diff(time.ticks_us(), t) // n
def screen(lines, n=20):
    t = time.ticks_us()
    for i in range(n):
        screens.message(fb, *lines)
    return time.ticks_diff(time.ticks_us(), t) // n
EN_SCREEN = ('Fix the board', 'Put back on d2:', 'White 3-tile', 'then lift c2', 'OK: done')
text = font.text
font.text = builtin
before = screen(EN_SCREEN)
font.text = text
print(m, c - b, d - c, len(font.EXTRA), per_call(builtin, EN), per_call(font.text, EN),
      per_call(font.text, DE), per_call(font.text, ES),
      before, screen(EN_SCREEN),
      screen(('Brett pr\u00fcfen', 'Zur\u00fcck auf d2:', 'Wei\u00df 3er', 'dann c2 heben',
              'OK: fertig')))
"""
KEYS = ("heap_module", "heap_cell", "heap_all_glyphs", "glyphs", "us_line_fb_text",
        "us_line_ascii", "us_line_de", "us_line_es", "us_screen_fb_text", "us_screen_en",
        "us_screen_de")


def main(argv=None):
    ap = argparse.ArgumentParser(description="The OLED text's cost on the emulated Pico.")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--firmware", help="UF2 for RPI_PICO: MicroPython v1.28 (default: "
                    "$BARRAGOON_PICO_UF2), or the board's own build from "
                    "tools/build_firmware.py")
    args = ap.parse_args(argv)
    from rp2040 import board, flashfs, pico
    why = pico.missing(args.firmware)
    if why:
        print("bench_font: " + why, file=sys.stderr)
        return 2
    kind = board.firmware_kind(args.firmware)
    files = board.deployed_files(board.build_firmware(), args.firmware)
    files.pop("main.py")
    with pico.Pico(flash=flashfs.build_image(None, files), firmware=args.firmware) as p:
        p.run_for(500)
        figures = dict(zip(KEYS, (int(v) for v in p.exec(PICO, timeout_ms=600000).split())))
    figures["firmware"] = kind
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    print("OLED text on the emulated RP2040 (rp2040js, 125 MHz), MicroPython v1.28, %s"
          % ("the firmware frozen in" if kind == "frozen" else "stock, .mpy on littlefs"))
    f = figures
    print("  heap: import controller.font %d B; its 8x8 cell (first glyph) %d B; all %d glyphs"
          " in one text (its UTF-8 buffer grows) %d B" % (f["heap_module"], f["heap_cell"],
                                                         f["glyphs"], f["heap_all_glyphs"]))
    print("  one 16-character line: fb.text %d us; font.text ASCII %d us, German %d us, "
          "Spanish %d us" % (f["us_line_fb_text"], f["us_line_ascii"], f["us_line_de"],
                             f["us_line_es"]))
    print("  a message screen (title bar, four lines): English %d us (%d us with fb.text "
          "alone), German %d us" % (f["us_screen_en"], f["us_screen_fb_text"],
                                    f["us_screen_de"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
