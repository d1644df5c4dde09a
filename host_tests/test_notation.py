# Notation (firmware/barragoon/notation.py): round-trips of positions, squares, moves,
# placements and turn texts, and bad input: every fault raises RulesError with a message that
# names it, and a refused input leaves a game exactly as it was.
# Runs on CPython and on the MicroPython unix port (no pytest here).
from checks import raises
from barragoon.core import RulesError, WHITE, BROWN, EMPTY
from barragoon.notation import (
    parse_position, format_position, parse_square, square_name, parse_move, format_move,
    parse_placement, format_placement, parse_face, face_name, FACES)
from barragoon.game import Game, START, CLOSED, OPEN
from barragoon.record import play_token

RUNTIMES = ("cpython", "micropython")

CLOSED_START = "1vd1dv1/2zdz2/7/1[X]3[X]1/[X]1[X]1[X]1[X]/1[X]3[X]1/7/2ZDZ2/1VD1DV1 w 24"
OPEN_START = "1vd1dv1/2zdz2/7/1[A]3[A]1/[A]1[A]1[A]1[A]/1[A]3[A]1/7/2ZDZ2/1VD1DV1 w 24"
EMPTY_BOARD = "7/7/7/7/7/7/7/7/7"
ALL_FACES = ["X", "1N", "1E", "1S", "1W", "2V", "2H",
             "RN", "RE", "RS", "RW", "LN", "LE", "LS", "LW", "A"]
# Every face code, all 14 tiles, runs of every length 1-7 and pieces at both ends of ranks.
CROWDED = ("[X][1N][1E][1S][1W][2V][2H]/[RN][RE][RS][RW][LN][LE][LS]/[LW][A]ZZDDD/"
           "VVzzddd/vv5/1[2V]1[RS]1[A]1/6[X]/[2H]6/7 b 11")
CROWDED_2 = ("7/7/3v3/[A]5[RW]/1[LS]1[1E]1[2V]1/2z1Z2/d1D1V1[X]/[RN]1[LE]1[1W]1[2H]/"
             "[RS][RE][LN][LW][1N][1S][A] w 0")


def round_trip(text):
    assert format_position(parse_position(text)) == text, text


def test_start_positions_round_trip():
    assert CLOSED_START == START.format("X")
    assert OPEN_START == START.format("A")
    round_trip(CLOSED_START)
    round_trip(OPEN_START)
    assert format_position(Game().pos) == CLOSED_START
    assert format_position(Game(variant=OPEN).pos) == OPEN_START


def test_crowded_positions_round_trip():
    for text in (CROWDED, CROWDED_2):
        round_trip(text)
    pos = parse_position(CROWDED)
    assert pos.side == BROWN and pos.supply == 11
    assert pos.count_tiles(WHITE) == 7 and pos.count_tiles(BROWN) == 7
    assert pos.count_barragoons() == 21
    seen = set()
    for sq in range(63):
        c = pos.get(sq)
        if 0 < c <= 16:
            seen.add(face_name(c))
    assert sorted(seen) == sorted(ALL_FACES)
    # pieces land on the squares the text says
    assert face_name(pos.get(parse_square("a9"))) == "X"
    assert face_name(pos.get(parse_square("g9"))) == "2H"
    assert face_name(pos.get(parse_square("b7"))) == "A"
    assert pos.get(parse_square("c7")) == pos.get(parse_square("d7"))   # both White 2-tiles
    assert pos.get(parse_square("c6")) != pos.get(parse_square("c7"))   # Brown's, White's
    assert pos.get(parse_square("g1")) == EMPTY


def test_side_to_move_and_supply_round_trip():
    for side in ("w", "b"):
        for supply in range(33):
            round_trip("%s %s %d" % (EMPTY_BOARD, side, supply))
        for supply in range(25):
            round_trip(CLOSED_START.replace(" w 24", " %s %d" % (side, supply)))
    assert parse_position(EMPTY_BOARD + " b 0").side == BROWN
    assert parse_position(EMPTY_BOARD + " w 32").supply == 32


def test_round_trip_every_single_piece_on_every_square():
    pieces = ["Z", "D", "V", "z", "d", "v"] + ["[%s]" % f for f in ALL_FACES]
    for sq in range(63):
        f, r = sq % 7, sq // 7
        for piece in pieces:
            left = str(f) if f else ""
            right = str(6 - f) if f < 6 else ""
            ranks = ["7"] * 9
            ranks[8 - r] = left + piece + right
            round_trip("/".join(ranks) + " w 20")


