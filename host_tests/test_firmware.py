# The whole firmware on fake hardware: boot straight into the guided set-up, a game played
# through the fake sensor matrix and buttons, LEDs and OLED as driven, saving and resuming,
# config errors, a crash that restarts and resumes, and an allocation-free idle loop.
import gc
import sys

import vboard
from checks import scratch_dir, scratch_root

machine = vboard.install()

import config  # noqa: E402
from vboard.board_wiring import BoardWiring  # noqa: E402
from vboard.clock import Clock, PERIOD  # noqa: E402
from vboard import neopixel as fake_neopixel  # noqa: E402
from drivers.leds import chain_index  # noqa: E402
from barragoon.notation import parse_square  # noqa: E402
from barragoon.game import start_position  # noqa: E402
from controller.modes import Play, Menu, Setup  # noqa: E402
from controller import colours as C  # noqa: E402
from storage import Storage, GAME  # noqa: E402
import app  # noqa: E402

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_idle_loop_allocates_nothing",)   # heap figures: MicroPython only
MICRO = sys.implementation.name == "micropython"
UP, DOWN, OK = config.BUTTON_PINS


def storage_dir(name):
    return scratch_dir("fw_" + name)


class Board:
    """The fake hardware, the firmware on it, and a simulated clock."""

    def __init__(self, name, keep_dir=False, pieces=None):
        vboard.reset()
        self.dir = ("%s/barragoon_fw_%s_%s/" % (scratch_root(), name, sys.implementation.name)
                    if keep_dir
                    else storage_dir(name))
        self.wiring = BoardWiring(config.MATRIX_ROW_PINS, config.MATRIX_COL_PINS,
                                  config.SENSOR_TYPE, config.DIODE_DIRECTION,
                                  config.SENSOR_ACTIVE_LEVEL)
        if pieces is not None:
            for sq in range(63):
                if pieces.get(sq):
                    self.wiring.place(sq)
        self.clock = Clock()
        self.storage = Storage(self.dir)
        self.app = app.App(self.storage, self.clock)
        self.ctl = self.app.ctl

    def run(self, ms):
        end = self.clock.t + ms
        while self.clock.t < end:
            self.wiring.t_us = self.clock.t * 1000     # the contacts' bounce clock
            self.app.step()
            self.clock.t += config.SCAN_PERIOD_MS

    def press(self, pin, hold_ms=60):
        machine.set_input(pin, 0)
        self.run(hold_ms)
        machine.set_input(pin, 1)
        self.run(60)

    def lift(self, name):
        self.wiring.lift(parse_square(name))
        self.run(40)

    def drop(self, name, rest=400):
        self.wiring.place(parse_square(name))
        self.run(rest)

    def led(self, name):
        """(r, g, b) the strip last received for a square, through the configured wiring."""
        strip = fake_neopixel.instances[-1]
        i = chain_index(parse_square(name), config.LED_WIRING, config.LED_START, config.LED_RUNS)
        return strip.rgb(i)

    def saved_text(self):
        f = open(self.dir + GAME)
        t = f.read()
        f.close()
        return t


def set_up(b):
    pos = start_position()
    for sq in range(63):
        if pos.get(sq):
            b.wiring.place(sq)
    b.run(400)                                   # still for the settle time: the game starts
    assert isinstance(b.ctl.top, Play)


def test_boot_set_up_and_play_through_the_sensors():
    b = Board("play")
    b.app.boot()
    b.run(50)
    assert isinstance(b.ctl.top, Setup)          # a fresh board: straight to the set-up
    r, g, bl = b.led("b1")                       # the first square to fill, lit green
    assert g > 0 and r == bl == 0
    set_up(b)
    b.lift("d2")
    r, g, bl = b.led("d5")                       # a target: green through the real strip
    assert g > 0 and r == 0 and bl == 0
    r, g, bl = b.led("d2")
    assert bl > 0 and r == 0 and g == 0          # the origin: blue
    b.drop("d5")
    assert b.ctl.game.last_turn_text() == "d2-d5"
    assert "1. d2-d5" in b.saved_text()
    assert machine.i2c_log, "the OLED was never written"
    data = [w for w in machine.i2c_log if len(w[2]) == 1025]
    assert data and data[-1][2][0] == 0x40       # a whole frame of display data


