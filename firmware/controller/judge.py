# Physical play, decided from the whole board: the sensor events of the open turn in, the game's
# moves, placements, questions and the LED meanings out (the rules of play are described in
# firmware/README.md, "How the board decides").
#
# The judge keeps every history of the hands that fits the sensor events (stories.py), ranks
# them by how surprising they are (time only ranks, it never deletes one), and once the board
# has been still for SETTLE_MS acts on the likeliest valid one (kinds.py classifies them): its
# move is made, taken back or changed, the face picker comes for its Barragoon (placements.py).
# Two valid stories about as likely that give different records: the players are asked, the
# likelier preselected (question.py). No valid story: the LEDs and the screen say what to fix
# (view.py). The turn closes when the opponent lifts one of their own tiles and the likeliest
# story has the move complete (nextturn.py prepares that turn at rest). Too many stories, or a
# board that cannot be a turn: the players are guided back square by square (repair.py).
# touchmove.py keeps the touch-move duties; timing.py every time used, and why. Per event the
# judge allocates nothing; the classification at rest allocates a little, once per rest.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from barragoon.core import RulesError, ZEROS
from barragoon.game import action_move, action_captures
from controller import lazy
from controller import colours as C
from controller import timing
from controller.i18n import t as _t
from controller.kinds import Kinds
from controller.nextturn import NextTurn, codes
from controller.placements import Placements
from controller.question import Question
from controller.repair import Repair, occupied_as
from controller.stories import (  # noqa: F401  (the kinds are used by tests and modes too)
    Story, Turn, Stories, NEW, NOHOME, MAXH, AIRN, K_OPEN, K_NONE, K_MOVE, K_PLACE, K_BAD,
    K_DUTY, K_WAIT, K_OK, ASK_SPREAD, C_WRONG, elapsed as _el, own as _own,
    is_barragoon as _barragoon)
from controller.touchmove import TouchMove
from controller.view import View, N_REFUSED

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


