# The question the judge puts when the sensors cannot tell (controller/judge.py): the options,
# each a kind (K_MOVE, K_NONE, K_PLACE, K_BAD, K_WAIT, K_OK from stories.py), two numbers (the
# move's squares, or a placement's square and 1 for "whose Barragoon") and the story that tells
# it; in preallocated arrays, the likeliest first (that is the preselected answer).
from controller.i18n import t as _t
from controller.stories import MAXH, NOHOME, K_NONE, K_MOVE, K_PLACE, K_BAD, K_WAIT, K_OK


class Question:
    def __init__(self):
        self.n = 0                         # options (0: no question)
        self.even = False                  # the first two are as likely as each other
        self.kind = bytearray(MAXH + 1)
        self.a = bytearray(MAXH + 1)
        self.b = bytearray(MAXH + 1)
        self.h = bytearray(MAXH + 1)       # the story that tells it

    def add(self, kind, a, b, i):
        n = self.n
        self.kind[n] = kind
        self.a[n] = a
        self.b[n] = b
        self.h[n] = i
        self.n = n + 1

    def order(self, hs, committed):
        """The likeliest first (hs: the stories, by their cost); of equally likely ones, the
        move that stands committed (or the placement), the other moves, "nothing happened",
        then the rest. even: the first two are as likely as each other (the preselection is
        only an order)."""
        n = self.n
        for i in range(n):
            j = i
            while j > 0 and self._rank(j, hs, committed) < self._rank(j - 1, hs, committed):
                for arr in (self.kind, self.a, self.b, self.h):
                    arr[j], arr[j - 1] = arr[j - 1], arr[j]
                j -= 1
        self.even = n > 1 and self.kind[1] <= K_BAD and \
            hs[self.h[0]].cost == hs[self.h[1]].cost

    def _rank(self, j, hs, committed):
        k = self.kind[j]
        r = hs[self.h[j]].cost * 4 if k <= K_BAD else 1000
        if k == K_MOVE and (self.a[j] << 6) + self.b[j] == committed or k == K_PLACE:
            return r                       # (what the board shows: the likelier of equals)
        if k == K_MOVE:
            return r + 1
        if k == K_NONE:
            return r + 2
        return r + 3

    def label(self, j, hs, b0, committed, brown_places):
        """Text of option j (at most 16 characters). b0: the open turn's start position;
        brown_places: Brown's placement is due."""
        from barragoon.notation import square_name, format_move
        k = self.kind[j]
        a, b = self.a[j], self.b[j]
        if k == K_NONE:
            return _t("No capture") if committed >= 0 and b0[committed & 63] \
                else _t("Nothing moved")
        if k == K_MOVE:
            h = hs[self.h[j]]
            if h.p0 != NOHOME and (a << 6) + b == committed:
                return _t("Barragoon on %s") % square_name(h.p0)   # (the move as made)
            return format_move(a, b, 1 if b0[b] else 0)
        if k == K_PLACE and b == 1:
            return (_t("Brown's on %s") if brown_places else _t("White's on %s")) % \
                square_name(a)
        if k == K_PLACE:
            return _t("Barragoon on %s") % square_name(hs[self.h[j]].p0)
        if k == K_WAIT:
            return _t("Not yet")
        if k == K_OK:
            return _t("Yes, all back")
        return _t("Pieces swapped")
