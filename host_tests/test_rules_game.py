# The turn sequence, captures and placements, supply, end of the game, express stages,
# repetition with offer / decline / must-deviate, draws, and take-back.
from checks import raises
from rules_helpers import make, sq
from barragoon.core import WHITE, BROWN, RulesError
from barragoon.notation import format_position, parse_face
from barragoon.game import (
    Game, DRAW, R_NO_TILES, R_NO_MOVE, R_EXPRESS, R_DEAD, R_REPEAT, R_REPEAT_AGREED, R_AGREED)

RUNTIMES = ("cpython", "micropython")


def _move(g, frm, to):
    g.move(sq(frm), sq(to))


def _unchanged(g, fn, *args):
    before = (format_position(g.pos), list(g.actions), list(g.pending))
    msg = raises(RulesError, fn, *args)
    assert (format_position(g.pos), list(g.actions), list(g.pending)) == before
    return msg


def test_barragoon_capture_then_mover_places_it_again():
    g = Game(make("d2:D d5:[X] a9:z a1:Z", "w", 24))
    _move(g, "d2", "d5")
    assert g.placing() == WHITE and g.pos.side == WHITE and g.pos.supply == 24
    assert "place" in _unchanged(g, g.move, sq("a1"), sq("a2"))
    assert "not empty" in _unchanged(g, g.place, sq("a9"), 1)
    g.place(sq("e5"), parse_face("RN"))
    assert g.placing() == -1 and g.pos.side == BROWN
    assert g.pos.get(sq("e5")) == parse_face("RN") and g.pos.get(sq("d5")) == g.pos.get(sq("d5"))
    assert g.turn_texts() == ["d2xd5 e5=RN"]


def test_tile_capture_captured_side_places_first():
    g = Game(make("d2:D d5:z a9:z", "w", 24))
    _move(g, "d2", "d5")
    assert g.pos.supply == 22
    assert g.placing() == BROWN
    g.place(sq("b3"), parse_face("X"))
    assert g.placing() == WHITE and g.pos.side == WHITE
    g.place(sq("e6"), parse_face("1S"))
    assert g.placing() == -1 and g.pos.side == BROWN
    assert g.turn_texts() == ["d2xd5 b3=X e6=1S"]


def test_supply_shortfall():
    g = Game(make("d2:D d5:z a9:z", "w", 1))
    _move(g, "d2", "d5")
    assert g.pos.supply == 0 and g.placing() == BROWN
    g.place(sq("b3"), parse_face("A"))
    assert g.placing() == -1 and g.pos.side == BROWN
    g = Game(make("d2:D d5:z a9:z", "w", 0))
    _move(g, "d2", "d5")
    assert g.placing() == -1 and g.pos.side == BROWN and g.pos.supply == 0


def test_last_tile_captured_ends_at_once():
    g = Game(make("d2:D d5:z", "w", 24))
    _move(g, "d2", "d5")
    assert g.over and g.winner == WHITE and g.reason == R_NO_TILES
    assert g.placing() == -1 and g.pos.supply == 24
    assert "over" in _unchanged(g, g.place, sq("a1"), 1)


def test_no_legal_move_loses():
    # White's 2-tile on a1 is walled in by All Turns Barragoons it may not capture.
    walls = "a2:[A] b1:[A] b2:[A] a3:[A] c1:[A]"
    g = Game(make("a1:Z g9:v " + walls, "w"))
    assert g.over and g.winner == BROWN and g.reason == R_NO_MOVE
    assert g.legal_moves() == []


def test_both_immobile_player_to_move_loses():
    walls = "a2:[A] b1:[A] b2:[A] a3:[A] c1:[A] g8:[A] f9:[A] f8:[A] g7:[A] e9:[A]"
    for side, winner in (("w", BROWN), ("b", WHITE)):
        g = Game(make("a1:Z g9:z " + walls, side))
        assert g.over and g.winner == winner and g.reason == R_NO_MOVE


def test_express_stages_per_player():
    walls = "a2:[A] b1:[A] b2:[A] a3:[A] c1:[A]"
    pos = "a1:Z d5:V g9:v e8:d " + walls          # White: one mobile tile of two
    assert not Game(make(pos, "w"), stages=(0, 0)).over
    g = Game(make(pos, "w"), stages=(1, 0))
    assert g.over and g.winner == BROWN and g.reason == R_EXPRESS
    assert not Game(make(pos, "b"), stages=(1, 1)).over   # Brown has two mobile tiles
    g = Game(make(pos, "b"), stages=(0, 2))
    assert g.over and g.winner == WHITE and g.reason == R_EXPRESS
    raises(RulesError, Game, make(pos, "w"), 0, (3, 0))


def _pens():
    # Two 2-tiles, each on its own file, fenced by All Turns Barragoons they can't capture.
    wall = " ".join("b%d:[A]" % r for r in range(1, 10))
    wall += " " + " ".join("f%d:[A]" % r for r in range(1, 10))
    return wall


def test_draw_when_no_capture_is_possible_any_more():
    g = Game(make("a1:Z g9:z " + _pens(), "w", 14))
    assert g.over and g.winner == DRAW and g.reason == R_DEAD


def test_no_draw_while_a_capture_is_still_reachable():
    assert not Game(make("a1:Z g9:z", "w", 24)).over          # far apart, but can meet
    assert not Game(make("a1:D g9:z " + _pens(), "w", 14)).over  # a 3-tile captures A
    g = Game(make("a1:Z g9:z e5:[X] " + _pens().replace("b5:[A]", "b5:[X]"), "w", 14))
    assert not g.over                                          # the X in the fence


