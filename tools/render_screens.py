#!/usr/bin/env python3
"""Render every screen the board can show to PNG files (scaled 4x), in any of its languages,
and name every screen with a text cut off because it does not fit its place.

    python tools/render_screens.py [--lang de|en|it|es] [OUTDIR]   (default: build/screens/)

The screens come from the firmware itself, not from a list: scenes are played through the
real board controller (tools/toolkit/ctl_script.py) and the real App on the virtual board
(set-up, play, captures and placements, touch-move, repairs, questions, every menu, the
clock, the board as opponent, hints, game over, power-on notices), and every screen drawn on
the way is caught. Then every note and hint the firmware can show (found in its code: each
note the judge's view can ask for, each text assigned to ctl.hint, each refusal of the rules
core) is shown in every scene, and every reason a game can end on the game-over screen. The
tool checks that every mode of the controller and every call of a drawing function of
controller/screens.py in firmware/ was drawn, and names any that was not. Only the rules
core's long refusals may be cut (with a three-dot mark: they are the core's own words).

Runs on CPython with the framebuf stand-in of tools/vboard. Its text is pixel-identical to
MicroPython's when a micropython executable is around to lend MicroPython's font; without one
the text is drawn with the project's own 5x7 font and the tool says so (tools/vboard/
framebuf.py).
"""
import ast
import os
import shutil
import struct
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
sys.path.insert(0, FIRMWARE)
sys.path.insert(0, os.path.join(ROOT, "tools"))

import vboard  # noqa: E402

vboard.install()            # the virtual board (and the framebuf stand-in on CPython)
import framebuf  # noqa: E402
from barragoon import game as G  # noqa: E402
from barragoon.core import FACES  # noqa: E402
from barragoon.notation import parse_square  # noqa: E402
from controller import font, screens  # noqa: E402
from controller import i18n, menus, modes as M, refusals, view as V  # noqa: E402
from controller import opponent as OP, remote as R  # noqa: E402
from toolkit.ctl_script import Rig  # noqa: E402

SCALE = 4
ON = (200, 235, 255)     # lit OLED pixel
OFF = (8, 10, 16)
GAP = (0, 0, 0)
# The drawing functions of controller/screens.py: a call of one of them is a screen.
DRAWERS = ("message", "message_note", "placement", "play", "clocks", "face_picker", "menu",
           "question", "game_over", "sensor_grid", "setup", "centre")


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


def copy_fb(fb):
    out = new_fb()
    for y in range(64):
        for x in range(128):
            if fb.pixel(x, y):
                out.pixel(x, y, 1)
    return out


# --- what the firmware draws, and where from ------------------------------------------------
_memo = {}


def memo(fn):
    """The result of fn(), computed once (the firmware's sources do not change meanwhile)."""
    def once():
        if fn not in _memo:
            _memo[fn] = fn()
        return _memo[fn]
    return once


@memo
def call_sites():
    """{(file, line)} of every call of a drawing function of screens.py in firmware/ (outside
    screens.py itself), found in the source."""
    out = set()
    for base, _, files in os.walk(FIRMWARE):
        for name in files:
            if not name.endswith(".py") or name == "screens.py":
                continue
            path = os.path.join(base, name)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                fn = getattr(node, "func", None)
                if isinstance(node, ast.Call) and isinstance(fn, ast.Attribute) and \
                        getattr(fn.value, "id", "") == "screens" and fn.attr in DRAWERS:
                    out.add((os.path.relpath(path, FIRMWARE).replace(os.sep, "/"),
                             node.lineno))
    return out


def mode_classes():
    """Every mode of the controller (subclasses of modes.Mode in the controller's modules)."""
    found, todo = set(), [M.Mode]
    while todo:
        for c in todo.pop().__subclasses__():
            if c not in found:
                found.add(c)
                todo.append(c)
    return found


