# Rule 6b's searches (stage 3 of deadlock.py): is a position in which the side to move may
# capture reachable from the root by legal non-capturing turns? Imported by deadlock.Decision
# the first time a search runs (an endgame, a walled-in position): a game that never needs
# one never loads this code. decide() runs them: the quick search, the parts (groups of tiles
# that can never block or capture each other, parts()) one by one, then all tiles together.
#
# A joint position is a number below `states`: bit 0 is the side to move; then each mobile tile
# searched, in group order, contributes its index in its group's region (tiles of a group with
# increasing indexes, since they are alike), the region's size as its radix. The visited set is
# a pair of bitmaps over the numbers (seen, still to expand) when there are at most max_states
# of them, else a hash table of the numbers seen. The search is depth first (a capture is
# found soonest where there is one): in hash mode every new position goes on a stack; in bitmap
# mode while a stack of 256 has room, the rest are taken from the bitmap in the order of their
# numbers. It is complete: DEAD only once every reachable position has been expanded. A side
# allowed to pass (a tile of its own elsewhere moves) has the same tiles with the other side
# to move as one more successor.
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

from barragoon.core import BROWN_BIT, T_MOVE, SQ2MB, MB2SQ, PASS, Position
from barragoon.deadlock import ALIVE, DEAD, UNDECIDED, CODES

FULL = const(3)                # a search's table is full (a larger one may decide)
_STACK = const(256)            # bitmap mode: positions kept on its stack (1 KB)
_QUICK = const(128)            # positions the quick search keeps (its table: 1.5 KB)
_HUGE = const(1 << 30)         # numbers stay small ints (and 32-bit in viper)
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
def _walk(cells: ptr8, pas: ptr8, mb2sq: ptr8, marks: ptr8, base: int, m: int) -> int:
    # Mark (marks[base + square]) every square a path of the tile on mailbox index m crosses
    # or ends on: the walk of core._gen, every square instead of the last two.
    v = int(cells[m]) & 7
    h = 0
    while h < 4:
        d = 8 - 7 * (h & 1)
        if h >= 2:
            d = 0 - d
        s = m
        a = 0
        while a < v:
            s += d
            a += 1
            c = int(cells[s])
            if c == 0xFF:
                break
            marks[base + int(mb2sq[s])] = 1
            if a == v or c > 16:
                break
            b = c * 16 + h * 4
            t = 1
            while t < 4:
                o = (h + t) & 3
                t += 2
                if not pas[b + o]:
                    continue
                e = 8 - 7 * (o & 1)
                if o >= 2:
                    e = 0 - e
                oo = o * 5
                s2 = s
                a2 = a
                while a2 < v:
                    s2 += e
                    a2 += 1
                    c2 = int(cells[s2])
                    if c2 == 0xFF:
                        break
                    marks[base + int(mb2sq[s2])] = 1
                    if a2 == v or c2 > 16 or not pas[c2 * 16 + oo]:
                        break
            if not pas[b + h]:
                break
        h += 1
    return 0


@micropython.viper
def _meets(regions: ptr8, marks: ptr8, g: int, h: int) -> int:
    # Does group g's region hold a square a path of group h crosses or ends on?
    a = g * 63
    b = h * 63
    i = 0
    while i < 63:
        if regions[a + i] and marks[b + i]:
            return 1
        i += 1
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


def decide(d, pos, cells, fixed, regions, k, size, stages, refused):
    """Stage 3 of Decision d, a generator that returns ALIVE, DEAD or UNDECIDED. cells: the
    board of the pieces that never move (fixed: their squares); regions, k, size: each
    group's region (6 x 63 flags), mobile tiles and squares."""
    m = 0
    for g in range(6):
        m += k[g]
    none = (False, False)
    if m <= 4:
        # In open positions a capture turns up at once: numbering the squares as they are
        # needs no parts, and a small table.
        r = yield from search(d, pos, cells, fixed, ALL, k, 2 * 63 ** m,
                              (min(_QUICK, d.max_hashed),), stages, none, refused)
        if r != FULL:
            return r
        yield
    comp = yield from parts(cells, regions, k)
    if max(comp) > 0:
        r = yield from _by_parts(d, pos, cells, fixed, regions, k, size, comp, stages, refused)
        if r != FULL:
            return r
    states = count(k, size)
    if not states:
        return UNDECIDED                  # too many joint positions to number
    caps = (_QUICK, d.max_hashed) if d.max_hashed > _QUICK else (d.max_hashed,)
    r = yield from search(d, pos, cells, fixed, regions, k, states, caps, stages, none,
                          refused)
    if r == FULL:
        d.exhausted = True
        return UNDECIDED
    return r


