# Rule 6b: the game is drawn when no capture can happen any more. The test here is sound: it
# answers True only when it has proved that no capture is reachable, never by guessing.
#
# Why it is sound: without a capture no Barragoon moves or appears, so the Barragoons are fixed
# for the rest of the game. Each group of tiles (side, value) is flooded over the board with
# every tile removed; removing tiles only adds paths, so the flood over-approximates every
# square those tiles could ever stand on. If no square of the flood has a Barragoon capture,
# and no full move from it can end on a square the opponent's tiles could ever reach, then no
# capture is possible whatever both players do.
#
# Speed: the board asks this after every turn, and in open positions the answer is "a capture
# is reachable". So the six floods advance together, two squares each in turn, and every new
# mark is checked against the other side's marks at once: where tiles can meet, that shows up
# after a few squares instead of after flooding the whole board six times (a nearly empty
# board: 3.5 ms before, 0.3-0.5 ms now on the unix port). Two squares rather than one: a
# Barragoon capture is usually found within the first group's first squares. In a dead
# position every flood still runs to its end (the verdict needs all of them).
from barragoon.core import WHITE, BROWN, EMPTY, TILE, BROWN_BIT, T_MOVE, Position

_CODES = (0x24, 0x34, 0x23, 0x33, 0x22, 0x32)   # the (side, value) groups, sides alternating
_work = None
_seen = bytearray(6 * 63)   # [group * 63 + sq]: the group's flood has reached sq
_todo = bytearray(6 * 63)   # [group * 63 + i]: the group's squares still to expand (a stack)
_top = bytearray(6)         # stack heights
_reach = bytearray(126)     # [side * 63 + sq]: squares that side's tiles could ever reach
_attack = bytearray(126)    # [side * 63 + sq]: squares that side could ever move onto in full
_ZERO = bytes(6 * 63)
_ZERO126 = bytes(126)
_STEPS = 2                  # squares a group expands before the next group's turn


def _start(pos, work):
    # The board without tiles, and each group's flood seeded with its tiles' squares.
    work.cells[:] = pos.cells
    _seen[:] = _ZERO
    _reach[:] = _ZERO126
    _attack[:] = _ZERO126
    for g in range(6):
        _top[g] = 0
    for sq in range(63):
        c = pos.get(sq)
        if c & TILE:
            work.put(sq, EMPTY)
            g = _CODES.index(c)
            _seen[g * 63 + sq] = 1
            _todo[g * 63 + _top[g]] = sq
            _top[g] += 1
            _reach[(1 if c & BROWN_BIT else 0) * 63 + sq] = 1


def _step(work, g):
    """Expand one square of group g's flood. False when that shows a capture is reachable."""
    code = _CODES[g]
    value = code & 7
    base = 63 if code & BROWN_BIT else 0
    other = 63 - base
    top = _top[g] - 1
    _top[g] = top
    x = _todo[g * 63 + top]
    work.put(x, code)
    n = work.targets(x)
    work.put(x, EMPTY)
    tsq, tkind = work.tsq, work.tkind
    xf, xr = x % 7, x // 7
    seen = g * 63
    for i in range(n):
        if tkind[i] != T_MOVE:
            return False                      # a Barragoon capture
        y = tsq[i]
        if abs(y % 7 - xf) + abs(y // 7 - xr) == value:
            _attack[base + y] = 1
            if _reach[other + y]:
                return False                  # a full move onto a square the opponent reaches
        if not _seen[seen + y]:
            _seen[seen + y] = 1
            _reach[base + y] = 1
            if _attack[other + y]:
                return False                  # a square the opponent can move onto in full
            _todo[seen + _top[g]] = y
            _top[g] += 1
    return True


def no_capture_possible(pos):
    """True when no capture can ever happen again from pos, whoever moves."""
    global _work
    if pos.has_capture(WHITE) or pos.has_capture(BROWN):
        return False
    if _work is None:
        _work = Position()
    work = _work
    _start(pos, work)
    busy = True
    while busy:
        busy = False
        for g in range(6):
            for i in range(_STEPS):
                if not _top[g]:
                    break
                busy = True
                if not _step(work, g):
                    return False
    return True
