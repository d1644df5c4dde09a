# A game: the turn sequence (move, then the placements a capture calls for), supply counting,
# the end of the game, repetition with its offer / decline / must-deviate rule, and take-back.
#
# The game is its start position plus its actions (16-bit codes in an array: 2 bytes each, so
# a long game needs no large blocks of heap). Everything else is derived from them, so undo
# simply drops actions and replays: there is no second code path that could disagree with the
# forward one.
from array import array

from barragoon.core import EMPTY, TILE, MAX_BARRAGOON, RulesError
from barragoon.notation import (
    parse_position, square_name, format_move, format_placement, check_material, FACES)
from barragoon.deadlock import no_capture_possible

CLOSED = 0
OPEN = 1
VARIANTS = ("closed", "open")
DRAW = 2   # value of Game.winner for a draw (WHITE = 0, BROWN = 1, -1 while playing)

START = ("1vd1dv1/2zdz2/7/1[{0}]3[{0}]1/[{0}]1[{0}]1[{0}]1[{0}]/1[{0}]3[{0}]1/7/"
         "2ZDZ2/1VD1DV1 w 24")

# Why a game ended (Game.reason).
R_NO_TILES = "no tiles left"
R_NO_MOVE = "no legal move"
R_EXPRESS = "express rule"
R_DEAD = "no capture possible"
R_REPEAT = "repetition, nobody can deviate"
R_REPEAT_AGREED = "repetition draw accepted"
R_AGREED = "draw agreed"

# Actions: low 2 bits are the tag.
_MOVE = 0      # | frm << 2 | to << 8 | capture << 14
_PLACE = 1     # | sq << 2 | face code << 8
_META = 2      # | kind << 2
OFFER = 0      # repetition draw offered by the player who just moved
DECLINE = 1    # ... declined by the player to move
ACCEPT = 2     # ... accepted
AGREE = 3      # draw agreed at any time

META_WORDS = ("(offer)", "(decline)", "(accept)", "(agree)")


def side_name(side):
    return "Brown" if side else "White"


def start_position(variant=CLOSED):
    if variant not in (CLOSED, OPEN):
        raise RulesError("unknown variant %r (closed=0, open=1)" % (variant,))
    return parse_position(START.format("A" if variant == OPEN else "X"))


