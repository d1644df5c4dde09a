# Every file the board reads, damaged every way one byte can be and cut short at every length:
# the board always boots (nothing raises, so nothing resets it), goes on with its defaults or
# the other copy of the game (the last saved turn is always resumed), keeps the damaged file
# byte for byte (as .bad), and says what happened once (a storage note: on the screen and in
# error.log). The example files are what the firmware writes for a real game. One MicroPython
# run for the module (RUNTIMES); a corruption is each byte with its lowest bit flipped (a letter
# or digit becomes its neighbour) and with its top bit flipped (a byte that is not UTF-8);
# BARRAGOON_DAMAGE_ALL=1 tries all 255 other values of every byte.
import os
import sys

import vboard
from checks import scratch_dir, read_file

machine = vboard.install()

from barragoon.game import Game  # noqa: E402
from barragoon.record import format_record  # noqa: E402
from recorder import Recorder  # noqa: E402
from storage import Storage, GAME, COPY, BAD, RECORDS, EVENTS  # noqa: E402
from files import SETTINGS, ERRORS  # noqa: E402
from vboard.board_wiring import BoardWiring  # noqa: E402
from vboard.clock import Clock  # noqa: E402
import config  # noqa: E402
import app  # noqa: E402
import notices  # noqa: E402

RUNTIMES = ("cpython", "micropython")
MICRO = sys.implementation.name == "micropython"
ALL = os.getenv("BARRAGOON_DAMAGE_ALL") == "1"
KNOWN = ("en", "de", "it", "es")
DUTIES = "c2,e2 d5"
CLOCK = "300000 281500 5000 b"


def damaged(data):
    """(where, bytes): every single-byte corruption of data (see the top), then every
    truncation."""
    for i in range(len(data)):
        b = data[i]
        for v in (range(256) if ALL else (b ^ 1, b ^ 0x80)):
            if v != b:
                yield i, data[:i] + bytes((v,)) + data[i + 1:]
    for n in range(len(data)):
        yield -n, data[:n]


def _put(path, data):
    f = open(path, "wb")
    f.write(data)
    f.close()


def _get(path):
    return read_file(path, "rb")


