# Playing against the board (controller/opponent.py), as event scripts through the controller:
# the New-game options, the board's turn (thinking, its move shown and carried out, verified by
# the sensors: only its move commits), its placements confirmed with OK, a wrong piece, the
# player's placement after capturing one of its tiles, take-back to the player's own turn, the
# hint for a move and for a placement, the board's own draw offers, a game with a clock against
# the board (the whole firmware), and the opponent saved with the game. The engine works by
# steps here (opponent.LIMIT), the same on every machine, so the board's choices are fixed.
from toolkit.ctl_script import Rig
from barragoon.game import Game
from barragoon.notation import parse_face, square_name, format_placement
from barragoon.core import FACES
from controller import colours as C
from controller import modes as M
from controller import opponent as OP
import storage as S
from test_controller import choose, sq

RUNTIMES = ("cpython", "micropython")

OP.LIMIT = (0, 60)                         # 60 engine steps a search: a fixed, quick answer
OP.SLICE_MS = 0                            # one step per loop step: thinking takes the same
                                           # (simulated) time on every machine

BARRAGOON_CAPTURE = "7/7/7/7/3z3/7/3[X]3/7/Z6 b 24"    # the board (Brown): d5xd3, then b1=X
WHITE_TAKES_BARRAGOON = "6z/7/7/7/3[X]3/7/7/3D3/7 w 24"  # the player: d2xd5, then places
TILE_CAPTURE = "V6/7/7/7/3z3/7/3D3/7/7 b 24"          # the board: d5xd3; White places first
WHITE_CAPTURES = "6z/7/7/7/3z3/7/7/[X]2D3/7 w 24"     # the player takes d5: Brown places first


class Screen:
    """The framebuffer with a record of the texts drawn on it (what the player reads)."""

    def __init__(self, fb):
        self.fb = fb
        self.texts = []

    def fill(self, c):
        self.texts = []
        self.fb.fill(c)

    def text(self, s, x, y, c=1):
        self.texts.append(s)
        self.fb.text(s, x, y, c)

    def __getattr__(self, name):
        return getattr(self.fb, name)


def vs_rig(position, board_side=1, level=1):
    rig = Rig()
    scr = Screen(rig.fb)
    rig.ctl.fb = scr
    rig.screen = scr
    g = rig.start_game(position)
    g.opponent = OP.tag(board_side, level)
    rig.ctl.begin(g)                               # the same game, now against the board
    rig.advance(0)
    return rig


def shown(rig):
    rig.ctl.screen_dirty = True
    rig.ctl.render(rig.t, 2)
    return " | ".join(rig.screen.texts)


def think(rig, ms=2000):
    rig.advance(ms)
    op = rig.ctl.opponent
    assert not op.thinking and op.plan is not None, "the board did not answer"
    return op.plan


def carry_out(rig, p):
    """The player carries out the board's move p (the victim of a capture first)."""
    frm, to = p.move
    if p.capture:
        rig.put(to, 0)
        rig.advance(300)
    rig.put(frm, 0)
    rig.advance(200)                               # (as long as a hand carries it)
    rig.put(to, 1)
    rig.advance(400)


# --- a new game against the board ----------------------------------------------------------------
def test_new_game_offers_the_board_as_opponent_with_colour_and_strength():
    rig = Rig()
    scr = Screen(rig.fb)
    rig.ctl.fb = scr
    rig.screen = scr
    rig.ctl.start(rig.board)                       # an empty board: set-up of a new game
    rig.run("hold")
    choose(rig, "New game")
    items = rig.ctl.top.items
    assert "Against: player" in items and "Strength 1" not in items
    choose(rig, "Against: player")
    assert "Against: board" in rig.ctl.top.items and "You play White" in rig.ctl.top.items
    choose(rig, "You play White")                  # the board takes White, the player Brown
    choose(rig, "Strength 1")
    choose(rig, "Strength 2")
    assert "Strength 3" in rig.ctl.top.items and "You play Brown" in rig.ctl.top.items
    assert rig.ctl.game.opponent == "White 3"      # saved with the game from the set-up on
    rig.run("press back; press back")
    g = rig.ctl.game
    for s in range(63):                            # the players set the board up
        if g.pos.get(s):
            rig.put(s, 1)
    for i in range(100):                           # still for the settle time: it starts
        rig.advance(5)
        if isinstance(rig.ctl.top, OP.VsPlay):
            break
    assert isinstance(rig.ctl.top, OP.VsPlay) and rig.ctl.opponent.side == 0
    assert rig.ctl.opponent.level == 3
    assert "Thinking..." in shown(rig)             # White moves first: the board thinks
    think(rig)
    assert "Thinking..." not in shown(rig)


