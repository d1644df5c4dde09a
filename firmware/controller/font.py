# Text on the OLED beyond ASCII: the letters of German, Italian and Spanish (and a few of French),
# the typographic quotes, dashes and signs the screens' texts use. ASCII goes through framebuf's
# built-in 8x8 font (fb.text), so English screens look exactly as before; every other character
# is drawn from the glyphs below, designed for this project to sit with that font: the same
# cell, baseline (row 6), x-height (rows 2..6), cap height (rows 0..6) and 2-pixel strokes.
#
#   font.text(fb, "Weiß zieht", 0, 14)        like fb.text: 8 pixels a character, c=0 inverted
#   font.EXTRA                                 every non-ASCII character with a glyph
#
# Accents sit on row 0 with row 1 left dark, like the dot of framebuf's i, so a lower case
# letter keeps its body unchanged; acute and grave are 3-pixel strokes to the right and to the
# left. Capitals with an accent are shortened to rows 2..6 to make room; O and U then take 7
# columns (1..7, like framebuf's M and W) so they still differ from o and u. A character
# beyond ASCII with no glyph draws a hollow box (framebuf itself draws a checkerboard for
# control characters and DEL), never an error and never a misplaced neighbour.
#
# Storage: one bytes constant, 8 bytes a glyph in the order of EXTRA, then the box. Each byte
# is one column, bit k = row k (MONO_VLSB: the layout of framebuf's own font and of the
# SSD1306's memory), so the constant is itself a read-only 8 x 8n image that framebuf can blit
# from: no glyph is ever copied in Python. On the frozen build it stays in flash, with the
# code-point table and the ASCII strings; the RAM is the module's names and a 64-byte buffer
# (about 370 B on the Pico) and, made by the first glyph drawn, an 8x8 cell (128 B).
#
# Speed: a text is walked as its UTF-8 bytes, copied into that buffer, never character by
# character as a str: each one-character string would be looked up in the interpreter's
# string pool, which on a board running .mpy files holds thousands of names. An ASCII-only
# text is one test (max of its bytes) and one fb.text call. Nothing is allocated per call once
# the buffer has grown to the longest text drawn (host_tests/test_oled_font.py checks it).
#
# The art below is the source of _GLYPHS ('#' lit, '.' dark, bands of up to 8 glyphs under a
# line naming them): edit it, then run `python tools/glyphs.py --write` to rebuild the bytes;
# host_tests/test_oled_font.py checks that the two agree. `python tools/render_screens.py`
# draws them all enlarged next to their base letters (glyphs.png).
#
# Glyphs, in the order of EXTRA, then the replacement box:
# ä        ö        ü        ë        ï        ß        á        é
# .##..##. .##..##. .##..##. .##..##. .##..##. ..####.. ....###. ....###.
# ........ ........ ........ ........ ........ .##..##. ........ ........
# ..####.. ..####.. .##..##. ..####.. ...##... .##.##.. ..####.. ..####..
# .....##. .##..##. .##..##. .##..##. ...##... .##..##. .....##. .##..##.
# ..#####. .##..##. .##..##. .######. ...##... .##..##. ..#####. .######.
# .##..##. .##..##. .##..##. .##..... ...##... .##.##.. .##..##. .##.....
# ..#####. ..####.. ..####.. ..#####. ...##... .##..... ..#####. ..#####.
# ........ ........ ........ ........ ........ ........ ........ ........
# í        ó        ú        à        è        ì        ò        ù
# ....###. ....###. ....###. .###.... .###.... .###.... .###.... .###....
# ........ ........ ........ ........ ........ ........ ........ ........
# ...##... ..####.. .##..##. ..####.. ..####.. ...##... ..####.. .##..##.
# ...##... .##..##. .##..##. .....##. .##..##. ...##... .##..##. .##..##.
# ...##... .##..##. .##..##. ..#####. .######. ...##... .##..##. .##..##.
# ...##... .##..##. .##..##. .##..##. .##..... ...##... .##..##. .##..##.
# ...##... ..####.. ..####.. ..#####. ..#####. ...##... ..####.. ..####..
# ........ ........ ........ ........ ........ ........ ........ ........
# â        ê        î        ô        û        ñ        ç        °
# ...##... ...##... ...##... ...##... ...##... ..##..#. ........ ..###...
# ..#..#.. ..#..#.. ..#..#.. ..#..#.. ..#..#.. .#..##.. ........ .##.##..
# ..####.. ..####.. ...##... ..####.. .##..##. ........ ..####.. ..###...
# .....##. .##..##. ...##... .##..##. .##..##. .#####.. .##..##. ........
# ..#####. .######. ...##... .##..##. .##..##. .##..##. .##..... ........
# .##..##. .##..... ...##... .##..##. .##..##. .##..##. .##..##. ........
# ..#####. ..#####. ...##... ..####.. ..####.. .##..##. ..####.. ........
# ........ ........ ........ ........ ........ ........ ...##... ........
# Ä        Ö        Ü        Á        É        Í        Ó        Ú
# .##..##. .##...## .##...## ....###. ....###. ....###. .....### .....###
# ........ ........ ........ ........ ........ ........ ........ ........
# ..####.. ..#####. .##...## ..####.. .######. ..####.. ..#####. .##...##
# .##..##. .##...## .##...## .##..##. .##..... ...##... .##...## .##...##
# .######. .##...## .##...## .######. .####... ...##... .##...## .##...##
# .##..##. .##...## .##...## .##..##. .##..... ...##... .##...## .##...##
# .##..##. ..#####. ..#####. .##..##. .######. ..####.. ..#####. ..#####.
# ........ ........ ........ ........ ........ ........ ........ ........
# À        È        Ì        Ò        Ù        Ñ        Ç        ¿
# .###.... .###.... .###.... ..###... ..###... ..##..#. ..####.. ...##...
# ........ ........ ........ ........ ........ .#..##.. .##..##. ........
# ..####.. .######. ..####.. ..#####. .##...## ........ .##..... ...##...
# .##..##. .##..... ...##... .##...## .##...## .##..##. .##..... ..##....
# .######. .####... ...##... .##...## .##...## .###.##. .##..... .##.....
# .##..##. .##..... ...##... .##...## .##...## .##.###. .##..##. .##..##.
# .##..##. .######. ..####.. ..#####. ..#####. .##..##. ..####.. ..####..
# ........ ........ ........ ........ ........ ........ ...##... ........
# ¡        «        »        „        “        ”        ‘        ’
# ...##... ........ ........ ........ ..##.##. ..##.##. ....##.. ...##...
# ........ ........ ........ ........ .##.##.. ..##.##. ...##... ...##...
# ........ ...#..#. .#..#... ........ .##.##.. .##.##.. ...##... ..##....
# ...##... ..##.##. .##.##.. ........ ........ ........ ........ ........
# ...##... .##.##.. ..##.##. ........ ........ ........ ........ ........
# ...##... ..##.##. .##.##.. ..##.##. ........ ........ ........ ........
# ...##... ...#..#. .#..#... ..##.##. ........ ........ ........ ........
# ........ ........ ........ .##.##.. ........ ........ ........ ........
# …        –        BOX
# ........ ........ .######.
# ........ ........ .#....#.
# ........ ........ .#....#.
# ........ ######## .#....#.
# ........ ........ .#....#.
# ##.##.## ........ .#....#.
# ##.##.## ........ .######.
# ........ ........ ........

