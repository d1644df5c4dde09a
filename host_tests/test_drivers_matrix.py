# Sensor matrix driver against a physical model of the wiring (vboard.board_wiring): what a
# player notices is which square lights up as "occupied", when, and that nothing is missed.

import vboard
from checks import raises

machine = vboard.install()

from vboard.board_wiring import BoardWiring, square  # noqa: E402
from drivers.matrix import Matrix  # noqa: E402
from drivers.ticks import ticks_add, ticks_diff, sleep_us  # noqa: E402
import config as cfg  # noqa: E402

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_scan_allocates_nothing",    # heap figures: MicroPython only
                    "test_the_timer_scan_runs_with_the_heap_locked")

ROWS = cfg.MATRIX_ROW_PINS
COLS = cfg.MATRIX_COL_PINS


def setup(sensor="reed", diode="row_cathode", level=0, debounce=10, settle=0, cols=COLS,
          power_up_us=0, sample_ms=0, queue_len=64):
    vboard.reset()
    board = BoardWiring(ROWS, cols, sensor, diode, level, power_up_us, sample_ms)
    m = Matrix(ROWS, cols, sensor, diode, level, debounce, settle, queue_len)
    return board, m


def drain(m, out):
    while True:
        c = m.pop()
        if c < 0:
            return out
        out.append((c & 0x7F, c >> 7, m.event_time))


def run(board, m, t0, t1, step=5, events=None):
    """Scan every `step` ms from t0 to t1 inclusive; returns [(square, present, time)]."""
    events = [] if events is None else events
    t = t0
    while t <= t1:
        board.t_us = t * 1000
        m.scan(t)
        drain(m, events)
        t += step
    return events


def test_scan_drives_one_row_at_a_time_in_rank_order():
    board, m = setup()
    assert m.row_mode == "open_drain"
    for p in ROWS:                          # idle rows are inputs (high-impedance)
        assert machine.driven(p) is None and machine.pins[p].mode == machine.Pin.OPEN_DRAIN
    del machine.trace[:]
    m.scan(0)
    expected = []
    for p in ROWS:
        expected += [(p, 0), (p, None)]     # row_cathode: driven low, then released
    assert machine.trace == expected, machine.trace
    assert board.read_rows == [1 << r for r in range(9)]
    assert board.multi_row_reads == 0
    # Columns are consecutive: one GPIO_IN read per row, no per-pin reads.
    assert machine.mem32.reads == 9
    assert sum(machine.pins[p].reads for p in COLS) == 0


def test_a_shorted_diode_never_joins_a_high_pin_to_a_low_pin():
    # A shorted diode on c5 plus closed switches on c5 and c2 join row 5 to row 2 through
    # column c. Idle rows are released, so scanning row 2 (low) only pulls row 5's line low
    # through the short: no pin drives against another (a push-pull row at 1 would).
    board, m = setup()
    board.short_diode(square("c5"))
    board.place(square("c5"))
    board.place(square("c2"))
    run(board, m, 0, 40)
    assert board.fights == 0
    assert m.occupied[square("c5")] and m.occupied[square("c2")]
    # The model does see a fight when two rows drive opposite levels over that path.
    machine.Pin(ROWS[4], machine.Pin.OUT, value=1)
    machine.Pin(ROWS[1], machine.Pin.OUT, value=0)
    assert board.fights > 0


def test_square_numbering_a1_is_0_g9_is_62():
    assert (square("a1"), square("g1"), square("a2"), square("d5"), square("g9")) == \
        (0, 6, 7, 31, 62)
    board, m = setup()
    seen = []
    t = 0
    for sq in range(63):
        board.place(sq)
        ev = run(board, m, t, t + 20)
        assert [(e[0], e[1]) for e in ev] == [(sq, 1)], (sq, ev)
        seen.append(sq)
        t += 25
    assert list(m.occupied) == [1] * 63
    board.lift(square("d5"))
    ev = run(board, m, t, t + 20)
    assert [(e[0], e[1]) for e in ev] == [(31, 0)]
    assert m.occupied[31] == 0


