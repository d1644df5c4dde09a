# The wrap-safe tick difference and the millisecond clock, the ones the whole firmware uses:
# the controller, the flight recorder and the drivers. MicroPython's own where there are
# some: their period is the port's (2**30 on the RP2040, 2**62 on the 64-bit unix port).
# CPython has none: the RP2040's arithmetic (period 2**30), with stand-in clocks wrapping
# there too (drivers/ticks.py adds the microsecond ones).
try:
    from time import ticks_diff, ticks_ms
except ImportError:  # CPython
    import time as _time

    def ticks_diff(a, b):
        return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000

    def ticks_ms():
        return (_time.perf_counter_ns() // 1000000) & 0x3FFFFFFF
