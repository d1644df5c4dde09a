# The board controller in the players' hands: lifting, hints, captures in either order,
# placements with the face picker, touch-move, illegal set-downs, slides, desync, set-up,
# the menu (take-back, draws), and the end of the game.
from ctl_script import Rig
from barragoon.core import WHITE, BROWN
from barragoon.notation import parse_face
from controller import colours as C
from controller.controller import M_PLAY, M_PICK, M_OVER, M_SETUP, M_MENU, M_ASK

RUNTIMES = ("cpython", "micropython")

START = "1vd1dv1/2zdz2/7/1[X]3[X]1/[X]1[X]1[X]1[X]/1[X]3[X]1/7/2ZDZ2/1VD1DV1 w 24"


def choose(rig, label):
    ctl = rig.ctl
    for i in range(len(ctl.menu_items)):
        if ctl.menu_items[ctl.menu_sel] == label:
            rig.run("press ok")
            return
        rig.run("press down")
    raise AssertionError("no menu item %r in %r" % (label, ctl.menu_items))


def test_lift_lights_targets_and_origin():
    rig = Rig()
    rig.start_game()
    rig.run("lift d2")
    assert rig.colour("d2") == C.ORIGIN
    assert rig.lit(C.MOVE) == ["b3", "c3", "c4", "d4", "d5", "e3", "e4", "f3"]
    rig.run("drop d5; wait 350")
    assert rig.ctl.game.pos.side == BROWN
    assert rig.ctl.game.last_turn_text() == "d2-d5"
    assert rig.lit(C.MOVE) == [] and rig.lit(C.ORIGIN) == []
    assert rig.commits == 1


def test_capture_colours_and_own_tile_first_capture_with_placements():
    rig = Rig()
    rig.start_game("6z/7/7/7/3z3/7/7/[X]2D3/7 w 24")
    rig.run("lift d2")
    assert rig.colour("d5") == C.CAPTURE_TILE and rig.colour("a2") == C.CAPTURE_BARRAGOON
    rig.run("lift d5")                      # the victim, then set the capturer down
    assert rig.lit(C.MOVE) == []            # once the victim is lifted it must be taken
    rig.run("drop d5; wait 350")
    g = rig.ctl.game
    assert g.last_turn_text() == "d2xd5" and g.placing() == BROWN
    rig.run("drop b3; wait 350")
    assert rig.ctl.mode == M_PICK and rig.colour("b3") == C.PLACE
    rig.run("press down; press down; press ok")   # X -> 1N -> 1E
    assert g.placing() == WHITE and g.pos.get(rig_sq("b3")) == parse_face("1E")
    rig.run("lift d5")                      # no tile may move before both placements
    assert rig.colour("d5") == C.TO_FILL and rig.ctl.play.held < 0
    rig.run("drop d5; drop f6; wait 350; press ok")
    assert g.last_turn_text() == "d2xd5 b3=1E f6=X" and g.pos.side == BROWN


def rig_sq(name):
    from barragoon.notation import parse_square
    return parse_square(name)


def test_victim_first_lights_capturers_then_capture():
    rig = Rig()
    rig.start_game("7/7/7/7/3z3/7/7/3D1Z1/7 w 24")
    rig.run("lift d5")
    assert rig.colour("d5") == C.CAPTURE_TILE
    assert rig.lit(C.CAPTURER) == ["d2"]
    rig.run("lift f2")                      # cannot capture d5: refused, put it back
    assert rig.colour("f2") == C.TO_FILL
    rig.run("drop f2; lift d2; drop d5; wait 350")
    assert rig.ctl.game.last_turn_text() == "d2xd5"


def test_barragoon_capture_mover_places_it_again():
    rig = Rig()
    rig.start_game("7/7/7/7/3[A]3/7/7/3D3/6z w 24")
    rig.run("lift d2; lift d5; drop d5; wait 350")
    g = rig.ctl.game
    assert g.placing() == WHITE and g.pos.supply == 24
    rig.run("drop a1; wait 350")
    for i in range(15):                     # X .. A: the last face state
        rig.run("press down")
    rig.run("press ok")
    assert g.last_turn_text() == "d2xd5 a1=A" and g.pos.side == BROWN


def test_touch_move_put_back_tile_must_move():
    rig = Rig()
    rig.start_game()
    rig.run("lift c2; drop c2")
    assert rig.ctl.play.touched == rig_sq("c2")
    rig.run("lift e2")                      # another tile: refused
    assert rig.colour("e2") == C.TO_FILL and "c2" in rig.ctl.play.note
    rig.run("drop e2; lift c2; drop c4; wait 350")
    assert rig.ctl.game.last_turn_text() == "c2-c4"


