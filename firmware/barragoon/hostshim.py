# Stand-ins for what MicroPython has built in, so that the engine's modules (engine.py,
# evaluation.py) run on CPython too: the host tests and tools. The board never
# imports this module (they import it only where `micropython` is missing), so its code costs
# the Pico's heap nothing.
import time


class micropython:
    @staticmethod
    def viper(f):                # viper code runs as plain Python
        return f

    @staticmethod
    def native(f):               # and so does native code
        return f


def const(x):
    return x


def ptr8(x):
    return x


def ptr16(x):                    # unsigned halfwords of a buffer, as viper sees them
    return memoryview(x).cast("B").cast("H")


def ptr32(x):                    # words (the engine only copies them)
    return memoryview(x).cast("B").cast("i")


def ticks_ms():
    return (time.monotonic_ns() // 1000000) & 0x3FFFFFFF


def ticks_diff(a, b):
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def heap_lock():                 # CPython has no heap to lock
    pass


heap_unlock = heap_lock
