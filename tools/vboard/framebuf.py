# CPython stand-in for MicroPython's built-in `framebuf` module, for host tests and tools.
#
# Same API and, for the formats below, the same pixels as MicroPython 1.2x's framebuf
# (extmod/modframebuf.c): FrameBuffer(buffer, width, height, format, stride=width) drawing into
# the caller's buffer, so a subclass such as an SSD1306 driver (`super().__init__(self.buffer,
# 128, 64, framebuf.MONO_VLSB)`) works unchanged. Methods: fill, fill_rect, pixel, hline, vline,
# rect, line, ellipse, poly, blit, scroll, text. Formats: MONO_VLSB (what the firmware uses; the
# host tests compare it with the real module), MONO_HLSB, MONO_HMSB, RGB565, GS2_HMSB, GS4_HMSB,
# GS8. Not emulated: the buffer protocol on the FrameBuffer object itself (bytes(fb)); use the
# buffer you passed in.
#
# Text: MicroPython's 8x8 font is NOT copied here. On the first text() call the glyphs of
# characters 32..127 are read from the real MicroPython unix port (tools/micropython_env.py
# finds it): it draws every character with its own framebuf and prints the bytes. The result is
# kept in memory, and in build/.cache/framebuf_font8x8.hex (build/ is kept out of git), so text
# is then pixel-identical to the board's. Without a micropython executable (and no cache file,
# or with MICROPYTHON=none) the project's own 5x7 font of font5x7.py is used: readable, the same
# cells and clipping, but not the board's pixels. FONT_SOURCE says which one is in use.
import os
import subprocess
import sys

MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

_BPP = {MONO_VLSB: 1, RGB565: 16, GS4_HMSB: 4, MONO_HLSB: 1, MONO_HMSB: 1, GS2_HMSB: 2, GS8: 8}

_TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE_FILE = os.path.join(os.path.dirname(_TOOLS), "build", ".cache", "framebuf_font8x8.hex")

_font = None          # bytes: 96 glyphs x 8 column bytes (LSB = top row)
FONT_SOURCE = None    # "micropython", "cache" or "own" (font5x7.py) once text() has been used
FONT_NAMES = {"micropython": "MicroPython's 8x8 font (read from the micropython executable)",
              "cache": "MicroPython's 8x8 font (cached from a micropython executable)",
              "own": "the project's own 5x7 font (no micropython executable to read MicroPython's "
                     "from: text pixels differ from the board's)"}

_FONT_SCRIPT = (
    "import framebuf, binascii\n"
    "b = bytearray(8)\n"
    "f = framebuf.FrameBuffer(b, 8, 8, framebuf.MONO_VLSB)\n"
    "for c in range(32, 128):\n"
    "    f.fill(0)\n"
    "    f.text(chr(c), 0, 0, 1)\n"
    "    print(binascii.hexlify(b).decode())\n"
)


def _micropython_env():
    if _TOOLS not in sys.path:
        sys.path.insert(0, _TOOLS)
    import micropython_env
    return micropython_env


def _parse_font(text):
    rows = text.split()
    if len(rows) != 96 or any(len(r) != 16 for r in rows):
        return None
    try:
        return bytes.fromhex("".join(rows))
    except ValueError:
        return None


def load_font():
    """The 8x8 glyphs (bytes, 96 * 8) of chars 32..127: MicroPython's if it can be had, else
    the project's own (FONT_SOURCE says which)."""
    global _font, FONT_SOURCE
    if _font is not None:
        return _font
    env = _micropython_env()
    font = None
    if not env.hidden():
        font = _cached_font()
        if font is not None:
            FONT_SOURCE = "cache"
        else:
            font = _font_from_micropython(env)
    if font is None:
        from vboard import font5x7
        font = font5x7.columns()
        FONT_SOURCE = "own"
    _font = font
    return font


def font_name():
    """What text() draws with, in words (for tools that render screens)."""
    load_font()
    return FONT_NAMES[FONT_SOURCE]


def _cached_font():
    try:
        with open(CACHE_FILE) as f:
            return _parse_font(f.read())
    except OSError:
        return None


