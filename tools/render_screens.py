#!/usr/bin/env python3
"""Render every OLED screen of the board controller (and a sheet of the 16 face icons) to PNG
files, scaled 4x, so that people can look at them without a board.

    python tools/render_screens.py [--lang de|en|it|es] [OUTDIR]   (default: build/screens/)

Each screen's texts are the board's own (controller/lang_*.py) in the chosen language; the
tool names any screen with a text cut off because it does not fit its place.

Runs on CPython with the framebuf stand-in of tools/vboard. Its text is pixel-identical to
MicroPython's when a micropython executable is around to lend MicroPython's font; without one
the text is drawn with the project's own 5x7 font and the tool says so (tools/vboard/
framebuf.py).
"""
import os
import struct
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import vboard  # noqa: E402

vboard.install_framebuf()   # CPython: the stand-in
import framebuf  # noqa: E402
from barragoon.core import FACES  # noqa: E402
from controller import font, screens  # noqa: E402
from controller import i18n  # noqa: E402

SCALE = 4
ON = (200, 235, 255)     # lit OLED pixel
OFF = (8, 10, 16)
GAP = (0, 0, 0)


def png_bytes(width, height, rows):
    """A PNG (8-bit RGB) from rows: a list of `height` bytes objects of 3 * width bytes."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    raw = b"".join(b"\x00" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def fb_png(fb, width, height, scale=SCALE, grid=True):
    """PNG of a framebuffer: each pixel a scale x scale block (with a dark 1-pixel seam when
    grid, like the gaps between OLED pixels)."""
    rows = []
    for y in range(height):
        line = bytearray()
        for x in range(width):
            c = ON if fb.pixel(x, y) else OFF
            for k in range(scale):
                line += bytes(GAP if grid and k == scale - 1 and scale > 2 else c)
        for k in range(scale):
            if grid and k == scale - 1 and scale > 2:
                rows.append(bytes(GAP) * (width * scale))
            else:
                rows.append(bytes(line))
    return png_bytes(width * scale, height * scale, rows)


def new_fb(width=128, height=64):
    return framebuf.FrameBuffer(bytearray(width * ((height + 7) // 8)), width, height,
                                framebuf.MONO_VLSB)


def start_occupancy():
    occ = bytearray(63)
    for name in ("b1 c1 e1 f1 c2 d2 e2 b4 f4 a5 c5 e5 g5 b6 f6 b9 c9 e9 f9 c8 d8 e8").split():
        occ[(int(name[1]) - 1) * 7 + "abcdefg".index(name[0])] = 1
    return occ


class Tx:
    """A text of the board in the language being rendered: Tx("Put back %s", "d2") is
    t("Put back %s") % "d2" (controller/i18n.py)."""

    def __init__(self, key, *args):
        self.key = key
        self.args = args

    def text(self):
        s = i18n.t(self.key)
        return s % tuple(_resolve(a) for a in self.args) if self.args else s


def _resolve(a):
    if isinstance(a, Tx):
        return a.text()
    if isinstance(a, tuple):
        return tuple(_resolve(x) for x in a)
    return a


def play_clock(fb, side, last, note, white_ms, brown_ms, running=True):
    """The play screen of a game with a clock: the times over the title bar."""
    screens.play(fb, side, (0, 0), 22, last, note)
    screens.clocks(fb, white_ms, brown_ms, side, running)


GAME_MENU = (Tx("Resume"), Tx("Take back turn"), Tx("Offer draw"), Tx("%s: draw (rep.)", Tx("Brown")),
             Tx("Pause clock"), Tx("Brightness"), Tx("LEDs: %s", Tx("red-green")),
             Tx("Sensor test"), Tx("LED test"), Tx("Lang: %s", "Italiano"), Tx("New game"),
             Tx("Hint"))
NEW_GAME_MENU = (Tx("Set up new game"), Tx("Variant: %s", Tx("closed")),
                 Tx("White express %d", 2), Tx("Brown express %d", 1), Tx("Clock: %d min", 30),
                 Tx("Increment: %d s", 10), Tx("Against: player"), Tx("You play %s", Tx("Brown")),
                 Tx("Strength %d", 3))
PIECE = Tx("Brown 4-tile")
# Screens whose sample text is too long on purpose (they show how a cut looks): left out of
# the fit check (host_tests/test_i18n.py).
CUT_ON_PURPOSE = ("message_long", "menu_cut", "play_express")

SCREENS = (
    ("message", screens.message, (Tx("Fix the board"), Tx("Put back on %s:", "d2"),
                                  Tx("White 3-tile"), "", "")),
    ("message_long", screens.message, ("A title much longer than sixteen",
                                       "line one is longer than the screen", "2", "3", "4")),
    ("play", screens.play, ("White", (0, 0), 24, "d2xd6 e6=X b3=RN",
                            Tx("Touch-move: move %s", "c2"))),
    ("play_start", screens.play, ("White", (0, 0), 24, "", "")),
    ("play_express", screens.play, ("Brown", (1, 2), 9, "c1xc4 e6=RN b3=LW",
                                    Tx("Capture %s or put it back", "b5"))),
    ("play_express_note", screens.play, ("Brown", (1, 2), 9, "c1xc4 e6=RN b3=LW",
                                         Tx("%s: not a target", "b5"))),
    ("play_long_note", screens.play, ("Brown", (0, 0), 17, "c1-c4",
                                      Tx("Wrong piece on %s: lift it", "b5"))),
    ("play_put_back", screens.play, ("White", (0, 0), 17, "c1-c4",
                                     Tx("Put back %s: %s", "b5", PIECE))),
    ("play_clock", play_clock, (1, "d2xd6 e6=X b3=RN", "", 281000, 594000)),
    ("play_clock_low", play_clock, (0, "c8-c6", "", 9400, 1205000)),
    ("play_clock_paused", play_clock, (0, "c8-c6", Tx("Power was off: OK starts clock"),
                                       293000, 287000, False)),
    ("placement", screens.placement, (Tx("%s: put one", Tx("Brown")), "")),
    ("placement_note", screens.placement, (Tx("%s: put one", Tx("Brown")),
                                           Tx("Take the piece off %s", "e5"))),
    ("place_face", screens.message, (Tx("Place Barragoon"), Tx("%s: face %s", Tx("Brown"), "RN"),
                                     Tx("Set it down on"), Tx("an empty square"),
                                     Tx("Set it down first"))),
    ("picker_RN", screens.face_picker, ("White", "e5", FACES.index("RN") + 1)),
    ("picker_LE", screens.face_picker, ("Brown", "b3", FACES.index("LE") + 1)),
    ("picker_X", screens.face_picker, ("White", "g9", 1)),
    ("picker_A", screens.face_picker, ("Brown", "a1", 16)),
    ("picker_board", screens.face_picker, ("Brown", "c4", FACES.index("RW") + 1,
                                           Tx("Placed? OK"))),
    ("menu_top", screens.menu, (Tx("Menu"), GAME_MENU, 0)),
    ("menu_scrolled", screens.menu, (Tx("Menu"), GAME_MENU, 9)),
    ("menu_cut", screens.menu, ("Menu", ("New game (closed)", "New game (open)",
                                         "Express stages", "Take back", "Offer a draw",
                                         "Sensor test", "LED test"), 0)),
    ("menu_new_game", screens.menu, (Tx("New game"), NEW_GAME_MENU, 4)),
    ("menu_saved", screens.menu, (Tx("Saved game"), (Tx("Resume game"), Tx("New game")), 0)),
    ("brightness", screens.message, (Tx("Brightness"), "40 %", Tx("UP/DN: change"),
                                     Tx("OK: done"))),
    ("led_test", screens.message, (Tx("LED test"), Tx("White on all"), Tx("UP/DN: next"),
                                   Tx("OK: back"))),
    ("draw_offer", screens.message, (Tx("Draw offer"), Tx("%s offers", Tx("Brown")),
                                     Tx("a draw. %s:", Tx("White")), Tx("hold OK: accept"),
                                     Tx("press OK: no"))),
    ("board_thinking", screens.message, (Tx("Board: %s", Tx("Brown")), Tx("Thinking..."),
                                         Tx("Strength %d", 3), "", "")),
    ("board_move", screens.message, (Tx("Board: %s", Tx("Brown")), Tx("plays %s", "c8xc5"),
                                     Tx("Take off %s", "c5"), Tx("then move %s", "c8"),
                                     Tx("Wait: thinking"))),
    ("hint", screens.message, (Tx("Hint"), Tx("%s could play", Tx("Brown")), "c8-c5", "",
                               Tx("touch: clear"))),
    ("fix_wrong", screens.message, (Tx("Fix the board"), Tx("Wrong piece on"),
                                    Tx("%s: lift it", "d2"), Tx("then put back"), PIECE)),
    ("game_over_white", screens.game_over, ("White wins", Tx("no legal move"))),
    ("game_over_brown", screens.game_over, ("Brown wins", Tx("express rule"))),
    ("game_over_draw", screens.game_over, ("Draw", Tx("repetition, nobody can deviate"))),
    ("sensor_grid", screens.sensor_grid, (start_occupancy(),)),
    ("setup", screens.setup, (PIECE, "b1", 23)),
    ("setup_remove", screens.setup, ("Remove piece", "e5", 3)),
    ("setup_still", screens.message, (Tx("Set up the board"), Tx("Hold still..."))),
    ("question", screens.question, (Tx("Which is it?"), Tx("Board can't tell"),
                                    (Tx("No capture"), Tx("Barragoon on %s", "d2")), 0)),
    ("question_swap", screens.question, (Tx("Which is it?"), Tx("Board can't tell"),
                                         ("c2-c4", Tx("Pieces swapped")), 1)),
    ("question_repair", screens.question, (Tx("Which is it?"), Tx("Each piece back?"),
                                           (Tx("Yes, all back"), Tx("Not yet"),
                                            Tx("Brown's on %s", "d2")), 0)),
    ("saved_game_bad", screens.message, (Tx("Saved game:"), Tx("unreadable tag:"),
                                         Tx("clock, opponent"), Tx("copy: game.bad"))),
)


def render(name, fn, args):
    """Draw one screen in the chosen language: (framebuffer, texts cut)."""
    fb = new_fb()
    screens.cut = 0
    fn(fb, *_resolve(args))
    return fb, screens.cut


def icon_sheet():
    """All 16 faces: big (24 px, framed) over small (16 px), with the face code."""
    w, h = 4 * 40, 4 * 56
    fb = new_fb(w, h)
    for i, code in enumerate(FACES):
        x = (i % 4) * 40 + 4
        y = (i // 4) * 56 + 1
        fb.rect(x - 2, y, 28, 28, 1)
        screens.face_icon(fb, x, y + 2, i + 1, 24)
        screens.face_icon(fb, x + 4, y + 30, i + 1, 16)
        fb.text(code, x + 2, y + 47, 1)
    return fb, w, h


GLYPH_BASES = {"ß": "B", "°": "o", "¿": "?", "¡": "!", "«": "<", "»": ">", "„": ",", "“": '"',
               "”": '"', "‘": "'", "’": "'", "…": ".", "–": "-"}
GLYPH_SAMPLES = ("Weiß zieht: Über «Ärger»", "perché è già più – Sì", "¿Qué pieza? ¡Sí! Año…",
                 "„Zug“ ‘ok’ Ça 5° Ñandú ô")


def glyph_sheet():
    """Every glyph of controller/font.py (font.EXTRA, then the replacement box) to the right
    of the ASCII letter it is made from, 8 pairs to a row; under them a few lines of text
    that mix them with framebuf's own letters."""
    import unicodedata
    chars = font.EXTRA + "\u2603"
    per = 8
    w, rows = per * 24, (len(chars) + per - 1) // per
    h = rows * 12 + 4 + 10 * len(GLYPH_SAMPLES)
    fb = new_fb(w, h)
    for i, ch in enumerate(chars):
        x, y = (i % per) * 24 + 2, (i // per) * 12 + 2
        base = GLYPH_BASES.get(ch) or unicodedata.normalize("NFD", ch)[0]
        if ord(base) < 127:
            fb.text(base, x, y, 1)
        font.text(fb, ch, x + 10, y, 1)
    for k, line in enumerate(GLYPH_SAMPLES):
        font.text(fb, line, 0, rows * 12 + 4 + 10 * k, 1)
    return fb, w, h


def parse_args(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="render_screens.py", description=__doc__.split("\n\n")[0],
                                 epilog="The PNG files are named after the screens (play.png, "
                                        "picker_RN.png, ..., icons.png; glyphs.png: the OLED "
                                        "glyphs beyond ASCII next to their base letters).")
    ap.add_argument("outdir", nargs="?", default=os.path.join(ROOT, "build", "screens"),
                    help="folder for the PNG files (default build/screens; made if missing)")
    ap.add_argument("--lang", default="en", metavar="CODE",
                    help="language of the texts: %s (default en: English)"
                         % ", ".join("%s %s" % (c, i18n.name(c)) for c in i18n.LANGUAGES))
    args = ap.parse_args(argv)
    if args.lang not in i18n.LANGUAGES:
        ap.error("--lang %s is not a language of the board (use one of %s)"
                 % (args.lang, ", ".join(i18n.LANGUAGES)))
    if os.path.exists(args.outdir) and not os.path.isdir(args.outdir):
        ap.error("%s is a file, not a folder" % args.outdir)
    try:
        os.makedirs(args.outdir, exist_ok=True)
    except OSError as e:
        ap.error("cannot make the folder %s: %s" % (args.outdir, e.strerror or e))
    return args


def main(argv):
    args = parse_args(argv[1:])
    out = args.outdir
    i18n.set_language(args.lang)
    names = []
    cut = []
    for name, fn, a in SCREENS:
        fb, n = render(name, fn, a)
        if n and name not in CUT_ON_PURPOSE:
            cut.append(name)
        with open(os.path.join(out, name + ".png"), "wb") as f:
            f.write(fb_png(fb, 128, 64))
        names.append(name)
    fb, w, h = icon_sheet()
    with open(os.path.join(out, "icons.png"), "wb") as f:
        f.write(fb_png(fb, w, h))
    names.append("icons")
    fb, w, h = glyph_sheet()
    with open(os.path.join(out, "glyphs.png"), "wb") as f:
        f.write(fb_png(fb, w, h, 6))
    names.append("glyphs")
    print("%d PNG files in %s (%s)" % (len(names), out, i18n.name(args.lang)))
    if cut:
        print("text cut off (too long for its place) on: %s" % ", ".join(cut))
    print("text drawn with %s" % framebuf.font_name())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
