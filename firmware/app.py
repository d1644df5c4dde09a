# The device: builds the drivers from config.py, wires them to the board controller and runs
# the loop (scan -> controller -> LEDs -> OLED) every SCAN_PERIOD_MS under a watchdog.
#
# Boot: check config.py, and on the .mpy build that English's language file is there and of
# this firmware (a mistake is shown on the OLED and the serial console, and the board waits: no
# crash loop); load settings and the saved game; first scan; the controller offers to
# resume. After every committed action the game is saved (storage.py, which owns the save
# sequence) with its touch-move duties at the end of the loop step that commits it, right after
# its LEDs; the screen follows in the next steps. Work that can wait goes into later steps, one
# part each, so that no step keeps the loop long: the save sequence's rest (storage.work(): the
# flight recorder's events.txt, recorder.py), then the turn's garbage is collected; a finished
# game is appended to records.txt when the players leave it. An unexpected exception is written
# to error.log and shown, then the board restarts and resumes the saved game without asking.
#
# Faults the board lives with (each printed on the serial console and logged in error.log):
# a display that does not answer (play goes on with the LEDs), a saved game that cannot be
# loaded (kept as game.bad, a clean start) or whose clock or opponent tag cannot be read (a
# copy kept as game.bad, the game goes on without them), a full file system ("storage full"
# on the screen, the game goes on). The watchdog runs from before anything can fail at boot.
#
# While the engine searches (the board's turn, a hint) and nothing else waits, it also runs
# between the loop steps, up to _THINK_MS after each step began (App.think): the steps' own
# work (the controller's tick, LEDs, screen) comes every _THINK_MS instead of every period, and
# a sensor event ends the engine's slice at once. The flight recorder's events.txt of the move
# before waits for its answer (the game and its copy are saved at once, as always).
#
# A computer may watch the game, and play one side of it, over the USB console
# (controller/protocol.py, loaded with the first byte a computer sends; until then a step costs
# one poll of the port): its step comes after the LEDs and the screen, never in the step that
# saves a turn, and never waits for the computer.
#
# Time: the controller gets ticks_ms() as it is (it wraps at 2**30 ms, about 12.4 days, and
# stays a small int, so the loop never allocates for it); it compares times with ticks_diff.
import gc
import sys
import time

import machine

try:
    from micropython import const
except ImportError:  # CPython (host tests)
    def const(x):
        return x

try:
    import config
except Exception as _e:                    # noqa: BLE001 - main() shows why and waits
    config = None
    _config_load_error = _e
from drivers import matrix, leds, ssd1306, inputs, buzzer
from storage import Storage
from recorder import Recorder
from controller.controller import Controller
from controller import screens
from controller import i18n
from controller.i18n import t as _t

_WDT_MS = const(8000)      # the RP2040 allows at most about 8.3 s
RESUME_FLAG = "resume.flag"
_SETTLE_SCANS = const(3)   # extra 1 ms scans at boot beyond the debounce time (the matrix
#                            lines settle in microseconds; each ms here delays the first LEDs:
#                            one beyond the debounce time is enough, two more are a margin)
_BUSY_PIN = const(25)      # the Pico's own LED: lit while a loop step runs (see busy_pin())
OLED_SEGMENTS = 2          # OLED segments sent per loop step: 2 x 0.9 ms on the I2C bus, so a
#                            step stays well within the 4 ms scan period; a new screen takes 16
_EVENT_LINES = const(12)   # events.txt lines per loop step (about 4 ms on the RP2040)
SCREEN_FIRST = 12          # steps that a screen being sent holds back the work after a save
LED_REFRESH_MS = 1000      # the LED frame goes out again at least this often, changed or not:
#                            a chain that lost its power (a dip, a hot-plug) shows it again
BOOT_SCREEN_MS = 1500      # the boot screen (version; "frozen" or "files") stays up this long
#                            at most: the first lift or press ends it
_THINK_MS = const(40)      # while the engine searches and nothing else waits, it runs until
#                            this long after the loop step began (see App.think)
# (The names the tests and tools do not read are const: a module's globals take heap.)


