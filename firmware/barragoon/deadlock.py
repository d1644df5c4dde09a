# Rule 6b: the game is drawn when no capture can happen any more. The test here is sound: it
# answers True only when it has proved that no capture is reachable, never by guessing.
#
# Why it is sound: without a capture no Barragoon moves or appears, so the Barragoons are fixed
# for the rest of the game. Each group of tiles (side, value) is flooded over the board with
# every tile removed; removing tiles only adds paths, so the flood over-approximates every
# square those tiles could ever stand on. If no square of the flood has a Barragoon capture,
# and no full move from it can end on a square the opponent's tiles could ever reach, then no
# capture is possible whatever both players do.
from barragoon.core import (
    WHITE, BROWN, EMPTY, TILE, BROWN_BIT, T_MOVE, tile_code)


def _flood(work, side, value, seeds, attack):
    """Mark in a bytearray(63) every square the (side, value) tiles could reach; add their
    full-move targets to attack. Returns None if a Barragoon capture is reachable."""
    seen = bytearray(63)
    todo = []
    for sq in seeds:
        seen[sq] = 1
        todo.append(sq)
    code = tile_code(side, value)
    tsq, tkind = work.tsq, work.tkind
    while todo:
        x = todo.pop()
        work.put(x, code)
        n = work.targets(x)
        work.put(x, EMPTY)
        xf, xr = x % 7, x // 7
        for i in range(n):
            if tkind[i] != T_MOVE:
                return None
            y = tsq[i]
            if abs(y % 7 - xf) + abs(y // 7 - xr) == value:
                attack[y] = 1
            if not seen[y]:
                seen[y] = 1
                todo.append(y)
    return seen


def no_capture_possible(pos):
    """True when no capture can ever happen again from pos, whoever moves."""
    if pos.has_capture(WHITE) or pos.has_capture(BROWN):
        return False
    work = pos.copy()
    groups = {}
    for sq in range(63):
        c = pos.get(sq)
        if c & TILE:
            work.put(sq, EMPTY)
            groups.setdefault(c, []).append(sq)
    reach = [bytearray(63), bytearray(63)]
    attack = [bytearray(63), bytearray(63)]
    for c in groups:
        side = BROWN if c & BROWN_BIT else WHITE
        seen = _flood(work, side, c & 7, groups[c], attack[side])
        if seen is None:
            return False
        r = reach[side]
        for sq in range(63):
            if seen[sq]:
                r[sq] = 1
    for side in (WHITE, BROWN):
        a, r = attack[side], reach[1 - side]
        for sq in range(63):
            if a[sq] and r[sq]:
                return False
    return True
