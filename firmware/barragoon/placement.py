# Where and how to place a Barragoon: the engine's candidate placements.
#
# A placement is any empty square (up to ~45) times any of 16 face states: up to 700 choices,
# and a tile capture brings two of them, one per side. Searching them all is out of the
# question on the RP2040, so candidates are chosen in two stages:
#
# 1. Squares. A Barragoon only ever takes paths away (no face lets a tile go where an empty
#    square would not), plus it can itself be captured. So a square matters exactly as much as
#    the paths through it. Each enemy tile adds, over the squares it could reach on an empty
#    board, the number of its paths through that square (PATHS below): squares
#    next to a tile and on its straight lines weigh most. The squares on the two L-paths of
#    every capture that threatens one of the placer's tiles get a large bonus (blocking it
#    saves the tile). The placer's own paths are left to the scoring below.
#    The best few empty squares are kept, plus the least relevant one: a "neutral" placement
#    that changes nothing, for when every other placement would hurt the placer.
# 2. Faces. Since no face opens a path, No Entry (X) takes away every path any other face
#    takes away; another face can only be better by leaving some of the placer's own paths
#    open, or by not being capturable by a 2-tile (All Turns, A). So every square gets X and
#    A, and on the best few squares, when X turns out to touch one of the placer's own tiles,
#    the other 14 faces are tried too (EXPAND; engine.py adds them after scoring X).
#    Every (square, face) is scored exactly by the static evaluation, regenerating only the
#    tiles within reach of the square. The search looks at the best few.
from array import array

from barragoon.core import SQ2MB
from barragoon.evaluation import TABLES

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

# Offsets in Evaluator.b and TABLES, as evaluation.py has them (viper needs them as constants
# of this module; host_tests/test_engine.py checks that they agree).
PL = const(88)
PN = const(104)
RVM = const(201)
FILE = const(33)
RANK = const(96)

THREAT_BONUS = 60           # per threatening path through the square
EXPAND = 0x8000             # candidate flag: try the other faces if X touches own tiles

_top = bytearray(16)        # best squares so far, best first
_topv = array("H", bytes(32))   # their relevance


def _path_table():
    # PATHS[(v - 2) * 81 + (dr + 4) * 9 + df + 4]: how many paths of a v-tile on an empty
    # board visit the square (df, dr) away, targets included. A Barragoon placed on a square
    # with many paths through it takes many moves away; zero means it cannot touch the tile.
    t = bytearray(3 * 81)
    steps = ((0, 1), (1, 0), (0, -1), (-1, 0))
    for v in range(2, 5):
        base = (v - 2) * 81
        for k in (v - 1, v):
            for h in range(4):
                for first in range(1, k + 1):
                    turns = (h,) if first == k else ((h + 1) & 3, (h + 3) & 3)
                    for h2 in turns:
                        df = dr = 0
                        for a in range(k):
                            d = steps[h] if a < first else steps[h2]
                            df += d[0]
                            dr += d[1]
                            i = base + (dr + 4) * 9 + df + 4
                            if t[i] < 255:
                                t[i] += 1
    return bytes(t)


PATHS = _path_table()
del _path_table


@micropython.viper
def _paths(b, rel, enemy: int):
    # rel[sq] = the paths of enemy's tiles through sq (see the top).
    p = ptr8(b)
    r16 = ptr16(rel)
    t = ptr8(TABLES)
    pt = ptr8(PATHS)
    sq2mb = ptr8(SQ2MB)
    i = 0
    while i < 63:
        r16[i] = 0
        i += 1
    s = enemy << 3
    end = s + p[PN + enemy]
    while s < end:
        q = p[PL + s]
        v = p[sq2mb[q]] & 7
        base = (v - 2) * 81 + 40
        f0 = int(t[FILE + q])
        r0 = int(t[RANK + q])
        dr = 0 - v
        while dr <= v:
            r = r0 + dr
            if 0 <= r and r <= 8:
                span = v - (dr if dr >= 0 else 0 - dr)
                df = 0 - span
                while df <= span:
                    f = f0 + df
                    if 0 <= f and f < 7:
                        n = pt[base + dr * 9 + df]
                        if n:
                            r16[r * 7 + f] += n
                    df += 1
            dr += 1
        s += 1


def relevance(ev, placer):
    """ev.rel: how much a Barragoon on each square matters to placer (see the top)."""
    b = ev.b
    rel = ev.rel
    enemy = placer ^ 1
    _paths(b, rel, enemy)
    for i in range(b[PN + enemy]):
        vm = b[RVM + enemy * 8 + i]
        if vm:
            t = b[PL + enemy * 8 + i]
            pb = PL + placer * 8
            for j in range(b[PN + placer]):
                if vm >> j & 1:
                    _mark_paths(rel, t, b[pb + j])


def _mark_paths(rel, a, q):
    # The squares strictly between a and q on the straight line or on both L-paths.
    fa = a % 7
    ra = a // 7
    fq = q % 7
    rq = q // 7
    sf = 1 if fq > fa else -1
    sr = 7 if rq > ra else -7
    if fa != fq and ra != rq:
        s = a                                # along the rank first, then the file
        while s % 7 != fq:
            s += sf
            rel[s] += THREAT_BONUS
        while s + sr != q:
            s += sr
            rel[s] += THREAT_BONUS
        s = a                                # along the file first, then the rank
        while s // 7 != rq:
            s += sr
            rel[s] += THREAT_BONUS
        while s + sf != q:
            s += sf
            rel[s] += THREAT_BONUS
    else:
        d = sf if ra == rq else sr
        s = a + d
        while s != q:
            rel[s] += THREAT_BONUS
            s += d


@micropython.viper
def candidates(b, rel, mv, lo: int, n_full: int, n_all: int, with_a: int) -> int:
    """Write the candidate placements (square * 32 + face code) into mv from lo on: the
    n_all most relevant empty squares with X, and A too if with_a (X flagged EXPAND on the
    first n_full), and the least relevant empty square with X. Returns the end index."""
    p = ptr8(b)
    r16 = ptr16(rel)
    m16 = ptr16(mv)
    sq2mb = ptr8(SQ2MB)
    top = ptr8(_top)
    topv = ptr16(_topv)
    n = 0
    neutral = -1
    low = 32767
    sq = 0
    while sq < 63:
        if p[sq2mb[sq]] != 0:
            sq += 1
            continue
        r = int(r16[sq])
        if r >= 32768:
            r -= 65536
        if r < low:
            low = r
            neutral = sq
        if r <= 0 or (n == n_all and r <= int(topv[n - 1])):
            sq += 1
            continue
        j = n
        if n == n_all:
            j = n_all - 1                    # insert, dropping the last when full
        while j > 0 and int(topv[j - 1]) < r:
            top[j] = top[j - 1]
            topv[j] = topv[j - 1]
            j -= 1
        top[j] = sq
        topv[j] = r
        if n < n_all:
            n += 1
        sq += 1
    hi = lo
    j = 0
    while j < n:
        a = int(top[j]) << 5
        if j < n_full:
            m16[hi] = a + 1 + 0x8000         # X, EXPAND
        else:
            m16[hi] = a + 1
        hi += 1
        if with_a:
            m16[hi] = a + 16                 # A
            hi += 1
        if int(top[j]) == neutral:
            neutral = -1
        j += 1
    if neutral >= 0:
        m16[hi] = (neutral << 5) + 1
        hi += 1
    return hi
