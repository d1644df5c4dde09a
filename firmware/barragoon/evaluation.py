# The engine's view of a position and its static evaluation.
#
# Everything the search changes lives in one bytearray, Evaluator.b, at fixed offsets (below):
# the board's cells (the rules core's 88-byte mailbox, so the rules core's move generator runs
# on it directly), where each side's tiles stand, and what each tile can do (its "record").
# The work per search node is done by viper functions over that buffer (machine code on the
# board, plain Python on CPython): one call generates the records of some tiles, one scores a
# position, one scores every face of a Barragoon on a square. Nothing here allocates after
# construction. (On a stock MicroPython the machine code is loaded into the heap, which the
# engine shares with the whole firmware: what is not per node stays Python, native code in
# the frozen firmware and bytecode in the .mpy build, as engine.py's search steps.)
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
#   endgame       the side ahead in material (by a 2-tile or more) gains by trading and by
#                 caging what is left (the fewer enemy tiles and moves, the closer the win),
#                 so a won game is pressed home instead of shuffled
# Barragoons that block or channel the opponent are valued through their effect: they remove
# paths, so the opponent's mobility and threats drop, and the same face may leave one's own
# paths open (one-way, two-way and turning faces). No separate table of Barragoon worth.
#
# Records of a changed position: a path or target of a v-tile stays within distance v of it,
# so after a change on a few squares only the tiles within reach are generated again
# (records() mode 1); delta() saves and puts back the records around such a change.
from array import array

from barragoon.core import SQ2MB, PASS, _gen

try:
    import micropython
    from micropython import const
except ImportError:  # CPython
    from barragoon.hostshim import micropython, const, ptr8, ptr16, ptr32

WIN = const(30000)          # score of a won game (minus the levels it takes to get there)
NO_SQ = const(255)
_NO_LEVEL = const(255)

# Evaluator.b: offsets.
PL = const(88)              # 16: square of the tile in slot s = side * 8 + i, i < pn[side]
PN = const(104)             # 2: tiles per side
_PIDX = const(106)          # 63: square -> i of the tile there (within its side), 255: none
_REC = const(172)           # 48: records by slot: moves [0:16], Barragoon captures [16:32],
RBC = const(188)            #     capturable enemy tiles as a bit mask of their i [32:48]
RVM = const(204)            #     (_REC and _KEEP are word-aligned: copied a word at a time)
_KEEP = const(220)          # 48: the records saved around a change (delta(), scan())
_WL = const(268)            # 16: the slots listed by records() mode 1
WN = const(284)
STAGE = const(285)          # 2: the express stages
_GEN = const(287)           # the move generator's stamp generation
_SEEN = const(288)          # scan(): 16 halfwords, the crossings of the faces scored
_SIZE = const(320)
_RECS = const(48)

# Tile worth by tile value (index 2..4), in score units (a 2-tile is 100).
VALUE = b"\x00\x00\x64\x7d\x96"     # 100, 125, 150
_TRAPPED = const(35)         # extra penalty for a tile without a single move
_BARRAGOON_CAPTURE = const(6)  # per capturable Barragoon (at most 3 count)
_STUCK_BONUS = const(250)    # the opponent is at or under its express stage: it loses on move
                            # unless stm frees it
_TRADE = const(10)           # endgame, the side ahead: per enemy tile gone
_CAGE = const(2)             # ... per move under 40 that the enemy's tiles have left


def _tables():
    # _MOBILITY: concave, 12 * sqrt(n) for n = 0..32 moves (a 4-tile has at most 28).
    # _FILE / _RANK of each square (viper on the RP2040 has no divide instruction).
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


def _face_masks():
    # FACE_MASK[c]: bit h_in * 4 + h_out set when a walk may cross a Barragoon with cell code
    # c entering with heading h_in and leaving with h_out (the rules core's PASS table).
    t = array("H", bytes(34))
    for c in range(17):
        for i in range(16):
            if PASS[c * 16 + i]:
                t[c] |= 1 << i
    return t