def count(k, size):
    # Joint positions of the mobile tiles k in their regions (2 x the product of each
    # region's size to the power of its tiles), or 0 when too many to number.
    s = 2
    for g in range(6):
        r = size[g]
        for j in range(k[g]):
            if s > _HUGE // r:
                return 0
            s *= r
    return s


def parts(cells, regions, k):
    """The groups' parts, a generator returning [6]: the part of each group. Two groups
    share a part when one's region holds a square that a path of the other (from any
    square of its region) crosses or ends on: only then can one's tile block or capture
    the other's. Groups without mobile tiles: part 0, with the first."""
    marks = bytearray(6 * 63)
    board = bytearray(cells)
    for g in range(6):
        if k[g]:
            code = CODES[g]
            for sq in range(63):
                if regions[g * 63 + sq]:
                    mb = SQ2MB[sq]
                    board[mb] = code
                    _walk(board, PASS, MB2SQ, marks, g * 63, mb)
                    board[mb] = 0
            yield
    comp = bytearray(range(6))
    for g in range(6):
        for h in range(g + 1, 6):
            if k[g] and k[h] and comp[g] != comp[h] and (
                    _meets(regions, marks, g, h) or _meets(regions, marks, h, g)):
                a = comp[h]
                for i in range(6):
                    if comp[i] == a:
                        comp[i] = comp[g]
    # numbered 0, 1, ... in order of their first group
    ids = bytearray(b"\xff" * 6)
    n = 0
    for g in range(6):
        if k[g]:
            if ids[comp[g]] == 255:
                ids[comp[g]] = n
                n += 1
            comp[g] = ids[comp[g]]
        else:
            comp[g] = 0
    return comp


def _by_parts(d, pos, cells, fixed, regions, k, size, comp, stages, refused):
    # Each part alone. No capture can happen in it, whatever the other parts do, when none
    # is reachable even if each side may pass whenever it has a mobile tile elsewhere (it
    # loses only if that holds with all its tiles elsewhere movable): the over search. A
    # capture is reachable when one is with the tiles elsewhere standing still, except a
    # shuttle (see _shuttles) by which a side passes for real: the under search.
    # DEAD when no part has a capture; ALIVE when a part has one in the under search; else
    # FULL (the joint search decides).
    tiles = bytearray(12)                 # [part * 2 + side]: mobile tiles
    for g in range(6):
        tiles[comp[g] * 2 + (1 if CODES[g] & BROWN_BIT else 0)] += k[g]
    movable = bytearray(12)               # ... of those, the ones that can move now
    low = bytearray(12)                   # ... or with a shuttle's move played, the fewer
    shuttle = yield from _shuttles(pos, fixed, comp, tiles, movable, low, refused)
    allof = bytearray(2)
    nowof = bytearray(2)
    for p in range(6):
        for side in range(2):
            allof[side] += tiles[p * 2 + side]
            nowof[side] += movable[p * 2 + side]
    sel = bytearray(6)
    r = DEAD
    for p in range(max(comp) + 1):
        for g in range(6):
            sel[g] = k[g] if comp[g] == p else 0
        states = count(sel, size)
        if not states:
            r = FULL
            continue
        out0 = allof[0] - tiles[p * 2]
        out1 = allof[1] - tiles[p * 2 + 1]
        yield
        over = yield from search(d, pos, cells, fixed, regions, sel, states, (d.max_hashed,),
                                 (stages[0] - out0, stages[1] - out1), (out0 > 0, out1 > 0),
                                 refused)
        if over == DEAD:
            continue
        if over == UNDECIDED:
            return UNDECIDED              # (the work is used up)
        passes = [False, False]
        least = [0, 0]                    # the fewest tiles elsewhere that can move
        for side in range(2):
            q = -1
            for x in range(6):
                if x != p and shuttle[x * 2 + side]:
                    q = x
                    break
            passes[side] = q >= 0
            least[side] = nowof[side] - movable[p * 2 + side]
            if q >= 0:
                least[side] -= movable[q * 2 + side] - low[q * 2 + side]
        yield
        under = yield from search(d, pos, cells, fixed, regions, sel, states,
                                  (d.max_hashed,),
                                  (stages[0] - least[0], stages[1] - least[1]),
                                  (passes[0], passes[1]), refused)
        if under == ALIVE or under == UNDECIDED:
            return under
        r = FULL
    return r


