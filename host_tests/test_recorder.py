# The flight recorder (firmware/recorder.py): a fixed ring of raw events, written as an event
# script (tools/toolkit/event_script.py parses it) that starts at a checkpoint where the board
# matched the game. Runs on CPython and on the MicroPython unix port.
import vboard
from barragoon.game import Game
from recorder import Recorder
from toolkit import event_script as es

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_recording_an_event_allocates_nothing",
                    "test_checkpoints_keep_positions_small")


def script_of(rec, now):
    out = []
    rec.write(out.append, now)
    return es.parse("".join(out)), "".join(out)


def test_events_come_back_as_a_script_with_times_from_the_checkpoint():
    rec = Recorder(64, 64)
    g = Game("7/7/7/7/3z3/7/7/3D3/6z w 24")
    rec.checkpoint(g)
    rec.square(10000, 10, 0)                     # lift d2
    rec.square(10300, 31, 1)                     # drop d5
    rec.button(10900, 2, 1)                      # press ok
    rec.button(11000, 2, 0)
    s, text = script_of(rec, 11200)
    assert s.position == "7/7/7/7/3z3/7/7/3D3/6z w 24"
    assert s.events[:4] == [(500, es.LIFT, 10), (800, es.DROP, 31), (1400, es.PRESS, "ok"),
                            (1500, es.RELEASE, "ok")]
    assert s.events[-1][1] == es.END and s.end_ms == 1500 + 200 + 1500


def test_the_standard_start_needs_no_position_line():
    rec = Recorder(16, 16)
    rec.checkpoint(Game())
    rec.square(5000, 10, 0)
    s, text = script_of(rec, 5100)
    assert s.position is None and "position" not in text


def test_a_checkpoint_taken_during_an_event_starts_before_it():
    rec = Recorder(16, 16)
    g = Game()
    rec.square(1000, 10, 0)
    rec.square(1300, 31, 1)
    g.move(10, 31)
    rec.square(1400, 52, 0)                      # Brown lifts d8 ...
    rec.checkpoint(g, True)                      # ... which closed White's turn
    s, text = script_of(rec, 1500)
    assert s.position is not None and s.position.endswith(" b 24")
    assert [e[1:] for e in s.events[:-1]] == [(es.LIFT, 52)]


def test_long_pauses_keep_their_length():
    rec = Recorder(16, 16)
    rec.checkpoint(Game())
    rec.square(1000, 10, 0)
    rec.square(1000 + 200000, 31, 1)             # 200 s later
    s, text = script_of(rec, 1000 + 200100)
    assert [e[0] for e in s.events[:2]] == [500, 500 + 200000]


def test_the_ring_keeps_the_newest_events_and_the_file_starts_at_a_checkpoint_in_it():
    rec = Recorder(8, 8)
    g = Game()
    rec.checkpoint(g)
    for i in range(6):
        rec.square(1000 + 100 * i, 10, i & 1)
    g.move(10, 31)
    rec.checkpoint(g)                            # index 6
    rec.square(2000, 52, 0)
    rec.square(2300, 38, 1)
    rec.square(2400, 0, 1)
    rec.square(2500, 0, 0)
    s, text = script_of(rec, 2600)               # the first checkpoint left the ring
    assert s.position is not None and " b " in s.position
    assert [e[1:] for e in s.events[:-1]] == [(es.LIFT, 52), (es.DROP, 38), (es.DROP, 0),
                                              (es.LIFT, 0)]
    for i in range(20):
        rec.square(3000 + i, 5, i & 1)
    s, text = script_of(rec, 4000)               # no checkpoint in the ring any more
    assert "no checkpoint" in text and s.position is None


def test_the_file_holds_at_most_about_file_events():
    rec = Recorder(256, 10)
    g = Game()
    rec.checkpoint(g)
    for i in range(30):
        rec.square(1000 + 10 * i, 20, i & 1)
    rec.checkpoint(g)
    for i in range(5):
        rec.square(2000 + 10 * i, 20, i & 1)
    s, text = script_of(rec, 3000)
    assert len(s.events) == 6                    # from the newer checkpoint: 5 and end


def test_written_a_few_lines_at_a_time_the_file_is_the_same_and_ends_at_its_start():
    # The board writes events.txt over several loop steps: the result is the file written at
    # once, and events that come meanwhile wait for the next file.
    rec = Recorder(256, 256)
    rec.checkpoint(Game())
    for i in range(40):
        rec.square(1000 + 100 * i, 10 + i % 2, i & 1)
    whole = script_of(rec, 5200)[1]
    out = []
    rec.open_file(5200)
    steps = 1
    while not rec.write_some(out.append, 3):
        steps += 1
        rec.square(6000 + steps, 52, steps & 1)    # d8 jiggles while the file is written
    assert "".join(out) == whole and steps == 1 + 40 // 3 + 1
    assert "d8" not in "".join(out) and "d8" in script_of(rec, 9000)[1]


def test_switched_off_the_file_says_so():
    rec = Recorder(0, 0)
    rec.square(10, 1, 1)
    rec.checkpoint(Game())
    s, text = script_of(rec, 100)
    assert "off" in text and s.events == [(0, es.END, None)]