FACE_MASK = _face_masks()
_MOBILITY = const(0)         # offsets in TABLES
_FILE = const(33)
_RANK = const(96)
del _tables, _face_masks     # built once: their code need not stay in the heap


# --- kernels (viper) --------------------------------------------------------------------------
# (Kept small: on a stock MicroPython the machine code is loaded into the heap, and a call from
# one viper function to another costs more code than most loops.)
@micropython.viper
def copy(dst, do: int, src, so: int):
    # The 48 bytes of a set of records (offsets are multiples of 4), a word at a time.
    d = ptr32(dst)
    s = ptr32(src)
    do = do >> 2
    so = so >> 2
    i = 0
    while i < 12:
        d[do + i] = s[so + i]
        i += 1


@micropython.viper
def records(b, stamp, tsq, tkind, mode: int, arg: int) -> int:
    """Generate the records of some tiles. mode 0: all; 1: the tiles that a change on the
    squares arg & 255 and arg >> 8 (NO_SQ: none) can affect, listed in WL first (a path or
    target of a v-tile stays within distance v of it); 2: the tiles of side arg; 3: the slot
    arg alone (its targets stay in tsq/tkind); 4: the tiles listed in WL. Returns how many of
    them have a move (mode 3: how many moves)."""
    p = ptr8(b)
    sq2mb = ptr8(SQ2MB)
    j = 0
    hi = 16
    if mode == 1:
        t = ptr8(TABLES)
        n = 0
        s = 0
        while s < 16:
            if (s & 7) < p[PN + (s >> 3)]:
                q = p[PL + s]
                z = arg & 255
                while z != NO_SQ:
                    d = int(t[_FILE + q]) - int(t[_FILE + z])
                    e = int(t[_RANK + q]) - int(t[_RANK + z])
                    if d < 0:
                        d = 0 - d
                    if e < 0:
                        e = 0 - e
                    if d + e <= int(p[sq2mb[q]] & 7):
                        p[_WL + n] = s
                        n += 1
                        break
                    if z == arg >> 8:
                        break
                    z = arg >> 8
            s += 1
        p[WN] = n
        mode = 4
    if mode == 4:
        hi = p[WN]
    elif mode == 2:
        j = arg << 3
        hi = j + p[PN + arg]
    elif mode == 3:
        j = arg
        hi = j + 1
    mobile = 0
    while j < hi:
        s = j
        j += 1
        if mode == 4:
            s = p[_WL + s]
        elif (s & 7) >= p[PN + (s >> 3)]:
            continue
        g = p[_GEN] + 1
        if g > 255:
            st = ptr8(stamp)
            g = 0
            while g < 88:
                st[g] = 0
                g += 1
            g = 1
        p[_GEN] = g
        n = int(_gen(b, stamp, tsq, tkind, sq2mb[p[PL + s]], g))
        ts = ptr8(tsq)
        tk = ptr8(tkind)
        bc = 0
        vm = 0
        i = 0
        while i < n:
            if tk[i] == 2:
                vm |= 1 << p[_PIDX + ts[i]]
            elif tk[i] == 3:
                bc += 1
            i += 1
        p[_REC + s] = n
        p[RBC + s] = bc
        p[RVM + s] = vm
        if mode == 3:
            return n
        if n:
            mobile += 1
    return mobile


