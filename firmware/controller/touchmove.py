# Touch-move (rule 4.6) as the board applies it (used by controller/judge.py).
#
# A lift is a touch once it has lasted ADJUST_MS (shorter ones that end on the same square are
# straightening), and only the side to move takes on duties: the first own tile touched that
# has a legal move must move (tiles lifted in the same scan share that duty: no precedence); a
# piece touched after it that it can capture must be captured; a Barragoon touched first must
# be captured if an own tile can. An opponent tile lifted by itself creates no duty for anybody
# (the board cannot tell whose hand it was), and once the mover has set a tile down on a square
# it may go to, the move is made: touches after it (a knocked neighbour, a piece straightened)
# bind nobody. Duties carried over (a saved game, a repaired board) come first. They are saved
# with the game as text(), e.g. 'd2 d5'.
from barragoon.core import ZEROS
from controller.stories import own, is_barragoon
from controller.ticks import ticks_diff as elapsed


class TouchMove:
    """The duties of the open turn (turn: controller.stories.Turn)."""

    def __init__(self, turn, adjust_ms):
        self.turn = turn
        self.adjust = adjust_ms
        self.touched = bytearray(63)       # touched in the open turn (2: binding nobody) ...
        self.touch_t = [0] * 63            # ... when the lift began (small ints: no heap)
        self.pending = 0                   # turn-start squares lifted, not yet touches
        self.fixed = bytearray(63)         # duties carried over (saved game, repair)
        self.fixed_take = -1
        self.duty = bytearray(63)          # the move must start on a marked square
        self.take = -1                     # ... and capture this square
        self.any = False                   # some square is marked in duty
        self.sv_duty = bytearray(63)       # the duties as last saved
        self.sv_take = -1
        self.old = bytearray(63)           # (recompute: what changed)
        self.free_to = 0                   # lifts that began before this may be a knock of
        self.free = False                  # ... the last mover's hand: no duty (free)
        self.made = 0                      # when the mover set a tile down where it may go:
        self.made_ok = False               # ... the move is made, later lifts bind nobody
        self.changed = False               # the duties changed since the view last asked

    # --- the turn --------------------------------------------------------------------------
    def begin(self, text):
        """A game taken up with its saved duties (text())."""
        self.fixed[:] = ZEROS
        self.fixed_take = -1
        self.duty[:] = ZEROS
        self.take = -1
        self._parse(text)
        self.sv_duty[:] = self.fixed       # as the file has them
        self.sv_take = self.fixed_take
        self.touched[:] = ZEROS
        self.pending = 0
        self.made_ok = self.free = False

    def new_turn(self, keep, free_to=None):
        """A fresh turn: keep carries the open turn's duties over (a repair), else none.
        free_to: lifts that began before it bind nobody (the last mover's hand may have
        knocked the piece)."""
        self.free = free_to is not None
        if self.free:
            self.free_to = free_to
        self.made_ok = False
        if keep:
            self.carry()
        else:
            self.fixed[:] = ZEROS
            self.fixed_take = -1
        self.touched[:] = ZEROS
        self.pending = 0
        if self.fixed_take < 0 and self.fixed == ZEROS:
            self.duty[:] = ZEROS           # (the common case, without a scan)
            self.take = -1
            self.any = False
            self.changed = True
        else:
            self.recompute()

    def carry(self):
        """The open turn's duties become carried-over ones (the board is being repaired)."""
        for sq in range(63):
            if self.duty[sq]:
                self.fixed[sq] = 1
        if self.take >= 0:
            self.fixed_take = self.take

    # --- touches ---------------------------------------------------------------------------
    def lifted(self, sq):
        """A turn-start square was emptied: it may become a touch."""
        if self.turn.b0[sq] and not self.touched[sq]:
            self.pending += 1

    def returned(self, sq):
        """A piece came back on sq before its lift became a touch."""
        if self.turn.b0[sq] and not self.touched[sq] and self.pending:
            self.pending -= 1

    def touch(self, sq, t0, binds):
        """The lift of sq that began at t0 is a touch; binds: it may create a duty (the mover's
        turn, no move made yet). Returns True if the duties changed."""
        if self.touched[sq] or not self.turn.b0[sq]:
            return False
        self.touch_t[sq] = t0
        if self.pending:
            self.pending -= 1
        if not binds or self.free and elapsed(t0, self.free_to) < 0 or \
                self.made_ok and elapsed(t0, self.made) >= 0:
            self.touched[sq] = 2           # touched, binding nobody
            return False
        self.touched[sq] = 1
        return self.recompute()

    def made_at(self, t):
        """The mover set a tile down at t on a square it may go to: the move is made. Touches
        that began at t or later bind nobody, also those counted before the board knew (a
        knock in the scan that ended a slide). Returns True if the duties changed."""
        self.made_ok = True
        self.made = t
        tch, tt = self.touched, self.touch_t
        freed = False
        for sq in range(63):
            if tch[sq] == 1 and elapsed(tt[sq], t) >= 0:
                tch[sq] = 2
                freed = True
        return freed and self.recompute()

    def scan(self, t, sensed, binds):
        """Lifts that have lasted become touches. Returns True if any did."""
        before = self.pending
        tn = self.turn
        b0, vt, tch = tn.b0, tn.vac_t, self.touched
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            sq = seen[i]
            if b0[sq] and not sensed[sq] and not tch[sq] and elapsed(t, vt[sq]) >= self.adjust:
                self.touch(sq, vt[sq], binds)
        return self.pending != before

    # --- the duties ------------------------------------------------------------------------
    def _can(self, frm, to):
        return self.turn.legal(frm, to)

    def capturable(self, v):
        tn = self.turn
        if not tn.dest[v]:
            return False
        moves = tn.moves
        for i in range(len(moves)):
            if moves[i] & 63 == v:
                return True
        return False

    def _mine_at(self, sq, t):
        tn = self.turn
        return self.touched[sq] == 1 and self.touch_t[sq] == t and own(tn.b0[sq], tn.side) \
            and tn.movable[sq]

    def recompute(self):
        """The duties from the carried-over ones and the touches in time order. Returns True
        if they changed."""
        tn = self.turn
        d = self.duty
        old = self.old                     # (preallocated: a touch allocates nothing)
        old[:] = d
        old_take = self.take
        d[:] = self.fixed
        take = self.fixed_take
        has = d != ZEROS
        # the carried-over duties name real tiles and victims of this position only
        for sq in range(63):
            if d[sq] and not tn.movable[sq]:
                d[sq] = 0
        if take >= 0 and not self.capturable(take):
            take = -1
        b0, side, tt = tn.b0, tn.side, self.touch_t
        last = None
        while True:
            t = None
            for sq in range(63):
                if self.touched[sq] == 1 and (last is None or elapsed(tt[sq], last) > 0) \
                        and (t is None or elapsed(tt[sq], t) < 0):
                    t = tt[sq]
            if t is None:
                break
            mine = vic = 0                 # own movable tiles and other pieces touched at t
            v = -1
            for sq in range(63):
                if self.touched[sq] == 1 and tt[sq] == t:
                    c = b0[sq]
                    if own(c, side):
                        if tn.movable[sq]:
                            mine += 1
                    elif c:
                        vic += 1
                        v = sq
            if mine and not has:
                ok = take < 0
                for o in range(63):
                    if take >= 0 and self._mine_at(o, t) and self._can(o, take):
                        ok = True
                if ok:
                    for o in range(63):
                        if self._mine_at(o, t):
                            d[o] = 1
                    has = True
            if vic == 1 and not mine and take < 0:
                if has:
                    for o in range(63):
                        if d[o] and self._can(o, v):
                            take = v
                elif is_barragoon(b0[v]) and self.capturable(v):
                    take = v
            last = t
        self.take = take
        self.any = d != ZEROS
        if d != old or take != old_take:
            self.changed = True
            return True
        return False

    def allowed(self, frm, to):
        """Touch-move allows the legal move frm-to."""
        if self.take >= 0 and to != self.take:
            return False
        if self.any:
            return self.duty[frm] == 1
        return True

    def bound(self):
        """Some duty binds the open turn."""
        return self.any or self.take >= 0

    # --- saving ----------------------------------------------------------------------------
    def text(self, open_):
        """The duties as saved with the game: 'd2,e2 d5' (move one of d2/e2, capture d5), '-'
        for none of a kind, '' when there are none. open_: the turn is open (no move made)."""
        if not open_:
            return ""
        from barragoon.notation import square_name
        ms = ""
        for sq in range(63):
            if self.duty[sq]:
                ms += ("," if ms else "") + square_name(sq)
        if not ms and self.take < 0:
            return ""
        return (ms or "-") + " " + (square_name(self.take) if self.take >= 0 else "-")

    def unsaved(self, open_):
        """Do the duties differ from the saved ones? Asked at every rest: no string built."""
        if not open_:                      # (text() is then '')
            return self.sv_take >= 0 or self.sv_duty != ZEROS
        return self.take != self.sv_take or self.duty != self.sv_duty

    def saved(self, open_):
        """The game was saved with text(open_)."""
        if not open_:
            self.sv_duty[:] = ZEROS
            self.sv_take = -1
        else:
            self.sv_duty[:] = self.duty
            self.sv_take = self.take

    def _parse(self, text):
        from barragoon.notation import parse_square
        parts = text.split() if text else ()
        if len(parts) == 3 and parts[2] == "fix":
            parts = parts[:2]              # (the board was being put right: judge.duty_text)
        if len(parts) != 2:
            return
        try:
            if parts[0] != "-":
                for name in parts[0].split(","):
                    self.fixed[parse_square(name)] = 1
            if parts[1] != "-":
                self.fixed_take = parse_square(parts[1])
        except Exception:                  # a damaged tag costs the duty, never the game
            self.fixed[:] = ZEROS
            self.fixed_take = -1
