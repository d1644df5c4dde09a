# The engine's view of a position: a Position it may change (make/unmake, no copies), lists of
# where each side's tiles stand, and the static evaluation built from what each tile can do.
#
# Everything here is allocation-free after construction: buffers are bytearrays and arrays,
# numbers stay small ints, and nothing returns a tuple. The search (engine.py) calls it once
# per node, so it has to stay lean on the RP2040 too.
#
# How a position is judged (from the side to move, "stm"): each tile's targets are generated
# by the rules core, one tile at a time (a "record": how many moves, how many Barragoons it
# could capture, which enemy tiles it could capture). From the records:
#   material      tile values (a 4-tile is worth more: it reaches farther and is hard to cage)
#   mobility      a concave bonus per tile for its number of moves: the first few moves matter
#                 most, since a tile without moves is dead weight and all tiles without moves
#                 lose the game; a tile with no move at all costs an extra penalty
#   threats       stm may capture at once: half the best victim counts (the victim places
#                 first afterwards and the capturer is exposed); stm's own tiles under attack
#                 count against it: little for one (stm moves it, blocks or takes the
#                 attacker), half for a second one (only one can be saved). Capturing the
#                 last enemy tile is a won game. Weights chosen in self-play matches.
#   Barragoons    every Barragoon a side could capture gives it a free re-placement
#   express       a side whose mobile tiles are at or under its express stage loses on move
# Barragoons that block or channel the opponent are valued through their effect: they remove
# paths, so the opponent's mobility and threats drop, and the same face may leave one's own
# paths open (one-way, two-way and turning faces). No separate table of Barragoon worth.
from array import array

from barragoon.core import (
    EMPTY, TILE, BROWN_BIT, SQ2MB, T_CAPTURE_TILE, T_CAPTURE_BARRAGOON, Position)

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

WIN = const(30000)          # score of a won game (minus the levels it takes to get there)
_NO_TILE = const(255)
NO_SQ = const(255)
NO_LEVEL = const(255)

# Tile worth by tile value (index 2..4), in score units (a 2-tile is 100).
VALUE = (0, 0, 100, 125, 150)
_TRAPPED = const(35)         # extra penalty for a tile without a single move
_BARRAGOON_CAPTURE = const(6)  # per capturable Barragoon (at most 3 count)
_STUCK_BONUS = const(250)    # the opponent is at or under its express stage: it loses on move
                            # unless stm frees it


def _mobility_table():
    # Concave: 12 * sqrt(n), n = 0..32 moves (a 4-tile has at most 28).
    t = bytearray(33)
    for n in range(33):
        r = 0
        while (r + 1) * (r + 1) <= 144 * n:
            r += 1
        t[n] = r
    return bytes(t)


MOBILITY = _mobility_table()
del _mobility_table            # built once: its code need not stay in the heap


def _path_table():
    # PATHS[(v - 2) * 81 + (dr + 4) * 9 + df + 4]: how many paths of a v-tile on an empty
    # board visit the square (df, dr) away, targets included. A Barragoon placed on a square
    # with many paths through it takes many moves away; zero means it cannot touch the tile.
    t = bytearray(3 * 81)
    steps = ((0, 1), (1, 0), (0, -1), (-1, 0))
    for v in range(2, 5):
        base = (v - 2) * 81
        for k in (v - 1, v):
            for h in range(4):
                for first in range(1, k + 1):
                    turns = (h,) if first == k else ((h + 1) & 3, (h + 3) & 3)
                    for h2 in turns:
                        df = dr = 0
                        for a in range(k):
                            d = steps[h] if a < first else steps[h2]
                            df += d[0]
                            dr += d[1]
                            i = base + (dr + 4) * 9 + df + 4
                            if t[i] < 255:
                                t[i] += 1
    return bytes(t)


PATHS = _path_table()
del _path_table


