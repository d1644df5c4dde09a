"""The 2-ply reference player: a plain, fixed opponent the engine's levels are measured against.

It shares only the rules core (barragoon.core, barragoon.game) with the engine, and plays
exactly what issue 23 describes:

- A move: alpha-beta over the mover's turn and the reply, then a static evaluation.
- The evaluation, from one side's view: per tile its material (2-tile 100, 3-tile 120, 4-tile
  145) plus 3 per target square, capped at 12 per tile, and -30 for a tile without a move;
  the same for the other side, subtracted. A side to move without a tile, or without a tile
  that can move, loses (WIN = 30000).
- Inside the search a placement puts an X next to enemy tiles (the placer's enemy): on the
  empty square with the most enemy tiles beside it (then the most enemy material, then the
  lowest square). At the root, for the mover's own placement after capturing a Barragoon, the
  best 8 such squares are each searched. After a tile capture the captured side places first,
  then the capturer, as the supply allows; capturing the last tile wins at once.
- A real placement (the game waits for this player to place): every empty square is scored
  with X by the evaluation, the best 6 squares are tried with all 16 faces, and the best 4 of
  those are checked against the opponent's best reply (its placement by the rule above when it
  places next, else its best turn one ply deep).

Draws: it offers the repetition draw, and accepts an offered draw, when its evaluation of the
position does not have it ahead by more than DRAW_MARGIN (bench_engine.py asks; the engine
takes a draw on the same terms).

Runs on CPython and on MicroPython (tools/bench/bench_engine.py plays it on the unix port: the rules
core's move generator is machine code there). Ties are broken by fixed keys, never by the
order of a sort, so both give the same games.
"""
if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/reference_player.py is a module the tools import, not a tool "
                     "(tools/README.md lists the tools)\n")
    sys.exit(2)

from barragoon.core import EMPTY, TILE, BROWN_BIT, MAX_BARRAGOON, SQ2MB, B_X

WIN = 30000
INF = 32000
DRAW_MARGIN = 40
VALUE = (0, 0, 100, 120, 145)
_ADJ = (1, -1, 7, -7)


def _tiles(pos, side):
    want = TILE | (BROWN_BIT if side else 0)
    cells = pos.cells
    return [sq for sq in range(63) if cells[SQ2MB[sq]] & 0xF8 == want]


def _side_terms(pos, side):
    """(material + mobility terms, tiles, movable tiles) of side."""
    total = 0
    tiles = movable = 0
    cells = pos.cells
    want = TILE | (BROWN_BIT if side else 0)
    for sq in range(63):
        c = cells[SQ2MB[sq]]
        if c & 0xF8 == want:
            tiles += 1
            n = pos.targets(sq)
            total += VALUE[c & 7] + (12 if n >= 4 else 3 * n)
            if n:
                movable += 1
            else:
                total -= 30
    return total, tiles, movable


def evaluate(pos, me, stm):
    """Static score from me's view with stm to move next (a side to move that cannot move
    has lost)."""
    a, ta, ma = _side_terms(pos, me)
    b, tb, mb = _side_terms(pos, me ^ 1)
    if stm == me and (ta == 0 or ma == 0):
        return -WIN
    if stm != me and (tb == 0 or mb == 0):
        return WIN
    return a - b


def x_squares(pos, placer, count):
    """The empty squares next to the placer's enemy tiles, best first (see the top); the
    first empty square when there is none."""
    cells = pos.cells
    enemy = TILE | (0 if placer else BROWN_BIT)
    scored = []
    for sq in range(63):
        if cells[SQ2MB[sq]] != EMPTY:
            continue
        n = worth = 0
        f = sq % 7
        for d in _ADJ:
            t = sq + d
            if t < 0 or t >= 63 or (d == 1 and f == 6) or (d == -1 and f == 0):
                continue
            c = cells[SQ2MB[t]]
            if c & 0xF8 == enemy:
                n += 1
                worth += VALUE[c & 7]
        if n:
            scored.append((n * 100000 + worth * 64 + 63 - sq, sq))
    if not scored:
        for sq in range(63):
            if cells[SQ2MB[sq]] == EMPTY:
                return [sq]
        return []
    scored.sort()
    scored.reverse()
    return [s for _, s in scored[:count]]


