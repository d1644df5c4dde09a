# Where and how to place a Barragoon: the engine's candidate placements inside the tree.
#
# A placement is any empty square (up to ~45) times any of 16 face states: up to 700 choices,
# and a tile capture brings two of them, one per side. The engine's own placements in the
# turn it chooses are scored on every square with every face (evaluation.scan); deeper in the
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
# runs once per placement node, not per position scored.
from barragoon.core import SQ2MB
from barragoon.evaluation import PL, PN, RVM

try:
    from micropython import const
except ImportError:  # CPython
    from barragoon.hostshim import const

_THREAT_BONUS = const(60)   # per threatening path through the square

_sqs = bytearray(64)        # the squares given a relevance (ev.rel) so far
_top = bytearray(16)        # the best of them, best first
_topv = bytearray(16)       # their relevance (at most 255 counts)


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


def _mark(b, rel, q, n):
    if b[SQ2MB[q]]:
        return n
    if not rel[q]:
        _sqs[n] = q
        n += 1
    rel[q] += _THREAT_BONUS
    return n