def test_a_set_down_across_the_ticks_wrap_commits_after_the_settle_time():
    # ticks_ms wraps (at 2**30 ms, 12.4 days, on the Pico); the loop passes it on as it is.
    b = Board("wrap")
    b.app.boot()
    b.run(50)
    set_up(b)
    b.clock.t = PERIOD - 200                     # the wrap comes 160 ms after the set-down
    b.lift("d2")
    b.wiring.place(parse_square("d5"))
    b.run(250)                                   # rested 250 ms (< 300), across the wrap
    assert b.clock.ticks_ms() < 1000             # it did wrap
    assert b.ctl.game.last_turn_text() in ("", None)
    b.run(100)
    assert b.ctl.game.last_turn_text() == "d2-d5"
    assert "1. d2-d5" in b.saved_text()


def test_capture_and_placement_with_buttons_then_resume_after_power_off():
    b = Board("resume")
    b.app.boot()
    b.run(50)
    set_up(b)
    for frm, to in (("d2", "d5"), ("d8", "d6")):
        b.lift(frm)
        b.drop(to)
    b.lift("d5")                                 # White's 3-tile (d5 -> b4 is 3 steps)
    b.lift("b4")                                 # captures the Barragoon on b4
    b.run(300)                                   # (a hand needs longer than the adjust time)
    b.drop("b4")
    assert b.ctl.game.placing() == 0
    b.drop("d4")
    b.press(DOWN)                                # X -> 1N
    b.press(OK)
    assert b.ctl.game.last_turn_text() == "d5xb4 d4=1N"
    assert "d5xb4 d4=1N" in b.saved_text()
    # Power off; the board is left as it is; power on again.
    pieces = b.ctl.game.pos
    b2 = Board("resume", keep_dir=True, pieces=pieces)
    b2.app.boot()
    b2.run(50)
    assert isinstance(b2.ctl.top, Menu) and b2.ctl.top.items[0] == "Resume game"
    b2.press(OK)
    assert isinstance(b2.ctl.top, Play) and b2.ctl.game.last_turn_text() == "d5xb4 d4=1N"
    assert not b2.ctl.judge.repair
    b2.lift("d6")
    b2.drop("d9")
    assert b2.ctl.game.last_turn_text() == "d6-d9"


def test_knocked_piece_is_shown_and_play_resumes():
    b = Board("desync")
    b.app.boot()
    b.run(50)
    set_up(b)
    b.wiring.place(parse_square("d4"))          # something put down by mistake
    b.run(60)
    r, g, bl = b.led("d4")
    assert r > g > 0 and bl > g                  # pink: take it off
    b.wiring.lift(parse_square("d4"))
    b.run(600)                                  # (a hand that took it off and then moves: a
    assert b.led("d4") == (0, 0, 0)             # piece set on d4 at once could be it, put back)
    b.lift("d2")
    b.drop("d4")
    assert b.ctl.game.last_turn_text() == "d2-d4"


def test_config_error_is_shown_and_the_board_waits():
    vboard.reset()
    old = config.LED_COUNT
    config.LED_COUNT = 62
    try:
        assert app.main(Storage(storage_dir("cfg")), Clock()) is None
    finally:
        config.LED_COUNT = old
    assert not machine.wdts, "no watchdog: the board must not restart in a loop"
    assert [w for w in machine.i2c_log if len(w[2]) == 1025], "message not shown on the OLED"


def test_a_board_without_its_english_texts_says_so_and_waits():
    # The .mpy build names its texts by their places in the English table, read from
    # controller/lang_en.bin: without that file (or with one of another firmware version) no
    # screen can be drawn, so the board says so once and waits instead of restarting in a loop.
    # (Here from source, as the .mpy build is: a table id, and no lang_en.bin beside i18n.)
    from controller import i18n
    vboard.reset()
    storage = Storage(storage_dir("no_texts"))
    i18n._TABLE = 0x123456
    try:
        assert app.main(storage, Clock()) is None
    finally:
        i18n._TABLE = 0
    assert not machine.wdts, "no watchdog: the board must not restart in a loop"
    assert [w for w in machine.i2c_log if len(w[2]) == 1025], "message not shown on the OLED"
    assert "lang_en.bin" in storage.read("error.log")


