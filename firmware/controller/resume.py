# Power-on in the middle of a turn (controller/judge.py): where the board differs from the saved
# game and no piece needs putting right by hand, the differences are replayed as events of the
# open turn, and the stories say whether a turn in progress explains the board; also the move
# saved last whose tile was slid on before the board could save that. What players see:
# firmware/README.md, "After a power cut".
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from barragoon.game import action_move, action_captures
from controller import timing
from controller.nextturn import codes
from controller.stories import AIRN, K_MOVE, C_WRONG, C_ODD, own as _own

_HELD = const(2)          # pieces a turn in progress has in the hands at most (a tile and its
#                           victim): more missing at power-on is a board to put right


class Resume:
    def __init__(self, judge):
        self.j = judge

    def resume(self, t):
        """The board differs from the game: take the differences as events of the open turn
        (lifts long enough ago, then set-downs; touches nobody saw bind nobody: a piece may
        have been on its way back). If a story explains the board about as well as a turn in
        progress (no stray piece, no piece on another's square, no tile resting where it
        cannot go), play goes on with it (True); else the board is put right. (A capture
        whose tile stands where its victim stood is not seen: the lights show that tile
        lifted, and setting it down again there makes the capture. A piece set down since
        then may be the capture's Barragoon as well as that tile resting in transit: the
        board is put right.) More than AIRN squares changed (a broken sensor row, pieces
        taken off) is no turn in progress."""
        j = self.j
        s, b0 = j.sensed, j.b0
        side = j.game.pos.side
        n = own = 0
        for sq in range(63):
            if s[sq] != (1 if b0[sq] else 0):
                n += 1
                if b0[sq] and _own(b0[sq], side):
                    own += 1
        if n > AIRN:
            return False
        self._replay(t, -1)
        if own > 1 and not self._made():
            # Several of the mover's tiles are off: one made the move, the others were lifted
            # after it landed (a victim the opponent took up early, a knock): a finished move,
            # where "all of them in the mover's hand" is a turn that cannot go on.
            first = 0
            while first < 63:
                if b0[first] and not s[first] and _own(b0[first], side):
                    self._replay(t, first)
                    if self._made():
                        break
                first += 1
            if first == 63:
                self._replay(t, -1)
        pool = j.pool
        h = pool.hs[0]
        if pool.pruned or pool.over or h.cost >= C_ODD or h.n > _HELD or j.game.over:
            j._start_repair(None)
            return False
        j.t_last = t
        j.decided = False
        j._live()
        return True

    def _replay(self, t, first):
        # The differences as events: lifts, then set-downs; with first >= 0 only that one of
        # the mover's tiles is lifted before the set-downs, its others after them.
        j = self.j
        s, b0 = j.sensed, j.b0
        j._new_turn(True, False)
        t0 = (t - timing.RESUME_MS) & 0x3FFFFFFF
        j.tm.free, j.tm.free_to = True, t
        side = j.turn.side
        for sq in range(63):
            if b0[sq] and not s[sq] and (first < 0 or sq == first or not _own(b0[sq], side)):
                j._lift(sq, t0)
        for rank in range(3):
            for sq in range(63):
                if s[sq] and not b0[sq] and j.order(sq) == rank:
                    j._drop(sq, t)
        if first >= 0:
            for sq in range(63):
                if b0[sq] and not s[sq] and sq != first and _own(b0[sq], side):
                    j._lift(sq, t)

    def _made(self):
        pool = self.j.pool
        h = pool.hs[0]
        self.j._kind(h)
        return h.kind == K_MOVE and not pool.pruned and not pool.over and h.cost < C_WRONG

    def power_on(self, t):
        """Go on with the turn in progress the board shows, or put the board right."""
        if not self.revised(t, True) and not self.resume(t):
            self.revised(t, False)

    def standing(self, m, t):
        """The board came up as saved and the first event is the tile of its last move m
        lifted at t: that move was open until the next player began (their touches would
        have been saved), so it is made again as live, in the mover's turn; the lift then
        opens it again (the mover moving on) or, where the opponent can take the tile there,
        leaves both stories (Judge._lift). (Judge.begin chose m: a plain move.)"""
        j = self.j
        g = j.game
        g.undo()
        codes(g, j.b0)
        j._new_turn(True, False)
        t0 = (t - timing.RESUME_MS) & 0x3FFFFFFF
        j.tm.free, j.tm.free_to = True, t
        j._lift(m >> 6, t0)
        j._drop(m & 63, (t0 + timing.RESUME_MS // 2) & 0x3FFFFFFF)
        k = j._interpret(False)
        if k >= 0 and j.pool.hs[k].kind == K_MOVE and j.pool.hs[k].m == m:
            j._act(k, t, False)
        if j.committed != m:               # (not expected: the move was legal there)
            if j.committed >= 0:
                g.undo()
            g.move(m >> 6, m & 63)
            j.committed = -1
            j._new_turn(True, False)

    def revised(self, t, held):
        """The last move's tile is not on its target: the mover moved on, and the power
        failed before the board saved that. held: the tile is in the hand, lifted again from
        its target (where the next player can capture it, that player may have taken it up:
        both stories stay, as live), else it stands on another square it may go to. The move
        in progress is that one, as the board would have seen it live (True); otherwise the
        saved move stands."""
        j = self.j
        g = j.game
        a = g.actions[-1] if g.actions else 1
        m = action_move(a)
        if m < 0 or action_captures(a) or j.sensed[m & 63]:
            return False
        n = len(g.actions)
        g.undo()
        codes(g, j.b0)
        j.fix.start(j.b0, None)
        if self.resume(t):
            h = j.pool.hs[0]
            j._kind(h)
            if not held and (h.m >> 6 == m >> 6 and h.kind == K_MOVE or len(g.actions) >= n
                             and action_move(g.actions[n - 1]) >> 6 == m >> 6):
                return True                 # (made, and closed where the next player began)
            if held and h.n == 1 and h.af[0] == m >> 6 and j.sensed[m >> 6] == 0:
                t0 = (t - timing.RESUME_MS // 2) & 0x3FFFFFFF
                j._drop(m & 63, t0)         # (landed, and lifted from there again)
                j._lift(m & 63, t)
                j._live()
                return True
        while len(g.actions) >= n:         # (what the replay made of it: an opponent's
            g.undo()                       # lift may have closed the turn)
        g.move(m >> 6, m & 63)
        j._start_repair(None)
        return False
