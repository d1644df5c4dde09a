"""Time and heap per event of the board controller, the flight recorder's RAM, the game clock's
cost, and the peak heap of a whole game.

    python tools/bench/bench_controller.py        CPython figures, then the same under micropython
    micropython tools/bench/bench_controller.py   MicroPython figures only

Per event (the device handles each raw sensor change the same way): a lift with hints (LED
frame ready, then the screen), a set-down in transit, and the loop step that commits a move at
rest. The game clock: an idle loop step (tick and render) with and without a running clock,
the screen redrawn with the clocks, and its heap. Heap per event = growth of gc.mem_alloc() over the event after a gc.collect() (the
objects it leaves to the garbage collector); "frames" adds what micropython.mem_total() also
counts: call frames of functions with many locals, freed again at once. Measured on the
MicroPython unix port, which is 64-bit: objects there take up to twice the RAM they take on the
RP2040. Times are unix-port times; the RP2040 figure is the unix time x 150 (an estimate:
tools/bench/bench_rp2040.py measures on an emulated Pico).
"""
import sys
import gc
import time

_tools = (__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/.."   # tools/bench/..
sys.path.insert(0, _tools)
sys.path.insert(0, _tools + "/../firmware")

from toolkit.cli import no_arguments  # noqa: E402

no_arguments("bench_controller", globals().get("__doc__"))
from toolkit.ctl_script import Rig  # noqa: E402

MICRO = sys.implementation.name == "micropython"
FACTOR = 150
try:
    from micropython import mem_total
except ImportError:
    mem_total = None


def now_us():
    return time.ticks_us() if MICRO else time.perf_counter() * 1e6


def since(t0):
    return time.ticks_diff(time.ticks_us(), t0) if MICRO else now_us() - t0


def heap():
    return gc.mem_alloc() if MICRO else 0


def total():
    return mem_total() if MICRO and mem_total else 0


def measure(fn):
    gc.collect()
    h0 = heap()
    m0 = total()
    t0 = now_us()
    fn()
    us = since(t0)
    return us, heap() - h0, total() - m0


def per_event(repeats):
    """Times: the fastest of the repeats (the machine is shared); heap: the largest."""
    res = {}

    def note(key, v, most=False):
        if key not in res or (v > res[key] if most else v < res[key]):
            res[key] = v
    for i in range(repeats):
        rig = Rig()
        rig.start_game()
        rig.advance(10)
        ctl = rig.ctl
        rig.board[10] = 0
        gc.collect()
        h0 = heap()
        m0 = total()
        t0 = now_us()
        ctl.on_square(10, 0, rig.t)                   # lift d2: hints
        ctl.tick(rig.t)
        ctl.render(rig.t, 1)
        led = since(t0)
        ctl.render(rig.t, 2)
        us = since(t0)
        b, f = heap() - h0, total() - m0              # (before note() grows its dict)
        note("lift_led", led)
        note("lift_all", us)
        note("lift_b", b, True)
        note("lift_f", f, True)
        rig.advance(300)
        rig.board[17] = 1

        def drop():
            ctl.on_square(17, 1, rig.t)               # set down on d3: in transit
            ctl.tick(rig.t)
            ctl.render(rig.t)
        us, b, f = measure(drop)
        note("drop_us", us)
        note("drop_b", b, True)
        note("drop_f", f, True)
        rig.board[17] = 0
        ctl.on_square(17, 0, rig.t + 40)
        rig.t += 80
        rig.board[24] = 1
        ctl.on_square(24, 1, rig.t)                   # on d4 ...
        rig.t += 400                                  # ... and still: the commit

        def commit():
            ctl.tick(rig.t)
            ctl.render(rig.t)
        us, b, f = measure(commit)
        assert rig.record() == "d2-d4", rig.record()
        note("commit_us", us)
        note("commit_b", b, True)
        note("commit_f", f, True)
    return res


def recorder_ram():
    from recorder import Recorder
    gc.collect()
    a0 = gc.mem_alloc() if MICRO else 0
    rec = Recorder(2048, 400)
    gc.collect()
    a1 = gc.mem_alloc() if MICRO else 0
    return rec.ram_bytes(), a1 - a0, rec


def whole_game(limit):
    """Play a game through the controller, choosing moves deterministically; report the
    peak live heap (after gc.collect) and the peak heap including garbage."""
    gc.collect()
    base = gc.mem_alloc() if MICRO else 0
    rig = Rig()
    rig.start_game()
    g = rig.ctl.game
    peak_live = peak_any = 0
    k = 7
    turns = 0
    while not g.over and turns < limit:
        if g.placing() >= 0:
            for sq in range(63):
                if not rig.board[sq]:
                    rig.run("drop %s; wait 350; press ok" % name(sq))
                    break
        else:
            moves = g.legal_moves()
            k = (k * 1103515245 + 12345) & 0x7FFFFFFF
            m = moves[k % len(moves)]
            rig.run("lift %s; wait 300" % name(m // 64))
            if rig.board[m % 64]:
                rig.run("lift %s; wait 300" % name(m % 64))
            rig.run("drop %s; wait 350; wait 2000" % name(m % 64))
            turns += 1
        if MICRO:
            peak_any = max(peak_any, gc.mem_alloc() - base)
            gc.collect()
            peak_live = max(peak_live, gc.mem_alloc() - base)
    return turns, peak_live, peak_any, g


def clock_figures(steps=2000):
    """(us per idle loop step without / with a running clock, us of Clock.tick alone, us of a
    play screen with the clocks, heap B over the steps with the clock, heap B of a Clock with
    100 turns of history, heap B of the module)."""
    from controller import clock as K
    per = []
    for minutes in (0, 1):
        rig = Rig()
        rig.start_game()
        ctl = rig.ctl
        ctl.clock = K.from_choice(minutes, 1)
        if ctl.clock is not None:
            ctl.clock.sync(ctl.game)
        t = rig.t
        ctl.tick(t)
        ctl.render(t)
        best = None
        for rep in range(3):
            gc.collect()
            h0 = heap()
            t0 = now_us()
            for i in range(steps):         # 10 s: the screen is redrawn once a second
                t += 5
                ctl.tick(t)
                ctl.render(t)
            us = since(t0)
            grown = heap() - h0
            best = us if best is None or us < best else best
        per.append(best / steps)
    ck, g = ctl.clock, ctl.game
    tick = ck.tick
    t0 = now_us()
    for i in range(steps):
        t += 1                             # (no display change within a second)
        tick(t, g, True)
    tick_us = since(t0) / steps

    def redraw():
        ctl.screen_dirty = True
        ctl.render(t, 2)
    screen_us = min(measure(redraw)[0] for i in range(20))
    gc.collect()
    h0 = heap()
    ck = K.Clock(300000, 2000)
    ck.hist = K.array("i", range(100))
    gc.collect()
    obj = heap() - h0
    del ck
    del sys.modules["controller.clock"]
    gc.collect()
    h0 = heap()
    __import__("controller.clock")
    gc.collect()
    mod = heap() - h0
    return per[0], per[1], tick_us, screen_us, grown, obj, mod


def name(sq):
    from barragoon.notation import square_name
    return square_name(sq)


def main():
    r = per_event(20)
    tag = sys.implementation.name
    print("%-11s lift with hints: LED frame ready %7.1f us, with screen %7.1f us; heap %d B "
          "(frames %d B)" % (tag, r["lift_led"], r["lift_all"], r["lift_b"], r["lift_f"]))
    print("%-11s set-down in transit: %7.1f us, heap %d B (frames %d B)"
          % ("", r["drop_us"], r["drop_b"], r["drop_f"]))
    print("%-11s the step that commits a move at rest: %7.1f us, heap %d B (frames %d B; "
          "most of it the rules core's move)" % ("", r["commit_us"], r["commit_b"],
                                                 r["commit_f"]))
    fixed, measured, rec = recorder_ram()
    print("%-11s flight recorder: %d events in %d B of buffers (%s)"
          % ("", rec.size, fixed, "%d B of heap measured" % measured if MICRO
             else "3 B per event"))
    off, on, tick_us, scr, grown, obj, mod = clock_figures()
    print("%-11s game clock: loop step (tick + render) %.2f us without, %.2f us with a running "
          "clock (its screen redrawn once a second; heap %d B in 10 s); Clock.tick %.2f us; "
          "play screen with the clocks %.0f us" % ("", off, on, grown, tick_us, scr))
    if MICRO:
        print("%-11s game clock heap: a Clock with 100 turns of history %d B, the module %d B"
              % ("", obj, mod))
    if MICRO:
        print("%-11s RP2040 estimate (x%d): lift LED frame %.2f ms (with screen %.2f ms), "
              "commit step %.2f ms" % ("", FACTOR, r["lift_led"] * FACTOR / 1000,
                                       r["lift_all"] * FACTOR / 1000,
                                       r["commit_us"] * FACTOR / 1000))
        turns, live, anyb, g = whole_game(150)
        print("%-11s whole game of %d turns (%s): peak live heap %d B, peak incl. garbage "
              "%d B" % ("", turns, g.reason or "unfinished", live, anyb))
    else:
        import os
        import subprocess
        from micropython_env import find_micropython, locate
        mp = find_micropython()
        if mp is None:
            print("micropython: none, %s" % locate()[1])
            return
        sys.stdout.flush()
        subprocess.run([mp, "-X", "heapsize=2M", os.path.abspath(__file__)])


main()
