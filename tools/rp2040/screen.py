# Reading the emulated SSD1306 as a person would: the text on it (found glyph by glyph with
# framebuf's 8x8 font and the firmware's own glyphs beyond ASCII, controller/font.py, in normal
# or inverted video, at any pixel position) and a PNG.
import os
import sys

_TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_FIRMWARE = os.path.join(os.path.dirname(_TOOLS), "firmware")
for _p in (_TOOLS, _FIRMWARE):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from vboard import framebuf as _fb  # noqa: E402
from controller import font as _font  # noqa: E402

_glyphs = None


def _glyph_table():
    """{8 column bytes: char} for the printable glyphs (space left out: it is found between
    other glyphs only)."""
    global _glyphs
    if _glyphs is None:
        font = _fb.load_font()
        if not font or _fb.FONT_SOURCE == "own":   # the board draws MicroPython's glyphs
            raise RuntimeError("reading the OLED needs MicroPython's 8x8 font: the micropython "
                               "executable or its cached copy (see tools/vboard/framebuf.py)")
        table = {}
        for i in range(1, 96):
            cols = bytes(font[8 * i:8 * i + 8])
            if any(cols):
                table.setdefault(cols, chr(32 + i))
        for i, ch in enumerate(_font.EXTRA):           # ä, ß, ¿, ...: the same column bytes
            table.setdefault(bytes(_font._GLYPHS[8 * i:8 * i + 8]), ch)
        _glyphs = table
    return _glyphs


def _pixels(oled):
    return [[oled.lit(x, y) for x in range(oled.width)] for y in range(oled.height)]


def text_lines(oled):
    """The text on the screen, top to bottom: one string per run of glyphs on a pixel row
    (runs on the same row joined by two spaces). Every run of glyphs at every pixel position
    is a candidate; the longest win where candidates overlap (a glyph one pixel off can look
    like another glyph: 'P' one row down is 'p')."""
    table = _glyph_table()
    px = _pixels(oled)
    w, h = oled.width, oled.height
    cands = []
    for y in range(h - 7):
        cols = []
        for x in range(w):
            b = 0
            for k in range(8):
                b |= px[y + k][x] << k
            cols.append(b)
        for x in range(w - 7):
            run = _run_at(cols, x, table)
            if run:
                cands.append((y, x, run[1], run[0]))
    cands.sort(key=lambda c: (-len(c[3].replace(" ", "")), c[0], c[1]))
    taken = []
    for y, x0, x1, text in cands:
        if all(y + 8 <= ty or ty + 8 <= y or x1 <= tx0 or tx1 <= x0
               for ty, tx0, tx1, _ in taken):
            taken.append((y, x0, x1, text))
    lines = {}
    for y, x0, x1, text in sorted(taken):
        lines.setdefault(y, []).append(text)
    return ["  ".join(lines[y]) for y in sorted(lines)]


def _run_at(cols, x0, table):
    """(text, end x) of the glyphs in a row starting at x0, normal or inverted, or None."""
    for inv in (0, 0xFF):
        chars = []
        x = end = x0
        spaces = 0
        while x <= len(cols) - 8:
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
        if chars and any(c.isalnum() for c in chars):   # not a line of a box or bar
            return "".join(chars), end
    return None


def png(oled, scale=4):
    """The screen as a PNG (lit pixels light blue on black, 4x)."""
    import render_screens

    class _Fb:
        def pixel(self, x, y):
            return oled.lit(x, y)
    return render_screens.fb_png(_Fb(), oled.width, oled.height, scale)
