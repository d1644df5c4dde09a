# The physical stories the judge keeps (controller/judge.py). A story is one history of the
# hands that fits every sensor event since the open turn began: which piece stands on which
# square (pieces that came from outside - the supply, the box, a spare - are NEW), which pieces
# are in the hands, and how surprising the story is (its cost). A piece set down while the hands
# hold different pieces branches the stories, one per piece it may be; a piece lifted beside a
# piece from outside that was set down while it still stood branches too (it may have slid
# there: a magnet between two squares closes both sensors); equal stories merge. Time and
# physics only rank: a set-down costs more when it is unusual (a different piece on a square a
# moment after its piece left, a stray piece, a tile put down where it cannot go, a piece that
# would have flown faster than a hand carries one), never is a story deleted for it. When there
# is no room, the least likely give way; only when every story is about as likely as the new
# one does the judge admit that it has lost track.
#
# Turn holds the facts of the open turn the stories are judged against (its start position,
# side, legal moves, the squares with events, when each square last emptied and filled);
# Stories is the pool. Neither knows the game: the judge sets the turn up and reads the pool.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x
from array import array

from barragoon.core import TILE, BROWN_BIT, MAX_BARRAGOON, ZEROS
from controller.timing import BOUNCE_MS, FLIGHT_MS, SLIDE_MS, GAP_MS, REACT_MS
from controller.ticks import ticks_diff as elapsed

NEW = const(0xFE)         # a piece from outside the turn (supply, box, stray): identity unknown
NOHOME = const(0xFF)
MAXH = const(12)          # stories kept
AIRN = const(8)           # pieces in hands per story
_FAR = const(0x1FFFFFFF)  # "never" for a square's last change

# What one set-down costs a story (see Stories._cost), in half steps: C_LESS is a story that
# stays plausible beside a likelier one (the players are asked, the likelier preselected).
C_LIKELY = const(0)       # a piece back where it was lifted; a tile landing on its target; a
#                           Barragoon set on an empty square when a placement is due; a piece
#                           slid onto the next square
C_LESS = const(1)         # as likely, but for a coincidence (a Barragoon from the supply set
#                           exactly where a tile of the turn stood)
C_ODD = const(2)          # a tile set where it cannot go (in transit); a victim put back while
#                           the tile that can take it is in the hand; a slide that rested long
C_WRONG = const(4)        # a piece on a square that is not its own; a stray piece
C_FLIGHT = const(12)      # a piece carried faster than a hand can (FLIGHT_MS): ranks last
# (C_ODD more: a different piece within BOUNCE_MS of a piece leaving the square, that one held)
ASK_SPREAD = const(1)     # valid stories this close to the likeliest are plausible too: when
#                           they tell another record, the players are asked
_NEAR = const(1)          # squares a hand piece may come from without a flight (a neighbour)

# What a story shows, judged against the game (controller/kinds.py).
# (the valid kinds NONE, MOVE, PLACE are consecutive: the judge tests K_NONE <= k <= K_PLACE)
K_OPEN = const(0)         # a piece is still in a hand, or stands where nothing explains it
K_NONE = const(1)         # every piece back where the turn started
K_MOVE = const(2)         # one legal move made (its victim in a hand), Barragoons standing for
#                           its placements (np of them), pieces of the next turn lifted (nx)
K_PLACE = const(3)        # a placement is due and Barragoons stand on empty squares (np)
K_BAD = const(4)          # every piece down, but in no legal arrangement (two tiles swapped)
K_DUTY = const(5)         # a legal move that touch-move forbids
K_WAIT = const(6)         # (an answer) not yet: every piece is not back yet
K_OK = const(7)           # (an answer) every piece is back where the turn started


def is_tile(c):
    return c & TILE and c < NEW


def own(c, side):
    return c & TILE and c < NEW and ((c & BROWN_BIT) != 0) == (side == 1)


def is_barragoon(c):
    return 0 < c <= MAX_BARRAGOON


