# Buttons (up, down, ok) or a quadrature rotary encoder (A, B, push). All contacts are active
# low with the internal pull-ups. Call poll(now_ms) every few ms (the main loop's scan period
# is fine), then pop() events until it returns -1. Codes are in drivers.buttons_const.
#
# Buttons: a contact counts once it has read the same for debounce_ms. up/down send their code
# on press; ok sends BTN_OK_DOWN on press and BTN_OK on release, or BTN_BACK as soon as it has
# been held long_press_ms (then the release sends nothing). The encoder push behaves like ok.
# A contact already held when Inputs starts (at power-on) sends nothing until it is released.
# Encoder: A and B are read in a pin interrupt on every edge, so no step is missed while the
# main loop is busy (drawing the screen, computing moves). The handler is safe as a hard IRQ:
# it allocates nothing and only updates small ints. It runs A/B through a Gray-code transition
# table (bounces just step back and forth), and counts one detent when the contacts reach a
# rest position after at least half a detent's steps in one direction: clockwise (A falls
# before B) -> +1, counter-clockwise -> -1. poll() turns the net count since the last poll into
# events (BTN_DOWN per clockwise detent, BTN_UP per counter-clockwise one), as many as the queue
# takes; the rest waits for the next poll. If yours turns the wrong way, swap A and B.
# The count is a 16-bit wrapping position written only by the handler; poll() only reads it
# and keeps its own copy of what it has sent, so the two never race.
from machine import Pin

from drivers.buttons_const import BTN_UP, BTN_DOWN, BTN_OK, BTN_BACK, BTN_OK_DOWN
from drivers.ticks import ticks_diff

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_OK = const(2)              # index of ok / push among the three contacts
_QLEN = const(16)
_POS_MASK = const(0xFFFF)   # the detent position wraps at 16 bits
_POS_HALF = const(0x8000)
# Step for each (previous A,B state << 2 | new state): 1 = clockwise, 2 = counter-clockwise.
# Clockwise runs A,B = 11 -> 01 -> 00 -> 10 -> 11 (states 3, 1, 0, 2).
_QUAD = b"\x00\x02\x01\x00\x01\x00\x00\x02\x02\x00\x00\x01\x00\x01\x02\x00"
# States where an encoder with 4, 2 or 1 steps per detent rests (bit n = state n).
_REST = {4: 0b1000, 2: 0b1001, 1: 0b1111}


class Inputs:
    def __init__(self, kind="buttons", pins=(18, 19, 20), debounce_ms=20, long_press_ms=700,
                 detent_steps=4):
        if kind not in ("buttons", "encoder") or detent_steps not in _REST:
            raise ValueError("bad input configuration")
        self.encoder = kind == "encoder"
        self._pins = [Pin(p, Pin.IN, Pin.PULL_UP) for p in pins]
        self._db = debounce_ms
        self._long = long_press_ms
        self._now = 0
        self._raw = 0               # bit i: contact i reads pressed (before debounce)
        self._stable = 0            # bit i: contact i pressed (debounced)
        self._t = [0, 0, 0]         # last raw change per contact
        self._ok_t = 0              # when ok went down (first edge)
        self._long_sent = False
        self.interrupted = False    # a Ctrl-C the encoder's IRQ handler caught for the loop
        self._first = _OK if self.encoder else 0
        self._q = bytearray(_QLEN)
        self._qh = 0
        self._qn = 0
        self._rest = _REST[detent_steps]
        self._half = max(1, detent_steps // 2)
        self._acc = 0               # steps since the last rest position (IRQ handler only)
        self._pos = 0               # detent position (IRQ handler only)
        self._sent = 0              # position already turned into events (poll only)
        self._ab = 3
        self._pa, self._pb = self._pins[0], self._pins[1]
        for i in range(self._first, 3):
            if self._pins[i].value() == 0:
                # held while the board powered on (a hand on a button when the power came
                # back): no press; its release sends nothing
                self._raw |= 1 << i
                self._stable |= 1 << i
        self._long_sent = bool(self._stable & 4)
        if self.encoder:
            self._ab = self._read_ab()
            trig = Pin.IRQ_RISING | Pin.IRQ_FALLING
            self._pins[0].irq(self._edge, trig, hard=True)
            self._pins[1].irq(self._edge, trig, hard=True)

    def _read_ab(self):
        return (self._pins[0]() << 1) | self._pins[1]()

    def _edge(self, pin):
        # Hard IRQ handler for A and B: no allocation, few locals, no further calls but the pins.
        try:
            ab = (self._pa() << 1) | self._pb()
            step = _QUAD[(self._ab << 2) | ab]
            self._ab = ab
            if step == 1:
                self._acc += 1
            elif step == 2:
                self._acc -= 1
            if self._rest >> ab & 1:
                if self._acc >= self._half:
                    self._pos = (self._pos + 1) & _POS_MASK
                elif self._acc <= -self._half:
                    self._pos = (self._pos - 1) & _POS_MASK
                self._acc = 0
        except KeyboardInterrupt:   # a Ctrl-C meant for the loop: handed on (see Matrix._timed)
            self.interrupted = True

    def poll(self, now):
        self._now = now
        if self.encoder:
            self._detents()
        i = self._first
        while i < 3:
            self._contact(i)
            i += 1
        if self._stable & 4 and not self._long_sent and \
                ticks_diff(now, self._ok_t) >= self._long:
            self._long_sent = True
            self._push(BTN_BACK)

    def _contact(self, i):
        m = 1 << i
        v = m if self._pins[i].value() == 0 else 0
        if v != self._raw & m:
            self._raw ^= m
            self._t[i] = self._now
        elif v != self._stable & m and ticks_diff(self._now, self._t[i]) >= self._db:
            self._stable ^= m
            if v:
                self._pressed(i)
            elif i == _OK and not self._long_sent:
                self._push(BTN_OK)

    def _pressed(self, i):
        if i == _OK:
            self._ok_t = self._t[i]
            self._long_sent = False
            self._push(BTN_OK_DOWN)
        else:
            self._push(BTN_UP if i == 0 else BTN_DOWN)

    def _detents(self):
        # Signed detents since the last poll; send what fits in the queue.
        d = ((self._pos - self._sent + _POS_HALF) & _POS_MASK) - _POS_HALF
        while d and self._qn < _QLEN:
            if d > 0:
                self._push(BTN_DOWN)
                self._sent = (self._sent + 1) & _POS_MASK
                d -= 1
            else:
                self._push(BTN_UP)
                self._sent = (self._sent - 1) & _POS_MASK
                d += 1

    def _push(self, code):
        if self._qn < _QLEN:        # full: drop (a person cannot press 16 keys in one poll)
            self._q[(self._qh + self._qn) % _QLEN] = code
            self._qn += 1

    def pop(self):
        """Next button code (drivers.buttons_const) or -1."""
        if not self._qn:
            return -1
        c = self._q[self._qh]
        self._qh = (self._qh + 1) % _QLEN
        self._qn -= 1
        return c

    def pressed(self, i):
        """Debounced state of contact i (0 up / A, 1 down / B, 2 ok / push)."""
        return bool(self._stable >> i & 1)


def from_config(cfg):
    enc = cfg.INPUT_TYPE == "encoder"
    return Inputs(cfg.INPUT_TYPE, cfg.ENCODER_PINS if enc else cfg.BUTTON_PINS,
                  cfg.BUTTON_DEBOUNCE_MS, getattr(cfg, "LONG_PRESS_MS", 700),
                  getattr(cfg, "ENCODER_DETENT_STEPS", 4))
