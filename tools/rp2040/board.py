# The whole board on the emulated Pico: the deployed firmware (tools/deploy.py --build-only:
# armv6m .mpy files, main.py, config.py) in littlefs on its flash, pieces standing on the
# squares, fingers on the buttons, and an event script (tools/toolkit/event_script.py) played
# against it in simulated time. On the board's own MicroPython (a UF2 from tools/build_firmware.py,
# given as firmware= or $BARRAGOON_PICO_UF2) the rest is frozen into the firmware, and the
# littlefs image holds only main.py and config.py, as tools/deploy.py --uf2 leaves a board.
#
#   image = firmware_image(position="...")      flash with the firmware and a game set up
#   with EmulatedBoard(image) as b:
#       b.boot()                               power on, run until the main loop shows LEDs
#       b.lift(sq); b.wait(400); b.drop(sq)
#       report = b.play(script)                every event at its time (ms after boot)
#       b.files()[GAME]                        the saved game (saved/game.txt)
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
ROOT = os.path.dirname(TOOLS)
FIRMWARE = os.path.join(ROOT, "firmware")
for p in (TOOLS, FIRMWARE):
    if p not in sys.path:
        sys.path.insert(0, p)

from toolkit import event_script  # noqa: E402
from storage import GAME, BAD  # noqa: E402,F401  (saved/game.txt, saved/game.bad)
from rp2040 import flashfs, pico  # noqa: E402
from rp2040.pico import Pico, PicoError  # noqa: E402

BUILD = os.path.join(ROOT, "build", "rp2040", "firmware")
BOOT_LIMIT_MS = 15000        # a boot that shows no LED frame by then has failed
BOOT_SCREEN = "Barragoon"    # the boot screen's title (app.py: App.boot_screen)
BOOT_SCREEN_LIMIT_MS = 3000
TAP_MS = 60                  # a press that is released again (button taps)


def build_firmware(out=BUILD):
    """tools/deploy.py --build-only into out (the .mpy files the board runs); returns out."""
    import deploy
    mpy_cross = deploy.find_mpy_cross()
    deploy.check_mpy_cross(mpy_cross)
    deploy.build(out, mpy_cross)
    return out


_kinds = {}


def firmware_kind(firmware=None):
    """"frozen" or "stock" (pico.firmware_kind), read once per UF2 file."""
    path = pico.firmware_path(firmware)
    st = os.stat(path)
    key = (path, st.st_mtime, st.st_size)
    if key not in _kinds:
        _kinds[key] = pico.firmware_kind(path)
    return _kinds[key]


def deployed_files(build=None, firmware=None):
    """{board path: bytes} of what the board's file system holds beside the firmware: every
    built file on stock MicroPython; only main.py and config.py on the board's own build (a
    module file there would shadow the frozen one)."""
    files = flashfs.read_files(flashfs.build_image(build or BUILD))
    if firmware_kind(firmware) == "frozen":
        import deploy
        files = {p: d for p, d in files.items() if p in deploy.SOURCE_FILES}
    return files


def game_record(position=None):
    """The saved-game text of a game that starts at position (None: the standard start)."""
    from barragoon.game import Game
    from barragoon.record import write_record
    parts = []
    write_record(Game(position) if position else Game(), parts.append)
    return "".join(parts)


def occupancy(position=None):
    from barragoon.game import Game
    g = Game(position) if position else Game()
    return bytearray(1 if g.pos.get(sq) else 0 for sq in range(63))


def firmware_image(build=None, position=None, game=False, files=None, firmware=None):
    """A littlefs image with the built firmware (deployed_files: for the UF2 `firmware`, by
    default the one the emulated Pico runs). game=True (or a position) also saves a game at
    its start and asks the board to resume it (resume.flag), as after a restart: the board
    boots straight into play with the pieces standing. files: {board path: bytes}; "game.txt"
    stands for the saved game (GAME, where the firmware keeps it)."""
    extra = {}
    if game or position:
        extra[GAME] = game_record(position).encode()
        extra["resume.flag"] = b""
    for path, data in (files or {}).items():
        extra[GAME if path == "game.txt" else path] = data
    if firmware_kind(firmware) == "frozen":
        return flashfs.build_image(None, dict(deployed_files(build, firmware), **extra))
    return flashfs.build_image(build or BUILD, extra)      # (the files in deploy's order)


