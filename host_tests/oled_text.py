# Find text on a decoded OLED picture, the way a person reads the screen: the text is drawn
# as the board draws it (controller/font.text: the framebuf stand-in's font for ASCII, from
# tools/vboard/framebuf.py: MicroPython's glyphs when a micropython executable is around, else
# the project's own 5x7 font; the firmware's own glyphs beyond ASCII) and looked for, pixel
# for pixel, anywhere on the 128x64 picture, in normal or inverted video.
#
#   img = Picture.from_hex(model["oled"]["rows"])      rows as tools/vboard/decode.Oled.rows_hex()
#   img.find("White to move")  -> (x, y, inverted) or None
#   img.ascii()                -> the picture as '#' and '.' lines (for failure messages)
import framebuf
from controller import font


def glyph_columns(text):
    """Column bytes (bit k = row k) of text drawn at x = 0 with the 8x8 font."""
    buf = bytearray(8 * len(text))
    fb = framebuf.FrameBuffer(buf, 8 * len(text), 8, framebuf.MONO_VLSB)
    font.text(fb, text, 0, 0, 1)
    return list(buf)


class Picture:
    def __init__(self, pixels, width=128, height=64):
        self.pixels = pixels            # pixels[y][x] in 0/1
        self.width = width
        self.height = height
        self._cols = None

    @classmethod
    def from_hex(cls, rows):
        w = len(rows[0]) * 4
        px = []
        for h in rows:
            v = int(h, 16)
            px.append([(v >> (w - 1 - x)) & 1 for x in range(w)])
        return cls(px, w, len(rows))

    @classmethod
    def from_fb(cls, fb, width=128, height=64):
        return cls([[fb.pixel(x, y) for x in range(width)] for y in range(height)], width,
                   height)

    def columns(self):
        """cols[y][x] = byte of the 8 pixels (x, y .. y + 7), bit k = row y + k."""
        if self._cols is None:
            px = self.pixels
            out = []
            for y in range(self.height - 7):
                row = []
                for x in range(self.width):
                    b = 0
                    for k in range(8):
                        b |= px[y + k][x] << k
                    row.append(b)
                out.append(row)
            self._cols = out
        return self._cols

    def find(self, text, inverted=None):
        want = glyph_columns(text)
        n = len(want)
        for inv in ((False, True) if inverted is None else (inverted,)):
            pat = [c ^ 0xFF for c in want] if inv else want
            for y, row in enumerate(self.columns()):
                for x in range(self.width - n + 1):
                    if row[x] == pat[0] and row[x:x + n] == pat:
                        return (x, y, inv)
        return None

    def has(self, text, inverted=None):
        return self.find(text, inverted) is not None

    def ascii(self):
        return "\n".join("".join("#" if p else "." for p in row) for row in self.pixels)
