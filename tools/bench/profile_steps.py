#!/usr/bin/env python3
"""Where the main loop's long steps spend their time, on the emulated Pico (tools/rp2040).

    python tools/bench/profile_steps.py [--lifts N] [--turns N] [--min-ms MS] [--steps]

The real main.py runs on a modelled board (as `bench_rp2040.py --only play` does), with a
profiler loaded first: it wraps the functions of the commit step (the judge, the game, the
controller's rendering, the save, events.txt, the LEDs and the OLED) with time.ticks_us, and
after every loop step longer than --min-ms prints the time of each part on the serial
console. The host takes the flash erase/program time of each step out (the emulator advances
the clock for them as a W25Q16 takes them) and prints, for the steps that commit a move and
for the other long steps, each part's median and max in ms.

Times of a part include the parts it calls (the judge's tick includes the move it commits).
The wrappers cost a few µs per call, so parts called many times per step read a little high.
--turns N: the game starts from a saved game of N quiet turns (a longer record to save);
--steps also prints every long step on its own.
"""
import argparse
import os
import statistics
import sys

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # tools/bench/..
sys.path.insert(0, TOOLS)
sys.path.insert(0, os.path.join(os.path.dirname(TOOLS), "firmware"))

from rp2040 import board, pico  # noqa: E402

# (module, class or None, function, label): the parts of a step, wrapped on the board.
PARTS = (
    ("app", "App", "_show_leds", "leds"),
    ("drivers.leds", "Leds", "show", "leds.show"),
    ("controller.controller", "Controller", "on_square", "ctl.on_square"),
    ("controller.controller", "Controller", "tick", "ctl.tick"),
    ("controller.judge", "Judge", "tick", "judge.tick"),
    ("controller.judge", "Judge", "_decide", "judge.decide"),
    ("controller.judge", "Judge", "_prepare", "judge.prepare"),
    ("controller.judge", "Judge", "_new_turn", "judge.new_turn"),
    ("controller.judge", "Judge", "_live", "judge.live"),
    ("barragoon.game", "Game", "move", "game.move"),
    ("barragoon.game", "Game", "legal_moves", "game.legal_moves"),
    ("controller.controller", "Controller", "save", "ctl.save"),
    ("controller.controller", "Controller", "_render_leds", "render.leds"),
    ("controller.modes", "Play", "screen", "render.screen"),
    ("drivers.ssd1306", "SSD1306", "update", "oled.update"),
    ("recorder", "Recorder", "checkpoint", "recorder.checkpoint"),
    ("app", "App", "_write", "save+begin_events"),
    ("storage", "Storage", "save_game", "storage.save_game"),
    ("storage", None, "game_text", "storage.game_text"),
    ("storage", "Storage", "begin_events", "storage.begin_events"),
    ("storage", "Storage", "write_events", "storage.write_events"),
    ("storage", "Storage", "_end_events", "events.close+rename"),
    ("recorder", "Recorder", "_head", "events.head"),
)

PROFILER = '''
import time, gc, sys
_T = {}
_N = {}
_ORDER = []
def _wrap(owner, name, label):
    f = getattr(owner, name, None)
    if f is None:
        print("PROF-MISSING", label)
        return
    _T[label] = 0
    _N[label] = 0
    _ORDER.append(label)
    us, diff = time.ticks_us, time.ticks_diff
    def w(*a, **k):
        t = us()
        try:
            return f(*a, **k)
        finally:
            _T[label] += diff(us(), t)
            _N[label] += 1
    setattr(owner, name, w)
def install(parts, min_us):
    for mod, cls, fn, label in parts:
        __import__(mod)
        m = sys.modules[mod]
        _wrap(getattr(m, cls) if cls else m, fn, label)
    import app
    class _Gc:
        def collect(self):
            t = time.ticks_us()
            gc.collect()
            _T["gc.collect"] += time.ticks_diff(time.ticks_us(), t)
            _N["gc.collect"] += 1
        def __getattr__(self, name):
            return getattr(gc, name)
    _T["gc.collect"] = 0
    _N["gc.collect"] = 0
    _ORDER.append("gc.collect")
    app.gc = _Gc()
    step = app.App.step
    def timed_step(self):
        for k in _ORDER:
            _T[k] = 0
            _N[k] = 0
        t0 = time.ticks_us()
        step(self)
        d = time.ticks_diff(time.ticks_us(), t0)
        if d >= min_us:
            print("PROF %d %d %s" % (t0, d, " ".join(
                "%s=%d/%d" % (k, _T[k], _N[k]) for k in _ORDER if _N[k])))
    app.App.step = timed_step
'''


def main_py(min_ms):
    return ("import prof\nprof.install(%r, %d)\n" % (PARTS, int(min_ms * 1000))
            + open(os.path.join(board.FIRMWARE, "main.py")).read())


