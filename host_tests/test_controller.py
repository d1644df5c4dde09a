# The board controller in the players' hands: lifting, hints, captures in either order,
# placements with the face picker, touch-move (who, when, what), errors at rest, slides and the
# reopen window, desync and repair, set-up, the menus and their mode stack (take-back, draws,
# repetition, brightness, tests), and the end of the game. The issue-10 defects themselves are
# event scripts run through the whole firmware: test_board_events.py.
from toolkit.ctl_script import Rig
from barragoon.core import WHITE, BROWN, RulesError
from barragoon.game import Game
from barragoon.notation import parse_face, parse_square
from controller import colours as C
from controller import modes as M

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_events_allocate_at_most_a_move_record",   # heap figures
                    "test_a_menu_refresh_allocates_little_at_the_end_of_a_long_game",
                    "test_leds_with_no_mode_drawing_them_allocate_nothing")

ONE_ON_ONE = "7/7/7/7/3z3/7/7/3D1Z1/7 w 24"
TWO_BROWN = "7/7/7/7/3z3/7/7/3D3/6z w 24"      # Brown keeps a tile after d2xd5
BAR = "6z/7/7/7/7/7/7/[X]2D3/7 w 24"            # d2 can take the Barragoon on a2
CAP = "6z/7/7/7/3z3/7/7/[X]2D3/7 w 24"          # ... and the tile on d5


def choose(rig, label):
    menu = rig.ctl.top
    assert isinstance(menu, M.Menu), menu
    for i in range(len(menu.items) + 1):
        if menu.items[menu.sel] == label:
            rig.run("press ok")
            return
        rig.run("press down")
    raise AssertionError("no menu item %r in %r" % (label, menu.items))


def sq(name):
    return parse_square(name)


def test_lift_lights_origin_and_targets_then_the_move_is_made_at_rest():
    rig = Rig()
    rig.start_game()
    rig.run("lift d2")
    assert rig.lit(C.ORIGIN) == ["d2"]
    assert rig.lit(C.MOVE) == ["b3", "c3", "c4", "d4", "d5", "e3", "e4", "f3"]
    rig.run("drop d5; wait 200")
    assert rig.record() == ""                      # not yet still for the settle time
    rig.run("wait 150")
    assert rig.record() == "d2-d5" and rig.ctl.game.pos.side == BROWN
    assert rig.lit(C.MOVE) == [] and rig.lit(C.ORIGIN) == []
    assert rig.saves == 1


def test_a_board_that_loses_track_after_a_capture_lights_the_target_whose_piece_is_wrong():
    # White takes the Barragoon on f4 with e3 (committed), then eight more pieces are lifted
    # at once: more than the hands the judge can follow, so the capture is taken back. On f4
    # stands White's tile where the Barragoon must stand again; the sensors see f4 occupied
    # either way, so the board lights it to take off, and e3 to fill.
    rig = Rig()
    rig.start_game()
    rig.run("lift e2; wait 270; drop e3; wait 400; lift c8; wait 270; drop c6; wait 400")
    rig.run("lift e3; wait 270; lift f4; wait 270; drop f4; wait 400")
    assert rig.record() == "e2-e3 c8-c6 e3xf4"
    lifted = ("b1", "c1", "e1", "f1", "c2", "d2", "b4", "a5")
    rig.run("; ".join("lift " + name for name in lifted))
    assert rig.record() == "e2-e3 c8-c6" and rig.ctl.judge.repair
    assert rig.lit(C.TO_EMPTY) == ["f4"] and "e3" in rig.lit(C.TO_FILL)
    rig.run("; ".join("drop " + name for name in lifted) + "; wait 400")
    assert rig.lit(C.TO_EMPTY) == ["f4"] and rig.lit(C.TO_FILL) == ["e3"]
    rig.run("drop e3; lift f4; wait 400")          # the tile back; the Barragoon to come
    assert rig.lit(C.TO_FILL) == ["f4"] and rig.lit(C.TO_EMPTY) == []
    rig.run("drop f4; wait 400")
    assert isinstance(rig.ctl.top, M.Ask)          # the pieces lifted before: all back?
    rig.run("press ok; wait 400")                  # "Yes, all back"
    assert not rig.ctl.judge.repair and rig.ctl.game.pos.side == WHITE
    rig.run("lift e3; wait 270; lift f4; wait 270; drop f4; wait 400")
    assert rig.record() == "e2-e3 c8-c6 e3xf4"


def test_capture_tile_first_then_both_placements_with_the_face_picker():
    rig = Rig()
    rig.start_game("6z/7/7/7/3z3/7/7/[X]2D3/7 w 24")
    rig.run("lift d2")
    assert rig.meaning("d5") == C.TAKE_TILE and rig.meaning("a2") == C.TAKE_BARRAGOON
    rig.run("lift d5; wait 300")
    assert rig.meaning("d5") == C.TAKE_TILE        # still lit while the victim is off
    rig.run("drop d5; wait 350")
    g = rig.ctl.game
    assert rig.record() == "d2xd5" and g.placing() == BROWN
    rig.run("drop b3; wait 350")
    assert isinstance(rig.ctl.top, M.Place) and rig.meaning("b3") == C.PLACE
    first = bytes(rig.buf)
    rig.run("press down")
    assert bytes(rig.buf) != first                 # the picker shows the face
    rig.run("press down; press ok")                # X -> 1N -> 1E
    assert g.placing() == WHITE and g.pos.get(sq("b3")) == parse_face("1E")
    rig.run("lift d5")                             # no tile may move before the placements
    assert rig.meaning("d5") == C.TO_FILL
    rig.run("drop d5; drop f6; wait 350; press ok")
    assert rig.record() == "d2xd5 b3=1E f6=X" and g.pos.side == BROWN


