# Rule 6b's search (stage 3 of deadlock.py): is a position in which the side to move may capture
# reachable from the root by legal non-capturing turns? Imported by deadlock.Decision the first
# time a search runs (an endgame, a walled-in position): a game that never needs one never loads
# this code.
#
# A joint position is a number below `states`: bit 0 is the side to move; then each mobile tile,
# in group order, contributes its index in its group's region (tiles of a group with increasing
# indexes, since they are alike), the region's size as its radix. The visited set is a pair of
# bitmaps over the numbers (seen, still to expand) when there are at most max_states of them,
# else a hash table of the numbers seen. The search is depth first (a capture is found soonest
# where there is one): in hash mode every new position goes on a stack; in bitmap mode while a
# stack of 256 has room, the rest are taken from the bitmap in the order of their numbers. It is
# complete: DEAD only once every reachable position has been expanded.
#
# The inner loops are viper functions (machine code on the RP2040: one call per expansion or per
# tile instead of a bytecode loop over squares).
try:
    import micropython
    from micropython import const
    _NATIVE = True
except ImportError:  # CPython: viper runs as plain Python (the engine's stand-ins)
    from barragoon.hostshim import micropython, const, ptr8, ptr32  # noqa: F401
    _NATIVE = False

from array import array

from barragoon.core import BROWN_BIT, SQ2MB, Position
from barragoon.deadlock import ALIVE, DEAD, UNDECIDED, CODES

FULL = const(3)                # a search's table is full (a larger one may decide)
_STACK = const(256)            # bitmap mode: positions kept on its stack (1 KB)
ALL = b"\x01" * (6 * 63)      # the quick search's regions: every square

_TC = const(0)      # [14] tile codes (the mobile tiles, by group)
_TG = const(14)     # [14] each tile's group
_TM = const(28)     # [14] each tile's square (mailbox index) in the position being expanded
_TI = const(42)     # [14] ... and its index in its group's region
_GF = const(56)     # [6] a group's first tile
_GK = const(62)     # [6] its number of tiles
_RS = const(68)     # [6 x 64] a group's region: index -> square (mailbox index)
_RI = const(452)    # [6 x 64] ... square (0-62) -> index
_TAB = const(836)
# and on an array of ints `wr`: [0:14] each tile's weight in the number, [14:28] its radix.


# Zeroed buffers of 32-bit ints for the viper functions (ptr32), made without a temporary as
# large: a bytearray on MicroPython; on CPython, where viper is plain Python, an array.
if _NATIVE:
    _INT_SHIFT = 2

    def _ints(n):
        return bytearray(4 * n)
else:
    _INT_SHIFT = 0

    def _ints(n):
        return array("i", bytes(4 * n))


_CODE_BYTES = bytes(CODES)


@micropython.viper
def _tables(seen: ptr8, fixed: ptr8, cells: ptr8, sq2mb: ptr8, codes: ptr8, k: ptr8,
            tab: ptr8, wr: ptr32, side: int) -> int:
    # The search's tables from the shared flood's regions (seen, k) and the tiles that never
    # move (fixed); returns the root's number.
    m = 0
    w = 2
    root = side
    g = 0
    c = 0
    while c < 6:
        kc = int(k[c])
        if kc:
            code = int(codes[c])
            tab[_GF + g] = m
            tab[_GK + g] = kc
            r = 0
            sq = 0
            while sq < 63:
                if seen[c * 63 + sq]:
                    tab[_RS + (g << 6) + r] = sq2mb[sq]
                    tab[_RI + (g << 6) + sq] = r
                    r += 1
                sq += 1
            sq = 0
            while sq < 63:                    # the group's mobile tiles, in increasing order
                if int(cells[int(sq2mb[sq])]) == code and not fixed[sq]:
                    tab[_TC + m] = code
                    tab[_TG + m] = g
                    wr[m] = w
                    wr[14 + m] = r
                    root += int(tab[_RI + (g << 6) + sq]) * w
                    w *= r
                    m += 1
                sq += 1
            g += 1
        c += 1
    return root


@micropython.viper
def _get(buf: ptr32, i: int) -> int:
    return int(buf[i])


@micropython.viper
def _next(bits: ptr8, nb: int, cur: int) -> int:
    # Take the first position still to expand (bits[nb:]) from byte cur on, wrapping round;
    # returns its number, or -1 when there is none.
    i = cur
    end = nb
    lap = 0
    while lap < 2:
        while i < end:
            v = int(bits[nb + i])
            if v:
                low = 0
                while not (v >> low) & 1:
                    low += 1
                bits[nb + i] = v ^ (1 << low)
                return (i << 3) | low
            i += 1
        i = 0
        end = cur
        lap += 1
    return -1