@micropython.viper
def score(b, stm: int, ply: int) -> int:
    """Static score from stm's view (stm moves next), from the records. Game ends are exact:
    WIN - ply when stm captures the last enemy tile at once, -(WIN - ply) when stm is at or
    under its express stage (stage 0: no move at all)."""
    p = ptr8(b)
    t = ptr8(TABLES)
    val = ptr8(VALUE)
    sq2mb = ptr8(SQ2MB)
    total = 0
    mob = 0            # stm's tiles with a move, and the opponent's << 8
    bc = 0             # Barragoons stm could capture, and the opponent << 8
    vs = 0             # enemy tiles stm could capture, and stm's tiles the opponent could << 8
    best = 0           # the best enemy tile stm could take
    h1 = 0             # stm's two best tiles the opponent could take
    h2 = 0
    mat = 0            # stm's material minus the opponent's
    mvs = 0            # stm's moves, and the opponent's << 8 (how caged each side is)
    k = 0
    while k < 2:       # the opponent's tiles first: its captures are known for stm's tiles
        side = stm ^ 1 ^ k
        sh = 8 - (k << 3)
        i = 0
        while i < p[PN + side]:
            s = (side << 3) + i
            m = p[_REC + s]
            v = int(val[p[sq2mb[p[PL + s]]] & 7])
            x = v + int(t[_MOBILITY + m])
            if not m:
                x -= _TRAPPED
            else:
                mob += 1 << sh
            if k:
                total += x
                mat += v
                mvs += m
                if (vs >> (8 + i)) & 1:
                    if v > h1:
                        h2 = h1
                        h1 = v
                    elif v > h2:
                        h2 = v
            else:
                total -= x
                mat -= v
                mvs += m << 8
            bc += p[RBC + s] << sh
            vs |= p[RVM + s] << sh
            i += 1
        k += 1
    if (mob & 255) <= p[STAGE + stm]:
        return ply - WIN
    opp = stm ^ 1
    i = 0
    while i < p[PN + opp]:
        if (vs >> i) & 1:
            v = int(val[p[sq2mb[p[PL + (opp << 3) + i]]] & 7])
            if v > best:
                best = v
        i += 1
    if best:
        if p[PN + opp] == 1:
            return WIN - ply - 1
        total += best >> 1
    total -= (h1 >> 3) + (h2 >> 1)
    x = bc & 255
    if x > 3:
        x = 3
    i = bc >> 8
    if i > 3:
        i = 3
    total += _BARRAGOON_CAPTURE * (x - i)
    if (mob >> 8) <= p[STAGE + opp]:
        total += _STUCK_BONUS
    if mat < 0:                         # the endgame term (see the top), for the side
        mat = 0 - mat                   # ahead by a 2-tile or more
        opp = stm
        mvs = (mvs & 255) << 8
    if mat >= 100:
        x = mvs >> 8                    # the moves the side behind has left
        if x > 40:
            x = 40
        x = _TRADE * (7 - p[PN + opp]) + _CAGE * (40 - x)
        if opp == stm:
            x = 0 - x
        total += x
    return total


