# The engine's view of a position and its static evaluation.
#
# Everything the search changes lives in one bytearray, Evaluator.b, at fixed offsets (below):
# the board's cells (the rules core's 88-byte mailbox, so the rules core's move generator runs
# on it directly), where each side's tiles stand, and what each tile can do (its "record").
# The work per search node is done by viper functions over that buffer (machine code on the
# board, plain Python on CPython): one call generates a side's moves, one scores a position,
# one takes a move back. Nothing here allocates after construction.
#
# How a position is judged (from the side to move, "stm"): each tile's targets are generated
# by the rules core (a "record": how many moves, how many Barragoons it could capture, which
# enemy tiles it could capture). From the records:
#   material      tile values (a 4-tile is worth more: it reaches farther and is hard to cage)
#   mobility      a concave bonus per tile for its number of moves: the first few moves matter
#                 most, since a tile without moves is dead weight and all tiles without moves
#                 lose the game; a tile with no move at all costs an extra penalty
#   threats       stm may capture at once: half the best victim counts (the victim places
#                 first afterwards and the capturer is exposed); stm's own tiles under attack
#                 count against it: little for one (stm moves it, blocks or takes the
#                 attacker), half for a second one (only one can be saved). Capturing the
#                 last enemy tile is a won game.
#   Barragoons    every Barragoon a side could capture gives it a free re-placement
#   express       a side whose mobile tiles are at or under its express stage loses on move
#   endgame       the side ahead in material gains by trading and by caging what is left
#                 (the fewer enemy tiles and moves, the closer the win), so a won game is
#                 pressed home instead of shuffled
# Barragoons that block or channel the opponent are valued through their effect: they remove
# paths, so the opponent's mobility and threats drop, and the same face may leave one's own
# paths open (one-way, two-way and turning faces). No separate table of Barragoon worth.
#
# Records of a changed position: a path or target of a v-tile stays within distance v of it,
# so after a change on a few squares only the tiles within reach are generated again
# (touch(), then records of the listed tiles); keep()/restore() save and put back the records.
from array import array

from barragoon.core import SQ2MB, _gen

try:
    import micropython
    from micropython import const
except ImportError:  # CPython: viper's decorator and casts are no-ops
    class micropython:
        @staticmethod
        def viper(f):
            return f

    def const(x):
        return x

    def ptr8(x):
        return x

    def ptr16(x):
        return x

WIN = const(30000)          # score of a won game (minus the levels it takes to get there)
NO_SQ = const(255)
NO_LEVEL = const(255)

# Evaluator.b: offsets.
PL = const(88)              # 16: square of the tile in slot s = side * 8 + i, i < pn[side]
PN = const(104)             # 2: tiles per side
PIDX = const(106)           # 63: square -> i of the tile there (within its side), 255: none
REC = const(169)            # 48: records by slot: moves [0:16], Barragoon captures [16:32],
RBC = const(185)            #     capturable enemy tiles as a bit mask of their i [32:48]
RVM = const(201)
KEEP = const(217)           # 48: the records saved by keep()
WL = const(265)             # 16: the slots listed by touch()
WN = const(281)
STAGE = const(282)          # 2: the express stages
GEN = const(284)            # the move generator's stamp generation
VIX = const(285)            # make(): the list index the captured tile had
MOB = const(286)            # moves(): tiles of the side with a move
CAPS = const(287)           # moves(): captures among the moves
SIZE = const(288)
RECS = const(48)

# Tile worth by tile value (index 2..4), in score units (a 2-tile is 100).
VALUE = b"\x00\x00\x64\x7d\x96"     # 100, 125, 150
_TRAPPED = const(35)         # extra penalty for a tile without a single move
_BARRAGOON_CAPTURE = const(6)  # per capturable Barragoon (at most 3 count)
_STUCK_BONUS = const(250)    # the opponent is at or under its express stage: it loses on move
                            # unless stm frees it
