# The players of tools/toolkit/hands.py: both players' hands and fingers, of one kind, playing
# the truth game on the table (hands.Table). hands.py describes the kinds; KINDS below says how
# often each kind does each of the things real players do. Everything a hand does is physical:
# a carried piece takes CARRY_MS a square, a slid one passes every square on its way.
if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/players.py is a module the tools import, not a tool "
                     "(tools/README.md lists the tools)\n")
    sys.exit(2)

from barragoon.core import TILE, MAX_BARRAGOON
from barragoon.game import action_move, action_captures
from barragoon.notation import square_name, format_move
from toolkit.hands import (Stuck, MIN_OFF_MS, CARRY_MS, STUCK_MS, neighbours, distance,
                           PROFILES, Rng, Table, is_prefix)
from toolkit.player_answers import truth_option
from toolkit.placing import toward

LONG_MS = 900             # holding OK this long opens the menu (the driver's long press: 700)
REPRESS_MS = 40           # a finger releases a button and presses it again no faster

# Per kind (careful, normal, blitz, sloppy): gaps between hand events (ms), the opponent's start
# after the mover's last set-down and a capture's landing after its victim left (None: a gap),
# how long a button is held and how long a finger rests before the next press, and the percent
# of turns (or captures, placements) in which the players do each thing.
_K = {
    "gap": ((600, 2000), (250, 900), (80, 400), (250, 900)),
    "start": (None, None, (0, 300), None),
    "land": (None, None, (0, 150), None),
    "hold": ((80, 200), (50, 160), (30, 120), (30, 160)),
    "rest": ((100, 400), (30, 250), (0, 120), (0, 200)),
    "square": ((150, 400), (80, 250), (40, 150), (60, 250)),    # a slide, per square
    "slide": (20, 30, 30, 40),          # a move slid along its path (of moves that can be)
    "overlap": (50, 50, 60, 60),        # ... the next square closing before the last opens
    "hesitate": (1, 2, 3, 5),           # a capture begun, given up, then made after all
    "together": (0, 5, 20, 50),         # both Barragoons set down together (of tile captures)
    "early": (0, 10, 30, 20),           # the next player lifts a tile while the capturer places
    "race": (0, 10, 30, 20),            # ... or the Barragoon just placed, right after OK
    "face_early": (0, 10, 50, 30),      # face buttons pressed before the picker is up
    "straighten": (0, 5, 10, 10),       # the moved tile straightened as the opponent begins
    "jiggle": (0, 0, 0, 15),
    "knock": (0, 0, 0, 15),             # a neighbour knocked off and put back
    "shove": (0, 0, 0, 10),             # a neighbour pushed onto the next square, back later
    "push": (0, 0, 0, 30),              # push-off captures
    "detour": (0, 0, 0, 10),            # a tile set on a wrong square first
    "ignore": (0, 0, 0, 50),            # a question ignored (the players play on)
}
KINDS = dict((k, dict(zip(PROFILES, v))) for k, v in _K.items())
# A next turn begun before this one ended: (move, what is in the hands already).
_ATTACKER = 1
_VICTIM = 2