class Evaluator:
    def __init__(self, levels):
        self.b = bytearray(_SIZE)
        self.stamp = bytearray(88)         # the move generator's scratch (see core._gen)
        self.tsq = bytearray(32)
        self.tkind = bytearray(32)
        self.side = self.supply = self.vix = 0
        self.lv = bytearray(_RECS * levels)  # records saved per search level
        self.owner = _NO_LEVEL              # the level whose records _REC now holds
        self.rel = array("h", bytes(126))  # placement relevance per square (candidates())

    def load(self, pos, stages):
        b = self.b
        b[0:88] = pos.cells
        self.side = pos.side
        self.supply = pos.supply
        b[STAGE] = stages[0]
        b[STAGE + 1] = stages[1]
        b[PN] = b[PN + 1] = 0
        for sq in range(63):
            b[_PIDX + sq] = 255
            c = b[SQ2MB[sq]]
            if c & 0x20:
                side = 1 if c & 0x10 else 0
                i = b[PN + side]
                b[PL + side * 8 + i] = sq
                b[_PIDX + sq] = i
                b[PN + side] = i + 1
        self.owner = _NO_LEVEL

    @micropython.native
    def make(self, frm, to):
        """Move the tile frm -> to (a legal move). Returns the cell code captured (0 if
        none); self.vix keeps the captured tile's list index for unmake()."""
        b = self.b
        mt = SQ2MB[to]
        victim = b[mt]
        c = b[SQ2MB[frm]]
        b[mt] = c
        b[SQ2MB[frm]] = 0
        o = (c >> 1) & 8                     # the mover's slots start at o (0 or 8)
        if victim & 0x20:                    # the last enemy tile takes the captured's slot
            e = 8 - o
            j = b[_PIDX + to]
            n = b[PN + (e >> 3)] - 1
            moved = b[PL + e + n]
            b[PL + e + j] = moved
            b[_PIDX + moved] = j
            b[PN + (e >> 3)] = n
            self.vix = j
        i = b[_PIDX + frm]
        b[PL + o + i] = to
        b[_PIDX + to] = i
        b[_PIDX + frm] = 255
        return victim

    @micropython.native
    def unmake(self, frm, to, victim, vix):
        b = self.b
        mt = SQ2MB[to]
        c = b[mt]
        b[SQ2MB[frm]] = c
        b[mt] = victim
        o = (c >> 1) & 8
        i = b[_PIDX + to]
        b[PL + o + i] = frm
        b[_PIDX + frm] = i
        b[_PIDX + to] = 255
        if victim & 0x20:                    # the captured tile back in its slot
            e = 8 - o
            n = b[PN + (e >> 3)]
            moved = b[PL + e + vix]
            b[PL + e + n] = moved
            b[_PIDX + moved] = n
            b[PL + e + vix] = to
            b[_PIDX + to] = vix
            b[PN + (e >> 3)] = n + 1

    @micropython.native
    def record_all(self):
        """Every tile's record; returns the number of tiles."""
        self.owner = _NO_LEVEL
        records(self.b, self.stamp, self.tsq, self.tkind, 0, 0)
        return self.b[PN] + self.b[PN + 1]

    @micropython.native
    def delta(self, a, c, stm, ply):
        """Score (stm's view) of the position after a change on squares a and c (c may be
        NO_SQ), from the records before it; the records are left as they were."""
        b = self.b
        copy(b, _KEEP, b, _REC)
        records(b, self.stamp, self.tsq, self.tkind, 1, a | c << 8)
        v = score(b, stm, ply)
        copy(b, _REC, b, _KEEP)
        return v

    @micropython.native
    def save_level(self, k):
        copy(self.lv, k * _RECS, self.b, _REC)
        self.owner = k

    @micropython.native
    def load_level(self, k):
        copy(self.b, _REC, self.lv, k * _RECS)
        self.owner = k


