# Driver benchmark on the host, with the virtual hardware of tools/vboard:
#   micropython tools/bench/bench_drivers.py      (the MicroPython unix port; heap figures)
#   python tools/bench/bench_drivers.py           (CPython; times only)
# Prints time per call and heap bytes per call for a full matrix scan, an LED show(), an OLED
# show() and an input poll(), plus the worst-case LED current estimate.
# Two scan times are given: with the fake board (the fake's Python code costs more than the
# driver) and "driver only", where row pins and mem32 are C-level stand-ins, so the figure is
# the driver's own work. The unix port on a PC runs roughly 150x faster than the RP2040 at
# 125 MHz; the "RP2040 est." column is only that factor applied to driver-only lines, not a
# measurement. Not included: bus time on the board (WS2812 data for 63 LEDs ~1.9 ms; an OLED
# frame over I2C at 400 kHz ~23 ms, during which the CPU waits in the I2C driver).
import sys
import time

import os

try:
    _here = __file__
except NameError:
    _here = sys.argv[0]
if not _here.startswith("/"):
    _here = os.getcwd() + "/" + _here
_root = _here.rsplit("/", 3)[0]           # .../tools/bench/bench_drivers.py -> repository root
sys.path.insert(0, _root + "/tools")
sys.path.insert(0, _root + "/firmware")

from toolkit.cli import no_arguments  # noqa: E402

no_arguments("bench_drivers", "Driver benchmark on the virtual board (matrix scan, LED show, "
             "OLED show, input poll):\n  micropython tools/bench/bench_drivers.py   heap and time "
             "on the MicroPython unix port\n  python tools/bench/bench_drivers.py        times on "
             "CPython")
import vboard  # noqa: E402

machine = vboard.install()

import config as cfg  # noqa: E402
from vboard.board_wiring import BoardWiring  # noqa: E402
from drivers.matrix import Matrix, GPIO_IN  # noqa: E402
from drivers.leds import Leds, FRAME_LEN  # noqa: E402
from drivers.ssd1306 import SSD1306  # noqa: E402
from drivers.inputs import Inputs  # noqa: E402

MP = sys.implementation.name == "micropython"
RP2040_FACTOR = 150

if MP:
    def clock_us():
        return time.ticks_us()

    def elapsed_us(t0):
        return time.ticks_diff(time.ticks_us(), t0)
else:
    def clock_us():
        return time.perf_counter()

    def elapsed_us(t0):
        return (time.perf_counter() - t0) * 1e6


def per_call_us(fn, n, runs=7):
    """Best of several runs: other processes on the host only ever add time."""
    fn(0)
    best = None
    for _ in range(runs):
        t0 = clock_us()
        i = 0
        while i < n:
            fn(i)
            i += 1
        us = elapsed_us(t0) / n
        best = us if best is None else min(best, us)
    return best


