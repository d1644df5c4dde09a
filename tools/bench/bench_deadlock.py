#!/usr/bin/env python3
"""Rule 6b's exact decision (firmware/barragoon/deadlock.py, capture_search.py) on the emulated
Pico: its time and its memory over the positions the tests check.

    python tools/bench/bench_deadlock.py [--positions N] [--seed S] [--top K] [--json]
                                   [--firmware UF2]

The positions are the ones host_tests/test_rules_deadlock.py checks against its brute force
(tools/toolkit/deadlock_pens.py: the same seed and count by default, and its boxed-in BOXED and
SHAPES), RULES.md's 6b example and its mirror image, the positions the game starts from (the
open and closed starts) and a few larger searches. Every one is decided once on the
host to find the work it takes; the K that take the most (by units of work, by positions
expanded, by the size of the visited set) then run on the emulated Pico (tools/rp2040, the
stock MicroPython v1.28 UF2 with the .mpy build, 125 MHz, simulated cycles: the load on this
machine does not change the figures). For each: the whole decision's time, its longest single
unit of work (a loop step of the board works DECIDE_MS = 3 ms and then finishes the unit it is
in; a garbage collection the heap asks for falls into some unit), and the heap it holds at its
peak (gc.collect() and gc.mem_alloc() after every unit, in a second run: the first is timed
without them). Also the heap of the modules: deadlock.py (imported at boot) and
capture_search.py (imported when a search first runs).

Then the board itself (the real main.py, booted into a saved game at LIFT_START): Brown plays
LIFT_MOVE, after which White's position is a draw only the search proves; White lifts a tile
as soon as the screen shows its turn, while the decision runs in slices of the loop steps. It
prints lift-to-light then, the longest time between two matrix scans, the loop steps (flash
writes excluded) and the time from White's turn on the screen to the draw on it.
"""
import argparse
import json
import os
import sys

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # tools/bench/..
sys.path.insert(0, TOOLS)
sys.path.insert(0, os.path.join(os.path.dirname(TOOLS), "firmware"))

from toolkit import deadlock_pens  # noqa: E402

SEED = 20240624          # host_tests/test_rules_deadlock.py's default
POSITIONS = 3000
ISSUE_24 = [
    ("1[A]Z[A]1[A][A]/1[A][A]1[A]1[A]/2[A]z[A]2/2[A][A][A]2/2[A][A]3/[A][A]2[A]1[A]/[A]6/"
     "[A][A][A][A][A][A]1/[A][A][A][A][A][A]1 w 0", (0, 0)),
    ("5[A]z/5[A][1S]/5[RW]1/6[1W]/7/7/7/4[A][A][A]/4[A]1Z b 20", (0, 0)),
    ("1vd1dv1/2zdz2/7/1[X]3[X]1/[X]1[X]1[X]1[X]/1[X]3[X]1/7/2ZDZ2/1VD1DV1 w 24", (0, 0)),
    ("1vd1dv1/2zdz2/7/1[A]3[A]1/[A]1[A]1[A]1[A]/1[A]3[A]1/7/2ZDZ2/1VD1DV1 w 24", (0, 0)),
]
# Larger searches found by random play of walls and 2-tiles: a dead one that needs both
# searches (host_tests' bounds test), and captures reachable only through a long detour.
LARGE = [
    ("7/6z/7/[A][A][A][A][A][A][A]/7/[A][A][A][A]3/z2[A]3/[A][A][A][A]3/VZ1[A]3 w 0", (0, 0)),
    ("3[A][A]2/5z1/[A]3[A]1[A]/1[A]1[A]2[A]/[A][A][LE][A][A][A][A]/[A][A][A][A][A][A][A]/5Z1/"
     "[A]1[A]4/1[A]3Z1 b 0", (0, 0)),
    ("Z6/Z2[A]3/2[A]4/[A]5[A]/2[A]4/[A][A][A][A][A][A][A]/[A][A][A][LN][A][A][A]/2[A]1[A]2/"
     "1z3[A]1 w 0", (0, 0)),
    ("2ZZ3/7/1[A]1[A]2[A]/[A][A][A][A][A][A][A]/[A][A][A][A][A][A][A]/[1S][A][A][A][A][A][A]/"
     "1[A][A]1[A]2/7/6z w 0", (0, 0)),
    ("4v1v/7/7/7/7/7/7/7/V6 w 24", (0, 0)),
]

