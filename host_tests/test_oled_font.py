# The OLED's text beyond ASCII (firmware/controller/font.py): every glyph is there and looks
# like its own letter (not the replacement box, not its base letter, not another glyph), sits
# on framebuf's baseline, ASCII is drawn exactly as framebuf draws it, unknown characters draw
# the box, c=0 draws inverted, cells stay 8 pixels wide so len()-based centring centres, the
# screens' helpers (_centre, _big) draw accented text, and drawing allocates nothing once warm.
# Runs on CPython (framebuf stand-in of tools/vboard) and on the MicroPython unix port (its
# real framebuf).
import sys

if sys.implementation.name != "micropython":
    import vboard
    vboard.install_framebuf()   # CPython: the stand-in

import framebuf  # noqa: E402
from controller import font, screens  # noqa: E402
from test_screens import region  # noqa: E402

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_drawing_allocates_nothing_once_warm",)

# The letter (or ASCII sign) each glyph is made from.
BASE = {"ä": "a", "ö": "o", "ü": "u", "ë": "e", "ï": "i", "ß": "B", "á": "a", "é": "e",
        "í": "i", "ó": "o", "ú": "u", "à": "a", "è": "e", "ì": "i", "ò": "o", "ù": "u",
        "â": "a", "ê": "e", "î": "i", "ô": "o", "û": "u", "ñ": "n", "ç": "c", "°": "o",
        "Ä": "A", "Ö": "O", "Ü": "U", "Á": "A", "É": "E", "Í": "I", "Ó": "O", "Ú": "U",
        "À": "A", "È": "E", "Ì": "I", "Ò": "O", "Ù": "U", "Ñ": "N", "Ç": "C", "¿": "?",
        "¡": "!", "«": "<", "»": ">", "„": ",", "“": '"', "”": '"', "‘": "'", "’": "'",
        "…": ".", "–": "-"}
# What the issue and the contract ask for at least.
REQUIRED = ("äöüÄÖÜßéèàìòùáíóúñÑ¿¡" "ÉÈÀÌÒÙÁÍÓÚçÇêâôîûëï«»°" "„“”‘’…–")
LOWER_ACCENTED = "äöüëïáéíóúàèìòùâêîôû"