def test_event_after_debounce_with_time_first_seen():
    board, m = setup(debounce=10)
    board.place(square("c3"))
    ev = run(board, m, 1000, 1005)
    assert ev == []                           # still debouncing after 5 ms
    ev = run(board, m, 1010, 1010)
    assert ev == [(square("c3"), 1, 1000)]    # reported at 1010, time = first seen
    assert m.occupied[square("c3")] == 1


def test_timestamps_of_several_squares_and_tick_wrap():
    board, m = setup()
    start = ticks_add(0, -12)                 # 12 ms before the tick counter wraps
    t = start
    ev = []
    plan = {0: "a1", 3: "e4", 5: "g9"}        # scan number -> square placed before it
    for i in range(12):
        if i in plan:
            board.place(square(plan[i]))
        board.t_us = i * 5000
        m.scan(t)
        drain(m, ev)
        t = ticks_add(t, 5)
    got = [(e[0], ticks_diff(e[2], start)) for e in ev]
    assert got == [(0, 0), (square("e4"), 15), (62, 25)], got


def test_a_change_just_before_the_ticks_wrap_is_reported_after_its_debounce():
    # Hall builds debounce for 15 ms: a piece set down 5 ms before the tick counter wraps
    # settles after it. The time since the change is taken wrap-safe; a plain subtraction
    # would find it negative and never report the change.
    board, m = setup(sensor="hall", diode="row_cathode", level=0, debounce=cfg.HALL_DEBOUNCE_MS)
    start = ticks_add(0, -5)
    board.place(square("d5"))
    ev = []
    t = start
    for i in range(8):
        board.t_us = i * 5000
        m.scan(t)
        drain(m, ev)
        t = ticks_add(t, 5)
    assert [(e[0], e[1], ticks_diff(e[2], start)) for e in ev] == [(square("d5"), 1, 0)], ev
    assert m.occupied[square("d5")] == 1


