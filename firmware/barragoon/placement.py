# Where and how to place a Barragoon: the engine's candidate placements.
#
# A placement is any empty square (up to ~45) times any of 16 face states: up to 700 choices,
# and a tile capture brings two of them, one per side. Searching them all is out of the
# question on the RP2040, so candidates are chosen in two stages:
#
# 1. Squares. A Barragoon only ever takes paths away (no face lets a tile go where an empty
#    square would not), plus it can itself be captured. So a square matters exactly as much as
#    the paths through it. Each enemy tile adds, over the squares it could reach on an empty
#    board, the number of its paths through that square (PATHS in evaluation.py): squares
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
from barragoon.core import EMPTY, SQ2MB, B_X, B_A
from barragoon.evaluation import PATHS

THREAT_BONUS = 60           # per threatening path through the square
EXPAND = 0x8000             # candidate flag: try the other faces if X touches own tiles

_top = bytearray(16)        # best squares so far, best first
_topv = [0] * 16            # their relevance (small ints: a list does not allocate on store)


def clear(ev):
    rel = ev.rel
    for i in range(63):
        rel[i] = 0


def add_tile(ev, slot, placer):
    """Add the relevance the enemy tile in slot gives to the squares around it (one step)."""
    cells = ev.pos.cells
    rel = ev.rel
    t = ev.pl[slot]
    v = cells[SQ2MB[t]] & 7
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
                    rel[r * 7 + f] += p
    vm = ev.rvm[slot]
    if vm:
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


def candidates(ev, mv, lo, n_full, n_all, with_a):
    """Write the candidate placements (square * 32 + face code) into mv from lo on: the
    n_all most relevant empty squares with X, and A too if with_a (X flagged EXPAND on the
    first n_full), and the least relevant empty square with X. Returns the end index."""
    cells = ev.pos.cells
    rel = ev.rel
    want = n_all
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
        mv[hi] = sq + B_X + (EXPAND if j < n_full else 0)
        hi += 1
        if with_a:
            mv[hi] = sq + B_A
            hi += 1
        if top[j] == neutral:
            neutral = -1
    if neutral >= 0:
        mv[hi] = neutral * 32 + B_X
        hi += 1
    return hi