@micropython.viper
def scan(b, stamp, tsq, tkind, sq: int, stm: int, ply: int, flip: int, ban: int) -> int:
    """Score every face on the empty square sq from stm's view, negated if flip; ban: a
    placement (sq * 32 + face) to leave out. Returns the best score * 32 + its face (the
    first of equals); the records are left as they were; b[WN] is left at the number of
    faces scored.

    Faces that cannot differ are scored once. A walk is straight or one L, so where it
    crosses sq is fixed by where the tile stands: from a tile on sq's rank or file it comes
    in heading away from the tile and goes on straight or turns there; from any other tile it
    has turned already and goes straight on. Two faces that let the same of those crossings
    through leave every record the same (an A differs from the rest also where a 2-tile could
    end on sq with a full move: it cannot take an A). And no face opens a path that an empty
    square closes while X closes every path any face closes, so a tile whose record X leaves
    as it was keeps it under every face: the other faces regenerate only the tiles X
    changed, and none are scored at all when X changed none. When X changed only tiles of the
    placer's enemy (stm, or the other side if flip), no other face can be better for the
    placer (every term of the score gets no better for the placer the more walks the enemy
    has), but an A where an enemy 2-tile could end (it cannot take an A): only that A is
    scored besides X."""
    p = ptr8(b)
    w = ptr32(b)
    fm = ptr16(FACE_MASK)
    sk = ptr16(b)                       # at _SEEN: the crossings of the faces scored so far
    t = ptr8(TABLES)
    sq2mb = ptr8(SQ2MB)
    j = 0
    while j < 12:
        w[(_KEEP >> 2) + j] = w[(_REC >> 2) + j]
        j += 1
    cross = 0                           # crossings walks may make on sq: bit h_in * 4 + h_out
    two = 0                             # a 2-tile could end on sq with a full move
    done = 0
    best = 0
    bs = 0
    only = 0                            # X changed only enemy tiles (see above)
    f = 1
    while f <= 16:
        a = (sq << 5) | f
        key = fm[f] & cross
        if f == 16 and two:
            key = 0xFFFF                # (an A is a kind of its own; no face lets all through)
        j = 0
        while j < done and sk[(_SEEN >> 1) + j] != key:
            j += 1
        if j < done or (f > 1 and not p[WN] and best) or (only and (f < 16 or not two)):
            f += 1                      # scores as a face already scored
            continue
        if a != ban:
            sk[(_SEEN >> 1) + done] = key
            done += 1
        p[sq2mb[sq]] = f
        records(b, stamp, tsq, tkind, 1 if f == 1 else 4, sq | 0xFF00)
        s = int(score(b, stm, ply))
        if flip:
            s = 0 - s
        if f == 1:                      # X: the crossings, and only the tiles X changed
            j = 0
            k = 0
            only = 1 if a != ban else 0
            while j < p[WN]:
                q = p[_WL + j]
                if p[_REC + q] != p[_KEEP + q] or p[RBC + q] != p[_KEEP + 16 + q] or \
                        p[RVM + q] != p[_KEEP + 32 + q]:
                    p[_WL + k] = q
                    k += 1
                    if (q >> 3) == stm ^ flip:
                        only = 0        # one of the placer's own
                q = p[PL + q]
                v = int(p[sq2mb[q]] & 7)
                df = int(t[_FILE + sq]) - int(t[_FILE + q])
                dr = int(t[_RANK + sq]) - int(t[_RANK + q])
                h = 0                   # heading along the file: N, or S
                if dr < 0:
                    h = 2
                    dr = 0 - dr
                e = 1                   # along the rank: E, or W
                if df < 0:
                    e = 3
                    df = 0 - df
                if df + dr == 2 and v == 2:
                    two = 1
                if df + dr < v:
                    if df == 0 or dr == 0:  # in line: straight on, or a turn here
                        if dr == 0:
                            h = e
                        cross |= (1 << (h * 5)) | (1 << (h * 4 + ((h + 1) & 3))) | \
                            (1 << (h * 4 + ((h + 3) & 3)))
                    else:               # turned already: straight on
                        cross |= (1 << (h * 5)) | (1 << (e * 5))
                j += 1
            p[WN] = k
        if a != ban and (best == 0 or s > bs):
            best = f
            bs = s
        j = 0
        while j < 12:
            w[(_REC >> 2) + j] = w[(_KEEP >> 2) + j]
            j += 1
        f += 1
    p[sq2mb[sq]] = 0
    p[WN] = done
    return (bs << 5) | best