def test_a_barragoon_knocked_aside_and_put_straight_back_is_the_same_one():
    # (found by the fuzz) During the placement a2's Barragoon slides onto b2 and comes back
    # within 70 ms: no hand swaps pieces that fast, so the likeliest story has a2 holding its
    # own Barragoon again, even though it went by way of b2 (the others stay, less likely).
    # The placement then goes through as usual.
    rig = Rig()
    rig.start_game("6z/7/7/7/3z3/7/7/[X]2D3/7 w 24")
    rig.run("lift d2; wait 300; lift d5; wait 300; drop d5; wait 400")
    assert rig.record() == "d2xd5"
    rig.run("lift a2; wait 10; drop b2; wait 30; lift b2; wait 30; drop a2; wait 430")
    assert not isinstance(rig.ctl.top, (M.Place, M.Ask)) and rig.meaning("a2") == C.OFF
    rig.run("drop a1; wait 400")
    assert isinstance(rig.ctl.top, M.Place) and rig.meaning("a1") == C.PLACE
    rig.run("press ok")
    assert rig.record() == "d2xd5 a1=X"


def test_victim_first_lights_the_tiles_that_can_take_it():
    rig = Rig()
    rig.start_game(ONE_ON_ONE)
    rig.run("lift d5")
    assert rig.meaning("d5") == C.TAKE_TILE and rig.lit(C.CAPTURER) == ["d2"]
    rig.run("lift f2")                             # cannot take d5: just another piece off
    rig.run("drop f2; wait 300")
    assert rig.record() == ""
    rig.run("lift d2; wait 100; drop d5; wait 350")
    assert rig.record() == "d2xd5"


def test_barragoon_capture_mover_places_it_again():
    rig = Rig()
    rig.start_game("7/7/7/7/3[A]3/7/7/3D3/6z w 24")
    rig.run("lift d2; lift d5; wait 300; drop d5; wait 350")
    g = rig.ctl.game
    assert g.placing() == WHITE and g.pos.supply == 24
    rig.run("drop a1; wait 350")
    for i in range(15):                            # X .. A: the last face state
        rig.run("press down")
    rig.run("press ok")
    assert rig.record() == "d2xd5 a1=A" and g.pos.side == BROWN


def test_touch_move_a_tile_put_back_after_the_adjust_time_must_move():
    rig = Rig()
    rig.start_game()
    rig.run("lift c2; wait 300; drop c2; wait 350")
    assert rig.meaning("c2") == C.DUTY and rig.duties == "c2 -"
    rig.run("lift e2")                             # another tile: it must go back
    assert rig.meaning("e2") == C.TO_FILL and rig.lit(C.MOVE) == []
    rig.run("drop e4; wait 350")                   # even on a legal square: refused
    assert rig.record() == "" and rig.meaning("e4") == C.ERROR
    rig.run("lift e4; drop e2; lift c2; drop c4; wait 350")
    assert rig.record() == "c2-c4"


def test_a_short_lift_is_an_adjustment_not_a_touch():
    rig = Rig()
    rig.start_game()
    rig.run("lift c2; drop c2; wait 350")          # 30 ms off the board
    assert rig.lit(C.DUTY) == [] and rig.ctl.judge.duty_text() == ""
    rig.run("lift e2; drop e4; wait 350")
    assert rig.record() == "e2-e4"


def test_a_tile_without_a_legal_move_may_go_back():
    rig = Rig()
    rig.start_game()
    rig.run("lift c1; wait 300")                   # blocked in at the start
    assert rig.lit(C.MOVE) == [] and rig.ctl.judge.view.note_sq == sq("c1")
    rig.run("drop c1; wait 350; lift d2; drop d4; wait 350")
    assert rig.record() == "d2-d4"


def test_a_barragoon_touched_first_must_be_captured():
    rig = Rig()
    rig.start_game("6z/7/7/7/3[X]3/7/7/3D1Z1/7 w 24")
    rig.run("lift d5; wait 300; drop d5; wait 350")
    assert rig.meaning("d5") == C.DUTY_TAKE and rig.duties == "- d5"
    rig.run("lift f2")                             # f2 cannot take it: only d2's capture
    assert rig.lit(C.MOVE) == []
    rig.run("drop f2; wait 350; lift d2")
    assert rig.lit(C.TAKE_BARRAGOON) == ["d5"] and rig.lit(C.MOVE) == []


def test_an_opponent_tile_lifted_first_creates_no_duty():
    rig = Rig()
    rig.start_game(ONE_ON_ONE)
    rig.run("lift d5; wait 300; drop d5; wait 350")
    assert rig.ctl.judge.duty_text() == "" and rig.lit(C.DUTY_TAKE) == []
    rig.run("lift d2; drop d4; wait 350")
    assert rig.record() == "d2-d4"


