# Synthetic hands on a synthetic board: players of four kinds play random legal games through
# the unchanged board controller, and what the board records is compared with what the hands did.
# tools/bench/bench_handling.py measures with it; host_tests/test_controller_property.py fuzzes
# with it (hypothesis drawing the hands' choices).
#
# The table: the physical pieces (codes as the rules core writes them, a placed Barragoon with
# the face its player gave it), and the truth: a rules-core Game the hands play their turns in.
# The firmware: controller.controller.Controller, fed as app.py feeds it on the board: a matrix
# scan every SCAN_PERIOD_MS sees which squares changed since the last scan (in square order, as
# the matrix driver queues them; a piece off and back between two scans is never seen), then
# the buttons through the real debouncing driver (drivers/inputs.py on the virtual pins:
# up/down on press, ok on release, held 700 ms it is BACK), then tick() and render(). Time is
# simulated (ms), so any speed of hands runs as fast as the computer allows.
#
# Profiles (gaps between one hand event and the next, ms):
#   careful  600-2000
#   normal   250-900
#   blitz    80-400; the opponent starts 0-300 ms after the mover's last set-down; a capture
#            lands 0-150 ms after its victim leaves
#   sloppy   normal, plus: a neighbour of the target knocked off for 100-800 ms, the moved piece
#            jiggled (off for 5-60 ms), push-off captures (the attacker lands 0-30 ms after the
#            victim leaves), a tile set on a wrong square first and then moved on, both
#            Barragoons of a tile capture set down together (the captured side's first, the
#            other 5-30 ms later), questions ignored half the time (the players play on)
# A square keeps each state (a piece on it, or none) for at least MIN_OFF_MS: a change shorter
# than one scan period is never seen by any scan, and a capture no sensor saw is not a capture
# any board could record (so "0 ms" above means "as soon as the sensors can see it"). For the
# same reason the two Barragoons set down together are one scan apart at least: set down in
# one scan, no board can tell which was first, and it asks whose is whose (an event script
# tests that: host_tests/events/issue18_08b_two_barragoons_in_one_scan.txt).
#
# Players answer the board's questions truthfully (when they answer), choose each Barragoon's
# face on the face picker, now and then take a turn back from the menu or offer a draw by
# repetition, and put the board right when it asks (the LEDs and the question "Each piece
# back?"). A game ends when the rules end it or after max_turns moves. Its outcome:
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

from barragoon.core import TILE, BROWN_BIT, MAX_BARRAGOON
from barragoon.game import Game
from barragoon.notation import square_name
from drivers.buttons_const import BTN_BACK  # noqa: F401

SCAN_MS = 4
MIN_OFF_MS = SCAN_MS + 1
STUCK_MS = 20000          # the hands give up waiting for the board after this long
LONG_MS = 900             # holding OK this long opens the menu (the driver's long press: 700)
PROFILES = ("careful", "normal", "blitz", "sloppy")

# (gap min, gap max, opponent start min, max (None: the gap), capture landing min, max)
_TIMES = {
    "careful": (600, 2000, None, None, None, None),
    "normal": (250, 900, None, None, None, None),
    "blitz": (80, 400, 0, 300, 0, 150),
    "sloppy": (250, 900, None, None, None, None),
}


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


def is_tile(c):
    return c & TILE


def side_of(c):
    return 1 if c & BROWN_BIT else 0


