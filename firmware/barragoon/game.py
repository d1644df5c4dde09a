# A game: the turn sequence (a move, then the placements a capture calls for), supply counting,
# the end of the game (rules 6, 6a, 6b, 6c and the express stages) and take-back.
#
# The game is its start position plus its actions (16-bit codes in an array: 2 bytes each, so
# a long game needs no large blocks of heap). Everything else is derived from them, so undo
# simply drops actions and replays: there is no second code path that could disagree with the
# forward one.
#
# Public interface (the board controller, the storage and the tools rely on these names):
#   Game(start=None, variant=CLOSED, stages=(0, 0))
#       start: position text or Position (None: the variant's start position); stages: the
#       express stage (0, 1, 2) of White and Brown. Bad arguments raise RulesError.
#   state    pos, start, variant, stages, actions (action_move() reads one), over, winner
#            (WHITE, BROWN, DRAW or -1), termination (T_..., 0 while playing), reason (its
#            words, R_...), outcome() (an Outcome, None while playing), pending (sides still
#            to place, in order), turn (side whose action is awaited), offered (a repetition
#            draw offer awaits its answer), repetition (the player who has just completed a
#            turn may offer the repetition draw now),
#            must_deviate (side that must deviate from the repeated sequence in the turn in
#            progress, or -1)
#   queries  legal_moves(), targets(sq) (allocation-free), placing(), placement_allowed(sq,
#            face), predicted_move(), predicted_turn(), iter_turns(), turn_texts(),
#            last_turn_text(), in_hand(), check()
#   actions  move(frm, to), place(sq, face), offer_repetition_draw(),
#            answer_repetition_draw(accept), agree_draw(), lose_on_time(), undo(), undo_turn()
#   rule 6b  stepwise (False: decided within the action that began the turn; the board sets
#            True), deciding, decide(work), unproven (see deadlock.py)
#   caches   mark(), unchanged(): how much of the actions a take-back left as they were
# Every action either happens completely or raises RulesError and changes nothing.
#
# Repetition (rule 6c) is about a repeated sequence of turns, not a position seen again. A turn
# is its move with its placements. The last 3p turns repeat a block when they are the same p
# turns (p even, p >= 4) three times in a row from the same position (board and side to move).
# Only the turns since the last tile capture can take part (material never comes back), and of
# each of them one small int is kept (move, captured Barragoon, placement: 28 bits), enough to
# compare turns and to take them back on a scratch board to compare positions exactly.
#
# Decisions where the printed rules are silent (tested in host_tests/test_rules_repetition.py):
# - The block is the shortest one that repeats; the predicted turn is the turn one block back.
# - A different placement is a deviation: after a declined offer the move of a predicted
#   Barragoon capture stays allowed, only the placement that would complete exactly the
#   predicted turn is refused. So a player whose predicted turn is a capture can always
#   deviate. A tile capture is never predicted (no block holds one), so it always deviates,
#   with or without placements (supply shortfall).
# - While a duty to deviate is running nobody may offer the repetition draw again: the offer
#   was answered, and the duty ends either in a deviation or, when nobody can deviate in one
#   whole block, in a draw.
# - That draw is declared at the start of the p-th turn in a row in which the player with the
#   duty has no turn but the predicted one: every position of the block has then been seen
#   without a way out, and the remaining turn is forced anyway.
# - Rule 6b under the express rule ("gelten analog"): "can still move" means "does not lose
#   by the express stage", i.e. more movable tiles than the stage.
# - Rule 6b is decided exactly at the start of every turn (deadlock.py: every sequence of
#   non-capturing turns, a line ending where a side loses; offers ignored, the duty to deviate
#   honoured at the root), within bounds beyond which play goes on. A forced cycle without
#   captures is therefore drawn by 6b before the repetition rule could end it.
# - Capture of the last tile: nothing is due, but the placements the printed rules would have
#   are accepted (records may write them) and change nothing.
# - A start position where a side has no tiles is refused: no game passes through one (a game
#   ends when the last tile of a side is captured).
from array import array

