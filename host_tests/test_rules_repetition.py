# Rule 6c: a repeated sequence of turns (not a position seen again), the offer, its answer, the
# duty to deviate that passes along the block, and the draw when nobody can deviate in a whole
# block. Issue 9 points 2, 3 and 4 are reproduced here by name (each failed before the fix).
# Runs on CPython and on the MicroPython unix port (no pytest here).
from checks import raises
from rules_helpers import make, sq
from barragoon.core import WHITE, BROWN, RulesError
from barragoon.notation import format_position, parse_face
from barragoon.game import Game, DRAW, R_REPEAT, R_REPEAT_AGREED, R_DEAD
from barragoon.record import play_token

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_board_queries_allocate_nothing",)   # heap figures: MicroPython only

# RULES.md's worked example: a White 4-tile on a1, Brown 4-tiles on g9 and e9.
WORKED = "a1:V g9:v e9:v"
BLOCK = ["a1-a4", "g9-g6", "a4-a1", "g6-g9"]


def play(g, turns):
    for turn in turns:
        for token in turn.split():
            play_token(g, token)
    return g


def moves(*pairs):
    return sorted(sq(a) * 64 + sq(b) for a, b in pairs)


def snapshot(g):
    return (format_position(g.pos), list(g.actions), list(g.pending), g.winner, g.offered,
            g.must_deviate, g.repetition)


def refused(g, fn, *args):
    before = snapshot(g)
    msg = raises(RulesError, fn, *args)
    assert snapshot(g) == before, msg
    return msg


def declined(g):
    g.offer_repetition_draw()
    g.answer_repetition_draw(False)
    return g


# --- when the draw may be offered -------------------------------------------------------------
def test_issue9_offer_needs_three_copies_not_two():
    g = Game(make(WORKED))
    play(g, BLOCK * 2)
    assert not g.repetition                      # the old rule allowed it here (8 turns)
    assert "no repeated sequence" in refused(g, g.offer_repetition_draw)
    play(g, BLOCK[:3])
    assert not g.repetition
    play(g, BLOCK[3:])
    assert g.repetition                          # 12 turns: Brown completed the third copy
    assert g.pos.side == WHITE and g.turn == WHITE


def test_worked_example_offer_accepted():
    g = play(Game(make(WORKED)), BLOCK * 3)
    g.offer_repetition_draw()
    assert g.offered and not g.repetition
    assert "accept or decline" in refused(g, g.move, sq("a1"), sq("a4"))
    assert "accept or decline" in refused(g, g.offer_repetition_draw)
    assert "True or False" in refused(g, g.answer_repetition_draw, 1)
    g.answer_repetition_draw(True)
    assert g.over and g.winner == DRAW and g.reason == R_REPEAT_AGREED
    assert g.turn_texts()[-1] == "g6-g9 (offer) (accept)"


def test_issue9_one_player_repeating_is_not_enough():
    # Brown varies e9-e6 e6-e9 in the third copy: the position after it is the same again,
    # but the sequence of both players' turns was not played three times.
    g = play(Game(make(WORKED)), BLOCK * 2 + ["a1-a4", "e9-e6", "a4-a1", "e6-e9"])
    assert not g.repetition
    assert "no repeated sequence" in refused(g, g.offer_repetition_draw)


def test_issue9_position_back_by_another_route_is_not_enough():
    g = play(Game(make(WORKED)), BLOCK * 2 + ["a1-b4", "g9-g6", "b4-a1", "g6-g9"])
    assert not g.repetition


def test_offer_only_in_the_turn_that_completes_the_third_copy():
    g = play(Game(make(WORKED)), BLOCK * 3)
    assert g.repetition
    play(g, ["a1-b4"])                           # White moves on: Brown's chance is gone
    assert not g.repetition
    g.undo()
    assert g.repetition                          # take-back restores it
    # a rotation of the block is a block too: White may offer after the 13th turn
    play(g, ["a1-a4"])
    assert g.repetition
    g.offer_repetition_draw()
    assert g.turn == BROWN and g.offered