def test_squares_round_trip():
    names = []
    for sq in range(63):
        name = square_name(sq)
        assert parse_square(name) == sq
        names.append(name)
    assert names[0] == "a1" and names[6] == "g1" and names[7] == "a2" and names[62] == "g9"
    assert len(set(names)) == 63


def test_faces_round_trip():
    assert list(FACES) == ALL_FACES
    for code in range(1, 17):
        assert parse_face(face_name(code)) == code


def test_moves_round_trip():
    for frm in range(63):
        for to in range(0, 63, 5):
            for capture in (0, 1):
                text = format_move(frm, to, capture)
                assert parse_move(text) == (frm, to, capture == 1), text
                f, t, c = parse_move(text)
                assert format_move(f, t, c) == text
    assert format_move(parse_square("c1"), parse_square("c4"), False) == "c1-c4"
    assert format_move(parse_square("c1"), parse_square("c4"), True) == "c1xc4"


def test_placements_round_trip():
    for sq in range(63):
        for code in range(1, 17):
            text = format_placement(sq, code)
            assert parse_placement(text) == (sq, code), text
    assert parse_placement("e5=X") == (parse_square("e5"), parse_face("X"))
    assert parse_placement("b3=RN") == (parse_square("b3"), parse_face("RN"))


SAMPLE_TURNS = [
    "c2-c3", "e8-e6",
    "c3xb4 b3=LE",         # a 2-tile captures the X on b4 (turning on c4) and places it
    "d8-d6", "b1-a3", "d6-c4",
    "d2xc4 e3=RN e7=2H",   # a 3-tile captures Brown's 3-tile: Brown places first, then White
]


def test_turn_texts_round_trip():
    game = Game()
    for turn in SAMPLE_TURNS:
        for token in turn.split():
            play_token(game, token)
    assert game.turn_texts() == SAMPLE_TURNS
    for turn in game.turn_texts():
        for token in turn.split():
            if "=" in token:
                assert format_placement(*parse_placement(token)) == token
            else:
                assert format_move(*parse_move(token)) == token
    # Replaying the texts gives the same game.
    again = Game()
    for turn in game.turn_texts():
        for token in turn.split():
            play_token(again, token)
    assert again.turn_texts() == SAMPLE_TURNS
    assert format_position(again.pos) == format_position(game.pos)
    assert again.actions == game.actions
    assert format_position(game.pos) == (
        "1vd1dv1/2z4/4[2H]2/1[X]2z[X]1/[X]1[X]1[X]1[X]/1ZD2[X]1/V[LE]2[RN]2/4Z2/2D1DV1 b 22")


# --- bad input ----------------------------------------------------------------------------
def bad_position(text, *words):
    msg = raises(RulesError, parse_position, text)
    for w in words:
        assert w in msg, "%r: message %r does not name %r" % (text, msg, w)
    return msg


def test_bad_rank_lengths():
    bad_position(EMPTY_BOARD.replace("7/7/7/7/7/7/7/7/7", "7/7/7/7/7/7/7/7/7Z") + " w 0",
                 "rank 1", "more than 7 files")
    bad_position("4[X]3/7/7/7/7/7/7/7/7 w 0", "rank 9", "more than 7 files", "4[X]3")
    bad_position("ZDZ4D/7/7/7/7/7/7/7/7 w 0", "rank 9", "more than 7 files")
    bad_position("7/6/7/7/7/7/7/7/7 w 0", "rank 8", "6 files", "not 7")
    bad_position("7/7/7/7/7/7/7/7/1ZD2 w 0", "rank 1", "5 files")
    bad_position("7/7/7//7/7/7/7/7 w 0", "rank 6", "0 files")
    bad_position("7/7/7/7/7/7/7/7/8 w 0", "rank 1", "'8'")
    bad_position("7/7/7/7/7/7/7/7/0 w 0", "rank 1", "'0'")


def test_bad_rank_count():
    bad_position("7/7/7/7/7/7/7/7 w 0", "9 ranks", "got 8")
    bad_position("7/7/7/7/7/7/7/7/7/7 w 0", "9 ranks", "got 10")
    bad_position("7 w 0", "9 ranks", "got 1")


