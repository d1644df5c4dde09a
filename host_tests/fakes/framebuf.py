# Fallback stand-in for MicroPython's `framebuf` on CPython, used by fakes.install() only when
# host_tests/shims/framebuf.py (the full one) is absent; MicroPython has the real one built in.
# MONO_VLSB only: byte (y // 8) * width + x, bit y % 8 -- the SSD1306 layout. text() draws each
# non-space character as a box, not a real font.
MONO_VLSB = 0
MVLSB = 0
MONO_HLSB = 3
MONO_HMSB = 4
RGB565 = 1
GS2_HMSB = 5
GS4_HMSB = 2
GS8 = 6


class FrameBuffer:
    def __init__(self, buf, width, height, format=MONO_VLSB, stride=None):
        if format != MONO_VLSB:
            raise ValueError("fake framebuf supports MONO_VLSB only")
        if len(buf) < ((height + 7) // 8) * width:
            raise ValueError("buffer too small")
        self._buf = buf
        self._w = width
        self._h = height

    def pixel(self, x, y, c=None):
        if not (0 <= x < self._w and 0 <= y < self._h):
            return None if c is None else None
        i = (y >> 3) * self._w + x
        bit = 1 << (y & 7)
        if c is None:
            return 1 if self._buf[i] & bit else 0
        if c:
            self._buf[i] |= bit
        else:
            self._buf[i] &= ~bit & 0xFF

    def fill(self, c):
        v = 0xFF if c else 0
        for i in range(((self._h + 7) // 8) * self._w):
            self._buf[i] = v

    def fill_rect(self, x, y, w, h, c):
        for yy in range(max(y, 0), min(y + h, self._h)):
            for xx in range(max(x, 0), min(x + w, self._w)):
                self.pixel(xx, yy, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.hline(x, y, w, c)
        self.hline(x, y + h - 1, w, c)
        self.vline(x, y, h, c)
        self.vline(x + w - 1, y, h, c)

    def line(self, x1, y1, x2, y2, c):
        dx, dy = abs(x2 - x1), -abs(y2 - y1)
        sx, sy = (1 if x1 < x2 else -1), (1 if y1 < y2 else -1)
        err = dx + dy
        while True:
            self.pixel(x1, y1, c)
            if x1 == x2 and y1 == y2:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x1 += sx
            if e2 <= dx:
                err += dx
                y1 += sy

    def text(self, s, x, y, c=1):
        for ch in s:
            if ch != " ":
                self.rect(x, y, 7, 8, c)
            x += 8

    def scroll(self, xstep, ystep):
        old = [[self.pixel(x, y) for x in range(self._w)] for y in range(self._h)]
        for y in range(self._h):
            for x in range(self._w):
                sx, sy = x - xstep, y - ystep
                if 0 <= sx < self._w and 0 <= sy < self._h:
                    self.pixel(x, y, old[sy][sx])

    def blit(self, fb, x, y, key=-1, palette=None):
        for yy in range(fb._h):
            for xx in range(fb._w):
                c = fb.pixel(xx, yy)
                if c != key:
                    self.pixel(x + xx, y + yy, c)


FrameBuffer1 = FrameBuffer