def test_a_two_player_game_has_no_opponent_and_no_tag():
    rig = Rig()
    rig.start_game()
    assert rig.ctl.opponent is None and isinstance(rig.ctl.top, M.Play)
    assert not isinstance(rig.ctl.top, OP.VsPlay)
    out = []
    S.game_text(rig.ctl.game, "", out.append)
    assert "[Opponent" not in "".join(out)


# --- the board's move ----------------------------------------------------------------------------
def test_the_board_shows_its_move_and_the_player_carries_it_out():
    rig = vs_rig(None, 1)                          # the standard start; the board is Brown
    assert rig.ctl.opponent.plan is None
    rig.run("lift d2; drop d5; wait 400")
    assert rig.record() == "d2-d5"
    p = think(rig)
    frm, to = p.move
    text = shown(rig)
    assert "Board: Brown" in text and p.text.split()[0] in text
    assert ("Take off %s" % square_name(to) if p.capture else "Move %s" % square_name(frm)) in text
    assert rig.ctl.meaning[frm] == C.DUTY          # lift this tile
    assert rig.ctl.judge.turn.moves == [(frm << 6) + to]   # and only its move can commit
    if p.capture:
        assert rig.ctl.meaning[to] == C.TO_EMPTY   # the victim goes off first
        rig.put(to, 0)
        rig.advance(300)
    else:
        assert rig.ctl.meaning[to] == C.MOVE
    rig.put(frm, 0)
    rig.advance(200)
    assert rig.ctl.meaning[frm] == C.ORIGIN and rig.ctl.meaning[to] in (
        (C.TAKE_TILE, C.TAKE_BARRAGOON) if p.capture else (C.MOVE,))   # a capture looks one
    rig.put(to, 1)
    rig.advance(400)
    assert rig.record() == "d2-d5 " + p.text.split()[0]
    assert rig.ctl.game.turn == 0 and "Board: Brown" not in shown(rig)   # the player's turn


def test_a_record_revised_at_the_same_length_gets_a_new_move_from_the_board():
    # The board found its move for d2-d5; then the record's last action became another move
    # (as when an answer to the board's question tells another story): the same number of
    # actions, another position. The move found for d2-d5 is not shown: the board thinks again.
    rig = vs_rig(None, 1)
    rig.run("lift d2; drop d5; wait 400")
    think(rig)
    op, g = rig.ctl.opponent, rig.ctl.game
    assert op.step(g) == 0
    g.undo()
    other = [m for m in g.legal_moves() if m != (sq("d2") << 6) + sq("d5")][0]
    g.move(other >> 6, other & 63)
    rig.advance(50)
    think(rig)
    assert op.step(g) == 0 and op.last == g.actions[-1]


def test_while_it_thinks_no_tile_of_the_board_may_move_and_the_menu_answers():
    rig = vs_rig(None, 1)
    OP.LIMIT = (0, 100000)                         # a long search: it is still thinking below
    try:
        rig.run("lift d2; drop d5; wait 400")
        assert rig.ctl.opponent.thinking
        rig.run("lift c8; wait 300")               # a brown tile: it cannot move now
        assert rig.ctl.judge.turn.moves == [] and "Thinking..." in shown(rig)
        rig.run("drop c6; wait 400")
        assert rig.record() == "d2-d5" and rig.ctl.meaning[sq("c6")] == C.ERROR
        rig.run("lift c6; drop c8; wait 400")
        rig.run("hold")
        assert isinstance(rig.ctl.top, M.Menu)     # buttons answer while it thinks
        rig.run("press back")
        assert rig.ctl.opponent.thinking
    finally:
        OP.LIMIT = (0, 60)
    rig.ctl.opponent.stop()


