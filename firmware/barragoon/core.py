# Board representation and move generation: the hot path of the rules core.
#
# Squares are numbered 0..62 (a1=0, b1=1, .. g1=6, a2=7, .. g9=62) everywhere outside this
# module. Inside, the board is a 8x11 "mailbox": each rank gets an extra column and the board
# an extra rank below and above, all holding OFF, so a step off the board lands on OFF and no
# edge test is needed (mailbox index = (rank + 1) * 8 + file).
#
# Cell codes (one byte each):
#   0          empty
#   1..16      a Barragoon, code = 1 + face index (see FACES)
#   0x22..0x24 White 2/3/4-tile;  0x32..0x34 Brown 2/3/4-tile (tile value = code & 7)
#   0xFF       off the board
# Everything below 17 can be crossed by some path; everything above blocks.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

WHITE = const(0)
BROWN = const(1)

EMPTY = const(0)
TILE = const(0x20)
BROWN_BIT = const(0x10)
OFF = const(0xFF)
B_X = const(1)     # No Entry
B_A = const(16)    # All Turns
MAX_BARRAGOON = const(16)

# Face codes in cell-code order (cell code = index + 1).
FACES = ("X", "1N", "1E", "1S", "1W", "2V", "2H",
         "RN", "RE", "RS", "RW", "LN", "LE", "LS", "LW", "A")

# Headings: N, E, S, W. Right turn = +1, left turn = +3 (mod 4), reversal = +2.
N = const(0)
E = const(1)
S = const(2)
W = const(3)
DELTA = (8, 1, -8, -1)

# Kinds of target, as lit on the board.
T_MOVE = const(1)
T_CAPTURE_TILE = const(2)
T_CAPTURE_BARRAGOON = const(3)

MAX_TARGETS = const(32)   # a 4-tile reaches at most 12 + 16 squares
TILES_PER_SIDE = (2, 3, 2)  # how many 2-, 3- and 4-tiles a side owns
BARRAGOONS_TOTAL = const(32)


def _build_pass():
    # PASS[c * 16 + h_in * 4 + h_out] = 1 when a path entering a square holding cell code c
    # with heading h_in may leave it with heading h_out.
    t = bytearray(17 * 16)
    for h in range(4):
        for o in range(4):
            if o != (h + 2) & 3:
                t[h * 4 + o] = 1                      # empty: straight or a turn
    for d in range(4):
        t[(2 + d) * 16 + d * 5] = 1                   # 1N..1W: straight, in the arrow's heading
        t[(8 + d) * 16 + ((d + 3) & 3) * 4 + d] = 1   # RN..RW: right turn leaving heading d
        t[(12 + d) * 16 + ((d + 1) & 3) * 4 + d] = 1  # LN..LW: left turn leaving heading d
        t[B_A * 16 + d * 4 + ((d + 1) & 3)] = 1       # A: any turn, never straight
        t[B_A * 16 + d * 4 + ((d + 3) & 3)] = 1
    for d in (N, S):
        t[6 * 16 + d * 5] = 1                         # 2V
    for d in (E, W):
        t[7 * 16 + d * 5] = 1                         # 2H
    return bytes(t)


PASS = _build_pass()