def test_bad_pieces():
    bad_position("7/7/7/7/3q3/7/7/7/7 w 0", "rank 5", "unknown piece", "'q'")
    bad_position("7/7/7/7/3X3/7/7/7/7 w 0", "unknown piece", "'X'")
    bad_position("7/7/7/7/3?3/7/7/7/7 w 0", "unknown piece", "'?'")
    bad_position("7/7/7/7/3[9Q]3/7/7/7/7 w 0", "unknown face code", "9Q")
    bad_position("7/7/7/7/3[]3/7/7/7/7 w 0", "unknown face code")
    bad_position("7/7/7/7/3[x]3/7/7/7/7 w 0", "unknown face code", "'x'")
    bad_position("7/7/7/7/3[1n]3/7/7/7/7 w 0", "unknown face code", "1n")
    bad_position("7/7/7/7/3[X3/7/7/7/7 w 0", "rank 5", "missing ']'")
    bad_position("7/7/7/7/6[RN/7/7/7/7 w 0", "missing ']'")


def test_bad_side_and_supply():
    bad_position(EMPTY_BOARD + " x 0", "side to move", "'x'")
    bad_position(EMPTY_BOARD + " W 0", "side to move", "'W'")
    bad_position(EMPTY_BOARD + " white 0", "side to move", "'white'")
    bad_position(EMPTY_BOARD + " w ten", "supply", "'ten'")
    bad_position(EMPTY_BOARD + " w 2a", "supply", "'2a'")
    bad_position(EMPTY_BOARD + " w -1", "supply", "'-1'")
    bad_position(EMPTY_BOARD + " w 100", "supply", "'100'")
    # digits other than 0-9 (str.isdigit accepts them on CPython, int() may or may not)
    bad_position(EMPTY_BOARD + " w \u00b2", "supply")          # superscript two
    bad_position(EMPTY_BOARD + " w \u0663", "supply")          # Arabic-Indic three
    bad_position(EMPTY_BOARD + " w 1\u0663", "supply")
    bad_position(EMPTY_BOARD + " w", "3 fields", "got 2")
    bad_position(EMPTY_BOARD, "3 fields", "got 1")
    bad_position(EMPTY_BOARD + " w 0 extra", "3 fields", "got 4")
    bad_position("", "3 fields", "got 0")


def test_bad_material():
    bad_position("ZZZZZZZ/Z6/7/7/7/7/7/7/7 w 0", "White", "8 tiles", "more than 7")
    bad_position("zzzzzzz/z6/7/7/7/7/7/7/7 w 0", "Brown", "8 tiles", "more than 7")
    bad_position("VVV4/7/7/7/7/7/7/7/7 w 0", "White", "3 4-tiles", "more than 2")
    bad_position("7/7/7/7/7/7/7/7/v1v1v2 b 0", "Brown", "3 4-tiles", "more than 2")
    bad_position("DDDD3/7/7/7/7/7/7/7/7 w 0", "White", "4 3-tiles", "more than 3")
    bad_position("7/7/7/7/7/7/7/7/zzz4 w 0", "Brown", "3 2-tiles", "more than 2")
    bad_position(CLOSED_START.replace(" w 24", " w 25"), "33 Barragoons", "more than 32")
    bad_position(EMPTY_BOARD + " w 33", "33 Barragoons", "more than 32")
    crowded = ("[A][A][A][A][A][A][A]/" * 4) + "[X][X][X][X][X]2/7/7/7/7 w 0"
    bad_position(crowded, "33 Barragoons")
    # exactly at the limits is fine
    round_trip(("[A][A][A][A][A][A][A]/" * 4) + "[X][X][X][X]3/7/7/7/7 w 0")
    round_trip(CLOSED_START.replace(" w 24", " b 0"))
    round_trip("VVDDDZZ/vvdddzz/7/7/7/7/7/7/7 w 32")


def test_not_text():
    # Issue 24: every parser names the value that is not text (cut short when long).
    for fn, what in ((parse_position, "position"), (parse_square, "square"),
                     (parse_move, "move"), (parse_placement, "placement"),
                     (parse_face, "face code")):
        for bad in (None, b"e5=X", 42, ["a1"], 1.5):
            msg = raises(RulesError, fn, bad)
            assert what in msg and "text" in msg and repr(bad) in msg, msg
    msg = raises(RulesError, parse_position, CLOSED_START.encode())
    assert msg.endswith("...'") and len(msg) < 80, msg
    game = Game()
    for bad in (None, b"c2-c3", 7):
        msg = refused(game, play_token, game, bad)
        assert "token" in msg and repr(bad) in msg, msg