def tables(moves, dest, movable):
    """dest[sq]: how many of moves (sorted) end on sq (at most 255); movable[sq]: 0 when no
    move starts on sq, else 1 + the index of the first one (255: further than that)."""
    dest[:] = ZEROS
    movable[:] = ZEROS
    for i in range(len(moves)):
        mv = moves[i]
        if not movable[mv >> 6]:
            movable[mv >> 6] = i + 1 if i < 254 else 255
        if dest[mv & 63] < 255:
            dest[mv & 63] += 1


class Turn:
    """The open turn: b0 (piece codes at its start), side (the mover), moves (legal moves,
    frm * 64 + to, sorted), dest and movable (see tables()),
    placing (a placement is due and no move is open in this turn), the squares with events
    (only these can differ from b0 in any story), and when each square last emptied (vac_t)
    and filled (put_t): physical facts, the same in every story."""

    def __init__(self):
        self.b0 = bytearray(63)
        self.side = 0
        self.moves = []
        self.dest = bytearray(63)
        self.movable = bytearray(63)
        self.placing = False
        self.capture = False               # the move made in this turn is a capture
        self.seen = bytearray(63)
        self.seen_sq = bytearray(63)
        self.seen_n = 0
        self.vac_t = array("l", [-1] * 63)  # (-1: never lifted since power-on)
        self.put_t = array("l", [0] * 63)
        self.land_t = array("l", [0] * 63)  # ... and when a piece came to rest there (a
        #                                      straightening, shorter than ADJUST_MS, is none)
        self.serial = 1                    # the open turn's number (1-255, wrapping)
        self.quick = bytearray(63)         # lifted within KNOCK_MS of landing there: in the
        #                                    turn of this serial (else 0)
        self._pad0 = self._pad1 = self._pad2 = 0   # (room: see Judge's _pad0)

    def set_moves(self, moves, dest=None, movable=None):
        """The open turn's legal moves; dest and movable as tables() made them for these
        moves, if at hand (at rest, before the turn began: nothing to work out then)."""
        self.moves = moves
        if dest is not None:
            self.dest[:] = dest
            self.movable[:] = movable
        else:
            tables(moves, self.dest, self.movable)

    def legal(self, frm, to):
        return frm < 63 and self.dest[to] and (frm << 6) + to in self.moves

    def see(self, sq):
        if not self.seen[sq]:
            self.seen[sq] = 1
            self.seen_sq[self.seen_n] = sq
            self.seen_n += 1

    def unsee(self):
        self.seen[:] = ZEROS
        self.seen_n = 0

    def keep_seen(self, keep):
        """Only the seen squares marked in keep stay seen."""
        seen, sq_ = self.seen, self.seen_sq
        j = 0
        for i in range(self.seen_n):
            sq = sq_[i]
            if keep[sq]:
                sq_[j] = sq
                j += 1
            else:
                seen[sq] = 0
        self.seen_n = j

    def gap(self, sq, t):
        """ms since sq was last emptied (_FAR if not lately)."""
        if self.vac_t[sq] < 0:
            return _FAR
        return elapsed(t, self.vac_t[sq])


