# Rule 6b: the game is drawn when both sides can still move but no capture can happen any more
# in the rest of the game. Without a capture no Barragoon moves or appears, so the Barragoons
# are fixed and only the tiles move: the question is whether some sequence of legal
# non-capturing turns by both sides reaches a position in which the side to move may capture.
# The game (game.py) asks it at the start of every turn, after its own tests (no move, express
# stage, repetition) and only while both sides can move.
#
# The answer comes in three stages, each only when the one before has not decided:
#   1. The root: the side to move may capture now (a capture is legal: play on), or it loses
#      here by its express stage or by having no move (no capture in this line).
#   2. no_capture_possible(): a sound over-approximation, allocation-free. Each group of tiles
#      (side, value) is flooded over the board with every tile removed; removing tiles only
#      adds paths, so the flood covers every square those tiles could ever stand on. If no
#      square of the flood has a Barragoon capture, and no full move from it can end on a square
#      the opponent's tiles could ever reach, no capture is possible whatever both players do.
#      It proves most dead positions at once, but it ignores whose turn it is and that tiles
#      block each other, so it cannot prove a position where tiles could meet only in the
#      wrong order (issue 24: each side has one move left, and after it nobody can capture).
#   3. Decision: an exhaustive search over the joint positions of the mobile tiles (tiles that
#      have no target even on a board without other tiles never move: they stay put like the
#      Barragoons). The mobile tiles of each group are flooded over the board with only the
#      fixed pieces on it; the group's k tiles then stand on some k squares of its flood
#      region, numbered by the combinatorial number system (tiles of a group are alike), and a
#      joint position (with the side to move) is one number below `states`, the product of
#      the groups' C(region, k) and 2. A bitmap over those numbers holds the positions seen,
#      another those still to expand, so the search is complete: it declares DEAD only after
#      expanding every position reachable from the root without a capture becoming legal.
#      Each expansion puts the tiles on the board and asks the move generator for the targets
#      of the side to move: a capture target decides ALIVE, unless that side loses there (no
#      move, or no more movable tiles than its express stage: the game ends, nobody captures).
#   Bounds: a search whose `states` would exceed MAX_STATES (bitmaps of MAX_STATES / 4 bytes),
#   that finds no heap for its bitmaps, or that has expanded MAX_EXPANSIONS positions, answers
#   UNDECIDED: the game plays on, and asks again at the next turn. DEAD is never a guess.
#
# A Decision works in steps (step(work): about one expansion or one flood square each, 0.5 to 1
# ms on the RP2040), so the board can spread it over its loop steps; finish() runs it to the
# end (the host, records, tests). The answer depends only on the position and the bounds, so
# the board and a replay of its record always agree.
#
# The repetition rule's duty to deviate (game.py) refuses one move at the root: the search
# leaves it out there (and lets the root position come back later, when the duty is over).
# Deeper in the search the duty is not modelled: a line it would forbid may only make the
# search answer ALIVE where a draw could be declared; the next turn's decision sees it.
try:
    import micropython
    from micropython import const
    _NATIVE = True
except ImportError:  # CPython: the decorator is a no-op and viper's casts are plain values
    class micropython:
        @staticmethod
        def viper(f):
            return f

    def const(x):
        return x

    def ptr8(x):
        return x

    def ptr32(x):
        return x

    _NATIVE = False

from array import array

from barragoon.core import (
    WHITE, BROWN, EMPTY, TILE, BROWN_BIT, T_MOVE, SQ2MB, MB2SQ, Position)

ALIVE = const(0)        # a capture is reachable: play on
DEAD = const(1)         # no capture is reachable: rule 6b's draw (when both sides can move)
UNDECIDED = const(2)    # a bound was hit: play on

MAX_STATES = const(32768)      # joint positions numbered in bitmaps (2 bits each: 8 KB)
MAX_HASHED = const(1000)       # ... or, beyond that, kept in a hash table (12 KB)
MAX_EXPANSIONS = const(4000)   # positions the searches may expand
_QUICK = const(128)            # positions the quick search keeps (its table: 1.5 KB)
_FULL = const(3)               # a search's table is full
_STACK = const(256)            # bitmap mode: positions kept on its stack (1 KB)

_CODES = (0x24, 0x34, 0x23, 0x33, 0x22, 0x32)   # the (side, value) groups, sides alternating

# --- stage 2: the sound flood --------------------------------------------------------------
_STEPS = const(2)           # squares a group expands before the next group's turn
_ZERO = bytes(6 * 63)
_ZERO126 = bytes(126)
_BUSY = const(0)            # Flood.round(): not finished yet
_MAYBE = const(1)           # ... a capture may be reachable
_NONE = const(2)            # ... no capture is possible