def _build_maps():
    sq2mb = bytearray(63)
    mb2sq = bytearray(b"\xff" * 88)
    for sq in range(63):
        mb = (sq // 7 + 1) * 8 + sq % 7
        sq2mb[sq] = mb
        mb2sq[mb] = sq
    return bytes(sq2mb), bytes(mb2sq)


SQ2MB, MB2SQ = _build_maps()


_KEY = bytearray(64)   # scratch for Position.key()


class RulesError(ValueError):
    """Bad input to the rules core: the message names what is wrong. Nothing was changed."""


def is_tile(c):
    return c & TILE and c != OFF


def tile_side(c):
    return BROWN if c & BROWN_BIT else WHITE


def tile_code(side, value):
    return TILE | (BROWN_BIT if side else 0) | value


class Position:
    """Pieces on the board, side to move and Barragoons left in the supply.

    targets() and legal_moves() are the move generator. targets() fills the preallocated
    buffers tsq/tkind and allocates nothing, so the board can call it on every lift.
    """

    def __init__(self):
        self.cells = bytearray(b"\xff" * 88)
        for sq in range(63):
            self.cells[SQ2MB[sq]] = EMPTY
        self.side = WHITE
        self.supply = 24
        self.tsq = bytearray(MAX_TARGETS)    # target squares of the last targets() call
        self.tkind = bytearray(MAX_TARGETS)  # T_MOVE / T_CAPTURE_TILE / T_CAPTURE_BARRAGOON
        self._stamp = bytearray(88)          # dedup marks for targets(), one generation each
        self._gen = 0

    # --- squares -------------------------------------------------------------------------
    def get(self, sq):
        return self.cells[SQ2MB[sq]]

    def put(self, sq, code):
        self.cells[SQ2MB[sq]] = code

    def copy(self):
        p = Position()
        p.cells[:] = self.cells
        p.side = self.side
        p.supply = self.supply
        return p

    def key(self):
        """Bytes identifying the position for repetition (board and side to move)."""
        k = _KEY
        cells = self.cells
        for sq in range(63):
            k[sq] = cells[SQ2MB[sq]]
        k[63] = self.side
        return bytes(k)

    def count_tiles(self, side):
        n = 0
        want = TILE | (BROWN_BIT if side else 0)
        for c in self.cells:
            if c & 0xF8 == want:
                n += 1
        return n

    def count_barragoons(self):
        n = 0
        for c in self.cells:
            if 0 < c <= MAX_BARRAGOON:
                n += 1
        return n

    # --- move generation -----------------------------------------------------------------
    def targets(self, sq):
        """Legal targets of the tile on sq (any side). Returns n; the targets are tsq[:n]
        with kinds tkind[:n]. Returns 0 for a square without a tile. Allocation-free."""
        return self._targets(SQ2MB[sq])

    def _targets(self, m):
        c = self.cells[m]
        if not c & TILE or c == OFF:
            return 0
        v = c & 7
        own = c & BROWN_BIT
        g = (self._gen + 1) & 0xFF
        if g == 0:
            st = self._stamp
            for i in range(88):
                st[i] = 0
            g = 1
        self._gen = g
        n = 0
        n = self._ray(m, N, v, own, n)
        n = self._ray(m, E, v, own, n)
        n = self._ray(m, S, v, own, n)
        n = self._ray(m, W, v, own, n)
        return n

    def _ray(self, s, h, v, own, n):
        # First leg: straight from s with heading h; a turn may start on any square passed.
        cells = self.cells
        d = DELTA[h]
        a = 0
        while a < v:
            s += d
            a += 1
            c = cells[s]
            if a >= v - 1:
                n = self._add(s, c, a == v, v, own, n)
            if a == v or c > MAX_BARRAGOON:
                break
            base = c * 16 + h * 4
            o = (h + 1) & 3
            if PASS[base + o]:
                n = self._leg(s, o, a, v, own, n)
            o = (h + 3) & 3
            if PASS[base + o]:
                n = self._leg(s, o, a, v, own, n)
            if not PASS[base + h]:
                break
        return n

    def _leg(self, s, h, a, v, own, n):
        # Second leg after the turn: straight only, Barragoons crossed must allow it.
        cells = self.cells
        d = DELTA[h]
        hh = h * 5
        while a < v:
            s += d
            a += 1
            c = cells[s]
            if a >= v - 1:
                n = self._add(s, c, a == v, v, own, n)
            if a == v or c > MAX_BARRAGOON or not PASS[c * 16 + hh]:
                break
        return n

    def _add(self, s, c, full, v, own, n):
        if self._stamp[s] == self._gen:
            return n
        if c == EMPTY:
            kind = T_MOVE
        elif not full or c == OFF:
            return n
        elif c <= MAX_BARRAGOON:
            if v == 2 and c == B_A:
                return n
            kind = T_CAPTURE_BARRAGOON
        elif c & BROWN_BIT == own:
            return n
        else:
            kind = T_CAPTURE_TILE
        self._stamp[s] = self._gen
        self.tsq[n] = MB2SQ[s]
        self.tkind[n] = kind
        return n + 1

    def target_kind(self, frm, to):
        """Kind of the move frm->to if legal, else 0."""
        n = self.targets(frm)
        tsq = self.tsq
        for i in range(n):
            if tsq[i] == to:
                return self.tkind[i]
        return 0

    def legal_moves(self, side=-1):
        """All legal moves of side (default: side to move), as ints frm * 64 + to, sorted."""
        if side < 0:
            side = self.side
        want = TILE | (BROWN_BIT if side else 0)
        cells = self.cells
        tsq = self.tsq
        moves = []
        for m in range(8, 80):
            if cells[m] & 0xF8 == want:
                n = self._targets(m)
                base = MB2SQ[m] * 64
                for i in range(n):
                    moves.append(base + tsq[i])
        moves.sort()
        return moves

    def mobile_tiles(self, side, limit=8):
        """How many of side's tiles have a legal target (counting stops at limit)."""
        want = TILE | (BROWN_BIT if side else 0)
        cells = self.cells
        k = 0
        for sq in range(63):
            if cells[SQ2MB[sq]] & 0xF8 == want and self.targets(sq):
                k += 1
                if k >= limit:
                    break
        return k

    def has_capture(self, side):
        want = TILE | (BROWN_BIT if side else 0)
        cells = self.cells
        tkind = self.tkind
        for sq in range(63):
            if cells[SQ2MB[sq]] & 0xF8 == want:
                n = self.targets(sq)
                for i in range(n):
                    if tkind[i] != T_MOVE:
                        return True
        return False