def test_a_config_error_shows_on_the_makers_own_oled_wiring():
    # An OLED at the other address (0x3D) in config.py: the message goes there, not to the
    # default wiring's 0x3C.
    vboard.reset()
    del machine.i2c_devices[0x3C]
    machine.i2c_devices[0x3D] = None
    old = config.LED_COUNT, config.OLED_ADDR
    config.LED_COUNT, config.OLED_ADDR = 62, 0x3D
    try:
        assert app.main(Storage(storage_dir("cfg_oled")), Clock()) is None
    finally:
        config.LED_COUNT, config.OLED_ADDR = old
    frames = [w[1] for w in machine.i2c_log if len(w[2]) == 1025]
    assert frames and set(frames) == {0x3D}, frames


def test_a_fault_reported_on_a_full_flash_leaves_the_saves_paused():
    # A short error.log line could still fit where a save did not: written, it would tell the
    # board the flash has room again ("saving again") while its saves still fail.
    b = Board("full_report")
    b.app.boot()
    set_up(b)
    b.storage.full = True
    b.app.report("a fault while full")
    assert b.storage.full
    assert "a fault while full" not in (b.storage.load("error.log", "") or "")


class _Console:
    """The USB console as a computer on it sees it (drivers/usb.py's read and write)."""

    def __init__(self, said):
        self.said = bytearray(said)
        self.heard = bytearray()

    def read(self, buf, n):
        if not self.said:
            return 0
        buf[0] = self.said[0]
        self.said = self.said[1:]
        return 1

    def write(self, buf, n):
        self.heard.extend(bytes(buf[:n]))
        return n


def test_a_computer_saying_hello_on_the_usb_console_gets_the_game_and_a_line_break_does_not():
    b = Board("usb")
    b.app.boot()
    b.app.port = _Console(b"\r\n")               # mpremote's line ends: nobody listens yet
    set_up(b)
    b.run(200)
    assert b.app.console is None and not b.app.port.heard
    b.app.port = _Console(b"hello 1\n")
    b.run(200)
    text = bytes(b.app.port.heard).decode()
    assert " hello 1 " in text and " game 0 closed " in text, text


def test_crash_is_logged_then_restart_resumes_the_game():
    b = Board("crash")
    b.app.boot()
    b.run(50)
    set_up(b)
    b.lift("d2")
    b.drop("d5")
    real_step = app.App.step
    calls = [0]

    def failing(self):
        calls[0] += 1
        if calls[0] > 20:
            raise ValueError("sensor bus glitch")
        real_step(self)

    app.App.step = failing
    try:
        try:
            app.main(Storage(b.dir), Clock())
            raise AssertionError("main() returned")
        except machine.Restarted:
            pass
    finally:
        app.App.step = real_step
    assert machine.wdts and machine.wdts[-1].timeout == 8000 and machine.wdts[-1].feeds >= 20
    f = open(b.dir + "error.log")
    log = f.read()
    f.close()
    assert "sensor bus glitch" in log
    b2 = Board("crash", keep_dir=True, pieces=b.ctl.game.pos)
    resume = app._resume_flag(b2.storage, False)
    assert resume
    b2.app.boot(resume)
    assert isinstance(b2.ctl.top, Play) and b2.ctl.game.last_turn_text() == "d2-d5"


def test_the_led_frame_goes_out_again_every_second():
    # Issue 21: after a dip of the LED rail or a chain plugged in late, the LEDs stayed dark or
    # wrong until the picture changed. The same frame now goes out at least every second.
    b = Board("refresh")
    b.app.boot()
    set_up(b)
    b.run(2000)
    strip = fake_neopixel.instances[-1]
    sent = len(strip.frames)
    picture = bytes(strip.frames[-1])
    b.run(3 * app.LED_REFRESH_MS + 100)
    again = strip.frames[sent:]
    assert len(again) >= 3, len(again)
    assert all(bytes(f) == picture for f in again)
    assert app.LED_REFRESH_MS <= 1000


def test_idle_loop_allocates_nothing():
    b = Board("idle")
    b.app.boot()
    b.run(50)
    set_up(b)
    b.run(1000)
    machine.record = False
    step = b.app.step
    clock = b.clock
    gc.collect()
    before = gc.mem_alloc()
    for i in range(300):
        step()
        clock.t += 5
    grown = gc.mem_alloc() - before
    assert grown == 0, "idle loop allocated %d bytes" % grown


