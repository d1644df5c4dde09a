# Text notation of RULES.md: squares, face codes, positions, moves and placements.
# Parsers raise RulesError naming what is wrong (also for an argument that is not text at all);
# they never return half-parsed results. The formatters trust their (internal) arguments.
from barragoon.core import (
    FACES, TILE, BROWN_BIT, WHITE, BROWN, EMPTY, TILES_PER_SIDE,
    BARRAGOONS_TOTAL, Position, RulesError, tile_code)

FILES = "abcdefg"
TILE_LETTERS = "ZDV"   # White 2/3/4-tiles; lower case for Brown


# Texts are built in small buffers and decoded once: the board formats a move on every commit,
# and one allocation beats a chain of concatenations on the MicroPython heap.
_SQ = bytearray(2)
_MOVE = bytearray(5)
_PLACE = (None, None, None, bytearray(4), bytearray(5))


def _put_square(buf, i, sq):
    buf[i] = 97 + sq % 7
    buf[i + 1] = 49 + sq // 7


def _shown(value):
    # repr of a bad argument for an error message, cut short (a whole record may arrive).
    r = repr(value)
    return r if len(r) <= 40 else r[:36] + "...'"


def _text(value, what):
    if type(value) is not str:
        raise RulesError("%s must be text, not %s" % (what, _shown(value)))


def square_name(sq):
    _put_square(_SQ, 0, sq)
    return _SQ.decode()


def parse_square(text):
    _text(text, "a square")
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123456789":
        raise RulesError("not a square: %r (files a-g, ranks 1-9)" % text)
    return FILES.index(text[0]) + 7 * (ord(text[1]) - 49)


def parse_face(text):
    """Face code ('X', '1N', .. 'A') -> cell code 1..16."""
    _text(text, "a face code")
    for i in range(16):
        if FACES[i] == text:
            return i + 1
    raise RulesError("unknown face code %r (one of %s)" % (text, " ".join(FACES)))


def face_name(code):
    return FACES[code - 1]


def piece_text(code):
    """Text of one cell in a position: tile letter or bracketed face code."""
    if code & TILE:
        letter = TILE_LETTERS[(code & 7) - 2]
        return letter.lower() if code & BROWN_BIT else letter
    return "[" + FACES[code - 1] + "]"


def format_position(pos):
    ranks = []
    for rank in range(8, -1, -1):
        out = ""
        run = 0
        for f in range(7):
            c = pos.get(rank * 7 + f)
            if c == EMPTY:
                run += 1
                continue
            if run:
                out += str(run)
                run = 0
            out += piece_text(c)
        if run:
            out += str(run)
        ranks.append(out)
    return "/".join(ranks) + (" b " if pos.side else " w ") + str(pos.supply)


def _parse_rank(pos, text, rank):
    f = 0
    i = 0
    where = "rank %d" % (rank + 1)
    while i < len(text):
        ch = text[i]
        if f >= 7:
            raise RulesError("%s has more than 7 files: %r" % (where, text))
        if ch in "1234567":
            f += ord(ch) - 48
            i += 1
            if f > 7:
                raise RulesError("%s has more than 7 files: %r" % (where, text))
            continue
        if ch == "[":
            j = text.find("]", i)
            if j < 0:
                raise RulesError("%s: missing ']' in %r" % (where, text))
            code = parse_face(text[i + 1:j])
            i = j + 1
        elif ch in "089":
            raise RulesError("%s: %r is not a run of 1-7 empty squares" % (where, ch))
        else:
            k = TILE_LETTERS.find(ch.upper())
            if k < 0 or not ch.isalpha():
                raise RulesError("%s: unknown piece %r" % (where, ch))
            code = tile_code(BROWN if ch.islower() else WHITE, k + 2)
            i += 1
        pos.put(rank * 7 + f, code)
        f += 1
    if f != 7:
        raise RulesError("%s has %d files, not 7: %r" % (where, f, text))


def check_material(pos, in_hands=0):
    """Raise RulesError if pos holds more pieces than a Barragoon set has."""
    for side in (WHITE, BROWN):
        name = "Brown" if side else "White"
        counts = [0, 0, 0]
        for sq in range(63):
            c = pos.get(sq)
            if c & 0xF0 == (TILE | (BROWN_BIT if side else 0)):
                counts[(c & 7) - 2] += 1
        if sum(counts) > 7:
            raise RulesError("%s has %d tiles, more than 7" % (name, sum(counts)))
        for v in range(3):
            if counts[v] > TILES_PER_SIDE[v]:
                raise RulesError("%s has %d %d-tiles, more than %d"
                                 % (name, counts[v], v + 2, TILES_PER_SIDE[v]))
    total = pos.count_barragoons() + pos.supply + in_hands
    if total > BARRAGOONS_TOTAL:
        raise RulesError("%d Barragoons in play and supply, more than %d"
                         % (total, BARRAGOONS_TOTAL))


def parse_position(text):
    """Position notation -> Position. Raises RulesError naming the fault."""
    _text(text, "a position")
    parts = text.strip().split()
    if len(parts) != 3:
        raise RulesError("position needs 3 fields (board, side, supply), got %d" % len(parts))
    ranks = parts[0].split("/")
    if len(ranks) != 9:
        raise RulesError("board needs 9 ranks separated by '/', got %d" % len(ranks))
    pos = Position()
    for i in range(9):
        _parse_rank(pos, ranks[i], 8 - i)
    if parts[1] not in ("w", "b"):
        raise RulesError("side to move must be 'w' or 'b', not %r" % parts[1])
    pos.side = BROWN if parts[1] == "b" else WHITE
    if parts[2].strip("0123456789") or len(parts[2]) > 2:   # not isdigit(): ASCII only
        raise RulesError("supply must be a number 0-32, not %r" % parts[2])
    pos.supply = int(parts[2])
    check_material(pos)
    return pos


def format_move(frm, to, capture):
    b = _MOVE
    _put_square(b, 0, frm)
    b[2] = 120 if capture else 45          # 'x' or '-'
    _put_square(b, 3, to)
    return b.decode()


def parse_move(text):
    """'c1-c4' / 'c1xc4' -> (frm, to, is_capture)."""
    _text(text, "a move")
    if len(text) != 5 or text[2] not in "-x":
        raise RulesError("not a move: %r (like c1-c4 or c1xc4)" % text)
    return parse_square(text[:2]), parse_square(text[3:]), text[2] == "x"


def format_placement(sq, code):
    face = FACES[code - 1]
    b = _PLACE[2 + len(face)]
    _put_square(b, 0, sq)
    b[2] = 61                              # '='
    for i in range(len(face)):
        b[3 + i] = ord(face[i])
    return b.decode()


def parse_placement(text):
    """'e5=X' -> (sq, cell code)."""
    _text(text, "a placement")
    if len(text) < 4 or text[2] != "=":
        raise RulesError("not a placement: %r (like e5=X or b3=RN)" % text)
    return parse_square(text[:2]), parse_face(text[3:])