class Recorder:
    """Wraps screens.py's drawing functions: notes every call site that draws, and the texts
    cut (screens.cut) by each screen."""

    def __init__(self):
        self.sites = set()
        self.modes = set()
        self.depth = 0
        self.orig = {}
        self.caught = None         # a list: every screen drawn goes there as (site, copy)

    def __enter__(self):
        for name in DRAWERS:
            fn = getattr(screens, name)
            self.orig[name] = fn
            setattr(screens, name, self._wrap(fn))
        return self

    def __exit__(self, *exc):
        for name, fn in self.orig.items():
            setattr(screens, name, fn)

    def _wrap(self, fn):
        def drawn(*args, **kw):
            if self.depth == 0:
                f = sys._getframe(1)
                path = os.path.relpath(f.f_code.co_filename, FIRMWARE).replace(os.sep, "/")
                self.sites.add((path, f.f_lineno))
                me = f.f_locals.get("self")
                if isinstance(me, M.Mode):
                    self.modes.add(type(me))
            self.depth += 1
            try:
                return fn(*args, **kw)
            finally:
                self.depth -= 1
                if self.depth == 0 and self.caught is not None:
                    self.caught.append(copy_fb(args[0]))
        return drawn


# --- the notes and hints the firmware can show ----------------------------------------------
@memo
def hint_keys():
    """English keys of every text the firmware assigns to ctl.hint (`x.hint = _t("...")`)."""
    keys = []
    for base, _, files in os.walk(os.path.join(FIRMWARE, "controller")):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            with open(os.path.join(base, name), encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Assign) and any(
                        isinstance(t, ast.Attribute) and t.attr == "hint" for t in node.targets):
                    for c in ast.walk(node.value):
                        if isinstance(c, ast.Call) and getattr(c.func, "id", "") in ("_t", "t") \
                                and c.args and isinstance(c.args[0], ast.Constant):
                            keys.append(c.args[0].value)
    return sorted(set(keys))


def fill(text):
    """A text with its %-values filled in: squares and numbers (the longest a side's or a
    piece's name gives is checked by host_tests/test_i18n.py per text)."""
    n = text.count("%s") + text.count("%d")
    if not n:
        return text
    vals = tuple("d2" if m == "s" else 2 for m in
                 [text[i + 1] for i in range(len(text) - 1) if text[i] == "%"
                  and text[i + 1] in "sd"])
    return text % vals


def notes(rig):
    """Every note and hint the board can show, in the chosen language: each note of the
    judge's view (modes.note_text, its N_* codes) with a piece on the square it names, each
    hint of the code, each refusal of the rules core. [(text, designed to be cut)]"""
    ctl = rig.ctl
    j = ctl.judge
    out = []
    sq = parse_square("e1")          # (a White tile stands there at the start)
    keep = (j.view.note, j.view.note_sq, j.view.refused)
    try:
        for name in sorted(dir(V)):
            if name.startswith("N_") and name not in ("N_REFUSED",):
                j.view.note, j.view.note_sq = getattr(V, name), sq
                try:
                    text = M.note_text(ctl)
                except (IndexError, ValueError, TypeError):
                    continue
                if text:
                    out.append((text, False))
    finally:
        j.view.note, j.view.note_sq, j.view.refused = keep
    for key in hint_keys():
        out.append((fill(i18n.t(key)), False))
    for key in refusals.RULES_TEXTS:
        text = key % G.R_TIME if key == "the game is over: %s" else fill(key)   # (a reason)
        out.append((M.rules_text(text), True))
    return out


# --- scenes: the controller played into every state that draws a screen ---------------------
WHITE_TAKES_BARRAGOON = "6z/7/7/7/3[X]3/7/7/3D3/7 w 24"   # White: d2xd5, then places
BOARD_TAKES_BARRAGOON = "7/7/7/7/3z3/7/3[X]3/7/Z6 b 24"   # the board (Brown): d5xd3, places
WHITE_CAPTURES = "6z/7/7/7/3z3/7/7/[X]2D3/7 w 24"         # White takes d5: Brown places first
VICTIM_PUT_BACK = "7/7/7/7/3z3/7/7/3D3/6z w 24"           # the board cannot tell: it asks
LAST_TILE = "7/7/7/7/3z3/7/7/3D3/7 w 24"                  # d2xd5 takes Brown's last tile


def choose(rig, label):
    """In the menu on top, move to the item whose English key is label, then OK."""
    menu = rig.ctl.top
    for _ in range(len(menu.items) + 1):
        if menu.items[menu.sel] == i18n.t(label) or menu.items[menu.sel].startswith(
                i18n.t(label).split("%")[0]) and "%" in label:
            rig.run("press ok")
            return
        rig.run("press down")
    raise ValueError("no menu item %r in %r" % (label, menu.items))


def start_position(rig):
    g = rig.start_game()
    return g


def set_up_board(rig):
    """The players put every piece of the new game where it belongs."""
    g = rig.ctl.game
    for s in range(63):
        rig.put(s, 1 if g.pos.get(s) else 0)
    rig.advance(400)