def test_the_board_answers_while_the_sensor_test_is_up_and_its_move_then_counts():
    rig = vs_rig(None, 1)
    rig.run("lift d2; drop d5; wait 400")
    assert rig.ctl.opponent.thinking
    rig.run("lift c8; drop c8; wait 400")          # (the player's turn closes: the board's opens)
    rig.run("hold")
    choose(rig, "Sensor test")
    p = think(rig)                                 # it answered meanwhile
    rig.run("press ok; press back; wait 400")
    assert isinstance(rig.ctl.top, OP.VsPlay)
    assert rig.ctl.judge.turn.moves == [(p.move[0] << 6) + p.move[1]]
    carry_out(rig, p)
    assert rig.record() == "d2-d5 " + p.text.split()[0]


def test_a_wrong_move_for_the_board_is_refused_and_guided_back():
    rig = vs_rig(None, 1)
    rig.run("lift d2; drop d5; wait 400")
    p = think(rig)
    frm, to = p.move
    other = None                                   # another legal brown move
    for m in rig.ctl.game.legal_moves():
        if m >> 6 != frm and not rig.ctl.game.pos.get(m & 63):
            other = m
            break
    assert other is not None
    rig.put(other >> 6, 0)
    rig.advance(300)
    assert rig.ctl.judge.view.note_sq == other >> 6     # "can't move: put it back"
    assert "can't move" in shown(rig)
    rig.put(other & 63, 1)
    rig.advance(400)
    assert rig.record() == "d2-d5"                 # not committed: it is not the board's move
    assert rig.ctl.meaning[other & 63] == C.ERROR and rig.ctl.alert
    rig.put(other & 63, 0)
    rig.put(other >> 6, 1)
    rig.advance(400)
    assert rig.ctl.meaning[frm] == C.DUTY          # the board's move is shown again
    carry_out(rig, p)
    assert rig.record().split()[-1] == p.text.split()[0]


# --- placements ----------------------------------------------------------------------------------
def test_the_board_places_the_barragoon_it_took_the_player_confirms():
    rig = vs_rig(BARRAGOON_CAPTURE, 1)
    p = think(rig)
    assert p.text == "d5xd3 b1=X" and p.now == 2
    assert rig.ctl.meaning[sq("d3")] == C.TO_EMPTY and rig.ctl.meaning[sq("d5")] == C.DUTY
    rig.run("lift d3; wait 300; lift d5; drop d3; wait 400")
    g = rig.ctl.game
    assert rig.record() == "d5xd3" and g.placing() == 1
    assert rig.ctl.meaning[sq("b1")] == C.PLACE
    assert "b1" in shown(rig) and "Place as shown" in shown(rig)
    rig.run("drop c1; wait 400")                   # the wrong square
    assert isinstance(rig.ctl.top, OP.BoardPlace)
    assert rig.ctl.meaning[sq("c1")] == C.ERROR and rig.ctl.meaning[sq("b1")] == C.TO_FILL
    rig.run("press ok")
    assert g.placing() == 1 and "Put it on b1" in shown(rig)
    rig.run("press down")                          # the face is the board's
    rig.run("lift c1; drop b1; wait 400")
    assert "Placed? OK" in shown(rig) and rig.ctl.meaning[sq("b1")] == C.PLACE   # right now
    rig.run("press ok")
    assert rig.record() == "d5xd3 b1=X" and g.pos.get(sq("b1")) == parse_face("X")
    assert g.turn == 0 and isinstance(rig.ctl.top, OP.VsPlay)


def test_after_the_board_takes_a_tile_the_player_places_first_then_the_board():
    rig = vs_rig(TILE_CAPTURE, 1)
    p = think(rig)
    assert p.move == (sq("d5"), sq("d3")) and p.capture
    rig.run("lift d3; wait 300; lift d5; drop d3; wait 400")
    g = rig.ctl.game
    assert g.placing() == 0 and rig.ctl.opponent.plan is p   # the player places now
    rig.run("drop f6; wait 400")
    assert isinstance(rig.ctl.top, M.Place) and not isinstance(rig.ctl.top, OP.BoardPlace)
    rig.run("press ok")                            # X
    assert g.placing() == 1
    q = think(rig)                                 # the board chooses its own placement
    assert q.move is None and len(q.places) >= 1
    s, where, face = q.places[0]
    assert s == 1 and rig.ctl.meaning[where] == C.PLACE
    rig.put(where, 1)
    rig.advance(400)
    rig.run("press ok")
    assert g.placing() < 0 and g.pos.get(where) == face
    assert rig.record().endswith(" f6=X " + q.text.split()[0])


