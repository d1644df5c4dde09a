# Buttons / rotary encoder and the buzzer: one press is one event, a long press is "back", the
# encoder turns the right way, the buzzer beeps without blocking.

import vboard

machine = vboard.install()

from drivers.buttons_const import BTN_UP, BTN_DOWN, BTN_OK, BTN_BACK, BTN_OK_DOWN  # noqa: E402
from drivers.inputs import Inputs  # noqa: E402
from drivers.buzzer import Buzzer  # noqa: E402
import config as cfg  # noqa: E402

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_poll_allocates_nothing",)   # heap figures: MicroPython only

UP, DOWN, OK = cfg.BUTTON_PINS
A, B, PUSH = cfg.ENCODER_PINS


def make(kind="buttons", long_ms=700, steps=4):
    vboard.reset()
    pins = cfg.BUTTON_PINS if kind == "buttons" else cfg.ENCODER_PINS
    return Inputs(kind, pins, cfg.BUTTON_DEBOUNCE_MS, long_ms, steps)


def events(inp):
    out = []
    while True:
        c = inp.pop()
        if c < 0:
            return out
        out.append(c)


def hold(inp, t0, t1, out, step=1):
    t = t0
    while t <= t1:
        inp.poll(t)
        out += events(inp)
        t += step
    return out


def bounce(inp, pin, final, t, out):
    """Contact chatter for 5 ms (1 ms steps), then the final level."""
    for k in range(5):
        machine.set_input(pin, (final + k + 1) % 2)
        inp.poll(t + k)
        out += events(inp)
    machine.set_input(pin, final)
    return t + 5


def test_codes_are_distinct_and_importable_without_machine():
    assert sorted((BTN_UP, BTN_DOWN, BTN_OK, BTN_BACK, BTN_OK_DOWN)) == [1, 2, 3, 4, 5]
    import drivers.buttons_const as bc
    names = [n for n in dir(bc) if not n.startswith("_")]
    assert sorted(names) == ["BTN_BACK", "BTN_DOWN", "BTN_OK", "BTN_OK_DOWN", "BTN_UP"]


def test_bouncing_button_gives_one_event():
    inp = make()
    for p in cfg.BUTTON_PINS:
        assert machine.pins[p].pull == machine.Pin.PULL_UP
    out = []
    t = bounce(inp, UP, 0, 100, out)          # press with chatter
    hold(inp, t, t + 100, out)
    assert out == [BTN_UP]
    t = bounce(inp, UP, 1, 300, out)          # release with chatter: nothing
    hold(inp, t, t + 100, out)
    assert out == [BTN_UP]
    bounce(inp, DOWN, 0, 500, out)
    hold(inp, 505, 600, out)
    assert out == [BTN_UP, BTN_DOWN]


def test_press_shorter_than_debounce_is_ignored():
    inp = make()
    out = []
    machine.set_input(DOWN, 0)
    hold(inp, 0, cfg.BUTTON_DEBOUNCE_MS - 5, out)
    machine.set_input(DOWN, 1)
    hold(inp, cfg.BUTTON_DEBOUNCE_MS - 4, 200, out)
    assert out == []


def test_press_is_reported_after_the_debounce_time():
    inp = make()
    out = []
    machine.set_input(UP, 0)
    hold(inp, 1000, 1000 + cfg.BUTTON_DEBOUNCE_MS - 1, out)
    assert out == []
    hold(inp, 1000 + cfg.BUTTON_DEBOUNCE_MS, 1000 + cfg.BUTTON_DEBOUNCE_MS, out)
    assert out == [BTN_UP]


def test_ok_short_press_is_sent_on_release_and_its_start_on_press():
    inp = make()
    out = []
    machine.set_input(OK, 0)
    hold(inp, 0, 300, out)
    assert out == [BTN_OK_DOWN]               # (what OK will confirm is noted now)
    machine.set_input(OK, 1)
    hold(inp, 301, 400, out)
    assert out == [BTN_OK_DOWN, BTN_OK]


def test_a_button_held_while_the_board_powers_on_is_no_press():
    # A hand on UP or OK when the power comes back: nothing until it is released; the next
    # press counts as usual.
    vboard.reset()
    machine.set_input(UP, 0)
    machine.set_input(OK, 0)
    inp = Inputs("buttons", cfg.BUTTON_PINS, cfg.BUTTON_DEBOUNCE_MS, 700, 4)
    out = hold(inp, 0, 1500, [])
    machine.set_input(UP, 1)
    machine.set_input(OK, 1)
    hold(inp, 1501, 1600, out)
    assert out == []
    machine.set_input(UP, 0)
    hold(inp, 1601, 1700, out)
    assert out == [BTN_UP]


