# The physical stories the judge keeps (controller/judge.py): each is one history of the hands
# that fits every sensor event of the open turn: which piece stands on which square (pieces
# that came from outside - the supply, the box, a spare - are NEW), which pieces are in the
# hands, and how surprising the story is (its cost). Setting a piece down while the hands hold
# different pieces branches the stories; equal stories are merged; when there is no room, the
# least likely give way.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from barragoon.core import TILE, BROWN_BIT, MAX_BARRAGOON

NEW = const(0xFE)         # a piece from outside the turn (supply, box, stray): identity unknown
NOHOME = const(0xFF)
MAXH = const(12)          # stories kept
AIRN = const(8)           # pieces in hands per story
SWAP_MS = const(80)       # no hand takes a piece off a square and sets another one on it
#                           faster than this: a shorter gap is the same piece (a bounce)

# What a story shows, judged against the game (Judge._classify).
# (the valid kinds NONE, MOVE, PLACE are consecutive: the judge tests K_NONE <= k <= K_PLACE)
K_OPEN = const(0)         # a piece is still in a hand, or stands where nothing explains it
K_NONE = const(1)         # every piece back where the turn started
K_MOVE = const(2)         # exactly the position one legal move produces (its victim in a hand)
K_PLACE = const(3)        # after the committed capture, a Barragoon stands on an empty square
K_BAD = const(4)          # every piece down, but in no legal arrangement (two tiles swapped)
K_DUTY = const(5)         # a legal move that touch-move forbids
K_WAIT = const(6)         # (an answer) none of these: the short lift was only an adjustment
K_OK = const(7)           # (an answer) every piece is back where the turn started


