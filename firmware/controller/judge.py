# Physical play: what happened on the board, decided from the whole board.
#
# The sensors see presence only. The judge keeps every physical history that fits the sensor
# events of the open turn (a "story": which piece stands on which square, which pieces are in
# the players' hands), branching when a piece is set down while several different pieces are
# in hands. Nothing is decided from a single event: once every square has been still for the
# settle time, each hypothesis is classified against the game:
#   K_NONE   every piece back where the turn started
#   K_MOVE   exactly the position one legal move produces (its victim in a hand)
#   K_PLACE  after the committed capture, a Barragoon stands on an empty square
#   K_DUTY   a legal move that touch-move forbids
#   K_BAD    every piece down, but in no legal arrangement (two tiles swapped)
#   K_OPEN   a piece is still in a hand, or stands where nothing explains it
# One valid interpretation (K_NONE / K_MOVE / K_PLACE) and no equally likely complete
# alternative: it is applied (a move is committed, undone, or a placement waits for its face).
# Several: the players are asked. None: the LEDs and the screen say what to fix, and a piece
# resting on a wrong square flashes and beeps (errors only at rest, never in transit).
# A story that needs a different piece to come down where one was lifted less than ADJUST_MS
# before (a very fast capture, or a reed bouncing under a hand that holds the attacker) is
# never applied by itself: the players confirm it or answer "No move yet".
# More stories than MAXH (many different pieces in the hands at once) or more pieces in hands
# than AIRN: the judge cannot follow any more. It says so, asks for every piece to go back
# where the turn started (a committed move of the turn is taken back), and asks the players to
# confirm that every piece is on its own square before the turn starts again.
#
# Timing (config.py): SETTLE_MS of stillness before anything is decided; ADJUST_MS: a lift
# shorter than this that ends on the same square is an adjustment (no touch-move duty, and the
# same piece is assumed back, so a bouncing reed is harmless); REOPEN_MS: after a commit the
# mover may lift the moved piece again and carry on with the same move. The opponent's first
# lift of one of their own tiles closes the previous turn at once.
#
# Per event the judge updates the stories and the live LED meanings without allocating; the
# classification at rest allocates a little (it runs once per rest). The parts: stories.py
# (the physical stories and their branching), touchmove.py (touches and duties), view.py
# (what the LEDs and the screen show), this module (events, decisions, answers).
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x
from array import array

from barragoon.core import RulesError
from controller import colours as C
from controller.stories import (  # noqa: F401  (the kinds are used by tests and modes too)
    Hyp, Stories, NEW, NOHOME, MAXH, AIRN, SWAP_MS, K_OPEN, K_NONE, K_MOVE, K_PLACE, K_BAD, K_DUTY, K_WAIT,
    K_OK, elapsed as _el, own as _own, is_barragoon as _barragoon)
from controller.touchmove import TouchMove
from controller.view import View, N_NONE, N_REFUSED

# Flags returned by event() / tick() / resolve() for the controller.
F_SAVE = const(1)         # the game or the touch-move duties changed: save
F_PLACE = const(2)        # a Barragoon rests on place_sq: choose its face
F_ASK = const(4)          # the sensors cannot tell: ask (asks / ask_n)
F_BEEP = const(8)         # something is wrong at rest
F_TURN = const(16)        # a new turn starts with the board matching the game
F_OVER = const(32)        # the game ended
F_UNPLACE = const(64)     # no placement waiting any more
F_UNASK = const(128)      # the question no longer applies (the board changed)
F_SHOW = const(256)       # the LEDs or the screen changed

_ZERO = bytes(63)