# White's 2-tile on a4 can only go to a2, Brown's on a1 only to a2; after Brown's c8-e8,
# White moving first locks both in: drawn, by the search. White lifts a4 meanwhile.
LIFT_START = "7/2z4/7/7/[A][A][A][A][A][A][A]/Z[A]5/[1S][A]3[A][A]/1[A]2[A][A]Z/z[A]2[A]DV b 0"
LIFT_MOVE = ("c8", "e8")
LIFT_SQUARE = "a4"

# Runs on the Pico: decide(text, stages) prints result, units, expanded, states, bytes, total
# ms, longest unit ms; peak(text, stages) prints the heap peak over the decision.
PICO = """
import time, gc
from barragoon.notation import parse_position
from barragoon.deadlock import Decision
def decide(text, stages):
    pos = parse_position(text)
    gc.collect()
    d = Decision(pos, stages)
    units = 0
    worst = 0
    t0 = time.ticks_us()
    while True:
        t = time.ticks_us()
        done = d.step(1)
        worst = max(worst, time.ticks_diff(time.ticks_us(), t))
        units += 1
        if done:
            break
    total = time.ticks_diff(time.ticks_us(), t0)
    print(d.result, units, d.expanded, d.states, d.bytes, total / 1000, worst / 1000)
def peak(text, stages):
    pos = parse_position(text)
    gc.collect()
    h = gc.mem_alloc()
    d = Decision(pos, stages)
    top = gc.mem_alloc() - h
    while not d.step(1):
        gc.collect()
        top = max(top, gc.mem_alloc() - h)
    print(top)
"""
MODULE = """
import gc, time
import barragoon.core, barragoon.notation
gc.collect()
h = gc.mem_alloc()
import barragoon.deadlock
gc.collect()
a = gc.mem_alloc()
t = time.ticks_us()
import barragoon.capture_search
t = time.ticks_diff(time.ticks_us(), t)
gc.collect()
print(a - h, gc.mem_alloc() - a, t)
"""


def host_work(positions):
    """[(text, stages, units, expanded, states, bytes, result)] decided on this machine."""
    from barragoon.notation import parse_position
    from barragoon.deadlock import Decision
    out = []
    for text, stages in positions:
        d = Decision(parse_position(text), stages)
        units = 1
        while not d.step(1):
            units += 1
        out.append((text, stages, units, d.expanded, d.states, d.bytes, d.result))
    return out


def hardest(work, k):
    chosen = []
    for key in (2, 3, 5):                    # units, expanded, bytes
        for row in sorted(work, key=lambda r: -r[key])[:k]:
            if row not in chosen:
                chosen.append(row)
    return chosen


def lift_while_deciding(firmware):
    """The board deciding rule 6b in its loop steps while a tile is lifted: a dict of
    figures (see the module's text)."""
    import statistics
    from rp2040 import board
    from toolkit.event_script import square_number as S
    image = board.firmware_image(board.build_firmware(), position=LIFT_START)
    with board.EmulatedBoard(image, firmware=firmware) as b:
        b.boot(board.occupancy(LIFT_START))
        b.lift(S(LIFT_MOVE[0]))
        b.wait(250)
        b.drop(S(LIFT_MOVE[1]))
        if not b.wait_for(lambda b: b.screen()[:1] == ["White to move"], 3000, 2):
            raise SystemExit("bench_deadlock: the board did not take %s-%s: %r"
                             % (LIFT_MOVE + (b.screen(),)))
        t_turn = b.pico.t
        b.pico.scan_starts(clear=True)
        b.pico.loop_steps(clear=True)
        n = len(b.lifts)
        b.lift(S(LIFT_SQUARE))
        b.wait(100)
        b.drop(S(LIFT_SQUARE))
        drawn = b.wait_for(lambda b: "Game over" in b.screen(), 5000, 2)
        t_drawn = b.pico.t
        gaps = b.report()["loop_gap_ms_max"]
        ops = b.pico.flash_ops()
        steps = sorted(e - a - sum(board.flash_op_ms(op) for op in ops if a <= op["t"] < e)
                       for a, e in b.pico.loop_steps() if e <= t_drawn)
        light = b.lift_to_light()[n]
        return {"lift_to_light_ms": light, "scan_gap_ms_max": gaps,
                "loop_step_ms_median": statistics.median(steps), "loop_step_ms_max": steps[-1],
                "loop_steps": len(steps), "turn_to_draw_ms": t_drawn - t_turn if drawn else -1,
                "lit_before_draw": drawn and t_turn + light < t_drawn}