def test_bouncing_reeds_without_debounce_record_exactly_the_moves_made():
    # DEBOUNCE_MS = 0: every raw change reaches the controller. Contacts that chatter for
    # 12 ms on every lift and set-down (ten times a real reed's bounce, so that the 5 ms scan
    # sees it) are short lifts and drops the controller takes as adjustments.
    assert config.DEBOUNCE_MS == 0 and config.SENSOR_TYPE == "reed"
    b = Board("bounce", pieces=start_position())
    b.app.boot()
    b.run(400)
    assert isinstance(b.ctl.top, Play)
    w = b.wiring
    for frm, to in (("d2", "d5"), ("d8", "d6"), ("c2", "c4"), ("c8", "c6")):
        w.place(parse_square(frm), 0, 12000)
        b.run(300)
        w.place(parse_square(to), 1, 12000)
        b.run(400)
        b.run(2000 if frm != "c8" else 400)
    assert " ".join(b.ctl.game.iter_turns()) == "d2-d5 d8-d6 c2-c4 c8-c6"
    assert b.ctl.judge.duty_text() == ""
    w.place(parse_square("e2"), 0, 12000)        # a knock: off and back within 20 ms,
    b.run(10)                                    # chattering all the while
    w.place(parse_square("e2"), 1, 12000)
    b.run(600)
    assert b.ctl.judge.duty_text() == "" and not b.ctl.judge.repair
    assert " ".join(b.ctl.game.iter_turns()) == "d2-d5 d8-d6 c2-c4 c8-c6"


def test_a_lift_lights_its_targets_on_the_first_scan_that_sees_it():
    b = Board("first_scan", pieces=start_position())
    b.app.boot()
    b.run(400)
    b.wiring.lift(parse_square("d2"))
    b.app.step()                                 # one scan: seen, judged, lit
    r, g, bl = b.led("d5")
    assert g > 0 and r == 0 and bl == 0
    r, g, bl = b.led("d2")
    assert bl > 0 and r == g == 0
    # ... also while events.txt is being written after a save (a few lines per loop step):
    b.wiring.place(parse_square("d4"))
    steps = 0
    while not b.ctl.game.last_turn_text():
        b.run(5)
        steps += 1
        assert steps < 200
    steps = 0
    while b.storage.events_open is None:         # (after the new screen has gone out)
        b.app.step()
        steps += 1
        assert steps <= 1 + app.SCREEN_FIRST
    assert b.storage.events_open is not None     # the save's events.txt: under way
    b.wiring.lift(parse_square("d8"))
    b.app.step()
    r, g, bl = b.led("d8")
    assert bl > 0 and r == g == 0
    assert b.storage.events_open is not None
    b.run(300)
    assert b.storage.events_open is None
    events = open(b.dir + "log/events.txt").read()
    assert "drop d4" in events and "d8" not in events    # that save's events, whole


def test_the_step_that_commits_a_move_lights_it_saves_it_and_leaves_the_screen_to_later():
    # The step that commits a move shows it on the LEDs, then saves it (the flash may stall
    # the core for up to 100 ms): drawing and sending the new screen (about 5 ms on the
    # RP2040) waits for the next steps, so that step stays short; the screen is out whole
    # within a few steps after the save, before events.txt is written. The players see the
    # decision on the LEDs at once.
    b = Board("screen_after", pieces=start_position())
    marks = []                                   # (OLED writes, d4's LED) as each step begins
    at_save = []
    real_step, real_save = b.app.step, b.storage.save_game

    def step():
        marks.append((len(oled_writes()), b.led("d4")))
        real_step()

    def save(game, duties, clock=""):
        at_save.append((marks[-1], len(oled_writes()), b.led("d4"), b.clock.t))
        real_save(game, duties, clock)
    began = []                                   # the screen still going out then?
    real_begin = b.storage.begin_events

    def begin(now):
        began.append(b.app.oled.sending())
        real_begin(now)
    b.app.boot()
    b.run(400)
    b.app.step, b.storage.save_game, b.storage.begin_events = step, save, begin
    b.lift("d2")
    b.wiring.place(parse_square("d4"))
    while not at_save:
        b.run(4)
    (sent_before, led_before), sent, led, t_save = at_save[0]
    assert b.ctl.game.last_turn_text() == "d2-d4"
    assert led != led_before                     # the LEDs show the move before its save
    assert sent == sent_before                   # nothing for the display in that step
    b.run(12 * config.SCAN_PERIOD_MS)            # 16 segments, 2 a step
    assert len(oled_writes()) > sent and not b.app.oled.sending()   # then the screen, whole
    b.run(400)                                   # and only then events.txt
    assert began == [False] and "drop d4" in open(b.dir + "log/events.txt").read()