class Game:
    def __init__(self, start=None, variant=CLOSED, stages=(0, 0)):
        if start is None:
            start = start_position(variant)
        elif isinstance(start, str):
            start = parse_position(start)
        if len(stages) != 2 or stages[0] not in (0, 1, 2) or stages[1] not in (0, 1, 2):
            raise RulesError("express stages must be 0, 1 or 2 for each player, not %r"
                             % (stages,))
        self.start = start.copy()
        self.variant = variant
        self.stages = (stages[0], stages[1])
        self.actions = array("H")
        self._replay()

    # --- state -------------------------------------------------------------------------
    def _reset(self):
        self.pos = self.start.copy()
        self.pending = []         # sides that still have to place a Barragoon, in order
        self.winner = -1
        self.reason = ""
        self.keys = []            # turn-start positions since the last tile capture
        self.turn_moves = []      # the move played from each of them
        self.repetition = False   # the player who just moved may offer a repetition draw
        self.offered = False      # ... and has offered it: the opponent must answer
        self.avoid_side = -1      # side that must deviate from the repeated sequence
        self.avoid_move = -1
        self.avoid_key = None     # the obligation holds only in this position
        self._last_text = None    # cache of last_turn_text()

    @property
    def over(self):
        return self.winner >= 0

    @property
    def turn(self):
        """Side whose action is awaited: the placer during placements, else the mover."""
        return self.pending[0] if self.pending else self.pos.side

    def placing(self):
        """Side that must place a Barragoon now, or -1."""
        return self.pending[0] if self.pending and not self.over else -1

    # --- queries -------------------------------------------------------------------------
    def legal_moves(self):
        """Moves the side to move may make now (frm * 64 + to), sorted."""
        if self.over or self.pending or self.offered:
            return []
        moves = self.pos.legal_moves()
        if self.avoid_side == self.pos.side and self.avoid_move in moves:
            moves.remove(self.avoid_move)
        return moves

    def targets(self, sq):
        """Targets of the tile on sq (pos.tsq/pos.tkind[:n]) that the rules allow right now,
        including the must-deviate rule. Allocation-free."""
        pos = self.pos
        n = pos.targets(sq)
        am = self.avoid_move
        if self.avoid_side == pos.side and am // 64 == sq:
            tsq, tkind = pos.tsq, pos.tkind
            for i in range(n):
                if tsq[i] == am % 64:
                    n -= 1
                    tsq[i] = tsq[n]
                    tkind[i] = tkind[n]
                    break
        return n

    # --- actions -------------------------------------------------------------------------
    def move(self, frm, to):
        """Move the tile on frm to to. Raises RulesError (game unchanged) if not allowed."""
        self._check_can_act()
        if self.pending:
            raise RulesError("%s must place a Barragoon first" % side_name(self.pending[0]))
        pos = self.pos
        if not (0 <= frm < 63 and 0 <= to < 63):
            raise RulesError("no such square")
        c = pos.get(frm)
        if not c & TILE:
            raise RulesError("no tile on %s" % square_name(frm))
        if (c >> 4) & 1 != pos.side:
            raise RulesError("the tile on %s is not %s's" % (square_name(frm),
                                                          side_name(pos.side)))
        if not pos.target_kind(frm, to):
            raise RulesError("illegal move %s-%s" % (square_name(frm), square_name(to)))
        if self.avoid_side == pos.side and frm * 64 + to == self.avoid_move:
            raise RulesError("%s-%s repeats the sequence: %s must deviate"
                             % (square_name(frm), square_name(to), side_name(pos.side)))
        capture = 1 if pos.get(to) != EMPTY else 0
        self._do(_MOVE | frm << 2 | to << 8 | capture << 14)

    def place(self, sq, face):
        """Place a Barragoon with face code 1..16 (see notation.parse_face) on sq."""
        self._check_can_act()
        if not self.pending:
            raise RulesError("no Barragoon to place")
        if not 0 <= sq < 63:
            raise RulesError("no such square")
        if not 1 <= face <= MAX_BARRAGOON:
            raise RulesError("unknown face code %r" % (face,))
        if self.pos.get(sq) != EMPTY:
            raise RulesError("%s is not empty" % square_name(sq))
        self._do(_PLACE | sq << 2 | face << 8)

    def offer_repetition_draw(self):
        """The player who just completed the move offers a draw after a threefold
        repetition. The opponent must accept or decline before moving."""
        self._check_can_act()
        if not self.repetition or self.pending:
            raise RulesError("no threefold repetition to offer a draw on")
        self._do(_META | OFFER << 2)

    def answer_repetition_draw(self, accept):
        if self.over or not self.offered:
            raise RulesError("no draw offer to answer")
        self._do(_META | (ACCEPT if accept else DECLINE) << 2)

    def agree_draw(self):
        """Both players agree a draw (the board asks the opponent to confirm)."""
        if self.over:
            raise RulesError("the game is over")
        self._do(_META | AGREE << 2)

    def undo(self):
        """Take back the last action (a move, a placement or an offer)."""
        if not self.actions:
            raise RulesError("nothing to take back")
        self.actions = self.actions[:-1]
        self._replay()

    def undo_turn(self):
        """Take back the last turn: its move, its placements and what followed them."""
        i = self._last_move()
        if i < 0:
            raise RulesError("no turn to take back")
        self.actions = self.actions[:i]
        self._replay()

    def _last_move(self):
        # Index of the last move among the actions (where the last turn began), or -1.
        acts = self.actions
        i = len(acts) - 1
        while i >= 0 and acts[i] & 3 != _MOVE:
            i -= 1
        return i

    def _check_can_act(self):
        if self.over:
            raise RulesError("the game is over: %s" % self.reason)
        if self.offered:
            raise RulesError("%s must accept or decline the draw offer first"
                             % side_name(self.pos.side))

    # --- applying actions ------------------------------------------------------------------
    def _replay(self):
        acts = self.actions
        self.actions = array("H")
        self._reset()
        self._begin_turn(False)
        for a in acts:
            self._do(a, False)
        if not self.over and not self.pending and not self.offered:
            self._check_end()

    def _do(self, a, live=True):
        self._last_text = None
        self.actions.append(a)
        tag = a & 3
        if tag == _MOVE:
            self._apply_move((a >> 2) & 63, (a >> 8) & 63, live)
        elif tag == _PLACE:
            self.pos.put((a >> 2) & 63, (a >> 8) & 31)
            self.pending.pop(0)
            if not self.pending:
                self._end_turn(live)
        else:
            self._apply_meta((a >> 2) & 3)

    def _apply_move(self, frm, to, live):
        pos = self.pos
        side = pos.side
        victim = pos.get(to)
        pos.put(to, pos.get(frm))
        pos.put(frm, EMPTY)
        self.turn_moves.append(frm * 64 + to)
        self.repetition = False
        if self.avoid_side == side:
            self.avoid_side = -1      # deviated (the one forbidden move was refused)
        if victim == EMPTY:
            self._end_turn(live)
        elif victim <= MAX_BARRAGOON:
            self.pending = [side]
        else:
            self.keys = []            # tile captures are irreversible: older positions
            self.turn_moves = []      # can never come back
            if pos.count_tiles(1 - side) == 0:
                self._finish(side, R_NO_TILES)
                return
            take = min(2, pos.supply)
            pos.supply -= take
            self.pending = [1 - side, side][:take]
            if not self.pending:
                self._end_turn(live)

    def _apply_meta(self, kind):
        if kind == OFFER:
            self.offered = True
        elif kind == ACCEPT:
            self._finish(DRAW, R_REPEAT_AGREED)
        elif kind == AGREE:
            self._finish(DRAW, R_AGREED)
        else:
            self.offered = False
            self.repetition = False
            self._decline()

    def _decline(self):
        # The decliner (side to move) must deviate from the move played the last time this
        # position occurred, unless it is their only move: then the other player must
        # deviate one turn later (if the sequence really repeats).
        keys, moves = self.keys, self.turn_moves
        key = keys[-1]
        j = len(keys) - 2
        while j >= 0 and keys[j] != key:
            j -= 1
        if j < 0:
            return
        own = self.pos.legal_moves()
        if len(own) > 1 or own[0] != moves[j]:
            self.avoid_side, self.avoid_move, self.avoid_key = self.pos.side, moves[j], key
        elif j + 1 < len(moves):
            self.avoid_side, self.avoid_move, self.avoid_key = \
                1 - self.pos.side, moves[j + 1], keys[j + 1]

    def _end_turn(self, live):
        self.pos.side ^= 1
        self._begin_turn(live)

    def _begin_turn(self, live):
        key = self.pos.key()
        self.repetition = self.keys.count(key) >= 2
        self.keys.append(key)
        if self.avoid_side == self.pos.side and key != self.avoid_key:
            self.avoid_side = -1      # the sequence was left already
        if live:
            self._check_end()

    def _check_end(self):
        pos = self.pos
        side = pos.side
        stage = self.stages[side]
        if pos.count_tiles(side) == 0:
            self._finish(1 - side, R_NO_TILES)
            return
        mobile = pos.mobile_tiles(side, stage + 1)
        if mobile == 0:
            self._finish(1 - side, R_NO_MOVE)
        elif mobile <= stage:
            self._finish(1 - side, R_EXPRESS)
        elif self.avoid_side == side and pos.legal_moves() == [self.avoid_move]:
            self._finish(DRAW, R_REPEAT)
        elif no_capture_possible(pos):
            self._finish(DRAW, R_DEAD)

    def _finish(self, winner, reason):
        self.winner = winner
        self.reason = reason
        self.pending = []

    # --- notation ------------------------------------------------------------------------
    def iter_turns(self):
        """The game's turns as texts ('d2xd6 e6=X b3=RN'), one at a time; offers and answers
        are appended to the turn they follow: '(offer)', '(decline)', '(accept)', '(agree)'."""
        cur = None
        for a in self.actions:
            tag = a & 3
            if tag == _MOVE:
                if cur is not None:
                    yield cur
                cur = format_move((a >> 2) & 63, (a >> 8) & 63, (a >> 14) & 1)
            elif tag == _PLACE:
                cur += " " + format_placement((a >> 2) & 63, (a >> 8) & 31)
            elif cur is None:
                cur = META_WORDS[(a >> 2) & 3]
            else:
                cur += " " + META_WORDS[(a >> 2) & 3]
        if cur is not None:
            yield cur

    def turn_texts(self):
        return list(self.iter_turns())

    def last_turn_text(self):
        """Text of the last turn (or the one in progress), '' before the first move."""
        if self._last_text is not None:
            return self._last_text
        i = self._last_move()
        if i < 0:
            return ""
        out = ""
        acts = self.actions
        for k in range(i, len(acts)):
            a = acts[k]
            tag = a & 3
            if tag == _MOVE:
                out = format_move((a >> 2) & 63, (a >> 8) & 63, (a >> 14) & 1)
            elif tag == _PLACE:
                out += " " + format_placement((a >> 2) & 63, (a >> 8) & 31)
            else:
                out += " " + META_WORDS[(a >> 2) & 3]
        self._last_text = out
        return out

    def in_hand(self):
        return len(self.pending)

    def check(self):
        """Raise RulesError if the position holds more pieces than a set has."""
        check_material(self.pos, len(self.pending))


__all__ = ["Game", "start_position", "FACES"]