class Evaluator:
    def __init__(self, levels):
        self.pos = Position()
        self.stages = bytearray(2)
        self.pl = bytearray(16)            # tile squares: slot = side * 8 + i, i < pn[side]
        self.pn = bytearray(2)
        self.pidx = bytearray(b"\xff" * 63)  # square -> i of the tile there (within its side)
        self.last_vix = 0                  # make(): list index the captured tile had
        # Records per tile slot (see record()).
        self.rmv = bytearray(16)           # number of moves
        self.rbc = bytearray(16)           # Barragoons it could capture
        self.rvm = bytearray(16)           # bit i: could capture the enemy tile in slot i
        self.wl = bytearray(16)            # touch(): tiles a change can affect
        self.wn = 0
        self._smv = bytearray(16)          # keep(): their records before the change
        self._sbc = bytearray(16)
        self._svm = bytearray(16)
        self.rel = array("h", [0] * 63)    # placement relevance per square (placement.py)
        self.lv = bytearray(48 * levels)   # records saved per search level
        self.owner = NO_LEVEL              # the level whose records rmv/rbc/rvm now hold

    # --- loading and make/unmake ---------------------------------------------------------
    def load(self, pos, stages):
        p = self.pos
        p.cells[:] = pos.cells
        p.side = pos.side
        p.supply = pos.supply
        self.stages[0] = stages[0]
        self.stages[1] = stages[1]
        self.pn[0] = self.pn[1] = 0
        pidx = self.pidx
        for sq in range(63):
            pidx[sq] = _NO_TILE
            c = p.cells[SQ2MB[sq]]
            if c & TILE and c != 0xFF:
                side = 1 if c & BROWN_BIT else 0
                i = self.pn[side]
                self.pl[side * 8 + i] = sq
                pidx[sq] = i
                self.pn[side] = i + 1

    def make(self, frm, to):
        """Move the tile frm -> to (a legal move). Returns the cell code captured (0 if none);
        last_vix keeps the captured tile's list index for unmake()."""
        cells = self.pos.cells
        mf = SQ2MB[frm]
        mt = SQ2MB[to]
        c = cells[mf]
        victim = cells[mt]
        cells[mt] = c
        cells[mf] = EMPTY
        pidx = self.pidx
        pl = self.pl
        side = 1 if c & BROWN_BIT else 0
        if victim & TILE:
            opp = side ^ 1
            j = pidx[to]
            last = self.pn[opp] - 1
            moved = pl[opp * 8 + last]
            pl[opp * 8 + j] = moved
            pidx[moved] = j
            self.pn[opp] = last
            self.last_vix = j
        i = pidx[frm]
        pl[side * 8 + i] = to
        pidx[to] = i
        pidx[frm] = _NO_TILE
        return victim

    def unmake(self, frm, to, victim, vix):
        cells = self.pos.cells
        mf = SQ2MB[frm]
        mt = SQ2MB[to]
        c = cells[mt]
        cells[mf] = c
        cells[mt] = victim
        pidx = self.pidx
        pl = self.pl
        side = 1 if c & BROWN_BIT else 0
        i = pidx[to]
        pl[side * 8 + i] = frm
        pidx[frm] = i
        pidx[to] = _NO_TILE
        if victim & TILE:
            opp = side ^ 1
            n = self.pn[opp]
            moved = pl[opp * 8 + vix]
            pl[opp * 8 + n] = moved
            pidx[moved] = n
            pl[opp * 8 + vix] = to
            pidx[to] = vix
            self.pn[opp] = n + 1

    def slot(self, i):
        """The i-th tile slot over both sides (White's first): i < pn[0] + pn[1]."""
        n0 = self.pn[0]
        return i if i < n0 else 8 + i - n0

    # --- evaluation ----------------------------------------------------------------------
    def record(self, slot):
        """Generate the targets of the tile in slot and keep what the evaluation needs.
        Returns its number of moves; pos.tsq/tkind hold the targets."""
        pos = self.pos
        n = pos.targets(self.pl[slot])
        tk = pos.tkind
        ts = pos.tsq
        pidx = self.pidx
        bc = 0
        vm = 0
        for i in range(n):
            k = tk[i]
            if k == T_CAPTURE_TILE:
                vm |= 1 << pidx[ts[i]]
            elif k == T_CAPTURE_BARRAGOON:
                bc += 1
        self.rmv[slot] = n
        self.rbc[slot] = bc
        self.rvm[slot] = vm
        return n

    def record_all(self):
        for i in range(self.pn[0] + self.pn[1]):
            self.record(self.slot(i))

    def score(self, stm, ply):
        """Static score from stm's view (stm moves next), from the records. Game ends are
        exact: WIN - ply when stm captures the last enemy tile at once, -(WIN - ply) when stm
        is at or under its express stage (stage 0: no move at all)."""
        cells = self.pos.cells
        pl = self.pl
        pn = self.pn
        rmv = self.rmv
        opp = stm ^ 1
        so = stm * 8
        oo = opp * 8
        total = 0
        mob_s = 0
        bc_s = 0
        vm_s = 0          # enemy tiles stm could capture
        for i in range(pn[stm]):
            s = so + i
            v = cells[SQ2MB[pl[s]]] & 7
            n = rmv[s]
            total += VALUE[v] + MOBILITY[n]
            if n:
                mob_s += 1
            else:
                total -= _TRAPPED
            bc_s += self.rbc[s]
            vm_s |= self.rvm[s]
        if mob_s <= self.stages[stm]:
            return ply - WIN
        mob_o = 0
        bc_o = 0
        vm_o = 0          # stm's tiles the opponent could capture
        for i in range(pn[opp]):
            s = oo + i
            v = cells[SQ2MB[pl[s]]] & 7
            n = rmv[s]
            total -= VALUE[v] + MOBILITY[n]
            if n:
                mob_o += 1
            else:
                total += _TRAPPED
            bc_o += self.rbc[s]
            vm_o |= self.rvm[s]
        if vm_s:
            if pn[opp] == 1:
                return WIN - ply - 1
            best = 0
            for i in range(pn[opp]):
                if vm_s >> i & 1:
                    v = VALUE[cells[SQ2MB[pl[oo + i]]] & 7]
                    if v > best:
                        best = v
            total += best // 2
        if vm_o:
            h1 = h2 = 0
            for i in range(pn[stm]):
                if vm_o >> i & 1:
                    v = VALUE[cells[SQ2MB[pl[so + i]]] & 7]
                    if v > h1:
                        h2 = h1
                        h1 = v
                    elif v > h2:
                        h2 = v
            total -= h1 // 8 + h2 // 2
        total += _BARRAGOON_CAPTURE * ((bc_s if bc_s < 3 else 3) - (bc_o if bc_o < 3 else 3))
        if mob_o <= self.stages[opp]:
            total += _STUCK_BONUS
        return total

    # --- records of a changed position: only the tiles the change can reach ---------------
    def touch(self, a, b):
        """List in wl (wn entries) the tiles that a change on square a, and on b unless it is
        NO_SQ, can affect: a path or target of a v-tile stays within distance v of it."""
        cells = self.pos.cells
        pl = self.pl
        wl = self.wl
        fa = a % 7
        ra = a // 7
        if b == NO_SQ:
            fb = rb = 99
        else:
            fb = b % 7
            rb = b // 7
        n = 0
        for i in range(self.pn[0] + self.pn[1]):
            s = self.slot(i)
            t = pl[s]
            v = cells[SQ2MB[t]] & 7
            f = t % 7
            r = t // 7
            if abs(f - fa) + abs(r - ra) <= v or abs(f - fb) + abs(r - rb) <= v:
                wl[n] = s
                n += 1
        self.wn = n
        return n

    def keep(self):
        """Save the records of the listed tiles (restore() puts them back)."""
        for j in range(self.wn):
            s = self.wl[j]
            self._smv[j] = self.rmv[s]
            self._sbc[j] = self.rbc[s]
            self._svm[j] = self.rvm[s]

    def changed(self, side):
        """True if a listed tile of side has another record than keep() saved."""
        for j in range(self.wn):
            s = self.wl[j]
            if s >> 3 == side and (self.rmv[s] != self._smv[j] or self.rbc[s] != self._sbc[j]
                                   or self.rvm[s] != self._svm[j]):
                return True
        return False

    def restore(self):
        for j in range(self.wn):
            s = self.wl[j]
            self.rmv[s] = self._smv[j]
            self.rbc[s] = self._sbc[j]
            self.rvm[s] = self._svm[j]

    # --- the records of a search level -----------------------------------------------------
    def save_level(self, k):
        lv = self.lv
        b = k * 48
        for s in range(16):
            lv[b + s] = self.rmv[s]
            lv[b + 16 + s] = self.rbc[s]
            lv[b + 32 + s] = self.rvm[s]
        self.owner = k

    def load_level(self, k):
        lv = self.lv
        b = k * 48
        for s in range(16):
            self.rmv[s] = lv[b + s]
            self.rbc[s] = lv[b + 16 + s]
            self.rvm[s] = lv[b + 32 + s]
        self.owner = k