_TRADE = const(8)            # endgame: per missing enemy tile, when ahead in material
_CAGE = const(2)             # endgame: per move the enemy lacks (of 6 a tile), when ahead


def _tables():
    # MOBILITY: concave, 12 * sqrt(n) for n = 0..32 moves (a 4-tile has at most 28).
    # FILE / RANK of each square (viper on the RP2040 has no divide instruction).
    t = bytearray(33 + 126)
    for n in range(33):
        r = 0
        while (r + 1) * (r + 1) <= 144 * n:
            r += 1
        t[n] = r
    for sq in range(63):
        t[33 + sq] = sq % 7
        t[96 + sq] = sq // 7
    return bytes(t)


TABLES = _tables()
MOBILITY = const(0)          # offsets in TABLES
FILE = const(33)
RANK = const(96)
del _tables                  # built once: its code need not stay in the heap


# --- kernels (viper) --------------------------------------------------------------------------
@micropython.viper
def copy(dst, do: int, src, so: int, n: int):
    d = ptr8(dst)
    s = ptr8(src)
    i = 0
    while i < n:
        d[do + i] = s[so + i]
        i += 1


@micropython.viper
def records(b, stamp, tsq, tkind, mode: int, side: int) -> int:
    """Generate the records of some tiles: mode 0 all, 1 the slots touch() listed, 2 the
    tiles of side. Returns how many of them have a move."""
    p = ptr8(b)
    st = ptr8(stamp)
    ts = ptr8(tsq)
    tk = ptr8(tkind)
    sq2mb = ptr8(SQ2MB)
    lo = 0
    hi = 16
    if mode == 1:
        hi = p[WN]
    elif mode == 2:
        lo = side << 3
        hi = lo + p[PN + side]
    mobile = 0
    j = lo
    while j < hi:
        if mode == 1:
            s = p[WL + j]
        else:
            s = j
            if mode == 0 and (s & 7) >= p[PN + (s >> 3)]:
                j += 1
                continue
        g = p[GEN] + 1
        if g > 255:
            i = 0
            while i < 88:
                st[i] = 0
                i += 1
            g = 1
        p[GEN] = g
        n = int(_gen(b, stamp, tsq, tkind, sq2mb[p[PL + s]], g))
        bc = 0
        vm = 0
        i = 0
        while i < n:
            k = tk[i]
            if k == 2:
                vm |= 1 << p[PIDX + ts[i]]
            elif k == 3:
                bc += 1
            i += 1
        p[REC + s] = n
        p[RBC + s] = bc
        p[RVM + s] = vm
        if n:
            mobile += 1
        j += 1
    return mobile


@micropython.viper
def touch(b, a: int, c: int) -> int:
    """List in WL the slots of the tiles that a change on square a, and on c unless it is
    NO_SQ, can affect: a path or target of a v-tile stays within distance v of it."""
    p = ptr8(b)
    t = ptr8(TABLES)
    sq2mb = ptr8(SQ2MB)
    fa = int(t[FILE + a])
    ra = int(t[RANK + a])
    fc = 99
    rc = 99
    if c != NO_SQ:
        fc = int(t[FILE + c])
        rc = int(t[RANK + c])
    n = 0
    s = 0
    while s < 16:
        if (s & 7) >= p[PN + (s >> 3)]:
            s = (s | 7) + 1
            continue
        q = p[PL + s]
        v = p[sq2mb[q]] & 7
        f = int(t[FILE + q])
        r = int(t[RANK + q])
        d = (f - fa if f > fa else fa - f) + (r - ra if r > ra else ra - r)
        e = (f - fc if f > fc else fc - f) + (r - rc if r > rc else rc - r)
        if d <= v or e <= v:
            p[WL + n] = s
            n += 1
        s += 1
    p[WN] = n
    return n


@micropython.viper
def changed(b, side: int) -> int:
    """1 if a listed tile of side has another record than keep() saved."""
    p = ptr8(b)
    j = 0
    n = p[WN]
    while j < n:
        s = p[WL + j]
        if (s >> 3) == side and (p[REC + s] != p[KEEP + s] or p[RBC + s] != p[KEEP + 16 + s]
                                 or p[RVM + s] != p[KEEP + 32 + s]):
            return 1
        j += 1
    return 0


