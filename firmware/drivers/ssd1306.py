# SSD1306 OLED (128x64, I2C), written from the command table of the SSD1306 datasheet.
#
# The object is a framebuf.FrameBuffer (MONO_VLSB: byte = page * 128 + x, bit = y % 8, which is
# the controller's own GDDRAM layout), so all framebuf drawing works on it; show() sends it.
# I2C framing: every write starts with a control byte, 0x00 = the rest are commands,
# 0x40 = the rest are display data. The pixel buffer lives at offset 1 of a 1025-byte
# bytearray whose byte 0 is 0x40, so show() is one address-window command plus one data write,
# with no allocation.
#
# A whole frame takes 23 ms on a 400 kHz bus, far longer than the board's 5 ms loop step. So the
# loop does not call show() (kept for boot messages): after drawing it calls refresh(), and every
# step update(n), which sends at most n segments (32 columns of one 8-row page, 0.9 ms each)
# that differ from what the display already holds (a shadow copy of its RAM). A changed line of
# text is 4 segments, a whole new screen 32, spread over the next steps.
#
# A display that does not answer (missing, loose wire, dead module) must not stop the board:
# the board plays on with its LEDs. I2C errors are caught; `ok` turns False and `error` says
# why; drawing still works on the buffer, and show() retries (re-initialising the display)
# at most every RETRY_MS, so a missing display does not block the loop on every refresh.
import framebuf

from drivers.ticks import ticks_diff, ticks_ms

try:
    import micropython
    from micropython import const
except ImportError:  # CPython: viper runs as plain Python (barragoon/hostshim.py)
    from barragoon.hostshim import micropython, const, ptr8  # noqa: F401

_CMD = const(0x00)           # control byte: command stream
_DATA = const(0x40)          # control byte: data stream
_SET_CONTRAST = const(0x81)  # + level 0..255
_RAM_ON = const(0xA4)        # display follows RAM (0xA5 = every pixel on)
_NORMAL = const(0xA6)        # 0xA7 = inverse video
_OFF = const(0xAE)           # 0xAF = display on
_ADDR_MODE = const(0x20)     # + 0: horizontal addressing (wraps to next page)
_COL_ADDR = const(0x21)      # + first, last column
_PAGE_ADDR = const(0x22)     # + first, last page
_START_LINE = const(0x40)    # | line 0..63
_SEG_REMAP = const(0xA0)     # | 1: column 127 drives SEG0 (mirror left/right)
_MUX = const(0xA8)           # + rows - 1
_COM_SCAN = const(0xC0)      # | 8: scan COM[N-1] -> COM0 (mirror top/bottom)
_OFFSET = const(0xD3)        # + vertical shift
_COM_PINS = const(0xDA)      # + 0x12 (alternative, 64 rows) or 0x02 (sequential, 32 rows)
_CLOCK = const(0xD5)         # + divide ratio / oscillator (0x80 = reset value)
_PRECHARGE = const(0xD9)     # + phase 1/2 periods
_VCOMH = const(0xDB)         # + deselect level (0x30 = 0.83 x Vcc)
_PUMP = const(0x8D)          # + 0x14 internal charge pump on, 0x10 off (external VCC)
_SCROLL_OFF = const(0x2E)
RETRY_MS = const(10000)
SEG_COLS = const(32)         # columns per segment that update() sends


