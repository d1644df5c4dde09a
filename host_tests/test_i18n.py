# The board's languages (controller/i18n.py, controller/lang_*.py): every text the firmware
# shows is in the English table, every table entry is used, every language translates every
# entry (same %-placeholders, only characters the OLED font draws), every translation fits
# its place on the 128x64 screen, and tools/render_screens.py renders every screen in every
# language without a text cut off. t() allocates nothing on MicroPython (the unix port).
# CPython (pytest); the heap check runs the MicroPython unix port once.
import ast
import os
import re
import subprocess
import sys

import pytest

import micropython_env
from barragoon import game
from controller import colours, i18n, menus, modes, refusals, screens
from controller import lang_de, lang_en, lang_es, lang_it

FW = micropython_env.FIRMWARE
TOOLS = micropython_env.TOOLS
TABLES = {"en": lang_en.T, "de": lang_de.T, "it": lang_it.T, "es": lang_es.T}
# The letters beyond ASCII that the OLED font draws (controller/font.py's EXTRA, once there).
try:
    from controller.font import EXTRA
except ImportError:
    EXTRA = "äöüÄÖÜßéèàìòùáíóúñÑ¿¡ÉÈÀÌÒÙÁÍÓÚçÇêâôîûëï«»°„“”‘’…–"
# A translation may equal the English text only where the word is the same in that language.
SAME = {
    "de": {"W", "B", "Barragoon %s", "Express", "%s: Barragoon", "LEDs: %s", "normal"},
    "it": {"Barragoon %s", "Express", "Menu"},
    "es": {"Barragoon %s", "Express", "normal"},
}


@pytest.fixture
def lang():
    """Switch languages in a test; English again afterwards (the module's state is global)."""
    yield i18n.set_language
    i18n.set_language("en")


# --- the tables ------------------------------------------------------------------------------
def _calls():
    """(file, line, first argument or None) of every t() / _t() / i18n.t() call in firmware/."""
    out = []
    for d, _, files in os.walk(FW):
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            path = os.path.join(d, f)
            with open(path, encoding="utf-8") as fh:
                tree = ast.parse(fh.read())
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                fn = node.func
                name = fn.id if isinstance(fn, ast.Name) else (
                    fn.attr if isinstance(fn, ast.Attribute) and
                    getattr(fn.value, "id", "") == "i18n" else None)
                if name in ("t", "_t"):
                    a = node.args[0]
                    lit = a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) \
                        else None
                    out.append((os.path.relpath(path, FW), node.lineno, lit))
    return out


def _menu_titles():
    # Menu("New game", ...): titles are English keys, translated when drawn
    out = []
    for d, _, files in os.walk(os.path.join(FW, "controller")):
        for f in files:
            if f.endswith(".py"):
                with open(os.path.join(d, f), encoding="utf-8") as fh:
                    tree = ast.parse(fh.read())
                for node in ast.walk(tree):
                    if isinstance(node, ast.Call) and node.args and \
                            getattr(node.func, "attr", getattr(node.func, "id", "")) == "Menu" \
                            and isinstance(node.args[0], ast.Constant):
                        out.append(node.args[0].value)
    return out


def dynamic_keys():
    """English keys the firmware looks up from tables rather than as t("...") literals."""
    keys = list(screens.FACE_NAMES) + list(modes.PIECE_NAMES) + list(refusals.RULES_TEXTS)
    keys += [r for r in game.TERMINATIONS if r] + list(game.VARIANTS)
    keys += list(colours.PALETTE_NAMES) + _menu_titles()
    for table in (menus.GAME, menus.NEW_GAME, menus.SAVED):
        keys += [label for label, _, _ in table if isinstance(label, str)]
    return keys


def test_every_text_the_firmware_looks_up_is_in_the_english_table():
    calls = _calls()
    assert len(calls) > 100
    missing = ["%s:%d %r" % c for c in calls if c[2] is not None and c[2] not in lang_en.T]
    assert missing == []
    missing = [k for k in dynamic_keys() if k not in lang_en.T]
    assert missing == []


