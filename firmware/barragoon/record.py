# Game records: tag lines, then the turns numbered in pairs, one pair per line.
#
#   [Variant "closed"]
#   [Express "0 0"]                   express stages of White and Brown
#   [Start "<position>"]              only when the game did not begin at the standard start
#   [Result "1-0"]                    1-0, 0-1, 1/2-1/2, or * while the game goes on
#   [Termination "no legal move"]     why it ended (absent while it goes on); "unfinished" with
#                                     the result *: the players left it for a new game
#
#   1. c2-c5 d8-d6
#   2. d1xd6 e6=X b3=RN c8-c6
#
# A turn is its move followed by its placements in the order made; a repetition draw offer
# and its answer follow the turn they come after: (offer) (decline) (accept); an agreed draw
# is (agree); (time) ends the game: the side whose action was awaited (the mover, or the side
# placing a Barragoon) ran out of time on the board's optional game clock; (resign): that side
# resigned. Replaying a record checks every action against the rules.
from barragoon.core import WHITE, RulesError
from barragoon.notation import parse_move, parse_placement, _text
from barragoon.game import Game, VARIANTS, META_WORDS, RESULTS, action_move  # noqa: F401


UNFINISHED = "unfinished"    # the Termination of a game the players left without a result


def result_text(game):
    out = game.outcome()
    return out.result() if out is not None else "*"


def write_record(game, write, lines=None):
    """Write the record line by line through write(text): a saved game never has to exist
    as one large string (the board's heap stays unfragmented). lines: a RecordText that
    keeps the turn lines of this game formatted from one save to the next (the board's
    saves), else they are formatted here."""
    _write_tags(game, write)
    if lines is not None:
        lines.write(game, write)
        return
    line = _turn_lines(game, write, 0, 1, game.start.side, None)
    if line:
        write(line + "\n")


def _write_tags(game, write):
    write('[Variant "%s"]\n' % VARIANTS[game.variant])
    write('[Express "%d %d"]\n' % game.stages)
    start = game.custom_start()
    if start:
        write('[Start "%s"]\n' % start)
    out = game.outcome()
    if out is None and game.unfinished:
        write('[Result "*"]\n[Termination "%s"]\n\n' % UNFINISHED)
    elif out is None:
        write('[Result "*"]\n\n')
    else:
        write('[Result "%s"]\n[Termination "%s"]\n\n' % (out.result(), out.reason()))


_CHUNK = 480                           # RecordText: bytes of complete lines per string


class RecordText:
    """The turn lines of a game's record ('12. c2-c5 d8xd6 d6=X'), kept formatted: a save
    formats only the lines since the last one (the whole record took about 1 ms per turn on
    the RP2040, 125 ms at 80 turns, in every save). The complete lines are kept in strings of
    about _CHUNK bytes, so a new line copies at most that much (one string of the whole
    record would be copied for every line: quadratic garbage); the line still open is
    formatted anew each time. They stay valid as long as the actions they were made from
    (Game.mark(), unchanged()): after a take-back past them, or for another game, they are
    formatted from the first turn again. One RecordText per game at a time (the board's
    saves): it marks the game."""

    def __init__(self):
        self.game = None               # the game the lines were made from
        self.chunks = []               # the complete lines: strings of about _CHUNK bytes
        self.tail = ""                 # ... and those not yet in a chunk
        self.k = 0                     # index of the action that begins the open line
        self.number = 1                # ... its move number and the side that moves then
        self.side = WHITE

    def write(self, game, write):
        """Write the turn lines of game through write(text)."""
        if game is not self.game or game.unchanged() < self.k:
            self.game = game
            self.chunks = []
            self.tail = ""
            self.k = 0
            self.number = 1
            self.side = game.start.side
        line = _turn_lines(game, None, self.k, self.number, self.side, self)
        game.mark()
        for c in self.chunks:
            write(c)
        if self.tail:
            write(self.tail)
        if line:
            write(line + "\n")

    def _done(self, line, k, number, side):
        # A line is complete (the next turn begins at action k): never formatted again.
        tail = "%s%s\n" % (self.tail, line)
        if len(tail) >= _CHUNK:
            self.chunks.append(tail)
            tail = ""
        self.tail = tail
        self.k, self.number, self.side = k, number, side


def _turn_lines(game, write, k, number, side, keep):
    # The turn lines from action k (a line's start: move `number`, `side` to move): the
    # complete ones through write(text), or to keep._done (a RecordText); returns the line
    # still open ('' for none).
    line = ""
    for i, t in game.turns_from(k):
        if t[0] == "(":                # an answer or agreement before any move
            line = "%s %s" % (line, t) if line else t
            continue
        if side == WHITE:
            if line:
                if keep is None:
                    write(line + "\n")
                else:
                    keep._done(line, i, number, side)
            line = "%d. %s" % (number, t)
        else:
            line = "%s %s" % (line, t) if line else "%d... %s" % (number, t)
            number += 1
        side ^= 1
    return line


