# The next turn, worked out before it starts (controller/judge.py): once a move is committed and
# the board is still, its position, homes and legal moves are prepared, so the opponent's first
# lift closes the turn without computing anything; and which of the open turn's stories go on
# into it (agree with its position), each re-homed to it.
from controller.stories import NEW, NOHOME, tables, is_barragoon as _barragoon


def codes(game, out):
    """The game's position as piece codes, into out."""
    pos = game.pos
    for sq in range(63):
        out[sq] = pos.get(sq)


class NextTurn:
    def __init__(self, turn):
        self.turn = turn                   # the open turn (its start and seen squares)
        self.b0 = bytearray(63)            # the next turn's position, homes and moves
        self.home = bytearray(63)
        self.dest = bytearray(63)
        self.movable = bytearray(63)
        self.moves = None
        self.prepared = -1                 # the committed move it was prepared for
        self.last = ""                     # ... and the game's last turn then (an offer
        #                                    from the menu changes it)
        self.ready = False                 # position(): it had been prepared
        self.agreeing = 0                  # the stories that go on, a bit each
        self.homes = bytearray(63)         # scratch: rehome
        self._pad0 = self._pad1 = 0        # (room: see Judge's _pad0)

    def prepare(self, game, committed, pool):
        """At rest, after a commit: work out the next turn and the stories that agree."""
        codes(game, self.b0)
        self._homes()
        self.moves = game.legal_moves()
        tables(self.moves, self.dest, self.movable)
        self.prepared = committed
        self.last = game.last_turn_text()
        self.agree(pool)

    def is_for(self, game, committed):
        return self.prepared >= 0 and self.prepared == committed and \
            self.last == game.last_turn_text()

    def agree(self, pool):
        """agreeing: the stories of pool that show the next turn's position (valid while the
        board is still)."""
        m = 0
        for i in range(pool.nh):
            if self.agrees(pool.hs[i]):
                m |= 1 << i
        self.agreeing = m

    def position(self, game, committed):
        """The position and legal moves for a turn starting now (b0, home; dest and movable
        too if ready: it had been prepared). Returns the moves."""
        ready = self.is_for(game, committed)
        if ready:
            moves = self.moves             # prepared at rest: nothing to compute now
        else:
            codes(game, self.b0)
            self._homes()
            moves = game.legal_moves()
        self.prepared = -1
        self.moves = None
        self.last = ""
        self.ready = ready
        return moves

    def _homes(self):
        nh, nb0 = self.home, self.b0
        for sq in range(63):
            nh[sq] = sq if nb0[sq] else NOHOME

    def agrees(self, h):
        """Does story h show the next position where it differs from the open turn's start?"""
        tn = self.turn
        bd, old, nb0 = h.board, tn.b0, self.b0
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            sq = seen[i]
            a = nb0[sq]
            if a == old[sq] or not a:      # (a piece where the game has none: judged next)
                continue
            c = bd[sq]
            if c == a or (c == NEW or _barragoon(c)) and _barragoon(a):
                continue
            if c == 0 and h.held(a) >= 0:
                continue
            return False
        return True

    def rehome(self, h):
        """Story h starts the next turn: pieces as the game names them, each at home where it
        stands, a piece in a hand belonging to its square at the turn start (or the one it
        was last lifted from) if the game has it there; any other piece in a hand (a captured
        one) leaves the hands."""
        tn = self.turn
        bd, hm, nb0 = h.board, self.homes, self.b0
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            sq = seen[i]
            c, a = bd[sq], nb0[sq]
            if c and a and c != a and (c == NEW or _barragoon(c)) and _barragoon(a):
                bd[sq] = a                 # the face the players gave it
            old = h.home[sq]
            if c and a != c and old != NOHOME and old != sq and not bd[old] and \
                    nb0[old] == c:
                hm[sq] = old               # a tile of the new turn slid on: still from there
            else:
                hm[sq] = sq if bd[sq] else NOHOME
        h.home[:] = self.home
        for i in range(tn.seen_n):
            h.home[seen[i]] = hm[seen[i]]
        k = 0
        while k < h.n:
            s = h.ah[k]                    # (its square at the turn start, else the one it
            if s == NOHOME or bd[s] or nb0[s] != h.ac[k]:   # was lifted from last)
                s = h.af[k]
            if nb0[s] == h.ac[k]:          # (its square may hold a piece that took it:
                h.ah[k] = s                # the next turn's capture, begun early)
                k += 1
            else:
                h.take(k)                  # set aside: out of the game
