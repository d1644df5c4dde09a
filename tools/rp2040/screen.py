# Reading the emulated SSD1306 as a person would: the text on it (found glyph by glyph with
# framebuf's 8x8 font, in normal or inverted video, at any pixel position) and a PNG.
import os
import sys

_TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _TOOLS not in sys.path:
    sys.path.insert(0, _TOOLS)

from vboard import framebuf as _fb  # noqa: E402

_glyphs = None


def _glyph_table():
    """{8 column bytes: char} for the printable glyphs (space left out: it is found between
    other glyphs only)."""
    global _glyphs
    if _glyphs is None:
        font = _fb.load_font()
        if not font:
            raise RuntimeError("no 8x8 font: needs the micropython executable "
                               "(see tools/vboard/framebuf.py)")
        table = {}
        for i in range(1, 96):
            cols = bytes(font[8 * i:8 * i + 8])
            if any(cols):
                table.setdefault(cols, chr(32 + i))
        _glyphs = table
    return _glyphs


def _pixels(oled):
    return [[oled.lit(x, y) for x in range(oled.width)] for y in range(oled.height)]


def text_lines(oled):
    """The text on the screen, top to bottom: one string per run of glyphs on a pixel row
    (runs on the same row joined by two spaces)."""
    table = _glyph_table()
    px = _pixels(oled)
    w, h = oled.width, oled.height
    used = [[False] * w for _ in range(h)]
    lines = []
    for y in range(h - 7):
        cols = []
        for x in range(w):
            b = 0
            for k in range(8):
                b |= px[y + k][x] << k
            cols.append(b)
        runs = []
        x = 0
        while x <= w - 8:
            run = _run_at(cols, x, table, used, y)
            if run:
                runs.append(run[0])
                x = run[1]
            else:
                x += 1
        if runs:
            lines.append((y, "  ".join(runs)))
    return [t for _, t in lines]


def _run_at(cols, x0, table, used, y):
    """The glyphs of one run starting at x0 (normal or inverted), marking its pixels used."""
    if any(used[y + k][x0] for k in range(8)):
        return None
    for inv in (0, 0xFF):
        chars = []
        x = end = x0
        spaces = 0
        while x <= len(cols) - 8 and not any(used[y + k][x] for k in range(8)):
            key = bytes(c ^ inv for c in cols[x:x + 8])
            ch = table.get(key)
            if ch is None and not any(key) and chars:
                spaces += 1                 # a space, if another glyph follows
                if spaces > 2:
                    break
                x += 8
                continue
            if ch is None:
                break
            chars.append(" " * spaces + ch)
            spaces = 0
            x += 8
            end = x
        if chars:
            for k in range(8):
                for xx in range(x0, end):
                    used[y + k][xx] = True
            return "".join(chars), end
    return None


def png(oled, scale=4):
    """The screen as a PNG (lit pixels light blue on black, 4x)."""
    import render_screens

    class _Fb:
        def pixel(self, x, y):
            return oled.lit(x, y)
    return render_screens.fb_png(_Fb(), oled.width, oled.height, scale)