def oled_writes():
    return [w for w in machine.i2c_log if w[1] == config.OLED_ADDR]


def screen_seen():
    """The picture on the display, from every byte sent to it so far."""
    from vboard.ssd1306_panel import Panel
    from oled_text import Picture
    panel = Panel()
    for w in oled_writes():
        panel.write(w[2])
    return Picture([[panel.seen(x, y) for x in range(128)] for y in range(64)])


def test_the_boot_screen_says_the_version_until_its_time_is_up_or_a_piece_moves():
    from version import VERSION, RUNS
    assert RUNS == "files"                       # (frozen: test_rp2040_frozen.py)
    for ends in ("time", "lift"):
        b = Board("boot_screen_" + ends)
        b.app.boot_screen()
        b.app.boot()
        b.run(200)
        seen = screen_seen()
        assert seen.has("Barragoon") and seen.has("firmware " + VERSION) and seen.has("files")
        assert b.led("b1") != (0, 0, 0)          # the set-up lit meanwhile: nothing waits
        if ends == "time":
            b.run(app.BOOT_SCREEN_MS - 300)
            assert screen_seen().has("firmware " + VERSION)
            b.run(200)
        else:
            b.wiring.place(parse_square("b1"))   # the first piece set down
            b.run(100)
        seen = screen_seen()
        assert seen.has("Set up the board") and not seen.has("firmware " + VERSION), ends


def test_brightness_is_written_once_when_its_screen_is_left():
    b = Board("bright", pieces=start_position())
    writes = []
    real = b.ctl.on_settings                     # the app's storage.save_settings

    def counted(brightness, palette=0, language=None):
        writes.append(brightness)
        real(brightness, palette, language)
    b.ctl.on_settings = counted
    b.app.boot()
    b.run(400)
    b.press(OK, 800)                             # hold: the menu
    for i in range(2):
        b.press(DOWN)
    assert b.ctl.top.items[b.ctl.top.sel] == "Brightness"
    b.press(OK)
    for i in range(4):
        b.press(UP)
    assert writes == [] and b.app.leds.brightness != 40    # shown at once, not yet written
    b.press(OK)
    assert writes == [60]
    assert Storage(b.dir).load_brightness(40) == 60


def _language_item(b):
    """The menu opened (OK held) with its language item selected."""
    b.press(OK, 800)
    menu = b.ctl.top
    while not menu.items[menu.sel].startswith("Lang: "):
        b.press(DOWN)
    return menu


def _booted(name, keep_dir=False):
    b = Board(name, keep_dir)
    b.app.boot()
    b.run(400)
    return b


def _as_mpy_build(b, missing):
    """controller/i18n.py as on the .mpy build in b's folder, where the languages in missing
    have no file (the others come from their modules); returns what _back() restores."""
    from controller import i18n
    saved = i18n._module, i18n.__file__
    i18n._module = lambda code: None if code in missing else saved[0](code)
    i18n.__file__ = b.dir + "/controller/i18n.py"
    return saved


def _back(saved):
    from controller import i18n
    i18n._module, i18n.__file__ = saved
    i18n.set_language("en")


def test_a_board_whose_language_file_is_missing_starts_in_english():
    # The .mpy build reads a language from its file (controller/i18n.py); without it the
    # board still starts, in English, and keeps the saved choice for a repaired deploy.
    from controller import i18n
    saved = i18n._module, i18n.__file__
    b = _booted("language_missing")
    try:
        _language_item(b)
        b.press(OK)                              # Deutsch, saved
        assert i18n.language() == "de"
        i18n.set_language("en")                  # (what a power cut leaves)
        _as_mpy_build(b, i18n.LANGUAGES)         # and no file there
        _booted("language_missing", keep_dir=True)   # the power goes and comes back
        assert i18n.language() == "en" and screen_seen().has("Set up the board")
        assert Storage(b.dir).load_language("en", i18n.LANGUAGES) == "de"
    finally:
        _back(saved)