def test_when_the_player_takes_a_board_tile_the_board_places_first():
    rig = vs_rig(WHITE_CAPTURES, 1)
    rig.run("lift d2; lift d5; wait 300; drop d5; wait 400")
    g = rig.ctl.game
    assert rig.record() == "d2xd5" and g.placing() == 1
    p = think(rig)
    assert p.move is None and p.places[0][0] == 1
    where = p.places[0][1]
    assert rig.ctl.meaning[where] == C.PLACE
    rig.put(where, 1)
    rig.advance(400)
    assert isinstance(rig.ctl.top, OP.BoardPlace)
    rig.run("press ok")
    assert g.placing() == 0                        # now the player, with the face picker
    rig.run("drop f6; wait 400")
    assert isinstance(rig.ctl.top, M.Place) and not isinstance(rig.ctl.top, OP.BoardPlace)
    rig.run("press ok")
    assert g.placing() < 0 and g.pos.side == 1


# --- take-back and hint --------------------------------------------------------------------------
def test_take_back_returns_to_the_players_own_turn():
    rig = vs_rig(None, 1)
    rig.run("lift d2; drop d5; wait 400")
    carry_out(rig, think(rig))
    assert len(rig.record().split()) == 2
    rig.run("hold")
    choose(rig, "Take back turn")
    g = rig.ctl.game
    assert rig.record() == "" and g.pos.side == 0  # both turns: the player moves again
    assert rig.ctl.meaning[sq("d5")] == C.TO_EMPTY and rig.ctl.meaning[sq("d2")] == C.TO_FILL


def test_take_back_while_the_board_thinks_returns_the_players_move():
    rig = vs_rig(None, 1)
    rig.run("lift d2; drop d5; wait 2400")
    rig.run("hold")
    choose(rig, "Take back turn")
    assert rig.record() == "" and rig.ctl.game.pos.side == 0
    rig.advance(500)
    assert rig.ctl.opponent.plan is None and not rig.ctl.opponent.thinking


def test_hint_lights_a_move_without_playing_it_and_a_touch_clears_it():
    rig = vs_rig(None, 1)
    rig.run("hold")
    choose(rig, "Hint")
    assert isinstance(rig.ctl.top, OP.Hint)
    rig.advance(1000)
    h = rig.ctl.top.turn
    assert h is not None and h.move is not None and rig.record() == ""
    assert rig.ctl.meaning[h.move[0]] == C.SUGGEST and rig.ctl.meaning[h.move[1]] == \
        C.SUGGEST_TO
    assert h.text in shown(rig)
    rig.run("lift d2")                             # a touch: the hint goes, the lift counts
    assert not isinstance(rig.ctl.top, OP.Hint) and rig.lit(C.SUGGEST) == []
    assert rig.ctl.meaning[sq("d2")] == C.ORIGIN
    rig.run("drop d5; wait 400")
    assert rig.record() == "d2-d5"
    rig.run("hold")                                # the board's turn: no hint offered
    assert "Hint" not in rig.ctl.top.items


def test_hint_for_a_placement_lights_its_square_and_shows_its_face():
    rig = vs_rig(WHITE_TAKES_BARRAGOON, 1)
    rig.run("lift d5; lift d2; wait 300; drop d5; wait 400")
    g = rig.ctl.game
    assert rig.record() == "d2xd5" and g.placing() == 0
    rig.run("hold")
    choose(rig, "Hint")
    rig.advance(1000)
    h = rig.ctl.top.turn
    assert h is not None and h.move is None and h.places[0][0] == 0 and rig.record() == "d2xd5"
    side, where, face = h.places[0]
    assert rig.lit(C.SUGGEST_TO) == [square_name(where)]   # the square for the Barragoon
    text = shown(rig)
    assert "Hint" in text and square_name(where) in text and FACES[face - 1] in text
    assert g.placement_allowed(where, face)
    rig.run("press ok")                            # a button: the hint goes
    assert isinstance(rig.ctl.top, OP.VsPlay) and rig.lit(C.SUGGEST_TO) == []
    assert g.placing() == 0 and rig.record() == "d2xd5"


