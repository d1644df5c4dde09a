# The CPython framebuf stand-in (tools/vboard/framebuf.py) against MicroPython's real
# framebuf: the same drawing calls must give the same bytes, text included (the shim reads its
# font from micropython), for every screen of the controller and for a few hundred random
# drawing calls in all formats. One micropython run for the module. CPython only (pytest).
import os
import random
import sys

import pytest

import framebuf  # noqa: E402  (the shim, installed by conftest)
import micropython_env  # noqa: E402

assert framebuf.__file__.endswith(os.path.join("vboard", "framebuf.py")), framebuf.__file__


# Sample screens: (name, python call on `fb` and `screens`).
SCREEN_CALLS = (
    ("message", 'screens.message(fb, "Fix the board", "Put back on d2:", "White 3-tile", "",'
                ' "Must move c2")'),
    ("message_long", 'screens.message(fb, "x" * 40, "~!@#$%^&*()_+{}|:<>?" * 2, "[]\\\\;,./",'
                     ' "\'\\"`", "\\x7f\\x01\\xe9")'),
    ("message_accents", 'screens.message(fb, "Brett prüfen", "Zurück auf d2:", "¿Qué? ¡Sí! Año",'
                        ' "perché è già", "«Ärger» – ÜÖ…")'),
    ("play", 'screens.play(fb, "White", (0, 0), 24, "d2xd6 e6=X b3=RN", "Must move c2")'),
    ("play_express", 'screens.play(fb, "Brown", (1, 2), 9, "c1xc4 e6=RN b3=LW",'
                     ' "Capture b5 or put it back")'),
    ("picker_RN", 'screens.face_picker(fb, "White", "e5", 8)'),
    ("picker_A", 'screens.face_picker(fb, "Brown", "a1", 16)'),
    ("picker_X", 'screens.face_picker(fb, "Brown", "g9", 1)'),
    ("menu", 'screens.menu(fb, "Menu", ("New game (closed)", "New game (open)", "Express",'
             ' "Take back", "Offer a draw", "Sensor test", "LED test", "Brightness"), 5)'),
    ("game_over", 'screens.game_over(fb, "White wins", "no legal move")'),
    ("game_over_draw", 'screens.game_over(fb, "Draw", "repetition, nobody can deviate")'),
    ("sensor_grid", 'screens.sensor_grid(fb, bytearray(b"\\x01\\x00\\x00" * 21))'),
    ("setup", 'screens.setup(fb, "White 4-tile", "b1", 23)'),
    ("icons", 'for i in range(16): screens.face_icon(fb, (i % 8) * 16, (i // 8) * 16, i + 1,'
              ' 16)\nfor i in range(5): screens.face_icon(fb, i * 25, 33, i + 7, 24)'),
    ("ascii", 'for i in range(96): fb.text(chr(32 + i), (i % 16) * 8, (i // 16) * 8, 1)'),
)

# Formats for the random drawing calls: (name, width, height, stride, buffer size).
FORMATS = (
    ("MONO_VLSB", 37, 21, 37, 37 * 3),
    ("MONO_VLSB", 30, 19, 41, 41 * 3),
    ("MONO_HLSB", 29, 17, 29, 4 * 17),
    ("MONO_HMSB", 29, 17, 29, 4 * 17),
    ("RGB565", 13, 11, 13, 2 * 13 * 11),
    ("GS8", 13, 11, 13, 13 * 11),
    ("GS4_HMSB", 13, 11, 13, 7 * 11),
    ("GS2_HMSB", 13, 11, 13, 4 * 11),
)
COLOURS = {"MONO_VLSB": 2, "MONO_HLSB": 2, "MONO_HMSB": 2, "RGB565": 65536, "GS8": 256,
           "GS4_HMSB": 16, "GS2_HMSB": 4}