class Story:
    """One physical history: what stands where, what is in the hands, and its cost."""

    def __init__(self):
        self.board = bytearray(63)     # piece codes, NEW for unknown pieces
        self.home = bytearray(63)      # square each piece stood on at the turn start
        self.ac = bytearray(AIRN)      # in hands: codes ...
        self.ah = bytearray(AIRN)      # ... home squares ...
        self.af = bytearray(AIRN)      # ... and the square each was last lifted from ...
        self.at = array("l", [0] * AIRN)   # ... and when
        self.n = 0
        self.cost = 0
        self.newf = NOHOME             # where a piece from outside was last lifted from
        self.ss = NOHOME               # where a piece from outside was last set down ...
        self.sc = 0                    # ... and what that cost (a slide may explain it),
        self.sx = 0                    # ... and what the mover's likeliest tile there would
        # what it shows (controller/kinds.py)
        self.kind = K_OPEN
        self.m = 0                     # the move a-b (K_MOVE, K_DUTY): a * 64 + b
        self.p0 = NOHOME               # Barragoons standing for placements, in the order
        self.p1 = NOHOME               # they were set down (NOHOME: none)
        self.nx = 0                    # pieces of the next turn lifted (K_MOVE)
        self._pad0 = 0                 # (room: see Judge's _pad0)

    # (a, b, np: read-only views of m and p0, p1; no room taken per story)
    @property
    def a(self):
        return self.m >> 6

    @property
    def b(self):
        return self.m & 63

    @property
    def np(self):
        return (self.p0 != NOHOME) + (self.p1 != NOHOME)

    def copy(self, o):
        self.board[:] = o.board
        self.home[:] = o.home
        self.ac[:] = o.ac
        self.ah[:] = o.ah
        self.af[:] = o.af
        at, oat = self.at, o.at
        for k in range(o.n):           # (an array's slice store allocates: element-wise)
            at[k] = oat[k]
        self.n = o.n
        self.cost = o.cost
        self.newf = o.newf
        self.ss = o.ss
        self.sc = o.sc
        self.sx = o.sx

    def reset(self, codes, homes=None):
        self.board[:] = codes
        if homes is None:
            for sq in range(63):
                self.home[sq] = sq if codes[sq] else NOHOME
        else:
            self.home[:] = homes
        self.n = 0
        self.cost = 0
        self.newf = NOHOME
        self.ss = NOHOME

    def lift(self, sq, t):
        """Lift the piece on sq into the hands at t. Returns False when the hands were full
        (the oldest piece in them is forgotten)."""
        c = self.board[sq]
        h = self.home[sq]
        self.board[sq] = 0
        self.home[sq] = NOHOME
        if sq == self.ss:
            self.ss = NOHOME
        if c == NEW:
            self.newf = sq             # (it may come back: then it is the same stray)
        if c == 0 or c == NEW:
            return True                # an unknown piece leaves the game: nothing to track
        n = self.n
        ok = n < AIRN
        if not ok:                     # hands overflowing: forget the oldest
            for k in range(AIRN - 1):
                self.ac[k] = self.ac[k + 1]
                self.ah[k] = self.ah[k + 1]
                self.af[k] = self.af[k + 1]
                self.at[k] = self.at[k + 1]
            n -= 1
        self.ac[n] = c
        self.ah[n] = h
        self.af[n] = sq
        self.at[n] = t
        self.n = n + 1
        return ok

    def hold(self, c, sq, t):
        """The piece c, lifted from sq at t, is in a hand after all (a placement confirmed
        while it was being lifted)."""
        if self.n < AIRN:
            n = self.n
            self.ac[n] = c
            self.ah[n] = self.af[n] = sq
            self.at[n] = t
            self.n = n + 1

    def slide(self, sq, x):
        """The piece on sq slid onto x, where the story had a piece from outside."""
        self.board[x] = self.board[sq]
        self.home[x] = self.home[sq]
        self.board[sq] = 0
        self.home[sq] = NOHOME
        self.ss = NOHOME

    def put(self, sq, k):
        """Set the hand piece k down on sq (k = NOHOME: a piece from outside)."""
        if k == NOHOME:
            self.board[sq] = NEW
            self.home[sq] = NOHOME
            if self.newf == sq:
                self.newf = NOHOME
            self.ss = sq
            return
        self.board[sq] = self.ac[k]
        self.home[sq] = self.ah[k]
        self.take(k)

    def take(self, k):
        """Hand piece k leaves the hands (set down, or put aside for good)."""
        n = self.n - 1
        while k < n:
            self.ac[k] = self.ac[k + 1]
            self.ah[k] = self.ah[k + 1]
            self.af[k] = self.af[k + 1]
            self.at[k] = self.at[k + 1]
            k += 1
        self.n = n

    def held(self, c):
        """Index of a hand piece with code c, or -1."""
        for k in range(self.n):
            if self.ac[k] == c:
                return k
        return -1

    def count(self, c):
        n = 0
        for k in range(self.n):
            if self.ac[k] == c:
                n += 1
        return n

    def same(self, o):
        # (equal pieces from different squares make different stories: where each goes
        # back to, and which move was made)
        if self.n != o.n or self.board != o.board or self.home != o.home:
            return False
        for k in range(self.n):
            if self.count(self.ac[k]) != o.count(self.ac[k]):
                return False
        return True

    def outcome(self, o):
        """Do the two stories tell the same record (as classified)?"""
        return self.kind == o.kind and self.p0 == o.p0 and self.p1 == o.p1 and \
            (self.kind != K_MOVE or self.m == o.m)


