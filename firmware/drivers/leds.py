# WS2812 NeoPixels, one per square.
#
# show(frame): frame is a bytearray(189) of 63 RGB triples in square order (a1, b1, ..., g9),
# full-scale logical colours. The driver maps squares to the physical chain (LED_WIRING,
# LED_START, LED_RUNS), applies the brightness percentage and then a hard current cap:
#   estimated mA = 63 * idle_ma + sum(all channel values) / 255 * ma_per_channel
# never exceeds budget_ma; if it would, the whole frame is scaled down by one factor, so
# colours keep their balance. last_ma is the estimate for the frame just sent. The cap holds
# whatever the caller asks for, a REPL user included: the estimate counts at least the
# brightest LED (MIN_MA_PER_CHANNEL), the budget is at most what the external supply's fuse
# holds (MAX_MA), and with a power sense (drivers/power.py) it is at most USB_MA whenever the
# LED rail is not on the external supply.
# Bytes go straight into the wire's buffer through a precomputed offset table: no tuples, no
# allocation per show(). The per-byte loops are viper (machine code on the board): a frame is
# ready for the wire in about 0.2 ms instead of 3.3 ms, which is most of a lift's way to light.
#
# The wire. On the RP2040 (the rp2 port) a PIO state machine makes the WS2812 waveform and a
# DMA channel feeds it the frame: once the bytes are in place (0.35 ms on the emulated RP2040),
# show() starts the transfer with one register store and returns, with interrupts on, so the
# sensor matrix's timer scan is never held off. The 1.9 ms the frame takes on the wire then
# pass while the loop goes on. The buffer is one 32-bit word per LED
# (G << 24 | R << 16 | B << 8, which the machine shifts out MSB first, 24 bits per word), and
# it is read by the DMA while the frame goes out: the next show() first waits until the last
# frame has left the wire and the LEDs have latched it (LATCH_US low). Elsewhere (the unix
# port, the host's fake machine) MicroPython's `neopixel` sends the bytes with
# machine.bitstream, which keeps interrupts off for the whole 1.9 ms.
from machine import Pin

from drivers.ticks import ticks_add, ticks_diff, ticks_us

try:
    import rp2
    import uctypes
except ImportError:  # no PIO here: bit-banged through neopixel
    rp2 = None

try:
    import micropython
    from micropython import const
except ImportError:  # CPython: viper runs as plain Python (barragoon/hostshim.py)
    from barragoon.hostshim import micropython, const, ptr8  # noqa: F401

SQUARES = const(63)
FRAME_LEN = const(189)   # 63 * RGB
SHIFT = const(12)        # scale factors are out of 1 << SHIFT

# PIO wire. One bit is 10 cycles of an 8 MHz state machine (1.25 us, 800 kbit/s): a 0 is high
# for 3 cycles (375 ns) then low for 7 (875 ns), a 1 high for 6 (750 ns) then low for 4
# (500 ns). That is the classic WS2812/WS2812B timing (T0H 0.4, T1H 0.8, T0L 0.85, T1L 0.45 us,
# each +-150 ns) and within the newer WS2812B-V5's T0H 220-380 ns; neopixel's bitstream uses
# 400/850 and 800/450 ns. 63 LEDs take 63 * 24 * 1.25 = 1890 us.
LED_SM = const(0)        # rp2.StateMachine 0 (PIO0, SM0); the DMA channel is any free one
PIO_FREQ = const(8000000)
BIT_NS = const(1250)
LATCH_US = const(300)    # line low before the next frame: WS2812 needs > 50 us, newer WS2812B
#                          parts > 280 us

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


if rp2 is not None:
    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
                 autopull=True, pull_thresh=24)
    def _ws2812():
        # The side-set pin is the data line; [n] adds n cycles. Stalls (line low) at the out
        # when the FIFO runs dry, which is how a frame ends.
        wrap_target()
        label("bit")
        out(x, 1).side(0)[3]               # low: the end of the previous bit (4 cycles)
        jmp(not_x, "zero").side(1)[2]      # high: the start of every bit (3 cycles)
        jmp("bit").side(1)[2]              # a 1 stays high 3 more cycles
        label("zero")
        nop().side(0)[2]                   # a 0 is low 3 cycles earlier
        wrap()


class _PioWire:
    """The chain on a PIO state machine fed by DMA (rp2 port). The state machine owns the pin
    from now on: nothing else may configure it."""
    stride = 4
    offsets = (2, 3, 1)                    # R, G, B in a word's bytes 0, B, R, G

    def __init__(self, pin, n):
        self.pin = pin
        self.buf = bytearray(4 * n)
        self.sm = rp2.StateMachine(LED_SM, _ws2812, freq=PIO_FREQ, sideset_base=Pin(pin))
        self.sm.active(1)
        pio = LED_SM >> 2
        self.dma = rp2.DMA()
        ctrl = self.dma.pack_ctrl(size=2, inc_write=False, treq_sel=(pio << 3) | (LED_SM & 3))
        # Source: buf, one word per transfer; destination: the state machine's TX FIFO,
        # paced by its data request (DREQ_PIOn_TXm). Not started yet.
        self.dma.config(read=self.buf, write=0x50200010 + (pio << 20) + ((LED_SM & 3) << 2),
                        count=n, ctrl=ctrl)
        self._regs = self.dma.registers
        self._addr = uctypes.addressof(self.buf)
        # A frame holds the wire this long from its start: its bits, then the latch time.
        self._hold = (n * 24 * BIT_NS + 999) // 1000 + LATCH_US
        self._free_at = ticks_us()         # when buf may be rewritten and a frame started

    def wait(self):
        """Until the last frame has left the wire and latched (interrupts stay on). A free_at
        more than one hold ahead is a stale time from before a ticks_us wrap (2**30 us)."""
        while self.dma.active() or 0 < ticks_diff(self._free_at, ticks_us()) <= self._hold:
            pass

    def write(self):
        """Send buf (after wait())."""
        # Writing READ_ADDR through its trigger alias (AL3_READ_ADDR_TRIG, word 15) rewinds
        # the source and starts the channel with the count given at config: one store.
        self._free_at = ticks_add(ticks_us(), self._hold)
        self._regs[15] = self._addr