class EmulatedBoard:
    def __init__(self, image, oled=True, config=None, firmware=None, pico=None,
                 xip_miss_cycles=None):
        self.pico = pico or Pico(flash=image, config=config, firmware=firmware, oled=oled,
                                 xip_miss_cycles=xip_miss_cycles)
        self.t0 = 0.0                      # simulated ms when the main loop first lit the LEDs
        self.occ = bytearray(63)
        self.lifts = []                    # (t_ms, square) of every lift

    def close(self):
        self.pico.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- power ----------------------------------------------------------------------------
    def boot(self, occupied=None, limit_ms=BOOT_LIMIT_MS, boot_screen=True):
        """Run until the firmware's main loop sends its first LED frame; returns that time
        (simulated ms since the bench started). Pieces in `occupied` stand on the board.
        Then, unless boot_screen is False, until the boot screen (the version) has made way
        for the game's first screen."""
        p = self.pico
        if occupied is not None:
            self.set_board(occupied)
        return self._first_frame(len(p.frames), limit_ms, boot_screen)

    def _first_frame(self, n, limit_ms, boot_screen):
        # Until LED frame number n, the main loop's first (see boot()).
        p = self.pico
        end = p.t + limit_ms
        while len(p.frames) == n and p.t < end:
            p.run_for(50)
        if len(p.frames) == n:
            raise PicoError("no LED frame within %d ms of boot; console:\n%s"
                            % (limit_ms, p.console()[-1500:]))
        self.t0 = p.frames[n].t_first
        p.run_for(60)                      # the first screen follows the first LED frame
        if boot_screen:                    # (its segments go out over the first loop steps)
            self.wait_for(lambda b: b.screen()[:1] == [BOOT_SCREEN], 300, 20)
        if boot_screen and self.screen()[:1] == [BOOT_SCREEN]:
            # Until the boot screen's time is up (app.py), and the game's screen is out whole.
            self.wait_for(lambda b: b.screen()[:1] != [BOOT_SCREEN], BOOT_SCREEN_LIMIT_MS, 20)
            p.run_for(60)
        return self.t0

    def reboot(self, image=None, occupied=None, boot_screen=True):
        """Power off, optionally put another storage image on the flash, power on, boot."""
        self.pico.power_off()
        if image is not None:
            self.pico.load_storage(image)
        self.pico.power_on()
        return self.boot(occupied, boot_screen=boot_screen)

    # --- hands and fingers ----------------------------------------------------------------------
    def set_board(self, occupied):
        self.occ = bytearray(occupied)
        self.pico.set_squares(self.occ)

    def lift(self, sq):
        self.occ[sq] = 0
        self.pico.set_squares(self.occ)
        self.lifts.append((self.pico.t, sq))

    def drop(self, sq):
        self.occ[sq] = 1
        self.pico.set_squares(self.occ)

    def press(self, name):
        self.pico.button(name, True)

    def release(self, name):
        self.pico.button(name, False)

    def tap(self, name, times=1, gap_ms=150):
        for _ in range(times):
            self.press(name)
            self.wait(TAP_MS)
            self.release(name)
            self.wait(gap_ms)

    def wait(self, ms):
        self.pico.run_for(ms)

    def wait_for(self, predicate, limit_ms=5000, step_ms=50):
        """Run until predicate(self) holds (True) or limit_ms pass (False)."""
        end = self.pico.t + limit_ms
        while not predicate(self):
            if self.pico.t >= end:
                return False
            self.pico.run_for(step_ms)
        return True

    def move(self, a, b, settle_ms=700, carry_ms=250):
        """Lift the piece on a, carry it, set it down on b and let it rest."""
        self.lift(a)
        self.wait(carry_ms)
        self.drop(b)
        self.wait(settle_ms)

    # --- what the board shows -------------------------------------------------------------------
    @property
    def leds(self):
        return self.pico.leds

    def lit(self):
        """{square name: (r, g, b)} of every square whose LED is not dark."""
        return {event_script.square_text(sq): c for sq, c in enumerate(self.leds) if any(c)}

    def screen(self):
        return self.pico.screen_lines()

    def files(self):
        return self.pico.files()

    def console(self):
        return self.pico.console()

    def banner(self, limit_ms=3000, wait=True):
        """main.py's first line on the serial console ("Barragoon board firmware 0.2.0
        (frozen)"), read through a soft reboot (Ctrl-C, Ctrl-D): the one printed at power-on
        goes out before USB is up. Returns once the firmware is back in its main loop (as
        boot() does), or at once (wait=False)."""
        p = self.pico
        p.interrupt()
        n = len(p.serial)
        frames = len(p.frames)
        p.write(b"\x04")
        p.run_for(limit_ms, stop_on=b"board firmware")
        p.run_for(20)                      # the rest of the line
        line = None
        for text in bytes(p.serial[n:]).decode("utf-8", "replace").splitlines():
            if "board firmware" in text:
                line = text.strip()
        if line is not None and wait:
            self._first_frame(frames, BOOT_LIMIT_MS, True)
        return line

    def lift_to_light(self):
        """For every lift: ms from the sensor's change to the first LED bit after it of a frame
        that shows something new (the firmware also sends the same frame again every second)."""
        out = []
        frames = self.pico.frames
        for t, sq in self.lifts:
            nxt = [f.t_first for i, f in enumerate(frames)
                   if f.t_first >= t and (i == 0 or f.raw != frames[i - 1].raw)]
            if nxt:
                out.append(nxt[0] - t)
        return out

    # --- event scripts --------------------------------------------------------------------------
    def play(self, script):
        """Play an event script (text or event_script.Script); times are ms after boot. A
        `position` line must match how the board was set up (firmware_image(position=...))."""
        if isinstance(script, str):
            script = event_script.parse(script)
        for ms, verb, arg in script.events:
            self.pico.run_until(self.t0 + ms)
            if verb == event_script.LIFT:
                self.lift(arg)
            elif verb == event_script.DROP:
                self.drop(arg)
            elif verb == event_script.PRESS:
                self.press(arg)
            elif verb == event_script.RELEASE:
                self.release(arg)
            elif verb == event_script.POWER:
                self.pico.power_off()      # the flash as it is at this moment; the pieces
                self.pico.power_on()       # stay where the hands left them
        self.pico.run_until(self.t0 + script.end_ms)
        return self.report()

    def report(self):
        """What a person would read off the board now, and what it saved."""
        files = self.files()
        gaps = scan_gaps(self.pico.scan_starts(), self.pico.flash_ops())
        return {
            "t_ms": round(self.pico.t - self.t0, 3),
            "game": files.get(GAME, b"").decode("utf-8", "replace"),
            "records": files.get("records.txt", b"").decode("utf-8", "replace"),
            "leds": {k: list(v) for k, v in self.lit().items()},
            "screen": self.screen(),
            "lift_to_light_ms": [round(v, 3) for v in self.lift_to_light()],
            "loop_gap_ms_max": round(max((e - s - f for s, e, f in gaps), default=0.0), 3),
            "flash_ms": round(sum(f for _, _, f in gaps), 3),
            "resets": self.pico.resets,
            "console": self.console()[-2000:],
        }


def flash_op_ms(op):
    """Time the core waits in the boot ROM for one flash operation (as the emulator models)."""
    if op["op"] == "erase":
        return op["n"] / 4096 * 45.0
    return -(-op["n"] // 256) * 0.7


def scan_gaps(starts, ops):
    """[(start, end, flash ms)] between consecutive matrix scans (ms): the loop went from
    start to end without scanning, flash ms of it waiting for flash writes."""
    out = []
    j = 0
    ops = sorted(ops, key=lambda o: o["t"])
    for a, b in zip(starts, starts[1:]):
        flash = 0.0
        while j < len(ops) and ops[j]["t"] < a:
            j += 1
        k = j
        while k < len(ops) and ops[k]["t"] < b:
            flash += flash_op_ms(ops[k])
            k += 1
        out.append((a, b, flash))
    return out