class Stories:
    """The pool of stories, judged against turn."""

    def __init__(self, turn):
        self.turn = turn
        self.hs = [Story() for _ in range(MAXH)]
        self.nh = 0
        self.pruned = False            # no room for a story as likely as the others: lost
        self.evicted = False           # unlikely stories were dropped for room
        self.over = False              # more pieces in hands than a story keeps: lost
        self.slid = False              # the last lift may have been a slide
        self.opt = bytearray(AIRN + 2)  # scratch: set-down options ...
        self.oc = bytearray(AIRN + 2)   # ... and their costs
        self._pad0 = self._pad1 = self._pad2 = self._pad3 = 0   # (room: see Judge's _pad0)

    def reset(self, codes, homes=None):
        self.hs[0].reset(codes, homes)
        self.nh = 1
        self.pruned = self.evicted = self.over = False

    def first(self):
        return self.hs[0]

    def lift(self, sq, t):
        """The piece on sq was lifted at t: into the hands, or (where a piece from outside was
        set down beside it while it stood) slid onto that square."""
        tn = self.turn
        self.slid = False
        for i in range(self.nh):
            h = self.hs[i]
            x = self._slid_to(h, sq)
            if x >= 0:
                self.slid = True
                # (less likely where a tile of the mover in the hands could as likely have
                # landed there, and after a long rest between the two squares)
                cost = h.cost - h.sc + (C_ODD if h.sx == C_LIKELY else C_LIKELY) + \
                    (C_LIKELY if elapsed(t, tn.put_t[x]) < SLIDE_MS else C_ODD)
                g = self._slot(cost)
                if g is not None:
                    if g is not h:
                        g.copy(h)
                    g.slide(sq, x)
                    g.cost = cost
            if h.board[sq] and not h.lift(sq, t):
                self.over = True
        self.dedupe()

    def _slid_to(self, h, sq):
        """The neighbour of sq where story h has a piece from outside set down since sq's
        piece stood there (the last such set-down): that piece may be sq's, slid. -1 if
        none."""
        x = h.ss
        if x == NOHOME or x == sq or h.board[x] != NEW:
            return -1
        if abs(x % 7 - sq % 7) > 1 or abs(x // 7 - sq // 7) > 1:
            return -1
        tn = self.turn
        if tn.seen[sq] and elapsed(tn.put_t[x], tn.put_t[sq]) < 0:
            return -1
        return x

    def drop(self, sq, t):
        """A piece was set down on sq at t: every story branches over the pieces it may be."""
        tn = self.turn
        gap = tn.gap(sq, t)
        n0 = self.nh
        opt, oc = self.opt, self.oc
        for i in range(n0):
            h = self.hs[i]
            no = self._options(h, sq, gap, t)
            best = 0
            bc = held = 255                # the likeliest option; the best of the mover's
            for j in range(no):            # tiles in the hands (the likeliest goes into h)
                c = oc[j]
                if c < bc:
                    bc = c
                    best = j
                if opt[j] != NOHOME and c < held and own(h.ac[opt[j]], tn.side):
                    held = c
            base = h.cost
            for j in range(no):
                if j == best:
                    continue
                g = self._slot(base + oc[j])
                if g is None:
                    continue
                g.copy(h)
                g.put(sq, opt[j])
                g.cost = base + oc[j]
                if opt[j] == NOHOME:
                    g.sc, g.sx = oc[j], held
            h.put(sq, opt[best])
            h.cost = base + bc
            if opt[best] == NOHOME:
                h.sc, h.sx = bc, held
        self.dedupe()

    def _cost(self, h, sq, k, gap, t):
        """What setting option k (a hand index, or NOHOME: a piece from outside) down on sq at
        t costs story h; gap: ms since sq was emptied."""
        tn = self.turn
        side = tn.side
        if k != NOHOME:
            c = h.ac[k]
            if h.af[k] == sq or h.ah[k] == sq:     # back where it was lifted, or home
                if own(c, side):
                    return C_LIKELY
                # a victim back while a tile that can take it is in the hand: less likely
                # than the capture
                return self._capturer_held(h, sq)
            if own(c, side) and h.ah[k] != NOHOME and not tn.placing:
                if tn.legal(h.ah[k], sq):  # a move lands (a push-off capture: at any speed,
                    return self._flight(h, k, sq, t)   # as fast as a hand can carry it)
                cost = C_ODD               # in transit, or a wrong square
            elif is_barragoon(c) and self._free(h, sq) and self._placement_due(h):
                cost = self._placed(h, sq, t)      # a captured Barragoon set down again
            elif self._slid(h, k, sq, t):
                cost = C_LESS              # pushed onto the next square (a knock, a slide)
            else:
                cost = C_WRONG
            cost += self._flight(h, k, sq, t)
        elif h.newf == sq:
            return C_LIKELY                # the piece from outside just lifted here, back
        elif self._free(h, sq) and self._placement_due(h):
            cost = self._placed(h, sq, t)  # a Barragoon from the supply ...
            for j in range(h.n):
                if self._slid(h, j, sq, t):
                    cost += C_ODD          # ... where a piece just lifted beside it slid to
                    break
        else:
            cost = C_WRONG
        if gap < BOUNCE_MS:
            for j in range(h.n):
                if h.af[j] == sq:          # (the piece that left is in a hand: it would be
                    cost += C_ODD          # the one coming back)
                    break
        return cost

    def _slid(self, h, k, sq, t):
        """Was hand piece k lifted from a neighbour of sq less than GAP_MS ago (slid over,
        the sensors between the squares open a moment)?"""
        f = h.af[k]
        return f != sq and abs(f % 7 - sq % 7) <= 1 and abs(f // 7 - sq // 7) <= 1 and \
            elapsed(t, h.at[k]) < GAP_MS

    def _flight(self, h, k, sq, t):
        """C_FLIGHT when hand piece k would have come to sq faster than a hand carries a
        piece (a neighbouring square may be reached at once: a slide), else nothing."""
        f = h.af[k]
        d = max(abs(f % 7 - sq % 7), abs(f // 7 - sq // 7))
        if d > _NEAR and elapsed(t, h.at[k]) < FLIGHT_MS * (d - _NEAR):
            return C_FLIGHT
        return 0

    def _placed(self, h, sq, t):
        """What a Barragoon set down on the free square sq costs: nothing, but on the start
        square of a tile of the mover that stands elsewhere, where that tile goes back if
        there was no capture: a coincidence (C_LESS); sooner than a placer decides after the
        capture (REACT_MS after the tile landed: a jiggle of it since does not count), that
        tile coming back is the likelier story (C_ODD more)."""
        tn = self.turn
        if not tn.b0[sq]:
            return C_LIKELY
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            s = seen[i]
            if h.home[s] == sq and s != sq:
                if elapsed(t, tn.land_t[s]) < REACT_MS:
                    return C_LESS + C_ODD
                break
        return C_LESS

    def _free(self, h, sq):
        """May a Barragoon be placed on sq: empty when the turn began, or the start square of
        the mover's tile that now stands elsewhere (not in a hand)?"""
        c = self.turn.b0[sq]
        if not c:
            return True
        if not own(c, self.turn.side):
            return False
        for k in range(h.n):
            if h.ah[k] == sq:
                return False
        return True

    def _capturer_held(self, h, v):
        """What putting v's piece back costs while a hand may hold a tile of the mover that
        can capture v: C_LIKELY none, C_ODD one (a capture begun and given up, in either
        order). Not if v's piece was lifted within KNOCK_MS of landing there in an earlier
        turn: the hand that set it down straightening it (as the opponent began)."""
        tn = self.turn
        if not tn.dest[v] or not tn.b0[v] or own(tn.b0[v], tn.side):
            return C_LIKELY
        if tn.quick[v] and tn.quick[v] != tn.serial:
            return C_LIKELY
        for k in range(h.n):
            if own(h.ac[k], tn.side) and tn.legal(h.ah[k], v):
                return C_ODD
        return C_LIKELY

    def _placement_due(self, h):
        """Is a Barragoon placement due in story h: the turn waits for one, or the story shows
        a capture (a tile of the mover on a square where the turn began with another piece)?"""
        tn = self.turn
        if tn.placing or tn.capture:
            return True
        b0, bd, side = tn.b0, h.board, tn.side
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            sq = seen[i]
            c = bd[sq]
            if c != b0[sq] and b0[sq] and own(c, side) and not own(b0[sq], side) and \
                    tn.legal(h.home[sq], sq):
                return True
        return False

    def _options(self, h, sq, gap, t):
        """Which hand piece may have been set down on sq at t (into opt, its cost into oc):
        each code once (of equal pieces the likeliest; of those, the one lifted from sq, else
        the one coming home, else the one lifted last: a hand sets down what it has just taken
        up), then a piece from outside. Returns how many."""
        opt, oc = self.opt, self.oc
        no = 0
        for k in range(h.n):
            c = h.ac[k]
            ck = self._cost(h, sq, k, gap, t)
            j = 0
            while j < no and h.ac[opt[j]] != c:
                j += 1
            if j == no:
                opt[no] = k
                oc[no] = ck
                no += 1
            elif ck < oc[j] or ck == oc[j] and self._rather(h, sq, k, opt[j]):
                opt[j] = k
                oc[j] = ck
        opt[no] = NOHOME
        oc[no] = self._cost(h, sq, NOHOME, gap, t)
        return no + 1

    def _rather(self, h, sq, k, o):
        # Of two equal pieces in the hands, as likely to be set down on sq: is k the one?
        if h.af[o] == sq or h.ah[o] == sq and h.af[k] != sq:
            return False
        return h.af[k] == sq or h.ah[k] == sq or elapsed(h.at[k], h.at[o]) > 0

    def _slot(self, cost):
        """A free story for one of this cost, or None. When all are in use, the least likely
        gives way (the worst kept one, or the new one); only when the one given up is about
        as likely as the likeliest (ASK_SPREAD) does the judge admit it has lost track."""
        hs = self.hs
        if self.nh < MAXH:
            g = hs[self.nh]
            self.nh += 1
            return g
        low = cost
        worst = 0
        for i in range(MAXH):
            if hs[i].cost < low:
                low = hs[i].cost
            if hs[i].cost > hs[worst].cost:
                worst = i
        out = hs[worst].cost if hs[worst].cost > cost else cost
        if out <= low + ASK_SPREAD:
            self.pruned = True
        else:
            self.evicted = True
        return hs[worst] if hs[worst].cost > cost else None

    def dedupe(self):
        hs = self.hs
        i = 0
        while i < self.nh:
            j = i + 1
            while j < self.nh:
                if hs[i].same(hs[j]):
                    if hs[j].cost < hs[i].cost:   # the likelier history stays, with what
                        hs[i], hs[j] = hs[j], hs[i]   # it remembers of its strays
                    self.remove(j)
                else:
                    j += 1
            i += 1
        self.likeliest_first()

    def likeliest_first(self):
        hs = self.hs
        best = 0
        for i in range(1, self.nh):
            if hs[i].cost < hs[best].cost:
                best = i
        if best:
            hs[0], hs[best] = hs[best], hs[0]

    def remove(self, i):
        hs = self.hs
        last = self.nh - 1
        hs[i], hs[last] = hs[last], hs[i]
        self.nh = last

    def normalise(self):
        """Costs relative to the likeliest (they only rank; small ints stay small)."""
        hs = self.hs
        low = hs[0].cost
        for i in range(1, self.nh):
            if hs[i].cost < low:
                low = hs[i].cost
        if low:
            for i in range(self.nh):
                hs[i].cost -= low