class Table:
    """The physical board and the firmware watching it. Hands change squares at any ms;
    step() runs the board's loop up to a time."""

    def __init__(self, position=None, settle_ms=300, adjust_ms=250, reopen_ms=2000):
        import vboard
        machine = vboard.install()
        vboard.reset()
        machine.record = False
        self.machine = machine
        import config
        import framebuf
        from drivers.inputs import Inputs
        from controller.controller import Controller
        self.buf = bytearray(1024)
        fb = framebuf.FrameBuffer(self.buf, 128, 64, framebuf.MONO_VLSB)
        self.ctl = Controller(fb, settle_ms, 40, adjust_ms, reopen_ms)
        self.pins = config.BUTTON_PINS
        for p in self.pins:
            machine.set_input(p, 1)
        self.inputs = Inputs("buttons", self.pins, config.BUTTON_DEBOUNCE_MS,
                             getattr(config, "LONG_PRESS_MS", 700))
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
        self.asking = False
        self.on_step = None                   # called after every loop step (t)
        self.start_text = position
        self.lost = 0                         # steps in which the board had lost track
        self.ctl.start(self.seen)
        self.ctl.begin(Game(position) if position else Game())
        self.step(self.t)

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
        """Run the board's loop (one step every SCAN_MS) up to time until."""
        ctl, inp = self.ctl, self.inputs
        while self.next_scan <= until:
            t = self.next_scan
            self.next_scan += SCAN_MS
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
            if ctl.judge.confused:
                self.lost += 1
            if self.on_step is not None:
                self.on_step(t)
        if until > self.t:
            self.t = until

    def wait(self, ms):
        self.step(self.t + ms)

    # --- what the players see ------------------------------------------------------------
    def top(self):
        m = self.ctl.top
        return type(m).__name__ if m is not None else ""

    def record(self):
        g = self.ctl.game
        return list(g.iter_turns()) if g is not None else []

    def script(self):
        """What the hands and fingers did, as an event script (tools/toolkit/event_script.py)."""
        from barragoon.notation import format_position
        lines = ["position " + format_position(Game(self.start_text).pos)
                 if self.start_text else "# the standard start"]
        for ms, verb, arg in self.log:
            a = square_name(arg) if verb in ("lift", "drop") else arg
            lines.append("%d %s %s" % (ms, verb, a))
        lines.append("%d end" % (self.t + 3000))
        return "\n".join(lines) + "\n"