def test_every_entry_of_the_english_table_is_used_once():
    used = set(c[2] for c in _calls() if c[2] is not None) | set(dynamic_keys())
    assert [k for k in lang_en.T if k not in used] == []
    assert len(set(lang_en.T)) == len(lang_en.T), "an English text twice"


@pytest.mark.parametrize("code", ["de", "it", "es"])
def test_every_language_translates_every_entry(code):
    tr = TABLES[code]
    assert len(tr) == len(lang_en.T)
    for en, s in zip(lang_en.T, tr):
        assert type(s) is str and s.strip() == s and s, (code, en, s)
        assert s != en or en in SAME[code], (code, en, "untranslated")


@pytest.mark.parametrize("code", ["de", "it", "es"])
def test_placeholders_match_the_english(code):
    for en, s in zip(lang_en.T, TABLES[code]):
        assert re.findall(r"%.", s) == re.findall(r"%.", en), (code, en, s)


@pytest.mark.parametrize("code", ["en", "de", "it", "es"])
def test_every_character_is_one_the_oled_font_draws(code):
    for s in TABLES[code]:
        bad = [ch for ch in s if not (32 <= ord(ch) <= 126 or ch in EXTRA)]
        assert bad == [], (code, s, bad)


def test_every_english_text_has_a_key_of_its_own():
    # t() finds a text by its key (i18n._key): two texts with one key would show one for the
    # other. The keys are made from ASCII letters (the viper code reads the bytes).
    keys = [i18n._key(s) for s in lang_en.T]
    assert len(set(keys)) == len(keys)
    assert all(s.isascii() for s in lang_en.T)
    assert 0 <= min(keys) and max(keys) < 1 << 24

def test_config_check_knows_the_same_languages():
    from drivers import config_check
    assert config_check.LANGUAGES == i18n.LANGUAGES == tuple(TABLES)


LOADED_SCRIPT = """
import sys
sys.path.insert(0, %r)
from controller import i18n
def loaded():
    return sorted(m for m in sys.modules if m.startswith("controller.lang_"))
print(i18n.language(), i18n.t("Menu"), loaded())
i18n.set_language("de")
print(i18n.t("Menu"), i18n.t("%%s to move") %% "Wei\u00df", loaded())
i18n.set_language("it")
print(i18n.t("Menu"), loaded())
try:
    i18n.set_language("fr")
except ValueError as e:
    print("refused", e, i18n.language())
try:
    i18n.t("not a text of the board")
except ValueError:
    print("missing text refused")
i18n.set_language("en")
print(i18n.t("Menu"), loaded())
print("held", [n for n in dir(sys.modules["controller"]) if n.startswith("lang_")])
"""


def test_only_the_chosen_language_is_loaded_and_unknown_codes_are_refused():
    # in a fresh interpreter (this one has imported every table)
    r = subprocess.run([sys.executable, "-c", LOADED_SCRIPT % FW], capture_output=True,
                       text=True, timeout=60)
    assert r.stdout.splitlines() == [
        "en Menu []",
        "Menü Weiß am Zug ['controller.lang_de']",   # (the English texts' keys only)
        "Menu ['controller.lang_it']",
        "refused unknown language 'fr' (one of en, de, it, es) it",
        "missing text refused",                  # a bug the tests catch, never English
        "Menu []",
        "held []"], r.stderr                      # nor kept by the package: RAM freed


