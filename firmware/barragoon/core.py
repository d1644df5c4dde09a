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
    import micropython
    from micropython import const
except ImportError:  # CPython: viper runs as plain Python (barragoon/hostshim.py)
    from barragoon.hostshim import micropython, const, ptr8  # noqa: F401

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


def _blank_cells():
    cells = bytearray(b"\xff" * 88)     # the mailbox border: off the board
    for sq in range(63):
        cells[SQ2MB[sq]] = EMPTY
    return bytes(cells)


# An empty board's cells, built once: a new Position (every copy() of one too) starts from it
# instead of a Python loop over the 63 squares (about 0.6 ms on the RP2040).
_BLANK = _blank_cells()
del _build_maps, _blank_cells   # built once: their names would take heap on the board

# A zero for every square: the per-square buffers of the judge and the LEDs are cleared from it
# and compared with it (one object for every module: 80 B of heap each otherwise).
ZEROS = bytes(63)


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
        self.cells = bytearray(_BLANK)
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
        g = (self._gen + 1) & 0xFF
        if g == 0:
            st = self._stamp
            for i in range(88):
                st[i] = 0
            g = 1
        self._gen = g
        return _gen(self.cells, self._stamp, self.tsq, self.tkind, m, g)

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


# The move generator proper, compiled to machine code by the viper emitter on MicroPython (one
# tile's targets in about a tenth of the bytecode's time on the RP2040); plain Python on
# CPython. It walks the paths of the tile on mailbox index m in a fixed order: the first leg
# north, east, south, west; on every square of a first leg a right turn, then a left turn,
# each followed straight to the end. A square is added once (stamp[s] == g marks it for this
# call); the last two squares of a path are candidates, a capture only on the last.
# Returns the number of targets written to tsq / tkind. Viper has no inlining and a call
# costs more than the body, so the candidate test is written out for both legs.
@micropython.viper
def _gen(cells: ptr8, stamp: ptr8, tsq: ptr8, tkind: ptr8, m: int, g: int) -> int:
    pas = ptr8(PASS)
    mb2sq = ptr8(MB2SQ)
    c = int(cells[m])
    if not (c & 0x20) or c == 0xFF:
        return 0
    v = c & 7
    own = c & 0x10
    n = 0
    h = 0
    while h < 4:
        d = 8 - 7 * (h & 1)                          # N, E, S, W = +8, +1, -8, -1
        if h >= 2:
            d = 0 - d
        s = m
        a = 0
        while a < v:
            s += d
            a += 1
            c = int(cells[s])
            if a >= v - 1 and int(stamp[s]) != g:  # a candidate (first leg)
                k = 0
                if c == 0:
                    k = 1                              # T_MOVE
                elif a == v and c != 0xFF:
                    if c <= 16:
                        if v != 2 or c != 16:          # a 2-tile never takes an A
                            k = 3                      # T_CAPTURE_BARRAGOON
                    elif (c & 0x10) != own:
                        k = 2                          # T_CAPTURE_TILE
                if k:
                    stamp[s] = g
                    tsq[n] = mb2sq[s]
                    tkind[n] = k
                    n += 1
            if a == v or c > 16:
                break
            base = c * 16 + h * 4
            t = 1
            while t < 4:                               # right turn (+1), left turn (+3)
                o = (h + t) & 3
                t += 2
                if not pas[base + o]:
                    continue
                e = 8 - 7 * (o & 1)
                if o >= 2:
                    e = 0 - e
                oo = o * 5
                s2 = s
                a2 = a
                while a2 < v:
                    s2 += e
                    a2 += 1
                    c2 = int(cells[s2])
                    # The first leg's classification again, inline on purpose: a call per
                    # square from viper costs more than the classification itself.
                    if a2 >= v - 1 and int(stamp[s2]) != g:   # a candidate (second leg)
                        k = 0
                        if c2 == 0:
                            k = 1
                        elif a2 == v and c2 != 0xFF:
                            if c2 <= 16:
                                if v != 2 or c2 != 16:
                                    k = 3
                            elif (c2 & 0x10) != own:
                                k = 2
                        if k:
                            stamp[s2] = g
                            tsq[n] = mb2sq[s2]
                            tkind[n] = k
                            n += 1
                    if a2 == v or c2 > 16 or not pas[c2 * 16 + oo]:
                        break
            if not pas[base + h]:
                break
        h += 1
    return n
