# NeoPixel driver: the right LED lights for each square whatever way the chain is laid out,
# brightness is applied, and the estimated current never exceeds the budget.

import vboard
from checks import raises

machine = vboard.install()

from vboard import neopixel  # noqa: E402
from drivers.leds import Leds, FRAME_LEN, SHIFT, from_config, MAX_MA, USB_MA  # noqa: E402
import config as cfg  # noqa: E402

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_show_allocates_nothing",   # heap figures: MicroPython only
                    "test_show_with_a_power_sense_allocates_nothing")

FILES = "abcdefg"


def chain_walk(wiring, start, runs):
    """Squares in chain order, by walking the chain from its first corner (independent of the
    driver's arithmetic)."""
    f = 0 if start[0] == "a" else 6
    r = 0 if start[1] == "1" else 8
    df = 1 if f == 0 else -1
    dr = 1 if r == 0 else -1
    out = []
    if runs == "ranks":                      # move along files, step to the next rank
        for line in range(9):
            ff = f
            for _ in range(7):
                out.append((r + line * dr) * 7 + ff)
                ff += df
            if wiring == "serpentine":
                f, df = ff - df, -df         # next line starts where this one ended
    else:                                    # move along ranks, step to the next file
        for line in range(7):
            rr = r
            for _ in range(9):
                out.append(rr * 7 + f + line * df)
                rr += dr
            if wiring == "serpentine":
                r, dr = rr - dr, -dr
    return out


def make(wiring="serpentine", start="a1", runs="ranks", brightness=100, budget=MAX_MA, ma=20,
         idle=0):
    vboard.reset()
    leds = Leds(cfg.LED_PIN, wiring, start, runs, brightness, budget, ma, idle)
    return leds, neopixel.instances[-1]


def test_every_wiring_option_puts_each_square_on_its_led():
    frame = bytearray(FRAME_LEN)
    for sq in range(63):                     # a colour unique to each square (within the cap)
        frame[3 * sq] = sq + 1
        frame[3 * sq + 1] = 64 + sq
        frame[3 * sq + 2] = 130 - sq
    n = 0
    for wiring in ("rows", "serpentine"):
        for start in ("a1", "g1", "a9", "g9"):
            for runs in ("ranks", "files"):
                leds, np = make(wiring, start, runs)
                leds.show(frame)
                order = chain_walk(wiring, start, runs)
                assert sorted(order) == list(range(63))
                for i in range(63):
                    sq = order[i]
                    assert np.rgb(i) == (sq + 1, 64 + sq, 130 - sq), (wiring, start, runs, i)
                n += 1
    assert n == 16


def test_chain_corners_for_some_layouts():
    sq = {}
    for f in range(7):
        for r in range(9):
            sq[FILES[f] + str(r + 1)] = r * 7 + f
    cases = [
        # (wiring, start, runs): names of chain LEDs 0, 6, 7, 31, 62
        (("serpentine", "a1", "ranks"), ("a1", "g1", "g2", "d5", "g9")),
        (("rows", "a1", "ranks"), ("a1", "g1", "a2", "d5", "g9")),
        (("rows", "g9", "files"), ("g9", "g3", "g2", "d5", "a1")),
        (("serpentine", "a9", "files"), ("a9", "a3", "a2", "d5", "g1")),
        (("serpentine", "g1", "ranks"), ("g1", "a1", "a2", "d5", "a9")),
    ]
    for opts, names in cases:
        leds, np = make(*opts)
        for idx, name in zip((0, 6, 7, 31, 62), names):
            frame = bytearray(FRAME_LEN)
            frame[3 * sq[name]] = 255
            leds.show(frame)
            lit = [i for i in range(63) if np.rgb(i) != (0, 0, 0)]
            assert lit == [idx], (opts, name, lit)


def test_bytes_go_out_green_red_blue():
    leds, np = make("rows", "a1", "ranks")
    frame = bytearray(FRAME_LEN)
    frame[0:3] = bytes((10, 20, 30))
    leds.show(frame)
    assert np.frames[-1][0:3] == bytes((20, 10, 30))
    assert np.writes == 1