# --- candidate placements ------------------------------------------------------------------
# Where and how to place a Barragoon: the engine's candidate placements inside the tree.
#
# A placement is any empty square (up to ~45) times any of 16 face states: up to 700 choices,
# and a tile capture brings two of them, one per side. The engine's own placements in the
# turn it chooses are scored on every square with every face (scan() above); deeper in the
# tree that is out of the question on the RP2040, so candidates are chosen in two stages:
#
# 1. Squares. A Barragoon only ever takes paths away (no face lets a tile go where an empty
#    square would not), plus it can itself be captured. So a square matters as much as the
#    enemy walks it stops: a square beside an enemy tile starts a third of that tile's walks
#    (more for a bigger tile). The squares beside one of the placer's tiles that an enemy
#    tile threatens, on the side the threat comes from, get a large bonus (every walk of the
#    capture ends through one of them: blocking it may save the tile). The placer's own
#    paths are left to the scoring below.
#    The best few squares are kept, plus an empty square beside no enemy tile: a "neutral"
#    placement that changes little, for when every other placement would hurt the placer.
# 2. Faces. Since no face opens a path, No Entry (X) takes away every path any other face
#    takes away; another face can only be better by leaving some of the placer's own paths
#    open, or by not being capturable by a 2-tile (All Turns, A). So every square gets X,
#    the most relevant ones A too. Every (square, face) is scored exactly by the static
#    evaluation, regenerating only the tiles within reach of the square. The search looks at
#    the best few.
# Python, not viper: the heap of a stock Pico has no room for more machine code, and this
# runs once per placement node, not per position scored (native in the frozen firmware).
_THREAT_BONUS = const(60)   # per threatening path through the square

_sqs = bytearray(64)        # the squares given a relevance (ev.rel) so far
_top = bytearray(16)        # the best of them, best first
_topv = bytearray(16)       # their relevance (at most 255 counts)


@micropython.native
def candidates(ev, placer, mv, lo, n_all, n_a):
    """Write the candidate placements for placer (square * 32 + face code) into mv from lo
    on: X on the n_all most relevant empty squares (see the top), A too on the n_a most
    relevant, and X on a neutral square. Returns the end index."""
    b = ev.b
    rel = ev.rel                             # all 0 between calls
    n = 0
    enemy = placer ^ 1
    for s in range(enemy * 8, enemy * 8 + b[PN + enemy]):
        t = b[PL + s]
        w = b[SQ2MB[t]] & 7                  # 2, 3, 4
        f = t % 7
        for d in (-1, 1, -7, 7):             # (a constant tuple: nothing allocated)
            q = t + d
            if 0 <= q < 63 and not (d == -1 and f == 0 or d == 1 and f == 6) \
                    and not b[SQ2MB[q]]:
                if not rel[q]:
                    _sqs[n] = q
                    n += 1
                rel[q] += w
        vm = b[RVM + s]
        if vm:
            pb = PL + placer * 8
            for j in range(b[PN + placer]):
                if vm >> j & 1:
                    q = b[pb + j]
                    if f != q % 7:           # the walk's last step along the rank
                        n = _mark(b, rel, q + (1 if f > q % 7 else -1), n)
                    if t // 7 != q // 7:     # ... or along the file
                        n = _mark(b, rel, q + (7 if t > q else -7), n)
    top = _top
    topv = _topv
    k = 0
    for i in range(n):
        q = _sqs[i]
        r = rel[q] if rel[q] < 255 else 255
        rel[q] = 0
        if k == n_all and r <= topv[k - 1]:
            continue
        j = k if k < n_all else n_all - 1    # insert, dropping the last when full
        while j > 0 and topv[j - 1] < r:
            top[j] = top[j - 1]
            topv[j] = topv[j - 1]
            j -= 1
        top[j] = q
        topv[j] = r
        if k < n_all:
            k += 1
    hi = lo
    for j in range(k):
        q = top[j] * 32
        mv[hi] = q + 1                       # X
        hi += 1
        if j < n_a:
            mv[hi] = q + 16                  # A
            hi += 1
    for q in range(63):                      # neutral: the first empty square left out
        if not b[SQ2MB[q]]:
            j = 0
            while j < n and _sqs[j] != q:
                j += 1
            if j == n:
                mv[hi] = q * 32 + 1
                return hi + 1
    return hi


@micropython.native
def _mark(b, rel, q, n):
    if b[SQ2MB[q]]:
        return n
    if not rel[q]:
        _sqs[n] = q
        n += 1
    rel[q] += _THREAT_BONUS
    return n

