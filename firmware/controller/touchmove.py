# Touch-move (rule 4.6) as the board applies it, mixed into the Judge (controller/judge.py).
#
# Only lifts that last ADJUST_MS are touches, and only the side to move takes on duties: the
# first own tile touched that has a legal move must move (tiles lifted in the same scan share
# that duty: no precedence); a piece touched after it that it can capture must be captured; a
# Barragoon touched first must be captured if an own tile can. An opponent tile lifted by
# itself creates no duty for anybody (the board cannot tell whose hand it was). Duties carried
# over (a saved game, a repaired board) come first. They are saved with the game as
# duty_text(), e.g. 'd2 d5'.
from controller.stories import elapsed, own, is_barragoon

_ZERO = bytes(63)


class TouchMove:
    def duty_text(self):
        """The open turn's touch-move duties as saved with the game: 'd2,e2 d5' (move one of
        d2/e2, capture d5), '-' for none of a kind, '' when there are none."""
        if self.committed >= 0 or not self.active:
            return ""
        from barragoon.notation import square_name
        ms = ""
        for sq in range(63):
            if self.duty[sq]:
                ms += ("," if ms else "") + square_name(sq)
        if not ms and self.duty_take < 0:
            return ""
        return (ms or "-") + " " + (square_name(self.duty_take) if self.duty_take >= 0
                                     else "-")

    def _duties_unsaved(self):
        """Do the duties differ from the saved ones? Asked at every rest: no string built."""
        if self.committed >= 0 or not self.active:      # (duty_text() is then '')
            return self.sv_take >= 0 or self.sv_duty != _ZERO
        return self.duty_take != self.sv_take or self.duty != self.sv_duty

    def duties_saved(self):
        """The controller saves duty_text() with the game now."""
        if self.committed >= 0 or not self.active:
            self.sv_duty[:] = _ZERO
            self.sv_take = -1
        else:
            self.sv_duty[:] = self.duty
            self.sv_take = self.duty_take

    def _parse_duties(self, text):
        from barragoon.notation import parse_square
        parts = text.split() if text else ()
        if len(parts) != 2:
            return
        try:
            if parts[0] != "-":
                for name in parts[0].split(","):
                    self.fixed[parse_square(name)] = 1
            if parts[1] != "-":
                self.fixed_take = parse_square(parts[1])
        except Exception:                  # a damaged tag costs the duty, never the game
            self.fixed[:] = _ZERO
            self.fixed_take = -1

    def _mine_at(self, sq, t):
        """An own tile with a legal move, touched at time t."""
        return self.touched[sq] and self.touch_t[sq] == t and own(self.b0[sq], self.side) \
            and self.movable[sq]

    def _can(self, frm, to):
        return (frm << 6) + to in self.moves

    def _capturable(self, v):
        for m in self.moves:
            if m & 63 == v:
                return True
        return False

    def _duties(self):
        """Recompute the duties from the carried-over ones and the touches in time order.
        They are saved with the game at the next rest (see _decide), not at every touch:
        a normal move then costs one flash write, not two."""
        d = self.duty
        old = self.duty_old                # (preallocated: a touch allocates nothing)
        old[:] = d
        old_take = self.duty_take
        d[:] = self.fixed
        take = self.fixed_take
        has = d != _ZERO
        # the carried-over duties name real tiles and victims of this position only
        for sq in range(63):
            if d[sq] and not self.movable[sq]:
                d[sq] = 0
        if take >= 0 and not self._capturable(take):
            take = -1
        b0, side, tt = self.b0, self.side, self.touch_t
        last = None
        while True:
            t = None
            for sq in range(63):
                if self.touched[sq] and (last is None or elapsed(tt[sq], last) > 0) and \
                        (t is None or elapsed(tt[sq], t) < 0):
                    t = tt[sq]
            if t is None:
                break
            mine = vic = 0                 # own movable tiles and other pieces touched at t
            v = -1
            for sq in range(63):
                if self.touched[sq] and tt[sq] == t:
                    c = b0[sq]
                    if own(c, side):
                        if self.movable[sq]:
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
                elif is_barragoon(b0[v]) and self._capturable(v):
                    take = v
            last = t
        self.duty_take = take
        self.has_duty = d != _ZERO
        if d != old or take != old_take:
            self.tgt_for = -1
        return 0

    def allows(self, frm, to):
        """Touch-move allows the legal move frm-to of the side to move now."""
        return self.committed >= 0 or self._allowed(frm, to)

    def _allowed(self, frm, to):
        """Touch-move allows the legal move frm-to."""
        if self.duty_take >= 0 and to != self.duty_take:
            return False
        for sq in range(63):
            if self.duty[sq]:
                return self.duty[frm] == 1
        return True

    def _touch(self, sq, t0):
        if self.touched[sq] or not self.b0[sq]:
            return 0
        self.touched[sq] = 1
        self.touch_t[sq] = t0
        if self.pending:
            self.pending -= 1
        if self.committed >= 0 or self.game.placing() >= 0:
            return 0
        return self._duties()

    def _touch_scan(self, t):
        before = self.pending
        s, b0 = self.sensed, self.b0        # (a 4-tuple unpack would allocate)
        tch, vt = self.touched, self.vac_t
        seen = self.seen_sq
        for i in range(self.seen_n):
            sq = seen[i]
            if b0[sq] and not s[sq] and not tch[sq] and elapsed(t, vt[sq]) >= self.adjust:
                self._touch(sq, vt[sq])
        if self.pending != before:         # a lift became a touch: duties may show
            self._live()
            return True
        return False

    def _keep_duties(self):
        for sq in range(63):
            if self.duty[sq]:
                self.fixed[sq] = 1
        if self.duty_take >= 0:
            self.fixed_take = self.duty_take