def test_bad_squares():
    for text in ("h1", "a0", "a10", "A1", "1a", "", "a", "i9", "g0", "a-1"):
        msg = raises(RulesError, parse_square, text)
        assert repr(text) in msg and "square" in msg, msg


def test_bad_moves():
    msg = raises(RulesError, parse_move, "c1c4")
    assert "'c1c4'" in msg and "move" in msg
    for text in ("c1+c4", "c1--c4", "c1-c4 ", "c1", "", "c1Xc4", "c1_c4"):
        msg = raises(RulesError, parse_move, text)
        assert repr(text) in msg, msg
    assert "'h1'" in raises(RulesError, parse_move, "h1-c4")
    assert "'c0'" in raises(RulesError, parse_move, "c1-c0")
    assert "'a0'" in raises(RulesError, parse_move, "a0xa2")


def test_bad_placements():
    msg = raises(RulesError, parse_placement, "e5=Q")
    assert "unknown face code" in msg and "'Q'" in msg
    msg = raises(RulesError, parse_placement, "e5=9Q")
    assert "9Q" in msg
    assert "'XX'" in raises(RulesError, parse_placement, "e5=XX")
    assert "'rn'" in raises(RulesError, parse_placement, "e5=rn")
    assert "'h5'" in raises(RulesError, parse_placement, "h5=X")
    for text in ("e5X", "e5=", "e5-X", "", "e"):
        msg = raises(RulesError, parse_placement, text)
        assert repr(text) in msg and "placement" in msg, msg
    assert "'Q'" in raises(RulesError, parse_face, "Q")


# --- a refused input changes nothing -------------------------------------------------------
def snapshot(game):
    return (format_position(game.pos), list(game.actions), game.turn_texts(), game.placing(),
            game.winner, list(game.legal_moves()))


def refused(game, fn, *args):
    before = snapshot(game)
    msg = raises(RulesError, fn, *args)
    assert snapshot(game) == before, "%s changed the game" % msg
    return msg


def test_failed_input_leaves_game_unchanged():
    game = Game()
    # parse failures while playing tokens
    for token in ("c1c4", "h1-c4", "c1-c0", "d2-d5x", "e5=Q", "e5=", "i5=X"):
        refused(game, play_token, game, token)
    # illegal moves
    assert "illegal move d2-d6" in refused(game, game.move, parse_square("d2"),
                                           parse_square("d6"))
    assert "no tile on d4" in refused(game, game.move, parse_square("d4"), parse_square("d5"))
    assert "not White's" in refused(game, game.move, parse_square("d8"), parse_square("d6"))
    assert "no such square" in refused(game, game.move, 63, 0)
    assert "no such square" in refused(game, game.move, 0, -1)
    assert "no Barragoon to place" in refused(game, game.place, parse_square("d4"), 1)
    # move so that a Barragoon capture is pending, then the placement must come first
    for token in "c2-c3 e8-e6 c3xb4".split():
        play_token(game, token)
    assert game.placing() == WHITE
    assert "place a Barragoon first" in refused(game, game.move, parse_square("c2"),
                                               parse_square("c3"))
    assert "not empty" in refused(game, game.place, parse_square("e6"), 1)
    assert "not empty" in refused(game, game.place, parse_square("b4"), 1)
    assert "unknown face code" in refused(game, game.place, parse_square("e4"), 17)
    assert "unknown face code" in refused(game, game.place, parse_square("e4"), 0)
    assert "no such square" in refused(game, game.place, 63, 1)
    refused(game, play_token, game, "e4=Q")
    refused(game, play_token, game, "e4=")
    game.place(parse_square("b3"), parse_face("LE"))
    assert game.turn_texts()[-1] == "c3xb4 b3=LE"
    # a bad start position gives no game at all
    assert "'9Q'" in raises(RulesError, Game, "7/7/7/7/3[9Q]3/7/7/7/7 w 0")
    assert "express" in raises(RulesError, Game, None, CLOSED, (3, 0))
