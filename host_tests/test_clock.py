# The game clock on its own (firmware/controller/clock.py), driven with a real Game and loop
# ticks as the controller gives them: the running side's time, switching when a turn is
# complete (placements included), the increment, a move taken back by the judge, take-back,
# pausing, the flag, the saved tag, and the ticks wrap. Runs on CPython and MicroPython.
import gc
import sys

from rules_helpers import sq
from barragoon.game import Game
from controller import clock as K
from vboard.clock import MASK          # the runtime's ticks period (2**30 on the RP2040)

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_a_step_allocates_nothing",)


def mv(g, frm, to, ck=None):
    # The judge commits a move; the controller saves at once, and the save follows the game.
    g.move(sq(frm), sq(to))
    if ck is not None:
        ck.follow(g)


def run(ck, g, t, ms, step=5, live=True):
    """ms of loop steps from tick t; returns the new t."""
    end = t + ms
    while t < end:
        t += step
        ck.tick(t & MASK, g, live)
    return t


# Brown's 3-tile comes to c4, where White's d2 takes it (TURNS of test_record.py).
TILE_CAPTURE_COMING = ("c2-c3", "e8-e6", "c3-b4", "d8-d6", "b1-a3", "d6-c4")


def played(turns):
    """A game after these moves (a Barragoon captured is placed again on b3)."""
    g = Game()
    for turn in turns:
        mv(g, turn[:2], turn[3:])
        if g.placing() >= 0:
            g.place(sq("b3"), 12)
    return g


def times(ck):
    return [ck.ms(0), ck.ms(1)]


def new(minutes=5, inc=2, t=1000):
    g = Game()
    ck = K.Clock(minutes * 60000, inc * 1000)
    ck.sync(g)
    ck.tick(t, g, True)
    return g, ck


def test_the_side_to_move_runs_and_gets_the_increment_after_its_turn():
    g, ck = new()
    t = run(ck, g, 1000, 3000)
    assert times(ck) == [297000, 300000]
    mv(g, "d2", "d5", ck)                   # the judge commits White's move
    t = run(ck, g, t, 1000)
    assert times(ck) == [299000, 299000]       # +2 s for White; Brown's clock ran 1 s
    mv(g, "d8", "d6", ck)
    run(ck, g, t, 500)
    assert times(ck) == [298500, 301000]


def test_placements_belong_to_the_turn_the_clock_switches_after_them():
    g = Game()
    for frm, to in (("d2", "d5"), ("d8", "d6")):
        mv(g, frm, to)
    ck = K.Clock(60000, 2000)
    ck.sync(g)
    ck.tick(0, g, True)
    t = run(ck, g, 0, 100)
    mv(g, "d5", "b4", ck)                   # White captures a Barragoon: placement due
    t = run(ck, g, t, 4000)
    assert ck.side == 0 and times(ck) == [55900, 60000]
    g.place(sq("d4"), 1)
    ck.follow(g)
    run(ck, g, t, 1000)
    assert ck.side == 1 and times(ck) == [57900, 59000]


def test_after_a_tile_capture_the_captured_side_places_on_its_own_clock():
    # The placement is the captured player's decision: their clock runs while they place, then
    # the capturer's for the capturer's placement; the increment once the turn is complete.
    g = played(TILE_CAPTURE_COMING)
    ck = K.Clock(60000, 5000)
    ck.sync(g)
    ck.tick(0, g, True)
    mv(g, "d2", "c4", ck)                   # White takes Brown's tile: Brown places first
    assert g.placing() == 1 and ck.side == 1
    t = run(ck, g, 0, 3000)
    assert times(ck) == [60000, 57000]
    g.place(sq("e3"), 8)
    ck.follow(g)
    t = run(ck, g, t, 2000)
    assert g.placing() == 0 and ck.side == 0 and times(ck) == [58000, 57000]
    g.place(sq("e7"), 7)
    ck.follow(g)
    t = run(ck, g, t, 1000)
    assert ck.side == 1 and times(ck) == [63000, 56000]
    # Brown's time runs out while Brown places after the next tile capture: Brown loses.
    g.undo_turn()
    ck.take_back(g)
    mv(g, "d2", "c4", ck)
    ck.set_ms(1, 100)
    run(ck, g, t, 200)
    assert ck.flag == 1
    g.lose_on_time()
    assert g.winner == 0


def test_a_reopened_move_gains_no_time():
    # The mover sets down, the judge commits (the clock switches), the mover lifts the piece
    # again 800 ms later (the judge takes the move back): the opponent gets those 800 ms back,
    # the mover pays them, and the increment is not kept.
    g, ck = new(5, 5)
    t = run(ck, g, 1000, 2000)
    mv(g, "d2", "d5", ck)
    t = run(ck, g, t, 800)
    assert times(ck) == [303000, 299200]
    g.undo()
    ck.follow(g)
    assert times(ck) == [297200, 300000] and ck.side == 0
    t = run(ck, g, t, 200)
    mv(g, "d2", "d4", ck)
    run(ck, g, t, 100)
    assert times(ck) == [302000, 299900]