def test_draw_by_agreement():
    g = Game()
    _move(g, "d2", "d5")
    g.agree_draw()
    assert g.over and g.winner == DRAW and g.reason == R_AGREED
    assert g.turn_texts() == ["d2-d5 (agree)"]


def _shuffle(g, times):
    for i in range(times):
        _move(g, "a1", "a4")
        _move(g, "g9", "g6")
        _move(g, "a4", "a1")
        _move(g, "g6", "g9")


def test_threefold_repetition_offer_accepted():
    g = Game(make("a1:V g9:v", "w"))
    _shuffle(g, 1)
    assert not g.repetition
    _shuffle(g, 1)
    assert g.repetition                       # third time, White to move; Brown may offer
    g.offer_repetition_draw()
    assert "accept or decline" in _unchanged(g, g.move, sq("a1"), sq("a4"))
    g.answer_repetition_draw(True)
    assert g.over and g.winner == DRAW and g.reason == R_REPEAT_AGREED


def test_declined_repetition_decliner_must_deviate():
    g = Game(make("a1:V g9:v", "w"))
    _shuffle(g, 2)
    g.offer_repetition_draw()
    g.answer_repetition_draw(False)
    assert sq("a1") * 64 + sq("a4") not in g.legal_moves()
    assert "a4" not in targets_of_game(g, "a1")
    assert "deviate" in _unchanged(g, g.move, sq("a1"), sq("a4"))
    _move(g, "a1", "b3")                      # deviates; the obligation ends
    _move(g, "g9", "g6")
    _move(g, "b3", "a1")
    _move(g, "g6", "g9")
    assert sq("a1") * 64 + sq("a4") in g.legal_moves()


def targets_of_game(g, name):
    from barragoon.notation import square_name
    n = g.targets(sq(name))
    return [square_name(g.pos.tsq[i]) for i in range(n)]


def _corridor():
    # White's 2-tile shuttles a1 <-> a2 with exactly one move each time.
    return "a3:[A] b1:[A] b2:[A] b3:[A]"


def test_decliner_without_alternative_then_other_must_deviate():
    g = Game(make("a1:Z g9:v " + _corridor(), "w", 20))
    for i in range(2):
        _move(g, "a1", "a2")
        _move(g, "g9", "g6")
        _move(g, "a2", "a1")
        _move(g, "g6", "g9")
    assert g.repetition
    g.offer_repetition_draw()
    g.answer_repetition_draw(False)
    assert g.legal_moves() == [sq("a1") * 64 + sq("a2")]     # White's only move stays legal
    _move(g, "a1", "a2")
    assert sq("g9") * 64 + sq("g6") not in g.legal_moves()   # now Brown must deviate
    assert "deviate" in _unchanged(g, g.move, sq("g9"), sq("g6"))
    _move(g, "g9", "g5")
    assert not g.over


def test_neither_can_deviate_is_a_draw():
    # The obligation falls on a player whose only move is the repeated one.
    g = Game(make("a1:Z g9:v " + _corridor(), "w", 20))
    g.avoid_side, g.avoid_move, g.avoid_key = WHITE, sq("a1") * 64 + sq("a2"), g.pos.key()
    g._check_end()
    assert g.over and g.winner == DRAW and g.reason == R_REPEAT


def test_take_back_moves_placements_and_turns():
    g = Game()
    start = format_position(g.pos)
    _move(g, "d2", "d5")
    after_first = format_position(g.pos)
    _move(g, "d8", "d6")
    _move(g, "e2", "e4")
    g.undo()
    assert format_position(g.pos) != start and g.pos.side == WHITE
    g.undo_turn()
    assert format_position(g.pos) == after_first and g.pos.side == BROWN
    g.undo_turn()
    assert format_position(g.pos) == start and len(g.actions) == 0
    assert "no turn" in raises(RulesError, g.undo_turn)


def test_take_back_a_capture_with_placements_and_a_finished_game():
    g = Game(make("d2:D d5:z a9:z", "w", 24))
    before = format_position(g.pos)
    _move(g, "d2", "d5")
    g.place(sq("b3"), 1)
    g.undo()                                  # only Brown's placement
    assert g.placing() == BROWN and g.pos.get(sq("b3")) == 0 and g.pos.supply == 22
    g.place(sq("b3"), 1)
    g.place(sq("c3"), 1)
    g.undo_turn()
    assert format_position(g.pos) == before and g.pos.supply == 24
    g = Game(make("d2:D d5:z", "w", 24))
    _move(g, "d2", "d5")
    assert g.over
    g.undo()
    assert not g.over and g.pos.get(sq("d5")) != 0


def test_illegal_actions_change_nothing():
    g = Game()
    assert "illegal" in _unchanged(g, g.move, sq("d2"), sq("d7"))
    assert "not White's" in _unchanged(g, g.move, sq("d8"), sq("d6"))
    assert "no tile" in _unchanged(g, g.move, sq("d4"), sq("d5"))
    assert "no Barragoon" in _unchanged(g, g.place, sq("d4"), 1)
    assert "repetition" in _unchanged(g, g.offer_repetition_draw)
    assert "no draw offer" in _unchanged(g, g.answer_repetition_draw, True)
    assert "nothing" in raises(RulesError, g.undo)
    _move(g, "d2", "d5")
    assert "no such square" in _unchanged(g, g.move, 70, 1)