class Judge(Stories, TouchMove, View):
    def __init__(self, sensed, settle_ms=300, adjust_ms=250, reopen_ms=2000):
        self.sensed = sensed               # bytearray(63), kept by the controller
        self.settle = settle_ms
        self.adjust = adjust_ms
        self.reopen = reopen_ms
        self.hs = [Hyp() for _ in range(MAXH)]
        self.nh = 0
        self.pruned = False
        self.evicted = False               # unlikely stories were dropped for room
        self.confused = False              # lost track: the turn restarts from b0
        self.b0 = bytearray(63)            # piece codes at the start of the open turn
        self.vac_t = array("l", [0] * 63)  # when each square last became empty
        self.touched = bytearray(63)       # touched (lifted >= ADJUST_MS) in the open turn
        self.touch_t = array("l", [0] * 63)
        self.pending = 0                   # vacated turn-start squares not yet touched
        self.fixed = bytearray(63)         # duties carried over (saved game, repair)
        self.fixed_take = -1
        self.duty = bytearray(63)          # touch-move: the move must start on a marked square
        self.duty_take = -1                # ... and capture this square
        self.restore = bytearray(63)       # repair: 1 wrong piece here (lift it), 2 lifted
        self.mean = bytearray(63)          # LED meanings of the live board
        self.seen = bytearray(63)          # squares with events in the open turn: only
        self.seen_sq = bytearray(63)       # these can differ from b0 in any story (lists
        self.seen_n = 0                    # scanned instead of all 63 squares)
        self.has_duty = False
        self.tgt = bytearray(63)           # targets of the tile shown as lifted
        self.tgt_sq = bytearray(63)        # ... as a list
        self.tgt_n = 0
        self.tgt_for = -1
        self.caps = bytearray(63)          # own tiles that can capture caps_for
        self.caps_for = -1
        self.opt = bytearray(AIRN + 2)     # scratch: set-down options
        self.game = None
        self.side = 0                      # the mover of the open turn
        self.moves = []                    # legal moves at the turn start (frm * 64 + to)
        self.allow = None                  # against the board: allow(game) -> the one move
                                           # the board's turn may commit, -1 none, -2 any
        self.movable = bytearray(63)
        self.active = False
        self.repair = False
        self.committed = -1                # the move committed in the open turn, or -1
        self.prepared = -1                 # committed move the next turn was prepared for
        self.nb0 = bytearray(63)           # ... its position, homes and legal moves
        self.nhome = bytearray(63)
        self.nmoves = None
        self.prep_last = ""
        self.t_commit = 0
        self.reopened = -1                 # a committed move whose piece was lifted again
        self.t_last = 0                    # last sensor change
        self.decided = True                # judged since the last change
        self.err_sq = -1                   # a piece resting on a wrong square
        self.place_sq = -1                 # a Barragoon waiting for its face
        self.note = N_NONE
        self.note_sq = -1
        self.refused = ""
        self.sv_duty = bytearray(63)       # the duties as last saved (duties_saved())
        self.sv_take = -1
        self.duty_old = bytearray(63)      # (_duties: what changed)
        self.mv = -1                       # home square of the tile shown as lifted
        self.ask_n = 0                     # the question: options (kind, a, b, hypothesis)
        self.ask_kind = bytearray(MAXH)
        self.ask_a = bytearray(MAXH)
        self.ask_b = bytearray(MAXH)
        self.ask_h = bytearray(MAXH)

    # --- starting ------------------------------------------------------------------------
    def begin(self, game, duties="", phys=None):
        """Judge game from now on. duties: saved touch-move duties (duty_text()); phys: the
        piece codes physically on the board when they differ from the game (after a
        take-back), or None to trust every occupied square."""
        self.game = game
        self.fixed[:] = _ZERO
        self.fixed_take = -1
        self.duty[:] = _ZERO
        self.duty_take = -1
        self._parse_duties(duties)
        self.sv_duty[:] = self.fixed       # as the file has them
        self.sv_take = self.fixed_take
        self.touched[:] = _ZERO
        self.active = not game.over
        if self.active:
            self._start_repair(phys)
        return 0

    def stop(self):
        self.active = False
        self.repair = False
        self.mean[:] = _ZERO

    def _codes(self, out):
        pos = self.game.pos
        for sq in range(63):
            out[sq] = pos.get(sq)

    def _start_repair(self, phys):
        """The board must first show the game's position (occupancy, and the right pieces on
        squares marked in restore)."""
        self._codes(self.b0)
        self.restore[:] = _ZERO
        if phys is not None:
            b0 = self.b0
            for sq in range(63):
                if phys[sq] and b0[sq] and phys[sq] != b0[sq]:
                    self.restore[sq] = 1
        self.repair = True
        self.committed = self.reopened = -1
        self.place_sq = -1
        self.err_sq = -1
        self.decided = False
        if self._repaired() and not self.confused:
            self._new_turn(True)
        else:
            self._live()

    def _repaired(self):
        s, b0, r = self.sensed, self.b0, self.restore
        for sq in range(63):
            if r[sq] or s[sq] != (1 if b0[sq] else 0):
                return False
        return True

    def _prepare(self):
        """Work out the next turn's position, homes and legal moves (at rest, after a commit):
        the opponent's first lift then closes the turn without waiting for them."""
        g = self.game
        self._codes(self.nb0)
        nh, nb0 = self.nhome, self.nb0
        for sq in range(63):
            nh[sq] = sq if nb0[sq] else NOHOME
        self.nmoves = g.legal_moves()
        self.prepared = self.committed
        self.prep_last = g.last_turn_text()   # (an offer from the menu changes it)

    def _new_turn(self, keep, live=True):
        """The board matches the game: start judging a fresh turn (or the placement part of
        one). keep: carry the touch-move duties over (after a repair). live=False: the caller
        goes on with an event and brings the view up to date after it (event() does)."""
        g = self.game
        self.repair = False
        h = self.hs[0]
        if self.prepared >= 0 and self.prepared == self.committed and \
                self.prep_last == g.last_turn_text():
            self.b0[:] = self.nb0          # prepared at rest: nothing to compute now
            self.moves = self.nmoves
            h.board[:] = self.nb0
            h.home[:] = self.nhome
            h.gone[:] = self.nb0
            h.n = h.cost = h.swaps = 0
            h.over = False
        else:
            self._codes(self.b0)
            self.moves = g.legal_moves()
            h.reset(self.b0)
        self.prepared = -1
        self.nmoves = None
        self.prep_last = ""
        self.side = g.pos.side
        self._limit()
        self.nh = 1
        self.seen[:] = _ZERO
        self.seen_n = 0
        self.pruned = self.evicted = False
        self.committed = self.reopened = -1
        self.place_sq = -1
        self.err_sq = -1
        self.tgt_for = self.caps_for = -1
        self.pending = 0
        self.decided = True
        self.confused = False
        if keep:
            for sq in range(63):
                if self.duty[sq]:
                    self.fixed[sq] = 1
            if self.duty_take >= 0:
                self.fixed_take = self.duty_take
        else:
            self.fixed[:] = _ZERO
            self.fixed_take = -1
        self.touched[:] = _ZERO
        if self.fixed_take < 0 and self.fixed == _ZERO:
            self.duty[:] = _ZERO           # (the common case, without a scan)
            self.duty_take = -1
            self.has_duty = False
            self.tgt_for = -1
        else:
            self._duties()
        if live:
            self._live()

    def _limit(self):
        # The tiles that may move; against the board only its chosen move may be committed
        # in its turn (none while it thinks): any other is a wrong move to be put right.
        a = self.allow(self.game) if self.allow is not None else -2
        if a != -2:
            self.moves = [a] if a in self.moves else []
        mv = self.movable
        mv[:] = _ZERO
        moves = self.moves
        for i in range(len(moves)):
            mv[moves[i] >> 6] = 1

    def relimit(self):
        """allow() changed its answer (the board has chosen): apply it to the open turn (also
        while a test screen has the judge stopped: resync() may carry on with the turn)."""
        if self.game is None or self.game.over or self.repair or self.committed >= 0:
            return
        self.moves = self.game.legal_moves()
        self._limit()
        self.tgt_for = self.caps_for = -1
        self._live()

    # --- duties ------------------------------------------------------------------------------
    def _see(self, sq):
        if not self.seen[sq]:
            self.seen[sq] = 1
            self.seen_sq[self.seen_n] = sq
            self.seen_n += 1

    # --- events ------------------------------------------------------------------------------
    def event(self, sq, present, t):
        """A square changed (sensed[] already updated). Returns F_* flags."""
        if not self.active:
            return 0
        f = 0
        if self.decided and self.ask_n:
            f |= F_UNASK
        self.ask_n = 0
        self.t_last = t
        self.decided = False
        self.err_sq = -1
        if self.repair:
            r = self.restore
            if present and r[sq] == 2:
                r[sq] = 0
            elif not present and r[sq] == 1:
                r[sq] = 2
            self._live()
            return f
        if present:
            gap = _el(t, self.vac_t[sq])
            long_gap = gap >= self.adjust
            if long_gap:
                f |= self._touch(sq, self.vac_t[sq])
            elif self.b0[sq] and not self.touched[sq] and self.pending:
                self.pending -= 1
            self._drop(sq, 0 if long_gap else (1 if gap >= SWAP_MS else 2))
        else:
            self.vac_t[sq] = t
            f |= self._lift(sq, t)
            self.decided = False           # (a lift that closed the turn started a fresh one
            #                                as judged: this lift still is to be judged at
            #                                rest, and a touch-move duty it brings saved)
        if self.pruned or self.hs[0].over:
            return f | self._lost()
        self._live()
        return f

    def _lost(self):
        """Too many stories to follow: back to the turn's start, then confirm. A committed
        action is taken back: the board last showed its result for sure, so the squares where
        that result holds another piece than the start (a capture's target) are lit to take
        off and put right; the sensors alone cannot see it."""
        f = F_UNPLACE
        phys = None
        if self.committed >= 0:
            phys = bytearray(63)
            self._codes(phys)              # the position the committed action left
            self.game.undo()
            self.committed = -1
            f |= F_SAVE
        self._keep_duties()
        self.confused = True
        self._start_repair(phys)
        return f

    def _lift(self, sq, t):
        f = 0
        h = self.hs[0]
        c = h.board[sq]
        g = self.game
        cm = self.committed
        if cm >= 0 and sq == cm & 63 and h.home[sq] == cm >> 6:
            # the mover lifts the moved piece again: the move is open again
            g.undo()
            self.reopened = cm
            self.committed = -1
            self.place_sq = -1
            self.tgt_for = self.caps_for = -1
            f |= F_SAVE | F_UNPLACE | self._duties()
        elif cm >= 0 and g.placing() < 0 and self._as_committed():
            # anything else lifted after the move was made belongs to the next turn (its
            # view is made once, after this lift: lift-to-light on the opponent's first lift)
            f |= self._close(False)
            return f | self._lift(sq, t)
        elif _own(c, 1 - self.side) and g.placing() < 0 and not g.offered:
            f |= self._opponent_lifts()
            if f & F_TURN:
                if self.game.over:
                    return f
                return f | self._lift(sq, t)
        if self.b0[sq] and not self.touched[sq]:
            self.pending += 1
        self._see(sq)
        for i in range(self.nh):
            self.hs[i].lift(sq)
        self._dedupe()
        return f

    def _as_committed(self):
        """Is some history exactly the committed move (so the turn can close on it)? It
        becomes the primary one."""
        for i in range(self.nh):
            h = self.hs[i]
            self._classify(h)
            if h.kind == K_MOVE and (h.a << 6) + h.b == self.committed:
                if i:
                    self.hs[0], self.hs[i] = h, self.hs[0]
                return True
        return False

    def _opponent_lifts(self):
        """The side not to move lifts one of its own tiles. If the board (before this lift)
        shows one legal move of the mover, that turn is over: commit it now and close it."""
        cm = self.committed
        if cm < 0 and self.reopened >= 0:
            return self._reclose()
        k = self._interpret()
        self.ask_n = 0
        if k < 0:
            return 0
        h = self.hs[k]
        if h.kind != K_MOVE:
            return 0
        f = self._act(k, self.t_last)
        if self.committed < 0 or self.game.placing() >= 0:
            return f
        return f | self._close(False)     # (the lift goes on in _lift, then the view)

    def _reclose(self):
        # The moved piece was lifted again and now the opponent lifts a tile: it was the
        # opponent taking the moved piece (a capture that starts with the victim). Commit the
        # move again as it stood and carry the lift of its target into the new turn.
        cm = self.reopened
        frm, to = cm >> 6, cm & 63
        h = self.hs[0]
        k = -1
        for i in range(h.n):
            if h.ah[i] == frm:
                k = i
        if k < 0 or h.board[to] or self.sensed[to]:
            return 0
        probe = self.hs[self.nh] if self.nh < MAXH else None
        if probe is None:
            return 0
        probe.copy(h)
        probe.put(to, k)
        self._classify(probe)
        if probe.kind != K_MOVE or probe.a != frm or probe.b != to:
            return 0
        try:
            self.game.move(frm, to)
        except RulesError:
            return 0
        vac = self.vac_t[to]
        f = F_SAVE | self._close(False)
        if not self.game.over:
            self.vac_t[to] = vac
            f |= self._lift(to, vac)
        return f

    # --- time --------------------------------------------------------------------------------
    def tick(self, t, may_decide=True):
        """Touches that have lasted, decisions at rest, the end of the reopen window."""
        if not self.active:
            return 0
        f = 0
        if self.pending:
            if self._touch_scan(t):
                f |= F_SHOW
        if self.decided or _el(t, self.t_last) < self.settle:
            if self.committed >= 0 and self.decided and self.ask_n == 0 and \
                    self.game.placing() < 0:
                if self.prepared != self.committed and not self.game.over:
                    self._prepare()        # one loop step of its own, while all is still
                elif _el(t, self.t_commit) >= self.reopen:
                    h = self.hs[0]
                    if h.kind == K_MOVE and (h.a << 6) + h.b == self.committed:
                        f |= self._close()
            return f
        if self.repair:
            self.decided = True
            f |= F_SHOW
            if self._repaired():
                if self.confused:
                    self.ask_n = 0
                    self._add_ask(K_OK, 0, 0, 0)
                    self._add_ask(K_WAIT, 0, 0, 0)
                    return f | F_ASK
                self._new_turn(True)
                return f | F_TURN
            return f
        if not may_decide:
            return f
        self.decided = True
        return f | self._decide(t)

    # --- deciding ----------------------------------------------------------------------------
    def _classify(self, h):
        """Set h.kind (and h.a, h.b) against the turn-start position."""
        b0, bd = self.b0, h.board
        nd = 0
        d0 = d1 = d2 = -1
        new = False
        seen = self.seen_sq
        for i in range(self.seen_n):
            sq = seen[i]
            if bd[sq] != b0[sq]:
                if nd == 0:
                    d0 = sq
                elif nd == 1:
                    d1 = sq
                elif nd == 2:
                    d2 = sq
                nd += 1
                if bd[sq] == NEW:
                    new = True
        h.kind = K_OPEN
        h.a = h.b = 0
        if nd == 0:
            if h.n == 0:
                h.kind = K_NONE
            return
        placing = self.game.placing() >= 0
        cm = self.committed
        if nd == 1 and placing and cm < 0:
            # the placement part of a turn: one Barragoon on an empty square
            if not b0[d0] and (bd[d0] == NEW or _barragoon(bd[d0])) and h.n == 0:
                h.kind = K_PLACE
                h.a = d0
            return
        if nd == 2 and not new:
            if d1 < d0:
                d0, d1 = d1, d0
            frm, to = d0, d1               # (two statements: a conditional tuple allocates)
            if bd[d0] != 0:
                frm, to = d1, d0
            if bd[frm] == 0 and _own(b0[frm], self.side) and bd[to] == b0[frm]:
                victim = b0[to]
                if (h.n == 1 and h.ac[0] == victim) if victim else h.n == 0:
                    if (frm << 6) + to in self.moves:
                        h.a = frm
                        h.b = to
                        h.kind = K_MOVE if self._allowed(frm, to) else K_DUTY
                        return
        if cm >= 0 and placing and nd <= 3:
            p = self._placed_on(h, cm >> 6, cm & 63)
            if p >= 0:
                h.kind = K_PLACE
                h.a = p
                return
        if h.n == 0 and not new:
            h.kind = K_BAD

    def _placed_on(self, h, frm, to):
        """After the committed move frm-to: the square of the one Barragoon set down on an
        empty square (its victim in a hand, unless it is that Barragoon), or -1."""
        b0, bd = self.b0, h.board
        p = -1
        seen = self.seen_sq
        for i in range(self.seen_n):
            sq = seen[i]
            want = 0 if sq == frm else (b0[frm] if sq == to else b0[sq])
            have = bd[sq]
            if have == want:
                continue
            if want or p >= 0 or not (have == NEW or _barragoon(have)):
                return -1
            p = sq
        if p < 0:
            return -1
        victim = b0[to]
        if h.n == 0 and bd[p] == victim or h.n == 1 and h.ac[0] == victim:
            return p
        return -1

    def _interpret(self):
        """Classify every hypothesis. Returns the index of the single valid interpretation,
        -1 when there is none, -2 when the players must be asked (ask_* filled)."""
        hs, nh = self.hs, self.nh
        best = 99                          # the likeliest valid story; equally likely ones
        swaps = 0                          # are asked about, less likely ones ignored
        for i in range(nh):
            self._classify(hs[i])
            if K_NONE <= hs[i].kind <= K_PLACE and hs[i].cost < best:   # (valid; no tuple)
                best = hs[i].cost
                swaps = hs[i].swaps
        self.ask_n = 0
        found = -1
        valid = 0
        empty_hands = False
        for i in range(nh):
            h = hs[i]
            if h.cost != best or not K_NONE <= h.kind <= K_PLACE:
                continue
            dup = False
            for j in range(self.ask_n):
                if self.ask_kind[j] == h.kind and self.ask_a[j] == h.a and \
                        self.ask_b[j] == h.b:
                    dup = True
            if dup:
                continue
            self._add_ask(h.kind, h.a, h.b, i)
            valid += 1
            found = i
            if h.n == 0:
                empty_hands = True
        if valid and swaps:
            self._add_ask(K_WAIT, 0, 0, 0)     # only with a short lift undone: confirm
            self._order_asks()
            return -2
        bad = -1
        if valid == 1 and empty_hands:
            # All pieces down in a wrong arrangement, as likely as the valid story: ask. Not
            # against a move the board already made and the players carried on from.
            cm = self.committed
            for i in range(nh):
                h = hs[i]
                if h.cost == best and h.kind == K_BAD and (
                        cm < 0 or h.board[cm >> 6] == 0 and
                        h.board[cm & 63] == self.b0[cm >> 6]):
                    bad = i
                    break
        if valid == 1 and bad < 0:
            self.ask_n = 0
            return found
        if valid == 0:
            return -1
        if bad >= 0:
            self._add_ask(K_BAD, 0, 0, bad)
        self._order_asks()
        return -2

    def _add_ask(self, kind, a, b, i):
        n = self.ask_n
        self.ask_kind[n] = kind
        self.ask_a[n] = a
        self.ask_b[n] = b
        self.ask_h[n] = i
        self.ask_n = n + 1

    def _order_asks(self):
        # "Nothing happened" first (a piece put back is the likelier story), then the move
        # that stands committed, then the rest in order.
        n = self.ask_n
        for i in range(n):
            j = i
            while j > 0 and self._rank(j) < self._rank(j - 1):
                for arr in (self.ask_kind, self.ask_a, self.ask_b, self.ask_h):
                    arr[j], arr[j - 1] = arr[j - 1], arr[j]
                j -= 1

    def _rank(self, j):
        k = self.ask_kind[j]
        if k == K_NONE:
            return 0
        if k == K_MOVE and (self.ask_a[j] << 6) + self.ask_b[j] == self.committed or \
                k == K_PLACE:
            return 1
        return 3 if k == K_BAD or k == K_WAIT else 2

    def _decide(self, t):
        f = self._decision(t) | F_SHOW
        if not f & F_SAVE and self._duties_unsaved():
            f |= F_SAVE                    # a touch-move duty survives a power cut
        return f

    def _decision(self, t):
        k = self._interpret()
        if k >= 0:
            return self._act(k, t)
        if k == -2:
            return F_ASK
        # Nothing valid: say what is wrong; beep when a piece rests on a wrong square.
        h = self.hs[0]
        if h.kind == K_BAD and self._occupied_as_at_start():
            # Every square filled as at the turn start, yet no story has each piece on its own
            # square (a story of pieces put back in place was dropped as less likely): asking
            # for single pieces could go on for ever; the repair guides them back for sure.
            return self._put_right(0) | F_BEEP
        f = 0
        if self.place_sq >= 0:
            self.place_sq = -1
            f |= F_UNPLACE
        if h.kind == K_DUTY:
            self.err_sq = h.b if self.b0[h.b] == 0 else h.a
            f |= F_BEEP
        elif self.mv_at >= 0 and not self.tgt[self.mv_at]:
            self.err_sq = self.mv_at
            f |= F_BEEP
        else:
            for sq in range(63):
                if self.mean[sq] == C.TO_EMPTY:
                    f |= F_BEEP
                    break
        self._live()
        return f

    def _act(self, k, t):
        """Apply the interpretation of hypothesis k. Less likely stories are dropped (those
        as likely, complete or not, stay: a piece still in a hand may yet tell otherwise)."""
        hs = self.hs
        if k:
            hs[0], hs[k] = hs[k], hs[0]
        h = hs[0]
        i = 1
        while i < self.nh:
            if hs[i].cost > h.cost:
                last = self.nh - 1
                hs[i], hs[last] = hs[last], hs[i]
                self.nh = last
            else:
                hs[i].cost = hs[i].swaps = 0     # as likely as the story now told
                i += 1
        h.cost = h.swaps = 0
        g = self.game
        f = 0
        if h.kind == K_PLACE:
            self.place_sq = h.a
            self._live()
            return F_PLACE
        cm = self.committed
        if h.kind == K_MOVE and (h.a << 6) + h.b == cm:
            self._live()                   # as committed (a Barragoon being placed may be
            return 0                       # in a hand to be turned: the picker stays)
        if self.place_sq >= 0:
            self.place_sq = -1
            f |= F_UNPLACE
        if h.kind == K_NONE:
            # Every piece is back: a story with a piece still in a hand would need a spare
            # piece standing in for it. Those are dropped (no hands are empty otherwise).
            i = 1
            while i < self.nh:
                if hs[i].kind != K_NONE:
                    last = self.nh - 1
                    hs[i], hs[last] = hs[last], hs[i]
                    self.nh = last
                else:
                    i += 1
            if cm >= 0:
                g.undo()
                self.committed = -1
                self.tgt_for = self.caps_for = -1
                f |= F_SAVE | self._duties()
            self.reopened = -1
            self._live()
            return f
        m = (h.a << 6) + h.b
        if cm >= 0:
            g.undo()
            self.committed = -1
        try:
            g.move(h.a, h.b)
        except RulesError as e:
            self.note = N_REFUSED
            self.refused = str(e)
            self._live()
            return f | F_SAVE | F_BEEP if cm >= 0 else f | F_BEEP
        self.committed = m
        self.reopened = -1
        self.t_commit = t
        self.tgt_for = self.caps_for = -1
        f |= F_SAVE
        if g.over:
            self.stop()
            return f | F_OVER
        self._live()
        return f

    def _close(self, live=True):
        """The open turn is over: its move stands."""
        self._new_turn(False, live)
        return F_TURN

    # --- answers and placements ------------------------------------------------------------
    def resolve(self, j, t):
        """The players chose option j of the question."""
        if j >= self.ask_n:
            return 0
        kind = self.ask_kind[j]
        hi = self.ask_h[j]
        self.ask_n = 0
        self.decided = True
        if kind == K_OK:
            self.confused = False
            self._new_turn(True)
            return F_TURN
        if kind == K_WAIT and self.repair:
            # not yet in place: ask again once the board has been still for 2 s more
            self.decided = False
            self.t_last = (t + 2000 - self.settle) & 0x3FFFFFFF
            return 0
        if kind == K_WAIT:
            # the short lifts were adjustments: forget the stories that swapped pieces
            hs = self.hs
            i = 0
            while i < self.nh:
                if hs[i].swaps and self.nh > 1:
                    last = self.nh - 1
                    hs[i], hs[last] = hs[last], hs[i]
                    self.nh = last
                else:
                    i += 1
            self._live()
            return 0
        if kind == K_BAD:
            return self._put_right(hi)
        # keep only the histories with this interpretation
        a, b = self.ask_a[j], self.ask_b[j]
        hs = self.hs
        hs[0], hs[hi] = hs[hi], hs[0]
        i = 1
        while i < self.nh:
            self._classify(hs[i])
            if hs[i].kind == kind and hs[i].a == a and hs[i].b == b:
                i += 1
            else:
                last = self.nh - 1
                hs[i], hs[last] = hs[last], hs[i]
                self.nh = last
        self._classify(hs[0])
        return self._act(0, t)

    def _put_right(self, hi):
        """Story hi is true: every piece is down, some on each other's squares. Guide them
        back to the turn start square by square (the repair follows lifts and set-downs, not
        stories, so it always ends)."""
        phys = bytearray(self.hs[hi].board)
        f = 0
        if self.committed >= 0:
            self.game.undo()
            self.committed = -1
            f |= F_SAVE
        for sq in range(63):
            if phys[sq] == NEW:
                phys[sq] = 0
        self._keep_duties()
        self._start_repair(phys)
        return f | F_UNPLACE

    def _occupied_as_at_start(self):
        s, b0 = self.sensed, self.b0
        for sq in range(63):
            if s[sq] != (1 if b0[sq] else 0):
                return False
        return True

    def placement_ready(self):
        """The Barragoon stands on place_sq and the board is judged at rest."""
        return self.place_sq >= 0 and self.decided and self.sensed[self.place_sq] == 1

    def placed(self):
        """game.place() succeeded for place_sq: the placement stands."""
        self.place_sq = -1
        self._new_turn(False)
        return F_SAVE | (F_TURN if self.game.placing() < 0 else 0) | \
            (F_OVER if self.game.over else 0)

    def resync(self):
        """After the sensor or LED test: carry on if the board still matches the open turn,
        else repair it back to the game's position (duties kept)."""
        if self.game is None or self.game.over:
            return
        h = self.hs[0]
        same = not self.repair
        if same:
            for sq in range(63):
                if (1 if h.board[sq] else 0) != self.sensed[sq]:
                    same = False
                    break
        self.active = True
        if not same:
            if self.committed >= 0:
                self.committed = -1
                self.game.undo()
            self._keep_duties()
            self._start_repair(None)
        self.decided = False

    # --- what the LEDs show ------------------------------------------------------------------
    # --- for the screen and the tests --------------------------------------------------------