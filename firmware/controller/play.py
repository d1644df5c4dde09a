# Physical play: turns sensor events into game actions, enforcing touch-move (RULES.md).
#
# The board only sees presence. PlayState keeps what the players' hands are doing: the own
# tile lifted (held), the opponent tile or Barragoon lifted (victim), a tile put back that
# must still move (touched), a victim put back that must still be captured, a set-down that
# waits out the settle time, and a Barragoon being placed. From those it derives `expect`,
# the occupancy the board should show right now; any square where the sensors differ is a
# mismatch that the LEDs ask the players to fix. Nothing reaches the game until a set-down
# has rested for the settle time, so slides and hovering never commit anything.
from barragoon.core import TILE, BROWN_BIT, EMPTY, T_MOVE, SQ2MB, RulesError
from barragoon.notation import square_name
from drivers.ticks import ticks_diff

NONE = -1
_ZERO63 = bytes(63)


class PlayState:
    def __init__(self, game, sensed, settle_ms):
        self.game = game
        self.sensed = sensed              # shared bytearray(63), updated by the controller
        self.settle_ms = settle_ms
        self.expect = bytearray(63)
        self.base = bytearray(63)         # occupancy of the game's position
        self.allowed = bytearray(63)      # target kinds the held tile may be set down on
        self.capturers = bytearray(63)    # own tiles that can capture the lifted victim
        self.restore = bytearray(63)      # after a take-back: 1 = piece must be swapped,
        #                                   2 = seen empty, now put the right piece back
        self.held = NONE
        self.victim = NONE
        self.touched = NONE               # put back with targets: it must move (rule 4.6)
        self.must_capture = NONE          # victim put back that must be captured
        self.drop_sq = NONE
        self.drop_t = 0
        self.place_sq = NONE              # Barragoon set down, waiting for settle + face
        self.place_t = 0
        self.place_ready = False          # settled: the face picker is up
        self.error_sq = NONE
        self.note = ""
        self.warn = 0                     # set when the players did something refused
        self.refresh(True)

    # --- derived state ---------------------------------------------------------------------
    def refresh(self, game_changed=False):
        """Recompute expect / allowed / capturers after any change. Allocation-free.
        The game's own occupancy is only rescanned when the game changed."""
        exp = self.expect
        if game_changed:
            cells = self.game.pos.cells
            base = self.base
            mb = SQ2MB
            for sq in range(63):
                base[sq] = 1 if cells[mb[sq]] else 0
        exp[:] = self.base
        if self.held >= 0:
            exp[self.held] = 0
        if self.victim >= 0:
            exp[self.victim] = 0
        if self.drop_sq >= 0:
            exp[self.drop_sq] = 1
        if self.place_sq >= 0:
            exp[self.place_sq] = 1
        self.allowed[:] = _ZERO63
        if self.held >= 0:
            self._fill_allowed(self.held, self.allowed)
        self.capturers[:] = _ZERO63
        if self.victim >= 0 and self.held < 0:
            self._fill_capturers(self.victim)

    def _fill_allowed(self, frm, out):
        g = self.game
        n = g.targets(frm)
        tsq, tkind = g.pos.tsq, g.pos.tkind
        only = self.victim if self.victim >= 0 else self.must_capture
        for i in range(n):
            t = tsq[i]
            if only >= 0 and t != only:
                continue
            out[t] = tkind[i]

    def _fill_capturers(self, victim):
        g = self.game
        pos = g.pos
        side = pos.side
        for sq in range(63):
            if self._own(pos.get(sq), side):
                n = g.targets(sq)
                tsq = pos.tsq
                for i in range(n):
                    if tsq[i] == victim:
                        self.capturers[sq] = 1
                        break

    def _own(self, c, side):
        return c & TILE and c != 0xFF and ((c & BROWN_BIT) != 0) == (side == 1)

    def can_capture(self, frm, victim):
        g = self.game
        n = g.targets(frm)
        tsq = g.pos.tsq
        for i in range(n):
            if tsq[i] == victim:
                return True
        return False

    def any_capturer(self, victim):
        side = self.game.pos.side
        for sq in range(63):
            if self._own(self.game.pos.get(sq), side) and self.can_capture(sq, victim):
                return True
        return False

    def mismatches(self, skip=NONE):
        """Squares where the sensors differ from what the board should show."""
        n = 0
        s, e = self.sensed, self.expect
        r = self.restore
        for sq in range(63):
            if (s[sq] != e[sq] or r[sq]) and sq != skip and sq != self.error_sq:
                n += 1
        return n

    def mark_restore(self, before):
        """After a take-back: squares occupied before and after whose piece changed must be
        lifted and replaced, which the sensors alone would not notice."""
        pos = self.game.pos
        for sq in range(63):
            c = pos.get(sq)
            self.restore[sq] = 1 if (c != EMPTY and before[sq] != EMPTY and
                                     before[sq] != c) else 0
        self.refresh()

    def idle(self):
        return (self.held < 0 and self.victim < 0 and self.drop_sq < 0 and
                self.place_sq < 0)

    # --- events ----------------------------------------------------------------------------
    def lift(self, sq, t):
        """A square became empty (self.sensed already updated). Returns True if state
        changed in a way the screen should show."""
        self.note = ""
        if sq == self.error_sq:
            self.error_sq = NONE
        if self.restore[sq]:
            self.restore[sq] = 2
            return True
        if sq == self.drop_sq:                 # lifted again before it settled: hovering
            self.drop_sq = NONE
            self.refresh()
            return True
        if sq == self.place_sq:
            self.place_sq = NONE
            self.place_ready = False
            self.refresh()
            return True
        if not self.expect[sq]:
            return True                        # a misplaced piece taken away again
        g = self.game
        if g.over:
            return True
        if g.placing() >= 0:
            self.note = "Place Barragoon"
            self.warn = 1
            return True
        if self.mismatches(sq):
            self.note = "Fix the board"
            self.warn = 1
            return True
        c = g.pos.get(sq)
        side = g.pos.side
        if self._own(c, side):
            return self._lift_own(sq)
        return self._lift_other(sq)

    def _lift_own(self, sq):
        name = square_name
        if self.held >= 0:
            self.note = "Move " + name(self.held) + " first"
            self.warn = 1
            return True
        if self.touched >= 0 and sq != self.touched:
            self.note = "Must move " + name(self.touched)
            self.warn = 1
            return True
        if self.victim >= 0 and not self.can_capture(sq, self.victim):
            if self.capturers[self.victim] or self.any_capturer(self.victim):
                self.note = "Capture with lit"
            else:
                self.note = "Put " + name(self.victim) + " back"
            self.warn = 1
            return True
        if self.must_capture >= 0 and not self.can_capture(sq, self.must_capture):
            self.note = "Capture " + name(self.must_capture)
            self.warn = 1
            return True
        self.held = sq
        self.refresh()
        if self.allowed == _ZERO63:
            self.note = name(sq) + " can't move"
        return True

    def _lift_other(self, sq):
        if self.victim >= 0:
            self.note = "Put " + square_name(sq) + " back"
            self.warn = 1
            return True
        if self.held >= 0:
            if not self.can_capture(self.held, sq) or (self.must_capture >= 0 and
                                                       self.must_capture != sq):
                self.note = square_name(self.held) + " can't take it"
                self.warn = 1
                return True
        elif self.must_capture >= 0 and sq != self.must_capture:
            self.note = "Capture " + square_name(self.must_capture)
            self.warn = 1
            return True
        self.victim = sq
        self.refresh()
        return True

    def drop(self, sq, t):
        """A square became occupied (self.sensed already updated)."""
        self.note = ""
        if self.restore[sq] == 2:
            self.restore[sq] = 0
        if self.expect[sq]:
            return True                        # something put back where it belongs
        g = self.game
        if sq == self.held:
            return self._put_back_held(sq)
        if self.held >= 0 and self.allowed[sq] and (self.allowed[sq] == T_MOVE or
                                                    sq == self.victim):
            # On the lifted victim's square this is the capture: once both are lifted and
            # the held tile can take it, the rules oblige the capture.
            self.drop_sq = sq
            self.drop_t = t
            self.refresh()
            return True
        if sq == self.victim:
            return self._put_back_victim(sq)
        if (g.placing() >= 0 and self.idle() and g.pos.get(sq) == EMPTY
                and not self.mismatches(sq)):
            self.place_sq = sq
            self.place_t = t
            self.refresh()
            return True
        if self.held >= 0:                     # an illegal set-down: flash it
            self.error_sq = sq
            self.note = square_name(sq) + ": no target"
            self.warn = 1
        return True                            # else a desync: the LEDs show the fix

    def _put_back_held(self, sq):
        self.held = NONE
        if self.game.targets(sq):
            self.touched = sq
            self.note = "Touch-move: " + square_name(sq)
            self.warn = 1
        self.refresh()
        return True

    def _put_back_victim(self, sq):
        self.victim = NONE
        # Rule 4.6: a piece touched after an own tile must be captured only by that tile.
        first = self.held if self.held >= 0 else self.touched
        if first >= 0:
            must = self.can_capture(first, sq)
        else:
            must = self.any_capturer(sq)
        if must:
            self.must_capture = sq
            self.note = "Must capture " + square_name(sq)
            self.warn = 1
        self.refresh()
        return True

    # --- time ------------------------------------------------------------------------------
    def tick(self, t):
        """Commit set-downs that have rested for the settle time. Returns an action code:
        0 nothing, 1 a move was made, 2 a Barragoon is ready for its face."""
        if self.drop_sq >= 0 and ticks_diff(t, self.drop_t) >= self.settle_ms and self.held >= 0:
            frm, to = self.held, self.drop_sq
            self.held = self.victim = self.drop_sq = NONE
            self.touched = self.must_capture = NONE
            try:
                self.game.move(frm, to)
            except RulesError as e:            # cannot happen when allowed[] is right
                self.note = str(e)[:16]
            self.refresh(True)
            return 1
        if (self.place_sq >= 0 and not self.place_ready
                and ticks_diff(t, self.place_t) >= self.settle_ms):
            self.place_ready = True
            return 2
        return 0

    def place(self, face):
        """Confirm the face of the Barragoon standing on place_sq."""
        sq = self.place_sq
        self.place_sq = NONE
        self.place_ready = False
        self.game.place(sq, face)
        self.refresh(True)

    def reset_hands(self):
        self.held = self.victim = self.touched = self.must_capture = NONE
        self.drop_sq = self.place_sq = self.error_sq = NONE
        self.place_ready = False
        self.note = ""
        self.restore[:] = _ZERO63
        self.refresh(True)