def test_the_rules_cores_refusals_are_translated_from_their_english_templates(lang):
    # Each template is the rules core's own text (game.py), so a change there shows here.
    with open(os.path.join(FW, "barragoon", "game.py"), encoding="utf-8") as f:
        consts = set(n.value for n in ast.walk(ast.parse(f.read()))
                     if isinstance(n, ast.Constant) and isinstance(n.value, str))
    assert [tm for tm in refusals.RULES_TEXTS if tm not in consts] == []
    g = game.Game("7/7/7/7/3z3/7/7/3D3/6z w 24")
    try:
        g.move(0, 1)
    except game.RulesError as e:
        err = e
    assert modes.rules_text(err) == str(err) == "no tile on a1"
    lang("de")
    assert modes.rules_text(err) == "kein Spielstein auf a1"
    assert modes.rules_text("e2-e4 repeats the sequence: White must deviate") == \
        "e2-e4 wiederholt die Zugfolge: Weiß muss abweichen"
    assert modes.rules_text("the game is over: time ran out") == "das Spiel ist aus: Zeit abgelaufen"
    assert modes.rules_text("something new") == "something new"   # shown as the core says it


# --- every text fits its place -----------------------------------------------------------------
# Where each text is shown: "l<n>" a line of n characters (a message line: 16; an item of a
# menu longer than six rows or of a question: 15; a field between two others: fewer), "w<n>"
# wrapped over n lines of 16 (a note on the play screen: 2; a game's end reason: 3), "b8"
# big letters (8 a line), None: only inside another text (checked there).
L16 = "l16"
SLOTS = {
    "White": L16, "Brown": L16, "W": "l1", "B": "l1", "Barragoon %s": L16,
    "%s to move": L16, "Last": "l5", "Supply": "l8", "Express": "l7",
    "Place Barragoon": L16, "%s: put one": L16, "on an empty": L16, "square": L16,
    "%s: face %s": L16, "Set it down on": L16, "an empty square": L16, "%s: Barragoon": L16,
    "on": "l4", "face": "l4", "OK=set": "l6",
    "Game over": L16, "Draw": "b8", "wins": None, "%s wins": L16, "OK: new game": L16,
    "Set up the board": L16, "Place": L16, "Remove piece": L16, "from": L16, "Left:": "l10",
    "Hold still...": L16, "Sensors": "l7", "of 63": "l6",
    "Hold OK for menu": L16, "Place it first": L16, "%s: not a target": L16,
    "Fix the board": L16, "Wait...": L16, "Put back on %s:": L16, "Wrong piece on": L16,
    "%s: lift it": L16, "then put back": L16, "Take the piece": L16, "off %s": L16,
    "Which is it?": L16, "Board can't tell": L16, "Each piece back?": L16,
    "Repetition": L16, "Draw offer": L16, "%s offers": L16, "a draw. %s:": L16,
    "hold OK: accept": L16, "press OK: no": L16,
    "Board: %s": L16, "Thinking...": L16, "plays %s": L16, "Take off %s": L16,
    "then move %s": L16, "Move %s": L16, "to %s": L16, "Placed? OK": L16,
    "Place as shown": L16, "The board chose": L16, "Wait: thinking": L16, "Put it on %s": L16,
    "%s could play": L16, "Hint: touch ends": L16, "A touch or key": L16,
    "ends the hint": L16, "Game not over": L16,
    "Menu": L16, "Saved game": L16, "Resume game": L16,
    "normal": None, "red-green": None, "closed": None, "open": None,
    "UP/DN: change": L16, "OK: done": L16, "Walk: %s": L16, "UP/DN: next": L16,
    "OK: back": L16, "Red on all": L16, "Green on all": L16, "Blue on all": L16,
    "White on all": L16,
    "Saved game:": L16, "damaged: kept": L16, "as %s": L16, "empty": L16,
    "unreadable": L16, "a new game": L16, "unreadable tag:": L16, "clock": L16,
    "opponent": L16, "clock, opponent": L16, "copy: game.bad": L16, "storage full": L16,
    "Remote: %s": L16, "Waiting for": L16, "its turn": L16, "Remote play": L16,
    "Play %s on": L16, "a computer?": L16, "Take back": L16, "%s asks": L16,
    "to take back.": L16,
    "not set aside": L16, "not removed": L16, "defaults used": L16, "copy resumed": L16,
    "a new log": L16, "new records": L16, "UP: no capture": L16,
}
for _k in screens.FACE_NAMES + modes.PIECE_NAMES:
    SLOTS[_k] = L16