def test_block_of_six_turns():
    six = ["a1-a4", "g9-g6", "a4-c2", "g6-e8", "c2-a1", "e8-g9"]
    g = play(Game(make("a1:V g9:v")), six * 2)
    assert not g.repetition                      # two copies of 6 (and no block of 4)
    play(g, six[:5])
    assert not g.repetition
    play(g, six[5:])
    assert g.repetition
    declined(g)
    assert g.must_deviate == WHITE and g.predicted_turn() == "a1-a4"
    assert sq("a1") * 64 + sq("a4") not in g.legal_moves()
    assert "deviate" in refused(g, g.move, sq("a1"), sq("a4"))
    play(g, ["a1-a5"])
    assert g.must_deviate == -1
    assert sq("g9") * 64 + sq("g6") in g.legal_moves()


def test_same_turn_texts_from_other_positions_are_no_repetition():
    # White's 2-tile and 3-tile swap squares in every copy of this six-turn block (each of
    # White's moves is two steps, legal for both), so the copies start alternately from two
    # different positions: the texts repeat, the position at the start of the copies does not.
    six = ["a1-c1", "g9-g6", "b2-a1", "g6-e8", "c1-b2", "e8-g9"]
    g = play(Game(make("a1:Z b2:D g9:v")), six * 3)
    assert not g.repetition
    play(g, six * 3)
    assert g.repetition                          # twelve turns, back where they began


def test_repeated_capture_texts_from_other_positions_are_no_repetition():
    # The same Barragoon-capture turns, but the first copy starts with an X on a5 and the
    # later ones with the One Way the first copy left there: only two copies start alike.
    cycle = ["a1xa5 a1=X", "g9-g6", "a5xa1 a5=1N", "g6-g9"]
    g = play(Game(make("a1:V a5:[X] g9:v", "w", 23)), cycle * 3)
    assert not g.repetition
    play(g, cycle)
    assert g.repetition


# --- after a decline ----------------------------------------------------------------------
def test_declined_decliner_must_deviate():
    g = declined(play(Game(make(WORKED)), BLOCK * 3))
    assert not g.offered and not g.repetition and not g.over
    assert g.must_deviate == WHITE
    assert g.predicted_turn() == "a1-a4" and g.predicted_move() == sq("a1") * 64 + sq("a4")
    assert sq("a1") * 64 + sq("a4") not in g.legal_moves()
    n = g.targets(sq("a1"))
    assert sq("a4") not in [g.pos.tsq[i] for i in range(n)] and n > 0
    msg = refused(g, g.move, sq("a1"), sq("a4"))
    assert "a1-a4" in msg and "White must deviate" in msg, msg
    play(g, ["a1-b4"])                          # deviates: the duty ends
    assert g.must_deviate == -1 and g.predicted_turn() == "" and g.predicted_move() == -1
    play(g, ["g9-g6", "b4-a1", "g6-g9", "a1-a4"])   # the old block is free again
    assert not g.over and not g.repetition


SHUTTLE = "g1:Z f1:[A] f2:[A] g3:[A] f3:[A] a9:v"   # White's 2-tile has one move, always


def test_no_second_offer_while_the_duty_runs():
    g = Game(make(SHUTTLE, "w", 20))
    shuttle = ["g1-g2", "a9-a6", "g2-g1", "a6-a9"]
    play(g, shuttle * 3)
    declined(g)
    assert g.must_deviate == -1                  # White's only move is the predicted one
    play(g, ["g1-g2"])                           # ... so the duty passes to Brown
    assert not g.repetition and "no repeated" in refused(g, g.offer_repetition_draw)
    assert g.must_deviate == BROWN and g.predicted_turn() == "a9-a6"


def test_both_players_duties_after_a_decline():
    # White (the decliner) has one move only, so the duty passes to Brown, who can deviate.
    g = Game(make(SHUTTLE, "w", 20))
    shuttle = ["g1-g2", "a9-a6", "g2-g1", "a6-a9"]
    play(g, shuttle * 3)
    assert g.legal_moves() == moves(("g1", "g2"))
    declined(g)
    assert g.legal_moves() == moves(("g1", "g2"))   # the forced turn stays legal
    play(g, ["g1-g2"])
    assert g.must_deviate == BROWN
    assert "Brown must deviate" in refused(g, g.move, sq("a9"), sq("a6"))
    play(g, ["a9-a5"])
    assert g.must_deviate == -1
    play(g, ["g2-g1", "a5-a9", "g1-g2", "a9-a6"])    # White's duty does not come back
    assert not g.over