class Players:
    """Both players' hands (one kind), playing the truth game on the table."""

    def __init__(self, table, profile, rng, max_turns=40, takebacks=True, offers=True):
        if profile not in PROFILES:
            raise ValueError("unknown profile %r (one of %s)" % (profile, ", ".join(PROFILES)))
        self.tb = table
        self.profile = profile
        self.k = dict((name, KINDS[name][profile]) for name in KINDS)
        self.rng = rng
        self.max_turns = max_turns
        self.takebacks = takebacks
        self.offers = offers
        self.turns = 0
        self.helped = False           # a question answered against its preselection, or the
        #                               board lost track
        self.wrong_pre = 0
        self.restarted = 0            # turns begun again from their start after a power cut
        self.aside = []               # captured pieces next to the board
        self.ignored = False          # the question on screen is being ignored
        self.next = None              # the next turn, begun early: (move, _ATTACKER | _VICTIM)
        self.restoring = False        # putting the board back as the board shows it
        self.doing = None             # the move of the turn being made (made again after a
        #                               power cut put the board back before it)
        self.did = None               # this turn so far: the move made, {square: side placed}
        self.placing_sq = -1          # the square of the Barragoon whose face comes next
        self.place_boots = 0          # power-ons when the placements began (placing.py)
        self.boots = 0                # power cuts the players have gone on from
        self.why = ""                 # the last question answered against its preselection
        self.landed = 0               # when the last move's tile was set down
        self.last_button = None       # the button last released, and when
        self.released = 0
        self.hand = None              # a tile of the next turn, lifted early ...
        self.held_t = 0               # ... at this time

    # --- timing ----------------------------------------------------------------------------
    def between(self, pair):
        return self.rng.between(pair[0], pair[1])

    def gap(self):
        return self.between(self.k["gap"])

    def carry(self, frm, to, spent=0):
        """How long the hand carries a piece from frm to to (spent ms of it gone already)."""
        return max(self.gap(), CARRY_MS * distance(frm, to)) - spent

    def start_gap(self):
        return self.between(self.k["start"]) if self.k["start"] else self.gap()

    def does(self, what):
        return self.k[what] and self.rng.chance(self.k[what])

    def pause(self, ms):
        """Wait ms, answering questions the players see meanwhile (when they answer), and
        going on as the board shows after a power cut."""
        end = self.tb.t + max(0, ms)
        while self.tb.t < end:
            self.tb.wait(min(50, end - self.tb.t))
            self.look()

    def look(self):
        tb = self.tb
        if tb.boots != self.boots:
            self.boots = tb.boots
            self.resume()
        fold = self.offered_no_capture()
        if tb.top() != "Ask" and not fold:
            self.ignored = False
            return
        if self.ignored:
            return
        if self.does("ignore"):
            self.ignored = True
            return
        if fold:
            self.no_capture()
        else:
            self.answer()

    def offered_no_capture(self):
        """The face picker offers "no capture" and the hands made none (a capture given up:
        the board took the tile put back for a Barragoon on its start square)."""
        tb = self.tb
        return tb.top() == "Place" and tb.ctl.judge.alt >= 0 and self.did is not None and \
            self.did[0] is None

    def no_capture(self):
        """Read the face picker and choose its "no capture" (face 0, UP from the first face)."""
        tb = self.tb
        tb.wait(self.rng.between(300, 900))
        if not self.offered_no_capture():
            return
        self.wrong_pre += 1                # (the capture was preselected)
        self.helped = True
        self.why = "offered no capture at %d ms" % tb.t
        for i in range(17):
            if tb.ctl.face == 0 or not self.offered_no_capture():
                break
            self.press(toward(tb.ctl.face, 0), rest=self.rng.between(60, 200))
        if tb.ctl.face == 0 and self.offered_no_capture():
            self.press("ok", rest=self.rng.between(60, 200))

    # --- a whole game ----------------------------------------------------------------------
    def play(self):
        g = self.tb.truth
        while not g.over and self.turns < self.max_turns:
            try:
                self.turn()
                self.turns += 1
                if g.over:
                    break
                if self.next is None and self.takebacks and self.rng.chance(2) and \
                        g.last_turn_text():
                    self.take_back()
                elif self.next is None and self.offers and g.repetition and \
                        self.rng.chance(50):
                    self.offer()
            except Restart:                # (a power cut: the board guides them back)
                self.restart()
        self.tb.cut_left = 0
        self.put_back_next()
        self.settle()

    def settle(self):
        """The game is over or the players stop: let the board come to rest."""
        tb = self.tb
        for i in range(40):
            self.pause(100)
            self.sync()
            if tb.top() == "Ask":
                self.answer()
        self.pause(2500)

    # --- one turn --------------------------------------------------------------------------
    def choose(self):
        g = self.tb.truth
        moves = g.legal_moves()
        caps = [m for m in moves if g.pos.get(m & 63)]
        if caps and self.rng.chance(35):
            return self.rng.pick(caps)
        return self.rng.pick(moves)

    def turn(self):
        tb, g = self.tb, self.tb.truth
        self.sync()
        if g.placing() >= 0:                         # (a power cut undid a placement)
            from toolkit.placing import placements
            self.did = [None, {}]
            placements(self)
            return
        if self.next is not None:
            m, held = self.next
            self.next = None
        else:
            m, held = self.choose(), 0
            self.pause(self.start_gap())
        frm, to = m >> 6, m & 63
        self.doing = m
        self.did = [None, {}]
        victim = g.pos.get(to)
        if victim:
            if not held and self.does("hesitate"):
                self.hesitate(frm, to)
            self.capture(frm, to, held)
        else:
            self.move(frm, to, held)
        g.move(frm, to)
        self.landed = tb.t
        self.did[0] = format_move(frm, to, 1 if victim else 0)
        if self.does("jiggle"):
            self.jiggle(to)
        if self.does("knock"):
            self.knock(to)
        if self.does("shove"):
            self.shove(to)
        if g.placing() >= 0:
            from toolkit.placing import placements
            placements(self)
        elif not g.over and self.does("straighten"):
            self.straighten(to)

    def move(self, frm, to, held):
        tb = self.tb
        if not held and self.does("slide") and self.slide(frm, to):
            return
        tile = self.hand if held else tb.lift(frm)
        spent = tb.t - self.held_t if held else 0
        if self.does("detour"):
            spent = self.detour(tile, frm, to, spent)
        self.pause(self.carry(frm, to, spent))
        tb.drop(to, tile)

    def slide(self, frm, to):
        """Slide the tile square by square to to; False where no L of empty squares leads
        there (then it is carried). With overlap the next square's sensor closes before the
        one the tile leaves opens."""
        path = slide_path(self.tb.pieces, frm, to)
        if path is None:
            return False
        tb = self.tb
        tile = tb.pieces[frm]
        at = frm
        for sq in path:
            self.pause(self.between(self.k["square"]))
            if self.does("overlap"):
                tb.drop(sq, tile)
                self.pause(self.rng.between(1, 40))
                tb.lift(at)
            else:
                tb.lift(at)
                self.pause(self.rng.between(0, 20))
                tb.drop(sq, tile)
            at = sq
        return True

    def capture(self, frm, to, held):
        """The attacker first, or the victim first, or pushing the victim off; held: what
        the next player's hands took up already (see placing.py)."""
        tb = self.tb
        push = not held and self.does("push")
        if held & _VICTIM or not held & _ATTACKER and not push and self.rng.chance(50):
            if not held & _VICTIM:
                self.aside.append(tb.lift(to))
                self.pause(self.rng.between(0, 200) if self.k["land"] else self.gap())
            tile = tb.lift(frm)
            land = self.between(self.k["land"]) if self.k["land"] else self.gap()
            self.pause(max(land, CARRY_MS * distance(frm, to)))
        else:
            tile = self.hand if held & _ATTACKER else tb.lift(frm)
            lifted = self.held_t if held & _ATTACKER else tb.t
            if not held:
                self.pause(self.gap())
            self.aside.append(tb.lift(to))
            self.pause(self.rng.between(MIN_OFF_MS, 30) if push else
                       self.between(self.k["land"]) if self.k["land"] else self.gap())
            self.pause(CARRY_MS * distance(frm, to) - (tb.t - lifted))
        tb.drop(to, tile)

    def hesitate(self, frm, to):
        """A capture begun and given up: the attacker and the victim lifted (either first)
        and put back (either first, the hand holding both puts them back in one go); the
        players then make it after all (touch-move)."""
        tb = self.tb
        first, second = (frm, to) if self.rng.chance(50) else (to, frm)
        a = tb.lift(first)
        self.pause(self.gap())
        b = tb.lift(second)
        self.pause(max(self.rng.between(20, 400), CARRY_MS * (distance(frm, to) - 1)))
        if self.rng.chance(50):
            first, second, a, b = second, first, b, a
        tb.drop(first, a)
        self.pause(max(self.rng.between(80, 350), CARRY_MS * (distance(frm, to) - 1)))
        tb.drop(second, b)
        self.pause(self.gap())

    def detour(self, tile, frm, to, spent):
        """The tile is set on a wrong empty square next to its target first, then moved on."""
        tb = self.tb
        near = [s for s in neighbours(to) if not tb.pieces[s] and s != frm]
        if not near:
            return spent
        sq = self.rng.pick(near)
        self.pause(self.carry(frm, sq, spent))
        tb.drop(sq, tile)
        self.pause(self.gap())
        tb.lift(sq)
        return 0

    def jiggle(self, sq):
        tb = self.tb
        self.pause(self.rng.between(0, 100))
        c = tb.lift(sq)
        self.pause(self.rng.between(MIN_OFF_MS, 60))
        tb.drop(sq, c)

    def knock(self, to):
        tb = self.tb
        near = [s for s in neighbours(to) if tb.pieces[s]]
        if not near:
            return
        sq = self.rng.pick(near)
        self.pause(self.rng.between(0, 50))
        c = tb.lift(sq)
        self.pause(self.rng.between(100, 800))
        tb.drop(sq, c)

    def shove(self, to):
        """A neighbour of the moved tile pushed onto the square beyond it (sliding: the new
        square may close first); the players put it back a moment later."""
        tb = self.tb
        pairs = [(s, s + s - to) for s in neighbours(to) if tb.pieces[s] and
                 s + s - to in neighbours(s) and not tb.pieces[s + s - to]]
        if not pairs:
            return
        sq, on = self.rng.pick(pairs)
        c = tb.pieces[sq]
        self.pause(self.rng.between(0, 50))
        if self.rng.chance(50):
            tb.drop(on, c)
            self.pause(self.rng.between(1, 30))
            tb.lift(sq)
        else:
            tb.lift(sq)
            self.pause(self.rng.between(0, 20))
            tb.drop(on, c)
        self.pause(self.rng.between(200, 1500))
        tb.lift(on)
        self.pause(max(self.gap(), CARRY_MS))
        tb.drop(sq, c)

    def straighten(self, to):
        """The mover straightens the tile just moved (off for 40-150 ms) while the opponent
        takes up a tile of the next move, one that can capture it if there is one."""
        tb, g = self.tb, self.tb.truth
        moves = g.legal_moves()
        if not moves:
            return
        caps = [m for m in moves if m & 63 == to]
        m = self.rng.pick(caps) if caps else self.choose()
        self.pause(self.rng.between(0, 150))
        c = tb.lift(to)
        self.pause(self.rng.between(MIN_OFF_MS, 60))
        self.lift_next(m, _ATTACKER)
        self.pause(self.rng.between(MIN_OFF_MS, 80))
        tb.drop(to, c)

    def put_back_next(self):
        """The players stop with the next turn begun: what they took up goes back."""
        if self.next is None:
            return
        tb = self.tb
        m, held = self.next
        self.next = None
        self.pause(self.gap())
        if held & _ATTACKER:
            tb.drop(m >> 6, self.hand)
        if held & _VICTIM:
            tb.drop(m & 63, self.aside.pop())

    def lift_next(self, m, what):
        """The next player begins the move m early: its tile (or its victim) lifted now."""
        tb = self.tb
        if what == _ATTACKER:
            self.hand = tb.lift(m >> 6)
            self.held_t = tb.t
        else:
            self.aside.append(tb.lift(m & 63))
        self.next = (m, what)

    # --- buttons ---------------------------------------------------------------------------
    def press(self, name, hold=None, rest=None):
        """Press and release a button (held hold ms), then rest ms before the next action. A
        finger needs REPRESS_MS between releasing a button and pressing it again."""
        tb = self.tb
        if name == self.last_button:
            tb.wait(REPRESS_MS - (tb.t - self.released))
        tb.button(name, True)
        tb.wait(hold if hold is not None else self.between(self.k["hold"]))
        tb.button(name, False)
        self.last_button, self.released = name, tb.t
        self.pause(rest if rest is not None else self.between(self.k["rest"]))

    # --- questions -------------------------------------------------------------------------
    def answer(self):
        """Read the question and choose what the hands did (the preselected one if none)."""
        tb = self.tb
        j = tb.ctl.judge
        tb.wait(self.rng.between(300, 900))
        if tb.top() != "Ask" or not j.q.n:
            return
        pick = truth_option(self)
        even = j.q.even                      # (for the oracle: no answer was likelier)
        if pick is None or pick != 0 and not even:
            self.wrong_pre += 1
            self.why = "asked %s at %d ms, the hands: %s" % (
                " / ".join(j.ask_label(k) for k in range(j.q.n)), tb.t,
                "none" if pick is None else j.ask_label(pick))
        if pick is None:
            pick = 0
        if pick != 0 and not even:
            self.helped = True
        sel = tb.ctl.top.sel
        boots = tb.boots                   # (a power cut meanwhile: the question is gone)
        for i in range((pick - sel) % j.q.n):
            if tb.boots != boots:
                return
            self.press("down", rest=self.rng.between(60, 200))
        if tb.top() == "Ask" and tb.boots == boots:
            self.press("ok", rest=self.rng.between(60, 200))

    # --- the menu --------------------------------------------------------------------------
    def menu(self, label_start):
        """Open the menu (hold OK) and choose the first item starting with label_start."""
        tb = self.tb
        boots = tb.boots
        self.press("ok", LONG_MS)
        if tb.boots != boots:
            raise Restart()                          # (a power cut: the board shows the way)
        if tb.top() != "Menu":
            raise Stuck("no menu")
        items = tb.ctl.top.items
        for i in range(len(items)):
            if items[i].startswith(label_start) or label_start in items[i]:
                for k in range(i - tb.ctl.top.sel):
                    self.press("down")
                self.press("ok")
                if tb.boots != boots:                # (cut before the choice was taken)
                    raise Restart()
                return True
        for k in range(tb.ctl.top.sel):              # not offered: back to the game
            self.press("up")
        self.press("ok")                             # (Resume is the first item)
        return False

    def take_back(self):
        """Take the last turn back from the menu, once the board shows it made (a player
        reads "Last ..." first, and answers a question the board asks about it)."""
        tb, g = self.tb, self.tb.truth
        self.pause(self.gap())
        for i in range(20):
            if tb.top() == "Ask":
                self.answer()
            board = tb.ctl.game
            if board is not None and len(board.actions) == len(g.actions) and \
                    tb.top() == "Play":
                break
            self.pause(100)
        else:
            return
        if not self.menu("Take back"):
            return
        g.undo_turn()
        self.restore()

    def restore(self):
        """Put the board as the truth has it now (pieces taken off first), and wait until
        the board takes it as right."""
        tb, g = self.tb, self.tb.truth
        self.restoring = True
        try:
            self._restore(tb, g)
        finally:
            self.restoring = False

    def _restore(self, tb, g):
        want = [g.pos.get(s) for s in range(63)]
        for sq in range(63):
            if tb.pieces[sq] and tb.pieces[sq] != want[sq]:
                self.pause(self.gap())
                c = tb.lift(sq)
                if c & TILE or c in want:
                    self.aside.append(c)
        for sq in range(63):
            if want[sq] and not tb.pieces[sq]:
                self.pause(self.gap())
                c = want[sq]
                if c in self.aside:
                    self.aside.remove(c)
                tb.drop(sq, c)
        self.pause(1000)
        waited = 0
        while tb.ctl.judge.repair and waited < STUCK_MS:
            if tb.top() == "Ask":
                self.answer()
            self.pause(200)
            waited += 200
        if tb.ctl.judge.repair:
            raise Stuck("the board does not take the board back as right")

    def offer(self):
        tb, g = self.tb, self.tb.truth
        self.pause(self.gap())
        if not self.menu("draw (rep.)"):
            return
        g.offer_repetition_draw()
        self.pause(self.gap())
        accept = self.rng.chance(30)
        self.press("ok", LONG_MS if accept else None)
        g.answer_repetition_draw(accept)

    # --- power cuts ------------------------------------------------------------------------
    def plan_cuts(self, n):
        """Up to n power cuts at random moments of the game, each 1 to 8 s after the players
        have resumed from the last (they must have time to do something in between)."""
        self.tb.plan_cuts(n, self.rng, (1000, 8000))

    def resume(self):
        """The board restarted: OK on "Resume game", then go on as the board shows."""
        tb = self.tb
        tb.wait(self.rng.between(1600, 2500))             # (the boot screen, read)
        if tb.top() == "Menu" and tb.menu_title() == "Saved game":
            self.press("ok")
            tb.wait(self.rng.between(300, 600))           # (the board comes up: look)
        if tb.ctl.judge.repair or tb.top() == "Setup" or self.restoring:
            raise Restart()                               # (putting back: begin again)
        self.set_again()
        self.lost_turn()
        self.held_t = tb.t            # (a tile held meanwhile is carried on from now: the
        #                               players do not all set down in the same instant)

    def lost_turn(self):
        """The board came up before the turn the hands made (its pieces stand where the
        sensors cannot tell them from the position before it: a tile on its victim's square,
        a Barragoon on the tile's start square) and shows nothing going on: the players put
        the board back as it shows and make that turn again."""
        tb, g = self.tb, self.tb.truth
        board = tb.ctl.game
        if board is None or len(board.actions) >= len(g.actions) or self.did is None or \
                self.did[0] is None or tb.top() != "Play":
            return
        self.pause(self.rng.between(500, 1500))           # (nothing lit: look again)
        if len(board.actions) >= len(g.actions) or tb.top() != "Play" or \
                tb.ctl.judge.pool.hs[0].n or any(tb.ctl.meaning[sq] for sq in range(63)):
            return
        raise Restart()

    def set_again(self):
        """The board shows a tile as lifted (its square blue) that the players had set down
        (on its victim's square, which the sensors cannot tell from the victim): they lift it
        there and set it down again, as the lights ask."""
        from controller import colours as C
        tb, g = self.tb, self.tb.truth
        board = tb.ctl.game
        if board is None or len(board.actions) >= len(g.actions) or self.did is None or \
                self.did[0] is None:
            return
        frm, to = self.did[0][:2], self.did[0][3:5]
        from barragoon.notation import parse_square
        frm, to = parse_square(frm), parse_square(to)
        if tb.ctl.meaning[frm] != C.ORIGIN or not tb.pieces[to]:
            return
        self.pause(self.rng.between(300, 900))
        c = tb.lift(to)
        self.pause(self.rng.between(150, 500))
        tb.drop(to, c)

    def restart(self):
        """After a power cut the board guides the pieces back to where its game stands: the
        truth goes back to it too (a turn not yet committed is played again; another power
        cut meanwhile starts this again)."""
        tb, g = self.tb, self.tb.truth
        self.restarted += 1
        self.next = None
        self.hand = None
        again = self.doing
        for attempt in range(200):
            try:
                board = tb.ctl.game
                while board is not None and len(g.actions) > len(board.actions):
                    g.undo()
                on = self.rested(board)
                self.restore()
                if tb.top() == "Setup":
                    self.pause(1000)
                if on is not None:
                    self.move_on(*on)
                self.play_again(again)
                return
            except Restart:
                continue
        raise Stuck("power cuts faster than the board can be put right")

    def rested(self, board):
        """The board kept the hands' last move with another target: the tile rested there
        long enough to make it (and saved it) before moving on, and the power went. The truth
        takes the board's move (the players put the board as it shows); returns (frm, there,
        to) to move on from there (the last move stays open), or None."""
        g = self.tb.truth
        if board is None or not board.actions or len(board.actions) != len(g.actions):
            return None
        a, b = board.actions[-1], g.actions[-1]
        if a == b or board.placing() >= 0 or g.placing() >= 0 or action_captures(a) or \
                action_captures(b):
            return None
        ma, mb = action_move(a), action_move(b)
        if ma < 0 or mb < 0 or ma >> 6 != mb >> 6 or not self.set_on(ma >> 6, ma & 63):
            return None
        g.undo()
        g.move(ma >> 6, ma & 63)
        return ma >> 6, ma & 63, mb & 63

    def set_on(self, frm, there):
        """Did the hands set a piece down on there since they last lifted frm's tile?"""
        for ms, verb, sq in reversed(self.tb.log):
            if verb == "lift" and sq == frm:
                return False
            if verb == "drop" and sq == there:
                return True
        return False

    def move_on(self, frm, there, to):
        """The tile moved on from where the board has it to where the hands had set it."""
        tb, g = self.tb, self.tb.truth
        if not tb.pieces[there] or tb.pieces[to] or tb.ctl.judge.repair:
            return
        self.pause(self.gap())
        c = tb.lift(there)
        self.pause(self.carry(there, to))
        tb.drop(to, c)
        g.undo()
        g.move(frm, to)

    def play_again(self, again):
        """The board put back, the players make the move they were making again where it
        is legal (touch-move: they had touched its tile, and putting back touched it too)."""
        if again is not None and again in self.tb.truth.legal_moves():
            self.next = (again, 0)

    def sync(self):
        """Before a turn: a face picker or a question the board still shows for what the
        truth already has (a power cut between a set-down and the board's decision) is
        answered as the players would."""
        from toolkit.placing import finish_picker
        finish_picker(self)