def elapsed(t, t0):
    # ticks_diff for 30-bit millisecond ticks (the RP2040's time.ticks_ms wraps at 2**30)
    return ((t - t0 + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def is_tile(c):
    return c & TILE and c < NEW


def own(c, side):
    return c & TILE and c < NEW and ((c & BROWN_BIT) != 0) == (side == 1)


def is_barragoon(c):
    return 0 < c <= MAX_BARRAGOON


class Hyp:
    """One physical history: what stands where, what is in the hands, and its cost (how
    surprising it is: a short lift that came back holding a different piece costs 2, a piece
    from outside set down while the hands hold pieces of the game costs 1)."""

    def __init__(self):
        self.board = bytearray(63)     # piece codes, NEW for unknown pieces
        self.home = bytearray(63)      # square each piece stood on at the turn start
        self.ac = bytearray(AIRN)      # in hands: codes ...
        self.ah = bytearray(AIRN)      # ... home squares ...
        self.af = bytearray(AIRN)      # ... and the square each was last lifted from
        self.gone = bytearray(63)      # the piece last lifted from each square (a set-down
        #                                faster than SWAP_MS brings that one back)
        self.n = 0
        self.cost = 0
        self.swaps = 0                 # short lifts that came back holding another piece
        self.kind = K_OPEN
        self.a = 0
        self.b = 0
        self.over = False              # more pieces in hands than tracked

    def copy(self, o):
        self.board[:] = o.board
        self.home[:] = o.home
        self.ac[:] = o.ac
        self.ah[:] = o.ah
        self.af[:] = o.af
        self.gone[:] = o.gone
        self.n = o.n
        self.cost = o.cost
        self.swaps = o.swaps
        self.over = o.over

    def reset(self, codes):
        self.board[:] = codes
        for sq in range(63):
            self.home[sq] = sq if codes[sq] else NOHOME
        self.gone[:] = codes
        self.n = 0
        self.cost = 0
        self.swaps = 0
        self.over = False

    def lift(self, sq):
        c = self.board[sq]
        h = self.home[sq]
        self.board[sq] = 0
        self.home[sq] = NOHOME
        if c:
            self.gone[sq] = c
        if c == 0 or c == NEW:
            return                     # an unknown piece leaves the game: nothing to track
        n = self.n
        if n == AIRN:                  # hands overflowing: forget the oldest
            self.over = True
            for k in range(AIRN - 1):
                self.ac[k] = self.ac[k + 1]
                self.ah[k] = self.ah[k + 1]
                self.af[k] = self.af[k + 1]
            n -= 1
        self.ac[n] = c
        self.ah[n] = h
        self.af[n] = sq
        self.n = n + 1

    def put(self, sq, k):
        """Set the hand piece k down on sq (k = NOHOME: a piece from outside)."""
        if k == NOHOME:
            self.board[sq] = NEW
            self.home[sq] = NOHOME
            return
        self.board[sq] = self.ac[k]
        self.home[sq] = self.ah[k]
        n = self.n - 1
        while k < n:
            self.ac[k] = self.ac[k + 1]
            self.ah[k] = self.ah[k + 1]
            self.af[k] = self.af[k + 1]
            k += 1
        self.n = n

    def count(self, c):
        n = 0
        for k in range(self.n):
            if self.ac[k] == c:
                n += 1
        return n

    def same(self, o):
        if self.n != o.n or self.board != o.board:
            return False
        for k in range(self.n):
            if self.count(self.ac[k]) != o.count(self.ac[k]):
                return False
        return True


class Stories:
    """The pool of stories (mixed into the Judge, which owns hs, nh, opt, side, game)."""

    def _drop(self, sq, short):
        # short: 0 a long gap, 1 shorter than the adjust time, 2 too short for a swap
        self._see(sq)
        placing = self.game.placing() >= 0
        n0 = self.nh
        opt = self.opt
        for i in range(n0):
            h = self.hs[i]
            no = 0
            same = -1                      # the piece that left sq, if a hand holds it
            if short:
                gone = h.gone[sq]
                if gone == NEW:            # (pieces from outside are not tracked in hands)
                    same = NOHOME
                for k in range(h.n):
                    if h.ac[k] == gone and (same < 0 or h.af[k] == sq):
                        same = k           # (of equal pieces, the one lifted from sq)
                if same >= 0:
                    opt[0] = same
                    no = 1
                    if short == 2:
                        h.put(sq, same)
                        continue
            no = self._options(h, placing, no, sq)
            if no == 0:
                h.put(sq, NOHOME)
                continue
            base = h.cost
            outside = 0 if placing or h.n == 0 else 1
            back = 0 if same >= 0 else self._back_first(h, sq, no)
            for j in range(1, no):
                cost = base + (2 if same >= 0 else 0) + (outside if opt[j] == NOHOME else 0)
                if back and self._unlikely(h, opt[j], back):
                    cost += 1
                g = self._slot(cost)
                if g is None:
                    continue
                g.copy(h)
                g.put(sq, opt[j])
                g.cost = cost
                if same >= 0:
                    g.swaps += 1
            h.put(sq, opt[0])
        self._dedupe()

    def _back_first(self, h, sq, no):
        """A piece set down where a hand took one off is most likely that piece coming back
        (a tile knocked or touched out of turn and put back, even during a placement). When
        the hands hold the piece last lifted from sq, returns its code (else 0): any other
        piece costs 1 more there, except the mover's tiles (a capture sets the attacker where
        the victim was lifted). If the first option is such a piece, that one goes first."""
        gone = h.gone[sq]
        if gone == 0 or gone == NEW:
            return 0
        held = False
        for k in range(h.n):
            if h.ac[k] == gone and h.af[k] == sq:
                held = True
        if not held:
            return 0
        opt = self.opt
        if not self._unlikely(h, opt[0], gone):
            return gone
        for j in range(1, no):
            o = opt[j]
            if o != NOHOME and h.ac[o] == gone:
                opt[j] = opt[0]
                opt[0] = o
                break
        return gone

    def _unlikely(self, h, o, back):
        # option o set where the piece `back` was lifted from: neither it nor a mover's tile
        if o == NOHOME:
            return True
        c = h.ac[o]
        return c != back and not own(c, self.side)

    def _slot(self, cost):
        """A free hypothesis for a story of this cost, or None. When all are in use, a story
        at least 2 less likely than the likeliest one gives way (or is not kept); only when
        every story is about as likely does the judge admit it has lost track."""
        hs = self.hs
        if self.nh < MAXH:
            g = hs[self.nh]
            self.nh += 1
            return g
        low = worst = 0
        for i in range(1, MAXH):
            if hs[i].cost < hs[low].cost:
                low = i
            if hs[i].cost > hs[worst].cost:
                worst = i
        floor = hs[low].cost + 2
        if hs[worst].cost >= floor and hs[worst].cost > cost:
            self.evicted = True
            return hs[worst]
        if cost < floor:
            self.pruned = True
        else:
            self.evicted = True
        return None

    def _options(self, h, placing, no, sq):
        """Which hand piece may have been set down: the mover's tiles first (in lift order),
        then the rest, then a piece from outside (the box, the supply); during a placement
        Barragoons and a piece from the supply first. With empty hands it can only be a piece
        from outside."""
        opt = self.opt
        if h.n == 0:
            opt[no] = NOHOME
            return no + 1
        side = self.side
        for rnd in (0, 1):
            for k in range(h.n):
                c = h.ac[k]
                pref = is_barragoon(c) if placing else own(c, side)
                if pref == (rnd == 0) and not self._has(opt, no, c, h):
                    for k2 in range(k, h.n):   # of equal pieces, the one coming home
                        if h.ac[k2] == c and h.ah[k2] == sq:
                            k = k2
                    opt[no] = k
                    no += 1
            if rnd == 0 and placing and not self._has(opt, no, NOHOME, h):
                opt[no] = NOHOME
                no += 1
        if not self._has(opt, no, NOHOME, h):
            opt[no] = NOHOME
            no += 1
        return no

    def _has(self, opt, no, c, h):
        # is a piece with code c (NOHOME: the outside piece) among the options already?
        for j in range(no):
            o = opt[j]
            if o == NOHOME:
                if c == NOHOME:
                    return True
            elif c != NOHOME and h.ac[o] == c:
                return True
        return False

    def _dedupe(self):
        hs = self.hs
        i = 0
        while i < self.nh:
            j = i + 1
            while j < self.nh:
                if hs[i].same(hs[j]):
                    if hs[j].cost < hs[i].cost:
                        hs[i].cost = hs[j].cost
                    last = self.nh - 1
                    hs[j], hs[last] = hs[last], hs[j]
                    self.nh = last
                else:
                    j += 1
            i += 1
        best = 0
        for i in range(1, self.nh):
            if hs[i].cost < hs[best].cost:
                best = i
        if best:
            hs[0], hs[best] = hs[best], hs[0]
