# The wrap-safe difference of two ticks (ms or us), the one the whole firmware uses: the
# controller, the flight recorder and the drivers. MicroPython's own time.ticks_diff where
# there is one: its period is the port's (2**30 on the RP2040, 2**62 on the 64-bit unix port),
# the same as its ticks_ms(). CPython has none: the RP2040's arithmetic (period 2**30), with
# drivers/ticks.py's stand-in clocks wrapping there too.
try:
    from time import ticks_diff
except ImportError:  # CPython
    def ticks_diff(a, b):
        return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000
