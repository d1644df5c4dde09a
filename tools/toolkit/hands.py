# Synthetic hands on a synthetic board: players of four kinds play random legal games through
# the unchanged board controller, and what the board records is compared with what the hands did.
# tools/bench/bench_handling.py measures with it; host_tests/test_controller_property.py fuzzes
# with it (hypothesis drawing the hands' choices).
#
# The table (Table, here): the physical pieces (codes as the rules core writes them, a placed
# Barragoon with the face its player gave it), and the truth: a rules-core Game the hands play
# their turns in. The firmware: controller.controller.Controller, fed as app.py feeds it on the
# board: a matrix scan every SCAN_MS sees which squares changed since the last scan (in square
# order, as the matrix driver queues them; a piece off and back between two scans is never
# seen), then the buttons through the real debouncing driver (drivers/inputs.py on the virtual
# pins: up/down on press, ok on press and release, held 700 ms it is BACK), then tick() and
# render(). Time is simulated (ms), so any speed of hands runs as fast as the computer allows.
# The board's saves are kept as the flash would keep them (the record text and its duties), and
# a power cut (Table.power_cut) starts a new controller on them with the pieces where they are.
#
# The players (toolkit/players.py) are physical: a piece carried through the air takes at least
# CARRY_MS per square; a square keeps each state (a piece on it, or none) for at least
# MIN_OFF_MS, since a change shorter than one scan period is seen by no scan (a capture no
# sensor saw is not a capture any board could record; so "0 ms" below means "as soon as the
# sensors can see it"). Their kinds (gaps between one hand event and the next, ms):
#   careful  600-2000
#   normal   250-900
#   blitz    80-400; the opponent starts 0-300 ms after the mover's last set-down; a capture
#            lands 0-150 ms after its victim leaves; button gaps down to 0 ms
#   sloppy   normal, plus knocks (a neighbour off and back, or pushed onto the next square and
#            put back later), jiggles, push-off captures, tiles set on a wrong square first,
#            questions ignored half the time (the players play on)
# and, in every kind at its own rate (players.KINDS): tiles slid along their path (the next
# square's sensor closing a few ms before the last one opens, or just after), captures begun
# and given up (both pieces put back, then made after all), both Barragoons of a tile capture
# set down together in either order, face buttons pressed before the face picker is up, the
# next player lifting a tile while the capturer still places, or lifting the Barragoon just
# placed right after OK, the moved tile straightened while the opponent begins.
# The players answer the board's questions by reading them (the option that says what they
# did; they press UP/DOWN from the preselection), choose each Barragoon's face, now and then
# take a turn back from the menu or offer a draw by repetition, and put the board right when it
# asks (the LEDs and "Each piece back?"). After a power cut they press OK on "Resume game" and
# go on as the board shows: with their turn if it resumed it, from the turn's start if it
# guides them back. A game ends when the rules end it or after max_turns moves. Its outcome:
#   wrong     the board's record is not what the hands did
#   stuck     the hands could not go on: what they needed (the face picker, a question to go,
#             the board to take their turn, a menu) did not come within STUCK_MS, or the
#             firmware raised
#   exact     the record is right and the board needed no help: every question it asked went
#             away by itself or was answered with its preselected choice, and it never lost track
# Runs on CPython and on the MicroPython unix port (the same seed plays the same games on both).
if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/hands.py is a module the tools import, not a tool "
                     "(tools/README.md lists the tools)\n")
    sys.exit(2)

from barragoon.game import Game
from barragoon.notation import square_name

SCAN_MS = 4
MIN_OFF_MS = SCAN_MS + 1
CARRY_MS = 40             # a piece carried through the air: at least this long per square
STUCK_MS = 20000          # the hands give up waiting for the board after this long
BOOT_MS = 2500            # a board starting after a power cut, and the players resuming it
PROFILES = ("careful", "normal", "blitz", "sloppy")


class Stuck(Exception):
    pass