for _k in ("No capture", "Nothing moved", "Barragoon on %s", "White's on %s", "Brown's on %s",
           "Not yet", "Yes, all back", "Pieces swapped",                   # question answers
           "Resume", "Take back draw", "Take back turn", "Offer draw", "%s: draw (rep.)",
           "Pause clock", "Start clock", "Brightness", "Lang: %s", "LEDs: %s", "Sensor test",
           "LED test", "New game", "Hint", "Set up new game", "Variant: %s", "White express %d",
           "Brown express %d", "Clock: off", "Clock: %d min", "Increment: %d s",
           "Against: board", "Against: player", "You play %s", "Strength %d",
           "Play %s here", "Keep playing", "End and record"):   # menus
    SLOTS[_k] = "l15"
for _k in ("Place the Barragoon first", "%s: not your turn", "%s can't move: put it back",
           "Put back %s: %s", "Take the piece off %s", "Wrong piece on %s: lift it",
           "Capture %s or put it back", "Touch-move: %s takes %s", "Touch-move: capture %s",
           "Touch-move: move %s", "Touch-move: move a lifted tile", "%s: draw? menu",
           "No capture left? Draw: menu",
           "Clock paused: OK starts it", "Power was off: OK starts clock",
           "Board: draw agreed", "Board: no draw", "Offer sent", "Declined", "Remote: draw",
           "Remote: no draw") + refusals.RULES_TEXTS:   # notes while playing
    SLOTS[_k] = "w2"
for _k in game.TERMINATIONS[1:]:
    SLOTS[_k] = "w3"
# The values a text is shown with, where not a square ("d2") or a number ("2"); the longest
# the language has.
SIDE, PIECE, LANG, VARIANT, PALETTE = "SIDE", "PIECE", "LANG", "VARIANT", "PALETTE"
SAMPLES = {
    "Barragoon %s": ("RN",), "%s to move": (SIDE,), "%s: put one": (SIDE,),
    "%s: face %s": (SIDE, "RN"), "%s: Barragoon": (SIDE,), "%s wins": (SIDE,),
    "%s: not your turn": (SIDE,), "Put back %s: %s": ("d2", PIECE), "%s: draw? menu": (SIDE,),
    "%s offers": (SIDE,), "a draw. %s:": (SIDE,), "Board: %s": (SIDE,), "plays %s": ("c8xc5",),
    "%s could play": (SIDE,), "%s: draw (rep.)": (SIDE,), "Lang: %s": (LANG,),
    "Remote: %s": (SIDE,), "Play %s on": (SIDE,), "%s asks": (SIDE,), "Play %s here": (SIDE,),
    "LEDs: %s": (PALETTE,), "Variant: %s": (VARIANT,), "Clock: %d min": (30,),
    "Increment: %d s": (10,), "You play %s": (SIDE,), "Strength %d": (3,),
    "%s-%s repeats the sequence: %s must deviate": ("e2", "e4", SIDE),
    refusals.RULES_TEXTS[1]: ("e5=RN", "c2-c4 e5=RN", SIDE),
    "%s must accept or decline the draw offer first": (SIDE,),
    "%s must place a Barragoon first": (SIDE,), "the game is over: %s": ("time ran out",),
    "the tile on %s is not %s's": ("d2", SIDE),
    "as %s": ("settings.bad",),              # the longest name a file is set aside as
}


def _longest(keys):
    return max((i18n.t(k) for k in keys), key=len)