class Players:
    """Both players' hands (one profile), playing the truth game on the table."""

    def __init__(self, table, profile, rng, max_turns=40, takebacks=True, offers=True):
        if profile not in _TIMES:
            raise ValueError("unknown profile %r (one of %s)" % (profile, ", ".join(PROFILES)))
        self.tb = table
        self.profile = profile
        self.sloppy = profile == "sloppy"
        self.times = _TIMES[profile]
        self.rng = rng
        self.max_turns = max_turns
        self.takebacks = takebacks
        self.offers = offers
        self.turns = 0
        self.helped = False           # a question answered against its preselection, or the
        #                               board lost track
        self.wrong_pre = 0
        self.aside = []               # captured pieces next to the board
        self.ignored = False          # the question on screen is being ignored
        self.placing_sq = -1          # the square of the Barragoon whose face comes next

    # --- timing ----------------------------------------------------------------------------
    def gap(self):
        return self.rng.between(self.times[0], self.times[1])

    def pause(self, ms):
        """Wait ms, answering questions the players see meanwhile (when they answer)."""
        end = self.tb.t + ms
        while self.tb.t < end:
            self.tb.wait(min(50, end - self.tb.t))
            self.look()

    def look(self):
        tb = self.tb
        if tb.top() != "Ask":
            self.ignored = False
            return
        if self.ignored:
            return
        if self.sloppy and self.rng.chance(50):
            self.ignored = True
            return
        self.answer()

    # --- a whole game ----------------------------------------------------------------------
    def play(self):
        g = self.tb.truth
        while not g.over and self.turns < self.max_turns:
            self.turn()
            self.turns += 1
            if g.over:
                break
            if self.takebacks and self.rng.chance(2) and g.last_turn_text():
                self.take_back()
            elif self.offers and g.repetition and self.rng.chance(50):
                self.offer()
        self.settle()

    def settle(self):
        """The game is over or the players stop: let the board come to rest."""
        tb = self.tb
        for i in range(40):
            self.pause(100)
            if tb.top() == "Ask":
                self.answer()
        self.pause(2500)

    # --- one turn --------------------------------------------------------------------------
    def choose(self):
        g = self.tb.truth
        moves = g.legal_moves()
        caps = [m for m in moves if g.pos.get(m & 63)]
        if caps and self.rng.chance(35):
            return self.rng.pick(caps)
        return self.rng.pick(moves)

    def turn(self):
        tb, g = self.tb, self.tb.truth
        m = self.choose()
        frm, to = m >> 6, m & 63
        victim = tb.pieces[to]
        self.pause(self.start_gap())
        if victim:
            self.capture(frm, to)
        else:
            tile = tb.lift(frm)
            if self.sloppy and self.rng.chance(10):
                self.detour(tile, frm, to)
            self.pause(self.gap())
            tb.drop(to, tile)
        g.move(frm, to)
        self.last_down = tb.t
        if self.sloppy and self.rng.chance(15):
            self.jiggle(to)
        if self.sloppy and self.rng.chance(15):
            self.knock(to)
        if g.placing() >= 0:
            self.placements(victim)

    def start_gap(self):
        lo, hi = self.times[2], self.times[3]
        if lo is None:
            return self.gap()
        return self.rng.between(lo, hi)

    def land_gap(self, push):
        if push:
            return self.rng.between(MIN_OFF_MS, 30)
        lo, hi = self.times[4], self.times[5]
        if lo is None:
            return self.gap()
        return max(MIN_OFF_MS, self.rng.between(lo, hi))

    def capture(self, frm, to):
        tb = self.tb
        push = self.sloppy and self.rng.chance(30)
        if push or self.rng.chance(50):              # the attacker first
            tile = tb.lift(frm)
            self.pause(self.gap())
            self.aside.append(tb.lift(to))
            self.pause(self.land_gap(push))
        else:                                        # the victim first
            self.aside.append(tb.lift(to))
            land = self.land_gap(False)
            first = self.rng.between(0, land - 1) if self.times[4] is not None else self.gap()
            self.pause(first)
            tile = tb.lift(frm)
            self.pause(land - first if self.times[4] is not None else self.gap())
        tb.drop(to, tile)

    def detour(self, tile, frm, to):
        """The tile is set on a wrong empty square next to its target first, then moved on."""
        tb = self.tb
        near = [s for s in neighbours(to) if not tb.pieces[s] and s != frm]
        if not near:
            return
        sq = self.rng.pick(near)
        self.pause(self.gap())
        tb.drop(sq, tile)
        self.pause(self.gap())
        tb.lift(sq)

    def jiggle(self, sq):
        tb = self.tb
        self.pause(self.rng.between(0, 100))
        c = tb.lift(sq)
        self.pause(self.rng.between(MIN_OFF_MS, 60))
        tb.drop(sq, c)

    def knock(self, to):
        tb = self.tb
        near = [s for s in neighbours(to) if tb.pieces[s]]
        if not near:
            return
        sq = self.rng.pick(near)
        self.pause(self.rng.between(0, 50))
        c = tb.lift(sq)
        self.pause(self.rng.between(100, 800))
        tb.drop(sq, c)

    # --- placements ------------------------------------------------------------------------
    def placements(self, victim):
        tb, g = self.tb, self.tb.truth
        plan = []                                    # (square, face) in the rules' order
        taken = []
        for i in range(len(g.pending)):
            plan.append(self.spot(taken))
            taken.append(plan[-1][0])
        together = self.sloppy and len(plan) == 2 and self.rng.chance(50)
        if together:
            self.pause(self.gap())
            tb.drop(plan[0][0], plan[0][1])
            self.pause(self.rng.between(MIN_OFF_MS, 30))
            tb.drop(plan[1][0], plan[1][1])
            for sq, face in plan:
                self.pick_face(sq, face)
            return
        for sq, face in plan:
            self.pause(self.start_gap() if self.times[2] is not None else self.gap())
            tb.drop(sq, face)
            self.pick_face(sq, face)

    def spot(self, taken):
        """A square and face for the next Barragoon: any empty square (not one taken by the
        placement before it), a face the rules allow there."""
        g = self.tb.truth
        empty = [sq for sq in range(63) if not self.tb.pieces[sq] and sq not in taken]
        if not empty:
            raise Stuck("no square to place on")
        i0 = self.rng.between(0, len(empty) - 1)
        f0 = self.rng.between(1, MAX_BARRAGOON)
        for i in range(len(empty)):
            sq = empty[(i0 + i) % len(empty)]
            for k in range(MAX_BARRAGOON):
                face = (f0 - 1 + k) % MAX_BARRAGOON + 1
                if taken or g.placement_allowed(sq, face):
                    return sq, face
        raise Stuck("no square to place on")

    def pick_face(self, sq, face):
        """On the face picker: UP/DOWN until the face shows, then OK."""
        tb, g = self.tb, self.tb.truth
        ctl = tb.ctl
        self.placing_sq = sq
        waited = 0
        while not (tb.top() == "Place" and ctl.judge.place_sq >= 0):
            if tb.top() == "Ask":
                self.answer()                        # (read now: the picker is wanted)
            self.pause(50)
            waited += 50
            if waited > STUCK_MS:
                raise Stuck("no face picker for " + square_name(sq))
        shown = ctl.judge.place_sq
        real = tb.pieces[shown]                      # the players give the face it shows
        if not real or is_tile(real):
            real = face
        self.pause(self.rng.between(150, 600))
        for i in range(40):
            if ctl.face == real or tb.top() != "Place":
                break
            self.press("down" if (real - ctl.face) % 16 <= 8 else "up")
        self.press("ok")
        self.placing_sq = -1
        if g.placing() >= 0:
            g.place(sq, face)

    def press(self, name, hold=None):
        tb = self.tb
        tb.button(name, True)
        tb.wait(hold if hold is not None else self.rng.between(60, 160))
        tb.button(name, False)
        tb.wait(self.rng.between(60, 200))

    # --- questions -------------------------------------------------------------------------
    def answer(self):
        tb = self.tb
        j = tb.ctl.judge
        self.pause_only(self.rng.between(300, 900))
        if tb.top() != "Ask" or not j.ask_n:
            return
        pick = self.truth_option()
        if pick is None or pick != 0:
            self.wrong_pre += 1
        if pick is None:
            pick = 0
        if pick != 0:
            self.helped = True
        sel = tb.ctl.top.sel
        for i in range((pick - sel) % j.ask_n):
            self.press("down")
        if tb.top() == "Ask":
            self.press("ok")

    def pause_only(self, ms):
        self.tb.wait(ms)

    def truth_option(self):
        """The option that says what really happened, or None."""
        tb = self.tb
        j = tb.ctl.judge
        from controller import judge as J
        g = tb.truth
        board = tb.ctl.game
        for k in range(j.ask_n):
            kind = j.ask_kind[k]
            if kind == J.K_OK:
                if all((1 if board.pos.get(s) else 0) == (1 if tb.pieces[s] else 0) and
                       (not board.pos.get(s) or board.pos.get(s) == tb.pieces[s] or
                        not is_tile(tb.pieces[s])) for s in range(63)):
                    return k
            elif kind == J.K_MOVE:
                last = g.last_turn_text()
                if last.startswith(square_name(j.ask_a[k])) and \
                        last[3:5] == square_name(j.ask_b[k]):
                    return k
            elif kind == J.K_PLACE:
                h = j.hs[j.ask_h[k]]
                sq = j.ask_a[k] if j.ask_b[k] == 1 or not hasattr(h, "p0") else h.p0
                if self.placing_sq >= 0:
                    if sq == self.placing_sq:
                        return k
                elif tb.pieces[sq] and not is_tile(tb.pieces[sq]):
                    return k
            elif kind == J.K_NONE:
                if tb.pieces == [board.pos.get(s) for s in range(63)] and \
                        len(board.actions) == len(g.actions):
                    return k
        for k in range(j.ask_n):
            if j.ask_kind[k] == J.K_WAIT:
                return k
        return None

    # --- the menu --------------------------------------------------------------------------
    def menu(self, label_start):
        """Open the menu (hold OK) and choose the first item starting with label_start."""
        tb = self.tb
        self.press("ok", LONG_MS)
        if tb.top() != "Menu":
            raise Stuck("no menu")
        items = tb.ctl.top.items
        for i in range(len(items)):
            if items[i].startswith(label_start) or label_start in items[i]:
                for k in range(i - tb.ctl.top.sel):
                    self.press("down")
                self.press("ok")
                return True
        for k in range(tb.ctl.top.sel):              # not offered: back to the game
            self.press("up")
        self.press("ok")                             # (Resume is the first item)
        return False

    def take_back(self):
        tb, g = self.tb, self.tb.truth
        self.pause(self.gap())
        if not self.menu("Take back"):
            return
        before = [g.pos.get(s) for s in range(63)]
        g.undo_turn()
        self.restore(before)

    def restore(self, before):
        """Put the board as the truth has it now (pieces taken off first)."""
        tb, g = self.tb, self.tb.truth
        want = [g.pos.get(s) for s in range(63)]
        for sq in range(63):
            if tb.pieces[sq] and tb.pieces[sq] != want[sq]:
                self.pause(self.gap())
                c = tb.lift(sq)
                if is_tile(c) or c in want:
                    self.aside.append(c)
        for sq in range(63):
            if want[sq] and not tb.pieces[sq]:
                self.pause(self.gap())
                c = want[sq]
                if c in self.aside:
                    self.aside.remove(c)
                tb.drop(sq, c)
        self.pause(1000)
        waited = 0
        while tb.ctl.judge.repair and waited < STUCK_MS:
            if tb.top() == "Ask":
                self.answer()
            self.pause(200)
            waited += 200
        if tb.ctl.judge.repair:
            raise Stuck("the board does not take the board back as right")

    def offer(self):
        tb, g = self.tb, self.tb.truth
        self.pause(self.gap())
        if not self.menu("draw (rep.)"):
            return
        g.offer_repetition_draw()
        self.pause(self.gap())
        accept = self.rng.chance(30)
        self.press("ok", LONG_MS if accept else None)
        g.answer_repetition_draw(accept)