class Flood:
    """The buffers (about 1 KB) and steps of the floods: stage 2's sound flood and the flood of
    stage 3's regions. One is shared by all decisions: a decision spread over loop steps
    claims it (_claim) and, if another decision used it in between, starts its stage again
    on a set of its own."""

    def __init__(self):
        self.work = Position()           # the board without tiles (stage 2), without the
        #                                  tiles that can move (stage 3)
        self.seen = bytearray(6 * 63)    # [group * 63 + sq]: the group's flood has reached sq
        self.todo = bytearray(6 * 63)    # [group * 63 + i]: squares still to expand (a stack)
        self.top = bytearray(6)          # stack heights
        self.reach = bytearray(126)      # [side * 63 + sq]: that side's tiles could stand there
        #                                  (stage 3: [sq] a tile that never moves stands on sq)
        self.attack = bytearray(126)     # [side * 63 + sq]: that side could move there in full
        self.k = bytearray(6)            # stage 3: mobile tiles of each group
        self.size = bytearray(6)         # ... and the squares of its region

    def start(self, pos):
        # The board without tiles, and each group's flood seeded with its tiles' squares.
        # (one name at a time: unpacking more than three builds a tuple on MicroPython's heap)
        work = self.work
        seen = self.seen
        todo = self.todo
        top = self.top
        reach = self.reach
        work.cells[:] = pos.cells
        seen[:] = _ZERO
        reach[:] = _ZERO126
        self.attack[:] = _ZERO126
        for g in range(6):
            top[g] = 0
        for sq in range(63):
            c = pos.get(sq)
            if c & TILE:
                work.put(sq, EMPTY)
                g = _CODES.index(c)
                seen[g * 63 + sq] = 1
                todo[g * 63 + top[g]] = sq
                top[g] += 1
                reach[(1 if c & BROWN_BIT else 0) * 63 + sq] = 1

    def round(self):
        """Each group expands up to _STEPS squares: _BUSY, _MAYBE or _NONE."""
        busy = False
        top = self.top
        for g in range(6):
            for i in range(_STEPS):
                if not top[g]:
                    break
                busy = True
                if not self._step(g):
                    return _MAYBE
        return _BUSY if busy else _NONE

    def _step(self, g):
        # Expand one square of group g's flood. False when that shows a capture is reachable.
        work = self.work
        seen = self.seen
        todo = self.todo
        top = self.top
        reach = self.reach
        attack = self.attack
        code = _CODES[g]
        value = code & 7
        base = 63 if code & BROWN_BIT else 0
        other = 63 - base
        t = top[g] - 1
        top[g] = t
        x = todo[g * 63 + t]
        work.put(x, code)
        n = work.targets(x)
        work.put(x, EMPTY)
        tsq, tkind = work.tsq, work.tkind
        xf, xr = x % 7, x // 7
        mine = g * 63
        for i in range(n):
            if tkind[i] != T_MOVE:
                return False                  # a Barragoon capture
            y = tsq[i]
            if abs(y % 7 - xf) + abs(y // 7 - xr) == value:
                attack[base + y] = 1
                if reach[other + y]:
                    return False              # a full move onto a square the opponent reaches
            if not seen[mine + y]:
                seen[mine + y] = 1
                reach[base + y] = 1
                if attack[other + y]:
                    return False              # a square the opponent can move onto in full
                todo[mine + top[g]] = y
                top[g] += 1
        return True

    # --- stage 3's regions ---------------------------------------------------------------------
    def regions(self, pos):
        # The board of the pieces that never move: the Barragoons and the tiles without a
        # target even on a board without other tiles. Each group's region is seeded with its
        # other (mobile) tiles.
        work = self.work
        seen = self.seen
        todo = self.todo
        top = self.top
        fixed = self.reach
        k = self.k
        cells = work.cells
        cells[:] = pos.cells
        seen[:] = _ZERO
        fixed[:] = _ZERO126
        for g in range(6):
            top[g] = 0
            k[g] = 0
        for sq in range(63):
            if cells[SQ2MB[sq]] & TILE:
                cells[SQ2MB[sq]] = EMPTY      # the board without tiles
        for sq in range(63):
            c = pos.cells[SQ2MB[sq]]
            if c & TILE and c != 0xFF:
                cells[SQ2MB[sq]] = c
                n = work.targets(sq)
                cells[SQ2MB[sq]] = EMPTY
                if n:
                    g = _CODES.index(c)
                    seen[g * 63 + sq] = 1
                    todo[g * 63 + top[g]] = sq
                    top[g] += 1
                    k[g] += 1
                else:
                    fixed[sq] = 1
        for sq in range(63):
            if fixed[sq]:
                cells[SQ2MB[sq]] = pos.cells[SQ2MB[sq]]
        self.size[:] = k

    def region_round(self):
        # Each group's region grows by the targets of one of its squares. False when done.
        work = self.work
        seen = self.seen
        todo = self.todo
        top = self.top
        size = self.size
        busy = False
        for g in range(6):
            if top[g]:
                busy = True
                code = _CODES[g]
                t = top[g] - 1
                top[g] = t
                x = todo[g * 63 + t]
                work.put(x, code)
                n = work.targets(x)
                work.put(x, EMPTY)
                tsq, tkind = work.tsq, work.tkind
                for i in range(n):
                    y = tsq[i]
                    if tkind[i] == T_MOVE and not seen[g * 63 + y]:
                        seen[g * 63 + y] = 1
                        todo[g * 63 + top[g]] = y
                        top[g] += 1
                        size[g] += 1
        return busy

    def states(self, limit):
        # Joint positions of the mobile tiles in their regions (2 x the product of each
        # region's size to the power of its tiles), or 0 when more than limit.
        s = 2
        for g in range(6):
            r = self.size[g]
            for j in range(self.k[g]):
                if s > limit // r:
                    return 0
                s *= r
        return s


_shared = None              # the Flood all decisions share
_user = None                # the decision that used it last


def _claim(user):
    global _shared, _user
    if _shared is None:
        _shared = Flood()
    _user = user
    return _shared


def no_capture_possible(pos):
    """True when the flood proves that no capture can ever happen again from pos, whoever
    moves. False: a capture may be reachable (Decision gives the exact answer).
    Allocation-free (after its first call)."""
    if pos.has_capture(WHITE) or pos.has_capture(BROWN):
        return False
    f = _claim(None)
    f.start(pos)
    r = _BUSY
    while r == _BUSY:
        r = f.round()
    return r == _NONE


# --- stage 3: the exact search ------------------------------------------------------------------
# A joint position is a number below `states`: bit 0 is the side to move; then each mobile tile,
# in group order, contributes its index in its group's region (tiles of a group with increasing
# indexes, since they are alike), the region's size as its radix. The inner loops are viper
# functions (machine code on the RP2040: one call per expansion or per tile instead of a
# bytecode loop over squares); they work on one table `tab`:
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
_HUGE = const(1 << 30)      # numbers stay small ints (and 32-bit in viper)
_ALL = b"\x01" * (6 * 63)  # the quick search's regions: every square


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


_CODE_BYTES = bytes(_CODES)


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


class Decision:
    """Rule 6b for one position: can the side to move, or the other side later, ever capture?

        d = Decision(pos, stages, refused)    # refused: a move (frm * 64 + to) not allowed at
        while not d.step(8): ...              # the root (the repetition duty), or -1
        d.result                              # ALIVE, DEAD or UNDECIDED

    pos must not change until the decision is made (Game finishes it before any action). Only
    making a Decision allocates, unless a search runs: it allocates its tables (3 KB) and its
    visited set (up to 8 KB of bitmaps, or a hash table and a stack of 12 KB)."""

    def __init__(self, pos, stages=(0, 0), refused=-1):
        self.result = -1
        self.states = 0        # joint positions the last search numbered (0: none ran)
        self.expanded = 0      # joint positions the searches expanded
        self.bytes = 0         # the largest visited set (bitmaps, or hash table and stack)
        self.max_states = MAX_STATES          # the bounds (tests lower them)
        self.max_hashed = MAX_HASHED
        self.max_expansions = MAX_EXPANSIONS
        self._own = None       # its own flood buffers, once another decision used the shared
        self._run = self._decide(pos, stages, refused)

    def step(self, work=1):
        """Do up to `work` units (an expansion or a round of a flood each). True once
        decided."""
        run = self._run
        if run is None:
            return True
        while work > 0:
            if next(run):                     # (the end is a value, not StopIteration: an
                self._run = None              # exception object would be allocated)
                return True
            work -= 1
        return False

    def finish(self):
        """Decide now; returns the result."""
        while not self.step(1000):
            pass
        return self.result

    # --- the stages ----------------------------------------------------------------------------
    def _flood(self):
        # The shared flood buffers; or, once another decision has used them between two steps
        # of this one, buffers of its own (so that two decisions stepped in turns both end).
        return self._own if self._own is not None else _claim(self)

    def _lost(self):
        # After a step: did another decision use the shared buffers? (Then start the stage
        # again, on buffers of its own.)
        if self._own is None and _user is not self:
            self._own = Flood()
            return True
        return False

    def _decide(self, pos, stages, refused):
        yield from self._stages(pos, stages, refused)
        while True:
            yield True

    def _stages(self, pos, stages, refused):
        side = pos.side
        stage = stages[side]
        if pos.mobile_tiles(side, stage + 1) <= stage:
            self.result = DEAD                # the side to move loses here: nobody captures
            return
        if pos.has_capture(side):
            self.result = ALIVE
            return
        yield
        if not pos.has_capture(1 - side):
            r = _BUSY
            while r == _BUSY:                 # (again if another decision took the buffers)
                f = self._flood()
                f.start(pos)
                while True:
                    yield
                    if self._lost():
                        break
                    r = f.round()
                    if r != _BUSY:
                        break
            if r == _NONE:
                self.result = DEAD
                return
            yield
        self.result = UNDECIDED
        # 3a. With at most 4 mobile tiles, first a quick search that numbers their squares
        # as they are (no regions to flood): in open positions it finds a capture at once.
        f = self._flood()
        f.regions(pos)
        m = 0
        for g in range(6):
            m += f.k[g]
        fresh = True                          # f holds this position's regions as seeded
        if m <= 4:
            run = self._search(pos, f, _ALL, 2 * 63 ** m, _QUICK, stages, refused)
            if run is None:
                return                        # (no heap: UNDECIDED)
            yield
            r = yield from run
            if r != _FULL:
                self.result = r
                return
            fresh = False
            yield
        # 3b. The regions, and the search over them.
        states = -1
        while states < 0:                     # (again if another decision took the buffers)
            if not fresh:
                f = self._flood()
                f.regions(pos)
            fresh = False
            states = f.states(_HUGE)
            while states:
                yield
                if self._lost():
                    states = -1
                    break
                if not f.region_round():
                    break                     # (done, in this step: f is still ours)
                states = f.states(_HUGE)
        if not states:
            return                            # too many joint positions to number
        run = self._search(pos, f, f.seen, states, self.max_hashed, stages, refused)
        if run is not None:
            yield
            r = yield from run
            if r != _FULL:
                self.result = r

    def _search(self, pos, f, regions, states, cap, stages, refused):
        # The search's tables, from the regions (6 x 63 flags) and the shared flood's mobile
        # tiles, and its visited set; then the search itself (a generator), or None if the heap
        # has no room. (Reads f: in the step that flooded the regions.)
        self.states = states
        try:
            board = Position()
            board.cells[:] = f.work.cells     # the pieces that never move
            if states > self.max_states:
                size = 4
                while size < 2 * cap:
                    size <<= 1
                seen = _ints(size)
                stack = _ints(cap)
                self.bytes = max(self.bytes, 4 * (size + cap))
            else:
                seen = bytearray(2 * ((states + 7) >> 3))
                stack = _ints(_STACK)
                cap = 0                       # (bitmap mode)
                self.bytes = max(self.bytes, len(seen) + 4 * _STACK)
            tab = bytearray(_TAB)
            wr = array("i", bytes(4 * 28))
            succ = bytearray(2 * 7 * 32)      # (tile, target) of each move of the side to move
            out = array("i", bytes(4 * 7 * 32))   # ... the numbers of the positions they lead to
        except MemoryError:
            return None
        root = _tables(regions, f.reach, pos.cells, SQ2MB, _CODE_BYTES, f.k, tab, wr, pos.side)
        m = 0
        for c in range(6):
            m += f.k[c]
        movers = ([], [])                     # the tiles of each side
        for t in range(m):
            movers[1 if tab[_TC + t] & BROWN_BIT else 0].append(t)
        ctx = (board, m, tab, wr, movers, succ, out, stages)
        return self._run_search(ctx, root, refused, seen, stack, cap)

    def _run_search(self, ctx, root, refused, seen, stack, cap):
        # Depth first (a capture is found soonest where there is one). Hash mode: every
        # position not seen before goes on the stack. Bitmap mode (cap 0): while the stack has
        # room; the rest are taken from the bitmap in the order of their numbers when it is
        # empty. Returns ALIVE, DEAD, UNDECIDED (too many expansions) or _FULL (the table is
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
            self.expanded += 1
            n = self._expand(ctx, root, refused)
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
                    return _FULL
                if st[0] == 0:
                    return DEAD
                st[0] -= 1
                s = _get(stack, st[0])
            self.expanded += 1
            if self.expanded > self.max_expansions:
                return UNDECIDED
            n = self._expand(ctx, s, -1)
            if n < 0:
                return ALIVE
            yield

    @staticmethod
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