class Judge:
    def __init__(self, sensed, settle_ms=timing.SETTLE_MS, adjust_ms=timing.ADJUST_MS,
                 reopen_ms=timing.REOPEN_MS):
        self.sensed = sensed               # bytearray(63), kept by the controller
        self.settle = settle_ms
        self.reopen = reopen_ms
        self.turn = Turn()
        self.pool = Stories(self.turn)
        self.tm = TouchMove(self.turn, adjust_ms)
        self.view = View(self.turn, self.tm)
        self.b0 = self.turn.b0             # (the same objects, for the screens and tests)
        self.mean = self.view.mean
        self.duty = self.tm.duty
        self.hs = self.pool.hs             # (the list: its stories are swapped in place)
        self.confused = False              # lost track: the turn restarts from b0
        self.fix = Repair()                # (while repair: what to put right)
        self.keep = bytearray(63)          # scratch: _carry
        self.game = None
        self.allow = None                  # against the board: allow(game) -> the one move
        #                                    the board's turn may commit, -1 none, -2 any
        self.active = False
        self.repair = False
        self.committed = -1                # the move committed in the open turn, or -1
        self.t_commit = 0
        self.nt = NextTurn(self.turn)      # the next turn, prepared at rest
        self.t_last = 0                    # last sensor change
        self.t_down = 0                    # last set-down
        self.decided = True                # judged since the last change
        self.err_sq = -1                   # a piece resting on a wrong square
        self.opp_up = False                # an opponent's tile was lifted in the open turn
        self.victim = -1                   # the moved tile, lifted again long after: shown as
        #                                    the opponent's victim (the likelier story)
        self.q = Question()                # what the players are asked
        self.alt = -1                      # the story "no capture" offered in the face
        #                                    picker of the capture's Barragoon (no_capture())
        self.kinds = Kinds(self.turn, self.tm)
        self.places = Placements(self.turn, self.pool, self.q)
        self.reopened = False              # the moved tile lifted again: the move undone,
        #                                    not saved (see _lift)
        self.boot_move = -1                # the saved game's last move, a plain one, while
        #                                    nothing has happened since power-on (event())
        self.fix_unsaved = False           # put right since power-on, " fix" not yet saved
        self.cut_fix = False               # being put right since power-on (the last move
        #                                    stays open once it is done: _last_open)
        self.still = False                 # no event since the committed move was prepared
        #                                    at rest (agreeing and the stories' kinds hold)
        # Two attributes of no use but room: MicroPython grows an object's attribute table only
        # when it is full, and every method called on the object first searches that table
        # to an empty slot (test_judge_parts.py: the judge's table keeps 15 % free).
        self._pad0 = self._pad1 = 0

    # --- starting ------------------------------------------------------------------------------
    def begin(self, game, duties="", phys=None, t=0):
        """Judge game from now on (at t). duties: saved touch-move duties (duty_text()); phys:
        the piece codes physically on the board when they differ from the game (after a
        take-back), or None to trust every occupied square: then a board that differs from
        the game by a turn in progress (a power cut in the middle of it) goes on with that
        turn, and a board as saved keeps its last move open until the next player begins
        (event())."""
        self.game = game
        self.tm.begin(duties)
        self.active = not game.over
        self.boot_move = -1
        self.fix_unsaved = False
        self.cut_fix = False
        if self.active:
            self._start_repair(phys)
            if self.repair and phys is None and not self.confused and \
                    not duties.endswith(" fix"):
                self._resume().power_on(t)
                lazy.drop("controller.resume")
                self.fix_unsaved = self.repair   # (see event())
            elif phys is None and not self.repair:
                self._last_open(duties)
            self.cut_fix = phys is None and self.repair and not self.confused
        return 0

    def _last_open(self, duties):
        # The board stands as saved at power-on (or once put right after it): the saved
        # game's last move, a plain one, is open until the next player begins (see event()).
        g = self.game
        if not duties and self.allow is None and g.actions and g.placing() < 0 and \
                not g.offered and not action_captures(g.actions[-1]):
            self.boot_move = action_move(g.actions[-1])

    def _resume(self):
        return lazy.load("controller.resume").Resume(self)   # (at power-on: RAM freed after)

    def stop(self):
        self.active = False
        self.repair = False
        self.mean[:] = ZEROS

    def _start_repair(self, phys):
        """The board must first show the game's position (occupancy, and the right pieces on
        squares marked in restore)."""
        codes(self.game, self.b0)
        self.fix.start(self.b0, phys)
        self.repair = True
        self.committed = -1
        self.places.sq = -1
        self.err_sq = -1
        self.decided = False
        if self.fix.done(self.sensed, self.b0) and not self.confused:
            self._new_turn(True)
        else:
            self._live()

    def _start_turn(self, moves):
        self.still = False
        self.reopened = False
        tn = self.turn
        tn.serial = tn.serial % 255 + 1
        g = self.game
        tn.side = g.pos.side
        tn.placing = g.placing() >= 0
        tn.capture = False
        if self.nt.ready:
            tn.set_moves(moves, self.nt.dest, self.nt.movable)   # (made at rest)
        else:
            tn.set_moves(moves)
        if self.allow is not None:
            self._limit()
        self.committed = -1
        self.places.sq = -1
        self.err_sq = -1
        self.opp_up = False
        self.victim = -1
        v = self.view
        v.tgt_for = v.caps_for = -1

    def _new_turn(self, keep, live=True):
        """The board matches the game: start judging a fresh turn from its position with one
        story (after a repair, at the start). keep: carry the touch-move duties over."""
        self.repair = False
        moves = self.nt.position(self.game, self.committed)
        self.b0[:] = self.nt.b0
        self.pool.reset(self.nt.b0, self.nt.home)
        self.turn.unsee()
        self._start_turn(moves)
        self.decided = True
        self.confused = False
        self.tm.new_turn(keep)
        if live:
            self._live()

    def _limit(self):
        # The tiles that may move; against the board only its chosen move may be committed
        # in its turn (none while it thinks): any other is a wrong move to be put right.
        a = self.allow(self.game) if self.allow is not None else -2
        if a != -2:
            moves = self.turn.moves
            self.turn.set_moves([a] if a in moves else [])

    def relimit(self):
        """allow() changed its answer (the board has chosen): apply it to the open turn (also
        while a test screen has the judge stopped: resync() may carry on with the turn). The
        player's move stands once the board has chosen its reply (as if it had lifted a
        tile); while it thinks the player may still slide on. Returns F_* flags."""
        if self.game is None or self.game.over or self.repair:
            return 0
        if self.committed >= 0:
            if self.allow is None or self.allow(self.game) < 0 or self.game.placing() >= 0:
                return 0
            return self._close()
        self.turn.set_moves(self.game.legal_moves())
        self._limit()
        self.view.forget()
        self._live()
        return 0

    # --- the next turn -------------------------------------------------------------------------
    def _carry(self, live=True):
        """The open turn's actions stand (its move, or a placement): the game's position is
        where the next turn (or placement) starts. The stories that agree with it go on, with
        whatever the hands hold; the others end."""
        tn, pool = self.turn, self.pool
        hs = pool.hs
        old = tn.b0
        nt = self.nt
        mask = nt.agreeing if self.still else -1     # (as found at rest)
        moves = nt.position(self.game, self.committed)
        if not nt.ready:
            mask = -1
        nb0 = nt.b0
        h = hs[0]
        if mask == 1 and h.n == 0 and h.board == nb0:
            # the common case, a plain move judged at rest: one story, just the position
            pool.nh = 1
            h.home[:] = nt.home
            h.cost = 0
            old[:] = nb0
            tn.unsee()
            self._start_turn(moves)
            self.tm.new_turn(False, (self.t_down + timing.KNOCK_MS) & 0x3FFFFFFF)
            if live:
                self._live()
            return
        if pool.nh > 1 or mask >= 0:
            if mask < 0:
                mask = 0
                for i in range(pool.nh):
                    if nt.agrees(hs[i]):
                        mask |= 1 << i
            if mask == 0:                  # no story shows it: the likeliest goes on, and
                mask = 1                   # the view says what differs
            for i in range(pool.nh - 1, -1, -1):
                if not mask >> i & 1:
                    pool.remove(i)
            pool.likeliest_first()
        for i in range(pool.nh):
            nt.rehome(hs[i])
        # the squares that still differ from the new start in some story stay seen
        keep = self.keep
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            sq = seen[i]
            keep[sq] = 0
            for k in range(pool.nh):
                if hs[k].board[sq] != nb0[sq]:
                    keep[sq] = 1
        old[:] = nb0
        tn.keep_seen(keep)
        if pool.nh > 1:
            pool.dedupe()
            pool.normalise()
        else:
            hs[0].cost = 0
        self._start_turn(moves)
        self.tm.new_turn(False, (self.t_down + timing.KNOCK_MS) & 0x3FFFFFFF)
        s = self.sensed
        for i in range(tn.seen_n):         # pieces still in a hand may become touches
            sq = seen[i]
            if nb0[sq] and not s[sq]:
                self.tm.lifted(sq)
        if live:
            self._live()

    def _close(self, live=True):
        """The open turn is over: its move stands."""
        self._carry(live)
        return F_TURN

    def close_turn(self):
        """The players act on the game from the menu (a draw offer): the move made in the open
        turn stands, as if the opponent had begun."""
        if self.active and not self.repair and self.committed >= 0 and \
                self.game.placing() < 0:
            return self._close()
        return 0

    # --- events --------------------------------------------------------------------------------
    def event(self, sq, present, t):
        """A square changed (sensed[] already updated). Returns F_* flags."""
        if not self.active:
            return 0
        f = 0
        if self.decided and self.q.n:
            f |= F_UNASK
        self.q.n = 0
        self.alt = -1
        self.t_last = t
        self.decided = False
        self.err_sq = -1
        if self.repair:
            self.fix.event(sq, present)
            self._live()
            if self.fix_unsaved:
                # The players began putting the board right after power-on: saved with
                # " fix" now, a power cut from here on comes back to guiding it (a board half
                # put right is no turn in progress). Nothing is written before (a broken
                # sensor row leaves the saved game as it was).
                self.fix_unsaved = False
                f |= F_SAVE
            return f
        if self.boot_move >= 0:
            # The board came up as saved: its last move was open until the next player began.
            # Its tile lifted first is that move open again, as live (Resume.standing).
            if not present and sq == self.boot_move & 63:
                self._resume().standing(self.boot_move, t)
                lazy.drop("controller.resume")
            self.boot_move = -1
        if present:
            f |= self._drop(sq, t)
        else:
            f |= self._lift(sq, t)
            self.decided = False           # (a lift that closed the turn: still to be judged
            #                                at rest, and a duty it brings saved)
        self.still = False
        if f & F_OVER:
            return f
        if self.pool.pruned or self.pool.over:
            return f | self._lost()
        self._live()
        return f

    def _drop(self, sq, t):
        tn = self.turn
        short = tn.gap(sq, t) < self.tm.adjust
        if not short:
            if self.tm.touch(sq, tn.vac_t[sq], self._binds()):
                self.view.forget()
        else:
            self.tm.returned(sq)
        if not short or tn.quick[sq] != tn.serial:
            tn.land_t[sq] = t              # (a tile straightened just after it landed
        tn.put_t[sq] = t                   # landed when it first did)
        self.t_down = t
        if sq == self.victim:
            self.victim = -1
        tn.see(sq)
        self.pool.drop(sq, t)
        if not self.tm.made_ok:
            self._made()
        if self.opp_up and not self.repair:
            return self._try_close(t)
        return 0

    def _lift(self, sq, t):
        # (the lift that closes a turn is the one the players wait for to see its targets:
        # few calls here, the common cases inline)
        f = 0
        tn = self.turn
        pool = self.pool
        h = pool.hs[0]
        c = h.board[sq] or tn.b0[sq]
        g = self.game
        cm = self.committed
        opp = _own(c, 1 - tn.side)
        if cm >= 0 and sq == cm & 63 and h.home[sq] == cm >> 6:
            # The moved tile lifted again: the mover sliding on or straightening it (the move
            # is open again), or, a while later, the opponent starting a capture with it. Both
            # stories stay; the record and the LEDs follow the likelier.
            if self.places.sq >= 0:
                pass                       # its Barragoon is being placed: straightening
            elif _el(t, self.t_commit) < self.reopen or not self._threatened(sq):
                g.undo()                   # (not saved: until the tile lands again, the
                self.committed = -1        # flash keeps the move, and a power cut comes
                tn.capture = False         # back to it with the tile lifted from there)
                self.reopened = True
                self.view.forget()
                if self.places.sq >= 0:
                    self.places.sq = -1
                    f |= F_UNPLACE
            else:
                self.victim = sq
        elif opp and not g.pending and not g.offered or cm >= 0 and _barragoon(c) and \
                not g.pending and not g.offered and not tn.legal(cm >> 6, sq) and \
                self._threatened(sq):
            # (also a Barragoon the moved tile could not have taken instead, which the
            # opponent can capture: the opponent starting a capture with its victim)
            f |= self._opponent_lifts(t)
            if f & F_OVER:
                return f
            opp = _own(c, 1 - self.turn.side)   # (the turn may have closed: then it is
            #                                     the mover's tile)
        tn.quick[sq] = tn.serial if _el(t, tn.put_t[sq]) < timing.KNOCK_MS else 0
        tn.vac_t[sq] = t
        tm = self.tm
        if tn.b0[sq] and not tm.touched[sq]:
            tm.pending += 1                # (TouchMove.lifted)
        if not tn.seen[sq]:
            tn.see(sq)
        if pool.nh == 1 and pool.hs[0].ss == NOHOME:
            pool.slid = False
            if not pool.hs[0].lift(sq, t):
                pool.over = True
        else:
            pool.lift(sq, t)                # (a slide onto a stray's square branches)
        if tm.made_ok and self.kinds.move_made(pool.hs[0]) < 0:
            tm.made_ok = False             # lifted again: the move is open again
        elif pool.slid and not tm.made_ok:
            self._made()                   # slid onto its target: the move is made
        if opp:
            self.opp_up = True
            if pool.slid and not f & F_TURN:
                f |= self._try_close(t)    # the opponent began by sliding a tile on ...
                if f & F_TURN:
                    self._made()           # ... onto a square it may go to: made
        elif self.opp_up and pool.slid and not f & F_TURN and not self._victim_up(pool.hs[0]):
            f |= self._try_close(t)        # the mover's slide ends after the opponent began
        return f

    def _made(self):
        # Has the likeliest story the move made (a tile of the mover set down where it may
        # go)? Then from the time it landed, touches bind nobody.
        to = self.kinds.move_made(self.pool.hs[0])
        if to >= 0 and self.tm.made_at(self.turn.put_t[to]):
            self.view.forget()

    def _victim_up(self, h):
        """Has story h an opponent's tile lifted that a tile of the mover that moved could
        take (a capture begun with its victim, still to land)?"""
        tn = self.turn
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            s = seen[i]
            frm = h.home[s]
            if frm == s or frm == NOHOME or not _own(h.board[s], tn.side):
                continue
            for k in range(tn.seen_n):
                v = seen[k]
                if not h.board[v] and _own(tn.b0[v], 1 - tn.side) and tn.legal(frm, v):
                    return True
        return False

    def _threatened(self, sq):
        """Can the opponent capture the committed move's tile on sq in the next turn?"""
        g = self.game
        if g.placing() >= 0 or g.over:
            return False
        if self.nt.prepared != self.committed:
            self.nt.prepare(g, self.committed, self.pool)
        moves = self.nt.moves
        for i in range(len(moves)):
            if moves[i] & 63 == sq:
                return True
        return False

    def order(self, sq):
        """Of set-downs seen in the same scan, which come first: 0 where the turn began with
        a piece of the other side or a Barragoon (a capture lands), 1 on an empty square, 2 on
        a start square of the mover's tiles (the tile back, or a placement there after it
        captured)."""
        c = self.turn.b0[sq]
        if not c:
            return 1
        return 2 if _own(c, self.turn.side) else 0

    def _binds(self):
        """May a touch create a duty: the mover's turn, a placement not due? (Touches that
        began after the move was made bind nobody: TouchMove.made.)"""
        return not self.turn.placing

    def _opponent_lifts(self, t):
        """The side not to move lifts one of its own tiles. If the likeliest story (before this
        lift) has the mover's move complete, that turn is over: make it now and close it."""
        cm = self.committed
        h = self.pool.hs[0]
        if cm >= 0 and self.still and h.kind == K_MOVE and h.m == cm and \
                h.p0 == NOHOME and not self.turn.capture:
            return self._close(False)     # (at rest already: nothing to classify)
        return self._try_close(t, True)

    def _try_close(self, t, lifting=False):
        """Close the open turn if its likeliest story has the move complete (and nothing to
        place) and the opponent has started."""
        if self.game.placing() >= 0 or self.turn.placing:
            return 0
        k = self._interpret(False)
        if k < 0:
            if lifting:
                return self._victim_close(t)
            return 0
        h = self.pool.hs[k]
        if h.kind != K_MOVE or self.turn.b0[h.b] or not lifting and not h.nx:
            return 0
        f = self._act(k, t, False)
        if self.committed < 0 or self.game.over or self.game.placing() >= 0:
            return f
        return f | self._close(False)     # (the lift goes on in _lift, then the view)

    def _victim_close(self, t):
        # The mover's tile was set down on a target and lifted again, and now the opponent
        # lifts a tile that can capture it there: it was the opponent starting a capture with
        # its victim. The move stands; the tile in the hand is the next turn's victim.
        h = self.pool.hs[0]
        tn = self.turn
        if h.n != 1 or not _own(h.ac[0], tn.side):
            return 0
        frm, to = h.ah[0], h.af[0]
        if frm == NOHOME or frm == to or not tn.legal(frm, to) or tn.b0[to] or \
                h.board[frm] or h.board[to]:
            return 0
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            sq = seen[i]
            if sq != frm and sq != to and h.board[sq] != tn.b0[sq]:
                return 0
        g = self.game
        cm = self.committed
        if cm >= 0 and cm != (frm << 6) + to:
            g.undo()
            self.committed = cm = -1
        f = 0
        if cm < 0:
            try:
                g.move(frm, to)
            except RulesError:
                return 0
            self.committed = (frm << 6) + to
            self.t_commit = t
            f = F_SAVE
        ok = False
        if not g.over:
            moves = self.nt.moves if self.nt.prepared == self.committed else g.legal_moves()
            for i in range(len(moves)):
                if moves[i] & 63 == to:
                    ok = True
        if not ok:
            if f:
                g.undo()
                self.committed = -1
            return 0
        if g.over:
            self.stop()
            return f | F_OVER
        return f | self._close(False)

    def _lost(self):
        """Too many stories to follow: back to the turn's start, then confirm. A committed
        action is taken back (and saved: a power cut must not bring it back): the board last
        showed its result for sure, so the squares where that result holds another piece than
        the start (a capture's target) are lit to take off and put right; the sensors alone
        cannot see it."""
        f = F_UNPLACE
        phys = None
        if self.committed >= 0:
            phys = bytearray(63)
            codes(self.game, phys)         # the position the committed action left
            self.game.undo()
            self.committed = -1
            f |= F_SAVE
        self.tm.carry()
        self.confused = True
        self._start_repair(phys)
        return f

    # --- time ----------------------------------------------------------------------------------
    def tick(self, t, may_decide=True):
        """Touches that have lasted, decisions at rest."""
        if not self.active:
            return 0
        f = 0
        if self.tm.pending and not self.repair:
            if self.tm.scan(t, self.sensed, self._binds()):
                self.view.forget()
                self._live()
                f |= F_SHOW
        if self.decided or _el(t, self.t_last) < self.settle:
            if self.committed >= 0 and self.decided and self.q.n == 0 and \
                    not self.still and self.game.placing() < 0 and not self.game.over:
                if self.nt.prepared != self.committed:
                    # one loop step of its own, while all is still
                    self.nt.prepare(self.game, self.committed, self.pool)
                else:
                    self.nt.agree(self.pool)
                self.still = True
            return f
        if self.repair:
            self.decided = True
            f |= F_SHOW
            if self.fix.done(self.sensed, self.b0):
                if self.confused:
                    self.q.n = 0
                    self.q.add(K_OK, 0, 0, 0)
                    self.q.add(K_WAIT, 0, 0, 0)
                    return f | F_ASK
                self._new_turn(True)
                if self.cut_fix:
                    self.cut_fix = False
                    self._last_open(self.tm.text(True))
                return f | F_TURN | F_SAVE     # (no longer being put right)
            return f
        if not may_decide:
            return f
        self.decided = True
        return f | self._decide(t)

    def decide_now(self, t):
        """Judge the board as it is now, without waiting for the settle time (a player pressed
        OK for a placement). Returns F_* flags."""
        if not self.active or self.repair or self.decided:
            return 0
        self.decided = True
        return self._decide(t)

    # --- deciding ------------------------------------------------------------------------------
    def _kind(self, h):
        self.kinds.classify(h, self.committed, len(self.game.pending))

    def _interpret(self, ask=True):
        """Classify every story. Returns the index of the likeliest valid one, -1 when there
        is none or a story that is not valid is likelier (unless the valid one is plain, see
        _plain), -2 when the players must be asked (ask_* filled; only with ask)."""
        pool = self.pool
        hs, nh = pool.hs, pool.nh
        best = -1
        for i in range(nh):
            h = hs[i]
            self._kind(h)
            if K_NONE <= h.kind <= K_PLACE and (best < 0 or h.cost <
                                                 hs[best].cost):
                best = i
        self.q.n = 0
        if best >= 0:
            low = hs[best].cost
            for i in range(nh):
                if hs[i].cost < low:
                    if self.kinds.plain(hs[best]):
                        break
                    return -1              # likelier: a piece still in a hand (or a wrong
                    #                        one down): the turn is not done, nothing to act on
        if best < 0 or not ask:
            return best
        self.q.add(hs[best].kind, hs[best].a, hs[best].b, best)
        for i in range(nh):
            h = hs[i]
            if i == best or not K_NONE <= h.kind <= K_PLACE or \
                    h.cost > low + ASK_SPREAD:
                continue
            dup = False
            for j in range(self.q.n):
                if h.outcome(hs[self.q.h[j]]):
                    dup = True
            if not dup:
                self.q.add(h.kind, h.a, h.b, i)
        if self.q.n > 1:
            self.q.order(self.pool.hs, self.committed)
            return -2
        bad = -1
        if hs[best].n == 0:
            # All pieces down in a wrong arrangement, as likely as the valid story: ask. Not
            # against a move the board already made and the players carried on from.
            cm = self.committed
            for i in range(nh):
                h = hs[i]
                if h.cost == low and h.kind == K_BAD and h.n == 0 and (
                        cm < 0 or h.board[cm >> 6] == 0 and
                        h.board[cm & 63] == self.b0[cm >> 6]):
                    bad = i
                    break
        if bad < 0:
            self.q.n = 0
            return best
        self.q.add(K_BAD, 0, 0, bad)
        self.q.order(self.pool.hs, self.committed)
        return -2

    def _decide(self, t):
        f = self._decision(t) | F_SHOW
        if f & F_SAVE or self.pool.hs[0].n == 0:
            self.reopened = False          # (decided, or nothing in a hand: saved as it is)
        if not f & F_SAVE and not self.reopened and self.tm.unsaved(self._open()):
            f |= F_SAVE                    # a touch-move duty survives a power cut
        return f

    def _open(self):
        return self.active and self.committed < 0

    def _decision(self, t):
        k = self._interpret()
        if k >= 0:
            return self._act(k, t)
        if k == -2:
            return self._fold(t)
        # Nothing valid: say what is wrong; beep when a piece rests on a wrong square.
        h = self.pool.hs[0]
        if h.kind == K_BAD and occupied_as(self.sensed, self.b0):
            # Every square filled as at the turn start, yet no story has each piece on its own
            # square (a story of pieces put back in place was dropped as less likely): asking
            # for single pieces could go on for ever; the repair guides them back for sure.
            return self._put_right(0) | F_BEEP
        f = 0
        if self.places.sq >= 0:
            self.places.sq = -1
            f |= F_UNPLACE
        v = self.view
        self._live()
        if h.kind == K_DUTY:
            self.err_sq = h.b if self.b0[h.b] == 0 else h.a
            f |= F_BEEP
        elif v.mv_at >= 0 and not v.tgt[v.mv_at]:
            self.err_sq = v.mv_at
            f |= F_BEEP
        else:
            for sq in range(63):
                if self.mean[sq] == C.TO_EMPTY:
                    f |= F_BEEP
                    break
        if self.err_sq >= 0:
            self._live()
        return f

    def _act(self, k, t, live=True):
        """Apply what story k tells (it becomes the first; the others stay, as they were)."""
        self.still = False
        pool = self.pool
        hs = pool.hs
        if k:
            hs[0], hs[k] = hs[k], hs[0]
        h = hs[0]
        g = self.game
        f = 0
        cm = self.committed
        if h.kind == K_PLACE:
            f |= self._to_place(h.p0)
            if live:
                self._live()
            return f
        if h.kind == K_NONE:
            if cm >= 0:
                g.undo()
                self.committed = -1
                self.turn.capture = False
                self.view.forget()
                f |= F_SAVE
            if self.places.sq >= 0:
                self.places.sq = -1
                f |= F_UNPLACE
            if live:
                self._live()
            return f
        m = h.m
        if m != cm:
            if self.places.sq >= 0:
                self.places.sq = -1
                f |= F_UNPLACE
            if cm >= 0:
                g.undo()
                self.committed = -1
                self.turn.capture = False
                f |= F_SAVE
            try:
                g.move(h.a, h.b)
            except RulesError as e:
                self.view.note = N_REFUSED
                self.view.refused = str(e)
                if live:
                    self._live()
                return f | F_BEEP
            self.committed = m
            self.turn.capture = self.b0[h.b] != 0
            self.t_commit = t
            self.view.forget()
            f |= F_SAVE
            if g.over:
                self.stop()
                return f | F_OVER
        if h.p0 != NOHOME and g.placing() >= 0:
            f |= self._to_place(h.p0)
        elif self.places.sq >= 0 and self.sensed[self.places.sq]:
            self.places.sq = -1             # (lifted, it is being turned: the picker stays)
            f |= F_UNPLACE
        if h.nx and g.placing() < 0 and live:
            f |= self._close()              # the opponent has begun: the turn is over ...
            self.decided = False            # ... and what they did is judged at once
            self.t_last = (t - self.settle) & 0x3FFFFFFF
            return f
        if live:
            self._live()
        return f

    def _fold(self, t):
        """Ask. Where the question is only "the capture, its Barragoon on the tile's start
        square" (preselected) or "no capture" (attacker and victim put back: the sensors see
        the same), the capture goes on to its face picker, which offers "no capture" too: the
        capturer chooses the face as always, the player who changed their mind says so there
        (no_capture()), nobody answers a question first. Not against the board (its
        placements are confirmed, not chosen: the question stays)."""
        q = self.q
        if self.allow is not None or q.n != 2 or q.kind[0] != K_MOVE or q.kind[1] != K_NONE or \
                self.committed < 0 or (q.a[0] << 6) + q.b[0] != self.committed or \
                self.pool.hs[q.h[0]].p0 == NOHOME:
            return F_ASK
        k, alt = q.h[0], q.h[1]
        q.n = 0
        f = self._act(k, t)
        if f & F_PLACE:
            self.alt = k if alt == 0 else alt    # (_act swapped stories 0 and k)
        return f

    def no_capture(self, t):
        """The players chose "no capture" in the face picker (_fold)."""
        hi = self.alt
        self.alt = -1
        if hi < 0 or hi >= self.pool.nh or self.committed < 0 or self.places.sq < 0:
            return 0
        self.decided = True
        return self._believe(hi, t)

    def _to_place(self, sq):
        if self.places.choose(self.pool.hs[0], len(self.game.pending), sq):
            return F_PLACE
        return F_ASK

    # --- answers and placements ----------------------------------------------------------------
    def resolve(self, j, t):
        """The players chose option j of the question."""
        if j >= self.q.n:
            return 0
        kind = self.q.kind[j]
        hi = self.q.h[j]
        self.q.n = 0
        self.decided = True
        if kind == K_OK:
            self.confused = False
            self._new_turn(True)
            return F_TURN
        if kind == K_WAIT:
            # not yet in place: ask again once the board has been still for a while more
            self.decided = False
            self.t_last = (t + timing.ASK_AGAIN_MS - self.settle) & 0x3FFFFFFF
            return 0
        if kind == K_BAD:
            return self._put_right(hi)
        if kind == K_PLACE and self.q.b[j] == 1:
            self.places.sq = self.q.a[j]   # the Barragoon of the side placing now
            self._live()
            return F_PLACE
        return self._believe(hi, t)

    def _believe(self, hi, t):
        """Story hi is what happened (the players said so): keep only the stories that tell
        it, and act on it."""
        self.still = False
        pool = self.pool
        hs = pool.hs
        hs[0], hs[hi] = hs[hi], hs[0]
        self._kind(hs[0])
        i = 1
        while i < pool.nh:
            self._kind(hs[i])
            if hs[i].outcome(hs[0]):
                i += 1
            else:
                pool.remove(i)
        return self._act(0, t)

    def _put_right(self, hi):
        """Story hi is true: every piece is down, some on each other's squares. Guide them
        back to the turn start square by square."""
        f = 0
        if self.committed >= 0:
            self.game.undo()
            self.committed = -1
            f |= F_SAVE
        self.tm.carry()
        self._start_repair(self.pool.hs[hi].board)
        return f | F_UNPLACE

    def placement_coming(self):
        """The face buttons count for a Barragoon standing for a capture's placement that the
        judge has not acted on yet."""
        return self.active and not self.repair and self.game.placing() < 0 and \
            self.places.coming()

    def placement_ready(self):
        """A Barragoon stands on place_sq: its face may be confirmed (at any time)."""
        return self.places.ready(self.sensed) and not self.repair

    def placed(self, t=None):
        """game.place() succeeded for place_sq: the placement stands. Another Barragoon may
        already stand for the next placement: it is judged at once. One lifted since OK went
        down is in a hand (the next player's victim)."""
        sq = self.places.sq
        self.places.sq = -1
        self.alt = -1
        if not self.sensed[sq]:
            self.places.lifted_since(sq, self.game.pos.get(sq))
        self._carry()
        g = self.game
        f = F_SAVE | (F_TURN if g.placing() < 0 else 0) | (F_OVER if g.over else 0)
        if g.over:
            self.stop()
            return f
        if self.turn.seen_n:
            self.decided = False           # judged now, not after another settle time
            if t is not None:
                self.t_last = (t - self.settle) & 0x3FFFFFFF
        return f

    def resync(self):
        """After the sensor or LED test: carry on if the board still matches the open turn,
        else repair it back to the game's position (duties kept)."""
        if self.game is None or self.game.over:
            return
        h = self.pool.hs[0]
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
            self.tm.carry()
            self._start_repair(None)
        self.decided = False

    # --- what the LEDs and the screen show ---------------------------------------------------
    def _live(self):
        v = self.view
        if not self.active:
            v.clear()
            return
        if self.repair:
            v.repair(self.fix.restore, self.sensed)
            return
        v.live(self.pool.hs[0], self.committed, self.err_sq, self.sensed,
               self.game.placing() >= 0, self.victim, self.nt.moves)

    # --- touch-move, as saved with the game ----------------------------------------------------
    def duty_text(self):
        """The touch-move duties as saved with the game; with " fix" while the board is being
        put right (a power cut then is no turn in progress: the board guides on)."""
        t = self.tm.text(self._open())
        return (t or "- -") + " fix" if self.repair else t

    def duties_saved(self):
        self.tm.saved(self._open())

    def allows(self, frm, to):
        """Touch-move allows the legal move frm-to of the side to move now."""
        return self.committed >= 0 or self.tm.allowed(frm, to)

    # --- the question --------------------------------------------------------------------------
    def ask_label(self, j):
        """Text of option j of the question (at most 16 characters)."""
        return self.q.label(j, self.pool.hs, self.b0, self.committed, self.game.placing() != 0)

    def ask_prompt(self):
        return _t("Each piece back?") if self.repair else _t("Board can't tell")