@micropython.viper
def make(b, frm: int, to: int) -> int:
    """Move the tile frm -> to (a legal move). Returns the cell code captured (0 if none);
    b[VIX] keeps the captured tile's list index for unmake()."""
    p = ptr8(b)
    sq2mb = ptr8(SQ2MB)
    mf = sq2mb[frm]
    mt = sq2mb[to]
    c = p[mf]
    victim = p[mt]
    p[mt] = c
    p[mf] = 0
    side = (c >> 4) & 1
    if victim & 0x20:
        opp = side ^ 1
        j = p[PIDX + to]
        last = p[PN + opp] - 1
        moved = p[PL + (opp << 3) + last]
        p[PL + (opp << 3) + j] = moved
        p[PIDX + moved] = j
        p[PN + opp] = last
        p[VIX] = j
    i = p[PIDX + frm]
    p[PL + (side << 3) + i] = to
    p[PIDX + to] = i
    p[PIDX + frm] = 255
    return victim


@micropython.viper
def unmake(b, frm: int, to: int, victim: int, vix: int):
    p = ptr8(b)
    sq2mb = ptr8(SQ2MB)
    mf = sq2mb[frm]
    mt = sq2mb[to]
    c = p[mt]
    p[mf] = c
    p[mt] = victim
    side = (c >> 4) & 1
    i = p[PIDX + to]
    p[PL + (side << 3) + i] = frm
    p[PIDX + frm] = i
    p[PIDX + to] = 255
    if victim & 0x20:
        o = (side ^ 1) << 3
        n = p[PN + (side ^ 1)]
        moved = p[PL + o + vix]
        p[PL + o + n] = moved
        p[PIDX + moved] = n
        p[PL + o + vix] = to
        p[PIDX + to] = vix
        p[PN + (side ^ 1)] = n + 1


@micropython.viper
def score(b, stm: int, ply: int) -> int:
    """Static score from stm's view (stm moves next), from the records. Game ends are exact:
    WIN - ply when stm captures the last enemy tile at once, -(WIN - ply) when stm is at or
    under its express stage (stage 0: no move at all)."""
    p = ptr8(b)
    t = ptr8(TABLES)
    val = ptr8(VALUE)
    sq2mb = ptr8(SQ2MB)
    opp = stm ^ 1
    so = stm << 3
    oo = opp << 3
    ns = p[PN + stm]
    no = p[PN + opp]
    total = 0
    mat_s = 0
    mob_s = 0
    bc_s = 0
    vm_s = 0          # enemy tiles stm could capture
    i = 0
    while i < ns:
        s = so + i
        m = p[REC + s]
        mat_s += val[p[sq2mb[p[PL + s]]] & 7]
        total += t[MOBILITY + m]
        if m:
            mob_s += 1
        else:
            total -= _TRAPPED
        bc_s += p[RBC + s]
        vm_s |= p[RVM + s]
        i += 1
    if mob_s <= p[STAGE + stm]:
        return ply - WIN
    mat_o = 0
    mob_o = 0
    mv_o = 0
    bc_o = 0
    vm_o = 0          # stm's tiles the opponent could capture
    i = 0
    while i < no:
        s = oo + i
        m = p[REC + s]
        mat_o += val[p[sq2mb[p[PL + s]]] & 7]
        total -= t[MOBILITY + m]
        mv_o += m
        if m:
            mob_o += 1
        else:
            total += _TRAPPED
        bc_o += p[RBC + s]
        vm_o |= p[RVM + s]
        i += 1
    total += mat_s - mat_o
    if vm_s:
        if no == 1:
            return WIN - ply - 1
        best = 0
        i = 0
        while i < no:
            if (vm_s >> i) & 1:
                v = int(val[p[sq2mb[p[PL + oo + i]]] & 7])
                if v > best:
                    best = v
            i += 1
        total += best >> 1
    if vm_o:
        h1 = 0
        h2 = 0
        i = 0
        while i < ns:
            if (vm_o >> i) & 1:
                v = int(val[p[sq2mb[p[PL + so + i]]] & 7])
                if v > h1:
                    h2 = h1
                    h1 = v
                elif v > h2:
                    h2 = v
            i += 1
        total -= (h1 >> 3) + (h2 >> 1)
    if bc_s > 3:
        bc_s = 3
    if bc_o > 3:
        bc_o = 3
    total += _BARRAGOON_CAPTURE * (bc_s - bc_o)
    if mob_o <= p[STAGE + opp]:
        total += _STUCK_BONUS
    return total


