# Fake `neopixel` module (the MicroPython API: NeoPixel(pin, n, bpp=3, timing=1), .buf in the
# strip's byte order (GRB for WS2812), .ORDER, write()). Every write() is counted; with
# vboard.machine.record set, a copy of the buffer is kept in .frames (what the LEDs received).
from vboard import machine as _machine

instances = []


class NeoPixel:
    ORDER = (1, 0, 2, 3)   # where R, G, B, W go inside one pixel's bytes

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        self.writes = 0
        self.frames = []
        instances.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        o = i * self.bpp
        for k in range(self.bpp):
            self.buf[o + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        o = i * self.bpp
        return tuple(self.buf[o + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        self.writes += 1
        if _machine.record:
            self.frames.append(bytes(self.buf))

    def rgb(self, i, frame=-1):
        """(r, g, b) of chain LED i in a recorded frame (default: the last one written)."""
        buf = self.frames[frame]
        o = i * self.bpp
        return (buf[o + self.ORDER[0]], buf[o + self.ORDER[1]], buf[o + self.ORDER[2]])


def reset():
    instances.clear()
