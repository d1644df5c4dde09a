# A deliberately simple second move generator, written from the text of RULES.md and NOT from
# firmware/barragoon/core.py. It shares nothing with the core (no cell codes, no mailbox, no
# PASS table, not even the position parser): the board is a dict {square name: piece text}
# ('V', 'd', 'X', '1N', 'RE', ...) and every path is spelled out and walked step by step.
# It is slow on purpose; host_tests/test_reference_compare.py checks the core against it.
#
# RULES.md, "Moving a tile", in short:
#   - a tile of value v moves k = v (full move) or k = v - 1 (short move) steps;
#   - the path is straight, or has exactly one 90-degree turn (no reversal);
#   - every square before the target is empty, or holds a Barragoon that may be crossed the
#     way the path enters and leaves it; a tile is never crossed;
#   - target empty: any k; opponent tile or any Barragoon: only k == v (a 2-tile never takes
#     an 'A'); own tile: never.

FILES = "abcdefg"
RANKS = "123456789"
HEADINGS = "NESW"
STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
RIGHT_OF = {"N": "E", "E": "S", "S": "W", "W": "N"}   # heading after a right turn
LEFT_OF = {"N": "W", "W": "S", "S": "E", "E": "N"}    # heading after a left turn
FACE_CODES = ("X", "1N", "1E", "1S", "1W", "2V", "2H",
              "RN", "RE", "RS", "RW", "LN", "LE", "LS", "LW", "A")
TILE_VALUES = {"Z": 2, "D": 3, "V": 4}


def read_position(text):
    """Position notation -> (board dict {square: piece text}, side 'w'/'b', supply).
    Only for well-formed text (the core's parser is what tests bad input)."""
    board_text, side, supply = text.split()
    ranks = board_text.split("/")
    assert len(ranks) == 9, text
    board = {}
    for i, rank_text in enumerate(ranks):
        rank = 9 - i
        f = 0
        j = 0
        while j < len(rank_text):
            ch = rank_text[j]
            if ch.isdigit():
                f += int(ch)
                j += 1
            elif ch == "[":
                end = rank_text.index("]", j)
                face = rank_text[j + 1:end]
                assert face in FACE_CODES, face
                board[FILES[f] + str(rank)] = face
                f += 1
                j = end + 1
            else:
                assert ch.upper() in TILE_VALUES, ch
                board[FILES[f] + str(rank)] = ch
                f += 1
                j += 1
        assert f == 7, rank_text
    return board, side, int(supply)


def is_tile(piece):
    return piece is not None and piece.upper() in TILE_VALUES


def owner(piece):
    """'w' for White's tiles (upper case), 'b' for Brown's (lower case)."""
    return "w" if piece.isupper() else "b"


def value(piece):
    return TILE_VALUES[piece.upper()]


def neighbour(square, heading):
    """The square one step from square in heading, or None off the board."""
    f = FILES.index(square[0]) + STEP[heading][0]
    r = int(square[1]) + STEP[heading][1]
    if 0 <= f < 7 and 1 <= r <= 9:
        return FILES[f] + str(r)
    return None


def may_cross(face, heading_in, heading_out):
    """Whether a tile may cross a Barragoon showing face, entering it with heading_in and
    leaving it with heading_out (the table of RULES.md, in words)."""
    straight = heading_in == heading_out
    right_turn = heading_out == RIGHT_OF[heading_in]
    left_turn = heading_out == LEFT_OF[heading_in]
    if face == "X":
        # No Entry: never.
        return False
    if face[0] == "1":
        # One Way: only straight through, heading where the arrow points.
        return straight and heading_out == face[1]
    if face == "2V":
        # Two Ways, vertical: straight through, heading N or S.
        return straight and heading_in in "NS"
    if face == "2H":
        # Two Ways, horizontal: straight through, heading E or W.
        return straight and heading_in in "EW"
    if face[0] == "R":
        # Right Turn: turn right on it, leaving heading where the arrow points.
        return right_turn and heading_out == face[1]
    if face[0] == "L":
        # Left Turn: turn left on it, leaving heading where the arrow points.
        return left_turn and heading_out == face[1]
    if face == "A":
        # All Turns: from any side, turning left or right, never straight.
        return right_turn or left_turn
    raise ValueError("unknown face %r" % face)


def paths(k):
    """Every path of k steps as a list of k headings: straight, or one 90-degree turn."""
    out = []
    for first in HEADINGS:
        out.append([first] * k)
        for second in (RIGHT_OF[first], LEFT_OF[first]):
            for before_turn in range(1, k):
                out.append([first] * before_turn + [second] * (k - before_turn))
    return out


def path_target(board, start, headings):
    """Walk the path from start; return its target square if every square before the target
    may be crossed the way the path goes, else None. The target itself is not checked."""
    square = start
    for i, heading in enumerate(headings):
        square = neighbour(square, heading)
        if square is None:
            return None
        if i == len(headings) - 1:
            return square
        piece = board.get(square)
        if piece is None:
            continue                      # empty: straight on or turn, both fine
        if is_tile(piece):
            return None                   # a tile is never crossed
        if not may_cross(piece, heading, headings[i + 1]):
            return None
    return None


def target_allows(board, tile, target, k):
    """Whether tile may end a k-step move on target, and whether that captures."""
    piece = board.get(target)
    full = k == value(tile)
    if piece is None:
        return True, False
    if is_tile(piece):
        if owner(piece) == owner(tile):
            return False, False
        return full, True
    # a Barragoon, whatever it shows
    if value(tile) == 2 and piece == "A":
        return False, False
    return full, True


def tile_moves(board, start):
    tile = board[start]
    out = set()
    for k in (value(tile) - 1, value(tile)):
        if k == 0:
            continue
        for headings in paths(k):
            target = path_target(board, start, headings)
            if target is None:
                continue
            ok, capture = target_allows(board, tile, target, k)
            if ok:
                out.add(start + ("x" if capture else "-") + target)
    return out


def reference_moves(text, side=None):
    """Set of legal moves ('c1-c4', 'c1xc4') in the position text for side 'w' or 'b'
    (default: the side to move)."""
    board, to_move, _ = read_position(text)
    if side is None:
        side = to_move
    out = set()
    for square, piece in board.items():
        if is_tile(piece) and owner(piece) == side:
            out |= tile_moves(board, square)
    return out
