# The game clock in the whole firmware on fake hardware (app.App with the simulated clock of
# tools/vboard/clock.py): chosen in the New game menu, on the play screen, switching when a
# turn is committed (a placement's face confirmed included), the increment, pausing from the
# menu (offered only with a clock), a flag fall that ends the game and goes to the records,
# a power cut after which the times come back paused, and take-back. Runs on CPython and on
# the MicroPython unix port.
from test_firmware import Board, set_up, OK, DOWN, machine     # the fake hardware
from oled_text import Picture
from controller.modes import Play, Menu, Over, Setup
from controller import clock as K

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_the_clock_adds_no_allocation_to_the_idle_loop",)


def board(name, keep_dir=False, pieces=None):
    b = Board(name, keep_dir, pieces)
    machine.record = False     # no pin trace: these games run for minutes of board time
    return b


def hold(b):
    b.press(OK, 800)                         # a long press of OK: the menu (BACK)


def choose(b, label):
    menu = b.ctl.top
    assert isinstance(menu, Menu), menu
    for _ in range(len(menu.items) + 1):
        if menu.items[menu.sel] == label:
            b.press(OK)
            return
        b.press(DOWN)
    raise AssertionError("no menu item %r in %r" % (label, menu.items))


def screen(b):
    return Picture.from_fb(b.app.oled)


def clocked_game(name, minutes="Clock: 5 min", inc="Increment: 2 s"):
    """Boot a fresh board, choose a clock in the New game menu, set up: White's clock runs."""
    b = board(name)
    b.app.boot()
    b.run(50)
    hold(b)
    choose(b, "New game")
    items = b.ctl.top.items
    assert "Clock: off" in items and not [i for i in items if i.startswith("Increment")]
    while minutes not in b.ctl.top.items:
        choose(b, [i for i in b.ctl.top.items if i.startswith("Clock")][0])
    while inc not in b.ctl.top.items:
        choose(b, [i for i in b.ctl.top.items if i.startswith("Increment")][0])
    choose(b, "Set up new game")
    assert isinstance(b.ctl.top, Setup) and b.ctl.clock is not None
    set_up(b)
    return b


def play(b, frm, to):
    b.lift(frm)
    b.drop(to)


def test_new_game_with_a_clock_switches_on_commit_with_the_increment():
    b = clocked_game("clk_switch")
    ck = b.ctl.clock
    assert ck.ms(1) == 300000 and ck.inc == 2000 and ck.side == 0
    b.run(3000)
    white = ck.ms(0)
    assert 296000 < white < 297500                     # White's time runs after the set-up
    img = screen(b)
    assert img.has(K.time_text(white), True)          # White's half inverted: it runs
    assert img.has("5:00", False)                      # Brown's still full
    b.lift("d2")
    b.drop("d5")                                       # committed at rest (settle time)
    assert b.ctl.game.last_turn_text() == "d2-d5" and ck.side == 1
    w = ck.ms(0)
    assert white + 2000 - 500 < w <= white + 2000      # the increment after White's turn
    b.run(2000)
    assert ck.ms(0) == w and ck.ms(1) < 298500       # Brown's clock runs now
    assert '[Clock "' in b.saved_text()


def test_the_clock_switches_only_when_the_placement_is_confirmed():
    b = clocked_game("clk_place", inc="Increment: 0 s")
    ck = b.ctl.clock
    for frm, to in (("d2", "d5"), ("d8", "d6")):
        play(b, frm, to)
    b.lift("d5")                                       # White's 3-tile takes the Barragoon
    b.lift("b4")
    b.run(300)
    b.drop("b4")
    assert b.ctl.game.placing() == 0 and ck.side == 0
    b.drop("d4")
    before = ck.ms(0)
    b.run(2000)                                        # choosing the face: White's time
    assert ck.side == 0 and ck.ms(0) <= before - 2000
    b.press(OK)
    assert b.ctl.game.last_turn_text() == "d5xb4 d4=X" and ck.side == 1