class Evaluator:
    def __init__(self, levels):
        self.b = bytearray(SIZE)
        self.stamp = bytearray(88)         # the move generator's scratch (see core._gen)
        self.tsq = bytearray(32)
        self.tkind = bytearray(32)
        self.side = 0
        self.supply = 0
        self.lv = bytearray(RECS * levels)  # records saved per search level
        self.owner = NO_LEVEL              # the level whose records REC now holds
        self.rel = array("h", [0] * 63)    # placement relevance per square (placement.py)
        self.own = 0                       # delta(): a tile of that side changed

    # --- loading ---------------------------------------------------------------------------
    def load(self, pos, stages):
        b = self.b
        b[0:88] = pos.cells
        self.side = pos.side
        self.supply = pos.supply
        b[STAGE] = stages[0]
        b[STAGE + 1] = stages[1]
        b[PN] = b[PN + 1] = 0
        for sq in range(63):
            b[PIDX + sq] = 255
            c = b[SQ2MB[sq]]
            if c & 0x20 and c != 0xFF:
                side = 1 if c & 0x10 else 0
                i = b[PN + side]
                b[PL + side * 8 + i] = sq
                b[PIDX + sq] = i
                b[PN + side] = i + 1
        self.owner = NO_LEVEL

    def get(self, sq):
        return self.b[SQ2MB[sq]]

    def slot(self, i):
        """The i-th tile slot over both sides (White's first): i < pn[0] + pn[1]."""
        n0 = self.b[PN]
        return i if i < n0 else 8 + i - n0

    def tiles(self):
        return self.b[PN] + self.b[PN + 1]

    # --- records ---------------------------------------------------------------------------
    def records(self, mode, side=0):
        return records(self.b, self.stamp, self.tsq, self.tkind, mode, side)

    def record_all(self):
        self.owner = NO_LEVEL
        return records(self.b, self.stamp, self.tsq, self.tkind, 0, 0)

    def score(self, stm, ply):
        return score(self.b, stm, ply)

    def touch(self, a, c):
        return touch(self.b, a, c)

    def keep(self):
        copy(self.b, KEEP, self.b, REC, RECS)

    def restore(self):
        copy(self.b, REC, self.b, KEEP, RECS)

    def changed(self, side):
        return changed(self.b, side)

    def delta(self, a, c, stm, ply, own=2):
        """Score (stm's view) of the position after a change on squares a and c (c may be
        NO_SQ), from the records before it; the records are left as they were. With own a
        side, self.own tells whether a tile of that side got another record."""
        b = self.b
        touch(b, a, c)
        copy(b, KEEP, b, REC, RECS)
        records(b, self.stamp, self.tsq, self.tkind, 1, 0)
        v = score(b, stm, ply)
        if own < 2:
            self.own = changed(b, own)
        copy(b, REC, b, KEEP, RECS)
        return v

    # --- the records of a search level -----------------------------------------------------
    def save_level(self, k):
        copy(self.lv, k * RECS, self.b, REC, RECS)
        self.owner = k

    def load_level(self, k):
        copy(self.b, REC, self.lv, k * RECS, RECS)
        self.owner = k