def test_recording_an_event_allocates_nothing():
    rec = Recorder(2048, 400)
    grown, total = vboard.heap_bytes(lambda i: rec.square(1000 + 7 * i, i % 63, i & 1), 500)
    assert grown == 0 and (total is None or total == 0), (grown, total)
    grown, total = vboard.heap_bytes(lambda i: rec.button(9000 + 7 * i, i % 3, i & 1), 500)
    assert grown == 0 and (total is None or total == 0), (grown, total)


def test_times_across_the_ticks_wrap_stay_right():
    # ticks_ms wraps (2**30 ms on the RP2040, the port's own period elsewhere): the gaps
    # are taken with the one wrap-safe difference, so a turn played across the wrap keeps
    # its times in the file.
    from drivers.ticks import ticks_add
    rec = Recorder(64, 64)
    rec.checkpoint(Game())
    t0 = ticks_add(0, -150)                      # 150 ms before the wrap
    rec.square(t0, 10, 0)
    rec.square(ticks_add(t0, 100), 31, 1)        # 50 ms before it
    rec.square(ticks_add(t0, 400), 52, 0)        # 250 ms after it
    s, text = script_of(rec, ticks_add(t0, 500))
    assert [e[:2] for e in s.events] == [(500, es.LIFT), (600, es.DROP), (900, es.LIFT),
                                         (1000 + 1500, es.END)]


def test_the_file_starts_at_the_oldest_checkpoint_that_fits_its_bound():
    # Several checkpoints fit: the replay starts at the oldest of them (more of the game is
    # replayed), not at the newest; also when it is exactly the bound (15 events) back.
    for bound in (100, 15):
        rec = Recorder(256, bound)
        g = Game()
        rec.checkpoint(g)
        for i in range(10):
            rec.square(1000 + 10 * i, 20, i & 1)
        g.move(10, 31)
        rec.checkpoint(g)
        for i in range(5):
            rec.square(2000 + 10 * i, 52, i & 1)
        s, text = script_of(rec, 3000)
        assert s.position is None and len(s.events) == 16, bound   # the first: 10 + 5 + end


def test_checkpoints_keep_positions_small():
    # Six checkpoints are kept, whatever the length of the game: as bytes, not as Position
    # copies with their move buffers (3.7 KB on the unix port, half of it on the RP2040).
    import gc
    rec = Recorder(64, 64)
    g = Game()
    rec.checkpoint(g)                            # (the list itself, once)
    gc.collect()
    h = gc.mem_alloc()
    for i in range(300):
        rec.checkpoint(g)
        rec.square(1000 + i, 10, i & 1)
    gc.collect()
    assert gc.mem_alloc() - h <= 6 * 200, gc.mem_alloc() - h


def test_every_checkpoint_is_written_out_through_one_scratch_position():
    # events.txt is written after every save; a Position made for each checkpoint's text
    # (3.7 KB on the unix port, half of it on the RP2040) would churn the board's heap.
    rec = Recorder(64, 4)                        # (each file starts at the newest one)
    texts = []
    for position in ("7/7/7/7/3z3/7/7/3D3/6z w 24", "7/7/7/7/7/3z3/7/3D3/6z b 24"):
        rec.checkpoint(Game(position))
        for i in range(3):
            rec.square(10000 + 10 * i, 10, i & 1)
        s, text = script_of(rec, 11000)
        texts.append(s.position)
        if len(texts) == 1:
            scratch = rec._pos
    assert texts == ["7/7/7/7/3z3/7/7/3D3/6z w 24", "7/7/7/7/7/3z3/7/3D3/6z b 24"]
    assert rec._pos is scratch


def test_a_long_game_replays_from_the_oldest_of_the_last_six_checkpoints():
    # Every turn marks a checkpoint; the recorder keeps the newest six, so the file starts at
    # the sixth-last turn, however many turns came before (all of them would fit its bound).
    rec = Recorder(1024, 1024)
    g = Game()
    for turn in range(40):
        rec.checkpoint(g)
        rec.square(1000 + 100 * turn, turn, 0)   # one lift a turn, on square number `turn`
    s, text = script_of(rec, 6000)
    lifts = [e[2] for e in s.events if e[1] == es.LIFT]
    assert lifts == list(range(34, 40)), lifts


def test_a_checkpoint_made_while_the_file_is_written_is_not_where_the_file_starts():
    # The board writes events.txt a few lines per loop step; a turn that begins meanwhile
    # marks a checkpoint after the file's last event: the file still replays its own events.
    rec = Recorder(64, 8)
    g = Game()
    rec.checkpoint(g)
    for i in range(20):
        rec.square(1000 + 10 * i, 10, i & 1)
    rec.open_file(2000)
    g.move(10, 31)
    for i in range(5):
        rec.square(2100 + 10 * i, 52, i & 1)
    rec.checkpoint(g)
    out = []
    while not rec.write_some(out.append, 4):
        pass
    s = es.parse("".join(out))
    assert s.position is None and len(s.events) == 21, "".join(out)   # 20 + end