class App:
    """One board: drivers + controller + storage. step(now) is one loop iteration."""

    def __init__(self, storage=None, clock=None, think_pin=None, port=None):
        cfg = config
        # English's texts where the build reads them from a file (a German board's file takes
        # their place below): first, so that the open file lies low, below the App's objects
        # (elsewhere it would split the free heap the engine loads into later). On the board
        # main() has opened it already, before anything else, and stopped if it could not.
        i18n.at_hand()
        self.clock = clock if clock is not None else time   # tests pass a simulated clock
        self.storage = storage if storage is not None else Storage()
        self.oled = ssd1306.from_config(cfg)
        self.matrix = matrix.from_config(cfg)
        self.leds = leds.from_config(cfg)
        self.inputs = inputs.from_config(cfg)
        self.buzzer = buzzer.from_config(cfg)
        brightness, palette, language = self.storage.load_settings(
            cfg.LED_BRIGHTNESS, 0, getattr(cfg, "LANGUAGE", "en"), i18n.LANGUAGES)
        try:
            i18n.set_language(language)
        except ValueError:          # (its language file missing or damaged: English)
            pass
        self.leds.set_brightness(brightness)
        self.period = cfg.SCAN_PERIOD_MS
        self.recorder = Recorder(getattr(cfg, "RECORDER_EVENTS", 768),
                                 getattr(cfg, "RECORDER_FILE_EVENTS", 400))
        self.storage.recorder = self.recorder   # (its events follow every save)
        self.ctl = Controller(self.oled, cfg.SETTLE_MS, brightness,
                              getattr(cfg, "ADJUST_MS", 250), getattr(cfg, "REOPEN_MS", 2000),
                              palette)
        self.ctl.on_save = self._save
        self.ctl.on_finish = self._finish
        self.ctl.on_settings = self.storage.save_settings
        self.ctl.on_checkpoint = self.recorder.checkpoint
        self.ctl.wake = self.matrix        # a sensor event ends the engine's slice
        if think_pin is not None:          # a spare GPIO, high while the engine runs: for
            #                                measuring (tools/bench/bench_rp2040.py)
            self.ctl.probe = machine.Pin(think_pin, machine.Pin.OUT, value=0)
        self.brightness = brightness
        self.buttons = 0                   # debounced button states, for the recorder (one
        for i in range(3):                 # held at power-on is no press: none recorded)
            if self.inputs.pressed(i):
                self.buttons |= 1 << i
        self.debounce_ms = (cfg.HALL_DEBOUNCE_MS if cfg.SENSOR_TYPE == "hall"
                            else cfg.DEBOUNCE_MS)
        self.oled_ok = True
        self.full = False
        self.unsaved = None                # (game, duties) to write at the end of this step
        self.collect_due = False           # the turn's garbage to collect in the next step
        self.deferred = False              # events.txt waits for the engine (_later)
        self.waited = 0                    # steps the work after a save waited for the screen
        self.led_at = 0                    # when the LED frame last went out (ms)
        self.boot_shown = None             # ticks_ms when the boot screen went up, until it ends
        self.port = port                   # the USB console (drivers/usb.py; tests: a fake)
        self.console = None                # controller/protocol.py's Console, once a computer spoke
        self._byte = bytearray(1)
        if not self.oled.ok:
            self.report(self.oled.error + ": playing without it")

    def report(self, text):
        """A fault the board lives with: on the serial console and in error.log."""
        print(text)
        if not self.storage.full:          # a full file system has no room for the log
            self.storage.log_error(text + "\n")

    def boot(self, resume=False, wdt=None):
        """First scans, then hand the board's occupancy and the saved game to the controller."""
        m, clock = self.matrix, self.clock
        for i in range(self.debounce_ms + _SETTLE_SCANS):
            m.scan(clock.ticks_ms())
            clock.sleep_ms(1)
        while m.pop() >= 0:
            pass
        m.resync()
        st = self.storage
        saved = st.load_game()
        gc.collect()                       # (the record's text, before the first mode)
        self.tell(wdt, True)
        # A tag the game cannot use: the game goes on without it, the player is told, and a
        # copy of the file is kept (now: start() may record a finished game and remove it).
        bad = self.ctl.unreadable(saved, st.clock)
        kept = st.keep_aside() if bad else False
        self.ctl.start(m.occupied, saved, st.duties, st.clock)
        if bad:
            self.report("saved game's %s tag unreadable, copy %s" % (
                bad, "kept as game.bad" if kept else "not kept"))
            self.notice((_t("Saved game:"), _t("unreadable tag:"), _tags(bad),
                         _t("copy: game.bad") if kept else ""), wdt)
        self.tell(wdt, True)
        if resume and saved is not None and not saved.over and self.ctl.game is not saved:
            self.ctl.begin(saved, st.duties)   # after a crash: back into the game (start()
            #                                    began one without moves already)

    def tell(self, wdt=None, screen=False):
        """What went wrong with the board's files (the storage's notes, files.py): each once
        on the serial console and in error.log, and (screen: at boot) on the screen."""
        notes = self.storage.notes
        if not notes:
            return
        import notices
        while notes:                       # (logging may add one: error.log set aside)
            note = notes.pop(0)
            self.report(notices.log_text(note))
            if screen:
                self.notice(notices.screen(note), wdt)
        _drop("notices")

    def boot_screen(self):
        """The firmware's version and whether it runs frozen into MicroPython or from files
        on the board (version.py), sent by the loop's first steps like any screen: the LEDs
        and the sensors do not wait for it, and the first lift or press replaces it."""
        from version import VERSION, RUNS
        screens.message(self.oled, "Barragoon", "firmware " + VERSION, RUNS)
        self.oled.refresh()
        self.boot_shown = self.clock.ticks_ms()

    def notice(self, lines, wdt=None, ms=3000):
        """A message on the screen for a few seconds before play starts."""
        screens.message(self.oled, *lines)
        self.show_oled(True)
        for _ in range(ms // 100):
            if wdt is not None:
                wdt.feed()
            self.clock.sleep_ms(100)

    def show_oled(self, at_once=False):
        """A new screen is drawn: sent over the next steps (or now, blocking)."""
        if self.storage.full:              # drawn over whatever screen is up
            self.oled.fill_rect(0, 56, 128, 8, 1)
            screens.centre(self.oled, _t("storage full"), 56, 0)
        if at_once:
            self.oled_sent(self.oled.show())
        else:
            self.oled.refresh()

    def oled_sent(self, ok):
        if ok:
            self.oled_ok = True
        elif self.oled_ok:
            self.oled_ok = False
            self.report(self.oled.error)

    def _save(self, game, duties):
        # Written at the end of this loop step, after the LEDs: the players see the decision
        # without waiting for the flash, and the step that commits a turn also saves it.
        self.unsaved = (game, duties)

    def _finish(self, game):
        self.storage.finish_game(game, self.ctl.clock_tag())
        self.tell()                        # (records.txt set aside, a file not removed)

    def _write(self):
        game, duties = self.unsaved
        self.unsaved = None
        self.storage.save(game, duties, self.ctl.clock_tag())   # the times as of now

    def step(self):
        """One loop iteration: scan, feed events, tick, render. Allocation-free when idle.
        Returns whether a sensor or button event came in."""
        clock = self.clock
        t = clock.ticks_ms()
        now = t                            # wrapping ms (see the top of this file)
        m, ctl, rec = self.matrix, self.ctl, self.recorder
        if not m.timed:                    # on the board a timer scans (run())
            m.scan(t)
            if m.fault is not None:        # the timer's scan failed: the loop scans now
                self.report("matrix timer stopped: %r" % (m.fault,))
                m.fault = None
        code = m.pop()
        seen = code >= 0                   # a sensor or button event in this step
        while code >= 0:
            rec.square(t, code & 0x7F, code >> 7)
            ctl.on_square(code & 0x7F, code >> 7, now)
            code = m.pop()
        if m.overflow:                     # events were dropped: take the whole picture
            occ = m.resync()               # the board as of the emptied queue
            for sq in range(63):
                if occ[sq] != ctl.sensed[sq]:
                    rec.square(t, sq, occ[sq])
                ctl.on_square(sq, occ[sq], now)
        self._show_leds(now)               # a lift's targets before anything else
        inp = self.inputs
        inp.poll(t)
        self._record_buttons(t)
        code = inp.pop()
        seen = seen or code >= 0
        while code >= 0:
            if inp.encoder and code <= 2:  # a detent: recorded as a press and release
                rec.button(t, code - 1, 1)
                rec.button(t, code - 1, 0)
            ctl.on_button(code, now)
            code = inp.pop()
        ctl.tick(now)
        self._show_leds(now)               # what the buttons and the settle time changed
        saving = self.unsaved is not None
        if self.boot_shown is not None and (
                seen or clock.ticks_diff(t, self.boot_shown) >= BOOT_SCREEN_MS):
            self.boot_shown = None         # the controller's screen from now on
        if not saving:                     # (the step that commits and saves a turn leaves
            # the screen to the next steps: drawing and sending it take about 5 ms)
            if (self.boot_shown is None and ctl.render(now, 2)) or \
                    self.full != self.storage.full:
                if self.full != self.storage.full:
                    self.full = self.storage.full
                    self.report("storage full: saves are paused" if self.full
                                else "storage: saving again")
                self.show_oled()
            self.oled_sent(self.oled.update(OLED_SEGMENTS))
        if ctl.alert:
            ctl.alert = 0
            self.buzzer.beep("error", t)
        self.buzzer.update(t)
        if not saving:
            self._usb(now)
        if saving:
            self._write()
        elif self.oled.sending() and self.waited < SCREEN_FIRST:
            self.waited += 1               # a new screen goes out before the work below
        else:
            self.waited = 0
            self._later(t)
        return seen

    def think(self, start, seen, most=_THINK_MS):
        """Between loop steps: while the engine searches (the board's turn, a hint) and
        nothing else waits, it has the CPU until `most` ms after the step began (start),
        not only its slice of each step; a sensor event ends that at once (the scan runs
        from a timer and the engine checks its queue between search steps). Nothing else
        waits when the step had no event (seen: what step() returned), no screen is going
        out, no save or its copy is due (events.txt waits: _later) and no sound plays;
        blinking LEDs get their next phase (every 50 ms) in time. Buttons are read by the
        steps: a press waits up to `most` ms longer. False when no search is under way."""
        if seen or self.unsaved is not None or self.collect_due or self.oled.sending() \
                or self.storage.copy_due or self.buzzer.busy:
            return False
        now = self.clock.ticks_ms()
        ms = most - self.clock.ticks_diff(now, start)
        if self.ctl.animated and ms > 50 - now % 50:
            ms = 50 - now % 50
        return ms > 0 and self.ctl.think(ms)

    def _usb(self, now):
        """A computer on the USB console (see the top)."""
        c = self.console
        if c is None:
            if self.port is None:
                from drivers import usb
                self.port = usb.Port()
            if not self.port.read(self._byte, 1) or self._byte[0] < 32:
                return                     # (mpremote's \r before its Ctrl-C: no listener)
            from controller.protocol import Console
            from version import VERSION
            c = self.console = Console(self.ctl, self.port, VERSION)
            c.take(self._byte[0], now)
        c.step(now)

    def _later(self, t):
        # What follows a save, one part per loop step (each 3 to 30 ms on the RP2040).
        st = self.storage
        if st.notes:                       # (a file failed: a save's, the settings')
            self.tell()
        if st.busy():
            if not st.copy_due and self.ctl.searching():
                # events.txt waits for the engine's answer; the save's garbage goes now, in a
                # step of its own (see below: left lying, the lifts meanwhile light later)
                if not self.deferred:
                    self.deferred = True
                    if self.matrix.timed:
                        gc.collect()
                return
            self.deferred = False
            if st.work(t, _EVENT_LINES) and self.matrix.timed:
                self.collect_due = True
        elif self.collect_due:
            # The turn's garbage (its save, events.txt) goes in a step of its own, ~30 ms
            # while the timer keeps scanning: left lying, it slows every allocation of the
            # next lift (MicroPython searches a fuller heap) and ends in a collection mid-lift.
            self.collect_due = False
            gc.collect()

    def _record_buttons(self, t):
        inp = self.inputs
        i = 2 if inp.encoder else 0        # the encoder's A/B are no buttons
        while i < 3:
            p = 1 if inp.pressed(i) else 0
            if p != (self.buttons >> i) & 1:
                self.buttons ^= 1 << i
                self.recorder.button(t, i, p)
            i += 1

    def _show_leds(self, now):
        ctl = self.ctl
        if ctl.render(now, 1):             # LEDs before the screen: lift-to-light waits for
            if ctl.brightness != self.brightness:     # nothing else
                self.brightness = ctl.brightness   # saved by the controller when its
                self.leds.set_brightness(ctl.brightness)   # screen closes
            self.leds.show(ctl.frame)
            self.led_at = now
        elif self.clock.ticks_diff(now, self.led_at) >= LED_REFRESH_MS:
            self.leds.show(ctl.frame)      # the same frame again (LED_REFRESH_MS)
            self.led_at = now

    def run(self, wdt):
        """The loop. On the board the matrix is scanned from a timer, so the sensors keep
        their period while a step takes longer (a commit and its save, the engine); the
        loop then wakes at once for a sensor event instead of waiting out its period. The
        watchdog is fed here only: a hung loop restarts the board even though scans go on."""
        period, clock, m, inp = self.period, self.clock, self.matrix, self.inputs
        busy = busy_pin()
        m.start()
        try:
            while True:
                start = clock.ticks_ms()
                if busy is not None:
                    busy(1)
                seen = self.step()
                if busy is not None:
                    busy(0)
                wdt.feed()
                if m.interrupted or inp.interrupted:   # a Ctrl-C an IRQ handler caught
                    m.interrupted = inp.interrupted = False
                    raise KeyboardInterrupt
                if not m.timed:            # no timer (or it failed): the loop scans
                    wait = period - clock.ticks_diff(clock.ticks_ms(), start)
                    if wait > 0:
                        clock.sleep_ms(wait)
                    continue
                self.think(start, seen)    # (the engine, while nothing else waits)
                # Wait for the next period or the next sensor event, polling every 0.2 ms: a
                # lift reaches the controller within 0.2 ms of the scan that saw it.
                while clock.ticks_diff(clock.ticks_ms(), start) < period and not m.pending():
                    clock.sleep_us(200)
        finally:                           # at the REPL (Ctrl-C) nothing scans behind its back
            m.stop()


def _tags(bad):
    # "clock", "opponent" or "clock, opponent" (Controller.unreadable) for the screen
    if bad == "clock":
        return _t("clock")
    if bad == "opponent":
        return _t("opponent")
    return _t("clock, opponent")


def busy_pin():
    """The Pico's on-board LED as a busy signal (high during each loop step), for measuring
    the loop with a scope or on the emulated Pico; None on a Pico W (its LED hangs off the
    radio chip and GP25 is the radio's) and off the board."""
    name = getattr(sys.implementation, "_machine", "")
    if not name.startswith("Raspberry Pi Pico") or " W " in name:
        return None
    return machine.Pin(_BUSY_PIN, machine.Pin.OUT, value=0)


def check_config(cfg=0):
    """The problem of config.py (or of the module cfg) as text, or ''. A config.py that does
    not even load (a syntax error) is one too. The checker is dropped from memory afterwards:
    it is only needed at boot."""
    if cfg == 0:
        cfg = config
    if cfg is None:
        import notices
        try:
            return notices.load_problem(_config_load_error, trace)
        finally:
            _drop("notices")
    import drivers
    import drivers.config_check
    try:
        drivers.config_check.check(cfg)
        return ""
    except ValueError as e:
        return str(e)
    except Exception as e:                 # noqa: BLE001 - a value the checks did not expect
        return "config.py: %s %s" % (type(e).__name__, e)
    finally:
        del sys.modules["drivers.config_check"]
        del drivers.config_check


def _drop(name):
    # a module needed once (at boot, or when something went wrong) leaves the heap again
    sys.modules.pop(name, None)


def show_text(lines):
    """Best effort: a message on the serial console and, if it can be driven, the OLED."""
    for line in lines:
        print(line)
    try:
        cfg = config
        if cfg is None:
            from notices import DefaultOled as cfg
        oled = ssd1306.from_config(cfg)
        screens.message(oled, lines[0][:16], *[s[:16] for s in lines[1:5]])
        oled.show()
    except Exception:
        pass


def wrap(text, width=16):
    out = []
    for word in text.split():
        if out and len(out[-1]) + 1 + len(word) <= width:
            out[-1] += " " + word
        else:
            out.append(word[:width])
    return out


def trace(e):
    """The exception with its traceback, as text (MicroPython, or CPython in host tests)."""
    import io
    buf = io.StringIO()
    if hasattr(sys, "print_exception"):
        sys.print_exception(e, buf)
    else:
        import traceback
        traceback.print_exception(type(e), e, e.__traceback__, file=buf)
    return buf.getvalue()


def _resume_flag(storage, set_it):
    # Set it (after a crash), or tell whether it was set and clear it (at boot; a flag that
    # cannot be removed is a storage note).
    try:
        if set_it:
            f = storage.fs.open(storage.root + RESUME_FLAG, "w")
            f.close()
            return True
        if storage.stat(RESUME_FLAG) is None:
            return False
        storage.remove(RESUME_FLAG)
        return True
    except OSError:
        return False


def main(storage=None, clock=None, think_pin=None, port=None, checked=False, low=()):
    """Run the board. storage / clock / port (the USB console) are for tests and the
    simulator; the device passes only checked (main.py found config.py good already) and
    low (main.py's room at the bottom of the heap, emptied once the board has booted;
    think_pin: App's, for measuring)."""
    problem = "" if checked else check_config()
    if problem:
        show_text(["Config error"] + wrap(problem))
        (storage or Storage()).log_error("config error: %s\n" % problem)
        return                             # wait for the maker: no restart loop
    problem = i18n.at_hand()               # (the .mpy build without its English texts)
    if problem:
        show_text(["Deploy again", "English texts", "missing or from", "another version"])
        print(problem)
        (storage or Storage()).log_error("firmware files: %s\n" % problem)
        return
    # The watchdog first: whatever fails or hangs from here on restarts the board (which then
    # resumes its saved game) instead of leaving it silent at the REPL.
    wdt = machine.WDT(timeout=_WDT_MS)
    if storage is None:
        storage = Storage()
    try:
        resume = _resume_flag(storage, False)
        # The config checker's garbage goes before the App's long-lived buffers are placed:
        # left lying, a collection during boot frees it between them, and a heap fragmented
        # so at power-on may not fit the menus' modules (a MemoryError at every boot).
        gc.collect()
        app = App(storage, clock, think_pin, port)
        app.boot_screen()
        app.boot(resume, wdt)
        app.collect_due = True             # boot's garbage: in a step after the first LEDs
        if low:
            low.clear()
        app.run(wdt)
    except Exception as e:
        text = trace(e)
        print(text)
        try:
            storage.log_error(text)
            _resume_flag(storage, True)
        except Exception:
            pass
        show_text(["Error: restart"] + wrap(str(e) or type(e).__name__))
        (clock or time).sleep_ms(2000)
        machine.reset()
