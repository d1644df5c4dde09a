# The virtual board: stand-ins for the RP2040 hardware that the firmware drives, so the
# unchanged firmware runs on a computer. The simulator (tools/sim.py, tools/simulator/), the
# benchmarks and the host tests all use it; it runs on CPython and on the MicroPython unix port.
#
#   machine.py        GPIO levels, Pin, mem32 (SIO GPIO_IN), I2C, PWM, WDT, reset()
#   neopixel.py       the LED strip (keeps the buffer as written)
#   board_wiring.py   the 9 x 7 sensor matrix answering the firmware's row drives
#   ssd1306_panel.py  an SSD1306 on the I2C bus keeping its display RAM
#   clock.py          a simulated millisecond clock, and real time under MicroPython's names
#   framebuf.py       CPython stand-in for MicroPython's built-in framebuf
#   font5x7.py        the project's own font for it, where no micropython lends MicroPython's
#   decode.py         the other way round: a NeoPixel buffer and SSD1306 writes back to pictures
#                     (for the simulator's page and the emulated Pico, tools/rp2040/)
#
# vboard.install() must run before any driver module is imported: it puts the stand-ins into
# sys.modules, which is the reliable way to shadow the MicroPython unix port's built-in
# `machine` (and works the same on CPython). On CPython, where there is no `framebuf`, the
# stand-in of framebuf.py is installed too.
import sys


def install():
    from vboard import machine, neopixel
    sys.modules["machine"] = machine
    sys.modules["neopixel"] = neopixel
    install_framebuf()
    return machine


def install_framebuf():
    """Make `import framebuf` work: MicroPython's own, else the CPython stand-in."""
    try:
        import framebuf  # noqa: F401  (built into MicroPython)
    except ImportError:
        from vboard import framebuf as shim
        sys.modules["framebuf"] = shim


def reset():
    """Fresh virtual hardware for the next test or run."""
    from vboard import machine, neopixel
    machine.clear()
    neopixel.reset()


def heap_bytes(fn, n=300):
    """Heap bytes used by fn(0) ... fn(n-1) after two warm-up calls, on MicroPython:
    (growth of gc.mem_alloc(), bytes counted by micropython.mem_total() or None). mem_total
    also catches blocks freed again, e.g. call frames of functions with many locals."""
    import gc
    try:
        from micropython import mem_total
    except ImportError:
        mem_total = None
    fn(0)
    fn(1)
    gc.collect()
    t0 = mem_total() if mem_total else 0
    a0 = gc.mem_alloc()
    i = 0
    while i < n:
        fn(i)
        i += 1
    a1 = gc.mem_alloc()
    t1 = mem_total() if mem_total else 0
    return a1 - a0, (t1 - t0 if mem_total else None)
