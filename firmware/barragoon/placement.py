# Where and how to place a Barragoon: the engine's candidate placements inside the tree.
#
# A placement is any empty square (up to ~45) times any of 16 face states: up to 700 choices,
# and a tile capture brings two of them, one per side. The engine's own placements in the
# turn it chooses are scored on every square with every face (evaluation.scan); deeper in the
# tree that is out of the question on the RP2040, so candidates are chosen in two stages:
#
# 1. Squares. A Barragoon only ever takes paths away (no face lets a tile go where an empty
#    square would not), plus it can itself be captured. So a square matters as much as the
#    enemy walks it stops: the squares beside an enemy tile start a third of its walks each,
#    and its targets are where its walks end. The squares on the two L-paths of every
#    capture that threatens one of the placer's tiles get a large bonus (blocking it saves the
#    tile). The placer's own paths are left to the scoring below.
#    The best few empty squares are kept, plus the least relevant one: a "neutral" placement
#    that changes nothing, for when every other placement would hurt the placer.
# 2. Faces. Since no face opens a path, No Entry (X) takes away every path any other face
#    takes away; another face can only be better by leaving some of the placer's own paths
#    open, or by not being capturable by a 2-tile (All Turns, A). So every square gets X and
#    A. Every (square, face) is scored exactly by the static evaluation, regenerating only
#    the tiles within reach of the square. The search looks at the best few.
from barragoon.core import SQ2MB
from barragoon.evaluation import PL, PN, RVM, records

NEXT_TO = 4                 # per enemy tile beside the square
TARGET = 1                  # per enemy tile that could move onto it
THREAT_BONUS = 60           # per threatening path through the square

_top = bytearray(16)        # best squares so far, best first
_topv = [0] * 16            # their relevance (small ints: a list does not allocate on store)


def relevance(ev, placer):
    """ev.rel: how much a Barragoon on each square matters to placer (see the top)."""
    b = ev.b
    rel = ev.rel
    ts = ev.tsq
    for i in range(63):
        rel[i] = 0
    enemy = placer ^ 1
    for s in range(enemy * 8, enemy * 8 + b[PN + enemy]):
        t = b[PL + s]
        f = t % 7
        if f:
            rel[t - 1] += NEXT_TO
        if f < 6:
            rel[t + 1] += NEXT_TO
        if t >= 7:
            rel[t - 7] += NEXT_TO
        if t < 56:
            rel[t + 7] += NEXT_TO
        for i in range(records(b, ev.stamp, ts, ev.tkind, 3, s)):
            rel[ts[i]] += TARGET
        vm = b[RVM + s]
        if vm:
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


def candidates(ev, mv, lo, n_all):
    """Write the candidate placements (square * 32 + face code) into mv from lo on: X and A
    on the n_all most relevant empty squares, and X on the least relevant empty square.
    Returns the end index."""
    cells = ev.b
    rel = ev.rel
    top = _top
    topv = _topv
    n = 0
    neutral = -1
    low = 32767
    for sq in range(63):
        if cells[SQ2MB[sq]]:
            continue
        r = rel[sq]
        if r < low:
            low = r
            neutral = sq
        if r <= 0 or (n == n_all and r <= topv[n - 1]):
            continue
        j = n if n < n_all else n_all - 1    # insert, dropping the last when full
        while j > 0 and topv[j - 1] < r:
            top[j] = top[j - 1]
            topv[j] = topv[j - 1]
            j -= 1
        top[j] = sq
        topv[j] = r
        if n < n_all:
            n += 1
    hi = lo
    for j in range(n):
        sq = top[j]
        mv[hi] = sq * 32 + 1                 # X
        mv[hi + 1] = sq * 32 + 16            # A
        hi += 2
        if sq == neutral:
            neutral = -1
    if neutral >= 0:
        mv[hi] = neutral * 32 + 1
        hi += 1
    return hi