def random_calls(rng, fmt, w, h):
    """Lines of Python drawing on `f` (a w x h framebuffer of format fmt) and on `src`."""
    nc = COLOURS[fmt]
    calls = []
    for _ in range(40):
        c = rng.randrange(nc)
        x, y = rng.randint(-8, w + 4), rng.randint(-8, h + 4)
        x2, y2 = rng.randint(-8, w + 4), rng.randint(-8, h + 4)
        a, b = rng.randint(-3, w), rng.randint(-3, h)
        kind = rng.randrange(13)
        if kind == 0:
            calls.append("f.fill(%d)" % c)
        elif kind == 1:
            calls.append("f.fill_rect(%d, %d, %d, %d, %d)" % (x, y, a, b, c))
        elif kind == 2:
            calls.append("f.rect(%d, %d, %d, %d, %d, %s)" % (x, y, a, b, c, rng.random() < .5))
        elif kind == 3:
            calls.append("f.hline(%d, %d, %d, %d)" % (x, y, a, c))
        elif kind == 4:
            calls.append("f.vline(%d, %d, %d, %d)" % (x, y, b, c))
        elif kind == 5:
            calls.append("f.line(%d, %d, %d, %d, %d)" % (x, y, x2, y2, c))
        elif kind == 6:
            calls.append("f.pixel(%d, %d, %d)" % (x, y, c))
        elif kind == 7:
            fill = rng.random() < .5
            if rng.random() < .5:
                calls.append("f.ellipse(%d, %d, %d, %d, %d, %s, %d)" % (
                    x, y, abs(a), abs(b), c, fill, rng.randrange(16)))
            else:
                calls.append("f.ellipse(%d, %d, %d, %d, %d, %s)" % (x, y, abs(a), abs(b), c,
                                                                   fill))
        elif kind == 8:
            n = rng.randint(1, 6)
            pts = [rng.randint(-5, max(w, h) + 5) for _ in range(2 * n)]
            calls.append("f.poly(%d, %d, array('h', %r), %d, %s)" % (
                x // 2, y // 2, pts, c, rng.random() < .6))
        elif kind == 9:
            s = "".join(chr(rng.randrange(32, 128)) for _ in range(rng.randint(1, 6)))
            calls.append("f.text(%r, %d, %d, %d)" % (s, x, y, c))
        elif kind == 10:
            calls.append("f.scroll(%d, %d)" % (rng.randint(-w - 2, w + 2) // 3,
                                               rng.randint(-h - 2, h + 2) // 3))
        elif kind == 11:
            calls.append("src.fill_rect(%d, %d, %d, %d, %d)" % (x % 9, y % 7, a % 9, b % 7,
                                                                rng.randrange(2)))
            calls.append("f.blit(src, %d, %d, %d)" % (x, y, rng.choice((-1, 0, 1))))
        else:
            calls.append("out.append(f.pixel(%d, %d))" % (x, y))
    return calls


def build_programs():
    """[(name, python source that sets `result` to bytes)], the same text for both runtimes."""
    progs = []
    for name, call in SCREEN_CALLS:
        progs.append((name, "buf = bytearray(1024)\n"
                            "fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)\n"
                            + call + "\nresult = bytes(buf)\n"))
    rng = random.Random(20240611)
    for k in range(6):
        for fmt, w, h, stride, size in FORMATS:
            lines = ["buf = bytearray(%d)" % size,
                     "f = framebuf.FrameBuffer(buf, %d, %d, framebuf.%s, %d)" % (w, h, fmt, stride),
                     "src = framebuf.FrameBuffer(bytearray(9), 9, 7, framebuf.MONO_VLSB)",
                     "src.fill_rect(1, 1, 5, 4, 1)",
                     "out = []"]
            lines += random_calls(rng, fmt, w, h)
            lines.append("result = bytes(buf) + bytes(str(out), 'ascii')")
            progs.append(("%s_%dx%d_%d" % (fmt, w, h, k), "\n".join(lines) + "\n"))
    return progs


MP_DRIVER = """
import sys, binascii, framebuf
from array import array
sys.path.insert(0, %r)
from controller import screens
PROGS = %r
for name, src in PROGS:
    g = {"framebuf": framebuf, "screens": screens, "array": array}
    try:
        exec(src, g)
        print(name, binascii.hexlify(g["result"]).decode())
    except Exception as e:
        print(name, "ERROR", repr(e))
"""


@pytest.fixture(scope="module")
def real_results():
    if micropython_env.find_micropython() is None:
        pytest.skip(micropython_env.missing_reason())
    progs = build_programs()
    proc = micropython_env.run(["-c", MP_DRIVER % (micropython_env.FIRMWARE, progs)],
                               heap=8 * 1024 * 1024, timeout=300)
    out = {}
    for line in proc.stdout.splitlines():
        name, _, rest = line.partition(" ")
        out[name] = rest
    assert len(out) == len(progs), proc.stdout[-2000:] + proc.stderr[-2000:]
    return out


def run_shim(src):
    from array import array
    from controller import screens
    g = {"framebuf": framebuf, "screens": screens, "array": array}
    exec(src, g)
    return g["result"].hex()


def test_shim_font_comes_from_micropython(real_results):
    framebuf.load_font()
    assert framebuf.FONT_SOURCE in ("micropython", "cache")
    assert len(framebuf.load_font()) == 96 * 8


@pytest.mark.parametrize("name", [n for n, _ in SCREEN_CALLS])
def test_screens_pixel_identical_to_micropython(real_results, name):
    src = dict(build_programs())[name]
    assert real_results[name] == run_shim(src), name


def test_random_drawing_calls_identical_to_micropython(real_results):
    bad = []
    n = 0
    for name, src in build_programs():
        if name in dict(SCREEN_CALLS):
            continue
        n += 1
        if real_results[name] != run_shim(src):
            bad.append(name)
    assert n == 6 * len(FORMATS)
    assert not bad, bad


# --- shim behaviour that needs no micropython -----------------------------------------------
class FakeSSD1306(framebuf.FrameBuffer):
    """Like the usual SSD1306 driver: owns width/height/buffer attributes."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.pages = height // 8
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, self.width, self.height, framebuf.MONO_VLSB)


def test_subclass_draws_into_its_buffer():
    d = FakeSSD1306(128, 64)
    d.pixel(3, 10, 1)
    assert d.buffer[128 + 3] == 1 << 2 and d.pixel(3, 10) == 1
    d.fill_rect(0, 0, 2, 8, 1)
    assert d.buffer[0] == 0xFF and d.buffer[1] == 0xFF and d.buffer[2] == 0
    assert d.width == 128 and d.height == 64       # untouched by the base class
    assert d.pixel(-1, 0) is None and d.pixel(128, 0) is None and d.pixel(0, 64) is None
    d.fill(0)
    assert not any(d.buffer)


def test_bad_arguments_rejected():
    with pytest.raises(ValueError):
        framebuf.FrameBuffer(bytearray(10), 128, 64, framebuf.MONO_VLSB)
    with pytest.raises(ValueError):
        framebuf.FrameBuffer(bytearray(1024), 128, 64, 99)
    with pytest.raises(TypeError):
        framebuf.FrameBuffer(b"\x00" * 1024, 128, 64, framebuf.MONO_VLSB)