from barragoon.core import (
    WHITE, BROWN, EMPTY, TILE, MAX_BARRAGOON, SQ2MB, Position, RulesError)
from barragoon.notation import (
    parse_position, format_position, square_name, format_move, format_placement, check_material,
    FACES)
from barragoon.deadlock import Decision, DEAD, UNDECIDED

CLOSED = 0
OPEN = 1
VARIANTS = ("closed", "open")
DRAW = 2   # value of Game.winner for a draw (WHITE = 0, BROWN = 1, -1 while playing)

START = ("1vd1dv1/2zdz2/7/1[{0}]3[{0}]1/[{0}]1[{0}]1[{0}]1[{0}]/1[{0}]3[{0}]1/7/"
         "2ZDZ2/1VD1DV1 w 24")

# How a game ended (Game.termination, Outcome.termination: a code, in the manner of
# python-chess's Termination), and the words for it (Game.reason: the record's Termination
# tag, the board's game-over screen).
T_NO_TILES = 1
T_NO_MOVE = 2
T_EXPRESS = 3
T_DEAD = 4
T_REPEAT = 5
T_REPEAT_AGREED = 6
T_AGREED = 7
T_TIME = 8
T_RESIGN = 9
TERMINATIONS = ("", "no tiles left", "no legal move", "express rule", "no capture possible",
                "repetition, nobody can deviate", "repetition draw accepted", "draw agreed",
                "time ran out", "resigned")
R_NO_TILES = TERMINATIONS[T_NO_TILES]
R_NO_MOVE = TERMINATIONS[T_NO_MOVE]
R_EXPRESS = TERMINATIONS[T_EXPRESS]
R_DEAD = TERMINATIONS[T_DEAD]
R_REPEAT = TERMINATIONS[T_REPEAT]
R_REPEAT_AGREED = TERMINATIONS[T_REPEAT_AGREED]
R_AGREED = TERMINATIONS[T_AGREED]
R_TIME = TERMINATIONS[T_TIME]
R_RESIGN = TERMINATIONS[T_RESIGN]
RESULTS = ("1-0", "0-1", "1/2-1/2")    # a game record's result, by winner

# Actions: low 2 bits are the tag (outside this module, read them with action_move()).
_MOVE = 0      # | frm << 2 | to << 8 | capture << 14
_PLACE = 1     # | sq << 2 | face code << 8
_META = 2      # | kind << 2 (3 bits)
OFFER = 0      # repetition draw offered by the player who just moved
DECLINE = 1    # ... declined by the player to move
ACCEPT = 2     # ... accepted
AGREE = 3      # draw agreed at any time
TIME = 4       # the side whose action is awaited ran out of time on a game clock (it loses)
RESIGN = 5     # the side whose action is awaited resigned (it loses)

META_WORDS = ("(offer)", "(decline)", "(accept)", "(agree)", "(time)", "(resign)")

# Turn codes (one int per turn since the last tile capture):
#   frm | to << 6 | captured Barragoon's cell code << 12 | placement sq << 17 | face << 23
_TILE_CAPTURE = -1     # code of a turn that captured a tile (never part of a block)
_MOVE_BITS = 0x1FFFF   # frm, to and the captured Barragoon: the move part of a turn code

_NO_ACTIONS = array("H")
_scratch = bytearray(88)   # boards for comparing positions one block apart
_snap = bytearray(88)


def side_name(side):
    return "Brown" if side else "White"


def action_move(a):
    """The move an entry of Game.actions makes, frm * 64 + to (as legal_moves() gives
    moves), or -1 when it is no move (a placement, an offer or answer, a draw, time)."""
    return -1 if a & 3 else ((a >> 2) & 63) * 64 + ((a >> 8) & 63)


def action_captures(a):
    """Whether the entry of Game.actions is a move that captured (a tile or a Barragoon)."""
    return not a & 3 and bool(a >> 14 & 1)