@micropython.viper
def _place(s: int, m: int, tab: ptr8, wr: ptr32, cells: ptr8) -> int:
    # Put the tiles of position s on the board (and note their squares and indexes).
    rest = s >> 1
    t = 0
    while t < m:
        r = int(wr[14 + t])
        ix = rest % r
        rest = rest // r
        tab[_TI + t] = ix
        mb = int(tab[_RS + (int(tab[_TG + t]) << 6) + ix])
        tab[_TM + t] = mb
        cells[mb] = tab[_TC + t]
        t += 1
    return 0


@micropython.viper
def _clear(m: int, tab: ptr8, cells: ptr8) -> int:
    t = 0
    while t < m:
        cells[tab[_TM + t]] = 0
        t += 1
    return 0


@micropython.viper
def _collect(tkind: ptr8, tsq: ptr8, n: int, t: int, succ: ptr8, ns: int) -> int:
    # Append tile t's targets to succ as (tile, square) pairs; -1 if one is a capture.
    i = 0
    while i < n:
        if int(tkind[i]) != 1:                # T_MOVE
            return -1
        succ[ns] = t
        succ[ns + 1] = tsq[i]
        ns += 2
        i += 1
    return ns


@micropython.viper
def _number(s: int, ns: int, succ: ptr8, tab: ptr8, wr: ptr32, out: ptr32) -> int:
    # The numbers of the successors of position s (the moves in succ) into out.
    flip = 1 - ((s & 1) << 1)
    i = 0
    while i < ns:
        t = int(succ[i])
        g = int(tab[_TG + t])
        b = int(tab[_RI + (g << 6) + int(succ[i + 1])])
        k = int(tab[_GK + g])
        if k == 1:
            s2 = s + flip + (b - int(tab[_TI + t])) * int(wr[t])
        else:
            f = int(tab[_GF + g])
            o0 = int(tab[_TI + f])
            o1 = int(tab[_TI + f + 1])
            a0 = o0
            a1 = o1
            if t == f:
                a0 = b
            elif t == f + 1:
                a1 = b
            if k == 2:
                if a0 > a1:
                    x = a0
                    a0 = a1
                    a1 = x
                s2 = s + flip + (a0 - o0) * int(wr[f]) + (a1 - o1) * int(wr[f + 1])
            else:
                o2 = int(tab[_TI + f + 2])
                a2 = o2
                if t == f + 2:
                    a2 = b
                if a0 > a1:
                    x = a0
                    a0 = a1
                    a1 = x
                if a1 > a2:
                    x = a1
                    a1 = a2
                    a2 = x
                    if a0 > a1:
                        x = a0
                        a0 = a1
                        a1 = x
                s2 = (s + flip + (a0 - o0) * int(wr[f]) + (a1 - o1) * int(wr[f + 1])
                      + (a2 - o2) * int(wr[f + 2]))
        out[i >> 1] = s2
        i += 2
    return ns >> 1


@micropython.viper
def _mark_bits(out: ptr32, n: int, bits: ptr8, nb: int, stack: ptr32, st: ptr32,
               cap: int) -> int:
    # Bitmap mode: mark positions seen and still to expand, unless seen before, and push
    # them on the stack while it has room (st[0]: its height); the rest wait in the bitmap.
    i = 0
    while i < n:
        s = int(out[i])
        byte = s >> 3
        bit = 1 << (s & 7)
        v = int(bits[byte])
        if not (v & bit):
            bits[byte] = v | bit
            bits[nb + byte] = int(bits[nb + byte]) | bit
            if int(st[0]) < cap:
                stack[st[0]] = s
                st[0] = int(st[0]) + 1
        i += 1
    return 0


@micropython.viper
def _pop_bits(bits: ptr8, nb: int, stack: ptr32, st: ptr32) -> int:
    # Bitmap mode: the last position on the stack still to expand, taken off the list; -1
    # when the stack holds none.
    while int(st[0]) > 0:
        t = int(st[0]) - 1
        st[0] = t
        s = int(stack[t])
        byte = nb + (s >> 3)
        bit = 1 << (s & 7)
        v = int(bits[byte])
        if v & bit:
            bits[byte] = v ^ bit
            return s
    return -1


@micropython.viper
def _mark_hash(out: ptr32, n: int, table: ptr32, mask: int, stack: ptr32, st: ptr32,
               cap: int) -> int:
    # Hash mode: push positions not seen before on the stack (st[0]: its height) and into the
    # table (open addressing; st[1]: positions in it). -1 when the table is full.
    i = 0
    while i < n:
        s = int(out[i])
        h = ((s * 40503) ^ (s >> 9)) & mask
        while True:
            v = int(table[h])
            if v == 0:
                if int(st[1]) >= cap:
                    return -1
                table[h] = s + 1
                st[1] = int(st[1]) + 1
                stack[st[0]] = s
                st[0] = int(st[0]) + 1
                break
            if v == s + 1:
                break
            h = (h + 1) & mask
        i += 1
    return 0