def vs(rig, position, board_side=1, level=1):
    g = rig.start_game(position)
    g.opponent = OP.tag(board_side, level)
    rig.ctl.begin(g)
    rig.advance(0)
    return g


def think(rig):
    for _ in range(400):
        rig.advance(20)
        op = rig.ctl.opponent
        if not op.thinking and op.plan is not None:
            return op.plan
    raise RuntimeError("the board did not answer")


def scene_setup(rig):
    rig.ctl.start(bytearray(63))                      # a fresh board: the guided set-up


def scene_setup_remove(rig):
    rig.ctl.start(bytearray(63))
    rig.put(parse_square("d5"), 1)                    # a piece where none belongs


def scene_setup_still(rig):
    rig.ctl.start(bytearray(63))
    g = rig.ctl.game
    for s in range(63):
        rig.board[s] = 1 if g.pos.get(s) else 0
        rig.ctl.on_square(s, rig.board[s], rig.t)
    rig.ctl.tick(rig.t)


def scene_play_start(rig):
    rig.start_game()


def scene_play(rig):
    rig.start_game()
    rig.run("lift d2; drop d5; wait 400; lift d8; drop d6; wait 400")


def scene_play_express(rig):
    rig.start_game(stages=(2, 1))
    rig.run("lift d2; drop d5; wait 400")


def scene_placement(rig):
    rig.start_game(WHITE_TAKES_BARRAGOON)
    rig.run("lift d2; wait 300; lift d5; drop d5; wait 400")    # the Barragoon is White's to place


def scene_picker(rig):
    scene_placement(rig)
    rig.run("drop e4; wait 400")


def scene_picker_lifted(rig):
    scene_picker(rig)
    rig.run("lift e4; wait 100")                      # lifted again to turn it


def scene_placed(rig):
    scene_picker(rig)
    rig.run("press down; press down; press ok; wait 400")   # the turn with its placement


def scene_touch_move(rig):
    rig.start_game()
    rig.run("lift d2; wait 400; drop d2; wait 400")


def scene_fix_board(rig):
    scene_play(rig)
    rig.run("hold")
    choose(rig, "Take back turn")                     # the board must be put back


def scene_question(rig):
    rig.start_game(WHITE_CAPTURES)                    # both Barragoons down together
    rig.run("lift d2; wait 300; lift d5; drop d5; wait 400; drop e4; wait 20; drop f4; "
            "wait 400")


def scene_no_capture_offered(rig):
    rig.start_game(VICTIM_PUT_BACK)                   # the tile back, or a Barragoon on d2
    rig.run("lift d2; wait 270; lift d5; wait 270; drop d5; wait 770; drop d2; wait 600")


def scene_no_capture(rig):
    scene_no_capture_offered(rig)
    rig.run("press up; wait 100")


def scene_over(rig):
    rig.start_game(LAST_TILE)
    rig.run("lift d5; wait 100; lift d2; drop d5; wait 400")


def scene_menu(rig):
    scene_play(rig)
    rig.run("hold")


def scene_menu_end(rig):
    scene_menu(rig)
    rig.run("press up")                               # the last item


def scene_menu_new_game(rig):
    scene_menu(rig)
    choose(rig, "New game")
    for label in ("Clock: off", "Against: player", "Variant: %s"):
        choose(rig, label)                            # every option shown


def scene_end_game(rig):
    scene_menu(rig)
    choose(rig, "New game")
    choose(rig, "Set up new game")                    # a game in progress: asked first


def scene_menu_saved(rig):
    g = G.Game()
    g.move(parse_square("d2"), parse_square("d5"))
    occ = bytearray(1 if g.pos.get(s) else 0 for s in range(63))
    rig.board[:] = occ
    rig.ctl.start(occ, g)                             # power-on with a game in progress


def scene_brightness(rig):
    scene_menu(rig)
    choose(rig, "Brightness")


def scene_sensor_test(rig):
    scene_menu(rig)
    choose(rig, "Sensor test")


def scene_led_test(rig):
    scene_menu(rig)
    choose(rig, "LED test")


def scene_led_walk(rig):
    scene_led_test(rig)
    rig.run("press up")                               # straight to the walk


def scene_draw_offer(rig):
    scene_menu(rig)
    choose(rig, "Offer draw")


def scene_repetition(rig):
    rig.start_game()
    rig.ctl.push(M.Offer(True, 0))