class Searcher:
    """Alpha-beta on a Position of its own (moves and placements made and taken back)."""

    def __init__(self, pos):
        self.pos = pos.copy()

    def _ordered(self, side):
        pos = self.pos
        keyed = []
        for m in pos.legal_moves(side):
            c = pos.get(m % 64)
            v = VALUE[c & 7] * 2 if c & TILE else (1 if c else 0)
            keyed.append((v * 4096 + 4095 - m, m))
        keyed.sort()
        keyed.reverse()
        return [m for _, m in keyed]

    def turns(self, side, depth, alpha, beta, root_wide=False):
        """Score of the best turn of side (to move), depth turns deep, side's view."""
        pos = self.pos
        if depth == 0:
            return evaluate(pos, side, side)
        moves = self._ordered(side)
        if not moves or not _tiles(pos, side):
            return -WIN
        best = -INF
        for m in moves:
            v = self.after_move(side, m, depth, alpha, beta, root_wide)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def after_move(self, side, m, depth, alpha, beta, root_wide):
        """Make move m of side, its placements, the rest of the search; take it all back."""
        pos = self.pos
        frm, to = m // 64, m % 64
        victim = pos.get(to)
        pos.put(to, pos.get(frm))
        pos.put(frm, EMPTY)
        opp = side ^ 1
        if victim == EMPTY:
            v = self._reply(opp, depth, alpha, beta)
        elif victim <= MAX_BARRAGOON:
            squares = x_squares(pos, side, 8 if root_wide else 1)
            v = -INF
            for sq in squares:
                pos.put(sq, B_X)
                w = self._reply(opp, depth, alpha, beta)
                pos.put(sq, EMPTY)
                if w > v:
                    v = w
            if not squares:
                v = self._reply(opp, depth, alpha, beta)
        elif not _tiles(pos, opp):
            v = WIN
        else:
            supply = pos.supply
            take = min(2, supply)
            pos.supply = supply - take
            placed = []
            for placer in (opp, side)[:take]:
                sq = x_squares(pos, placer, 1)
                if sq:
                    pos.put(sq[0], B_X)
                    placed.append(sq[0])
            v = self._reply(opp, depth, alpha, beta)
            for sq in placed:
                pos.put(sq, EMPTY)
            pos.supply = supply
        pos.put(frm, pos.get(to))
        pos.put(to, victim)
        return v

    def _reply(self, opp, depth, alpha, beta):
        return -self.turns(opp, depth - 1, -beta, -alpha)


class ReferencePlayer:
    name = "ref2"

    def __init__(self, seed=0):
        self.turns = 0
        self.score = 0              # its last evaluation of its position, its view

    def act(self, game):
        if game.placing() >= 0:
            sq, face = self.placement(game)
            game.place(sq, face)
            return
        side = game.pos.side
        s = Searcher(game.pos)
        allowed = game.legal_moves()
        best = None
        alpha = -INF
        for m in s._ordered(side):
            if m not in allowed:
                continue              # refused by the duty to deviate after a repetition
            v = s.after_move(side, m, 2, alpha, INF, True)
            if best is None or v > alpha:
                best = m
                alpha = v
        self.turns += 1
        self.score = alpha
        game.move(best // 64, best % 64)

    def placement(self, game):
        """(square, face) for the placement the game waits for from this player."""
        me = game.placing()
        pos = game.pos.copy()
        pending = game.pending[1:]             # who else places in this turn
        mover = pos.side                       # whose turn it is: the other side moves next
        next_mover = mover ^ 1
        empty = [sq for sq in range(63) if pos.get(sq) == EMPTY]
        scored = []
        for sq in empty:
            pos.put(sq, B_X)
            scored.append((evaluate(pos, me, next_mover), 63 - sq, sq))
            pos.put(sq, EMPTY)
        scored.sort()
        scored.reverse()
        faces = []
        for _, _, sq in scored[:6]:
            for face in range(1, 17):
                if not game.placement_allowed(sq, face):
                    continue
                pos.put(sq, face)
                faces.append((evaluate(pos, me, next_mover), 63 - sq, 16 - face, sq, face))
                pos.put(sq, EMPTY)
        faces.sort()
        faces.reverse()
        best = None
        for _, _, _, sq, face in faces[:4]:
            pos.put(sq, face)
            v = self._against_reply(pos, me, pending, next_mover)
            pos.put(sq, EMPTY)
            if best is None or v > best[0]:
                best = (v, sq, face)
        if best is None:                       # every face refused (cannot happen: a
            sq = empty[0]                      # repetition refuses one face of one square)
            return sq, 2 if game.placement_allowed(sq, 1) is False else 1
        self.score = best[0]
        return best[1], best[2]

    def _against_reply(self, pos, me, pending, next_mover):
        # The position after this placement, answered by the opponent's best reply: its own
        # placement (X next to my tiles, the square worst for me of the best 8), or its best
        # turn one ply deep when it moves next; my view.
        if pending and pending[0] != me:
            worst = None
            for sq in x_squares(pos, pending[0], 8):
                pos.put(sq, B_X)
                v = evaluate(pos, me, next_mover)
                pos.put(sq, EMPTY)
                if worst is None or v < worst:
                    worst = v
            return evaluate(pos, me, next_mover) if worst is None else worst
        if next_mover == me:
            return evaluate(pos, me, me)
        return -Searcher(pos).turns(next_mover, 1, -INF, INF)

    def wants_draw(self, game):
        """Offer or accept a draw: when its evaluation does not have it clearly ahead."""
        me = game.turn if game.offered else 1 - game.pos.side
        return evaluate(game.pos, me, game.pos.side) <= DRAW_MARGIN
