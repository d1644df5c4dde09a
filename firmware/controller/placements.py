# Barragoon placements on the physical board (controller/judge.py): which standing Barragoon
# gets its face next, whether two set down together must be asked about, whether the face
# buttons count before the board has acted, and a placed Barragoon lifted again at once.
from controller import timing
from controller.stories import NOHOME, NEW, K_PLACE, elapsed as _el, is_barragoon as _barragoon


class Placements:
    def __init__(self, turn, pool, q):
        self.turn = turn
        self.pool = pool
        self.q = q                         # the judge's Question
        self.sq = -1                       # a Barragoon waiting for its face here
        self._pad0 = 0                     # (room: see Judge's _pad0)

    def choose(self, h, due, sq):
        """Story h has Barragoons standing for the due placements (p0 first down, p1): sq's
        gets its face next (True), unless two were set down together for two placements and
        neither has been chosen: then whose is whose is asked (q filled, False; the first
        down, the rules' order, preselected; either is as likely)."""
        put = self.turn.put_t
        if h.p1 != NOHOME and due == 2 and _el(put[h.p1], put[h.p0]) < timing.TOGETHER_MS \
                and self.sq != h.p0 and self.sq != h.p1:
            q = self.q
            q.n = 0
            q.add(K_PLACE, h.p0, 1, 0)
            q.add(K_PLACE, h.p1, 1, 0)
            q.even = True
            return False
        self.sq = sq
        return True

    def coming(self):
        """The likeliest story has a capture and a Barragoon standing for its placement that
        the judge has not acted on yet: the face buttons count for it."""
        pool, tn = self.pool, self.turn
        h = pool.hs[0]
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            sq = seen[i]
            c = h.board[sq]
            if c != tn.b0[sq] and (c == NEW or _barragoon(c)) and pool._free(h, sq):
                return pool._placement_due(h)
        return False

    def ready(self, sensed):
        """A Barragoon stands on sq: its face may be confirmed (at any time)."""
        return self.sq >= 0 and sensed[self.sq] == 1

    def lifted_since(self, sq, c):
        """The Barragoon c placed on sq was lifted since OK went down: in every story it is in
        a hand (the next player's victim)."""
        pool = self.pool
        hs = pool.hs
        for i in range(pool.nh):
            if not hs[i].board[sq] and hs[i].held(c) < 0:
                hs[i].hold(c, sq, self.turn.vac_t[sq])
