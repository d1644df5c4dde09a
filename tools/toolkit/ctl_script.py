# Drive the board controller with a script of physical actions, as a player would:
#   "lift c2; lift c5; drop c5; wait 400; press ok"
# Each lift/drop/press takes STEP_MS of play time; `wait N` lets N ms pass; `hold` presses OK
# long enough to be BACK. A piece set down away from the square last lifted waits, if need be,
# until a hand could have carried it there (controller/timing.py FLIGHT_MS). Time is fed to
# ctl.tick() every 5 ms, like the device's main loop, and the output is rendered.
if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/ctl_script.py is a module the tools import, not a tool "
                     "(tools/README.md lists the tools)\n")
    sys.exit(2)

import vboard

vboard.install_framebuf()   # CPython: the stand-in
import framebuf  # noqa: E402
from barragoon.notation import parse_square, square_name  # noqa: E402
from barragoon.game import Game  # noqa: E402
from controller.timing import FLIGHT_MS  # noqa: E402
from controller.controller import (  # noqa: E402
    Controller, BTN_UP, BTN_DOWN, BTN_OK, BTN_BACK)

BUTTONS = {"up": BTN_UP, "down": BTN_DOWN, "ok": BTN_OK, "back": BTN_BACK}
STEP_MS = 30
TICK_MS = 5


class Rig:
    """A controller, the physical board's occupancy, and a clock."""

    def __init__(self, settle_ms=300, adjust_ms=250, reopen_ms=2000):
        self.buf = bytearray(1024)
        self.fb = framebuf.FrameBuffer(self.buf, 128, 64, framebuf.MONO_VLSB)
        self.ctl = Controller(self.fb, settle_ms, 40, adjust_ms, reopen_ms)
        self.board = bytearray(63)        # what physically stands on each square
        self.t = 1000
        self.saves = 0
        self.finished = 0
        self.ctl.on_save = self._save
        self.ctl.on_finish = self._finish
        self.lifted = (-1, 0)             # the square last lifted, and when

    def _save(self, game, duties):
        self.saves += 1
        self.duties = duties

    def _finish(self, game):
        self.finished += 1

    def start_game(self, position=None, stages=(0, 0)):
        """Start a game at position (text) with the physical board already set up."""
        game = Game(position) if position else Game(None, 0, stages)
        for sq in range(63):
            self.board[sq] = 1 if game.pos.get(sq) else 0
        self.ctl.start(self.board)
        self.ctl.begin(game)
        self.advance(0)
        return game

    def advance(self, ms):
        end = self.t + ms
        while True:
            self.ctl.tick(self.t)
            self.ctl.render(self.t)
            if self.t >= end:
                break
            self.t = min(end, self.t + TICK_MS)

    def put(self, sq, present):
        self.board[sq] = 1 if present else 0
        self.ctl.on_square(sq, self.board[sq], self.t)

    def run(self, script):
        for step in script.split(";"):
            words = step.split()
            if not words:
                continue
            verb = words[0]
            if verb == "wait":
                self.advance(int(words[1]))
                continue
            if verb in ("lift", "drop"):
                sq = parse_square(words[1])
                if verb == "lift":
                    self.lifted = (sq, self.t)
                else:
                    self._carried(sq)
                self.put(sq, verb == "drop")
            elif verb == "press":
                self.ctl.on_button(BUTTONS[words[1]], self.t)
            elif verb == "hold":
                self.ctl.on_button(BTN_BACK, self.t)
            else:
                raise ValueError("unknown script step: %r" % step)
            self.advance(STEP_MS)
        return self

    def _carried(self, sq):
        frm, t0 = self.lifted
        if frm < 0:
            return
        d = max(abs(frm % 7 - sq % 7), abs(frm // 7 - sq // 7))
        need = t0 + FLIGHT_MS * (d - 1) + TICK_MS
        if d > 1 and self.t < need:
            self.advance(need - self.t)

    # --- what the players see ---------------------------------------------------------------
    def meaning(self, name):
        return self.ctl.meaning[parse_square(name)]

    def colour(self, name):
        i = parse_square(name) * 3
        return bytes(self.ctl.frame[i:i + 3])

    def lit(self, meaning):
        return sorted(square_name(sq) for sq in range(63) if self.ctl.meaning[sq] == meaning)

    def record(self):
        return " ".join(self.ctl.game.iter_turns())

    def position(self):
        from barragoon.notation import format_position
        return format_position(self.ctl.game.pos)

    def ink(self, x0=0, y0=0, x1=128, y1=64):
        n = 0
        for y in range(y0, y1):
            for x in range(x0, x1):
                n += self.fb.pixel(x, y)
        return n