def test_hint_in_a_two_player_game_and_a_button_clears_it():
    rig = Rig()
    rig.start_game()
    rig.run("hold")
    choose(rig, "Hint")
    rig.advance(1000)
    assert rig.lit(C.SUGGEST) and rig.lit(C.SUGGEST_TO)
    rig.run("press ok")
    assert isinstance(rig.ctl.top, M.Play) and rig.lit(C.SUGGEST) == []


# --- draw offers ---------------------------------------------------------------------------------
def test_a_draw_offered_to_the_board_is_declined_while_it_is_not_behind():
    rig = vs_rig(None, 1)
    rig.run("hold")
    choose(rig, "Offer draw")                      # no search yet: it plays on
    g = rig.ctl.game
    assert not g.over and isinstance(rig.ctl.top, OP.VsPlay)
    assert "Board: no draw" in shown(rig)


def test_a_draw_offered_to_the_board_is_accepted_when_it_is_behind():
    rig = vs_rig("VV5/7/7/7/7/7/7/7/6z w 24", 1)   # two 4-tiles against a 2-tile
    rig.run("lift a9; drop a5; wait 400")
    p = think(rig)
    assert p.score < 0
    carry_out(rig, p)
    rig.run("hold")
    choose(rig, "Offer draw")
    g = rig.ctl.game
    assert g.over and g.reason == "draw agreed" and isinstance(rig.ctl.top, M.Over)


def test_the_board_offers_a_draw_when_it_is_behind_in_a_dead_position():
    OP.LIMIT = (0, 4000)                           # deep enough to see two turns ahead
    try:
        rig = vs_rig("z6/7/7/7/7/7/7/7/4VV1 b 24", 1)   # no Barragoon: nothing to take soon
        p = think(rig, 20000)
        assert p.depth >= 2 and p.score < 0 and p.offer_draw
        carry_out(rig, p)
        assert isinstance(rig.ctl.top, M.Offer)
        text = shown(rig)
        assert "Brown offers" in text and "White:" in text
        rig.run("press ok")                        # declined: play on
        g = rig.ctl.game
        assert not g.over and isinstance(rig.ctl.top, OP.VsPlay)
        rig.run("lift f1; drop f5; wait 400")
        carry_out(rig, think(rig, 20000))
        assert not isinstance(rig.ctl.top, M.Offer)   # not again at once
        rig.run("hold")
        choose(rig, "Offer draw")                  # the player offers: it accepts
        assert g.over and g.reason == "draw agreed"
    finally:
        OP.LIMIT = (0, 60)


def repeated_game_resumed():
    """White's 4-tile a1-a4-a1 and Brown's g9-g6-g9 three times (Brown's last turn completes the
    third copy), resumed against the board as Brown: (rig, game)."""
    g = Game("4v1v/7/7/7/7/7/7/7/V6 w 24")
    for copies in range(3):
        for frm, to in (("a1", "a4"), ("g9", "g6"), ("a4", "a1"), ("g6", "g9")):
            g.move(sq(frm), sq(to))
    assert g.repetition and g.pos.side == 0
    g.opponent = OP.tag(1, 1)
    rig = Rig()
    rig.screen = rig.ctl.fb = Screen(rig.fb)
    for s in range(63):
        rig.board[s] = 1 if g.pos.get(s) else 0
    rig.ctl.start(rig.board, g, "")
    choose(rig, "Resume game")
    return rig, g


def test_the_board_offers_the_repetition_draw_when_it_is_not_ahead():
    # The board plays Brown; its last search did not see it ahead.
    rig, g = repeated_game_resumed()
    op = rig.ctl.opponent
    assert isinstance(rig.ctl.top, OP.VsPlay) and not g.offered
    op.plan = OP.parse("Brown 1")                  # (a plan of the board's: any object will do
    op.plan.offer_draw = False                     # here) and a draw would do
    op.draw_ok = True
    rig.advance(100)
    assert g.offered and isinstance(rig.ctl.top, M.Offer)
    assert "Brown offers" in shown(rig)
    rig.run("press ok")                            # declined: White must deviate
    assert g.must_deviate == 0 and not g.over