def scene_clock(rig):
    rig.ctl.start(bytearray(63))
    rig.ctl.clock_choice[0] = 1
    rig.ctl.new_game()
    set_up_board(rig)
    rig.run("lift d2; drop d5; wait 400")


def scene_clock_paused(rig):
    scene_clock(rig)
    rig.ctl.pause_clock(True)


def scene_board_thinking(rig):
    vs(rig, BOARD_TAKES_BARRAGOON)


def scene_board_move(rig):
    vs(rig, BOARD_TAKES_BARRAGOON)
    think(rig)


def scene_board_places(rig):
    vs(rig, BOARD_TAKES_BARRAGOON)
    think(rig)
    rig.run("lift d3; wait 300; lift d5; drop d3; wait 400")
    for _ in range(3):
        if rig.ctl.opponent.plan is None or rig.ctl.opponent.thinking:
            think(rig)


def scene_board_face(rig):
    scene_board_places(rig)
    p = rig.ctl.opponent.placement(rig.ctl.opponent.step(rig.ctl.game))
    rig.put(p[1], 1)                                  # set down where the board said
    rig.advance(400)


def scene_player_places_for_board(rig):
    vs(rig, WHITE_CAPTURES)
    rig.run("lift d2; wait 300; lift d5; drop d5; wait 400")    # the board (Brown) places first


def scene_remote_asks_to_play(rig):
    rig.start_game()
    rig.ctl.push(R.Question(R.CONSENT, 1))            # a computer asks to play Brown


def scene_remote_asks_to_take_back(rig):
    rig.start_game()
    rig.ctl.push(R.Question(R.TAKEBACK, 1))


def scene_remote_waiting(rig):
    rig.start_game()
    rig.ctl.set_opponent(R.Remote(1))
    rig.run("lift d2; drop d5; wait 400")              # Brown's turn: the computer's


def scene_hint(rig):
    rig.start_game()
    rig.run("hold")
    choose(rig, "Hint")


def scene_hint_shown(rig):
    scene_hint(rig)
    for _ in range(400):
        rig.advance(20)
        if rig.ctl.top.turn is not None:
            return


def scene_hint_placement(rig):
    scene_placement(rig)
    rig.run("hold")
    choose(rig, "Hint")
    for _ in range(400):
        rig.advance(20)
        if rig.ctl.top.turn is not None:
            return


SCENES = [(name[6:], fn) for name, fn in sorted(globals().items())
          if name.startswith("scene_")]


def app_screens(rec, lang):
    """The App's own screens on the virtual board: the boot screen, the notices of a saved
    game it cannot use, a full file system, the message of a fault. [(name, framebuffer)]"""
    import contextlib
    import io
    import app
    import storage as S
    from vboard.clock import Clock
    out = []
    cases = (("boot", None), ("notice_empty", ""), ("notice_damaged", "not a record"),
             ("notice_tag", '[Variant "closed"]\n[Express "0 0"]\n[Clock "x"]\n'
                            '[Result "*"]\n\n1. d2-d5\n'))
    with contextlib.redirect_stdout(io.StringIO()):        # (the App's console lines)
        for name, text in cases:
            d = tempfile.mkdtemp(prefix="screens")
            rec.caught = []
            try:
                if text is not None:
                    os.makedirs(os.path.join(d, "saved"))
                    with open(os.path.join(d, "saved", "game.txt"), "w") as f:
                        f.write(text)
                a = app.App(S.Storage(d + "/"), Clock())
                i18n.set_language(lang)             # (the App took its settings' language)
                if name == "boot":
                    a.boot_screen()
                    a.storage.full = True
                    a.show_oled()
                    out += [("boot", rec.caught[0]), ("storage_full", copy_fb(a.oled))]
                else:
                    a.boot()
                    out.append((name, rec.caught[0]))
            finally:
                rec.caught = None
                shutil.rmtree(d, ignore_errors=True)
        rec.caught = []
        app.show_text(["Error: restart"] + app.wrap("MemoryError: memory allocation failed, "
                                                    "allocating 1024 bytes"))
        out.append(("error", rec.caught[0]))
        rec.caught = None
    return out


# --- drawing it all -------------------------------------------------------------------------
class Shot:
    def __init__(self, name, fb, cut):
        self.name, self.fb, self.cut = name, fb, cut


def _no_text(fb, s, x, y, c=1):
    pass


