# A simulated clock with the parts of MicroPython's `time` that the firmware uses, so tests and
# benchmarks decide when time passes (app.App takes it as `clock`).


class Clock:
    def __init__(self, t=1000):
        self.t = t

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.t += ms