class SSD1306(framebuf.FrameBuffer):
    def __init__(self, i2c, addr=0x3C, width=128, height=64, flip=False, external_vcc=False):
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.height = height
        self.pages = height // 8
        self.flipped = bool(flip)
        self.external_vcc = external_vcc
        self._data = bytearray(width * self.pages + 1)
        self._data[0] = _DATA
        self.buffer = memoryview(self._data)[1:]
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._c1 = bytearray(2)              # control byte + one command
        self._c2 = bytearray(3)              # control byte + command + argument
        self._c1[0] = self._c2[0] = _CMD
        self._shadow = bytearray(width * self.pages)   # what the display's RAM holds
        self._seg = bytearray(SEG_COLS + 1)            # data control byte + one segment
        self._seg[0] = _DATA
        self._win = bytearray((_CMD, _COL_ADDR, 0, 0, _PAGE_ADDR, 0, 0))   # one segment's
        self._segs = width * self.pages // SEG_COLS
        self._next = 0                       # where update() looks first (round robin)
        self._stale = False                  # the buffer may differ from the shadow
        # Address window = whole screen; sent before each show() so a glitch cannot shift it.
        self._window = bytes((_CMD, _COL_ADDR, 0, width - 1, _PAGE_ADDR, 0, self.pages - 1))
        self.ok = True
        self.error = ""
        self.failures = 0                    # I2C errors seen so far
        self._retry = 0
        self.init_display()

    def _orientation(self):
        # Upright on the usual modules = columns and COM scan both reversed; flip = neither.
        if self.flipped:
            return _SEG_REMAP, _COM_SCAN
        return _SEG_REMAP | 1, _COM_SCAN | 8

    def init_display(self):
        self.fill(0)
        try:
            self._init_commands()
            self._send()
            self.poweron()
        except OSError as e:
            self._failed(e)

    def _init_commands(self):
        seg, com = self._orientation()
        ext = self.external_vcc
        self.i2c.writeto(self.addr, bytes((
            _CMD,
            _OFF,
            _CLOCK, 0x80,
            _MUX, self.height - 1,
            _OFFSET, 0,
            _START_LINE | 0,
            _PUMP, 0x10 if ext else 0x14,
            _ADDR_MODE, 0,
            seg,
            com,
            _COM_PINS, 0x12 if self.height == 64 else 0x02,
            _SET_CONTRAST, 0x9F if ext else 0xCF,
            _PRECHARGE, 0x22 if ext else 0xF1,
            _VCOMH, 0x30,
            _RAM_ON,
            _NORMAL,
            _SCROLL_OFF,
        )))

    def _failed(self, e):
        self.ok = False
        self.failures += 1
        self.error = "OLED at I2C 0x%02x not answering" % self.addr
        if e is not None and e.args:
            self.error += " (OSError %s)" % e.args[0]
        self._retry = ticks_ms()

    def _cmd(self, c):
        self._c1[1] = c
        self.i2c.writeto(self.addr, self._c1)

    def _cmd_arg(self, c, a):
        self._c2[1] = c
        self._c2[2] = a
        self.i2c.writeto(self.addr, self._c2)

    def poweroff(self):
        self._cmd(_OFF)

    def poweron(self):
        self._cmd(_OFF | 1)

    def contrast(self, level):
        self._cmd_arg(_SET_CONTRAST, max(0, min(255, level)))

    def invert(self, on):
        self._cmd(_NORMAL | (1 if on else 0))

    def flip(self, on):
        """Rotate the picture 180 degrees. Segment remap applies to data written afterwards,
        so the buffer is sent again."""
        self.flipped = bool(on)
        seg, com = self._orientation()
        self._cmd(seg)
        self._cmd(com)
        self.show()

    def _send(self):
        self.i2c.writeto(self.addr, self._window)
        self.i2c.writeto(self.addr, self._data)
        _copy(self._shadow, self._data, len(self._shadow))
        self._stale = False

    def refresh(self):
        """The buffer changed: update() sends the difference over its next calls."""
        self._stale = True

    def sending(self):
        """update() has segments left to send (a new screen is going out)."""
        return self.ok and self._stale

    def update(self, n=2):
        """Send at most n segments that differ from the display's RAM. False if the display
        does not answer (see `ok`, `error`; retried as show() does)."""
        if not self.ok:
            return self._recover()
        if not self._stale:
            return True
        try:
            self._segments(n)
            return True
        except OSError:
            self._failed(None)
            return False

    def _segments(self, n):
        # Apart from update(): a frame with locals and a try block would not fit on the stack
        # and would be allocated on the heap at every call.
        while n > 0:
            k = _differs(self._data, self._shadow, self._next, self._segs)
            if k < 0:
                self._stale = False
                return
            self._send_segment(k)
            self._next = (k + 1) % self._segs
            n -= 1

    def _send_segment(self, k):
        x = (k * SEG_COLS) % self.width
        p = k * SEG_COLS // self.width
        w = self._win
        w[2] = x
        w[3] = x + SEG_COLS - 1
        w[5] = w[6] = p
        _take(self._seg, self._data, k * SEG_COLS)
        self.i2c.writeto(self.addr, w)
        self.i2c.writeto(self.addr, self._seg)
        _copy_at(self._shadow, self._seg, k * SEG_COLS)

    def show(self):
        """Send the buffer. False if the display does not answer (see `ok`, `error`)."""
        if not self.ok:
            return self._recover()
        try:
            self._send()
            return True
        except OSError:                      # no `as e`: the frame then stays off the heap
            self._failed(None)
            return False

    def _recover(self):
        if ticks_diff(ticks_ms(), self._retry) < RETRY_MS:
            return False
        try:
            self._init_commands()            # it may have been replugged: set it up again
            self._send()
            self.poweron()
        except OSError as e:
            self._failed(e)
            return False
        self.ok = True
        return True


# Byte loops in viper (machine code on the board). `data` is the 1025-byte send buffer: pixel
# byte i is data[i + 1].
@micropython.viper
def _differs(data: ptr8, shadow: ptr8, start: int, segs: int) -> int:
    # The first segment from start on (round robin) whose bytes differ from the shadow, or -1.
    k = 0
    while k < segs:
        seg = start + k
        if seg >= segs:
            seg -= segs
        i = seg * 32                     # SEG_COLS
        end = i + 32
        while i < end:
            if data[i + 1] != shadow[i]:
                return seg
            i += 1
        k += 1
    return -1


@micropython.viper
def _take(seg: ptr8, data: ptr8, at: int):
    i = 0
    while i < 32:
        seg[i + 1] = data[at + i + 1]
        i += 1


@micropython.viper
def _copy_at(shadow: ptr8, seg: ptr8, at: int):
    i = 0
    while i < 32:
        shadow[at + i] = seg[i + 1]
        i += 1


@micropython.viper
def _copy(shadow: ptr8, data: ptr8, n: int):
    i = 0
    while i < n:
        shadow[i] = data[i + 1]
        i += 1


def from_config(cfg):
    from machine import I2C, Pin
    i2c = I2C(cfg.I2C_ID, sda=Pin(cfg.I2C_SDA_PIN), scl=Pin(cfg.I2C_SCL_PIN), freq=cfg.I2C_FREQ)
    return SSD1306(i2c, cfg.OLED_ADDR, 128, 64, cfg.OLED_FLIP)