def test_a_reopened_tile_capture_gives_the_placer_its_time_back_and_keeps_the_history():
    g = played(TILE_CAPTURE_COMING[:-1])
    ck = K.Clock(60000, 0)
    ck.sync(g)
    ck.tick(0, g, True)
    t = run(ck, g, 0, 1000)
    mv(g, "d6", "c4", ck)
    t = run(ck, g, t, 2000)
    mv(g, "d2", "c4", ck)                   # White takes the tile: Brown's placement runs
    t = run(ck, g, t, 500)
    g.undo()                                # White lifts the piece again: reopened
    ck.follow(g)
    assert ck.side == 0 and times(ck) == [57500, 59000]
    t = run(ck, g, t, 500)
    g.undo_turn()                           # Brown's d6-c4 taken back: the times then
    ck.take_back(g)
    assert ck.side == 1 and times(ck) == [60000, 60000]


def test_take_back_gives_both_players_the_times_of_that_turn():
    g, ck = new(5, 0)
    t = run(ck, g, 1000, 1000)
    mv(g, "d2", "d5", ck)
    t = run(ck, g, t, 2000)
    mv(g, "d8", "d6", ck)
    t = run(ck, g, t, 3000)
    assert times(ck) == [296000, 298000]
    g.undo_turn()                          # Brown's d8-d6 is taken back
    ck.take_back(g)
    assert times(ck) == [299000, 300000] and ck.side == 1
    t = run(ck, g, t, 500)
    assert times(ck) == [299000, 299500]
    g.undo_turn()
    ck.take_back(g)
    assert times(ck) == [300000, 300000] and ck.side == 0


def test_take_back_of_a_turn_from_before_a_power_cut_keeps_the_times():
    g = Game()
    mv(g, "d2", "d5")
    mv(g, "d8", "d6")
    ck = K.from_tag("250000 260000 0 w")     # saved, then the power failed
    ck.sync(g)
    ck.tick(1000, g, True)
    g.undo_turn()                            # d8-d6: played before the power cut
    ck.take_back(g)
    assert times(ck) == [250000, 260000] and ck.side == 1 and ck.state == K.POWER


def test_pause_stops_time_and_nothing_runs_outside_play():
    g, ck = new()
    ck.pause()
    t = run(ck, g, 1000, 5000)
    assert times(ck) == [300000, 300000] and not ck.running
    ck.resume()
    t = run(ck, g, t, 1000)
    t = run(ck, g, t, 1000, live=False)     # not in play (set-up, game over): the first
    assert times(ck) == [298995, 300000]    # step that is not counts up to its own ticks


def test_the_flag_falls_for_the_side_whose_clock_runs():
    g, ck = new(5, 0)
    ck.set_ms(0, 150)
    t = run(ck, g, 1000, 100)
    assert ck.flag == -1 and ck.ms(0) == 50
    run(ck, g, t, 100)
    assert ck.flag == 0 and ck.ms(0) == 0
    g.lose_on_time()
    assert g.winner == 1 and g.reason == "time ran out"


def test_ticks_wrap():
    t = MASK - 1000
    g, ck = new(5, 0, t)
    run(ck, g, t, 3000)
    assert times(ck) == [297000, 300000]


def test_the_screen_is_redrawn_once_a_second_and_ten_times_below_ten_seconds():
    g, ck = new(5, 0)
    n = 0
    t = 1000
    for i in range(400):                  # 2 s in 5 ms steps
        t += 5
        n += ck.tick(t, g, True)
    assert n == 2
    ck.set_ms(0, 9000)
    n = 0
    for i in range(200):                  # 1 s
        t += 5
        n += ck.tick(t, g, True)
    assert n == 10


def test_tag_round_trip_comes_back_paused():
    g, ck = new(10, 5)
    run(ck, g, 1000, 1230)
    mv(g, "d2", "d5", ck)
    text = ck.tag()
    assert text == "603770 600000 5000 b"
    again = K.from_tag(text)
    again.sync(g)
    assert times(again) == times(ck) and again.inc == 5000 and again.state == K.POWER
    assert again.side == 1 and not again.running
    for bad in ("", "1 2 3", "1 2 3 x", "a 2 3 w", "1 2 3 w 5", "999999999 1 1 w"):
        assert K.from_tag(bad) is None, bad


def test_time_texts():
    assert K.time_text(1800000) == "30:00"
    assert K.time_text(600000 - 1) == "9:59"
    assert K.time_text(10000) == "0:10"
    assert K.time_text(9999) == "9.9"
    assert K.time_text(0) == "0.0"
    assert K.minutes_text(0) == "off" and K.minutes_text(2) == "10 min"
    assert K.from_choice(0, 1) is None
    c = K.from_choice(1, 3)
    assert times(c) == [300000, 300000] and c.inc == 10000


def test_a_step_allocates_nothing():
    g, ck = new()
    t = run(ck, g, 1000, 2000)
    tick = ck.tick
    gc.collect()
    before = gc.mem_alloc()
    for i in range(500):
        t += 5
        tick(t, g, True)
    grown = gc.mem_alloc() - before
    assert grown == 0, "the clock allocated %d bytes in 500 steps" % grown
    assert sys.implementation.name == "micropython"