def _font_from_micropython(env):
    global FONT_SOURCE
    if env.find_micropython() is None:
        return None
    try:
        font = _parse_font(env.run(["-c", _FONT_SCRIPT], timeout=60).stdout)
    except (OSError, RuntimeError, ValueError, subprocess.SubprocessError):
        font = None
    if font is None:
        return None
    FONT_SOURCE = "micropython"
    try:
        os.makedirs(os.path.dirname(CACHE_FILE), exist_ok=True)
        with open(CACHE_FILE, "w") as f:
            f.write("\n".join(font[i:i + 8].hex() for i in range(0, 768, 8)) + "\n")
    except OSError:
        pass
    return font


def _cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


class FrameBuffer:
    def __init__(self, buffer, width, height, format, stride=None, _readonly=False):
        if stride is None:
            stride = width
        if width < 1 or height < 1 or width > 0xFFFF or height > 0xFFFF \
                or stride > 0xFFFF or stride < width:
            raise ValueError()
        if format not in _BPP:
            raise ValueError("invalid format")
        height_required = height
        if format == MONO_VLSB:
            height_required = (height + 7) & ~7
        elif format in (MONO_HLSB, MONO_HMSB):
            stride = (stride + 7) & ~7
        elif format == GS2_HMSB:
            stride = (stride + 3) & ~3
        elif format == GS4_HMSB:
            stride = (stride + 1) & ~1
        buf = memoryview(buffer)
        if buf.readonly and not _readonly:
            raise TypeError("object with buffer protocol required (writable)")
        buf = buf.cast("B")
        if height_required * stride * _BPP[format] // 8 > len(buf):
            raise ValueError()
        # Private names: a subclass (display driver) owns width/height/buffer attributes.
        self._fb_buf = buf
        self._fb_w = width
        self._fb_h = height
        self._fb_stride = stride
        self._fb_format = format

    # --- per-format pixel access (x, y already clipped) ---------------------------------------
    def _set(self, x, y, c):
        b = self._fb_buf
        f = self._fb_format
        if f == MONO_VLSB:
            i = (y >> 3) * self._fb_stride + x
            m = 1 << (y & 7)
            b[i] = (b[i] | m) if c else (b[i] & ~m & 0xFF)
        elif f == MONO_HLSB or f == MONO_HMSB:
            i = (x + y * self._fb_stride) >> 3
            o = (x & 7) if f == MONO_HMSB else 7 - (x & 7)
            b[i] = (b[i] & ~(1 << o) & 0xFF) | ((c != 0) << o)
        elif f == RGB565:
            i = 2 * (x + y * self._fb_stride)
            b[i] = c & 0xFF
            b[i + 1] = (c >> 8) & 0xFF
        elif f == GS8:
            b[x + y * self._fb_stride] = c & 0xFF
        elif f == GS4_HMSB:
            i = (x + y * self._fb_stride) >> 1
            if x % 2:
                b[i] = (c & 0x0F) | (b[i] & 0xF0)
            else:
                b[i] = ((c << 4) & 0xFF) | (b[i] & 0x0F)
        else:  # GS2_HMSB
            i = (x + y * self._fb_stride) >> 2
            s = (x & 3) << 1
            b[i] = ((c & 3) << s) | (b[i] & ~(3 << s) & 0xFF)

    def _get(self, x, y):
        b = self._fb_buf
        f = self._fb_format
        if f == MONO_VLSB:
            return (b[(y >> 3) * self._fb_stride + x] >> (y & 7)) & 1
        if f == MONO_HLSB or f == MONO_HMSB:
            o = (x & 7) if f == MONO_HMSB else 7 - (x & 7)
            return (b[(x + y * self._fb_stride) >> 3] >> o) & 1
        if f == RGB565:
            i = 2 * (x + y * self._fb_stride)
            return b[i] | (b[i + 1] << 8)
        if f == GS8:
            return b[x + y * self._fb_stride]
        if f == GS4_HMSB:
            v = b[(x + y * self._fb_stride) >> 1]
            return v & 0x0F if x % 2 else v >> 4
        return (b[(x + y * self._fb_stride) >> 2] >> ((x & 3) << 1)) & 3

    def _fill_rect(self, x, y, w, h, c):
        # x, y, w, h already clipped and non-empty
        if self._fb_format == MONO_VLSB:
            b = self._fb_buf
            stride = self._fb_stride
            yy = y
            yend = y + h
            while yy < yend:
                page = yy >> 3
                top = yy & 7
                bot = min(8, top + (yend - yy))
                m = ((1 << bot) - 1) & ~((1 << top) - 1)
                i = page * stride + x
                if c:
                    for k in range(i, i + w):
                        b[k] |= m
                else:
                    nm = ~m & 0xFF
                    for k in range(i, i + w):
                        b[k] &= nm
                yy += bot - top
            return
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self._set(xx, yy, c)

    def _clipped_fill_rect(self, x, y, w, h, c):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self._fb_h or x >= self._fb_w:
            return
        xend = min(self._fb_w, x + w)
        yend = min(self._fb_h, y + h)
        x = max(x, 0)
        y = max(y, 0)
        self._fill_rect(x, y, xend - x, yend - y, c)

    def _set_checked(self, x, y, c):
        if 0 <= x < self._fb_w and 0 <= y < self._fb_h:
            self._set(x, y, c)

    # --- public API ----------------------------------------------------------------------------
    def fill(self, c):
        self._fill_rect(0, 0, self._fb_w, self._fb_h, c)

    def fill_rect(self, x, y, w, h, c):
        self._clipped_fill_rect(x, y, w, h, c)

    def pixel(self, x, y, c=None):
        if 0 <= x < self._fb_w and 0 <= y < self._fb_h:
            if c is None:
                return self._get(x, y)
            self._set(x, y, c)
        return None

    def hline(self, x, y, w, c):
        self._clipped_fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self._clipped_fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self._clipped_fill_rect(x, y, w, h, c)
        else:
            self._clipped_fill_rect(x, y, w, 1, c)
            self._clipped_fill_rect(x, y + h - 1, w, 1, c)
            self._clipped_fill_rect(x, y, 1, h, c)
            self._clipped_fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        dx = x2 - x1
        if dx > 0:
            sx = 1
        else:
            dx = -dx
            sx = -1
        dy = y2 - y1
        if dy > 0:
            sy = 1
        else:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                self._set_checked(y1, x1, c)
            else:
                self._set_checked(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        self._set_checked(x2, y2, c)

    def _ellipse_points(self, cx, cy, x, y, c, mask):
        if mask & 0x10:
            if mask & 1:
                self._clipped_fill_rect(cx, cy - y, x + 1, 1, c)
            if mask & 2:
                self._clipped_fill_rect(cx - x, cy - y, x + 1, 1, c)
            if mask & 4:
                self._clipped_fill_rect(cx - x, cy + y, x + 1, 1, c)
            if mask & 8:
                self._clipped_fill_rect(cx, cy + y, x + 1, 1, c)
        else:
            if mask & 1:
                self._set_checked(cx + x, cy - y, c)
            if mask & 2:
                self._set_checked(cx - x, cy - y, c)
            if mask & 4:
                self._set_checked(cx - x, cy + y, c)
            if mask & 8:
                self._set_checked(cx + x, cy + y, c)

    def ellipse(self, cx, cy, xr, yr, c, f=False, m=None):
        mask = 0x10 if f else 0
        mask |= 0x0F if m is None else (m & 0x0F)
        two_a2 = 2 * xr * xr
        two_b2 = 2 * yr * yr
        x, y = xr, 0
        xchange = yr * yr * (1 - 2 * xr)
        ychange = xr * xr
        err = 0
        stopx = two_b2 * xr
        stopy = 0
        while stopx >= stopy:
            self._ellipse_points(cx, cy, x, y, c, mask)
            y += 1
            stopy += two_a2
            err += ychange
            ychange += two_a2
            if 2 * err + xchange > 0:
                x -= 1
                stopx -= two_b2
                err += xchange
                xchange += two_b2
        x, y = 0, yr
        xchange = yr * yr
        ychange = xr * xr * (1 - 2 * yr)
        err = 0
        stopx = 0
        stopy = two_a2 * yr
        while stopx <= stopy:
            self._ellipse_points(cx, cy, x, y, c, mask)
            x += 1
            stopx += two_b2
            err += xchange
            xchange += two_b2
            if 2 * err + ychange > 0:
                y -= 1
                stopy -= two_a2
                err += ychange
                ychange += two_a2

    def poly(self, x, y, coords, c, f=False):
        pts = list(coords)
        n = len(pts) // 2
        if n == 0:
            return
        if f:
            ys = pts[1:2 * n:2]
            for row in range(min(ys), max(ys) + 1):
                nodes = []
                px1, py1 = pts[0], pts[1]
                i = 2 * n - 1
                while True:
                    py2 = pts[i]
                    px2 = pts[i - 1]
                    i -= 2
                    if py1 != py2 and ((py1 > row >= py2) or (py1 <= row < py2)):
                        node = _cdiv(32 * px1 + _cdiv(32 * (px2 - px1) * (row - py1), py2 - py1)
                                     + 16, 32)
                        nodes.append(node)
                    elif row == max(py1, py2):
                        if py1 < py2:
                            self._set_checked(x + px2, y + py2, c)
                        elif py2 < py1:
                            self._set_checked(x + px1, y + py1, c)
                        else:
                            self.line(x + px1, y + py1, x + px2, y + py2, c)
                    px1, py1 = px2, py2
                    if i < 0:
                        break
                nodes.sort()
                for k in range(0, len(nodes) - 1, 2):
                    self._clipped_fill_rect(x + nodes[k], y + row, nodes[k + 1] - nodes[k] + 1,
                                            1, c)
        else:
            px1, py1 = pts[0], pts[1]
            i = 2 * n - 1
            while True:
                py2 = pts[i]
                px2 = pts[i - 1]
                i -= 2
                self.line(x + px1, y + py1, x + px2, y + py2, c)
                px1, py1 = px2, py2
                if i < 0:
                    break

    def blit(self, fbuf, x, y, key=-1, palette=None):
        fbuf = _source(fbuf)
        if palette is not None:
            palette = _source(palette)
        if x >= self._fb_w or y >= self._fb_h or -x >= fbuf._fb_w or -y >= fbuf._fb_h:
            return
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = max(0, -x)
        y1 = max(0, -y)
        x0end = min(self._fb_w, x + fbuf._fb_w)
        y0end = min(self._fb_h, y + fbuf._fb_h)
        key &= 0xFFFFFFFF
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = fbuf._get(cx1, y1)
                if palette is not None:
                    col = palette._get(col, 0)
                if col != key:
                    self._set(cx0, y0, col)
                cx1 += 1
            y1 += 1
            y0 += 1

    def scroll(self, xstep, ystep):
        w, h = self._fb_w, self._fb_h
        if xstep < 0:
            sx, xend, dx = 0, w + xstep, 1
            if xend <= 0:
                return
        else:
            sx, xend, dx = w - 1, xstep - 1, -1
            if xend >= sx:
                return
        if ystep < 0:
            y, yend, dy = 0, h + ystep, 1
            if yend <= 0:
                return
        else:
            y, yend, dy = h - 1, ystep - 1, -1
            if yend >= y:
                return
        while y != yend:
            x = sx
            while x != xend:
                self._set(x, y, self._get(x - xstep, y - ystep))
                x += dx
            y += dy

    def text(self, s, x0, y0, c=1):
        font = _font if _font is not None else load_font()
        w, h = self._fb_w, self._fb_h
        for ch in s.encode("utf-8"):
            if ch < 32 or ch > 127:
                ch = 127
            base = (ch - 32) * 8
            for j in range(8):
                if 0 <= x0 < w:
                    col = font[base + j]
                    yy = y0
                    while col:
                        if col & 1 and 0 <= yy < h:
                            self._set(x0, yy, c)
                        col >>= 1
                        yy += 1
                x0 += 1


def _source(fb):
    """A blit source or palette: a FrameBuffer, or a tuple or list (buffer, width, height,
    format[, stride]) whose buffer may be read-only (bytes), as MicroPython takes them."""
    if isinstance(fb, FrameBuffer):
        return fb
    if isinstance(fb, (tuple, list)):
        if not 4 <= len(fb) <= 5:
            raise ValueError()
        return FrameBuffer(*fb, _readonly=True)
    raise TypeError()


def FrameBuffer1(buffer, width, height, stride=None):
    """Old name kept by MicroPython: a MONO_VLSB FrameBuffer."""
    return FrameBuffer(buffer, width, height, MONO_VLSB, width if stride is None else stride)