EXTRA = "äöüëïßáéíóúàèìòùâêîôûñç°ÄÖÜÁÉÍÓÚÀÈÌÒÙÑÇ¿¡«»„“”‘’…–"

_GLYPHS = (
    b"\x00\x21\x75\x54\x54\x7d\x79\x00\x00\x39\x7d\x44\x44\x7d\x39\x00"
    b"\x00\x3d\x7d\x40\x40\x7d\x3d\x00\x00\x39\x7d\x54\x54\x5d\x59\x00"
    b"\x00\x01\x01\x7c\x7c\x01\x01\x00\x00\x7e\x7f\x01\x25\x3f\x1a\x00"
    b"\x00\x20\x74\x54\x55\x7d\x79\x00\x00\x38\x7c\x54\x55\x5d\x59\x00"
    b"\x00\x00\x00\x7c\x7d\x01\x01\x00\x00\x38\x7c\x44\x45\x7d\x39\x00"
    b"\x00\x3c\x7c\x40\x41\x7d\x3d\x00\x00\x21\x75\x55\x54\x7c\x78\x00"
    b"\x00\x39\x7d\x55\x54\x5c\x58\x00\x00\x01\x01\x7d\x7c\x00\x00\x00"
    b"\x00\x39\x7d\x45\x44\x7c\x38\x00\x00\x3d\x7d\x41\x40\x7c\x3c\x00"
    b"\x00\x20\x76\x55\x55\x7e\x78\x00\x00\x38\x7e\x55\x55\x5e\x58\x00"
    b"\x00\x00\x02\x7d\x7d\x02\x00\x00\x00\x38\x7e\x45\x45\x7e\x38\x00"
    b"\x00\x3c\x7e\x41\x41\x7e\x3c\x00\x00\x7a\x79\x09\x0a\x7a\x71\x00"
    b"\x00\x38\x7c\xc4\xc4\x6c\x28\x00\x00\x02\x07\x05\x07\x02\x00\x00"
    b"\x00\x79\x7d\x14\x14\x7d\x79\x00\x00\x39\x7d\x44\x44\x44\x7d\x39"
    b"\x00\x3d\x7d\x40\x40\x40\x7d\x3d\x00\x78\x7c\x14\x15\x7d\x79\x00"
    b"\x00\x7c\x7c\x54\x55\x45\x45\x00\x00\x00\x44\x7c\x7d\x45\x01\x00"
    b"\x00\x38\x7c\x44\x44\x45\x7d\x39\x00\x3c\x7c\x40\x40\x41\x7d\x3d"
    b"\x00\x79\x7d\x15\x14\x7c\x78\x00\x00\x7d\x7d\x55\x54\x44\x44\x00"
    b"\x00\x01\x45\x7d\x7c\x44\x00\x00\x00\x38\x7d\x45\x45\x44\x7c\x38"
    b"\x00\x3c\x7d\x41\x41\x40\x7c\x3c\x00\x7a\x79\x11\x22\x7a\x79\x00"
    b"\x00\x3e\x7f\xc1\xc1\x63\x22\x00\x00\x30\x78\x4d\x45\x60\x20\x00"
    b"\x00\x00\x00\x79\x79\x00\x00\x00\x00\x10\x38\x6c\x10\x38\x6c\x00"
    b"\x00\x6c\x38\x10\x6c\x38\x10\x00\x00\x80\xe0\x60\x80\xe0\x60\x00"
    b"\x00\x06\x07\x01\x06\x07\x01\x00\x00\x04\x07\x03\x04\x07\x03\x00"
    b"\x00\x00\x00\x06\x07\x01\x00\x00\x00\x00\x04\x07\x03\x00\x00\x00"
    b"\x60\x60\x00\x60\x60\x00\x60\x60\x08\x08\x08\x08\x08\x08\x08\x08"
    b"\x00\x7f\x41\x41\x41\x41\x7f\x00"
)