def format_record(game):
    out = []
    write_record(game, out.append)
    return "".join(out)


def _tag(line):
    # '[Name "value"]' -> (name, value)
    if not line.endswith("]") or '"' not in line:
        raise RulesError("bad tag line: %r" % line)
    name, _, rest = line[1:-1].partition(" ")
    rest = rest.strip()
    if len(rest) < 2 or rest[0] != '"' or rest[-1] != '"':
        raise RulesError("bad tag line: %r" % line)
    return name, rest[1:-1]


def turn_label(index, first_side=WHITE):
    """How a record numbers the turn with 0-based index in a game whose first mover is
    first_side: '3.' for White's turn of move 3, '3...' for Brown's."""
    k = index + (1 if first_side != WHITE else 0)
    return "%d%s" % (k // 2 + 1, "..." if k & 1 else ".")


def _turn_index(game, token):
    # Index of the turn a token belongs to: a move starts a new turn; a placement, an offer or
    # an answer belongs to the turn it follows.
    moves = 0
    for a in game.actions:
        if action_move(a) >= 0:
            moves += 1
    starts = not ("=" in token or token.startswith("("))
    return moves if starts or not moves else moves - 1


def _lines(text):
    # The lines of text, one at a time: a long record never exists as a list of lines or of
    # tokens (on the board that would take tens of KB of heap at once).
    start = 0
    end = len(text)
    while start <= end:
        nl = text.find("\n", start)
        if nl < 0:
            nl = end
        yield text[start:nl].strip()
        start = nl + 1


def parse_record(text, each_turn=None):
    """Replay a game record; returns the Game. Raises RulesError naming the first fault and
    its turn as the record numbers it ('turn 4... g6-g9: ...'). each_turn(game), if given, is
    called after every turn, once the next turn begins or the record ends."""
    _text(text, "a record")
    tags = {}
    for line in _lines(text):
        if line.startswith("["):
            name, value = _tag(line)
            tags[name] = value
    variant = tags.get("Variant", "closed")
    if variant not in VARIANTS:
        raise RulesError("unknown variant %r" % variant)
    stages = tags.get("Express", "0 0").split()
    if len(stages) != 2 or stages[0].strip("0123456789") or stages[1].strip("0123456789"):
        raise RulesError("Express tag needs two stages, e.g. \"0 1\"")
    game = Game(tags.get("Start"), VARIANTS.index(variant), (int(stages[0]), int(stages[1])))
    result = "*"
    started = False
    for line in _lines(text):
        if not line or line[0] == "[":
            continue
        for token in line.split():
            if token in RESULTS or token == "*":
                result = token
                continue
            if token[0].isdigit() and token.endswith("."):
                continue                             # move number: '12.' or '12...'
            is_move = not ("=" in token or token.startswith("("))
            if is_move and started and each_turn is not None:
                each_turn(game)
            try:
                play_token(game, token)
            except RulesError as e:
                label = turn_label(_turn_index(game, token), game.start.side)
                raise RulesError("turn %s %s: %s" % (label, token, e))
            started = True
    if started and each_turn is not None:
        each_turn(game)
    declared = tags.get("Result", result)
    if declared not in ("*", result_text(game)):
        raise RulesError("record says %s but the game gives %s" % (declared, result_text(game)))
    if tags.get("Termination") == UNFINISHED and not game.over:
        game.unfinished = True
    return game


def play_token(game, token):
    """Play one token of a record on game: a move ('c1-c4', 'c1xc4'; the capture mark must
    match the board), a placement ('e5=X') or '(offer)', '(decline)', '(accept)', '(agree)',
    '(time)', '(resign)'."""
    _text(token, "a token")
    if token in META_WORDS:
        k = META_WORDS.index(token)
        if k == 0:
            game.offer_repetition_draw()
        elif k == 3:
            game.agree_draw()
        elif k == 4:
            game.lose_on_time()
        elif k == 5:
            game.resign()
        else:
            game.answer_repetition_draw(k == 2)
        return
    if "=" in token:
        sq, face = parse_placement(token)
        game.place(sq, face)
        return
    frm, to, capture = parse_move(token)
    occupied = game.pos.get(to) != 0
    if capture != occupied:
        raise RulesError("write %s%s%s" % (token[:2], "x" if occupied else "-", token[3:]))
    game.move(frm, to)
