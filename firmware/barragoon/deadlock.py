# Rule 6b: the game is drawn when no capture can happen any more. The test here is sound: it
# answers True only when it has proved that no capture is reachable, never by guessing.
#
# Why it is sound: without a capture no Barragoon moves or appears, so the Barragoons are fixed
# for the rest of the game. Each group of tiles (side, value) is flooded over the board with
# every tile removed; removing tiles only adds paths, so the flood over-approximates every
# square those tiles could ever stand on. If no square of the flood has a Barragoon capture,
# and no full move from it can end on a square the opponent's tiles could ever reach, then no
# capture is possible whatever both players do.
from barragoon.core import WHITE, BROWN, EMPTY, TILE, BROWN_BIT, T_MOVE, Position


_CODES = (0x24, 0x34, 0x23, 0x33, 0x22, 0x32)   # (side, value) groups, farthest-reaching first
_work = None
_seen = bytearray(63)
_todo = bytearray(64)
_reach = bytearray(126)     # [side * 63 + sq]: squares that side's tiles could ever reach
_attack = bytearray(126)    # [side * 63 + sq]: squares that side could ever move onto in full
_ZERO = bytes(126)
_ZERO63 = bytes(63)


def _flood(work, code, side):
    """Flood the (side, value) group over work (tiles removed). Marks _reach and _attack.
    Returns False if a Barragoon capture is reachable, True otherwise."""
    seen, todo = _seen, _todo
    top = 0
    seen[:] = _ZERO63
    value = code & 7
    base = side * 63
    for sq in range(63):
        if _orig[sq] == code:
            seen[sq] = 1
            _reach[base + sq] = 1
            todo[top] = sq
            top += 1
    if not top:
        return True
    tsq, tkind = work.tsq, work.tkind
    while top:
        top -= 1
        x = todo[top]
        work.put(x, code)
        n = work.targets(x)
        work.put(x, EMPTY)
        xf, xr = x % 7, x // 7
        for i in range(n):
            if tkind[i] != T_MOVE:
                return False
            y = tsq[i]
            if abs(y % 7 - xf) + abs(y // 7 - xr) == value:
                _attack[base + y] = 1
            if not seen[y]:
                seen[y] = 1
                _reach[base + y] = 1
                todo[top] = y
                top += 1
    return True


_orig = bytearray(63)


def no_capture_possible(pos):
    """True when no capture can ever happen again from pos, whoever moves."""
    global _work
    if pos.has_capture(WHITE) or pos.has_capture(BROWN):
        return False
    if _work is None:
        _work = Position()
    work = _work
    work.cells[:] = pos.cells
    for sq in range(63):
        c = pos.get(sq)
        _orig[sq] = c if c & TILE else 0
        if c & TILE:
            work.put(sq, EMPTY)
    _reach[:] = _ZERO
    _attack[:] = _ZERO
    for code in _CODES:
        if not _flood(work, code, 1 if code & BROWN_BIT else 0):
            return False
    for sq in range(63):
        if (_attack[sq] and _reach[63 + sq]) or (_attack[63 + sq] and _reach[sq]):
            return False
    return True