def test_long_press_is_back_once_and_release_sends_nothing():
    inp = make()
    out = []
    machine.set_input(OK, 0)
    hold(inp, 0, 698, out)
    assert out == [BTN_OK_DOWN]
    hold(inp, 699, 700, out)
    assert out == [BTN_OK_DOWN, BTN_BACK]     # at 700 ms after the first edge, still held
    hold(inp, 701, 3000, out, 7)
    machine.set_input(OK, 1)
    hold(inp, 3001, 3100, out)
    assert out == [BTN_OK_DOWN, BTN_BACK]
    machine.set_input(OK, 0)                  # and the next short press is ok again
    hold(inp, 3200, 3300, out)
    machine.set_input(OK, 1)
    hold(inp, 3301, 3400, out)
    assert out == [BTN_OK_DOWN, BTN_BACK, BTN_OK_DOWN, BTN_OK]


def test_long_press_time_is_configurable():
    inp = make(long_ms=300)
    out = []
    machine.set_input(OK, 0)
    hold(inp, 0, 299, out)
    assert out == [BTN_OK_DOWN]
    hold(inp, 300, 310, out)
    assert out == [BTN_OK_DOWN, BTN_BACK]


CW = ((0, 1), (0, 0), (1, 0), (1, 1))        # A falls first


def turn(inp, seq, t, out, chatter=False, together=False):
    for a, b in seq:
        if together:                          # both contacts changed before the handler ran
            machine.set_inputs({A: a, B: b})
            inp.poll(t)
            out += events(inp)
            t += 1
            continue
        if chatter:                           # the switching contact bounces once
            pin, level = (A, a) if machine.pins[A].value() != a else (B, b)
            for v in (level, 1 - level):
                machine.set_input(pin, v)
                inp.poll(t)
                out += events(inp)
                t += 1
        machine.set_input(A, a)
        machine.set_input(B, b)
        inp.poll(t)
        out += events(inp)
        t += 1
    return t


def test_encoder_clockwise_is_down_counter_clockwise_is_up():
    inp = make("encoder")
    out = []
    t = turn(inp, CW * 3, 0, out)
    assert out == [BTN_DOWN] * 3
    ccw = tuple(reversed(CW[:3])) + ((1, 1),)
    t = turn(inp, ccw * 2, t, out)
    assert out == [BTN_DOWN] * 3 + [BTN_UP] * 2


def test_encoder_tolerates_chatter_a_missed_step_and_a_half_turn_back():
    inp = make("encoder")
    out = []
    t = turn(inp, CW * 2, 0, out, chatter=True)
    assert out == [BTN_DOWN, BTN_DOWN]
    t = turn(inp, (CW[0], CW[2], CW[3]), t, out, together=True)   # a state never seen
    assert out == [BTN_DOWN] * 3
    t = turn(inp, (CW[0], CW[1], CW[0], (1, 1)), t, out)   # half a click and back
    assert out == [BTN_DOWN] * 3


def test_encoder_with_two_steps_per_detent():
    inp = make("encoder", steps=2)
    out = []
    turn(inp, CW * 2, 0, out)                 # rests at 00 and 11: 4 clicks
    assert out == [BTN_DOWN] * 4


def test_encoder_push_short_and_long():
    inp = make("encoder")
    out = []
    machine.set_input(PUSH, 0)
    hold(inp, 0, 100, out)
    machine.set_input(PUSH, 1)
    hold(inp, 101, 200, out)
    machine.set_input(PUSH, 0)
    hold(inp, 300, 1100, out, 5)
    machine.set_input(PUSH, 1)
    hold(inp, 1101, 1200, out)
    assert out == [BTN_OK_DOWN, BTN_OK, BTN_OK_DOWN, BTN_BACK]


def detents_at(rate, n, clockwise=True):
    """Quadrature states for n detents at `rate` detents per second: [(t_ms, a, b)]."""
    seq = CW if clockwise else tuple(reversed(CW[:3])) + ((1, 1),)
    out = []
    for k in range(n * 4):
        out.append((k * 250.0 / rate, seq[k % 4][0], seq[k % 4][1]))
    return out


def test_fast_turn_loses_no_detent_while_the_loop_is_busy():
    # 2 revolutions per second of a 24-detent encoder (48 detents/s), and a main loop that polls
    # only every 400 ms (a long screen refresh or move search): every detent still arrives.
    for rate, poll_ms in ((20, 400), (48, 400), (48, 1000)):
        inp = make("encoder")
        machine.record = False
        out = []
        next_poll = poll_ms
        for t, a, b in detents_at(rate, 60):
            while t >= next_poll:
                inp.poll(int(next_poll))
                out += events(inp)
                next_poll += poll_ms
            machine.set_input(A, a)              # the pin interrupt runs at the edge
            machine.set_input(B, b)
        for k in range(5):                       # more than a queue's worth arrives in 2 polls
            inp.poll(int(next_poll) + 5 * k)
            out += events(inp)
        assert out == [BTN_DOWN] * 60, (rate, poll_ms, len(out))
        assert machine.irq_errors == []
    # Counter-clockwise, with the contacts bouncing at every edge.
    inp = make("encoder")
    out = []
    for t, a, b in detents_at(20, 10, clockwise=False):
        pin, level = (A, a) if machine.pins[A].value() != a else (B, b)
        for v in (level, 1 - level, level):
            machine.set_input(pin, v)
    inp.poll(0)
    out += events(inp)
    assert out == [BTN_UP] * 10