def test_an_illegal_set_down_flashes_only_at_rest():
    rig = Rig()
    rig.start_game()
    rig.run("lift d2; drop d3; wait 100")
    assert rig.meaning("d3") == C.OFF and rig.ctl.alert == 0      # in transit
    rig.run("wait 300")
    assert rig.meaning("d3") == C.ERROR and rig.ctl.alert == 1
    assert rig.record() == ""
    seen = set()
    for i in range(6):
        rig.run("wait 50")
        seen.add(rig.colour("d3"))
    assert C.colour(C.STANDARD, C.ERROR) in seen                  # flashing
    assert C.colour(C.STANDARD, C.OFF) in seen
    rig.run("lift d3; drop d5; wait 350")
    assert rig.record() == "d2-d5"


def test_the_moved_piece_may_be_lifted_again_within_the_reopen_window():
    rig = Rig()
    rig.start_game()
    rig.run("lift d2; drop d4; wait 400")
    assert rig.record() == "d2-d4"
    rig.run("wait 1000; lift d4")                  # within 2 s: the move is open again
    assert rig.record() == "" and rig.meaning("d2") == C.ORIGIN
    rig.run("drop d5; wait 350")
    assert rig.record() == "d2-d5"
    rig.run("wait 2100; lift d5")                  # too late: now it is Brown's victim
    assert rig.record() == "d2-d5" and rig.meaning("d5") == C.TAKE_TILE
    assert rig.lit(C.CAPTURER) == ["d8"]
    rig.run("drop d5; wait 350; lift d8; drop d6; wait 350")
    assert rig.record() == "d2-d5 d8-d6"


def test_a_stray_piece_is_shown_and_play_resumes():
    rig = Rig()
    rig.start_game()
    rig.run("drop e4")
    assert rig.meaning("e4") == C.TO_EMPTY
    rig.run("wait 350; lift e4; wait 350")
    assert rig.lit(C.TO_EMPTY) == []
    rig.run("lift d2; drop d5; wait 350")
    assert rig.record() == "d2-d5"


def test_a_fresh_board_goes_straight_to_the_guided_set_up():
    rig = Rig()
    rig.ctl.start(bytearray(63), None)
    assert isinstance(rig.ctl.top, M.Setup)
    rig.advance(0)
    assert rig.lit(C.PLACE) == ["b1"] and len(rig.lit(C.HINT)) == 21
    order = []
    for i in range(22):
        nxt = rig.lit(C.PLACE)
        assert len(nxt) == 1
        order.append(nxt[0])
        rig.run("drop " + nxt[0])
    assert order[:3] == ["b1", "c1", "e1"] and order[-1] == "f6"
    rig.run("wait 350")
    assert isinstance(rig.ctl.top, M.Play) and rig.saves == 1     # started (and saved)
    rig.run("lift d2; drop d4; wait 350")
    assert rig.record() == "d2-d4"


def test_power_on_with_a_saved_game_guides_the_board_back():
    from barragoon.game import Game
    saved = Game()
    saved.move(sq("d2"), sq("d5"))
    rig = Rig()
    rig.ctl.start(bytearray(63), saved)            # the board is empty at power-on
    menu = rig.ctl.top
    assert isinstance(menu, M.Menu) and menu.items[0] == "Resume game"
    rig.run("press ok")
    assert isinstance(rig.ctl.top, M.Play) and rig.ctl.judge.repair
    assert len(rig.lit(C.TO_FILL)) == 22 and rig.meaning("d5") == C.TO_FILL
    for s in range(63):
        if saved.pos.get(s):
            rig.put(s, 1)
    rig.run("wait 350")
    assert rig.lit(C.TO_FILL) == [] and not rig.ctl.judge.repair
    rig.run("lift d8; drop d6; wait 350")
    assert rig.record() == "d2-d5 d8-d6"


def test_a_touch_move_duty_survives_a_power_cut():
    rig = Rig()
    game = rig.start_game()
    rig.run("lift c2; wait 300; drop c2; wait 350")
    assert rig.duties == "c2 -"
    again = Rig()
    board = bytearray(rig.board)
    again.board[:] = board
    again.ctl.start(again.board, game, rig.duties)   # no moves yet: straight back in
    again.advance(0)
    assert again.meaning("c2") == C.DUTY
    again.run("lift e2; drop e4; wait 350")
    assert again.record() == "" and again.meaning("e4") == C.ERROR


def test_a_touch_move_capture_duty_survives_a_power_cut():
    # (issue 20) The Barragoon on a2 lifted first and put back: it must be captured. After a
    # power cut the duty comes back with the game: a move that does not take a2 is refused,
    # d2xa2 goes through.
    rig = Rig()
    game = rig.start_game(BAR)
    rig.run("lift a2; wait 300; drop a2; wait 350")
    assert rig.duties == "- a2"
    again = Rig()
    again.board[:] = rig.board
    again.ctl.start(again.board, game, rig.duties)
    again.advance(0)
    assert again.meaning("a2") == C.DUTY_TAKE
    again.run("lift d2; drop d4; wait 350")
    assert again.record() == "" and again.meaning("d4") == C.ERROR
    again.run("lift d4; drop d2; wait 350; lift d2; lift a2; wait 300; drop a2; wait 350")
    assert again.record() == "d2xa2"


class SavingRig(Rig):
    """A rig that keeps the game as the board last saved it (the text of game.txt)."""

    def _save(self, game, duties):
        from barragoon.record import format_record
        Rig._save(self, game, duties)
        self.saved = format_record(game)