class Rng:
    """xorshift32: the same numbers on CPython and MicroPython."""

    def __init__(self, seed):
        self.s = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def _next(self):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s

    def between(self, a, b):
        """An int from a to b inclusive."""
        return a + self._next() % (b - a + 1)

    def chance(self, percent):
        return self._next() % 100 < percent

    def pick(self, seq):
        return seq[self._next() % len(seq)]


class Table:
    """The physical board and the firmware watching it. Hands change squares at any ms;
    step() runs the board's loop up to a time; power_cut() restarts the firmware on what it
    saved."""

    def __init__(self, position=None, settle_ms=300, adjust_ms=250, reopen_ms=2000):
        import vboard
        machine = vboard.install()
        vboard.reset()
        machine.record = False
        self.machine = machine
        import config
        import framebuf
        self.buf = bytearray(1024)
        self.fb = framebuf.FrameBuffer(self.buf, 128, 64, framebuf.MONO_VLSB)
        self.times = (settle_ms, adjust_ms, reopen_ms)
        self.pins = config.BUTTON_PINS
        for p in self.pins:
            machine.set_input(p, 1)
        self.debounce = (config.BUTTON_DEBOUNCE_MS, getattr(config, "LONG_PRESS_MS", 700))
        self.truth = Game(position) if position else Game()
        pos = self.truth.pos
        self.pieces = [pos.get(sq) for sq in range(63)]
        self.seen = bytearray(63)             # what the last scan saw
        for sq in range(63):
            self.seen[sq] = 1 if self.pieces[sq] else 0
        self.changed = []                     # squares changed since the last scan
        self.off_t = [-100000] * 63           # when each square last changed
        self.t = 0                            # ms, simulated
        self.next_scan = 0
        self.log = []                         # (ms, verb, arg): an event script
        self.questions = 0
        self.offers = 0               # face pickers that offered "no capture" too
        self.offering = False
        self.asking = False
        self.on_step = None                   # called after every loop step (t)
        self.start_text = position
        self.lost = 0                         # steps in which the board had lost track
        self.saved = None                     # (record text, duties) as the flash holds them
        self.cut_left = 0                     # power cuts still to come ...
        self.next_cut = 0                     # ... the next at this time
        self.cut_rng = None
        self.cut_gap = (0, 0)
        self.boots = 0                        # power cuts so far
        game = Game(position) if position else Game()
        self._save(game, "")                  # (the set-up done: the board saves the start)
        self._boot(game, "")

    def _boot(self, game, duties):
        from drivers.inputs import Inputs
        from controller.controller import Controller
        st, ad, ro = self.times
        self.ctl = Controller(self.fb, st, 40, ad, ro)
        self.ctl.on_save = self._save
        self.inputs = Inputs("buttons", self.pins, self.debounce[0], self.debounce[1])
        self.ctl.start(self.seen, game, duties)
        self.step(self.t)

    def _save(self, game, duties):
        from barragoon.record import format_record
        self.saved = (format_record(game), duties)

    def plan_cuts(self, n, rng, gap):
        """n power cuts, each gap (min, max ms) after the board came back from the last."""
        self.cut_left, self.cut_rng, self.cut_gap = n, rng, gap
        self.next_cut = self.t + rng.between(*gap)

    def power_cut(self):
        """The power goes and comes back: a new controller on the saved game, the pieces
        where the hands have them, the buttons as they are held."""
        from barragoon.record import parse_record
        self.boots += 1
        self.log.append((self.t, "power", None))
        game = parse_record(self.saved[0]) if self.saved is not None else None
        self.changed = []
        for sq in range(63):
            self.seen[sq] = 1 if self.pieces[sq] else 0
        self._boot(game, self.saved[1] if self.saved is not None else "")

    # --- hands ---------------------------------------------------------------------------
    def _dwell(self, sq):
        # A square keeps each state at least MIN_OFF_MS: a piece that stood (or a gap that
        # lasted) less than a scan period is seen by no scan, hands are not that fast.
        d = self.t - self.off_t[sq]
        if d < MIN_OFF_MS:
            self.wait(MIN_OFF_MS - d)
        self.off_t[sq] = self.t

    def lift(self, sq):
        c = self.pieces[sq]
        if not c:
            raise ValueError("lift of empty " + square_name(sq))
        self._dwell(sq)
        self.pieces[sq] = 0
        self._change(sq)
        self.log.append((self.t, "lift", sq))
        return c

    def drop(self, sq, c):
        if self.pieces[sq]:
            raise ValueError("drop on occupied " + square_name(sq))
        self._dwell(sq)
        self.pieces[sq] = c
        self._change(sq)
        self.log.append((self.t, "drop", sq))

    def _change(self, sq):
        if sq not in self.changed:
            self.changed.append(sq)

    def button(self, name, down):
        self.machine.set_input(self.pins[("up", "down", "ok").index(name)], 0 if down else 1)
        self.log.append((self.t, "press" if down else "release", name))

    # --- the board's loop ----------------------------------------------------------------
    def step(self, until):
        """Run the board's loop (one step every SCAN_MS) up to time until; a power cut due
        meanwhile happens between two steps."""
        while self.next_scan <= until:
            t = self.next_scan
            if self.cut_left and self.next_cut <= t:
                self.cut_left -= 1
                self.next_cut = t + BOOT_MS + self.cut_rng.between(*self.cut_gap)
                if self.t < t:
                    self.t = t
                self.power_cut()
                continue
            self.next_scan += SCAN_MS
            self._loop_step(t)
        if until > self.t:
            self.t = until

    def _loop_step(self, t):
        ctl, inp = self.ctl, self.inputs
        if self.changed:
            self.changed.sort()
            for sq in self.changed:
                now = 1 if self.pieces[sq] else 0
                if now != self.seen[sq]:
                    self.seen[sq] = now
                    ctl.on_square(sq, now, t)
            self.changed = []
        ctl.render(t, 1)
        inp.poll(t)
        code = inp.pop()
        while code >= 0:
            ctl.on_button(code, t)
            code = inp.pop()
        ctl.tick(t)
        ctl.render(t, 3)
        asking = self.top() == "Ask"
        if asking and not self.asking:
            self.questions += 1
        self.asking = asking
        offering = ctl.judge.alt >= 0 and self.top() == "Place"
        if offering and not self.offering:
            self.offers += 1
        self.offering = offering
        if ctl.judge.confused:
            self.lost += 1
        if self.on_step is not None:
            self.on_step(t)

    def wait(self, ms):
        self.step(self.t + ms)

    # --- what the players see ------------------------------------------------------------
    def top(self):
        m = self.ctl.top
        return type(m).__name__ if m is not None else ""

    def menu_title(self):
        m = self.ctl.top
        return getattr(m, "title", "")

    def record(self):
        g = self.ctl.game
        return list(g.iter_turns()) if g is not None else []

    def script(self):
        """What the hands and fingers did, as an event script (tools/toolkit/event_script.py)."""
        from barragoon.notation import format_position
        lines = ["position " + format_position(Game(self.start_text).pos)
                 if self.start_text else "# the standard start"]
        for ms, verb, arg in self.log:
            if verb == "power":
                lines.append("%d power" % ms)
                continue
            a = square_name(arg) if verb in ("lift", "drop") else arg
            lines.append("%d %s %s" % (ms, verb, a))
        lines.append("%d end" % (self.t + 3000))
        return "\n".join(lines) + "\n"


def neighbours(sq):
    f, r = sq % 7, sq // 7
    out = []
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= f + df < 7 and 0 <= r + dr < 9:
            out.append(sq + df + 7 * dr)
    return out


def distance(a, b):
    """Squares a hand carries a piece from a to b (king steps)."""
    return max(abs(a % 7 - b % 7), abs(a // 7 - b // 7))


def is_prefix(rec, truth):
    if len(rec) > len(truth):
        return False
    for i in range(len(rec)):
        if rec[i] != truth[i] and not truth[i].startswith(rec[i]):
            return False
    return True