def test_bouncing_reed_switch_gives_exactly_one_event():
    board, m = setup()
    sq = square("b7")
    t_us = 0
    for trial in range(30):
        present = 1 - trial % 2
        board.t_us = t_us
        board.place(sq, present, bounce_us=900)
        placed_ms = t_us // 1000
        ev = []
        # Scan every 0.1 ms through the bounce, then at the normal 5 ms period.
        for k in range(12):
            board.t_us = t_us + k * 100
            m.scan(board.t_us // 1000)
            drain(m, ev)
        t_us += 5000
        for k in range(6):
            board.t_us = t_us
            m.scan(t_us // 1000)
            drain(m, ev)
            t_us += 5000
        assert len(ev) == 1, (trial, ev)
        assert ev[0][:2] == (sq, present)
        assert 0 <= ev[0][2] - placed_ms <= 1, (ev, placed_ms)
        assert m.occupied[sq] == present


def test_short_touch_gives_no_event():
    board, m = setup()
    board.place(square("f2"))
    run(board, m, 0, 5)                       # 2 scans = 5 ms of contact < 10 ms debounce
    board.lift(square("f2"))
    assert run(board, m, 10, 60) == []
    assert m.occupied[square("f2")] == 0


def test_hall_rows_restart_the_sensors_on_every_scan():
    # Rows are the sensors' supply. Driven to the inactive level between scans, a 20 Hz sensor
    # is switched off and makes a fresh measurement at every power-up, so a piece shows after
    # the short HALL_DEBOUNCE_MS instead of waiting for the sensor's own 50 ms sample.
    board, m = setup("hall", "row_anode", 0, cfg.HALL_DEBOUNCE_MS, 50, power_up_us=20,
                     sample_ms=50)
    assert m.row_mode == "push_pull"
    for p in ROWS:
        assert machine.driven(p) == 0           # row_anode: off = driven low
        assert machine.drive_ma(p) == 12        # a row powers 7 sensors at once
    run(board, m, 0, 20)
    board.t_us = 23000
    board.place(square("d4"))
    ev = run(board, m, 25, 80)
    assert [(e[0], e[1]) for e in ev] == [(square("d4"), 1)], ev
    assert ev[0][2] == 25                       # seen at the first scan after it was set down
    assert board.multi_row_reads == 0
    # Why the rows are driven off: sensors on a row that is only released keep running on the
    # charge of the line at their own 20 Hz rhythm. A scanner that releases row 4 instead sees
    # the piece only at the sensors' next sample, 50 ms after their first power-up.
    board, m = setup("hall", "row_anode", 0, cfg.HALL_DEBOUNCE_MS, 50, power_up_us=20,
                     sample_ms=50)
    row4 = machine.pins[ROWS[3]]
    seen = []
    for t in range(0, 100, 5):
        board.t_us = t * 1000
        if t == 25:
            board.place(square("d4"))
        row4.init(machine.Pin.OUT, value=1)     # powered
        sleep_us(30)
        if not machine.gpio_in() >> COLS[3] & 1:
            seen.append(t)
        row4.init(machine.Pin.IN)               # released, not driven off
    assert seen[0] == 50, seen


def test_hall_glitch_shorter_than_the_debounce_is_ignored():
    board, m = setup("hall", "row_cathode", 0, cfg.HALL_DEBOUNCE_MS, 50, power_up_us=20,
                     sample_ms=50)
    assert [machine.driven(p) for p in ROWS] == [1] * 9     # row_cathode: off = driven high
    board.place(square("b8"))
    ev = run(board, m, 0, 100)
    assert [(e[0], e[1]) for e in ev] == [(square("b8"), 1)]
    board.t_us = 105000
    board.lift(square("b8"))
    ev = run(board, m, 105, 105 + cfg.HALL_DEBOUNCE_MS - 10)   # back before the window ends
    board.place(square("b8"))
    ev += run(board, m, 110 + cfg.HALL_DEBOUNCE_MS - 10, 200)
    assert ev == []


def test_hall_rows_are_powered_one_at_a_time_and_given_time_to_wake():
    # Sensors that need 300 us after power-up are invisible without a long enough wait.
    board, m = setup("hall", "row_anode", 0, 10, settle=0, power_up_us=300)
    board.place(square("a1"))
    board.place(square("g9"))
    assert run(board, m, 0, 30) == []
    board, m = setup("hall", "row_anode", 0, 10, settle=400, power_up_us=300)
    board.place(square("a1"))
    board.place(square("g9"))
    ev = run(board, m, 0, 30)
    assert sorted((e[0], e[1]) for e in ev) == [(0, 1), (62, 1)]
    assert board.multi_row_reads == 0
    assert board._active == 0                 # every row unpowered between scans
    del machine.trace[:]
    m.scan(35)
    assert machine.trace[:2] == [(ROWS[0], 1), (ROWS[0], 0)]   # row_anode: powered = high


def test_row_anode_wiring_with_active_high_columns():
    board, m = setup("reed", "row_anode", 1)
    assert m.row_mode == "switched"
    for p in COLS:
        assert machine.pins[p].pull == machine.Pin.PULL_DOWN
    for p in ROWS:
        assert machine.driven(p) is None      # idle rows released here too
    board.place(square("e8"))
    del machine.trace[:]
    ev = run(board, m, 0, 20)
    assert [(e[0], e[1]) for e in ev] == [(square("e8"), 1)]
    assert machine.trace[:4] == [(ROWS[0], 1), (ROWS[0], None), (ROWS[1], 1), (ROWS[1], None)]
    assert board.multi_row_reads == 0 and board.fights == 0


def test_columns_in_reverse_order_still_use_one_read():
    cols = tuple(reversed(COLS))              # file a on GP8 ... file g on GP2
    board, m = setup(cols=cols)
    board.place(square("a1"))
    board.place(square("c9"))
    ev = run(board, m, 0, 20)
    assert sorted((e[0], e[1]) for e in ev) == [(0, 1), (square("c9"), 1)]
    assert machine.mem32.reads == 5 * 9


def test_scattered_column_pins_fall_back_to_pin_reads():
    cols = (2, 3, 4, 5, 6, 7, 26)
    board, m = setup(cols=cols)
    board.place(square("g5"))
    board.place(square("a2"))
    ev = run(board, m, 0, 20)
    assert sorted((e[0], e[1]) for e in ev) == [(square("a2"), 1), (square("g5"), 1)]
    assert machine.mem32.reads == 0
    assert board.multi_row_reads == 0


def test_queue_overflow_keeps_the_final_state():
    board, m = setup(queue_len=8)
    squares = list(range(0, 63, 3))           # 21 pieces appear in the same scan
    for sq in squares:
        board.place(sq)
    t = 0
    while t <= 20:
        board.t_us = t * 1000
        m.scan(t)
        t += 5
    assert m.overflow
    assert m.pending() == 8
    first = []
    drain(m, first)
    assert len(first) == 8 and all(e[1] == 1 for e in first)
    assert [sq for sq in range(63) if m.occupied[sq]] == squares   # nothing lost here
    m.resync()
    assert not m.overflow and m.pending() == 0 and m.pop() == -1
    board.lift(squares[0])
    ev = run(board, m, 25, 45)
    assert [(e[0], e[1]) for e in ev] == [(squares[0], 0)]


class FakeTimer:
    """machine.Timer as the rp2 port has it (a callback every period ms); fire() runs it."""
    PERIODIC = 1
    made = []

    def __init__(self, id=-1, mode=PERIODIC, period=5, callback=None, hard=False):
        self.mode, self.period, self.callback, self.hard = mode, period, callback, hard
        FakeTimer.made.append(self)

    def fire(self):
        self.callback(self)

    def deinit(self):
        self.callback = None


def test_scans_from_a_timer_queue_events_the_loop_pops_between_ticks():
    import drivers.matrix as mod
    board, m = setup(debounce=5)
    assert not m.start() and not m.timed       # this port has no machine.Timer: loop scans
    machine.Timer = FakeTimer
    real_ms = mod.ticks_ms
    mod.ticks_ms = lambda: board.t_us // 1000  # the board's time, not the computer's
    try:
        assert m.start() and m.timed
        timer = FakeTimer.made[-1]
        assert timer.period == 5 and timer.mode == FakeTimer.PERIODIC
        assert timer.hard                      # runs inside a garbage collection, too
        # The loop takes events out while the timer keeps putting new ones in, over several
        # wraps of the queue's counters; nothing is lost, repeated or reordered.
        seen = []
        expected = []
        for k in range(300):
            sq = (k * 5) % 63
            present = 0 if board.field[sq] else 1
            (board.place if present else board.lift)(sq)
            expected.append((sq, present))
            for _ in range(2):                 # two equal scans confirm the change
                board.t_us += 5000
                timer.fire()
            if k % 3 == 2:                     # the loop was busy for three changes
                drain(m, seen)
        drain(m, seen)
        assert [(e[0], e[1]) for e in seen] == expected
        assert not m.overflow and m.pending() == 0
        m.stop()
        assert not m.timed and timer.callback is None
    finally:
        del machine.Timer
        mod.ticks_ms = real_ms


class ScanDuringCopy:
    """resync()'s snapshot buffer, with a timer tick landing just before the copy (the timer's
    hard IRQ can interrupt the loop anywhere)."""

    def __init__(self, tick):
        self.data = bytearray(63)
        self.tick = tick

    def __setitem__(self, key, value):
        tick, self.tick = self.tick, None
        if tick is not None:
            tick()
        self.data[key] = value


def test_resync_under_a_timer_gives_a_board_that_matches_the_emptied_queue():
    # Overflow with the timer scanning: the loop empties the queue and rebuilds its view from
    # the board. A piece set down in that moment must show up exactly once: in the returned
    # board or as a queued event, never in both (a repeated event) or in neither (lost).
    board, m = setup(debounce=5, queue_len=8)
    for sq in range(10):
        board.place(sq)
    run(board, m, 0, 10)
    assert m.overflow
    board.place(40)
    board.t_us = 15000
    m.scan(15)                                 # first sight of d6 (debounce starts)

    def tick():
        board.t_us = 20000
        m.scan(20)                             # confirmed: occupied and queued

    m._snap = ScanDuringCopy(tick)
    occ = m.resync().data
    assert not m.overflow
    queued = drain(m, [])
    assert occ[40] == 1 and queued == []       # in the board, not queued again
    assert [sq for sq in range(63) if occ[sq]] == list(range(10)) + [40]


def test_the_timer_scan_runs_with_the_heap_locked():
    # The timer's callback is a hard IRQ: the heap is locked, so one allocation would raise
    # MemoryError, stop the timer and leave the scanning to the loop. Pieces come and go
    # (debounce, queueing) while the callback runs as the hard IRQ does.
    import micropython
    import drivers.matrix as mod
    board, m = setup(debounce=5)
    machine.Timer = FakeTimer
    real_ms = mod.ticks_ms
    mod.ticks_ms = lambda: board.t_us // 1000
    machine.record = False
    try:
        m.start()
        timer = FakeTimer.made[-1]
        seen = []
        for k in range(60):
            (board.place if k % 2 == 0 else board.lift)(k // 2)
            for _ in range(2):
                board.t_us += 5000
                micropython.heap_lock()
                try:
                    timer.fire()
                finally:
                    micropython.heap_unlock()
            drain(m, seen)
        assert m.fault is None and m.timed, m.fault
        assert len(seen) == 60
    finally:
        m.stop()
        del machine.Timer
        mod.ticks_ms = real_ms


def test_a_failing_timer_scan_hands_scanning_back_to_the_loop():
    import drivers.matrix as mod
    board, m = setup()
    machine.Timer = FakeTimer
    try:
        assert m.start() and m.timed
        timer = FakeTimer.made[-1]

        def broken(t):
            raise OSError(5)
        m.scan = broken
        timer.fire()
        assert not m.timed and timer.callback is None   # the loop scans again
        assert isinstance(m.fault, OSError)
    finally:
        del machine.Timer


def test_a_ctrl_c_caught_by_the_timer_scan_is_handed_to_the_loop_and_scans_go_on():
    # USB Ctrl-C is raised in whatever Python code runs next; in the scan's hard IRQ it would
    # be printed and lost, and mpremote could never stop main.py to flash the board.
    import drivers.matrix as mod
    board, m = setup(debounce=5)
    machine.Timer = FakeTimer
    real_ms = mod.ticks_ms
    mod.ticks_ms = lambda: board.t_us // 1000
    try:
        assert m.start()
        timer = FakeTimer.made[-1]
        real = m.scan

        def interrupted(t):
            raise KeyboardInterrupt
        m.scan = interrupted
        try:
            timer.fire()
        except KeyboardInterrupt:          # on the board: printed by the IRQ dispatcher, lost
            raise AssertionError("the Ctrl-C escaped the timer's callback")
        assert m.interrupted and m.timed and m.fault is None
        m.scan = real
        board.place(30)
        for _ in range(2):
            board.t_us += 5000
            timer.fire()
        assert m.pop() == 30 | 0x80        # the timer still scans
    finally:
        m.stop()
        del machine.Timer
        mod.ticks_ms = real_ms


def test_the_queue_holds_exactly_queue_len_events_across_counter_wraps():
    board, m = setup(queue_len=8)
    for k in range(40):
        for i in range(8):
            m._push(i, k)
        assert m.pending() == 8 and not m.overflow
        m._push(99, k)                         # one too many: dropped
        assert m.overflow and m.pending() == 8
        assert [m.pop() for _ in range(9)] == list(range(8)) + [-1]
        m.resync()


def test_constructor_rejects_wrong_pin_counts_and_options():
    vboard.reset()
    msg = raises(ValueError, Matrix, ROWS[:8], COLS)
    assert "9 row pins" in msg
    raises(ValueError, Matrix, ROWS, COLS, "reed", "cathode")
    raises(ValueError, Matrix, ROWS, COLS, "optical")


def test_scan_allocates_nothing():
    board, m = setup()
    machine.record = False
    for sq in (0, 9, 31, 62):
        board.place(sq)
    run(board, m, 0, 30)
    grow, total = vboard.heap_bytes(lambda i: m.scan(100 + 5 * i), 500)
    assert grow == 0 and total == 0, (grow, total)

    # Pieces coming and going (debounce bookkeeping, queueing, popping) allocate nothing
    # either; board.place() is the fake's side, so it stays outside the measured calls.
    try:
        from micropython import mem_total
    except ImportError:
        return
    used = 0
    events = 0
    for i in range(400):
        board.place(10 + i % 20, (i // 20) % 2)
        t0 = mem_total()
        m.scan(1000 + 5 * i)
        while m.pop() >= 0:
            events += 1
        used += mem_total() - t0
    assert events > 10
    assert used == 0, used