def parse(console):
    """[(t0 ms, step ms, {label: (ms, calls)})] from the PROF lines."""
    out = []
    for line in console.splitlines():
        if line.startswith("PROF-MISSING"):
            print("profile_steps: not found on the board: " + line.split()[1], file=sys.stderr)
        if not line.startswith("PROF "):
            continue
        words = line.split()
        parts = {}
        for w in words[3:]:
            k, v = w.split("=")
            us, n = v.split("/")
            parts[k] = (int(us) / 1000, int(n))
        out.append((int(words[1]) / 1000, int(words[2]) / 1000, parts))
    return out


def flash_between(ops, a, e):
    return sum(board.flash_op_ms(op) for op in ops if a <= op["t"] < e)


def table(title, steps):
    if not steps:
        return
    print("%s: %d steps" % (title, len(steps)))
    print("  %-26s %9s %9s %7s" % ("part", "median", "max", "calls"))
    rows = [("step (flash excluded)", [s[1] - s[3] for s in steps], None),
            ("flash erase/program", [s[3] for s in steps], None)]
    labels = []
    for s in steps:
        for k in s[2]:
            if k not in labels:
                labels.append(k)
    for k in labels:
        rows.append((k, [s[2].get(k, (0.0, 0))[0] for s in steps],
                     max(s[2].get(k, (0, 0))[1] for s in steps)))
    for name, vals, calls in rows:
        print("  %-26s %9.2f %9.2f %7s" % (name, statistics.median(vals), max(vals),
                                           "" if calls is None else calls))
    print("  (a part that writes files includes the flash time of its writes)")


def saved_game(turns):
    from barragoon.game import Game
    from barragoon.record import write_record
    from bench import bench_rp2040
    g = Game()
    for frm, to in bench_rp2040.quiet_turns(turns):
        g.move(frm, to)
    parts = []
    write_record(g, parts.append)
    return g, "".join(parts)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Time the parts of the main loop's long steps "
                                 "on the emulated Pico.")
    ap.add_argument("--lifts", type=int, default=12, help="turns played on the board (12)")
    ap.add_argument("--turns", type=int, default=0,
                    help="start from a saved game of this many quiet turns (0)")
    ap.add_argument("--min-ms", type=float, default=6.0,
                    help="report steps at least this long, flash included (6)")
    ap.add_argument("--steps", action="store_true", help="also print every long step")
    ap.add_argument("--firmware", help="MicroPython v1.28 UF2 for RPI_PICO")
    args = ap.parse_args(argv)
    if args.lifts < 1 or args.turns < 0 or args.min_ms < 0:
        ap.error("--lifts must be at least 1, --turns and --min-ms not negative")
    why = pico.missing(args.firmware)
    if why:
        print("profile_steps: " + why, file=sys.stderr)
        return 2
    from bench import bench_rp2040
    from barragoon.game import Game
    build = board.build_firmware()
    g, text = saved_game(args.turns) if args.turns else (Game(), None)
    files = {"prof.py": PROFILER.encode(), "main.py": main_py(args.min_ms).encode()}
    if text is not None:
        files["game.txt"] = text.encode()
    image = board.firmware_image(build, game=True, files=files, firmware=args.firmware)
    occ = bytearray(1 if g.pos.get(sq) else 0 for sq in range(63))
    with board.EmulatedBoard(image, firmware=args.firmware) as b:
        b.boot(occ)
        first_op = len(b.pico.flash_ops())
        start = len(b.console())
        drops = []
        # quiet turns on from the saved game's position
        turns = bench_rp2040.quiet_turns(args.turns + args.lifts)[args.turns:]
        for frm, to in turns:
            b.lift(frm)
            b.wait(200)
            drops.append(b.pico.t)
            b.drop(to)
            b.wait(900)
        ops = b.pico.flash_ops()[first_op:]
        steps = [(t0, d, parts, flash_between(ops, t0, t0 + d))
                 for t0, d, parts in parse(b.console()[start:])]
        lines = [s for s in b.console()[start:].splitlines()
                 if s and not s.startswith("PROF")]
        busy = b.pico.loop_steps()
    if args.steps:
        for s in steps:
            # (the busy signal's step that holds this one: the profiler's print is in it)
            near = [e - a for a, e in busy if a <= s[0] < e]
            print("step at %.1f ms: %.2f ms, flash %.2f ms (busy pin %s ms)"
                  % (s[0], s[1], s[3], "%.2f" % near[0] if near else "?"))
            print("   ", " ".join("%s=%.2f" % (k, v[0]) for k, v in s[2].items()))
    commits = []
    for td in drops:
        st = next((s for s in steps if s[0] >= td and "storage.save_game" in s[2]), None)
        if st is not None and st not in commits:
            commits.append(st)
    others = [s for s in steps if s not in commits]
    print("Emulated RP2040, %d turns on the board%s; ms of simulated time"
          % (args.lifts, " after %d saved turns" % args.turns if args.turns else ""))
    table("Steps that commit a move", commits)
    table("Other steps of %.1f ms or more" % args.min_ms, others)
    if lines:
        print("console:\n  " + "\n  ".join(lines[-10:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