def test_tile_without_target_may_be_put_back():
    rig = Rig()
    rig.start_game()
    rig.run("lift c1")                      # blocked in at the start
    assert rig.lit(C.MOVE) == [] and "can't move" in rig.ctl.play.note
    rig.run("drop c1; lift d2; drop d4; wait 350")
    assert rig.ctl.game.last_turn_text() == "d2-d4"


def test_touched_victim_must_be_captured():
    rig = Rig()
    rig.start_game("7/7/7/7/3z3/7/7/3D1Z1/7 w 24")
    rig.run("lift d5; drop d5")
    assert rig.ctl.play.must_capture == rig_sq("d5")
    rig.run("lift f2")
    assert rig.colour("f2") == C.TO_FILL and rig.ctl.play.held < 0
    rig.run("drop f2; lift d2; lift d5; drop d5; wait 350")
    assert rig.ctl.game.last_turn_text() == "d2xd5"


def test_touched_tile_then_victim_it_cannot_take_leaves_no_deadlock():
    # f2 is touched (must move); d5 is then touched but only d2 could take it: the first
    # obligation stands, the second does not arise, and f2 can still move.
    rig = Rig()
    rig.start_game("7/7/7/7/3z3/7/7/3D1Z1/6z w 24")
    rig.run("lift f2; drop f2; lift d5; drop d5")
    assert rig.ctl.play.touched == rig_sq("f2") and rig.ctl.play.must_capture < 0
    rig.run("lift f2; drop f4; wait 350")
    assert rig.ctl.game.last_turn_text() == "f2-f4"


def test_opponent_piece_that_cannot_be_captured_may_be_put_back():
    rig = Rig()
    rig.start_game()
    rig.run("lift d8; drop d8")
    assert rig.ctl.play.must_capture < 0
    rig.run("lift d2; drop d5; wait 350")
    assert rig.ctl.game.last_turn_text() == "d2-d5"


def test_illegal_set_down_flashes_red_and_commits_nothing():
    rig = Rig()
    rig.start_game()
    rig.run("lift d2; drop d3; wait 400")
    assert len(rig.ctl.game.actions) == 0
    assert rig.ctl.play.error_sq == rig_sq("d3") and "no target" in rig.ctl.play.note
    seen = set()
    for i in range(4):
        rig.run("wait 130")
        seen.add(rig.colour("d3"))
    assert C.ERROR in seen and C.OFF in seen        # flashing
    rig.run("lift d3; drop d5; wait 350")
    assert rig.ctl.game.last_turn_text() == "d2-d5"


def test_slides_and_hovering_commit_only_where_the_tile_rests():
    rig = Rig()
    rig.start_game()
    # Slide d2 up the file: passes d3 (no target) and d4 (a target) quickly, rests on d5.
    rig.run("lift d2; drop d3; lift d3; drop d4; wait 200; lift d4; drop d5")
    assert len(rig.ctl.game.actions) == 0
    rig.run("wait 350")
    assert rig.ctl.game.last_turn_text() == "d2-d5"


def test_desync_extra_piece_and_knocked_piece():
    rig = Rig()
    rig.start_game()
    rig.run("drop e4")                      # a piece put down by mistake
    assert rig.colour("e4") == C.TO_EMPTY
    rig.run("lift e4")
    assert rig.lit(C.TO_EMPTY) == []
    rig.run("lift d2; drop d5; wait 350")    # play resumed
    assert rig.ctl.game.last_turn_text() == "d2-d5"


def test_power_on_with_saved_game_guides_the_board_back():
    from barragoon.game import Game
    saved = Game()
    saved.move(rig_sq("d2"), rig_sq("d5"))
    rig = Rig()
    rig.ctl.start(bytearray(63), saved)     # the board is empty at power-on
    assert rig.ctl.mode == M_MENU and rig.ctl.menu_items[0] == "Resume game"
    rig.run("press ok")
    assert rig.ctl.mode == M_PLAY
    assert len(rig.lit(C.TO_FILL)) == 22 and rig.colour("d5") == C.TO_FILL
    for sq in range(63):
        if saved.pos.get(sq):
            rig.board[sq] = 1
            rig.ctl.on_square(sq, 1, rig.t)
    rig.advance(50)
    assert rig.lit(C.TO_FILL) == []
    rig.run("lift d8; drop d6; wait 350")
    assert saved.last_turn_text() == "d8-d6"


