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
#   2. The tiles that never move (Flood.anchor): the greatest set of tiles each without a
#      target on the board of the Barragoons and the others of the set. Without a capture
#      they stay put like the Barragoons, also tiles that only wall each other in. Then the
#      sound flood (no_capture_possible(), allocation-free): each group of the other tiles
#      (side, value) is flooded over the board of those pieces; removing tiles only adds
#      paths, so the flood covers every square those tiles could ever stand on. If no square
#      of the flood has a capture, and no full move from it can end on a square the
#      opponent's tiles could ever reach, no capture is possible whatever both players do.
#      It proves most dead positions at once, but it ignores whose turn it is and that tiles
#      block each other, so it cannot prove a position where tiles could meet only in the
#      wrong order (each side has one move left, and after it nobody can capture).
#   3. Exhaustive searches over the joint positions of the mobile tiles (capture_search.py):
#      each position visited puts the tiles on the board and asks the move generator for the
#      targets of the side to move: a capture decides ALIVE, unless that side loses there
#      (no move, or no more movable tiles than its express stage: the game ends, nobody
#      captures); else its successors are visited, each position once. DEAD only when every
#      position reachable has been visited.
#      3a. With at most 4 mobile tiles, a quick search first: the tiles' squares numbered as
#          they are, at most a small table of positions kept. In open positions a capture
#          turns up at once, before any region is flooded.
#      3b. Each group's region (the squares its mobile tiles could ever stand on, flooded on
#          the board of the pieces that never move) numbers the joint positions tightly.
#          Groups whose tiles can never block or capture each other form separate parts:
#          each part is searched alone, letting a side pass when it has tiles elsewhere
#          (no capture then: none in that part, ever) and letting it pass only by a shuttle
#          of its own tiles elsewhere (a capture then: a real one), and only if that leaves
#          the question open, all tiles together. With at most MAX_STATES joint positions the
#          visited set is a pair of bitmaps, else a hash table of at most MAX_HASHED.
#   Bounds: more joint positions than small ints can number (seen while the regions are
#   flooded, once they overlap into one part: then capture_search.py is not even loaded, as
#   in open play, most turns of a game), no heap, more than MAX_HASHED positions to keep or
#   MAX_EXPANSIONS to visit: UNDECIDED, the game plays on and asks again at the next turn. DEAD is never a guess. Where a search ran into a bound without finding
#   a capture (Decision.exhausted) the board leaves the draw to the players (Game.unproven).
#
# A Decision works in units (step(work): a round of a flood or of the tiles that never move,
# a group's paths, a tile's shuttle or one position visited, at most about 5 ms on the
# RP2040), so the board can spread it over its loop steps; finish() runs it to the end (the
# host, records, tests). The answer depends only on the position and
# the bounds, so the board and a replay of its record always agree. The floods of all decisions
# share one set of buffers (allocation-free); a decision finding them used by another between
# two of its units starts that stage again on buffers of its own.
#
# The repetition rule's duty to deviate (game.py) refuses one move at the root: the search
# leaves it out there (and lets the root position come back later, when the duty is over).
# Deeper in the search the duty is not modelled: a line it would forbid may only make the
# search answer ALIVE where a draw could be declared; the next turn's decision sees it.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from barragoon.core import WHITE, BROWN, EMPTY, TILE, BROWN_BIT, T_MOVE, SQ2MB, Position

ALIVE = const(0)        # a capture is reachable: play on
DEAD = const(1)         # no capture is reachable: rule 6b's draw (when both sides can move)
UNDECIDED = const(2)    # a bound was hit: play on

MAX_STATES = const(32768)      # joint positions numbered in bitmaps (2 bits each: 8 KB)
MAX_HASHED = const(1000)       # ... or, beyond that, kept in a hash table (12 KB)
MAX_EXPANSIONS = const(4000)   # positions the searches may expand

CODES = (0x24, 0x34, 0x23, 0x33, 0x22, 0x32)    # the (side, value) groups, sides alternating

