# The LED chain on the emulated Pico (tools/rp2040): drivers/leds.py sends each frame with a PIO
# state machine fed by DMA, and the bench decodes the WS2812 bits from the LED pin's edges. The
# frames must be exactly what the controller asked for (byte for byte what the bit-banged
# neopixel path sends), two frames in a row must both arrive, with the latch time between them,
# and the sensor matrix's timer scan must go on while a frame is on the wire (the bit-banged
# path turns interrupts off for its 1.9 ms). One emulator for the module: main.py boots first,
# then the REPL tests interrupt it.
import pytest

import pico_bench
import vboard

pico_bench.require()

machine = vboard.install()

import config as cfg  # noqa: E402
from drivers import leds as fw_leds  # noqa: E402
from vboard import neopixel as fake_neopixel  # noqa: E402

GPIO_CTRL = "0x40014004 + 8 * %d"      # IO_BANK0 GPIOn_CTRL; FUNCSEL 6 = PIO0
FUNC_PIO0 = 6
LATCH_MS = 0.28                        # newer WS2812B parts latch after 280 us low


@pytest.fixture(scope="module")
def bench():
    b = pico_bench.start()
    yield b
    b.close()


def frame_of(seed):
    """189 bytes, a different colour on every square."""
    return bytearray((seed + 37 * i) & 0xFF for i in range(189))


def host_bytes(frame, brightness, budget):
    """The bytes the bit-banged path (neopixel on the host's fake machine) puts on the wire."""
    vboard.reset()
    machine.record = True
    leds = fw_leds.Leds(cfg.LED_PIN, cfg.LED_WIRING, cfg.LED_START, cfg.LED_RUNS, brightness,
                        budget, cfg.LED_MA_PER_CHANNEL, cfg.LED_IDLE_MA)
    leds.show(frame)
    return fake_neopixel.instances[-1].frames[-1], leds.last_scale


SHOW = """
import gc, time, config
from drivers import leds
l = leds.Leds(config.LED_PIN, config.LED_WIRING, config.LED_START, config.LED_RUNS, %d, %d,
              config.LED_MA_PER_CHANNEL, config.LED_IDLE_MA)
frames = [bytearray(%r), bytearray(%r)]
l.show(frames[0])
gc.collect()
before = gc.mem_alloc()
l.show(frames[1])                      # at once: waits for the first to leave and latch
l.show(frames[0])
l.show(frames[1])
print(gc.mem_alloc() - before, l.last_scale)
"""


def test_the_main_loop_gives_the_led_pin_to_the_pio(bench):
    b = bench
    assert b.screen()[0] == "Set up the board" and b.lit()   # main.py lit the set-up squares
    out = b.pico.exec("from machine import mem32\nprint(mem32[%s] & 31)\n"
                      % (GPIO_CTRL % cfg.LED_PIN))
    assert int(out) == FUNC_PIO0, out


@pytest.mark.parametrize("brightness, budget", [(100, 100000), (cfg.LED_BRIGHTNESS, 350)])
def test_frames_back_to_back_arrive_exactly_as_asked_without_allocating(bench, brightness,
                                                                         budget):
    p = bench.pico
    a, b = frame_of(1), frame_of(100)
    if budget < 1000:
        b = bytearray(b"\xff" * 189)                   # full white: the current cap scales it
    n = len(p.frames)
    grow, scale = p.exec(SHOW % (brightness, budget, bytes(a), bytes(b))).split()
    p.run_for(5)
    got = p.frames[n:]
    assert len(got) == 4, [(f.t_first, f.t_end) for f in got]
    want_a, _ = host_bytes(a, brightness, budget)
    want_b, host_scale = host_bytes(b, brightness, budget)
    assert [f.raw for f in got] == [want_a, want_b, want_a, want_b]
    assert int(scale) == host_scale
    s = host_scale
    assert got[1].squares == [tuple(b[3 * sq + c] * s >> fw_leds.SHIFT for c in range(3))
                              for sq in range(63)]
    for prev, nxt in zip(got, got[1:]):                # each frame latched before the next
        assert nxt.t_first - prev.t_end >= LATCH_MS, (prev.t_end, nxt.t_first)
    assert int(grow) == 0                              # show() allocates nothing


SCAN_DURING_FRAMES = """
import time, config
from drivers import leds, matrix
l = leds.from_config(config)
m = matrix.from_config(config)
f = bytearray(b'\\x00\\x40\\x10' * 63)
m.start()
try:
    for i in range(24):                # frames at every phase of the 4 ms scan period
        time.sleep_us(2500 + 170 * i)
        l.show(f)
    time.sleep_ms(10)
finally:
    m.stop()
"""


def test_the_matrix_scan_goes_on_while_a_frame_is_on_the_wire(bench):
    p = bench.pico
    n = len(p.frames)
    p.scan_starts(clear=True)
    p.exec(SCAN_DURING_FRAMES)
    frames = p.frames[n:]
    starts = p.scan_starts(clear=True)
    assert len(frames) == 24
    inside = [s for s in starts if any(f.t_first < s < f.t_end for f in frames)]
    # A frame takes 1.9 ms of the 4 ms period: with interrupts on, scans start while a good
    # share of these frames are on the wire (8 of 24); with interrupts off, none could.
    assert len(inside) >= len(frames) // 4, (len(inside), len(starts))


def test_a_frame_time_from_before_a_ticks_wrap_does_not_hold_the_next_frame(bench):
    # ticks_us() wraps every 2**30 us (17.9 min): after a long dark spell the time the last
    # frame freed the wire looks like the far future; show() must not wait for it.
    p = bench.pico
    n = len(p.frames)
    out = p.exec("import time, config\nfrom drivers import leds\n"
                 "l = leds.from_config(config)\n"
                 "l._wire._free_at = time.ticks_add(time.ticks_us(), (1 << 29) - 1000)\n"
                 "t = time.ticks_us()\n"
                 "l.show(bytearray(b'\\x20' * 189))\n"
                 "print(time.ticks_diff(time.ticks_us(), t))\n", timeout_ms=5000)
    p.run_for(5)
    assert len(p.frames) == n + 1, out                 # (waiting would take 9 minutes)