def _shuttles(pos, fixed, comp, tiles, movable, low, refused):
    # A side may pass for ever, for real, in a part that holds only its own tiles, if one of
    # them can move now and move back next: nobody else moves there, so the pair of moves
    # can be played again and again. A generator (a tile a unit) that returns [part * 2 +
    # side]: 1 where there is one; fills movable (the tiles of each part and side that can
    # move now) and low (as movable, but the fewer of the two positions of a shuttle).
    shuttle = bytearray(12)
    work = pos.copy()
    pc = pos.cells
    for sq in range(63):
        c = pc[SQ2MB[sq]]
        if c & 0x20 and not fixed[sq] and work.targets(sq):
            movable[comp[CODES.index(c)] * 2 + (1 if c & BROWN_BIT else 0)] += 1
    low[:] = movable
    for sq in range(63):
        c = pc[SQ2MB[sq]]
        if not c & 0x20 or fixed[sq]:
            continue
        side = 1 if c & BROWN_BIT else 0
        part = comp[CODES.index(c)]
        at = part * 2 + side
        if shuttle[at] or tiles[part * 2 + 1 - side]:
            continue
        yield
        n = work.targets(sq)
        moves = bytes(work.tsq[:n]) if n else b""
        kinds = bytes(work.tkind[:n]) if n else b""
        for i in range(n):
            to = moves[i]
            if kinds[i] != T_MOVE or sq * 64 + to == refused:
                continue
            work.put(to, c)
            work.put(sq, 0)
            if work.target_kind(to, sq) == T_MOVE:
                shuttle[at] = 1
                m = 0
                for x in range(63):
                    cx = work.cells[SQ2MB[x]]
                    if cx & 0x20 and not fixed[x] and comp[CODES.index(cx)] == part and \
                            (1 if cx & BROWN_BIT else 0) == side and work.targets(x):
                        m += 1
                low[at] = min(low[at], m)
            work.put(sq, c)
            work.put(to, 0)
            if shuttle[at]:
                break
    return shuttle


def search(d, pos, cells, fixed, regions, k, states, caps, stages, passes, refused):
    """One search for Decision d (its counters and bounds), a generator that returns ALIVE,
    DEAD, UNDECIDED (too many expansions, or no heap: d.exhausted) or FULL. Over the
    mobile tiles of the groups k (tiles each) in their regions (6 x 63 flags), on the board
    cells of the pieces that never move; stages: the stage at which each side loses (its
    express stage less the movable tiles the search leaves out); passes: whether each side
    may pass (it has a tile elsewhere to move). In hash mode with the caps in turn: most
    searches end within the first, small table."""
    d.states = states
    try:
        board = Position()
        board.cells[:] = cells            # the pieces that never move
        tab = bytearray(_TAB)
        wr = array("i", bytes(4 * 28))
        succ = bytearray(2 * 7 * 32)      # (tile, target) of each move of the side to move
        out = array("i", bytes(4 * (7 * 32 + 1)))   # ... the positions they lead to
    except MemoryError:
        d.exhausted = True
        return UNDECIDED
    root = _tables(regions, fixed, pos.cells, SQ2MB, _CODE_BYTES, k, tab, wr, pos.side)
    m = 0
    for c in range(6):
        m += k[c]
    movers = ([], [])                     # the tiles of each side
    for t in range(m):
        movers[1 if tab[_TC + t] & BROWN_BIT else 0].append(t)
    ctx = (board, m, tab, wr, movers, succ, out, stages, passes)
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
            d.exhausted = True
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
            d.exhausted = True
            return UNDECIDED
        n = _expand(ctx, s, -1)
        if n < 0:
            return ALIVE
        yield


def _expand(ctx, s, skip):
    # Expand joint position s: -1 if the side to move may capture there (and does not
    # lose first); else the number of its successors, numbered into out.
    board, m, tab, wr, movers, succ, out, stages, passes = ctx
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
    n = _number(s, ns, succ, tab, wr, out)
    if passes[side]:                      # a move elsewhere: the other side to move here
        out[n] = s ^ 1
        n += 1
    return n
