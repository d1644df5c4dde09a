# The project's own 5x7 font (tools/vboard/font5x7.py): what the CPython framebuf stand-in
# draws text with where no MicroPython unix port lends MicroPython's font (macOS, Windows, ARM
# Linux). Every character is there, no two look alike, neighbours never touch, and the OLED
# text finder reads the board's screens drawn with it. CPython only (pytest).
import pytest

import framebuf  # the stand-in, installed by conftest
from vboard import font5x7
from controller import screens
from oled_text import Picture

PRINTABLE = range(33, 127)
ROWS = font5x7.glyph_rows()


def pixels(code):
    return {(x, y) for y, row in enumerate(ROWS[code]) for x, ch in enumerate(row) if ch == "#"}


def test_every_character_32_to_127_has_a_glyph_of_5_by_8():
    assert sorted(ROWS) == list(range(32, 128))
    for code, rows in ROWS.items():
        assert len(rows) == 8 and all(len(r) == 5 and set(r) <= {".", "#"} for r in rows), code
    assert not pixels(32)                                # space
    assert all(pixels(c) for c in range(33, 128)), "a visible character without pixels"


def test_band_headers_name_their_characters():
    # The pictures are laid out under a line naming each character: keep them in step.
    lines = [line for line in font5x7.GLYPHS.split("\n") if line.strip()]
    headers = lines[::9]
    assert len(headers) == 6
    for band, line in enumerate(headers):
        for i in range(16):
            code = 32 + 16 * band + i
            name = line[6 * i:6 * i + 6].strip()
            assert name == ("DEL" if code == 127 else chr(code).strip()), (band, i, name)


def test_no_two_glyphs_alike():
    # At least two pixels between any two characters, and more between the classic
    # look-alikes that a player must tell apart on the OLED.
    def dist(a, b):
        return len(pixels(a) ^ pixels(b))
    close = [(chr(a), chr(b)) for a in PRINTABLE for b in PRINTABLE if a < b and dist(a, b) < 2]
    assert not close, close
    for a, b in ("0O", "1l", "1I", "Il", "5S", "8B", "2Z", "l|", "I|", "rn", "uv", "gq", "bh"):
        assert dist(ord(a), ord(b)) >= 3, (a, b)


def test_glyphs_leave_a_dark_gap_between_characters():
    cols = font5x7.columns()
    for i in range(96):
        cell = cols[8 * i:8 * i + 8]
        assert cell[0] == 0 and cell[6] == 0 and cell[7] == 0, chr(32 + i)
    # Capitals and digits stay on rows 0..6; only descenders and "_" use row 7.
    low = {c for c in range(33, 128) if any(y == 7 for _, y in pixels(c))}
    assert {chr(c) for c in low} == set("gjpqy_,|")


@pytest.fixture
def own_font(monkeypatch):
    monkeypatch.setenv("MICROPYTHON", "none")
    monkeypatch.setattr(framebuf, "_font", None)
    monkeypatch.setattr(framebuf, "FONT_SOURCE", None)
    framebuf.load_font()
    yield
    monkeypatch.setattr(framebuf, "_font", None)


def test_without_micropython_the_stand_in_draws_with_the_own_font(own_font):
    assert framebuf.FONT_SOURCE == "own"
    assert "own 5x7 font" in framebuf.font_name()
    fb = framebuf.FrameBuffer(bytearray(128 * 2), 128, 16, framebuf.MONO_VLSB)
    fb.text("Ag", 10, 3, 1)
    lit = {(x, y) for y in range(16) for x in range(128) if fb.pixel(x, y)}
    want = {(10 + font5x7.X0 + x, 3 + y) for x, y in pixels(ord("A"))}
    want |= {(18 + font5x7.X0 + x, 3 + y) for x, y in pixels(ord("g"))}
    assert lit == want
    fb.fill(0)
    fb.text("\x01\xe9", 0, 0, 1)      # outside 32..127 (\xe9 is two UTF-8 bytes): DEL glyphs
    assert {(x, y) for y in range(8) for x in range(32) if fb.pixel(x, y)} == \
        {(font5x7.X0 + x, y) for x, y in pixels(127)} | \
        {(8 + font5x7.X0 + x, y) for x, y in pixels(127)} | \
        {(16 + font5x7.X0 + x, y) for x, y in pixels(127)}


def test_the_text_finder_reads_screens_drawn_with_the_own_font(own_font):
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    screens.play(fb, "Brown", (0, 0), 17, "d2xd6 e6=X b3=RN", "Must move c2")
    pic = Picture.from_fb(fb)
    assert pic.find("Brown to move") is not None and pic.find("Brown", inverted=True)
    assert pic.has("Supply 17") and pic.has("d2xd6 e6=X") and pic.has("Must move c2")
    assert not pic.has("White") and not pic.has("Supply 11") and not pic.has("c3")
    fb.fill(0)
    screens.menu(fb, "Menu", ("Take back turn", "Offer a draw", "Sensor test"), 1)
    pic = Picture.from_fb(fb)
    assert pic.has("Offer a draw", inverted=True) and pic.has("Take back turn", inverted=False)
    assert not pic.has("Take back turn", inverted=True)

