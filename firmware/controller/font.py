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
# letter keeps its body unchanged. Capitals with an accent are shortened to rows 2..6 to make
# room; O and U then take 7 columns (1..7, like framebuf's M and W) so they still differ from
# o and u. A character with no glyph (a control character, DEL, anything not in EXTRA) draws a
# hollow box, never an error and never a misplaced neighbour.
#
# Storage: one bytes constant, 8 bytes a glyph in the order of EXTRA, then the box. Each byte
# is one column, bit k = row k (MONO_VLSB, the layout of framebuf's own font and of the
# SSD1306's memory), so a glyph is copied as is into an 8x8 MONO_VLSB cell and blitted. On
# the frozen build the constant stays in flash; the only RAM is that cell (8 bytes and one
# FrameBuffer object), made on first use, so screens with ASCII text only cost nothing.
# Drawing allocates nothing once each character has been drawn once (MicroPython interns a
# one-character string the first time a str is iterated over it).
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

_BOX = len(EXTRA) << 3      # offset of the replacement box in _GLYPHS

_cell = None                # 8x8 MONO_VLSB FrameBuffer over _bits, made on first use
_bits = None


def _glyph(fb, ch, x, y, c):
    global _cell, _bits
    if _cell is None:
        import framebuf
        _bits = bytearray(8)
        _cell = framebuf.FrameBuffer(_bits, 8, 8, framebuf.MONO_VLSB)
    i = EXTRA.find(ch) << 3
    if i < 0:
        i = _BOX
    g = _GLYPHS
    b = _bits
    if c:
        for k in range(8):
            b[k] = g[i + k]
        fb.blit(_cell, x, y, 0)        # lit pixels only: key 0 leaves the background
    else:
        for k in range(8):
            b[k] = g[i + k] ^ 0xFF
        fb.blit(_cell, x, y, 1)        # inverted: the glyph's pixels drawn dark


def text(fb, s, x, y, c=1):
    """Draw str s at x, y like fb.text(s, x, y, c): 8x8 cells, 8 pixels a character, clipped at
    the edges. Characters outside ASCII 32..126 are drawn from the glyphs of EXTRA, or as a
    box when there is none."""
    for ch in s:
        if not 32 <= ord(ch) < 127:
            break
    else:
        fb.text(s, x, y, c)            # ASCII only: one call, as before
        return
    for ch in s:
        if 32 <= ord(ch) < 127:
            fb.text(ch, x, y, c)
        else:
            _glyph(fb, ch, x, y, c)
        x += 8