def test_issue9_duty_passes_along_the_block():
    # Issue 9, point 3: White's only move a1-a2 repeats, and so does Brown's g2-g3 after it,
    # but then White has g1xe2 and must play it: no draw yet.
    g = Game("7/7/7/7/7/6[A]/[A][A]3[A]1/1[A]2[A][1W]z/Z[A]3[A]D w 23")
    block = ["a1-a2", "g2-g3", "a2-a1", "g3-g2"]
    play(g, block * 3)
    declined(g)
    assert g.must_deviate == -1 and not g.over
    play(g, ["a1-a2"])
    assert not g.over and g.must_deviate == -1   # Brown's g2-g3 is forced as well
    play(g, ["g2-g3"])
    assert not g.over                            # the old rule drew the game here
    assert g.must_deviate == WHITE and g.predicted_turn() == "a2-a1"
    assert g.legal_moves() == moves(("g1", "e2"))
    play(g, ["g1xe2 d5=X"])
    assert g.must_deviate == -1 and not g.over


FORCED = ("a1:D a2:Z b1:[X] b2:[X] a3:[X] g1:Z f1:[A] f2:[A] g3:[A] f3:[A] "
          "g9:z f9:[A] f8:[A] g7:[A] f7:[A]")
FORCED_BLOCK = ["g1-g2", "g9-g8", "g2-g1", "g8-g9"]


class Undecided:
    """A stand-in for rule 6b's decision that can never decide (deadlock.Decision's
    interface): where the real one cannot, the repetition rule must end the game."""

    def __init__(self, pos, stages=(0, 0), refused=-1):
        self.result = 2                          # UNDECIDED
        self.exhausted = True

    def step(self, work=1):
        return True

    def finish(self):
        return self.result


def test_a_forced_cycle_without_captures_is_drawn_by_rule_6b_at_once():
    # Every position of the block leaves each player one move and none a capture: from the
    # start, nothing can ever be captured (White's Z on a2 could take the X on b1 only if its
    # own 3-tile, which can never move, left a1). Rule 6b draws before any repetition.
    g = Game(make(FORCED, "w", 20))
    assert g.over and g.winner == DRAW and g.reason == R_DEAD


def test_nobody_can_deviate_in_a_whole_block_is_a_draw():
    # Every position of the block leaves each player one move. Rule 6b would draw at once
    # (above); where its search cannot decide, the repetition rule ends the game.
    import barragoon.game as G
    decision = G.Decision
    G.Decision = Undecided
    try:
        g = play(Game(make(FORCED, "w", 8)), FORCED_BLOCK * 3)
        declined(g)
        play(g, FORCED_BLOCK[:2])
        assert not g.over and g.unproven
        play(g, FORCED_BLOCK[2:3])               # three forced turns: one to go
        assert g.over and g.winner == DRAW and g.reason == R_REPEAT
        assert "over" in refused(g, g.move, sq("g8"), sq("g9"))
        g.undo()
        assert not g.over and g.pos.side == WHITE
    finally:
        G.Decision = decision


# --- a different placement is a deviation ---------------------------------------------------
CAPTURE_CYCLE = ["a1xa5 a1=X", "g9-g6", "a5xa1 a5=X", "g6-g9"]


def test_issue9_different_placement_is_a_deviation():
    g = declined(play(Game(make("a1:V a5:[X] g9:v", "w", 23)), CAPTURE_CYCLE * 3))
    assert g.must_deviate == WHITE and g.predicted_turn() == "a1xa5 a1=X"
    # The capture itself stays allowed (the old rule refused a1xa5 outright) ...
    assert sq("a1") * 64 + sq("a5") in g.legal_moves()
    play(g, ["a1xa5"])
    assert g.must_deviate == WHITE and g.placing() == WHITE
    # ... but not the placement that completes exactly the predicted turn.
    x = parse_face("X")
    assert not g.placement_allowed(sq("a1"), x)
    msg = refused(g, g.place, sq("a1"), x)
    assert "a1=X" in msg and "a1xa5 a1=X" in msg and "White must deviate" in msg, msg
    assert g.placement_allowed(sq("a1"), parse_face("RN"))
    assert g.placement_allowed(sq("b1"), x)
    play(g, ["a1=RN"])
    assert g.must_deviate == -1 and not g.over and g.turn_texts()[-1] == "a1xa5 a1=RN"