def neighbours(sq):
    f, r = sq % 7, sq // 7
    out = []
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= f + df < 7 and 0 <= r + dr < 9:
            out.append(sq + df + 7 * dr)
    return out


def play_game(profile, seed, max_turns=40, position=None):
    """One game; returns a dict: turns, exact, wrong, stuck, questions, wrong_pre, why, and the
    table. seed: an int, or an object with Rng's methods (the property test's draws)."""
    rng = Rng(seed) if isinstance(seed, int) else seed
    tb = Table(position)
    pl = Players(tb, profile, rng, max_turns)
    out = {"turns": 0, "exact": False, "wrong": False, "stuck": False, "questions": 0,
           "wrong_pre": 0, "why": ""}
    try:
        pl.play()
    except Stuck as e:
        out["stuck"] = True
        out["why"] = str(e)
    except Exception as e:                           # the firmware raised: the board is dead
        out["stuck"] = True
        out["why"] = "%s: %s" % (type(e).__name__, e)
    out["turns"] = pl.turns
    rec, truth = tb.record(), list(tb.truth.iter_turns())
    if rec != truth and not out["stuck"]:
        out["wrong"] = True
        out["why"] = "record %s, hands %s" % (" ".join(rec[-3:]), " ".join(truth[-3:]))
    elif rec != truth and out["stuck"] and not is_prefix(rec, truth):
        out["wrong"] = True
        out["stuck"] = False
        out["why"] += "; record %s, hands %s" % (" ".join(rec[-3:]), " ".join(truth[-3:]))
    out["questions"] = tb.questions
    out["wrong_pre"] = pl.wrong_pre
    out["exact"] = not out["wrong"] and not out["stuck"] and not pl.helped and not tb.lost
    out["table"] = tb
    return out


def is_prefix(rec, truth):
    if len(rec) > len(truth):
        return False
    for i in range(len(rec)):
        if rec[i] != truth[i] and not truth[i].startswith(rec[i]):
            return False
    return True
