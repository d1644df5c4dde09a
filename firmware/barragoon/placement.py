# Where and how to place a Barragoon: the engine's candidate placements.
#
# A placement is any empty square (up to ~45) times any of 16 face states: up to 700 choices,
# and a tile capture brings two of them, one per side. Searching them all is out of the
# question on the RP2040, so candidates are chosen in two stages:
#
# 1. Squares. A Barragoon only ever takes paths away (no face lets a tile go where an empty
#    square would not), plus it can itself be captured. So a square matters exactly as much as
#    the paths through it. Each tile adds, over the squares it could reach on an empty board,
#    the number of its paths through that square (PATHS in evaluation.py): squares next to a
#    tile and on its straight lines weigh most. Enemy tiles count double (taking their moves
#    away is what a placement is for), and the squares on the two L-paths of every capture
#    that threatens one of the placer's tiles get a large bonus (blocking it saves the tile).
#    The best few empty squares are kept, plus the least relevant one: a "neutral" placement
#    that changes nothing, for when every other placement would hurt the placer.
# 2. Faces. On the best squares every face is tried; on the rest only No Entry (X, blocks all)
#    and All Turns (A, cannot be captured by a 2-tile, lets turning paths through).
#    Every (square, face) is then scored exactly by the static evaluation, regenerating only
#    the tiles within reach of the square (Evaluator.delta). The search looks at the best few.
from barragoon.core import EMPTY, SQ2MB, B_X, B_A
from barragoon.evaluation import PATHS

THREAT_BONUS = 60           # per threatening path through the square

_top = bytearray(16)        # best squares so far, best first
_topv = [0] * 16            # their relevance (small ints: a list does not allocate on store)


def clear(ev):
    rel = ev.rel
    for i in range(63):
        rel[i] = 0


def add_tile(ev, slot, placer):
    """Add the relevance the tile in slot gives to the squares around it (one search step)."""
    cells = ev.pos.cells
    rel = ev.rel
    t = ev.pl[slot]
    v = cells[SQ2MB[t]] & 7
    side = slot >> 3
    w = 2 if side != placer else 1
    base = (v - 2) * 81 + 40                 # + (dr + 4) * 9 + df + 4 for offset (df, dr)
    f0 = t % 7
    r0 = t // 7
    for dr in range(-v, v + 1):
        r = r0 + dr
        if r < 0 or r > 8:
            continue
        span = v - (dr if dr >= 0 else -dr)
        for df in range(-span, span + 1):
            f = f0 + df
            if 0 <= f < 7:
                p = PATHS[base + dr * 9 + df]
                if p:
                    rel[r * 7 + f] += p * w
    vm = ev.rvm[slot]
    if side != placer and vm:
        pb = placer * 8
        for i in range(ev.pn[placer]):
            if vm >> i & 1:
                _mark_paths(rel, t, ev.pl[pb + i])


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


def candidates(ev, mv, lo, n_full, n_lean):
    """Write the candidate placements (square * 32 + face code) into mv from lo on: the
    n_full most relevant empty squares with all 16 faces, the next n_lean with X and A, and
    the least relevant empty square with X. Returns the end index."""
    cells = ev.pos.cells
    rel = ev.rel
    want = n_full + n_lean
    top = _top
    topv = _topv
    n = 0
    neutral = -1
    low = 32767
    for sq in range(63):
        if cells[SQ2MB[sq]] != EMPTY:
            continue
        r = rel[sq]
        if r < low:
            low = r
            neutral = sq
        if r <= 0 or (n == want and r <= topv[n - 1]):
            continue
        j = n if n < want else want - 1      # insert, dropping the last when full
        while j > 0 and topv[j - 1] < r:
            top[j] = top[j - 1]
            topv[j] = topv[j - 1]
            j -= 1
        top[j] = sq
        topv[j] = r
        if n < want:
            n += 1
    hi = lo
    for j in range(n):
        sq = top[j] * 32
        if j < n_full:
            for f in range(1, 17):
                mv[hi] = sq + f
                hi += 1
        else:
            mv[hi] = sq + B_X
            mv[hi + 1] = sq + B_A
            hi += 2
        if top[j] == neutral:
            neutral = -1
    if neutral >= 0:
        mv[hi] = neutral * 32 + B_X
        hi += 1
    return hi