def test_same_placement_elsewhere_is_a_deviation():
    g = declined(play(Game(make("a1:V a5:[X] g9:v", "w", 23)), CAPTURE_CYCLE * 3))
    play(g, ["a1xa5 b1=X"])
    assert g.must_deviate == -1
    play(g, ["g9-g6"])
    assert g.must_deviate == -1


def test_other_move_after_predicted_capture_deviates():
    g = declined(play(Game(make("a1:V a5:[X] g9:v", "w", 23)), CAPTURE_CYCLE * 3))
    play(g, ["a1-b4"])
    assert g.must_deviate == -1 and not g.over


def test_tile_capture_with_supply_shortfall_deviates():
    # Brown's 3-tile on e1 sits through the block; declining, White takes it. The supply is
    # empty, so the turn has no placements: it still deviates (no block holds a tile capture).
    g = Game(make("a1:V g9:v e1:d", "w", 0))
    play(g, BLOCK * 3)
    declined(g)
    assert g.must_deviate == WHITE
    play(g, ["a1xe1"])
    assert g.must_deviate == -1 and g.placing() == -1 and g.pos.side == BROWN
    assert g.turn_texts()[-1] == "a1xe1"
    assert not g.repetition


def test_tile_capture_with_one_barragoon_left_deviates():
    g = Game(make("a1:V g9:v e1:d", "w", 1))
    play(g, BLOCK * 3)
    declined(g)
    play(g, ["a1xe1"])
    assert g.placing() == BROWN                  # the captured side gets the last one
    play(g, ["d5=X"])
    assert g.must_deviate == -1 and g.pos.side == BROWN and not g.over


# --- take-back and records ----------------------------------------------------------------------
def test_take_back_restores_the_duty():
    g = declined(play(Game(make(WORKED)), BLOCK * 3))
    play(g, ["a1-b4"])
    g.undo()
    assert g.must_deviate == WHITE and g.predicted_turn() == "a1-a4"
    g.undo()                                     # the decline
    assert g.offered and g.must_deviate == -1
    g.undo()                                     # the offer
    assert g.repetition and not g.offered


def test_placement_queries_refuse_bad_values_without_raising():
    g = play(Game(make("a1:V a5:[X] g9:v", "w", 23)), ["a1xa5"])
    for bad in ((-1, 1), (63, 1), ("a1", 1), (None, 1), (True, 1), (0, 0), (0, 17),
                (0, 1.5), (0, True), (0, "X")):
        assert not g.placement_allowed(*bad), bad
    assert g.placement_allowed(0, 1)
    assert not g.placement_allowed(sq("a5"), 1)  # not empty


def test_board_queries_allocate_nothing():
    # What the board asks on every lift and every screen: targets (with the duty to deviate
    # filtering them), who must deviate, the refused move, and whether a draw may be offered.
    import gc
    g = declined(play(Game(make(WORKED)), BLOCK * 3))
    fresh = play(Game(make(WORKED)), BLOCK * 3)
    for game in (g, fresh):
        game.targets(sq("a1"))
        game.repetition
        gc.collect()
        before = gc.mem_alloc()
        for i in range(20):
            game.targets(sq("a1"))
            game.targets(sq("g9"))
            game.must_deviate
            game.predicted_move()
        game.repetition
        assert gc.mem_alloc() - before == 0, gc.mem_alloc() - before
    # the repetition check itself (takes the turns back on a scratch board)
    gc.collect()
    before = gc.mem_alloc()
    for i in range(5):
        fresh._rep = -1
        assert fresh.repetition
    assert gc.mem_alloc() - before == 0, gc.mem_alloc() - before