def test_a_declined_board_offers_a_draw_again_only_after_its_waiting_turns():
    # The player declined the board's draw offer at offer_at; it may offer again OFFER_AGAIN
    # turns (twice as many actions) later, not one action before.
    rig, g = repeated_game_resumed()
    n = len(g.actions)
    op = rig.ctl.opponent
    old = OP.OFFER_AGAIN
    OP.OFFER_AGAIN = 2
    try:
        op.plan = OP.parse("Brown 1")              # (a plan that wants a draw)
        op.plan.offer_draw = True
        op.draw_ok = False                         # (not the repetition draw)
        op.offer_at = n - 2 * OP.OFFER_AGAIN + 1   # declined one action too recently
        rig.advance(100)
        assert not isinstance(rig.ctl.top, M.Offer)
        op.offer_at = n - 2 * OP.OFFER_AGAIN       # declined just long enough ago
        rig.advance(100)
        assert isinstance(rig.ctl.top, M.Offer) and "Brown offers" in shown(rig)
    finally:
        OP.OFFER_AGAIN = old


# --- through the whole firmware -----------------------------------------------------------------
def test_a_game_with_a_clock_against_the_board():
    # The whole firmware on the fake hardware: a 5-minute clock and the board as Brown, chosen
    # in the New game menu. The board's clock runs while it thinks and is on the screen during
    # its turn; it takes White's 3-tile, White places first with the clock on the placement
    # screens (White's time runs), then the board places; the turn switches the clock.
    from test_clock_play import board, hold, choose as pick, screen
    from test_firmware import set_up, OK
    from controller import clock as K
    b = board("vs_clock")
    b.app.boot()
    b.run(50)
    hold(b)
    pick(b, "New game")
    while "Clock: 5 min" not in b.ctl.top.items:
        pick(b, [i for i in b.ctl.top.items if i.startswith("Clock")][0])
    while "Increment: 0 s" not in b.ctl.top.items:
        pick(b, [i for i in b.ctl.top.items if i.startswith("Increment")][0])
    pick(b, "Against: player")                    # the board plays Brown, strength 1
    pick(b, "Set up new game")
    set_up(b)
    ck = b.ctl.clock
    g = b.ctl.game
    op = b.ctl.opponent
    assert ck is not None and op.side == 1 and ck.side == 0
    b.lift("d2")
    b.drop("d5")
    assert g.last_turn_text() == "d2-d5" and ck.side == 1
    brown = ck.ms(1)
    b.run(60)
    img = screen(b)
    assert img.has("Thinking...") and img.has(K.time_text(ck.ms(1)), True)   # Brown's, running
    assert img.has(K.time_text(ck.ms(0)), False)

    def answer():
        for _ in range(300):                      # (60 engine steps, one a loop step)
            b.run(20)
            if op.plan is not None and not op.thinking:
                return op.plan
        raise AssertionError("the board did not answer")

    p = answer()
    assert p.text.startswith("d8xd5") and ck.side == 1 and ck.ms(1) < brown
    img = screen(b)
    assert img.has("plays d8xd5") and img.has(K.time_text(ck.ms(1)), True)
    b.lift("d5")                                  # the victim off, then the board's move
    b.run(300)
    b.lift("d8")
    b.run(150)                                    # (as long as a hand carries it)
    b.drop("d5")
    assert g.placing() == 0 and ck.side == 0      # White places first, on White's time
    img = screen(b)
    assert img.has("put one") and img.has(K.time_text(ck.ms(0)), True)
    b.drop("c3")
    assert isinstance(b.ctl.top, M.Place) and screen(b).has(K.time_text(ck.ms(0)), True)
    b.press(OK)
    assert g.placing() == 1 and ck.side == 1      # the board's placement, on its time
    q = answer()
    side, where, face = q.places[0]
    assert side == 1 and screen(b).has(K.time_text(ck.ms(1)), True)
    b.drop(square_name(where))
    b.press(OK)
    assert g.placing() < 0 and g.pos.side == 0 and ck.side == 0
    assert g.last_turn_text() == "d8xd5 c3=X " + format_placement(where, face)
    assert '[Opponent "Brown 1"]' in b.saved_text() and '[Clock "' in b.saved_text()