def shown(key):
    """The text as the screen shows it, in the current language, with its longest values."""
    s = i18n.t(key)
    n = s.count("%s") + s.count("%d")
    if not n:
        return s
    values = {SIDE: _longest(("White", "Brown")), PIECE: _longest(modes.PIECE_NAMES),
              LANG: max(i18n.NAMES, key=len), VARIANT: _longest(game.VARIANTS),
              PALETTE: _longest(colours.PALETTE_NAMES)}
    args = [values.get(a, a) for a in SAMPLES.get(key, ())]
    for m in re.findall(r"%[sd]", s)[len(args):]:
        args.append("d2" if m == "%s" else 2)
    if "the game is over: %s" == key:
        args[0] = i18n.t(args[0])
    return s % tuple(args)


def fits(slot, s):
    kind, n = slot[0], int(slot[1:])
    if kind == "l":
        return len(s) <= n
    if kind == "b":
        return len(s) <= n
    fb = screens_fb()
    screens.cut = 0
    screens._wrap(fb, s, 0, 0, n)
    return screens.cut == 0


def screens_fb():
    import framebuf
    return framebuf.FrameBuffer(bytearray(128 * 8), 128, 64, framebuf.MONO_VLSB)


def test_every_english_text_has_its_place_on_the_screen():
    assert [k for k in lang_en.T if k not in SLOTS] == []
    assert [k for k in SLOTS if k not in lang_en.T] == []


def english_too_long():
    """The English texts that do not fit their place (the board cuts them today)."""
    return [k for k in lang_en.T if SLOTS[k] and not fits(SLOTS[k], shown(k))]


def test_english_texts_that_do_not_fit_are_known():
    # The board cuts these English texts today (a long rule refusal, a note over two lines, a
    # menu item over 15 characters): listed, so that a new one shows. Their translations are
    # held to the same place only as far as the English is.
    assert english_too_long() == [
        "%s: draw (rep.)",
        "%s-%s repeats the sequence: %s must deviate", refusals.RULES_TEXTS[1],
        "%s must accept or decline the draw offer first", "%s must place a Barragoon first",
        "the game is over: %s", "no repeated sequence to offer a draw on"]


@pytest.mark.parametrize("code", ["de", "it", "es"])
def test_every_translation_fits_its_place(code, lang):
    long_in_english = set(english_too_long())
    lang(code)
    bad = ["%s -> %r (%s)" % (k, shown(k), SLOTS[k]) for k in lang_en.T
           if SLOTS[k] and k not in long_in_english and not fits(SLOTS[k], shown(k))]
    assert bad == []


def test_the_fit_check_can_fail(lang):
    lang("de")
    assert fits("l16", shown("Fix the board"))
    assert not fits("l6", "Zuletzt") and not fits("w2", "x " * 20)
    assert fits("w2", "Berührt geführt: d2 ziehen")


# --- whole screens -----------------------------------------------------------------------------
sys.path.insert(0, TOOLS)


@pytest.fixture(scope="module")
def every_screen():
    """tools/render_screens.py's screens of every language: {code: (shots, problems)}."""
    import render_screens as R
    out = {code: R.draw_all(code) for code in TABLES}
    i18n.set_language("en")
    return out


@pytest.mark.parametrize("code", ["en", "de", "it", "es"])
def test_every_screen_the_board_can_show_fits_in_every_language(code, every_screen):
    # The screens are found in the firmware (every mode, every call of a drawing function),
    # each with every note and hint the code can show: none is cut but the rules core's own
    # long refusals (wrapped, with a three-dot mark).
    shots, problems = every_screen[code]
    assert problems == []
    assert [s.name for s in shots if s.cut] == []
    names = {s.name for s in shots}
    assert {"setup", "play", "picker", "question", "fix_board", "menu", "end_game", "over",
            "board_move", "board_face", "hint_shown", "boot", "notice_tag", "error"} <= names