def test_setup_guides_square_by_square_then_play():
    rig = Rig()
    rig.ctl.start(bytearray(63), None)
    assert rig.ctl.mode == M_MENU
    choose(rig, "Set up board")
    assert rig.ctl.mode == M_SETUP
    assert rig.lit(C.PLACE) == ["b1"] and len(rig.lit(C.HINT)) == 21
    from barragoon.game import start_position
    pos = start_position()
    order = []
    for i in range(22):
        nxt = rig.lit(C.PLACE)
        assert len(nxt) == 1
        order.append(nxt[0])
        rig.run("drop " + nxt[0])
    assert rig.ctl.mode == M_PLAY
    assert all(pos.get(rig_sq(n)) for n in order)
    assert order[:3] == ["b1", "c1", "e1"] and order[-1] == "f6"


def test_take_back_guides_restoring_previous_position():
    rig = Rig()
    rig.start_game("7/7/7/7/3[A]3/7/7/3D3/6z w 24")
    before = rig.position()
    rig.run("lift d2; lift d5; drop d5; wait 350; drop a1; wait 350; press ok")
    assert rig.ctl.game.pos.side == BROWN
    rig.run("press back")
    choose(rig, "Take back turn")
    assert rig.position() == before
    assert rig.colour("d2") == C.TO_FILL and rig.colour("a1") == C.TO_EMPTY
    assert rig.colour("d5") == C.TO_EMPTY    # the tile must make way for the Barragoon
    rig.run("lift a1; lift d5; drop d2")
    assert rig.colour("d5") == C.TO_FILL
    rig.run("drop d5")
    assert rig.lit(C.TO_FILL) == [] and rig.lit(C.TO_EMPTY) == []
    rig.run("lift d2; drop d3; lift d3; drop d4; wait 350")
    assert rig.ctl.game.last_turn_text() == "d2-d4"


def test_draw_by_agreement_from_menu():
    rig = Rig()
    rig.start_game()
    rig.run("press back")
    choose(rig, "Offer draw")
    assert rig.ctl.mode == M_ASK
    rig.run("press back")                   # declined: play on
    assert rig.ctl.mode == M_PLAY and not rig.ctl.game.over
    rig.run("press back")
    choose(rig, "Offer draw")
    rig.run("press ok")
    assert rig.ctl.game.over and rig.ctl.mode == M_OVER and rig.finished == 1


def test_game_end_shows_winner():
    rig = Rig()
    rig.start_game("7/7/7/7/3z3/7/7/3D3/7 w 24")
    rig.run("lift d2; lift d5; drop d5; wait 350")
    assert rig.ctl.mode == M_OVER and rig.ctl.game.winner == WHITE
    assert rig.colour("d5") == C.WIN and rig.finished == 1
    assert rig.ink(0, 0, 128, 64) > 100


def test_face_picker_screen_changes_with_face():
    rig = Rig()
    rig.start_game("7/7/7/7/3[X]3/7/7/3D3/6z w 24")
    rig.run("lift d2; lift d5; drop d5; wait 350; drop a1; wait 350")
    assert rig.ctl.mode == M_PICK
    first = bytes(rig.buf)
    rig.run("press down")
    assert bytes(rig.buf) != first
    rig.run("lift a1")                      # picked up again: back to waiting
    assert rig.ctl.mode == M_PLAY and rig.ctl.game.placing() == WHITE


def test_brightness_menu_changes_brightness():
    rig = Rig()
    rig.start_game()
    b = rig.ctl.brightness
    rig.run("press back")
    choose(rig, "Brightness")
    rig.run("press up; press up; press ok")
    assert rig.ctl.brightness == b + 10 and rig.ctl.mode == M_PLAY


def test_sensor_test_and_led_test_views():
    rig = Rig()
    rig.start_game()
    rig.run("press back")
    choose(rig, "Sensor test")
    assert len(rig.lit(C.SENSED)) == 22
    rig.run("press ok; press back")
    choose(rig, "LED test")
    assert len(rig.lit(C.TEST_CYCLE[0])) == 63
    rig.run("press down")
    assert len(rig.lit(C.TEST_CYCLE[1])) == 63
    rig.run("wait 2050")                      # a second of blue, a second of white ...
    assert len(rig.lit(C.TEST_CYCLE[3])) == 63
    rig.run("wait 1000")                      # ... then one light walks in square order
    walk = []
    for i in range(12):
        walk += rig.lit(C.PLACE)
        rig.run("wait 120")
    order = []
    for name in walk:
        if name not in order:
            order.append(name)
    assert order[:3] == ["a1", "b1", "c1"] and len(order) >= 8
    rig.run("press ok")
    assert rig.ctl.mode == M_PLAY