def test_pause_from_the_menu_and_ok_starts_the_clock_again():
    b = clocked_game("clk_pause")
    ck = b.ctl.clock
    hold(b)
    assert "Pause clock" in b.ctl.top.items           # the menu does not stop the clock
    t0 = ck.ms(0)
    b.run(1000)
    assert ck.ms(0) <= t0 - 1000
    choose(b, "Pause clock")
    assert isinstance(b.ctl.top, Play) and not ck.running
    paused = ck.ms(0)
    b.run(5000)
    assert ck.ms(0) == paused
    assert screen(b).has("Clock paused: OK")
    hold(b)
    assert "Start clock" in b.ctl.top.items and "Pause clock" not in b.ctl.top.items
    b.press(DOWN)                                      # leave the menu: Resume
    choose(b, "Resume")
    b.press(OK)                                        # OK on the play screen starts it
    assert ck.running
    left = ck.ms(0)
    assert paused - 100 <= left <= paused              # the paused time was nobody's
    b.run(1000)
    assert ck.ms(0) == left - 1000


def test_no_clock_items_without_a_clock():
    b = board("clk_none")
    b.app.boot()
    b.run(50)
    set_up(b)
    assert b.ctl.clock is None
    assert screen(b).has("White to move")
    hold(b)
    items = b.ctl.top.items
    assert "Pause clock" not in items and "Start clock" not in items
    assert "[Clock" not in b.saved_text()


def test_flag_fall_ends_the_game_and_the_record_says_so():
    b = clocked_game("clk_flag")
    ck = b.ctl.clock
    play(b, "d2", "d5")
    ck.set_ms(1, 1500)                                 # Brown is short of time
    b.run(1000)
    assert not b.ctl.game.over and ck.ms(1) == 500
    assert screen(b).has("0.5", True)                 # tenths below 10 s, Brown's half lit
    b.run(600)
    g = b.ctl.game
    assert g.over and g.winner == 0 and g.reason == "time ran out"
    assert isinstance(b.ctl.top, Over) and screen(b).has("time ran out")
    assert "(time)" in b.saved_text()
    b.press(OK)                                        # new game: the finished one recorded
    f = open(b.dir + "records.txt")
    rec = f.read()
    f.close()
    assert '[Result "1-0"]' in rec and '[Termination "time ran out"]' in rec
    assert '[Clock "' in rec and "1. d2-d5 (time)" in rec


def test_power_cut_brings_the_times_back_paused():
    b = clocked_game("clk_power")
    play(b, "d2", "d5")
    b.run(1500)
    play(b, "d8", "d6")
    text = b.saved_text()
    at = text.index('[Clock "') + 8
    saved = text[at:text.index('"]', at)]                # as d8-d6 committed
    assert saved.endswith(" 2000 w")
    b.run(4000)                                        # White thinks; then the power fails
    b2 = board("clk_power", keep_dir=True, pieces=b.ctl.game.pos)
    b2.app.boot()
    b2.run(50)
    choose(b2, "Resume game")
    ck = b2.ctl.clock
    assert isinstance(b2.ctl.top, Play) and ck.tag() == saved and ck.state == K.POWER
    b2.run(3000)
    assert ck.tag() == saved                           # paused until the players start it
    assert screen(b2).has("Power was off:")
    b2.press(OK)
    white = int(saved.split()[0])
    assert ck.running and white - 100 <= ck.ms(0) <= white
    b2.run(1000)
    assert white - 1100 <= ck.ms(0) <= white - 1000
    play(b2, "e2", "e4")
    assert ck.side == 1


def test_take_back_restores_the_times_of_that_turn():
    b = clocked_game("clk_back", inc="Increment: 0 s")
    ck = b.ctl.clock
    play(b, "d2", "d5")
    white = int(b.ctl.clock_tag().split()[0])        # White's time when d2-d5 committed
    b.run(3000)
    play(b, "d8", "d6")
    b.run(2000)
    hold(b)
    choose(b, "Take back turn")
    assert b.ctl.game.last_turn_text() == "d2-d5"
    # Brown's turn again with Brown's full time (less the moment since the take-back), and
    # White's time as it was when White's turn ended.
    assert ck.side == 1 and ck.ms(0) == white and 299900 <= ck.ms(1) < 300000


def test_the_clock_adds_no_allocation_to_the_idle_loop():
    import gc
    b = clocked_game("clk_idle")
    b.run(b.ctl.clock.ms(0) % 1000 + 10)             # just past a second: none in 0.75 s
    step = b.app.step
    clock = b.clock
    gc.collect()
    before = gc.mem_alloc()
    for i in range(150):                               # 0.75 s: no second boundary
        step()
        clock.t += 5
    grown = gc.mem_alloc() - before
    assert grown == 0, "idle loop with a running clock allocated %d bytes" % grown
