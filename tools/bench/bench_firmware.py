"""Heap and time of the whole firmware on fake hardware (MicroPython unix port).

    python tools/bench/bench_firmware.py [--build DIR]   runs it under micropython -X heapsize=192K

Reports: heap used after boot (code + data, gc.mem_alloc after gc.collect), the peak during a
whole game played through the fake sensors, time per scan-and-update cycle (idle, and with an
event), and the highest LED current the driver estimated for any frame. With --build DIR (the
output of `python tools/deploy.py --build-only --march host --out DIR`) the compiled .mpy modules
are measured, as on the board; otherwise the sources (compiling them costs extra heap while
importing).
The unix port is 64-bit: objects take up to twice the RAM they take on the RP2040.
"""
import sys

HEAP = 512 * 1024          # with --build (.mpy); sources need room to compile: 1 MB


def host_main(argv):
    """CPython: check the command line, then run this file under micropython."""
    import argparse
    import os
    import subprocess
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # tools/
    import micropython_env
    ap = argparse.ArgumentParser(prog="bench_firmware.py", description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.formatter_class = argparse.RawDescriptionHelpFormatter
    ap.add_argument("--build", metavar="DIR",
                    help="measure the compiled firmware in DIR (made by "
                         "`python tools/deploy.py --build-only --march host`)")
    args = ap.parse_args(argv)
    cmd = []
    if args.build is not None:
        build = os.path.abspath(args.build)
        if not os.path.isfile(os.path.join(build, "app.mpy")) or \
                not os.path.isfile(os.path.join(build, "config.py")):
            ap.error("--build %s: no compiled firmware there (make it with: python "
                     "tools/deploy.py --build-only --march host --out %s)"
                     % (args.build, args.build))
        cmd = ["--build", build]
    mp, why = micropython_env.locate()
    if mp is None:
        sys.stderr.write("bench_firmware: needs the MicroPython unix port: %s\n" % why)
        return 1
    heap = HEAP if cmd else 1024 * 1024
    try:
        return subprocess.run([mp, "-X", "heapsize=%d" % heap, os.path.abspath(__file__)]
                              + cmd).returncode
    except KeyboardInterrupt:
        return 130


if sys.implementation.name != "micropython":
    sys.exit(host_main(sys.argv[1:]))

import gc  # noqa: E402
import time  # noqa: E402

_tools = (__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/.."   # tools/bench/..
fw = _tools + "/../firmware"
if sys.argv[1:2] == ["--build"] and len(sys.argv) == 3:   # checked by host_main on CPython
    fw = sys.argv[2]
elif sys.argv[1:]:
    sys.stderr.write("bench_firmware: run it with python (it checks the arguments), or with "
                     "micropython and no arguments / --build DIR\n")
    sys.exit(2)
sys.path.insert(0, fw)
sys.path.insert(0, _tools)
gc.collect()
base = gc.mem_alloc()

import vboard  # noqa: E402
machine = vboard.install()
machine.record = False
import config  # noqa: E402
from vboard.board_wiring import BoardWiring  # noqa: E402
from vboard.clock import Clock  # noqa: E402
gc.collect()
fakes_heap = gc.mem_alloc() - base

import app  # noqa: E402
from storage import Storage  # noqa: E402



def main():
    d = "/tmp/barragoon_bench_fw/"
    import os
    try:
        os.mkdir(d[:-1])
    except OSError:
        for f in os.listdir(d[:-1]):
            os.remove(d + f)
    wiring = BoardWiring(config.MATRIX_ROW_PINS, config.MATRIX_COL_PINS)
    clock = Clock()
    a = app.App(Storage(d), clock)
    a.boot()
    gc.collect()
    boot_heap = gc.mem_alloc() - base - fakes_heap
    print("heap used after boot (code + data, fakes excluded): %d B; free %d B of %d B "
          "(-X heapsize, 64-bit unix port, %s)" % (boot_heap, gc.mem_free(),
                                                  gc.mem_free() + gc.mem_alloc(),
                                                  ".mpy" if "--build" in sys.argv else "sources"))
    ctl = a.ctl
    leds = a.leds
    worst_ma = 0

    def run(ms):
        nonlocal worst_ma
        end = clock.t + ms
        while clock.t < end:
            a.step()
            if leds.last_ma > worst_ma:
                worst_ma = leds.last_ma
            clock.t += 5

    from barragoon.game import start_position
    pos = start_position()                       # a fresh board: the guided set-up
    for sq in range(63):
        if pos.get(sq):
            wiring.place(sq)
    run(400)                                     # still: the game starts
    # Idle cycle time.
    t0 = time.ticks_us()
    for i in range(200):
        a.step()
        clock.t += 5
    idle_us = time.ticks_diff(time.ticks_us(), t0) / 200
    # The same without the matrix scan, whose time here is mostly the fake GPIO model
    # (tools/bench/bench_drivers.py measures the scan itself with C-level stand-ins).
    real_scan = a.matrix.scan
    a.matrix.scan = lambda now: None
    t0 = time.ticks_us()
    for i in range(200):
        a.step()
        clock.t += 5
    rest_us = time.ticks_diff(time.ticks_us(), t0) / 200
    a.matrix.scan = real_scan
    g = ctl.game
    peak_live = peak = 0
    k = 12345
    turns = 0
    event_us = 0
    events = 0
    while not g.over and turns < 150:
        if g.placing() >= 0:
            for sq in range(63):
                if not wiring.field[sq]:
                    wiring.place(sq)
                    run(400)
                    machine.set_input(config.BUTTON_PINS[2], 0)
                    run(30)
                    machine.set_input(config.BUTTON_PINS[2], 1)
                    run(60)
                    break
        else:
            moves = g.legal_moves()
            k = (k * 1103515245 + 12345) & 0x3FFFFFFF
            m = moves[k % len(moves)]
            frm, to = m // 64, m % 64
            wiring.lift(frm)
            clock.t += 5
            t0 = time.ticks_us()
            a.step()                             # the scan that sees the lift: lit at once
            t1 = time.ticks_us()
            event_us += time.ticks_diff(t1, t0)
            events += 1
            run(300)
            if wiring.field[to]:
                wiring.lift(to)
                run(300)
            wiring.place(to)
            run(400)
            run(2000)                            # the reopen window closes
            turns += 1
        peak = max(peak, gc.mem_alloc() - base - fakes_heap)
        gc.collect()
        peak_live = max(peak_live, gc.mem_alloc() - base - fakes_heap)
    print("whole game (%d turns, %s): peak heap %d B (live after collect %d B)"
          % (turns, g.reason or "unfinished", peak, peak_live))
    print("scan-and-update cycle, idle: %.1f us with the fake matrix, %.1f us of it outside "
          "the scan (RP2040 estimate x150: %.2f ms + the scan); the cycle that sees a lift "
          "and lights its targets: %.1f us" % (idle_us, rest_us, rest_us * 150 / 1000,
                                               event_us / max(events, 1)))
    print("flight recorder: %d events, %d B of buffers"
          % (a.recorder.size, a.recorder.ram_bytes()))
    # The LED test's full-white step: the hardest frame the controller produces.
    from controller.modes import LedTest
    test = LedTest()
    ctl.push(test)
    run(10)
    test._go(3, clock.t)
    ctl.dirty()
    run(100)
    print("highest LED current estimated for any frame in this run: %d mA (budget %d mA)"
          % (worst_ma, config.LED_CURRENT_BUDGET_MA))


main()
