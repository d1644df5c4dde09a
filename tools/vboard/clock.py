# Clocks with the parts of MicroPython's `time` that the firmware uses (app.App takes one as
# `clock`): Clock is simulated, so tests and benchmarks decide when time passes; HostTime is
# real time under the same names, for running the firmware on CPython.


class Clock:
    def __init__(self, t=1000):
        self.t = t

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return a - b

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
