# What a story shows, judged against the open turn (controller/judge.py): the kind K_* of
# stories.py, and for a move its squares (m, a, b), the Barragoons standing for its placements
# (p0, p1, in the order they were set down) and the next mover's tiles already lifted (nx).
# Pure: reads the turn, the story and the touch-move duties; allocates nothing.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from controller.stories import (
    NEW, NOHOME, K_OPEN, K_NONE, K_MOVE, K_PLACE, K_BAD, K_DUTY, elapsed as _el, own as _own,
    is_barragoon as _barragoon, is_tile as _tile)

_DN = const(16)           # differing squares a story may have and still be classified


class Kinds:
    def __init__(self, turn, tm):
        self.turn = turn
        self.tm = tm                       # TouchMove: a move it forbids is K_DUTY
        self.dsq = bytearray(_DN)          # scratch: the squares where a story differs

    def classify(self, h, committed, due):
        """Set h.kind (and m, p0, p1, nx) against the open turn. committed: the move the game
        holds for this turn (-1 none); due: placements the game waits for (when the turn is
        a placement)."""
        tn = self.turn
        b0, bd = tn.b0, h.board
        d = self.dsq
        nd = 0
        new = False
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            sq = seen[i]
            if bd[sq] != b0[sq]:
                if nd < _DN:
                    d[nd] = sq
                nd += 1
                if bd[sq] == NEW:
                    new = True
        h.kind = K_OPEN
        h.m = h.nx = 0
        h.p0 = h.p1 = NOHOME
        if nd == 0:
            if h.n == 0:
                h.kind = K_NONE
            return
        if nd > _DN:
            return
        if tn.placing:
            # a placement is due, no move open: Barragoons on empty squares, and tiles of the
            # next mover lifted (the next turn begun early)
            nx = 0
            for i in range(nd):
                sq = d[i]
                c = bd[sq]
                if not c and _own(b0[sq], 1 - tn.side):
                    nx += 1
                elif b0[sq] or not (c == NEW or _barragoon(c)):
                    return
            if 0 < nd - nx <= due and h.n == nx:
                h.kind = K_PLACE
                h.nx = nx
                for i in range(nd):
                    if bd[d[i]]:
                        self._placement(h, d[i])
            return
        side = tn.side
        for i in range(nd):
            frm = d[i]
            tile = b0[frm]
            if not _own(tile, side):
                continue
            for j in range(nd):
                to = d[j]
                if to != frm and bd[to] == tile and tn.legal(frm, to) and \
                        self._move_fits(h, nd, frm, to, committed):
                    return
        if h.n == 0 and not new:
            h.kind = K_BAD

    def _placement(self, h, sq):
        # Barragoons for placements in the order they were set down
        put = self.turn.put_t
        if h.p0 == NOHOME:
            h.p0 = sq
        elif _el(put[sq], put[h.p0]) < 0 or put[sq] == put[h.p0] and sq < h.p0:
            h.p1 = h.p0
            h.p0 = sq
        else:
            h.p1 = sq

    def _move_fits(self, h, nd, frm, to, committed):
        """Is story h the move frm-to (the tile stands on to), with Barragoons for its
        placements and pieces of the next turn lifted (or slid on)? Sets h's kind if so."""
        tn = self.turn
        b0, bd, d = tn.b0, h.board, self.dsq
        victim = b0[to]
        due = 0 if not victim else (2 if _tile(victim) else 1)
        side = tn.side
        extra = 0                          # pieces lifted after the move, in hands
        nx = 0                             # ... of them the opponent's tiles
        back = False                       # the captured Barragoon set down again
        h.p0 = h.p1 = NOHOME
        for i in range(nd):
            sq = d[i]
            if sq == to:
                continue
            c = bd[sq]
            if sq == frm and c == 0:
                continue
            if c and due and (sq == frm or not b0[sq]) and (c == NEW or _barragoon(c) and (
                    h.home[sq] == NOHOME or h.home[sq] == to)):
                # (from the supply, or the captured one: a Barragoon of the game pushed
                # off its square is no placement)
                if h.p1 != NOHOME:
                    return False
                self._placement(h, sq)
                if c == victim:
                    back = True
                continue
            if c == 0 and b0[sq] and (not _own(b0[sq], side) or
                                      _el(tn.vac_t[sq], tn.put_t[to]) >= 0):
                # lifted after the move or in the same scan (an own tile lifted before it
                # landed is in the mover's hand: the turn goes on)
                if self.away(h, nd, sq) < 0:
                    extra += 1
                if _own(b0[sq], 1 - side):
                    nx += 1
                continue
            if c and _own(c, 1 - side) and self.away(h, nd, h.home[sq]) == sq:
                continue                   # a tile of the next turn slid on from its square
            return False
        if h.np > due:
            return False
        held = 1 if victim and not back else 0
        if h.n != held + extra:
            return False
        if held and h.held(victim) < 0:
            return False
        for i in range(nd):
            sq = d[i]
            if sq != frm and sq != to and bd[sq] == 0 and b0[sq] and \
                    h.count(b0[sq]) < (2 if held and b0[sq] == victim else 1) and \
                    self.away(h, nd, sq) < 0:
                return False
        h.m = (frm << 6) + to
        h.nx = nx
        h.kind = K_MOVE if committed == (frm << 6) + to or self.tm.allowed(frm, to) \
            else K_DUTY
        return True

    def away(self, h, nd, sq):
        """Where story h has the next turn's tile from the empty square sq standing on a
        neighbouring square (slid on: not in a hand), or -1. (nd: the squares in dsq.)"""
        if sq == NOHOME:
            return -1
        tn = self.turn
        c, d = tn.b0[sq], self.dsq
        if not _own(c, 1 - tn.side) or h.board[sq]:
            return -1
        for i in range(nd):
            s = d[i]
            if s != sq and h.home[s] == sq and h.board[s] == c and \
                    abs(s % 7 - sq % 7) <= 1 and abs(s // 7 - sq // 7) <= 1:
                return s
        return -1

    def plain(self, h):
        """Does valid story h leave nothing in the hands and no piece from outside on the
        board (but Barragoons for its placements)? Then every square is as a legal turn left
        it: a likelier story with a piece in a hand differs from it only where the sensors
        cannot see (a spare standing in that piece's place), and does not hold the turn up."""
        if h.n:
            return False
        bd = h.board
        seen = self.turn.seen_sq
        for i in range(self.turn.seen_n):
            sq = seen[i]
            if bd[sq] == NEW and sq != h.p0 and sq != h.p1:
                return False
        return True

    def move_made(self, h):
        """The square where story h has a tile of the mover set down that it may go to (by
        the rules the move is then made: touches after it bind nobody), or -1."""
        tn = self.turn
        bd, b0, side = h.board, tn.b0, tn.side
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            sq = seen[i]
            hm = h.home[sq]
            if bd[sq] != b0[sq] and hm != sq and hm != NOHOME and _own(bd[sq], side) and \
                    tn.legal(hm, sq):
                return sq
        return -1