class TextOff:
    """While on, text is measured and cut as usual but not drawn: the fit check needs only
    what screens.py cuts, and drawing the letters takes most of the time on CPython."""
    real = font.text

    def __enter__(self):
        font.text = _no_text
        return self

    def __exit__(self, *exc):
        font.text = TextOff.real


def shoot(rig, rec):
    """The screen of the mode on top, drawn now (in rig.fb): the texts cut."""
    if rig.ctl.top is not None:
        rec.modes.add(type(rig.ctl.top))
    screens.cut = 0
    rig.ctl.screen_dirty = True
    rig.ctl.render(rig.t, 2)
    return screens.cut


def redraw(rig, rec):
    """The screen just checked (text off), drawn again with its letters: a copy."""
    font.text = TextOff.real
    try:
        shoot(rig, rec)
    finally:
        font.text = _no_text
    return copy_fb(rig.fb)


def check_texts(rig, rec, name, shown):
    """Every note and hint in the scene, and on a game-over screen every reason a game can
    end: the screens that cut one (but a refusal of the rules core), drawn."""
    out = []
    if isinstance(rig.ctl.top, M.Over):
        g = rig.ctl.game
        for k, reason in enumerate(G.TERMINATIONS):
            if reason:
                g.termination = k
                if shoot(rig, rec):
                    out.append(Shot("%s (%s)" % (name, reason), redraw(rig, rec), 1))
    for text, designed in shown:
        rig.ctl.hint = text
        if shoot(rig, rec) and not designed:
            out.append(Shot("%s with the note %r" % (name, text), redraw(rig, rec), 1))
    rig.ctl.hint = ""
    return out


def draw_all(lang):
    """Every screen in language lang: (shots, problems). A shot's cut > 0 names a text cut off
    that is not designed to be; problems: modes or call sites no scene drew, a scene that
    failed."""
    i18n.set_language(lang)
    OP.LIMIT, OP.SLICE_MS = (0, 60), 0      # the engine by steps: the same answer everywhere
    shots, problems = [], []
    with Recorder() as rec:
        base = Rig()
        with TextOff():
            scene_play(base)
        shown = notes(base)
        for name, fn in SCENES:
            rig = Rig()
            try:
                with TextOff():
                    fn(rig)
            except Exception as e:          # noqa: BLE001 - named, the others go on
                problems.append("scene %s failed: %s: %s" % (name, type(e).__name__, e))
                continue
            cut = shoot(rig, rec)
            shots.append(Shot(name, copy_fb(rig.fb), cut))
            with TextOff():
                shots += check_texts(rig, rec, name, shown)
        shots += [Shot(name, fb, 0) for name, fb in app_screens(rec, lang)]
    for path, line in sorted(call_sites() - rec.sites):
        problems.append("not drawn by any scene: the screen of %s line %d" % (path, line))
    for cls in sorted(mode_classes() - rec.modes, key=lambda c: c.__name__):
        if "screen" in cls.__dict__:
            problems.append("not drawn by any scene: mode %s" % cls.__name__)
    i18n.set_language("en")
    return shots, problems


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
                                 epilog="The PNG files are named after the scenes that show "
                                        "them (play.png, picker.png, menu.png, ...; "
                                        "icons.png: the 16 faces; glyphs.png: the OLED glyphs "
                                        "beyond ASCII next to their base letters); a screen "
                                        "with a text cut off is written too, as cut-N.png.")
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
    shots, problems = draw_all(args.lang)
    i18n.set_language(args.lang)
    n = 0
    cut = []
    for s in shots:
        if s.cut:
            cut.append(s.name)
            name = "cut-%d" % len(cut)
        else:
            name = s.name
        with open(os.path.join(out, name + ".png"), "wb") as f:
            f.write(fb_png(s.fb, 128, 64))
        n += 1
    fb, w, h = icon_sheet()
    with open(os.path.join(out, "icons.png"), "wb") as f:
        f.write(fb_png(fb, w, h))
    fb, w, h = glyph_sheet()
    with open(os.path.join(out, "glyphs.png"), "wb") as f:
        f.write(fb_png(fb, w, h, 6))
    i18n.set_language("en")
    print("%d PNG files in %s (%s)" % (n + 2, out, i18n.name(args.lang)))
    for i, name in enumerate(cut):
        print("text cut off (too long for its place): cut-%d.png, %s" % (i + 1, name))
    for p in problems:
        print(p)
    print("text drawn with %s" % framebuf.font_name())
    return 1 if cut or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