def test_a_turn_taken_back_by_a_board_that_lost_track_stays_taken_back_after_a_power_cut():
    # (issue 20) The board loses track after e3xf4 was made and takes the capture back: that
    # is saved at once, so a power cut right then resumes without e3xf4 (the board then guides
    # the pieces back to the position before it).
    from barragoon.record import parse_record
    rig = SavingRig()
    rig.start_game()
    rig.run("lift e2; wait 270; drop e3; wait 400; lift c8; wait 270; drop c6; wait 400")
    rig.run("lift e3; wait 270; lift f4; wait 270; drop f4; wait 400")
    assert "e3xf4" in rig.saved
    rig.run("lift b1; lift c1; lift e1; lift f1; lift c2; lift d2; lift b4; lift a5")
    assert rig.ctl.judge.repair and rig.record() == "e2-e3 c8-c6"
    again = Rig()
    again.board[:] = rig.board
    again.ctl.start(again.board, parse_record(rig.saved), rig.duties)
    again.ctl.resume_saved()
    again.advance(0)
    assert again.record() == "e2-e3 c8-c6"


def test_take_back_guides_the_board_back_then_play_goes_on():
    rig = Rig()
    rig.start_game("7/7/7/7/3[A]3/7/7/3D3/6z w 24")
    before = rig.position()
    rig.run("lift d2; lift d5; wait 300; drop d5; wait 350; drop a1; wait 350; press ok")
    assert rig.record() == "d2xd5 a1=X"
    rig.run("hold")
    choose(rig, "Take back turn")
    assert rig.position() == before and isinstance(rig.ctl.top, M.Play)
    assert rig.meaning("d2") == C.TO_FILL and rig.meaning("a1") == C.TO_EMPTY
    assert rig.meaning("d5") == C.TO_EMPTY         # the tile must make way for the Barragoon
    rig.run("lift a1; lift d5; drop d2")
    assert rig.meaning("d5") == C.TO_FILL
    rig.run("drop d5; wait 350")
    assert rig.lit(C.TO_FILL) == [] and rig.lit(C.TO_EMPTY) == []
    rig.run("lift d2; drop d4; wait 350")
    assert rig.record() == "d2-d4"


def test_a_draw_needs_the_other_players_held_ok():
    rig = Rig()
    rig.start_game()
    rig.run("hold")
    choose(rig, "Offer draw")
    assert isinstance(rig.ctl.top, M.Offer)
    rig.run("press ok")                            # a short OK declines
    assert isinstance(rig.ctl.top, M.Play) and not rig.ctl.game.over
    rig.run("hold")
    choose(rig, "Offer draw")
    rig.run("hold")                                # held: accepted
    g = rig.ctl.game
    assert g.over and isinstance(rig.ctl.top, M.Over) and rig.finished == 0
    rig.run("hold")
    choose(rig, "Take back draw")                  # only the agreement goes
    assert not g.over and rig.record() == "" and isinstance(rig.ctl.top, M.Play)
    rig.run("hold")
    choose(rig, "Offer draw")
    rig.run("hold; press ok")                      # agreed again, then OK: new game
    assert rig.finished == 1 and rig.ctl.game is not g and not rig.ctl.game.over


def test_an_unproven_rule_6b_draw_is_left_to_the_players():
    # Where rule 6b's search ran out of work without finding a capture (Game.unproven, set as
    # test_rules_deadlock.py shows), the board says so on the play screen and the players may
    # agree the draw through the menu's offer; elsewhere the note is not there.
    from oled_text import Picture
    rig = Rig()
    rig.start_game(ONE_ON_ONE)
    g = rig.ctl.game
    rig.run("wait 100")
    assert not g.unproven and not Picture.from_fb(rig.fb).has("No capture left?")
    g.unproven = True
    rig.ctl.dirty()
    rig.run("wait 100")
    assert Picture.from_fb(rig.fb).has("No capture left?")
    rig.run("hold")
    choose(rig, "Offer draw")
    rig.run("hold")                                # the other player holds OK: agreed
    assert g.over and g.reason == "draw agreed" and isinstance(rig.ctl.top, M.Over)


def test_the_end_of_the_game_shows_the_winner():
    rig = Rig()
    rig.start_game("7/7/7/7/3z3/7/7/3D3/7 w 24")
    rig.run("lift d2; lift d5; wait 300; drop d5; wait 350")
    assert isinstance(rig.ctl.top, M.Over) and rig.ctl.game.winner == WHITE
    assert rig.meaning("d5") == C.WIN and rig.finished == 0
    assert rig.ink() > 100
    rig.run("press ok")
    assert rig.finished == 1


def test_leaving_brightness_returns_exactly_where_the_players_were():
    settings = []
    # from the face picker
    rig = Rig()
    rig.ctl.on_settings = lambda b, p, lang: settings.append((b, p))
    rig.start_game("7/7/7/7/3z3/7/7/3D3/6z w 24")
    rig.run("lift d2; lift d5; wait 300; drop d5; wait 350; drop b3; wait 350; press down")
    place = rig.ctl.top
    rig.run("hold")
    choose(rig, "Brightness")
    b = rig.ctl.brightness
    rig.run("press up; press up; press up")
    assert rig.ctl.brightness == b + 15 and settings == []      # live, not written yet
    rig.run("press ok")
    assert settings == [(b + 15, 0)]                           # written once, on leaving
    rig.run("hold")
    assert rig.ctl.top is place and rig.ctl.face == 2
    # from the set-up of a new game
    rig = Rig()
    rig.ctl.start(bytearray(63), None)
    rig.run("hold")
    choose(rig, "Brightness")
    rig.run("press ok; hold")
    assert isinstance(rig.ctl.top, M.Setup)
    # from a finished game
    rig = Rig()
    rig.start_game("7/7/7/7/3z3/7/7/3D3/7 w 24")
    rig.run("lift d2; lift d5; wait 300; drop d5; wait 350; hold")
    choose(rig, "Brightness")
    rig.run("press ok; hold")
    assert isinstance(rig.ctl.top, M.Over)


