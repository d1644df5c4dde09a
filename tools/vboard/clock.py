# Clocks with the parts of MicroPython's `time` that the firmware uses (app.App takes one as
# `clock`): Clock is simulated, so tests and benchmarks decide when time passes; HostTime is
# real time under the same names, for running the firmware on CPython. Clock's ticks wrap like
# the runtime's own (the firmware compares them with drivers.ticks.ticks_diff): every 2**30 ms
# on the RP2040 and CPython, 2**62 on the 64-bit unix port. Clock(PERIOD - 500) starts half a
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


class HostTime:
    """Real time with MicroPython's names, for running the firmware on CPython (the
    simulator's fallback): milliseconds wrap at 2**30 like the board's ticks."""

    def __init__(self):
        import time
        self._time = time

    def ticks_ms(self):
        return int(self._time.monotonic() * 1000) & 0x3FFFFFFF

    def ticks_diff(self, a, b):
        return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000

    def sleep_ms(self, ms):
        self._time.sleep(ms / 1000)