# --- stage 2: the sound flood --------------------------------------------------------------
_STEPS = const(2)           # squares a group expands before the next group's turn
_ZERO = bytes(6 * 63)
_ZERO126 = memoryview(_ZERO)[:126]
_GROUPS = b"\x00\x01\x02\x03\x04\x05"
_HUGE = const(1 << 30)      # joint positions stay small ints (and 32-bit in viper)
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
        self.fixed = bytearray(63)       # [sq]: a tile that never moves stands on sq
        self.join = bytearray(6)         # stage 3: a label of each group's part

    # --- the tiles that never move -------------------------------------------------------------
    def anchor(self, pos):
        # Start finding the tiles that can never move (before a capture): all of them are
        # candidates, on a board of every piece; anchor_round() until it returns False.
        self.work.cells[:] = pos.cells
        fixed = self.fixed
        cells = pos.cells
        for sq in range(63):
            fixed[sq] = 1 if cells[SQ2MB[sq]] & TILE else 0

    def anchor_round(self):
        # A candidate with a target on the board of the Barragoons and the other candidates
        # is no candidate (it leaves that board). What is left once nothing changes never
        # moves: each has no target even where only those tiles stand, and more pieces only
        # block paths or turn an empty target square into a capture, which would be a target
        # there too. (So tiles that wall each other in stay put together.) True: a tile left.
        work = self.work
        fixed = self.fixed
        left = False
        for sq in range(63):
            if fixed[sq] and work.targets(sq):
                fixed[sq] = 0
                work.put(sq, EMPTY)
                left = True
        return left

    # --- stage 2 -------------------------------------------------------------------------------
    def start(self, pos):
        # Each group's flood seeded with its mobile tiles' squares, on the board of the pieces
        # that never move (anchor() has left it in work).
        # (one name at a time: unpacking more than three builds a tuple on MicroPython's heap)
        seen = self.seen
        todo = self.todo
        top = self.top
        reach = self.reach
        fixed = self.fixed
        seen[:] = _ZERO
        reach[:] = _ZERO126
        self.attack[:] = _ZERO126
        for g in range(6):
            top[g] = 0
        for sq in range(63):
            c = pos.get(sq)
            if c & TILE and not fixed[sq]:
                g = CODES.index(c)
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
        code = CODES[g]
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
        # Each group's region is seeded with its mobile tiles, on the board of the pieces that
        # never move (anchor() has left it in work).
        seen = self.seen
        todo = self.todo
        top = self.top
        fixed = self.fixed
        k = self.k
        seen[:] = _ZERO
        for g in range(6):
            top[g] = 0
            k[g] = 0
        for sq in range(63):
            c = pos.cells[SQ2MB[sq]]
            if c & TILE and not fixed[sq]:
                g = CODES.index(c)
                seen[g * 63 + sq] = 1
                todo[g * 63 + top[g]] = sq
                top[g] += 1
                k[g] += 1
        self.size[:] = k
        self.join[:] = _GROUPS

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
                code = CODES[g]
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
                        for h in range(6):
                            if h != g and seen[h * 63 + y]:
                                self._join(g, h)
        return busy

    def _join(self, g, h):
        # Groups whose regions share a square are in one part (capture_search.parts() may
        # join more: paths that cross a region).
        join = self.join
        a = join[h]
        b = join[g]
        if a != b:
            for i in range(6):
                if join[i] == a:
                    join[i] = b

    def one_part(self):
        """True when the regions' overlaps alone join every group with mobile tiles."""
        first = -1
        for g in range(6):
            if self.k[g]:
                if first < 0:
                    first = self.join[g]
                elif self.join[g] != first:
                    return False
        return True

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


# The Flood all decisions share, made with the module (at boot on the board): made by the
# first decision instead, in the loop step after a move, its allocation could start a
# collection that holds up the next player's first lift.
_shared = Flood()
_user = None                # the decision that used it last


def _claim(user):
    global _user
    _user = user
    return _shared


_cs = None


def _search():
    # capture_search.py, imported the first time a search runs (a game that never needs one
    # never loads its code).
    global _cs
    if _cs is None:
        from barragoon import capture_search
        _cs = capture_search
    return _cs


def no_capture_possible(pos):
    """True when the flood proves that no capture can ever happen again from pos, whoever
    moves. False: a capture may be reachable (Decision gives the exact answer).
    Allocation-free (after its first call)."""
    if pos.has_capture(WHITE) or pos.has_capture(BROWN):
        return False
    f = _claim(None)
    f.anchor(pos)
    while f.anchor_round():
        pass
    f.start(pos)
    r = _BUSY
    while r == _BUSY:
        r = f.round()
    return r == _NONE


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
        self.exhausted = False  # UNDECIDED because a search hit a bound (not: too many
        #                         tiles to number their positions)
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
        # The tiles that never move, then stage 2's flood on the board they leave (from the
        # start again if another decision took the buffers meanwhile).
        flood = not pos.has_capture(1 - side)
        r = _BUSY
        while r == _BUSY:
            yield
            f = self._flood()
            f.anchor(pos)
            while True:
                yield
                if self._lost():
                    break
                if not f.anchor_round():
                    r = _MAYBE
                    break
            if r == _BUSY:
                continue
            if flood:
                f.start(pos)
                r = _BUSY
                while r == _BUSY:
                    yield
                    if self._lost():
                        break
                    r = f.round()
        if r == _NONE:
            self.result = DEAD
            return
        # Stage 3 (still in the step that anchored or flooded: f is this decision's).
        self.result = UNDECIDED
        cells = bytes(f.work.cells)           # the board of the pieces that never move
        fixed = bytes(f.fixed)
        regions = None
        while regions is None:
            f = self._flood()
            f.work.cells[:] = cells
            f.fixed[:] = fixed
            f.regions(pos)
            m = 0
            for g in range(6):
                m += f.k[g]
            while True:
                yield
                if self._lost():
                    break
                if not f.region_round():
                    regions = bytes(f.seen)   # (done, in this step: f is still ours)
                    break
                if m > 4 and not f.states(_HUGE) and f.one_part():
                    return                    # too many joint positions to number, and
                    #                           no parts to split them into (open play)
        r = yield from _search().decide(self, pos, cells, fixed, regions, bytes(f.k),
                                        bytes(f.size), stages, refused)
        self.result = r