def test_the_menu_skips_a_language_whose_file_is_missing():
    # Italian's file missing (a broken copy onto a .mpy board): OK goes from German to Spanish,
    # the board never stops at a language it cannot show.
    from controller import i18n
    b = _booted("language_skip")
    saved = _as_mpy_build(b, ("it",))
    try:
        menu = _language_item(b)
        b.press(OK)
        assert i18n.language() == "de"
        b.press(OK)                              # Italiano: no texts, so Espanol
        assert i18n.language() == "es" and menu.items[menu.sel] == "Idioma Espa\u00f1ol"
        assert Storage(b.dir).load_language("en", i18n.LANGUAGES) == "es"
        b.press(OK)
        assert i18n.language() == "en"
    finally:
        _back(saved)


def test_the_language_chosen_in_the_menu_is_shown_at_once_and_after_a_power_cut():
    from controller import i18n
    b = Board("language")
    try:
        b.app.boot()
        b.run(400)
        assert isinstance(b.ctl.top, Setup) and i18n.language() == config.LANGUAGE == "en"
        menu = _language_item(b)
        assert menu.items[menu.sel] == "Lang: English"
        b.press(OK)                              # English -> Deutsch, saved at once
        assert i18n.language() == "de" and menu.items[menu.sel] == "Spr.: Deutsch"
        b.run(200)
        assert screen_seen().has("Spr.: Deutsch")    # redrawn in German at once
        assert Storage(b.dir).load_language("en", i18n.LANGUAGES) == "de"
        b.press(OK)
        b.press(OK)
        assert i18n.language() == "es" and menu.items[menu.sel] == "Idioma Espa\u00f1ol"
        b.press(OK)
        b.press(OK)                              # round: back to Deutsch
        assert i18n.language() == "de"
        b2 = Board("language", keep_dir=True)    # the power goes and comes back
        assert i18n.language() == "de"
        b2.app.boot()
        b2.run(400)
        assert screen_seen().has("Grundstellung")    # the set-up screen's title in German
    finally:
        i18n.set_language("en")


def _power_cut_with_a_tile_in_the_hand(name, moves):
    # A touch-move duty survives a power cut: White's c2 is lifted (a touch) and still in the
    # hand when the power goes. Powered on, the turn goes on with c2 in the hand (its square and
    # targets lit), and c2 must still move.
    b = Board(name)
    b.app.boot()
    b.run(50)
    set_up(b)
    for frm, to in moves:                        # at a player's pace: each lift closes the
        b.lift(frm)                              # turn before
        b.drop(to)
    b.lift("c2")
    b.run(400)                                   # held: a touch, judged at rest
    assert '[TouchMove "c2 -"]' in b.saved_text()
    pieces = b.ctl.game.pos
    b2 = Board(name, keep_dir=True)
    for sq in range(63):
        if pieces.get(sq) and sq != parse_square("c2"):
            b2.wiring.place(sq)
    b2.app.boot()
    b2.run(50)
    if moves:
        assert isinstance(b2.ctl.top, Menu) and b2.ctl.top.items[0] == "Resume game"
        b2.press(OK)
    assert isinstance(b2.ctl.top, Play), b2.ctl.top         # not a new set-up
    assert b2.ctl.meaning[parse_square("c2")] == C.ORIGIN    # in the hand, as before the cut
    b2.drop("c2")
    assert b2.ctl.meaning[parse_square("c2")] == C.DUTY
    b2.lift("e2")
    b2.run(60)                                   # (carried two squares: no hand is faster)
    b2.drop("e4")
    assert b2.ctl.game.last_turn_text() == (moves and "%s-%s" % moves[-1] or "")
    assert b2.ctl.meaning[parse_square("e4")] == C.ERROR


def test_a_duty_taken_on_in_the_first_turn_survives_a_power_cut():
    _power_cut_with_a_tile_in_the_hand("cut1", ())


def test_a_duty_taken_on_by_the_lift_that_closed_the_last_turn_survives_a_power_cut():
    _power_cut_with_a_tile_in_the_hand("cut2", (("d2", "d5"), ("d8", "d6")))