def test_encoder_handler_is_a_hard_irq_on_both_contacts():
    inp = make("encoder")
    for p in (A, B):
        pin = machine.pins[p]
        assert pin._irq is not None and pin._hard
        assert pin._trigger == machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING
    assert machine.pins[PUSH]._irq is None       # the push switch is polled and debounced
    assert inp.pop() == -1


def test_a_ctrl_c_caught_by_the_encoder_handler_is_handed_to_the_loop():
    # A Ctrl-C from the USB serial that lands in the encoder's hard IRQ would be printed and
    # lost there; the handler keeps it for the loop (app.run raises it again).
    inp = make("encoder")
    real = inp._pa

    def interrupted():
        raise KeyboardInterrupt
    inp._pa = interrupted
    try:
        inp._edge(machine.pins[A])
    except KeyboardInterrupt:
        raise AssertionError("the Ctrl-C escaped the encoder's handler")
    assert inp.interrupted
    inp._pa = real
    out = []
    for t, a, b in detents_at(20, 3):            # the encoder still counts
        machine.set_input(A, a)
        machine.set_input(B, b)
    inp.poll(0)
    out += events(inp)
    assert out == [BTN_DOWN] * 3


def test_poll_allocates_nothing():
    for kind in ("buttons", "encoder"):
        inp = make(kind)
        machine.record = False
        grow, total = vboard.heap_bytes(lambda i: inp.poll(i), 300)
        assert grow == 0 and total == 0, (kind, grow, total)
    # Presses and turns: the pin changes happen outside the measured calls.
    from micropython import mem_total
    inp = make("encoder")
    machine.record = False
    used = 0
    n = 0
    for i in range(400):
        a, b = CW[i % 4]
        machine.set_input(A, a)
        machine.set_input(B, b)
        machine.set_input(PUSH, (i // 50) % 2)
        t0 = mem_total()
        inp.poll(i * 5)
        while inp.pop() >= 0:
            n += 1
        used += mem_total() - t0
    assert n > 50 and used == 0, (n, used)
    # The encoder's interrupt handler, called with the heap locked as in an ISR, never failed.
    assert machine.irq_errors == []
    inp = make("encoder")
    machine.record = False
    grow, total = vboard.heap_bytes(lambda i: machine.set_input(A if i % 2 else B, (i // 2) % 2),
                                    400)
    assert machine.irq_errors == []


def test_buzzer_beeps_without_blocking_and_stops():
    vboard.reset()
    bz = Buzzer(cfg.BUZZER_PIN)
    pwm = machine.pwms[-1]
    assert pwm.pin.id == cfg.BUZZER_PIN and pwm.duty_u16() == 0
    bz.beep("ok", 1000)
    high = pwm.freq()
    assert pwm.duty_u16() > 0 and bz.busy
    bz.update(1010)
    assert pwm.duty_u16() > 0
    bz.update(1100)
    assert pwm.duty_u16() == 0 and not bz.busy
    bz.beep("error", 2000)
    low = pwm.freq()
    # Audible on a piezo resonating at about 4 kHz: both tones within 1.5-4 kHz, and the
    # error tone clearly lower than "ok".
    assert 1500 <= low < high <= 4000 and low * 1.5 <= high, (low, high)
    assert pwm.duty_u16() > 0
    t = 2000
    sounding = []
    while t < 2600:
        bz.update(t)
        sounding.append(pwm.duty_u16() > 0)
        t += 10
    assert pwm.duty_u16() == 0 and not bz.busy
    # two tones with a pause between: on, off, on, off
    changes = [sounding[i] for i in range(len(sounding)) if i == 0 or sounding[i] != sounding[i - 1]]
    assert changes == [True, False, True, False], changes


def test_buzzer_absent_or_muted_does_nothing():
    vboard.reset()
    bz = Buzzer(None)
    bz.beep("error", 0)
    bz.update(50)
    assert machine.pwms == [] and not bz.busy
    bz = Buzzer(cfg.BUZZER_PIN)
    bz.enabled = False
    bz.beep("ok", 0)
    assert machine.pwms[-1].duty_u16() == 0