def test_menu_items_are_listed_only_when_they_can_work():
    rig = Rig()
    rig.start_game()
    rig.run("hold")
    items = rig.ctl.top.items
    assert "Take back turn" not in items and "Offer draw" in items
    assert not [i for i in items if "rep." in i]
    rig.run("hold; lift d2; drop d5; wait 350; hold")
    assert "Take back turn" in rig.ctl.top.items


def test_a_short_ok_does_not_open_the_menu():
    rig = Rig()
    rig.start_game()
    rig.run("press ok")
    assert isinstance(rig.ctl.top, M.Play) and "Hold OK" in rig.ctl.hint


def test_the_repetition_draw_is_offered_to_the_player_who_completed_the_block():
    rig = Rig()
    rig.start_game("4v1v/7/7/7/7/7/7/7/V6 w 24")
    g = rig.ctl.game
    for i in range(3):
        rig.run("lift a1; drop a4; wait 350; wait 2000; lift g9; drop g6; wait 350; wait 2000")
        rig.run("lift a4; drop a1; wait 350; wait 2000; lift g6; drop g9; wait 350; wait 2000")
    assert g.repetition
    rig.run("hold")
    choose(rig, "Brown: draw (rep.)")
    assert g.offered and isinstance(rig.ctl.top, M.Offer)
    rig.run("press ok")                            # White declines
    assert not g.offered and not g.over and isinstance(rig.ctl.top, M.Play)
    assert rig.record().endswith("g6-g9 (offer) (decline)")


def test_a_placement_the_rules_refuse_is_shown_and_the_picker_stays():
    rig = Rig()
    g = rig.start_game("7/7/7/7/3z3/7/7/3D3/6z w 24")
    rig.run("lift d2; lift d5; wait 300; drop d5; wait 350; drop b3; wait 350")
    real = g.place
    calls = []

    def refuse(s, face):
        calls.append(face)
        if len(calls) == 1:
            raise RulesError("b3=X repeats: deviate")
        return real(s, face)
    g.place = refuse
    rig.run("press ok")
    assert isinstance(rig.ctl.top, M.Place) and "repeats" in rig.ctl.hint
    assert rig.ctl.alert == 1 and rig.record() == "d2xd5"
    rig.run("press down; press ok")
    assert rig.record() == "d2xd5 b3=1N"


def test_the_face_picker_offers_no_capture_where_the_tile_put_back_looks_the_same():
    # The attacker and its victim both lifted, then set down again: the capture with Brown's
    # Barragoon on d2 fits the sensors as well as both put back. No question first: the
    # capture goes on to the face picker of that Barragoon, which offers "no capture" one UP
    # from the first face; a lift withdraws the offer, the next rest makes it again.
    rig = Rig()
    rig.start_game(TWO_BROWN)
    rig.run("lift d2; wait 300; lift d5; wait 300; drop d5; wait 400; drop d2; wait 400")
    j = rig.ctl.judge
    assert isinstance(rig.ctl.top, M.Place) and j.places.sq == sq("d2") and j.alt >= 0
    assert rig.record() == "d2xd5"
    rig.run("lift g1")                             # the board changes: the offer goes
    assert j.alt < 0
    rig.run("drop g1; wait 350")
    assert isinstance(rig.ctl.top, M.Place) and j.alt >= 0
    rig.run("press down; press up; press up")      # (face 2, 1, then "no capture")
    assert rig.ctl.face == 0 and rig.record() == "d2xd5"
    rig.run("press ok")
    assert rig.record() == "" and rig.ctl.judge.duty_text() == "d2 d5"
    assert isinstance(rig.ctl.top, M.Play) and rig.ctl.face == 1


def test_no_capture_chosen_then_the_board_changes_goes_back_to_the_first_face():
    # "No capture" selected but not confirmed, then a lift: the offer is gone, and with it
    # that choice (the picker shows face 1 again, and OK places that face, not no capture).
    rig = Rig()
    rig.start_game(TWO_BROWN)
    rig.run("lift d2; wait 300; lift d5; wait 300; drop d5; wait 400; drop d2; wait 400")
    rig.run("press up")
    assert rig.ctl.face == 0
    rig.run("lift g1")
    assert rig.ctl.judge.alt < 0 and rig.ctl.face == 1
    rig.run("drop g1; wait 350; press ok")
    assert rig.record() == "d2xd5 d2=X"

def test_no_capture_is_no_face_where_the_board_did_not_offer_it():
    # A capture's Barragoon elsewhere: UP from the first face goes round to the last.
    rig = Rig()
    rig.start_game(TWO_BROWN)
    rig.run("lift d2; wait 300; lift d5; wait 300; drop d5; wait 400; drop e4; wait 400")
    assert isinstance(rig.ctl.top, M.Place) and rig.ctl.judge.alt < 0
    rig.run("press up")
    assert rig.ctl.face == 16