def heap(fn, n):
    if not MP:
        return "n/a"
    grow, total = vboard.heap_bytes(fn, n)
    if total is None:
        return "%d" % (grow // n)
    return "%d (mem_total %d)" % (grow // n, total // n)


def row(name, us, heap_txt, estimate=False):
    # The RP2040 column only where the time is the driver's own work, not the Python fakes'.
    est = "%.0f us" % (us * RP2040_FACTOR) if MP and estimate else "-"
    print("%-34s %9.2f us   RP2040 est. %-9s heap/call: %s" % (name, us, est, heap_txt))


def bench_matrix(n):
    vboard.reset()
    board = BoardWiring(cfg.MATRIX_ROW_PINS, cfg.MATRIX_COL_PINS)
    # settle_us=0: the figures are the CPU's work; the board adds 9 x MATRIX_SETTLE_US of
    # waiting (printed below), which is real time and does not scale with the CPU.
    m = Matrix(cfg.MATRIX_ROW_PINS, cfg.MATRIX_COL_PINS, debounce_ms=cfg.DEBOUNCE_MS,
               settle_us=0)
    machine.record = False
    for sq in (0, 8, 20, 31, 44, 62):         # a few pieces on the board
        board.place(sq)
    for t in range(0, 50, 5):
        m.scan(t)
    while m.pop() >= 0:
        pass

    def scan(i):
        m.scan(100 + 5 * i)
    row("matrix scan (fake board)", per_call_us(scan, n), heap(scan, n))
    # Driver only: C-level stand-ins for the row pins (called as pin(v)) and mem32.
    m._rows = [abs] * 9
    m._mem = {GPIO_IN: machine.gpio_in()}
    row("matrix scan (driver only)", per_call_us(scan, n), heap(scan, n), True)
    print("  + on the board: 9 x MATRIX_SETTLE_US = %d us of waiting per scan"
          % (9 * cfg.MATRIX_SETTLE_US))

    # Changes going through debounce: every 15 ms file a..g in turn flips on all 9 ranks
    # (9 squares), so most scans have unsettled squares and some queue events.
    state = [machine.gpio_in()]

    def busy(i):
        if i % 3 == 0:
            state[0] ^= 1 << cfg.MATRIX_COL_PINS[(i // 3) % 7]
            m._mem[GPIO_IN] = state[0]
        m.scan(100000 + 5 * i)
        while m.pop() >= 0:
            pass
    row("matrix scan, 9 squares changing", per_call_us(busy, n), heap(busy, n), True)

    vboard.reset()
    board = BoardWiring(cfg.MATRIX_ROW_PINS, (2, 3, 4, 5, 6, 7, 26))
    m = Matrix(cfg.MATRIX_ROW_PINS, (2, 3, 4, 5, 6, 7, 26), settle_us=0)
    machine.record = False
    row("matrix scan, per-pin (fake board)", per_call_us(scan, n // 4), heap(scan, n // 4))


def bench_leds(n):
    vboard.reset()
    leds = Leds(cfg.LED_PIN, cfg.LED_WIRING, cfg.LED_START, cfg.LED_RUNS, cfg.LED_BRIGHTNESS,
                cfg.LED_CURRENT_BUDGET_MA, cfg.LED_MA_PER_CHANNEL, cfg.LED_IDLE_MA)
    machine.record = False
    white = bytearray(b"\xff" * FRAME_LEN)

    def show(i):
        leds.show(white)
    row("LED show (63 LEDs)", per_call_us(show, n), heap(show, n), True)
    print("LED estimate for full white: %d mA at %d %% brightness, %d mA at 100 %% "
          "(budget %d mA)" % (_ma_at(cfg.LED_BRIGHTNESS), cfg.LED_BRIGHTNESS, _ma_at(100),
                              cfg.LED_CURRENT_BUDGET_MA))


def _ma_at(pct):
    vboard.reset()
    leds = Leds(cfg.LED_PIN, cfg.LED_WIRING, cfg.LED_START, cfg.LED_RUNS, pct,
                cfg.LED_CURRENT_BUDGET_MA, cfg.LED_MA_PER_CHANNEL, cfg.LED_IDLE_MA)
    leds.show(bytearray(b"\xff" * FRAME_LEN))
    return leds.last_ma


def bench_oled(n):
    vboard.reset()
    oled = SSD1306(machine.I2C(cfg.I2C_ID), cfg.OLED_ADDR)
    machine.record = False
    oled.text("Barragoon", 0, 0, 1)

    def show(i):
        oled.show()
    row("OLED show (CPU only, fake I2C)", per_call_us(show, n), heap(show, n))


def bench_inputs(n):
    vboard.reset()
    inp = Inputs(cfg.INPUT_TYPE, cfg.BUTTON_PINS, cfg.BUTTON_DEBOUNCE_MS)
    machine.record = False

    def poll(i):
        inp.poll(i)
    row("input poll (buttons, fake pins)", per_call_us(poll, n), heap(poll, n))


def main():
    n = 2000 if MP else 500
    print("bench_drivers on %s %s (best of 7 runs per line)"
          % (sys.implementation.name, ".".join(str(v) for v in sys.implementation.version[:3])))
    bench_matrix(n)
    bench_leds(n // 10)
    bench_oled(n // 10)
    bench_inputs(n)


main()