def test_brightness_scales_every_channel():
    leds, np = make(brightness=40)
    frame = bytearray(FRAME_LEN)
    frame[0:3] = bytes((255, 128, 10))
    leds.show(frame)
    r, g, b = np.rgb(0)
    s = 40 * 4096 // 100
    assert (r, g, b) == (255 * s >> SHIFT, 128 * s >> SHIFT, 10 * s >> SHIFT)
    assert 0.39 <= r / 255 <= 0.41
    leds.set_brightness(0)
    leds.show(frame)
    assert np.rgb(0) == (0, 0, 0)
    leds.set_brightness(150)                 # clamped
    assert leds.brightness == 100


def estimated_ma(buf, ma, idle):
    return 63 * idle + sum(buf) * ma / 255


def test_full_white_never_exceeds_the_budget():
    white = bytearray(b"\xff" * FRAME_LEN)
    for budget in (80, 200, cfg.LED_CURRENT_BUDGET_MA, 500, 1000):
        for brightness in (10, cfg.LED_BRIGHTNESS, 100):
            leds, np = make(brightness=brightness, budget=budget, ma=cfg.LED_MA_PER_CHANNEL,
                            idle=cfg.LED_IDLE_MA)
            leds.show(white)
            ma = estimated_ma(np.frames[-1], cfg.LED_MA_PER_CHANNEL, cfg.LED_IDLE_MA)
            assert ma <= budget, (budget, brightness, ma)
            assert ma <= leds.last_ma <= budget
            level = 255 * (brightness * 4096 // 100) >> SHIFT
            uncapped = estimated_ma(bytes([level]) * FRAME_LEN, cfg.LED_MA_PER_CHANNEL,
                                    cfg.LED_IDLE_MA)
            if uncapped <= budget:
                assert ma == uncapped            # the cap does not dim a frame that fits
            else:     # capped, but only dimmer than needed by rounding each channel down
                assert ma >= budget - 189 * cfg.LED_MA_PER_CHANNEL / 255 - 1, (budget, ma)


def test_current_cap_scales_uniformly_and_holds_for_random_frames():
    seed = 7
    leds, np = make(brightness=100, budget=cfg.LED_CURRENT_BUDGET_MA, ma=20, idle=1)
    frame = bytearray(FRAME_LEN)
    for trial in range(40):
        for i in range(FRAME_LEN):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            frame[i] = (seed >> 16) & 0xFF if trial % 2 else ((seed >> 16) & 1) * 255
        leds.show(frame)
        out = np.frames[-1]
        assert estimated_ma(out, 20, 1) <= cfg.LED_CURRENT_BUDGET_MA
        s = leds.last_scale                  # one factor for every channel: colours keep balance
        order = chain_walk("serpentine", "a1", "ranks")
        for i in range(63):
            sq = order[i]
            want = tuple(frame[3 * sq + c] * s >> SHIFT for c in range(3))
            assert np.rgb(i) == want


def test_off_and_last_ma():
    leds, np = make(idle=1)
    leds.show(bytearray(b"\xff" * FRAME_LEN))
    assert leds.last_ma > 63
    leds.off()
    assert np.frames[-1] == bytes(FRAME_LEN)
    assert leds.last_ma == 63


def test_bad_option_is_refused():
    vboard.reset()
    raises(ValueError, Leds, cfg.LED_PIN, "zigzag")


def test_show_allocates_nothing():
    leds, np = make(brightness=cfg.LED_BRIGHTNESS, budget=cfg.LED_CURRENT_BUDGET_MA,
                    idle=cfg.LED_IDLE_MA)
    machine.record = False
    frame = bytearray(b"\xff" * FRAME_LEN)
    grow, total = vboard.heap_bytes(lambda i: leds.show(frame), 200)
    assert grow == 0 and total == 0, (grow, total)


class _Cfg:
    pass


def test_strict_usb_caps_the_leds_at_200_ma():
    # POWER_SUPPLY = "usb_strict": LEDs + Pico + OLED stay within the 250 mA MicroPython's USB
    # descriptor requests, whatever LED_CURRENT_BUDGET_MA says.
    white = bytearray(b"\xff" * FRAME_LEN)
    for supply, budget, expected in (("usb", 350, 350), ("usb_strict", 350, 200),
                                     ("usb_strict", 150, 150), ("external", 1150, 1150),
                                     ("usb", 1150, 350), ("external", 5000, MAX_MA)):
        vboard.reset()
        c = _Cfg()
        for key in dir(cfg):
            if key.isupper():
                setattr(c, key, getattr(cfg, key))
        c.POWER_SUPPLY = supply
        c.LED_CURRENT_BUDGET_MA = budget
        c.LED_BRIGHTNESS = 100
        machine.set_adc(c.POWER_SENSE_PIN, 3.0)     # the external supply on the LED rail
        leds = from_config(c)
        leds.show(white)
        # (one step of the scale factor on all 189 channels is about 15 mA)
        assert expected - 16 <= leds.last_ma <= expected, (supply, budget, leds.last_ma)


def real_ma(buf):
    """What the LEDs really draw for what they received: the brightest WS2812B, 20 mA per
    channel at full value, and 1 mA each when dark."""
    return 63 + sum(buf) * 20 / 255


def test_no_setting_and_no_caller_defeats_the_cap():
    # Issue 21: LED_MA_PER_CHANNEL = 1 let a full-white frame through unscaled (an estimate of
    # 252 mA for a real 3.8 A); a Leds made at the REPL with a huge budget did the same.
    white = bytearray(b"\xff" * FRAME_LEN)
    for budget, ma in ((350, 1), (5000, 1), (5000, 20), (100000, 0)):
        vboard.reset()
        leds = Leds(cfg.LED_PIN, brightness=100, budget_ma=budget, ma_per_channel=ma)
        leds.show(white)
        np = neopixel.instances[-1]
        assert real_ma(np.frames[-1]) <= min(budget, MAX_MA) + 1, (budget, ma)
    vboard.reset()
    leds = Leds(cfg.LED_PIN, brightness=100)        # what the REPL gets by default
    leds.show(white)
    assert real_ma(neopixel.instances[-1].frames[-1]) <= USB_MA + 1


class _Sense:
    def __init__(self):
        self.ext = True

    def external(self):
        return self.ext


def test_the_usb_cap_applies_whenever_the_rail_is_not_on_the_external_supply():
    # Issue 21: with JP1 on USB and POWER_SUPPLY = "external" the board drew 2 A from USB.
    white = bytearray(b"\xff" * FRAME_LEN)
    vboard.reset()
    sense = _Sense()
    leds = Leds(cfg.LED_PIN, brightness=100, budget_ma=1150, sense=sense)
    np = neopixel.instances[-1]
    leds.show(white)
    assert 1150 - 16 <= real_ma(np.frames[-1]) <= 1150
    sense.ext = False                              # switched to USB (or the supply unplugged)
    leds.show(white)
    assert USB_MA - 16 <= real_ma(np.frames[-1]) <= USB_MA
    sense.ext = True
    leds.show(white)
    assert real_ma(np.frames[-1]) > 1000


def test_the_power_sense_reads_the_divider():
    from drivers import power
    vboard.reset()

    class C:
        POWER_SUPPLY = "external"
        POWER_SENSE_PIN = 26
    sense = power.from_config(C())
    for volts, present in ((0.0, False), (2.4, False), (2.7, True), (3.26, True)):
        machine.set_adc(26, volts)                 # 0.6 x the external supply
        assert sense.external() == present, volts
    C.POWER_SUPPLY = "usb"
    assert power.from_config(C()) is None


def test_show_with_a_power_sense_allocates_nothing():
    from drivers import power
    vboard.reset()
    machine.set_adc(26, 3.0)
    leds = Leds(cfg.LED_PIN, brightness=100, budget_ma=1150, sense=power.PowerSense(26))
    machine.record = False
    frame = bytearray(b"\xff" * FRAME_LEN)
    grow, total = vboard.heap_bytes(lambda i: leds.show(frame), 200)
    assert grow == 0 and total == 0, (grow, total)