def _gone(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _game():
    # A real game in progress (11 turns, a capture with its placement, take-backs) against the
    # board, with a touch-move duty and a clock.
    from test_storage import _random_action
    g = Game()
    k = 1
    while len(g.actions) < 12:
        k = _random_action(g, k)
    g.opponent = "Brown 2"
    return g


def _saved_game(d):
    g = _game()
    s = Storage(d)
    assert s.save_game(g, DUTIES, CLOCK) and s.write_copy()
    return _get(d + GAME), _get(d + COPY), (format_record(g), DUTIES, CLOCK, g.opponent)


def _state(s, g):
    return (format_record(g), s.duties, s.clock, g.opponent)


# --- the files the board reads whole -------------------------------------------------------
def test_every_damaged_settings_txt_gives_the_defaults_and_is_kept():
    d = scratch_dir("dmg_settings")
    s = Storage(d)
    assert s.save_settings(65, 1, "de")
    good = _get(d + SETTINGS)
    assert Storage(d).load_settings(40, 0, "en", KNOWN) == (65, 1, "de")
    n = 0
    for at, data in damaged(good):
        _put(d + SETTINGS, data)
        s = Storage(d)
        assert s.load_settings(40, 0, "en", KNOWN) == (40, 0, "en"), at    # every one found
        assert s.notes == [(SETTINGS, "damaged", s.notes[0][2], "settings.bad", "defaults")], at
        assert _get(d + "settings.bad") == data and _get(d + SETTINGS) is None, at
        n += 1
    assert n == len(good) * (255 if ALL else 2) + len(good)


def _resumes(d, name, good, other, expect):
    # name damaged every way, the other copy good: the game resumes exactly as saved
    kept = unread = 0
    for at, data in damaged(good):
        _put(d + name, data)
        _put(d + other[0], other[1])
        s = Storage(d)
        g = s.load_game()
        assert g is not None and _state(s, g) == expect, (name, at)
        if not s.notes:                 # the seal's tag name hit: read as a record without a
            unread += 1                 # seal, the same game (the sealed copy is the newer)
            assert at < 6 and _get(d + name) == data, (name, at)
            continue
        bad = name[:-3] + "bad"
        kind = "empty" if not data else "damaged"
        assert s.notes == [(name, kind, s.notes[0][2], bad if data else "", "copy")], (at, s.notes)
        assert _get(d + bad) == (data if data else None) and _get(d + name) is None, at
        _gone(d + bad)
        kept += 1
    assert kept + unread == len(good) * (255 if ALL else 2) + len(good) and unread <= 5 * 255


def test_every_damaged_game_txt_resumes_the_last_turn_from_its_copy():
    d = scratch_dir("dmg_game")
    good, copy, expect = _saved_game(d)
    assert good == copy
    _resumes(d, GAME, good, (COPY, copy), expect)


def test_every_damaged_copy_txt_resumes_the_last_turn_from_game_txt():
    d = scratch_dir("dmg_copy")
    good, copy, expect = _saved_game(d)
    _resumes(d, COPY, copy, (GAME, good), expect)


def test_a_damaged_game_txt_without_a_copy_starts_a_new_game_and_is_kept():
    # (firmware before the copy, or both copies damaged): nothing to resume from, nothing lost
    d = scratch_dir("dmg_alone")
    good, copy, expect = _saved_game(d)
    _gone(d + COPY)
    for at, data in damaged(good):
        if at > 0 and at % 5:               # (every fifth byte: the loop above has them all)
            continue
        _put(d + GAME, data)
        s = Storage(d)
        g = s.load_game()
        if g is not None:               # the seal's tag name hit: the same game
            assert _state(s, g) == expect and not s.notes and at < 6, at
            continue
        assert s.notes and s.notes[0][4] == "new game", (at, s.notes)
        assert _get(d + BAD) == (data if data else None), at
        _gone(d + BAD)


def test_every_damaged_error_log_is_read_or_set_aside_and_logging_goes_on():
    d = scratch_dir("dmg_errlog")
    s = Storage(d)
    s.log_error("Traceback (most recent call last):\n  File \"app.py\", line 301, in step\n"
                "ValueError: sensor bus glitch\n")
    s.log_error("OLED at I2C 0x3c not answering: playing without it\n")
    good = _get(d + ERRORS)
    for at, data in damaged(good):
        _put(d + ERRORS, data)
        s = Storage(d)
        assert s.log_error("new error\n") is True, at
        log = _get(d + ERRORS)
        if s.notes:                     # not UTF-8: set aside, a new log
            assert s.notes == [(ERRORS, "damaged", s.notes[0][2], "error.bad", "new log")], at
            assert log == b"new error\n" and _get(d + "error.bad") == data, at
            _gone(d + "error.bad")
        else:                           # one character changed: read, kept, added to
            assert log == data + b"new error\n", at


# --- files the board only writes: damage there never stops it ------------------------------
def _finished():
    g = Game("7/7/7/7/3z3/7/7/3D3/7 w 24")
    g.move(10, 31)
    return g


def test_every_damaged_records_txt_is_kept_and_the_next_game_recorded_once():
    d = scratch_dir("dmg_records")
    s = Storage(d)
    for i in range(2):
        assert s.finish_game(_finished(), CLOCK)
    good = _get(d + RECORDS)
    entry = good[len(good) // 2:]
    assert good == entry + entry
    for at, data in damaged(good):
        if at > 0 and at % 3:               # (every third byte: the board never reads it)
            continue
        _put(d + RECORDS, data)
        s = Storage(d)
        assert s.finish_game(_finished(), CLOCK) and not s.notes, at
        assert _get(d + RECORDS) == data + entry, at
        assert Storage(d).load_game() is None, at           # recorded, and only once


def test_every_damaged_events_txt_is_replaced_by_the_next_one():
    d = scratch_dir("dmg_events")
    rec = Recorder(64, 64)
    for i in range(12):
        rec.square(1000 + 150 * i, 10 + i, i & 1)
    assert Storage(d, recorder=rec).save_events(3000)
    good = _get(d + EVENTS)
    for at, data in damaged(good):
        if at > 0 and at % 3:
            continue
        _put(d + EVENTS, data)
        s = Storage(d, recorder=rec)
        assert s.save_events(3000) and not s.notes, at
        assert _get(d + EVENTS) == good, at


# --- config.py -----------------------------------------------------------------------------
def _load_config(data, d):
    # config.py's bytes as the board imports them: a module, or the exception importing it
    if MICRO:
        _put(d + "dmgconfig.py", data)
        try:
            return __import__("dmgconfig"), None
        except Exception as e:          # noqa: BLE001 - (what the board's import raises)
            return None, e
        finally:
            sys.modules.pop("dmgconfig", None)
    import types
    mod = types.ModuleType("config")
    try:
        exec(compile(data, "config.py", "exec"), mod.__dict__)
    except Exception as e:              # noqa: BLE001
        return None, e
    return mod, None


def _same(a, b):
    return len(a) == len(b) and all(k in b and a[k] == b[k] for k in a if k.isupper())


def _verdict(mod):
    # check_config's verdict: the checker kept imported (check_config drops it), and asked
    # through check_config itself when it fails otherwise than with its ValueError
    import drivers.config_check
    try:
        drivers.config_check.check(mod)
        return ""
    except ValueError as e:
        return str(e)
    except Exception:                   # noqa: BLE001
        return app.check_config(mod)


def _values(mod):
    return repr([(k, getattr(mod, k)) for k in sorted(dir(mod)) if k.isupper()])


def _comments(data):
    # where each byte of config.py is inside a comment (after its line's "#")
    inside = bytearray(len(data))
    c = False
    for i in range(len(data)):
        if data[i] == 10:
            c = False
        elif data[i] == 35:
            c = True
        inside[i] = c
    return inside


def test_every_damaged_config_py_is_named_on_the_screen_or_is_a_config_the_board_runs():
    # A byte of a comment that stays a printable character leaves the module as it was (not
    # imported again; nor any other byte but a line end on MicroPython, whose lexer skips a
    # comment byte by byte: every 97th is imported all the same); a truncation inside a
    # comment gives the module of the truncation at that comment's "#". CPython (whose
    # compiler is not the board's) takes every 7th byte.
    d = scratch_dir("dmg_config")
    if MICRO:
        sys.path.insert(0, d[:-1])
    try:
        good = _get(config.__file__)
        inside = _comments(good)
        mod = _load_config(good, d)[0]
        base, base_dict = _values(mod), mod.__dict__
        verdicts = {base: ""}
        cut = {}
        runs = {}
        told = 0
        for at, data in damaged(good):
            if not MICRO and at % 7:
                continue
            if at > 0 and inside[at] and (32 <= data[at] < 127 or MICRO and data[at] > 13
                                          and at % 97):
                continue                # (still a comment: the module as it was)
            if at <= 0 and -at < len(good) and inside[-at]:
                hash_at = good.rfind(b"#", 0, -at)
                if hash_at in cut:
                    told += cut[hash_at]
                    continue
            mod, err = _load_config(data, d)
            if mod is None:
                problem = notices.load_problem(err, app.trace)
            elif _same(mod.__dict__, base_dict):
                problem = ""
            else:
                key = _values(mod)
                if key not in verdicts:
                    verdicts[key] = _verdict(mod)
                problem = verdicts[key]
                if not problem and key != base:
                    runs[key] = mod
            if problem:
                assert problem.startswith("config.py"), (at, problem)
                told += 1
            if at <= 0 and -at < len(good) and inside[-at]:
                cut[good.rfind(b"#", 0, -at)] = 1 if problem else 0
        assert told > len(good) // (1 if MICRO else 7)
        for mod in runs.values():       # a config that passes the checks boots and plays
            _boot_with(mod)
        assert runs
    finally:
        if MICRO:
            sys.path.pop(0)


def _boot_with(cfg):
    vboard.reset()
    real = app.config
    app.config = cfg
    try:
        a = app.App(Storage(scratch_dir("dmg_config_boot")), Clock())
        a.boot()
        for i in range(10):
            a.step()
            a.clock.t += cfg.SCAN_PERIOD_MS
    finally:
        app.config = real


def test_a_config_py_that_does_not_load_still_finds_the_oled_of_the_default_wiring():
    for key in ("I2C_ID", "I2C_SDA_PIN", "I2C_SCL_PIN", "I2C_FREQ", "OLED_ADDR", "OLED_FLIP"):
        assert getattr(notices.DefaultOled, key) == getattr(config, key), key


def test_a_config_py_that_does_not_load_or_has_a_wrong_type_is_shown_and_the_board_waits():
    d = scratch_dir("dmg_config_main")
    good = _get(config.__file__).decode()
    cases = (("SETTLE_MS = 300\nLED_PIN = 2 2\n",
              "config.py line %d: SyntaxError" % (good.count("\n") + 2)),
             ('LED_BRIGHTNESS = "40"\n', "LED_BRIGHTNESS = '40' must be a whole number"),
             ("BUTTON_PINS = 18\n", "BUTTON_PINS = 18 must be a list"),
             ("LANGUAGE = 5\n", "LANGUAGE = 5 is not a language"))
    sys.path.insert(0, d[:-1])
    real_config, real_app = sys.modules["config"], sys.modules["app"]
    try:
        for change, said in cases:
            _put(d + "config.py", (good + change).encode())
            for name in ("config", "app"):
                sys.modules.pop(name, None)
            if not MICRO:
                import importlib
                importlib.invalidate_caches()
            import app as fresh                # the board's boot: main.py imports app
            vboard.reset()
            st = Storage(d)
            _gone(d + ERRORS)
            assert fresh.main(st, Clock()) is None, change     # it waits: no restart
            assert not machine.wdts, change                    # (no watchdog to restart it)
            frames = [w for w in machine.i2c_log if len(w[2]) == 1025]
            assert frames, change                              # the message is on the OLED
            log = _get(d + ERRORS).decode()
            assert said in log, (change, log)
    finally:
        sys.path.pop(0)
        sys.modules["config"], sys.modules["app"] = real_config, real_app
        _gone(d + "config.py")


# --- the whole board -----------------------------------------------------------------------
def test_the_board_boots_with_every_file_damaged_resumes_the_game_and_tells_each_once():
    d = scratch_dir("dmg_board")
    good, copy, expect = _saved_game(d)
    g = Storage(d).load_game()
    _put(d + GAME, good[:len(good) // 2])                   # cut short
    _put(d + SETTINGS, b"brightness=65\npalette=1\nlanguage=d\xe9\n")
    _put(d + ERRORS, b"an old error \xff\n")
    _put(d + RECORDS, b"[Result \"1-0\"]\n\x00\x00\x00")
    vboard.reset()
    wiring = BoardWiring(config.MATRIX_ROW_PINS, config.MATRIX_COL_PINS, config.SENSOR_TYPE,
                         config.DIODE_DIRECTION, config.SENSOR_ACTIVE_LEVEL)
    for sq in range(63):
        if g.pos.get(sq):
            wiring.place(sq)
    shown = []
    real = app.App.notice

    def notice(self, lines, wdt=None, ms=3000):
        shown.append(tuple(lines))
        real(self, lines, wdt, ms)
    app.App.notice = notice
    try:
        a = app.App(Storage(d), Clock())
        a.boot()
    finally:
        app.App.notice = real
    assert shown == [("settings.txt", "damaged: kept", "as settings.bad", "defaults used"),
                     ("Saved game", "damaged: kept", "as game.bad", "copy resumed"),
                     ("error.log", "damaged: kept", "as error.bad", "a new log")], shown
    assert a.ctl.saved is not None and format_record(a.ctl.saved) == expect[0]
    log = _get(d + ERRORS).decode()
    for words in ("settings.txt damaged", "kept as settings.bad", "saved/game.txt damaged",
                  "its copy resumed", "error.log damaged", "kept as error.bad"):
        assert words in log, (words, log)
    assert _get(d + "saved/game.bad") == good[:len(good) // 2]
    shown = []
    app.App.notice = notice
    try:
        app.App(Storage(d), Clock()).boot()             # the next power-on: nothing to say
    finally:
        app.App.notice = real
    assert shown == []