class _BitstreamWire:
    """The chain through MicroPython's neopixel (machine.bitstream, interrupts off)."""

    def __init__(self, pin, n):
        from neopixel import NeoPixel
        self._np = NeoPixel(Pin(pin, Pin.OUT), n)
        self.buf = self._np.buf
        self.stride = getattr(self._np, "bpp", 3)
        order = getattr(self._np, "ORDER", (1, 0, 2, 3))
        self.offsets = (order[0], order[1], order[2])

    def wait(self):
        pass                               # write() returns when the frame is out

    def write(self):
        self._np.write()


_pio_wire = None   # claimed once per boot: a second Leds on the same pin reuses it


def _wire(pin):
    global _pio_wire
    if rp2 is None:
        return _BitstreamWire(pin, SQUARES)
    if _pio_wire is None or _pio_wire.pin != pin:
        if _pio_wire is not None:
            _pio_wire.dma.close()
        _pio_wire = _PioWire(pin, SQUARES)
    return _pio_wire


# Hard limits, whatever a config or a caller asks for (drivers/config_check.py POWER_LIMITS and
# MIN_MA_PER_CHANNEL; a host test keeps them equal).
USB_MA = const(350)             # what the USB port gives the LEDs
MAX_MA = const(1150)            # what the external supply's fuse F1 holds when warm
MIN_MA_PER_CHANNEL = const(20)  # a WS2812B channel at full value, the brightest make


class Leds:
    def __init__(self, pin, wiring="serpentine", start="a1", runs="ranks", brightness=40,
                 budget_ma=USB_MA, ma_per_channel=MIN_MA_PER_CHANNEL, idle_ma=1, sense=None):
        if wiring not in WIRINGS or start not in STARTS or runs not in RUNS:
            raise ValueError("bad LED wiring option")
        budget_ma = min(budget_ma, MAX_MA)
        ma_per_channel = max(ma_per_channel, MIN_MA_PER_CHANNEL)
        self._wire = _wire(pin)
        self.buf = self._wire.buf
        stride = self._wire.stride
        offsets = self._wire.offsets
        # _dst[3 * sq + c] = byte in buf for colour c (0 R, 1 G, 2 B) of square sq.
        self._dst = bytearray(FRAME_LEN)
        for sq in range(SQUARES):
            base = chain_index(sq, wiring, start, runs) * stride
            for c in range(3):
                self._dst[3 * sq + c] = base + offsets[c]
        self._ma = ma_per_channel
        self._idle = idle_ma * SQUARES
        # Largest allowed sum of channel values: sum * ma / 255 <= budget - idle; with a power
        # sense, the smaller one for frames while the rail is on USB.
        self._limit = max(0, (budget_ma - self._idle) * 255 // ma_per_channel)
        self._usb_limit = max(0, (min(budget_ma, USB_MA) - self._idle) * 255 // ma_per_channel)
        self._sense = sense
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
        limit = self._limit
        if self._sense is not None and not self._sense.external():
            limit = self._usb_limit
        total = _sum(frame, FRAME_LEN)
        if total > limit and total * s > limit << SHIFT:
            s = (limit << SHIFT) // total
        return s

    def show(self, frame):
        s = self._scale(frame)
        self.last_scale = s
        self._wire.wait()                    # the DMA may still be reading buf
        total = _map(self.buf, frame, self._dst, s)
        self.last_ma = self._idle + (total * self._ma + 254) // 255
        self._wire.write()

    def off(self):
        self._wire.wait()
        buf = self.buf
        i = len(buf)
        while i:
            i -= 1
            buf[i] = 0
        self.last_ma = self._idle
        self._wire.write()


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
    """The LED current cap config.py asks for; "usb_strict" caps it at STRICT_USB_MA, "usb" at
    USB_MA."""
    budget = cfg.LED_CURRENT_BUDGET_MA
    supply = getattr(cfg, "POWER_SUPPLY", "usb")
    if supply == "usb_strict":
        budget = min(budget, STRICT_USB_MA)
    elif supply == "usb":
        budget = min(budget, USB_MA)
    return budget


def from_config(cfg):
    sense = None
    if getattr(cfg, "POWER_SUPPLY", "usb") == "external":    # (USB boards skip the module)
        from drivers import power
        sense = power.from_config(cfg)
    return Leds(cfg.LED_PIN, cfg.LED_WIRING, cfg.LED_START, cfg.LED_RUNS, cfg.LED_BRIGHTNESS,
                budget_of(cfg), cfg.LED_MA_PER_CHANNEL, getattr(cfg, "LED_IDLE_MA", 1), sense)