def test_sensor_and_led_test_views_and_pieces_moved_meanwhile_are_repaired():
    rig = Rig()
    rig.start_game()
    rig.run("hold")
    choose(rig, "Sensor test")
    assert len(rig.lit(C.SENSED)) == 22
    rig.run("lift d2; drop d5; wait 400")          # testing the sensors: no move
    assert rig.lit(C.SENSED).count("d5") == 1 and rig.record() == ""
    rig.run("press ok")
    assert isinstance(rig.ctl.top, M.Menu)
    rig.run("hold")
    assert rig.record() == "" and rig.ctl.judge.repair
    assert rig.meaning("d2") == C.TO_FILL and rig.meaning("d5") == C.TO_EMPTY
    rig.run("lift d5; drop d2; wait 350; hold")
    choose(rig, "LED test")
    assert len(rig.lit(C.TEST_R)) == 63
    rig.run("press down")
    assert len(rig.lit(C.TEST_G)) == 63
    rig.run("wait 2050")
    assert len(rig.lit(C.TEST_W)) == 63
    rig.run("wait 1000")
    walk = []
    for i in range(12):
        walk += rig.lit(C.TEST_W)
        rig.run("wait 120")
    order = []
    for name in walk:
        if name not in order:
            order.append(name)
    assert order[:3] == ["a1", "b1", "c1"] and len(order) >= 8
    rig.run("press ok; hold")
    assert isinstance(rig.ctl.top, M.Play) and not rig.ctl.judge.repair


def test_a_capture_at_any_speed_is_a_capture():
    # Time ranks the stories, it never deletes one. The attacker landing 20 ms after its
    # victim left (a push-off), or the victim taken first and the attacker landing on it as
    # fast as a hand carries it: the capture is likelier than the victim put back, and it is
    # made at rest without a question. A Barragoon set down at once after it is the
    # placement, not the tile moving on.
    rig = Rig()
    rig.start_game(TWO_BROWN)
    rig.run("lift d2; wait 300; lift d5; wait 20; drop d5; wait 350")
    assert rig.record() == "d2xd5"
    rig = Rig()
    rig.start_game(TWO_BROWN)
    rig.run("lift d5; wait 40; lift d2; wait 70; drop d5; wait 5; drop d3; wait 350")
    assert rig.record() == "d2xd5" and isinstance(rig.ctl.top, M.Place)
    assert rig.ctl.judge.places.sq == sq("d3")
    rig.run("press ok")
    assert rig.record() == "d2xd5 d3=X"