def test_while_the_board_thinks_events_txt_waits_and_the_games_copy_does_not():
    # The whole firmware: the flight recorder's file of the player's move would take loop
    # steps from the board's search (its time at strength 1), so it is written once the board
    # has answered; the game and its sealed copy are saved at once, as in every game.
    from test_clock_play import board, hold, choose as pick
    from test_firmware import set_up
    b = board("vs_events")
    b.app.boot()
    b.run(50)
    hold(b)
    pick(b, "New game")
    pick(b, "Against: player")                    # the board plays Brown, strength 1
    pick(b, "Set up new game")
    set_up(b)
    op, st = b.ctl.opponent, b.storage
    b.lift("d2")
    b.drop("d5")
    b.run(300)
    assert op.thinking and "d2-d5" in b.saved_text()
    assert not st.copy_due and st.read(S.COPY) == st.read(S.GAME)
    assert st.busy() and "lift d2" not in (st.read(S.EVENTS) or "")   # (the last save's)
    for _ in range(300):                          # (60 engine steps, one a loop step)
        b.run(20)
        if op.plan is not None and not op.thinking:
            break
    assert op.plan is not None and not op.thinking, "the board did not answer"
    b.run(500)
    assert not st.busy() and "lift d2" in st.read(S.EVENTS)


def test_each_strength_searches_the_work_its_matches_were_measured_with():
    # A level is an amount of search work (engine.LEVELS, the units of bench_engine.py's
    # matches), so the board plays as strong as measured whatever share of the CPU its loop
    # leaves the engine; the time limit only ends a search that would take far longer, and a
    # clock lowers it to a twentieth of the board's time left. A hint is a second's look.
    from barragoon.engine import LEVELS

    class Clock:
        def __init__(self, ms):
            self.left = ms

        def ms(self, side):
            return self.left

    class Ctl:
        clock = None

    saved, OP.LIMIT = OP.LIMIT, None
    try:
        ctl = Ctl()
        for level in (1, 2, 3):
            assert OP._limits(level, ctl, 1) == LEVELS[level]
        ctl.clock = Clock(5 * 60 * 1000)
        assert OP._limits(3, ctl, 1) == (15000, LEVELS[3][1])
        assert OP._limits(0) == (OP.HINT_MS, 0)
    finally:
        OP.LIMIT = saved


def test_an_event_script_chooses_the_board_in_the_menus_and_plays_its_move():
    from test_board_events import run_file
    r = run_file("vsboard_game.txt")
    assert '[Opponent "Brown 1"]' in r.record      # game.txt: the same opponent after a restart


# --- saved with the game -------------------------------------------------------------------------
def test_the_opponent_is_saved_with_the_game_and_resumed():
    from checks import scratch_dir
    st = S.Storage(scratch_dir("opponent"))
    rig = vs_rig(None, 1, 2)
    rig.run("lift d2; drop d5; wait 400")
    st.save_game(rig.ctl.game, "")
    g = st.load_game()
    assert g.opponent == "Brown 2" and " ".join(g.iter_turns()) == "d2-d5"
    rig2 = Rig()
    rig2.board[:] = rig.board
    rig2.ctl.start(rig2.board, g, "")
    choose(rig2, "Resume game")
    assert rig2.ctl.opponent.side == 1 and rig2.ctl.opponent.level == 2
    assert isinstance(rig2.ctl.top, OP.VsPlay)


def test_a_damaged_opponent_tag_costs_the_opponent_not_the_game():
    from checks import scratch_dir
    d = scratch_dir("opponent_bad")
    f = open(d + "game.txt", "w")
    f.write('[Opponent "Purple 9"]\n')
    out = []
    S.game_text(Game(None), "", out.append)
    f.write("".join(out))
    f.close()
    g = S.Storage(d).load_game()
    assert g is not None and OP.of_game(g) is None
    assert OP.parse("Brown 3").side == 1 and OP.parse("White 1").level == 1
    assert OP.parse("Brown") is None and OP.parse("") is None


def test_thinking_between_loop_steps_has_the_move_shown_at_the_next_step():
    # The device's loop lends the search its idle time (Controller.think): used up, the very
    # next loop step shows the board's move, without waiting for slices of further ticks.
    rig = vs_rig(None, 1)
    rig.run("lift d2; drop d5; wait 400")
    op = rig.ctl.opponent
    assert op.thinking and op.plan is None
    for _ in range(1000):
        if not rig.ctl.think(5):
            break
    rig.advance(0)
    assert not op.thinking and op.plan is not None
    assert rig.ctl.meaning[op.plan.move[0]] == C.DUTY