# Glyph of each code point U+00A0..U+00FF, then U+2010..U+202F (the quotes, dashes and the
# ellipsis): its index in _GLYPHS, 255 for none (the box). Made from EXTRA by tools/glyphs.py.
_MAP = (
    b"\xff\x28\xff\xff\xff\xff\xff\xff\xff\xff\xff\x29\xff\xff\xff\xff"
    b"\x17\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x2a\xff\xff\xff\x27"
    b"\x20\x1b\xff\xff\x18\xff\xff\x26\x21\x1c\xff\xff\x22\x1d\xff\xff"
    b"\xff\x25\x23\x1e\xff\xff\x19\xff\xff\x24\x1f\xff\x1a\xff\xff\x05"
    b"\x0b\x06\x10\xff\x00\xff\xff\x16\x0c\x07\x11\x03\x0d\x08\x12\x04"
    b"\xff\x15\x0e\x09\x13\xff\x01\xff\xff\x0f\x0a\x14\x02\xff\xff\xff"
    b"\xff\xff\xff\x31\xff\xff\xff\xff\x2e\x2f\xff\xff\x2c\x2d\x2b\xff"
    b"\xff\xff\xff\xff\xff\xff\x30\xff\xff\xff\xff\xff\xff\xff\xff\xff"
)

_NONE = 255
_N = len(EXTRA) + 1         # glyphs in _GLYPHS, the box last

# One-character strings of ASCII 32..126 for fb.text, as constants (in flash on the frozen
# build): making them from the text would intern each one, a search of the whole string pool
# per character on a board that runs .mpy files.
_ASCII = (
    ' ', '!', '"', '#', '$', '%', '&', "'", '(', ')', '*', '+', ',', '-', '.', '/', '0', '1',
    '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?', '@', 'A', 'B', 'C',
    'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P', 'Q', 'R', 'S', 'T', 'U',
    'V', 'W', 'X', 'Y', 'Z', '[', '\\', ']', '^', '_', '`', 'a', 'b', 'c', 'd', 'e', 'f', 'g',
    'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y',
    'z', '{', '|', '}', '~')

