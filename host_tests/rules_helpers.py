# Building positions for rules tests (CPython and MicroPython).
from barragoon.core import WHITE, BROWN, tile_code
from barragoon.notation import (
    parse_position, parse_square, parse_face, format_move, square_name, TILE_LETTERS)

EMPTY_BOARD = "7/7/7/7/7/7/7/7/7"


def make(pieces, side="w", supply=24):
    """Position from 'd5:[RN] c4:D e2:z' (tiles Z D V / z d v, Barragoons as [face])."""
    pos = parse_position("%s %s %d" % (EMPTY_BOARD, side, supply))
    for item in pieces.split():
        sq, piece = item.split(":")
        if piece.startswith("["):
            code = parse_face(piece[1:-1])
        else:
            code = tile_code(BROWN if piece.islower() else WHITE,
                             TILE_LETTERS.index(piece.upper()) + 2)
        pos.put(parse_square(sq), code)
    return pos


def targets_of(pos, sq_name):
    """Sorted target square names of the tile on sq_name."""
    n = pos.targets(parse_square(sq_name))
    return sorted(square_name(pos.tsq[i]) for i in range(n))


def kinds_of(pos, sq_name):
    """{target name: kind} of the tile on sq_name."""
    n = pos.targets(parse_square(sq_name))
    out = {}
    for i in range(n):
        out[square_name(pos.tsq[i])] = pos.tkind[i]
    return out


def move_texts(pos):
    return sorted(format_move(m // 64, m % 64, pos.get(m % 64) != 0) for m in pos.legal_moves())


def sq(name):
    return parse_square(name)