def action_place(a):
    """The placement an entry of Game.actions makes, sq * 32 + face code, or -1 when it is
    no placement."""
    return ((a >> 2) & 63) * 32 + ((a >> 8) & 31) if a & 3 == _PLACE else -1


def action_meta(a):
    """The kind (OFFER, DECLINE, ACCEPT, AGREE, TIME, RESIGN: META_WORDS[kind] is its record word) of
    an entry of Game.actions that is no move or placement, else -1."""
    return (a >> 2) & 7 if a & 3 == _META else -1


class Outcome:
    """How a game ended (Game.outcome()), in the manner of python-chess's Outcome:
    termination (T_...) and winner (WHITE, BROWN or DRAW). Its texts are what the record and
    the board say."""

    def __init__(self, termination, winner):
        self.termination = termination
        self.winner = winner

    def result(self):
        """'1-0', '0-1' or '1/2-1/2'."""
        return RESULTS[self.winner]

    def reason(self):
        """Why it ended, in words ('no legal move')."""
        return TERMINATIONS[self.termination]

    def agreed(self):
        """The players agreed the draw (an agreement or an accepted repetition draw): a
        take-back removes only that."""
        return self.termination == T_AGREED or self.termination == T_REPEAT_AGREED


def start_position(variant=CLOSED):
    if type(variant) is not int or variant not in (CLOSED, OPEN):
        raise RulesError("unknown variant %r (closed=0, open=1)" % (variant,))
    return parse_position(START.format("A" if variant == OPEN else "X"))


def _check_stages(stages):
    try:
        w, b = stages
    except (TypeError, ValueError):
        raise RulesError("express stages must be a pair (White, Brown), not %r" % (stages,))
    for s in (w, b):
        if type(s) is not int or not 0 <= s <= 2:
            raise RulesError("express stage must be 0, 1 or 2, not %r" % (s,))
    return (w, b)


def _square_error(sq):
    if type(sq) is not int or not 0 <= sq < 63:
        return "no such square: %r (squares are 0-62)" % (sq,)
    return None


def _check_square(sq):
    err = _square_error(sq)
    if err is not None:
        raise RulesError(err)


def _undo_turn_code(cells, code):
    # Take a turn back on a bare board (mailbox cells): remove its placement, move the tile
    # back, restore the Barragoon it captured. Only for turns without a tile capture.
    face = code >> 23
    if face:
        cells[SQ2MB[(code >> 17) & 63]] = EMPTY
    frm = SQ2MB[code & 63]
    to = SQ2MB[(code >> 6) & 63]
    cells[frm] = cells[to]
    cells[to] = (code >> 12) & 31


def turn_code_text(code):
    """Text of a turn code ('a1xa5 a1=X')."""
    frm, to, cap, face = code & 63, (code >> 6) & 63, (code >> 12) & 31, code >> 23
    text = format_move(frm, to, cap)
    if face:
        text += " " + format_placement((code >> 17) & 63, face)
    return text