_utf8 = bytearray(64)       # the text's UTF-8 bytes: grows to the longest text drawn, once
_cell = None                # 8x8 MONO_VLSB FrameBuffer over 8 bytes of RAM, made on first use
_strip = None               # (_GLYPHS, ...): every glyph side by side, a read-only blit source
_dark = None                # palette for c=0: lit glyph pixels drawn as 0, the rest skipped


def _load(s):
    # MicroPython: a str lends its UTF-8 bytes (buffer protocol); extend copies them into the
    # buffer's room without allocating and without making a string per character.
    b = _utf8
    b[:] = b""
    b.extend(s)
    return b


try:
    _load("\u00e4")
except TypeError:           # CPython: bytearray.extend takes no str
    def _load(s):
        b = _utf8
        b[:] = s.encode()
        return b


def _glyph(fb, cp, x, y, c):
    global _cell, _strip, _dark
    if _cell is None:
        import framebuf
        _cell = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
        _strip = (_GLYPHS, 8 * _N, 8, framebuf.MONO_VLSB)
        _dark = (b"\x01\x00", 2, 1, framebuf.MONO_VLSB)
    # The strip blitted into the cell, shifted left by the glyph's offset, leaves exactly that
    # glyph there (the rest is clipped): two C calls a character, no copying in Python.
    _cell.blit(_strip, -8 * glyph_index(cp), 0)
    if c:
        fb.blit(_cell, x, y, 0)              # key 0: only the glyph's pixels are drawn
    else:
        fb.blit(_cell, x, y, 1, _dark)       # 1 -> 0, 0 -> 1 = key: skipped


def glyph_index(cp):
    """Index in _GLYPHS of code point cp's glyph (the box's, _N - 1, when it has none)."""
    if 0xA0 <= cp < 0x100:
        i = _MAP[cp - 0xA0]
    elif 0x2010 <= cp < 0x2030:
        i = _MAP[cp - 0x2010 + 96]
    else:
        return _N - 1
    return _N - 1 if i == _NONE else i


# The texts of the screen being drawn, for a computer watching the board (controller/
# protocol.py): begin() starts a screen (the controller calls it before drawing one), text()
# keeps a reference to each text and its place. Nothing is copied: no allocation.
TEXTS = 12
drawn = 0                   # screens begun since power-on
texts = [None] * TEXTS      # the texts of the screen, in the order drawn
places = bytearray(3 * TEXTS)   # y, x, colour of each
texts_n = 0


def begin():
    global drawn, texts_n
    drawn += 1
    texts_n = 0


def scaled(x, y, k):
    """The text drawn last is shown k times as large at x, y (screens._big draws it small
    first, then scales it up)."""
    if texts_n:
        i = 3 * (texts_n - 1)
        places[i] = y
        places[i + 1] = x
        places[i + 2] = k


def text(fb, s, x, y, c=1):
    """Draw str s at x, y like fb.text(s, x, y, c): 8x8 cells, 8 pixels a character, clipped at
    the edges. ASCII (0..127) is drawn by fb.text itself; other characters from the glyphs of
    EXTRA, or as a box when there is none."""
    global texts_n
    if not s:
        return
    if texts_n < TEXTS and 0 <= x < 128 and 0 <= y < 64:
        texts[texts_n] = s
        k = 3 * texts_n
        places[k] = y
        places[k + 1] = x
        places[k + 2] = 1 if c else 0
        texts_n += 1
    b = _load(s)
    if max(b) < 0x80:
        fb.text(s, x, y, c)                  # ASCII only: one call, as before
        return
    cp = k = 0
    for v in b:
        if v < 0x80:
            fb.text(_ASCII[v - 32] if 31 < v < 127 else "\x7f", x, y, c)
            x += 8
        elif v >= 0xC0:                      # UTF-8 lead byte: 110xxxxx, 1110xxxx, 11110xxx
            if v < 0xE0:
                cp = v & 0x1F
                k = 1
            elif v < 0xF0:
                cp = v & 0x0F
                k = 2
            else:
                cp = v & 0x07
                k = 3
        else:                                # 10xxxxxx: six more bits
            cp = (cp << 6) | (v & 0x3F)
            k -= 1
            if k == 0:
                _glyph(fb, cp, x, y, c)
                x += 8