def test_the_screen_check_finds_a_cut_and_a_screen_no_scene_draws(monkeypatch):
    # The board's move screen with the player's note on one line, as it once was: the note
    # is cut there, and the check says so; a drawing call no scene reaches is named.
    import render_screens as R
    monkeypatch.setattr(screens, "message_note", lambda fb, title, a, b, note:
                        screens.message(fb, title, a, b, note))
    monkeypatch.setattr(R, "SCENES", [s for s in R.SCENES if s[0] in ("board_move", "play")])
    shots, problems = R.draw_all("en")
    assert "board_move with the note 'Capture e1 or put it back'" in [
        s.name for s in shots if s.cut]
    assert any("not drawn by any scene: the screen of controller/menus.py" in p
               for p in problems)


def test_the_cut_counter_counts_what_the_helpers_cut():
    fb = screens_fb()
    screens.cut = 0
    screens.message(fb, "A title", "sixteen letters!", "")
    assert screens.cut == 0
    screens.message(fb, "A title", "seventeen letters", "")
    assert screens.cut == 1
    screens.menu(fb, "Menu", ("x" * 16,) * 7, 0)     # scroll bar: 15 characters an item
    assert screens.cut == 1 + 6


def _tool(*args):
    return subprocess.run([sys.executable, os.path.join(TOOLS, "render_screens.py")] +
                          list(args), capture_output=True, text=True, timeout=300)


def test_render_screens_lang_option(tmp_path):
    r = _tool("--lang", "de", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "(Deutsch)" in r.stdout and "cut off" not in r.stdout
    assert os.path.exists(tmp_path / "play.png") and os.path.exists(tmp_path / "menu.png")
    r = _tool("--lang", "fr", str(tmp_path))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines()[-1].endswith(
        "--lang fr is not a language of the board (use one of en, de, it, es)")
    assert "--lang" in _tool("--help").stdout


def test_english_from_source_or_frozen_needs_no_language_file(lang):
    # at_hand() opens English's file only where the build has one (test_deploy.py: .mpy)
    i18n.at_hand()
    assert i18n._f is None and i18n.t("Menu") == "Menu"
    lang("de")
    i18n.at_hand()
    assert i18n._f is None and i18n.t("Menu") == lang_de.T[lang_en.T.index("Menu")]


# --- MicroPython: t() allocates nothing ------------------------------------------------------
HEAP_SCRIPT = """
import gc, sys, time
sys.path.insert(0, %r)
from controller import i18n, lang_en
T = lang_en.T
for code in ("de", "it", "es", "en"):
    i18n.set_language(code)
    t = i18n.t
    for k in T:
        t(k)
    gc.collect()
    a = gc.mem_alloc()
    for k in T:
        t(k)
    b = gc.mem_alloc()
    t0 = time.ticks_us()
    for i in range(200):
        t(T[0])
    first = time.ticks_diff(time.ticks_us(), t0)
    t0 = time.ticks_us()
    for i in range(200):
        t(T[-1])
    last = time.ticks_diff(time.ticks_us(), t0)
    print("HEAP", code, b - a, first * 1000 // 200, last * 1000 // 200)
print("KEYS", " ".join(str(i18n._key(k)) for k in T))
"""


@pytest.mark.skipif(micropython_env.find_micropython() is None,
                    reason=micropython_env.missing_reason())
def test_t_allocates_nothing_on_micropython():
    r = micropython_env.run(["-c", HEAP_SCRIPT % FW])
    rows = [line.split() for line in r.stdout.splitlines() if line.startswith("HEAP")]
    assert len(rows) == 4, r.stdout + r.stderr
    keys = [line.split()[1:] for line in r.stdout.splitlines() if line.startswith("KEYS")]
    assert keys == [[str(i18n._key(s)) for s in lang_en.T]]   # (viper there, Python here)
    for _, code, grown, first_ns, last_ns in rows:
        assert grown == "0", (code, grown)
        # (a figure, not a threshold: the unix port's time per lookup, first and last entry)
        print("t() on the unix port, %s: %s ns (first entry), %s ns (last entry)"
              % (code, first_ns, last_ns))
