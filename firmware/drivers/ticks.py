# Millisecond/microsecond tick helpers: MicroPython's own, or stand-ins so the drivers also run
# on CPython in host tests (wrapping at 2**30 like the RP2040's). ticks_diff() and ticks_ms()
# are the firmware's one wrap-safe difference and clock (controller/ticks.py), re-exported.
from controller.ticks import ticks_diff, ticks_ms  # noqa: F401

try:
    from time import ticks_add, ticks_us, sleep_us
except ImportError:  # CPython
    import time as _time

    def ticks_add(a, b):
        return (a + b) & 0x3FFFFFFF

    def ticks_us():
        return (_time.perf_counter_ns() // 1000) & 0x3FFFFFFF

    def sleep_us(us):
        # Busy-wait like the MicroPython call: host tests time sensor power-up with it.
        end = _time.perf_counter_ns() + us * 1000
        while _time.perf_counter_ns() < end:
            pass