@micropython.viper
def moves(b, stamp, tsq, tkind, mv, ov, h: int, side: int, hist, k1: int, k2: int) -> int:
    """Generate the moves of side into mv[h:] (frm * 64 + to) with their ordering keys in
    ov: tile captures by victim (the cheaper attacker first), the killers k1 and k2,
    Barragoon captures, then quiet moves by hist[side * 64 + to]. Writes the records of
    side's tiles, b[MOB] (its tiles with a move) and b[CAPS] (its captures). Returns the new
    end of the list."""
    p = ptr8(b)
    st = ptr8(stamp)
    ts = ptr8(tsq)
    tk = ptr8(tkind)
    m16 = ptr16(mv)
    o16 = ptr16(ov)
    hs = ptr16(hist)
    val = ptr8(VALUE)
    sq2mb = ptr8(SQ2MB)
    s = side << 3
    end = s + p[PN + side]
    mobile = 0
    caps = 0
    hb = side << 6
    while s < end:
        g = p[GEN] + 1
        if g > 255:
            i = 0
            while i < 88:
                st[i] = 0
                i += 1
            g = 1
        p[GEN] = g
        frm = p[PL + s]
        mf = sq2mb[frm]
        n = int(_gen(b, stamp, tsq, tkind, mf, g))
        own = p[mf] & 7
        bc = 0
        vm = 0
        i = 0
        while i < n:
            to = ts[i]
            kd = tk[i]
            m = (frm << 6) | to
            m16[h] = m
            if kd == 2:
                vm |= 1 << p[PIDX + to]
                o16[h] = 6000 + val[p[sq2mb[to]] & 7] - own
                caps += 1
            elif m == k1:
                o16[h] = 5000
            elif m == k2:
                o16[h] = 4900
            elif kd == 3:
                o16[h] = 4500
            else:
                o16[h] = hs[hb + to]
            if kd == 3:
                bc += 1
                caps += 1
            h += 1
            i += 1
        p[REC + s] = n
        p[RBC + s] = bc
        p[RVM + s] = vm
        if n:
            mobile += 1
        s += 1
    p[MOB] = mobile
    p[CAPS] = caps
    return h


@micropython.viper
def scan(b, stamp, tsq, tkind, sq: int, stm: int, ply: int, flip: int, mv, ov, lo: int,
         n: int, cnt: int, ban: int) -> int:
    """Score every face on the empty square sq (one face when no tile is within reach: then
    they all score the same) from stm's view, negated if flip, and keep the n best placements
    (sq * 32 + face) so far in mv[lo:lo + cnt], best first, scores in ov. ban: a placement
    to leave out. Returns the new cnt; the records are left as they were."""
    p = ptr8(b)
    m16 = ptr16(mv)
    o16 = ptr16(ov)
    sq2mb = ptr8(SQ2MB)
    c = sq2mb[sq]
    faces = 1
    if int(touch(b, sq, NO_SQ)):
        faces = 16
        i = 0
        while i < RECS:
            p[KEEP + i] = p[REC + i]
            i += 1
    f = 1
    while f <= faces:
        a = (sq << 5) | f
        if a != ban:
            p[c] = f
            if faces > 1:
                records(b, stamp, tsq, tkind, 1, 0)
            s = int(score(b, stm, ply))
            if flip:
                s = 0 - s
            j = cnt
            if cnt == n:
                j = n - 1
                v = int(o16[lo + j])
                if v >= 32768:
                    v -= 65536
                if s <= v:
                    j = -1
            if j >= 0:
                while j > 0:
                    v = int(o16[lo + j - 1])
                    if v >= 32768:
                        v -= 65536
                    if v >= s:
                        break
                    m16[lo + j] = m16[lo + j - 1]
                    o16[lo + j] = o16[lo + j - 1]
                    j -= 1
                m16[lo + j] = a
                o16[lo + j] = s
                if cnt < n:
                    cnt += 1
            if faces > 1:
                i = 0
                while i < RECS:
                    p[REC + i] = p[KEEP + i]
                    i += 1
        f += 1
    p[c] = 0
    return cnt