def test_a_saved_game_with_an_unreadable_clock_or_opponent_tag_goes_on_and_says_so():
    # A damaged [Clock] or [Opponent] tag used to turn the game quietly into a two-player
    # game without a clock. The game goes on without them, and the player is told on the
    # screen (and in error.log); the file as it was is kept as game.bad.
    import os
    from storage import BAD, SAVED
    from barragoon.game import Game
    name = "badtags"
    b = Board(name)
    g = Game()
    g.move(10, 31)
    out = []
    import storage
    storage.game_text(g, "", out.append)
    text = '[Clock "300000 ten w"]\n[Opponent "Purple 9"]\n' + "".join(out)
    os.mkdir(b.dir + SAVED)
    f = open(b.dir + GAME, "w")
    f.write(text)
    f.close()
    b2 = Board(name, keep_dir=True, pieces=g.pos)
    shown = []
    real = app.App.notice

    def notice(self, lines, wdt=None, ms=3000):
        shown.append(lines)
        real(self, lines, wdt, ms)
    app.App.notice = notice
    try:
        b2.app.boot()
    finally:
        app.App.notice = real
    assert shown and shown[0][1] == "unreadable tag:" and shown[0][2] == "clock, opponent"
    log = open(b2.dir + "error.log").read()
    assert "clock, opponent tag unreadable" in log
    assert open(b2.dir + BAD).read() == text            # nothing lost
    b2.run(50)
    b2.press(OK)                                         # Resume game
    assert isinstance(b2.ctl.top, Play) and b2.ctl.clock is None and b2.ctl.opponent is None
    b2.lift("d8")
    b2.drop("d6")
    saved = b2.saved_text()
    assert saved.endswith("1. d2-d5 d8-d6\n") and "Clock" not in saved and "Opponent" not in saved


class _Counting:
    """The controller's wake with the number of search steps it was asked after."""

    def __init__(self, m):
        self.m = m
        self.asked = 0

    def pending(self):
        self.asked += 1
        return self.m.pending()


def test_while_the_board_thinks_it_also_thinks_between_steps_until_an_event_waits():
    # The board's turn (Brown, strength 3: a long search). Between loop steps with nothing
    # else to do, App.think gives the engine the CPU up to 40 ms into the step, not just
    # its slice of each step; a sensor event waiting in the queue ends that after one search
    # step, and a step with an event (or a screen going out) gets no extra time at all.
    import os
    import storage
    from storage import SAVED
    from barragoon.game import Game
    from controller import opponent
    g = Game()
    out = []
    storage.game_text(g, "", out.append)
    b = Board("think")
    os.mkdir(b.dir + SAVED)
    f = open(b.dir + GAME, "w")
    f.write('[Opponent "Brown 3"]\n' + "".join(out))
    f.close()
    b = Board("think", keep_dir=True, pieces=g.pos)
    b.app.boot()
    b.run(50)
    b.press(OK)                                  # Resume game
    old = opponent.LIMIT, opponent.SLICE_MS
    opponent.LIMIT = opponent.SLICE_MS = None    # (as on the board: other tests set them)
    try:
        b.lift("d2")
        b.drop("d5")
        assert b.ctl.opponent.thinking
        while b.app.oled.sending() or b.app.storage.copy_due or b.app.collect_due:
            b.run(config.SCAN_PERIOD_MS)         # the screen and the save's copy first
        assert b.app.storage.busy()              # (events.txt waits for the board's answer)
        b.run(config.SCAN_PERIOD_MS)
        assert b.ctl.opponent.thinking and b.ctl.opponent.step(b.ctl.game) < 0
        m = b.app.matrix
        wake = b.ctl.wake = _Counting(m)
        start = b.clock.t
        most = 200                               # ms (time for several steps on CPython too)
        t = opponent.ticks_ms()
        assert b.app.think(start, False, most)   # nothing waits: `most` ms of search
        assert opponent.ticks_diff(opponent.ticks_ms(), t) >= most - 5
        assert wake.asked >= 3, wake.asked
        m._push(parse_square("c8"), b.clock.t)   # a lift the timer's scan queued
        wake.asked = 0
        assert b.app.think(start, False, most)
        assert wake.asked == 1                   # one search step, then the event's turn
        m.pop()
        wake.asked = 0                           # the step had an event: none at all
        assert not b.app.think(start, True, most) and wake.asked == 0
        b.app.show_oled()                        # a screen going out: none either
        assert not b.app.think(start, False, most) and wake.asked == 0
    finally:
        opponent.LIMIT, opponent.SLICE_MS = old
