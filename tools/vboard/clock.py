# A simulated clock with the parts of MicroPython's `time` that the firmware uses, so tests and
# benchmarks decide when time passes (app.App takes it as `clock`). Ticks wrap like the
# runtime's own (the firmware compares them with drivers.ticks.ticks_diff): every 2**30 ms on
# the RP2040 and CPython, 2**62 on the 64-bit unix port. Clock(PERIOD - 500) starts half a
# second before the wrap.
try:
    from time import ticks_add, ticks_diff as _diff
    MASK = ticks_add(0, -1)
except ImportError:  # CPython: the same period as drivers.ticks' stand-ins
    MASK = (1 << 30) - 1

    def _diff(a, b):
        return ((a - b + 0x20000000) & MASK) - 0x20000000
PERIOD = MASK + 1


class Clock:
    def __init__(self, t=1000):
        self.t = t

    def ticks_ms(self):
        return self.t & MASK             # small ints: no allocation in the idle loop

    def ticks_diff(self, a, b):
        return _diff(a, b)

    def sleep_ms(self, ms):
        self.t += ms