def test_events_allocate_at_most_a_move_record():
    # Heap per event (issue 11: at most 256 B), loop step by loop step as on the board: a lift
    # with its hints, the touch it becomes, the rest with the tile in the hand, a set-down in
    # transit and the one on the target: judging and the LED frame allocate nothing, except
    # in the steps that save (the duty at rest, the move: its text and the rules core's
    # record of the move, not counting the storage's own work) and the step after the commit
    # (at rest: preparing the opponent's turn, the rules core's list of legal moves, and rule
    # 6b's decision object: its floods share one set of buffers, and here no search is needed).
    # A new screen costs its texts. (The unix port is 64-bit: the RP2040 needs about half.)
    import gc
    rig = Rig()
    rig.start_game()
    rig.advance(10)
    ctl = rig.ctl
    events = {0: (10, 0), 700: (17, 1), 740: (17, 0), 780: (24, 1)}   # d2 up, over d3, on d4
    judged, shown, saved = [], [], []
    for step in range(0, 1200, 5):
        saves = rig.saves
        gc.collect()
        h = gc.mem_alloc()
        if step in events:
            sq_, present = events[step]
            rig.board[sq_] = present
            ctl.on_square(sq_, present, rig.t)
        ctl.tick(rig.t)
        ctl.render(rig.t, 1)
        judged.append(gc.mem_alloc() - h)
        if rig.saves != saves:
            saved.append(len(judged) - 1)
        h = gc.mem_alloc()
        ctl.render(rig.t, 2)
        shown.append(gc.mem_alloc() - h)
        rig.t += 5
    assert rig.record() == "d2-d4"
    commit = (780 + 300) // 5                      # still for the settle time
    g = ctl.game
    gc.collect()
    h = gc.mem_alloc()
    g.legal_moves()
    moves_list = gc.mem_alloc() - h
    fresh = Game()                                 # (an undo would leave room in the array)
    gc.collect()
    h = gc.mem_alloc()
    fresh.move(10, 24)                             # what the rules core keeps for d2-d4
    move_record = gc.mem_alloc() - h
    from barragoon.deadlock import Decision
    gc.collect()
    h = gc.mem_alloc()
    assert Decision(g.pos, g.stages).finish() != 1 # (not DEAD)
    decision = gc.mem_alloc() - h
    assert saved == [300 // 5, commit]             # the duty (d2 must move), the move
    assert [(i * 5, g) for i, g in enumerate(judged)
            if g and i not in saved and i != commit + 1] == [], judged
    assert judged[saved[0]] <= 256 and judged[commit] <= min(move_record, 256), judged
    assert judged[commit + 1] <= moves_list + decision, (judged, moves_list, decision)
    assert max(shown) <= 256, shown


# Found by test_controller_property: hands busy out of turn with spare Barragoons. In the end
# every square holds a piece as at the turn start, but the story of each piece back on its own
# square had been dropped as less likely: the board asked for a5's piece to be lifted and put
# back over and over. Now it guides the pieces back square by square, which always ends.
TANGLE = ("1000:-b1 1300:+a3 1700:hold 1730:hold 1760:hold 1790:hold 1820:hold 1850:hold "
          "1880:hold 1910:-c1 1910:hold 1940:hold 1970:hold 2000:hold 2030:hold 2060:up "
          "2090:up 2120:+g2 2150:-a5 2160:+a6 2190:+b5 2220:hold 2250:hold 2280:hold "
          "2310:hold 2340:+f3 2370:-f9 2370:hold 2400:+c1 2430:hold 2460:-g2 2490:-f3 "
          "2520:-b5 2550:-a6 2580:+a5 2610:+f9")


def test_a_tile_held_across_the_end_of_a_turn_still_belongs_on_its_square():
    # (found by the random-hands fuzz) A stray piece on a1 keeps c8-c6 from counting as done;
    # White lifts d5 (and the stray), the turn closes at a later set-down while the tile is
    # in the hand, last lifted from b5 where it was set down for a moment. It still belongs
    # on d5: put back there, the board matches again (before: "wrong piece on d5" for ever).
    rig = Rig()
    rig.start_game()
    for ev in ("1060:-d2 1360:+d5 1760:-c8 2060:+c6 2460:+a1 2550:-d5 2550:-a1 2700:-c5 "
               "2710:+b5 2740:-b5 2770:+c5 2800:+d5").split():
        t, what = ev.split(":")
        rig.advance(int(t) - rig.t)
        rig.put(sq(what[1:]), 1 if what[0] == "+" else 0)
    rig.run("wait 500")
    assert rig.record() == "d2-d5 c8-c6" and rig.ctl.game.pos.side == WHITE
    assert rig.lit(C.TO_EMPTY) == [] and rig.lit(C.TO_FILL) == [] and rig.lit(C.ERROR) == []


def test_a_stray_piece_jiggled_is_the_same_stray():
    # (found by the random-hands fuzz) After d5-b5 a spare piece is set on a1, jiggled (off
    # and on within a millisecond) and taken away. The spare coming back is the likeliest
    # story (not Brown's tile moved from b5 to a1 with another spare on b5): once it is gone
    # the board matches again.
    rig = Rig()
    rig.start_game(CAP)
    for ev in "1000:-d2 1300:+b1 1700:-d5 2000:+b5 2490:+a1 2520:-a1 2521:+a1 2551:-a1".split():
        t, what = ev.split(":")
        rig.advance(int(t) - rig.t)
        rig.put(sq(what[1:]), 1 if what[0] == "+" else 0)
    rig.run("wait 500")
    assert rig.record() == "d2-b1 d5-b5"
    assert rig.lit(C.ORIGIN) == [] and rig.lit(C.TO_EMPTY) == [] and rig.lit(C.TO_FILL) == []


def test_pieces_in_place_that_no_story_explains_are_guided_back_not_asked_for_for_ever():
    rig = Rig()
    rig.start_game()
    for ev in TANGLE.split():
        t, what = ev.split(":")
        if int(t) > rig.t:
            rig.advance(int(t) - rig.t)
        if what == "hold":
            rig.run("hold")
        elif what == "up":
            rig.run("press up")
        else:
            rig.put(sq(what[1:]), 1 if what[0] == "+" else 0)
    rig.run("wait 500")
    j = rig.ctl.judge
    assert isinstance(rig.ctl.top, M.Play) and rig.lit(C.TO_EMPTY), (rig.lit(C.TO_EMPTY), j.view.note)
    for i in range(4):                               # each marked piece lifted, the right
        for name in rig.lit(C.TO_EMPTY):             # one put back, as the board asks
            rig.run("lift %s; wait 300; drop %s" % (name, name))
        rig.run("wait 400")
        if not rig.lit(C.TO_EMPTY):
            break
    assert not j.repair and rig.lit(C.TO_EMPTY) == [] and rig.lit(C.TO_FILL) == []
    assert rig.record() == "b1-a3"
    if isinstance(rig.ctl.top, M.Ask):               # each piece back, but which is which:
        assert j.ask_label(0) == "b1-a3"             # once, the move as made preselected
        rig.run("press ok; wait 400")
    assert not isinstance(rig.ctl.top, M.Ask)
    rig.run("lift d8; wait 60; drop d6; wait 350")
    assert rig.record() == "b1-a3 d8-d6"


def test_a_draw_only_rule_6bs_search_finds_ends_the_game_in_later_loop_steps():
    # Issue 24: after White's f2-g2 both sides can still move but nothing can ever be captured;
    # only the search proves it. It runs a slice per loop step (here one unit of work each),
    # the board stays live meanwhile, and the draw ends the game and is saved.
    import controller.controller as CC
    rig = Rig()
    rig.start_game("7/7/7/7/[A][A][A][A][A][A][A]/[A][A][A][A][A][A][A]/[A][A][A]2[A][A]/"
                   "Z[A][A][A][A]Z1/[A][A][A]zz[A][A] w 0")
    budget = CC.DECIDE_MS
    CC.DECIDE_MS = 0
    try:
        rig.run("lift f2; drop g2")
        steps = over = 0
        while rig.record() == "" and steps < 200:
            rig.advance(5)
            steps += 1
        assert rig.record() == "f2-g2"
        saves = rig.saves
        while not isinstance(rig.ctl.top, M.Over) and over < 100:
            assert rig.ctl.game.deciding and rig.lit(C.ORIGIN) == []
            rig.advance(5)
            over += 1
    finally:
        CC.DECIDE_MS = budget
    g = rig.ctl.game
    assert 2 <= over < 100 and g.over and g.reason == "no capture possible"
    assert rig.meaning("g2") == C.DRAW and rig.meaning("d1") == C.DRAW
    assert rig.saves == saves + 1                       # the draw is saved, once
    rig.run("wait 500")
    assert rig.saves == saves + 1 and rig.finished == 0


def test_a_brightness_change_is_saved_when_its_screen_is_dropped_with_the_game():
    # The Brightness screen writes the setting when it is left; a flag fall (a new base of
    # the mode stack) drops it with everything on the stack: the new value is saved then.
    from controller import clock as CK
    settings = []
    rig = Rig()
    rig.ctl.on_settings = lambda b, p, lang: settings.append((b, p))
    game = rig.start_game()
    ck = CK.from_choice(1, 0)
    ck.sync(game)
    rig.ctl.clock = ck
    rig.run("wait 20")
    ck.set_ms(0, 800)                              # White's clock almost out
    rig.run("hold")
    choose(rig, "Brightness")
    b = rig.ctl.brightness
    rig.run("press up; press up")
    assert settings == [] and rig.ctl.brightness == b + 10
    rig.run("wait 1000")                           # the flag falls: game over
    assert game.over and isinstance(rig.ctl.top, M.Over)
    assert settings == [(b + 10, 0)]
    rig.run("hold")                                # and once only
    choose(rig, "Brightness")
    rig.run("press ok")
    assert settings == [(b + 10, 0)]


def _long_finished_game(actions=240):
    g = Game()
    k = 4242
    while len(g.actions) < actions and not g.over:
        k = (k * 1103515245 + 12345) & 0x3FFFFFFF
        if g.placing() >= 0:
            sqs = [s for s in range(63) if not g.pos.get(s)]
            g.place(sqs[k % len(sqs)], 1 + k % 16)
        else:
            moves = g.legal_moves()
            m = moves[(k >> 5) % len(moves)]
            g.move(m // 64, m % 64)
    if not g.over:
        g.agree_draw()
    return g


def test_a_menu_refresh_allocates_little_at_the_end_of_a_long_game():
    # The game menu of a finished game asks whether the end was an agreed draw, for its
    # take-back item: read from the Outcome, not by formatting every turn of the record
    # (26.5 KB of garbage per call at 241 actions on the unix port, 2-3 calls per refresh).
    import gc
    rig = Rig()
    g = _long_finished_game()
    assert g.over and len(g.actions) > 200
    for s in range(63):
        rig.board[s] = 1 if g.pos.get(s) else 0
    rig.ctl.start(rig.board)
    rig.ctl.begin(g)
    rig.advance(10)
    assert isinstance(rig.ctl.top, M.Over)
    from controller import menus                     # (loaded: not counted)
    gc.collect()
    h = gc.mem_alloc()
    rig.ctl.open_menu()
    grown = gc.mem_alloc() - h
    assert "Take back draw" in rig.ctl.top.items and grown <= 1024, grown
    assert menus is not None


def test_leds_with_no_mode_drawing_them_allocate_nothing():
    # The saved-game question at power-on draws no LEDs: the frame is all dark, made
    # without a new 63-byte buffer each time.
    import gc
    rig = Rig()
    g = Game()
    g.move(10, 31)
    rig.ctl.start(rig.board, g)
    rig.advance(10)
    assert isinstance(rig.ctl.top, M.Menu)
    for i in range(3):
        rig.ctl.dirty()
        gc.collect()
        h = gc.mem_alloc()
        rig.ctl.render(rig.t, 1)
        assert gc.mem_alloc() - h == 0
    assert not any(rig.ctl.meaning)


def test_a_barragoon_lifted_first_right_after_the_opponents_move_shows_its_capturers():
    # Found by the simulator's browser test once issue 18's judge landed: Brown's d8-d6 stood
    # (Brown may still slide on), White lifted the Barragoon on b4 to capture it with d5, and
    # the board said "Put back b4". A Barragoon that the moved tile could not have taken
    # instead, and that White can capture, is White starting a capture: Brown's turn closes
    # and d5 lights as the tile that can take it.
    rig = Rig()
    rig.start_game()
    rig.run("lift d2; wait 300; drop d5; wait 800; lift d8; wait 300; drop d6; wait 1000; "
            "lift b4; wait 500")
    assert rig.lit(C.CAPTURER) == ["d5"] and rig.record() == "d2-d5 d8-d6"
    rig.run("lift d5; wait 300; drop b4; wait 500")
    assert rig.record() == "d2-d5 d8-d6 d5xb4"


def test_the_second_barragoon_already_standing_gets_its_picker_at_once_after_the_first_ok():
    # The second Barragoon of a tile capture set down just before the first face is confirmed:
    # after OK the picker moves on to it at once, not after another settle time.
    rig = Rig()
    rig.start_game("6z/7/7/7/3z3/7/7/[X]2D3/7 w 24")
    rig.run("lift d2; wait 300; lift d5; wait 300; drop d5; wait 350; drop b3; wait 350")
    assert isinstance(rig.ctl.top, M.Place) and rig.ctl.judge.places.sq == sq("b3")
    rig.run("drop f6; wait 40; press ok; wait 20")
    assert rig.ctl.game.placing() == WHITE
    assert isinstance(rig.ctl.top, M.Place) and rig.ctl.judge.places.sq == sq("f6")