def new_fb(w=128, h=64):
    return framebuf.FrameBuffer(bytearray(w * ((h + 7) // 8)), w, h, framebuf.MONO_VLSB)


def cell(fb, x=0, y=0, w=8, h=8):
    """Pixels of a rectangle, row by row, as bytes of 0/1 (test_screens.region)."""
    return bytes(region(fb, x, y, w, h))


def glyph(ch, c=1, background=0):
    fb = new_fb(8, 8)
    fb.fill(background)
    font.text(fb, ch, 0, 0, c)
    return cell(fb)


def builtin(ch):
    fb = new_fb(8, 8)
    fb.text(ch, 0, 0, 1)
    return cell(fb)


def needs_micropythons_font():
    # Comparing with framebuf's letters needs its real font: on CPython the stand-in has it
    # only when a micropython executable lent it (not with MICROPYTHON=none).
    if sys.implementation.name != "micropython":
        framebuf.load_font()
        if framebuf.FONT_SOURCE == "own":
            import pytest
            pytest.skip("no MicroPython font in the framebuf stand-in to compare with")


def cell_of(s, i):
    """The i-th character's cell of s drawn with font.text."""
    fb = new_fb(8 * len(s), 8)
    font.text(fb, s, 0, 0)
    return cell(fb, 8 * i, 0)


def rows(pixels, first, last):
    return pixels[8 * first:8 * (last + 1)]


def test_every_required_character_has_a_glyph():
    missing = [ch for ch in REQUIRED if ch not in font.EXTRA]
    assert not missing, "no glyph for " + "".join(missing)
    assert sorted(BASE) == sorted(font.EXTRA), "BASE of this test and font.EXTRA differ"
    assert all(ord(ch) > 126 for ch in font.EXTRA), "EXTRA holds ASCII"
    assert len(set(font.EXTRA)) == len(font.EXTRA), "EXTRA names a character twice"


def test_each_glyph_is_its_own():
    box = glyph("\u2603")
    seen = {}
    for ch in font.EXTRA:
        g = glyph(ch)
        assert sum(g) >= 3, ch + " is (nearly) empty"
        assert g != box, ch + " draws the replacement box"
        assert g != builtin(BASE[ch]), ch + " looks like its base letter " + BASE[ch]
        assert g not in seen, ch + " looks like " + seen.get(g, "")
        seen[g] = ch


def test_no_glyph_looks_like_an_ascii_character():
    # so that a screen reader (tools/rp2040/screen.py, host_tests/oled_text.py) can tell them
    needs_micropythons_font()
    ascii = {builtin(chr(i)): chr(i) for i in range(33, 127)}
    for ch in font.EXTRA:
        assert glyph(ch) not in ascii, ch + " looks like " + ascii.get(glyph(ch), "")


def test_glyphs_share_the_builtin_fonts_frame():
    # Columns 0 and 7 stay dark except in wide signs (like framebuf's M, W, # and 4): letters
    # keep their 2-pixel gap on the left; rows 0..6 hold letters, row 7 only descenders.
    for ch in font.EXTRA:
        g = glyph(ch)
        left = sum(g[8 * y] for y in range(8))
        assert left == 0 or ch in "…–", ch + " touches its left neighbour's gap"
        bottom = sum(rows(g, 7, 7))
        assert bottom == 0 or ch in "çÇ„", ch + " reaches below the baseline"


def test_accented_lower_case_keeps_the_base_letters_body():
    # Same x-height and baseline as framebuf's own letters: only the accent is new, on row 0,
    # with row 1 dark like the dot of framebuf's i.
    needs_micropythons_font()
    for ch in LOWER_ACCENTED:
        g = glyph(ch)
        base = builtin(BASE[ch])
        assert rows(g, 2, 7) == rows(base, 2, 7), ch + ": the body differs from " + BASE[ch]
        assert sum(rows(g, 0, 0)) >= 2, ch + ": no accent on row 0"
        assert ch in "âêîôû" or sum(rows(g, 1, 1)) == 0, ch + ": row 1 is not dark"
    # ñ and ç keep the baseline (row 6 lit, nothing on row 7 but the cedilla)
    for ch, base in (("ñ", "n"), ("ç", "c")):
        g = glyph(ch)
        assert rows(g, 6, 6) == rows(builtin(base), 6, 6), ch


def test_capitals_with_an_accent_stand_on_the_baseline():
    for ch in "ÄÖÜÁÉÍÓÚÀÈÌÒÙÑ":
        g = glyph(ch)
        assert sum(rows(g, 6, 6)) >= 2 and sum(rows(g, 7, 7)) == 0, ch
        assert sum(rows(g, 0, 0)) >= 2, ch + ": no accent on row 0"
    # and the capitals differ from their lower case letters
    for big, small in zip("ÄÖÜÁÉÍÓÚÀÈÌÒÙÑÇ", "äöüáéíóúàèìòùñç"):
        assert glyph(big) != glyph(small), big + " looks like " + small


def test_every_code_point_finds_its_own_glyph():
    for i, ch in enumerate(font.EXTRA):
        assert font.glyph_index(ord(ch)) == i, ch
    box = len(font.EXTRA)
    for cp in (0xA0, 0xA4, 0xFF, 0x100, 0x152, 0x2010, 0x2014, 0x202F, 0x20AC, 0x1F600):
        if chr(cp) not in font.EXTRA:
            assert font.glyph_index(cp) == box, hex(cp)


def test_ascii_is_drawn_exactly_as_framebuf_draws_it():
    ascii = "".join(chr(i) for i in range(32, 128)) + "\x01\x1f"
    for c, background in ((1, 0), (0, 1)):
        for x, y in ((0, 0), (-5, 3), (3, -4), (100, 60)):
            a = new_fb(128, 16)
            b = new_fb(128, 16)
            a.fill(background)
            b.fill(background)
            for k in range(0, len(ascii), 16):
                font.text(a, ascii[k:k + 16], x, y, c)
                b.text(ascii[k:k + 16], x, y, c)
            assert cell(a, 0, 0, 128, 16) == cell(b, 0, 0, 128, 16), (c, x, y)


def test_mixed_text_keeps_8_pixel_cells():
    fb = new_fb()
    s = "Zug: Weiß, ¿sí?"
    font.text(fb, s, 4, 20)
    for i in range(len(s)):
        ch = s[i]
        want = glyph(ch) if ord(ch) > 126 else builtin(ch)
        assert cell(fb, 4 + 8 * i, 20) == want, (i, ch)
    assert cell(fb, 0, 20, 4, 8) == bytes(32)               # nothing left of the text
    assert cell(fb, 4 + 8 * len(s), 20, 4, 8) == bytes(32)  # nor right of it


def test_unknown_characters_draw_the_box():
    box = glyph("\u2603")
    assert sum(box) >= 20
    # a hollow box: lit edges, dark inside
    assert box[8 * 3 + 1] and box[8 * 3 + 6] and not box[8 * 3 + 3]
    for ch in ("\u20ac", "\u00a4", "\u0080", "\u0100", "\U0001f600"):
        assert glyph(ch) == box, repr(ch)
    # ASCII's control characters and DEL: framebuf's own replacement, in text with accents too
    for ch in ("\x01", "\x7f"):
        assert glyph(ch) == builtin(ch) and sum(builtin(ch)) >= 12, repr(ch)
        assert cell_of("\u00e4" + ch, 1) == builtin(ch)
    fb = new_fb()
    font.text(fb, "a\u2603b", 0, 0)         # the box takes one cell, like any character
    assert cell(fb, 8, 0) == box and cell(fb, 16, 0) == builtin("b")


def test_c0_draws_inverted():
    for ch in font.EXTRA + "\u2603":
        lit = glyph(ch)
        dark = glyph(ch, 0, 1)                 # c=0 on a lit bar, like the title bar
        assert dark == bytes(1 - p for p in lit), ch
        assert glyph(ch, 0, 0) == bytes(64), ch   # c=0 on dark: nothing shows
    # c=1 over other pixels adds, c=0 clears: neither touches the rest of the cell
    fb = new_fb(8, 8)
    fb.fill(1)
    font.text(fb, "ä", 0, 0, 1)
    assert cell(fb) == bytes([1]) * 64


def test_clipped_at_every_edge():
    big = new_fb(160, 96)
    font.text(big, "ÄÖÜß", 16 - 5, 16 - 3)
    font.text(big, "àé", 16 + 124, 16 + 60)
    small = new_fb()
    font.text(small, "ÄÖÜß", -5, -3)
    font.text(small, "àé", 124, 60)
    assert cell(small, 0, 0, 128, 64) == cell(big, 16, 16, 128, 64)
    font.text(small, "öööö", 200, 200)        # entirely off the screen: no error


def test_centring_by_len_centres_accented_text():
    for s in ("Über", "Größe", "¿Sí?", "Año"):
        fb = new_fb()
        screens._centre(fb, s, 20)
        xs = [x for x in range(128) for y in range(20, 28) if fb.pixel(x, y)]
        left, right = min(xs), max(xs)
        # letters start at column 1 of their 8-pixel cells; the margins match within a pixel
        assert left == ((128 - 8 * len(s)) >> 1) + 1, s
        assert abs((left + right) - 127) <= 1, (s, left, right)


def test_big_text_scales_accented_letters():
    fb = new_fb()
    screens._big(fb, "Üß", 8, 10)
    for i, ch in enumerate("Üß"):
        g = glyph(ch)
        for y in range(8):
            for x in range(8):
                assert fb.pixel(8 + 16 * i + 2 * x, 10 + 2 * y) == g[8 * y + x], (ch, x, y)
                assert fb.pixel(9 + 16 * i + 2 * x, 11 + 2 * y) == g[8 * y + x], (ch, x, y)
    assert cell(fb, 0, 56, 128, 8) == bytes(128 * 8), "the scratch row is left dirty"


def test_screens_draw_translated_text():
    fb = new_fb()
    screens.message(fb, "Brett prüfen", "Zurück auf d2:", "Weiß 3er", "", "¿Qué?")
    assert cell(fb, 16 + 8 * 8, 1) == glyph("ü", 0, 1)   # "Brett prüfen" centred in the bar
    assert cell(fb, 8 * 3, 14) == glyph("ü")
    assert cell(fb, 8 * 3, 26) == glyph("ß")
    assert cell(fb, 0, 50) == glyph("¿")


def test_drawing_allocates_nothing_once_warm():
    import gc
    fb = new_fb()
    lines = ("Weiß zieht", "¿Qué pieza?", "perché è già", "Über «Ärger» –", "plain ASCII",
             "\u2603 \U0001f600 \x01", "Ä" * 40 + " a note longer than any buffer's first size")

    def draw():
        for i in range(len(lines)):
            font.text(fb, lines[i], 0, 9 * i, 1)
            font.text(fb, lines[i], 0, 9 * i, 0)

    draw()                      # warm: the UTF-8 buffer grows to the longest line
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(20):
        draw()
    grown = gc.mem_alloc() - before
    assert grown == 0, "font.text allocated %d bytes in 200 calls" % grown