def search(d, pos, f, regions, states, caps, stages, refused):
    """The search for Decision d (its counters and bounds), a generator that returns ALIVE,
    DEAD, UNDECIDED (too many expansions, or no heap) or FULL."""
    # Over the regions (6 x 63 flags) of the shared flood f's mobile tiles; the tables are
    # made at once (f is read in the step that flooded the regions). In hash mode with the
    # caps in turn: most searches end within the first, small table.
    d.states = states
    try:
        board = Position()
        board.cells[:] = f.work.cells     # the pieces that never move
        tab = bytearray(_TAB)
        wr = array("i", bytes(4 * 28))
        succ = bytearray(2 * 7 * 32)      # (tile, target) of each move of the side to move
        out = array("i", bytes(4 * 7 * 32))   # ... the numbers of the positions they lead to
    except MemoryError:
        return UNDECIDED
    root = _tables(regions, f.reach, pos.cells, SQ2MB, _CODE_BYTES, f.k, tab, wr, pos.side)
    m = 0
    for c in range(6):
        m += f.k[c]
    movers = ([], [])                     # the tiles of each side
    for t in range(m):
        movers[1 if tab[_TC + t] & BROWN_BIT else 0].append(t)
    ctx = (board, m, tab, wr, movers, succ, out, stages)
    r = FULL
    for cap in caps:
        seen = stack = None               # (the last table's heap is free again)
        try:
            if states > d.max_states:
                size = 4
                while size < 2 * cap:
                    size <<= 1
                seen = _ints(size)
                stack = _ints(cap)
                d.bytes = max(d.bytes, 4 * (size + cap))
            else:
                seen = bytearray(2 * ((states + 7) >> 3))
                stack = _ints(_STACK)
                cap = 0                   # (bitmap mode)
                d.bytes = max(d.bytes, len(seen) + 4 * _STACK)
        except MemoryError:
            return UNDECIDED
        yield
        r = yield from _run(d, ctx, root, refused, seen, stack, cap)
        if r != FULL:
            break
    return r


def _run(d, ctx, root, refused, seen, stack, cap):
    # Depth first (a capture is found soonest where there is one). Hash mode: every
    # position not seen before goes on the stack. Bitmap mode (cap 0): while the stack has
    # room; the rest are taken from the bitmap in the order of their numbers when it is
    # empty. Returns ALIVE, DEAD, UNDECIDED (too many expansions) or FULL (the table is
    # full).
    out = ctx[6]
    st = array("i", (0, 0))               # stack height, positions in the table
    if not cap:
        nb = len(seen) >> 1               # seen[:nb]: seen; seen[nb:]: still to expand
    else:
        mask = (len(seen) >> _INT_SHIFT) - 1
    if refused >= 0:
        # The duty to deviate refuses one move here only: the root is expanded without it
        # and not marked, so that it is expanded in full if it comes back later.
        d.expanded += 1
        n = _expand(ctx, root, refused)
        if n < 0:
            return ALIVE
    else:
        out[0] = root
        n = 1
    cur = 0
    while True:
        if not cap:
            _mark_bits(out, n, seen, nb, stack, st, _STACK)
            s = _pop_bits(seen, nb, stack, st)
            if s < 0:
                s = _next(seen, nb, cur)
                if s < 0:
                    return DEAD           # every position reachable was expanded
                cur = s >> 3
        else:
            if _mark_hash(out, n, seen, mask, stack, st, cap) < 0:
                return FULL
            if st[0] == 0:
                return DEAD
            st[0] -= 1
            s = _get(stack, st[0])
        d.expanded += 1
        if d.expanded > d.max_expansions:
            return UNDECIDED
        n = _expand(ctx, s, -1)
        if n < 0:
            return ALIVE
        yield


def _expand(ctx, s, skip):
    # Expand joint position s: -1 if the side to move may capture there (and does not
    # lose first); else the number of its successors, numbered into out.
    board, m, tab, wr, movers, succ, out, stages = ctx
    cells = board.cells
    _place(s, m, tab, wr, cells)
    side = s & 1
    tsq, tkind = board.tsq, board.tkind
    ns = 0
    mobile = 0
    capture = False
    for t in movers[side]:
        n = board._targets(tab[_TM + t])
        if n:
            mobile += 1
            k = _collect(tkind, tsq, n, t, succ, ns)
            if k < 0:
                capture = True
            else:
                ns = k
    _clear(m, tab, cells)
    if mobile <= stages[side]:
        return 0                          # the side to move loses here
    if capture:
        return -1
    if skip >= 0:
        frm = SQ2MB[skip >> 6]
        for i in range(0, ns, 2):
            if tab[_TM + succ[i]] == frm and succ[i + 1] == skip & 63:
                ns -= 2
                succ[i] = succ[ns]
                succ[i + 1] = succ[ns + 1]
                break
    return _number(s, ns, succ, tab, wr, out)