def main(argv=None):
    ap = argparse.ArgumentParser(description="Rule 6b's decision on the emulated Pico.")
    ap.add_argument("--positions", type=int, default=POSITIONS,
                    help="random pens, as the test checks them (%d)" % POSITIONS)
    ap.add_argument("--seed", type=int, default=SEED, help="their seed (%d)" % SEED)
    ap.add_argument("--top", type=int, default=8,
                    help="how many of the hardest run on the Pico, by each measure (8)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--firmware", help="MicroPython v1.28 UF2 for RPI_PICO")
    args = ap.parse_args(argv)
    if args.positions < 0 or args.top < 1:
        ap.error("--positions must be 0 or more and --top at least 1")
    from rp2040 import board, flashfs, pico
    why = pico.missing(args.firmware)
    if why:
        print("bench_deadlock: " + why, file=sys.stderr)
        return 2
    work = host_work(deadlock_pens.positions(args.seed, args.positions))
    special = host_work(ISSUE_24 + LARGE + [(t, (0, 0)) for t in deadlock_pens.BOXED]
                        + [(t, (0, 0)) for t, _ in deadlock_pens.SHAPES])
    runs = special + [r for r in hardest(work, args.top) if r not in special]
    files = flashfs.read_files(flashfs.build_image(board.build_firmware()))
    files.pop("main.py")
    rows = []
    with pico.Pico(flash=flashfs.build_image(None, files), firmware=args.firmware) as p:
        p.run_for(500)
        module, search_module, search_import = (int(x) for x in p.exec(MODULE).split())
        p.exec(PICO)
        for text, stages, units, expanded, states, nbytes, result in runs:
            line = p.exec("decide(%r, %r)" % (text, stages), timeout_ms=3600000).split()
            top = int(p.exec("peak(%r, %r)" % (text, stages), timeout_ms=3600000))
            rows.append({"position": text, "stages": list(stages), "result": int(line[0]),
                         "units": int(line[1]), "expanded": int(line[2]),
                         "states": int(line[3]), "visited_bytes": int(line[4]),
                         "ms": float(line[5]), "longest_unit_ms": float(line[6]),
                         "heap_peak": top})
    lifted = lift_while_deciding(args.firmware)
    figures = {
        "lift": lifted,
        "positions": len(work), "module_heap": module, "search_module_heap": search_module,
        "search_import_ms": search_import / 1000,
        "worst_ms": max(r["ms"] for r in rows),
        "worst_unit_ms": max(r["longest_unit_ms"] for r in rows),
        "worst_heap_peak": max(r["heap_peak"] for r in rows),
        "most_expanded": max(r["expanded"] for r in rows),
        "searched": sum(1 for r in work if r[4]),
        "rows": rows,
    }
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    print("Rule 6b's decision on the emulated RP2040 (rp2040js, 125 MHz), .mpy build")
    print("  %d test positions (seed %d; %d needed the search), %d run on the Pico"
          % (len(work), args.seed, figures["searched"], len(rows)))
    print("  module heap: barragoon.deadlock (at boot)         %8d B" % module)
    print("  ... barragoon.capture_search (at the first search) %7d B, imported in %.1f ms"
          % (search_module, search_import / 1000))
    print("  longest decision                                  %8.1f ms" % figures["worst_ms"])
    print("  longest unit of work (one loop step's overshoot)  %8.2f ms"
          % figures["worst_unit_ms"])
    print("  heap a decision holds at its peak                 %8d B" % figures["worst_heap_peak"])
    print("  on the board, White lifting %s while the loop decides (%s-%s made it White's turn):"
          % ((LIFT_SQUARE,) + LIFT_MOVE))
    print("    lift to the first LED bit %.1f ms%s; longest time between scans %.1f ms; loop "
          "steps (flash writes excluded) median %.1f / max %.1f ms (%d); White's turn on the "
          "screen to the draw on it "
          "%.0f ms" % (lifted["lift_to_light_ms"],
                       "" if lifted["lit_before_draw"] else " (after the draw)",
                       lifted["scan_gap_ms_max"], lifted["loop_step_ms_median"],
                       lifted["loop_step_ms_max"], lifted["loop_steps"],
                       lifted["turn_to_draw_ms"]))
    print("  %-8s %5s %6s %8s %6s %9s %8s %7s  %s" % ("result", "units", "exp", "states",
                                                   "bytes", "ms", "unit ms", "heap",
                                                   "position"))
    names = ("ALIVE", "DEAD", "UNDECIDED")
    for r in rows:
        print("  %-8s %5d %6d %8d %6d %9.1f %8.2f %7d  %s %s"
              % (names[r["result"]], r["units"], r["expanded"], r["states"],
                 r["visited_bytes"], r["ms"], r["longest_unit_ms"], r["heap_peak"],
                 r["position"], tuple(r["stages"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