class Game:
    unfinished = False      # left for a new game without a result (recorded so: record.py)

    def __init__(self, start=None, variant=CLOSED, stages=(0, 0)):
        if type(variant) is not int or variant not in (CLOSED, OPEN):
            raise RulesError("unknown variant %r (closed=0, open=1)" % (variant,))
        stages = _check_stages(stages)
        standard = start is None
        if standard:
            start = start_position(variant)
        elif isinstance(start, str):
            start = parse_position(start)
        elif isinstance(start, Position):
            check_material(start)
        else:
            raise RulesError("start must be a position text or a Position, not %r" % (start,))
        for side in (WHITE, BROWN):
            if start.count_tiles(side) == 0:
                raise RulesError("%s has no tiles: a game cannot start from this position"
                                 % side_name(side))
        self.start = start.copy()
        self._start_text = "" if standard else None   # cache of custom_start()
        self.variant = variant
        self.stages = stages
        self.actions = array("H")          # the same array for the game's whole life
        self._low = 0                      # see mark()
        self._replay(())

    # --- state -------------------------------------------------------------------------
    def _reset(self):
        self.pos = self.start.copy()
        self.pending = []         # sides that still have to place a Barragoon, in order
        self.winner = -1
        self.termination = 0
        self._outcome = None
        self.offered = False      # a repetition draw is offered: the opponent must answer
        self._turns = array("i")  # codes of the turns since the last tile capture
        self._cur = 0             # code of the turn in progress (after its move)
        self._rep = -1            # block length the last turn completed: -1 not known yet
        self._offer_p = 0         # block length at the offer
        self._duty = False        # a declined offer: the side to move must deviate if it can
        self._period = 0          # ... from this block (its length p)
        self._forced = 0          # turns since the decline in which nobody could deviate
        self._can_deviate = False  # the side to move has the duty and another turn to play
        self._last_text = None    # cache of last_turn_text()
        self._dead = None         # the rule 6b decision still to finish (stepwise games)
        self.unproven = False     # ... it ended undecided at its bounds (see decide())
        self._after_last = []     # sides that may still place after the last tile's capture

    @property
    def over(self):
        return self.winner >= 0

    @property
    def reason(self):
        """Why the game ended, in words ('' while it goes on)."""
        return TERMINATIONS[self.termination]

    def outcome(self):
        """The Outcome, or None while the game goes on."""
        return self._outcome

    @property
    def turn(self):
        """Side whose action is awaited: the placer during placements, else the mover."""
        return self.pending[0] if self.pending else self.pos.side

    def placing(self):
        """Side that must place a Barragoon now, or -1."""
        return self.pending[0] if self.pending and not self.over else -1

    # --- repetition ----------------------------------------------------------------------
    @property
    def repetition(self):
        """True when the player who has just completed a turn may offer the repetition draw
        now: that turn completed a third copy of a repeated block (see the top)."""
        if self._rep < 0:
            self._rep = self._block()
        return (self._rep > 0 and not self.over and not self.pending and not self.offered
                and not self._duty)

    def _block(self):
        # Length p of the shortest block that the last 3p turns repeat, 0 if none.
        t = self._turns
        n = len(t)
        if self.pending or n < 12:
            return 0
        last = t[n - 1]
        p = 4
        while 3 * p <= n:
            # (the first test only saves time: most lengths fail on the last turn already)
            if t[n - 1 - p] == last and self._repeats(p):
                return p
            p += 2
        return 0

    def _repeats(self, p):
        t = self._turns
        n = len(t)
        for i in range(n - p, n):
            if t[i] != t[i - p] or t[i] != t[i - 2 * p]:
                return False
        # The same turns; the position at the start of the first copy must be the one at the
        # start of the second (then the third starts there too). Take the turns back.
        w = _scratch
        w[:] = self.pos.cells
        for i in range(n - 1, n - 2 * p - 1, -1):
            _undo_turn_code(w, t[i])
        _snap[:] = w
        for i in range(n - 2 * p - 1, n - 3 * p - 1, -1):
            _undo_turn_code(w, t[i])
        return w == _snap

    def _predicted(self):
        # Code of the turn the declined block predicts for the turn in progress.
        t = self._turns
        return t[len(t) - self._period]

    def _duty_turn(self):
        # At the start of a turn under the duty to deviate: can the side to move deviate?
        # If not, that turn is forced (it must be the predicted one) and counts towards the
        # whole block after which the game is drawn.
        code = self._predicted()
        if code >> 12:
            ok = True             # a capture: another placement is always a deviation
        else:
            moves = self.pos.legal_moves()
            ok = len(moves) != 1 or moves[0] != (code & 63) * 64 + ((code >> 6) & 63)
        self._can_deviate = ok
        if not ok:
            self._forced += 1

    @property
    def must_deviate(self):
        """Side that must deviate from the repeated sequence in the turn in progress, or -1.
        Its predicted turn is refused: see predicted_move(), predicted_turn()."""
        if self.over or self.offered or not self._duty or not self._can_deviate:
            return -1
        if self.pending and (self._cur & _MOVE_BITS) != (self._predicted() & _MOVE_BITS):
            return -1             # the move already differs: the duty is met
        return self.pos.side

    def predicted_move(self):
        """The move (frm * 64 + to) of the turn that must_deviate refers to, or -1. It is
        refused outright when the predicted turn has no placement; a predicted capture may be
        played, then with another placement (see placement_allowed)."""
        if self.must_deviate < 0:
            return -1
        code = self._predicted()
        return (code & 63) * 64 + ((code >> 6) & 63)

    def predicted_turn(self):
        """Text of the turn the side that must deviate may not play ('a1-a4', 'a1xa5 a1=X'),
        or '' when nobody must deviate now."""
        if self.must_deviate < 0:
            return ""
        return turn_code_text(self._predicted())

    def _refused_move(self):
        # The move refused now by the duty to deviate (frm * 64 + to), or -1.
        if not self._duty or not self._can_deviate or self.pending or self.over:
            return -1
        code = self._predicted()
        if code >> 12:
            return -1
        return (code & 63) * 64 + ((code >> 6) & 63)

    # --- queries -------------------------------------------------------------------------
    def legal_moves(self):
        """Moves the side to move may make now (frm * 64 + to), sorted."""
        if self.over or self.pending or self.offered:
            return []
        moves = self.pos.legal_moves()
        refused = self._refused_move()
        if refused in moves:
            moves.remove(refused)
        return moves

    def targets(self, sq):
        """Targets of the tile on sq (pos.tsq/pos.tkind[:n]) that the rules allow right now,
        including the duty to deviate. Allocation-free."""
        _check_square(sq)
        pos = self.pos
        n = pos.targets(sq)
        refused = self._refused_move()
        if refused >= 0 and refused // 64 == sq:
            tsq, tkind = pos.tsq, pos.tkind
            for i in range(n):
                if tsq[i] == refused % 64:
                    n -= 1
                    tsq[i] = tsq[n]
                    tkind[i] = tkind[n]
                    break
        return n

    def placement_allowed(self, sq, face):
        """Whether place(sq, face) would be accepted now."""
        return self._placement_error(sq, face) is None

    # --- actions -------------------------------------------------------------------------
    def move(self, frm, to):
        """Move the tile on frm to to. Raises RulesError (game unchanged) if not allowed."""
        _check_square(frm)
        _check_square(to)
        self.decide()
        self._check_can_act()
        if self.pending:
            raise RulesError("%s must place a Barragoon first" % side_name(self.pending[0]))
        pos = self.pos
        c = pos.get(frm)
        if not c & TILE:
            raise RulesError("no tile on %s" % square_name(frm))
        if (c >> 4) & 1 != pos.side:
            raise RulesError("the tile on %s is not %s's" % (square_name(frm),
                                                          side_name(pos.side)))
        if not pos.target_kind(frm, to):
            raise RulesError("illegal move %s-%s" % (square_name(frm), square_name(to)))
        if frm * 64 + to == self._refused_move():
            raise RulesError("%s-%s repeats the sequence: %s must deviate"
                             % (square_name(frm), square_name(to), side_name(pos.side)))
        capture = 1 if pos.get(to) != EMPTY else 0
        self._do(_MOVE | frm << 2 | to << 8 | capture << 14)

    def place(self, sq, face):
        """Place a Barragoon with face code 1..16 (see notation.parse_face) on sq. After the
        capture of the last tile the game is over and nothing is due, but the placements the
        printed rules would have (captured side first, as far as the supply goes) are accepted
        and change nothing: records may write them."""
        self.decide()
        err = self._placement_error(sq, face)
        if err is not None:
            raise RulesError(err)
        self._do(_PLACE | sq << 2 | face << 8)

    def _placement_error(self, sq, face):
        # Why place(sq, face) is refused now, or None.
        err = _square_error(sq)
        if err is not None:
            return err
        if type(face) is not int or not 1 <= face <= MAX_BARRAGOON:
            return "unknown face code %r (1-16)" % (face,)
        if self._after_last and self.termination == T_NO_TILES:
            if self.pos.get(sq) != EMPTY:
                return "%s is not empty" % square_name(sq)
            return None
        err = self._act_error()
        if err is not None:
            return err
        if not self.pending:
            return "no Barragoon to place"
        if self.pos.get(sq) != EMPTY:
            return "%s is not empty" % square_name(sq)
        if (len(self.pending) == 1 and self.must_deviate >= 0
                and (self._cur | sq << 17 | face << 23) == self._predicted()):
            return ("%s would complete %s, the turn the repeated sequence predicts: %s must "
                    "deviate (another square or face)"
                    % (format_placement(sq, face), turn_code_text(self._predicted()),
                       side_name(self.pos.side)))
        return None

    def offer_repetition_draw(self):
        """The player who has just completed a turn that repeats a block for the third time
        offers a draw. The opponent must accept or decline before moving."""
        self.decide()
        self._check_can_act()
        if not self.repetition:
            raise RulesError("no repeated sequence to offer a draw on")
        self._do(_META | OFFER << 2)

    def answer_repetition_draw(self, accept):
        """The player to move accepts (True) or declines (False) the repetition draw offer.
        Declined: that player must deviate from the repeated sequence."""
        if accept is not True and accept is not False:
            raise RulesError("accept must be True or False, not %r" % (accept,))
        self.decide()
        if self.over or not self.offered:
            raise RulesError("no draw offer to answer")
        self._do(_META | (ACCEPT if accept else DECLINE) << 2)

    def agree_draw(self):
        """Both players agree a draw (the board asks the opponent to confirm)."""
        self.decide()
        if self.over:
            raise RulesError("the game is over")
        self._do(_META | AGREE << 2)

    def lose_on_time(self):
        """The side whose action is awaited (`turn`: the side to move, or the side placing a
        Barragoon) ran out of time on a game clock: the other side wins."""
        self.decide()
        if self.over:
            raise RulesError("the game is over")
        self._do(_META | TIME << 2)

    def resign(self):
        """The side whose action is awaited (`turn`) resigns: the other side wins. (A player
        resigns in their own turn, as a player on a computer does on the board.)"""
        self.decide()
        self._check_can_act()
        self._do(_META | RESIGN << 2)

    def undo(self):
        """Take back the last action (a move, a placement or an offer)."""
        if not self.actions:
            raise RulesError("nothing to take back")
        self._take_back(len(self.actions) - 1)

    def undo_turn(self):
        """Take back the last turn: its move, its placements and what followed them."""
        i = self._last_move()
        if i < 0:
            raise RulesError("no turn to take back")
        self._take_back(i)

    def _take_back(self, n):
        # Keep the first n actions: replayed from the start, into the same array.
        self._replay(self.actions[:n])
        if n < self._low:
            self._low = n

    def mark(self):
        """Remember the number of actions now: unchanged() then says how many of them
        are still as they were (a take-back lowers it). For one user per game: the board's
        saves keep the record's turn lines formatted (record.RecordText)."""
        self._low = len(self.actions)

    def unchanged(self):
        """The fewest actions the game has had since mark(): actions[:unchanged()] are
        the same as then."""
        return self._low

    def _last_move(self):
        # Index of the last move among the actions (where the last turn began), or -1.
        acts = self.actions
        i = len(acts) - 1
        while i >= 0 and acts[i] & 3 != _MOVE:
            i -= 1
        return i

    def _act_error(self):
        if self.over:
            return "the game is over: %s" % self.reason
        if self.offered:
            return "%s must accept or decline the draw offer first" % side_name(self.pos.side)
        return None

    def _check_can_act(self):
        err = self._act_error()
        if err is not None:
            raise RulesError(err)

    # --- applying actions ------------------------------------------------------------------
    def _replay(self, acts):
        # The state from the start, playing acts (not self.actions: that is emptied and
        # refilled in place).
        self.actions[:] = _NO_ACTIONS
        self._reset()
        self._begin_turn(False)
        for a in acts:
            self._do(a, False)
        if not self.over and not self.pending and not self.offered:
            self._check_end()

    def _do(self, a, live=True):
        self._last_text = None
        self._rep = -1
        self.actions.append(a)
        tag = a & 3
        if tag == _MOVE:
            self._apply_move((a >> 2) & 63, (a >> 8) & 63, live)
        elif tag == _PLACE:
            sq, face = (a >> 2) & 63, (a >> 8) & 31
            self.pos.put(sq, face)
            if self.over:                 # a placement after the last tile's capture
                self._after_last.pop(0)
                self.pos.supply -= 1
                return
            self.pending.pop(0)
            if not self.pending:
                if self._cur >= 0:
                    self._cur |= sq << 17 | face << 23
                self._end_turn(live)
        else:
            self._apply_meta((a >> 2) & 7)

    def _apply_move(self, frm, to, live):
        pos = self.pos
        side = pos.side
        victim = pos.get(to)
        pos.put(to, pos.get(frm))
        pos.put(frm, EMPTY)
        if victim == EMPTY:
            self._cur = frm | to << 6
            self._end_turn(live)
        elif victim <= MAX_BARRAGOON:
            self._cur = frm | to << 6 | victim << 12
            self.pending = [side]
        else:
            self._cur = _TILE_CAPTURE
            if pos.count_tiles(1 - side) == 0:
                self._finish(side, T_NO_TILES)
                # The game is over and nobody has to place; a record may still write the two
                # placements the printed rules would have (they change nothing).
                self._after_last = [1 - side, side][:min(2, pos.supply)]
                return
            take = min(2, pos.supply)
            pos.supply -= take
            self.pending = [1 - side, side][:take]
            if not self.pending:
                self._end_turn(live)

    def _apply_meta(self, kind):
        if kind == OFFER:
            self.offered = True
            self._offer_p = self._block()
        elif kind == ACCEPT:
            self._finish(DRAW, T_REPEAT_AGREED)
        elif kind == AGREE:
            self._finish(DRAW, T_AGREED)
        elif kind == TIME or kind == RESIGN:
            self._finish(1 - self.turn, T_TIME if kind == TIME else T_RESIGN)
        else:
            # Declined: the decliner (side to move) must deviate; if they cannot, the duty
            # passes along the block (see _end_turn).
            self.offered = False
            self._duty = True
            self._period = self._offer_p
            self._forced = 0
            self._duty_turn()

    def _end_turn(self, live):
        code = self._cur
        if code == _TILE_CAPTURE:
            self._duty = False                # a tile capture is never the predicted turn
            self._turns = array("i")          # material never comes back: no block spans it
        else:
            if self._duty and code != self._predicted():
                self._duty = False            # deviated
            self._turns.append(code)
        self.pos.side ^= 1
        self._begin_turn(live)

    def _begin_turn(self, live):
        self._can_deviate = False
        if self._duty:
            self._duty_turn()                 # the duty passed on (or holds on: a new turn)
        if live:
            self._check_end()

    def _check_end(self):
        self.unproven = False
        pos = self.pos
        side = pos.side
        stage = self.stages[side]
        if pos.count_tiles(side) == 0:
            self._finish(1 - side, T_NO_TILES)
            return
        mobile = pos.mobile_tiles(side, stage + 1)
        if mobile == 0:
            self._finish(1 - side, T_NO_MOVE)
        elif mobile <= stage:
            self._finish(1 - side, T_EXPRESS)
        elif self._duty and self._forced >= self._period:
            self._finish(DRAW, T_REPEAT)
        elif not self.actions and self._start_text == "":
            pass                          # a standard start: rule 6b's search would give up
            #                               and play on (test_rules_deadlock.py)
        elif not pos.has_capture(side) and self._can_move(1 - side):
            # Rule 6b: both sides can move; the side to move cannot capture now. Can a capture
            # ever become legal? (deadlock.py; the repetition duty's refused move is left out.)
            self._dead = True             # (made at the first decide(): a loop step later)
            if not self.stepwise:
                self.decide()

    # --- rule 6b, spread over the board's loop steps ----------------------------------------
    # True: a rule 6b decision waits for decide() (the board sets it on the game it plays and
    # calls decide() in its loop steps); False: it is made at once, within the action.
    stepwise = False

    @property
    def deciding(self):
        """True while a rule 6b decision is pending (stepwise games only): the game may still
        turn out to be drawn. Every action finishes the decision first."""
        return self._dead is not None

    def decide(self, work=-1):
        """Work on the pending rule 6b decision: up to `work` units of about a millisecond on
        the RP2040, or all of it (work < 0). True when none is pending any more; the game is
        then over if the decision found a draw, and `unproven` is True if it searched to its
        bounds without finding a capture or proving there is none (the board then offers
        the players a draw: only they can agree one)."""
        d = self._dead
        if d is None:
            return True
        if d is True:
            d = self._dead = Decision(self.pos, self.stages, self._refused_move())
        if work < 0:
            d.finish()
        elif not d.step(work):
            return False
        self._dead = None
        if d.result == DEAD:
            self._finish(DRAW, T_DEAD)
        self.unproven = d.result == UNDECIDED and d.exhausted
        return True

    def _can_move(self, side):
        # Rule 6b's "both can still move", for the player not to move: they would not lose
        # (no move, or the express stage) if it were their turn.
        stage = self.stages[side]
        return self.pos.mobile_tiles(side, stage + 1) > stage

    def _finish(self, winner, termination):
        self.winner = winner
        self.termination = termination
        self._outcome = Outcome(termination, winner)
        self.pending = []

    # --- notation ------------------------------------------------------------------------
    def iter_turns(self):
        """The game's turns as texts ('d2xd6 e6=X b3=RN'), one at a time; offers and answers
        are appended to the turn they follow: '(offer)', '(decline)', '(accept)', '(agree)'."""
        for _, text in self.turns_from(0):
            yield text

    def turns_from(self, i):
        """(index of its first action, text) of each turn from action i on; i is 0 or the
        index of a move. A text made from actions[:i] stays true while unchanged() >= i
        (record.RecordText relies on it)."""
        acts = self.actions
        cur = None
        start = i
        while i < len(acts):
            a = acts[i]
            tag = a & 3
            if tag == _MOVE:
                if cur is not None:
                    yield start, cur
                cur = format_move((a >> 2) & 63, (a >> 8) & 63, (a >> 14) & 1)
                start = i
            elif tag == _PLACE:
                cur += " " + format_placement((a >> 2) & 63, (a >> 8) & 31)
            elif cur is None:
                cur = META_WORDS[(a >> 2) & 7]
                start = i
            else:
                cur += " " + META_WORDS[(a >> 2) & 7]
            i += 1
        if cur is not None:
            yield start, cur

    def custom_start(self):
        """The start position as text, or '' when it is the variant's standard start. Worked
        out once per game (a game made without a start is known to be standard): the board
        writes it with every save, and formatting and building the two positions takes about
        28 ms on the RP2040 (it was the first save after a power-on)."""
        if self._start_text is None:
            text = format_position(self.start)
            self._start_text = ("" if text == format_position(start_position(self.variant))
                                else text)
        return self._start_text

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
                out += " " + META_WORDS[(a >> 2) & 7]
        self._last_text = out
        return out

    def in_hand(self):
        return len(self.pending)

    def check(self):
        """Raise RulesError if the position holds more pieces than a set has."""
        check_material(self.pos, len(self.pending))


__all__ = ["Game", "Outcome", "action_move", "start_position", "FACES"]