class Restart(Exception):
    """A power cut left the board guiding the pieces back: the turn begins again."""


def slide_path(pieces, frm, to):
    """The squares a tile slides over from frm to to (to included): straight, or an L along
    either side, every square empty; None if there is none."""
    fr, ff, tr, tf = frm // 7, frm % 7, to // 7, to % 7
    for corner in ((fr, tf), (tr, ff)):
        path = []
        r, f = fr, ff
        ok = True
        for cr, cf in (corner, (tr, tf)):
            while (r, f) != (cr, cf):
                r += (cr > r) - (cr < r)
                f += (cf > f) - (cf < f)
                sq = r * 7 + f
                if pieces[sq]:
                    ok = False
                path.append(sq)
        if ok:
            return path
    return None


def play_game(profile, seed, max_turns=40, position=None, cuts=0):
    """One game; returns a dict: turns, exact, wrong, stuck, questions, wrong_pre, why, cuts,
    resumed, and the table. seed: an int, or an object with Rng's methods (the property test's
    draws). cuts: power cuts at random moments of the game (the players go on as the board
    shows them after each)."""
    rng = Rng(seed) if isinstance(seed, int) else seed
    tb = Table(position)
    pl = Players(tb, profile, rng, max_turns)
    if cuts:
        pl.plan_cuts(cuts)
    out = {"turns": 0, "exact": False, "wrong": False, "stuck": False, "questions": 0,
           "offers": 0, "wrong_pre": 0, "why": "", "cuts": 0, "restarted": 0}
    try:
        pl.play()
    except Stuck as e:
        out["stuck"] = True
        out["why"] = str(e)
    except Exception as e:                           # the firmware raised: the board is dead
        out["stuck"] = True
        out["why"] = "%s: %s" % (type(e).__name__, e)
    out["turns"] = pl.turns
    rec, truth = tb.record(), list(tb.truth.iter_turns())
    if rec != truth and not out["stuck"]:
        out["wrong"] = True
        out["why"] = "record %s, hands %s" % (" ".join(rec[-3:]), " ".join(truth[-3:]))
    elif rec != truth and out["stuck"] and not is_prefix(rec, truth):
        out["wrong"] = True
        out["stuck"] = False
        out["why"] += "; record %s, hands %s" % (" ".join(rec[-3:]), " ".join(truth[-3:]))
    out["questions"] = tb.questions
    out["offers"] = tb.offers
    out["wrong_pre"] = pl.wrong_pre
    out["cuts"] = tb.boots
    out["restarted"] = pl.restarted
    out["exact"] = not out["wrong"] and not out["stuck"] and not pl.helped and not tb.lost
    if not out["why"] and not out["exact"]:
        out["why"] = pl.why or ("lost track" if tb.lost else "")
    out["table"] = tb
    return out
