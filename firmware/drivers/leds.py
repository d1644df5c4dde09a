# WS2812 NeoPixels, one per square, through MicroPython's `neopixel` module.
#
# show(frame): frame is a bytearray(189) of 63 RGB triples in square order (a1, b1, ..., g9),
# full-scale logical colours. The driver maps squares to the physical chain (LED_WIRING,
# LED_START, LED_RUNS), applies the brightness percentage and then a hard current cap:
#   estimated mA = 63 * idle_ma + sum(all channel values) / 255 * ma_per_channel
# never exceeds budget_ma; if it would, the whole frame is scaled down by one factor, so
# colours keep their balance. last_ma is the estimate for the frame just sent.
# Bytes go straight into the NeoPixel buffer through a precomputed offset table: no tuples, no
# allocation per show(). The per-byte loops are viper (machine code on the board): a frame is
# ready for the wire in about 0.2 ms instead of 3.3 ms, which is most of a lift's way to light.
from machine import Pin
from neopixel import NeoPixel

try:
    import micropython
    from micropython import const
except ImportError:  # CPython: the decorator is a no-op and viper's casts plain values
    class micropython:
        @staticmethod
        def viper(f):
            return f

    def const(x):
        return x

    def ptr8(x):
        return x

SQUARES = const(63)
FRAME_LEN = const(189)   # 63 * RGB
SHIFT = const(12)        # scale factors are out of 1 << SHIFT

WIRINGS = ("rows", "serpentine")
STARTS = ("a1", "g1", "a9", "g9")
RUNS = ("ranks", "files")


def chain_index(sq, wiring="serpentine", start="a1", runs="ranks"):
    """Position along the LED chain of square sq (0 = a1 ... 62 = g9)."""
    f = sq % 7
    r = sq // 7
    if start[0] == "g":
        f = 6 - f
    if start[1] == "9":
        r = 8 - r
    if runs == "ranks":          # along a rank first: 9 lines of 7
        line, pos, n = r, f, 7
    else:                        # along a file first: 7 lines of 9
        line, pos, n = f, r, 9
    if wiring == "serpentine" and line & 1:
        pos = n - 1 - pos
    return line * n + pos


class Leds:
    def __init__(self, pin, wiring="serpentine", start="a1", runs="ranks", brightness=40,
                 budget_ma=350, ma_per_channel=20, idle_ma=0):
        if wiring not in WIRINGS or start not in STARTS or runs not in RUNS:
            raise ValueError("bad LED wiring option")
        self._np = NeoPixel(Pin(pin, Pin.OUT), SQUARES)
        self.buf = self._np.buf
        order = getattr(self._np, "ORDER", (1, 0, 2, 3))
        bpp = getattr(self._np, "bpp", 3)
        # _dst[3 * sq + c] = byte in buf for colour c (0 R, 1 G, 2 B) of square sq.
        self._dst = bytearray(FRAME_LEN)
        for sq in range(SQUARES):
            base = chain_index(sq, wiring, start, runs) * bpp
            for c in range(3):
                self._dst[3 * sq + c] = base + order[c]
        self._ma = ma_per_channel
        self._idle = idle_ma * SQUARES
        # Largest allowed sum of channel values: sum * ma / 255 <= budget - idle.
        self._limit = max(0, (budget_ma - self._idle) * 255 // ma_per_channel)
        self.brightness = 0
        self.set_brightness(brightness)
        self.last_ma = self._idle
        self.last_scale = 0                  # factor used by the last show(), out of 4096

    def set_brightness(self, percent):
        self.brightness = max(0, min(100, percent))

    def _scale(self, frame):
        # Factor out of 4096. Every product stays below 2**30 (a small int on the RP2040, so
        # no allocation): 255 * 4096, total * 4096 (total <= 189 * 255) and limit << 12 (only
        # computed when limit < total).
        s = self.brightness * 4096 // 100
        total = _sum(frame, FRAME_LEN)
        if total > self._limit and total * s > self._limit << SHIFT:
            s = (self._limit << SHIFT) // total
        return s

    def show(self, frame):
        s = self._scale(frame)
        self.last_scale = s
        total = _map(self.buf, frame, self._dst, s)
        self.last_ma = self._idle + (total * self._ma + 254) // 255
        self._np.write()

    def off(self):
        buf = self.buf
        i = len(buf)
        while i:
            i -= 1
            buf[i] = 0
        self.last_ma = self._idle
        self._np.write()


@micropython.viper
def _sum(data: ptr8, n: int) -> int:
    t = 0
    i = 0
    while i < n:
        t += data[i]
        i += 1
    return t


@micropython.viper
def _map(buf: ptr8, frame: ptr8, dst: ptr8, s: int) -> int:
    # buf[dst[i]] = frame[i] scaled by s / 4096, for the 189 bytes of a frame; returns the sum
    # of what was written (for the current estimate).
    t = 0
    i = 0
    while i < 189:                       # FRAME_LEN
        v = (int(frame[i]) * s) >> 12    # SHIFT
        buf[dst[i]] = v
        t += v
        i += 1
    return t


STRICT_USB_MA = const(200)   # POWER_SUPPLY = "usb_strict": LEDs + Pico + OLED within 250 mA


def budget_of(cfg):
    """The LED current cap config.py asks for; "usb_strict" caps it at STRICT_USB_MA."""
    budget = cfg.LED_CURRENT_BUDGET_MA
    if getattr(cfg, "POWER_SUPPLY", "usb") == "usb_strict":
        budget = min(budget, STRICT_USB_MA)
    return budget


def from_config(cfg):
    return Leds(cfg.LED_PIN, cfg.LED_WIRING, cfg.LED_START, cfg.LED_RUNS, cfg.LED_BRIGHTNESS,
                budget_of(cfg), cfg.LED_MA_PER_CHANNEL, getattr(cfg, "LED_IDLE_MA", 0))
