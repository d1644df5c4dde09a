# Sensor matrix scanner: 9 rows (ranks 1..9) x 7 columns (files a..g), one diode per square.
#
# One scan drives each row to its active level in turn (reed: the row sinks or sources current
# through closed switches; hall: the row powers that row of sensors), reads all 7 columns at
# once, and takes the row back, so only one row is ever active. Columns on up to 8 neighbouring
# GPIOs are read with a single SIO GPIO_IN register read plus a lookup table; other layouts fall
# back to one Pin.value() per column.
#
# How idle rows are left (row_mode), chosen so that two row pins can never fight:
#   "open_drain" (reed, row_cathode, the default build): rows are Pin.OPEN_DRAIN, which the rp2
#       port emulates by switching the direction: a scanned row drives low, every other row is
#       an input (high-impedance). A shorted diode plus two closed switches in one column then
#       only joins a driven row to released ones, never a high pin to a low pin.
#   "switched" (reed, row_anode): the same idea for active-high rows; the output latch holds 1
#       and the row is switched between Pin.OUT and Pin.IN (slower: init() parses arguments).
#   "push_pull" (hall): the row is the sensors' supply, so idle rows are driven to the inactive
#       level. That switches the sensors off completely between scans (supply = ground), so each
#       scan sees a fresh power-up measurement; a released row would keep them running on the
#       charge of the line at their own 20 Hz rhythm. The pads are set to 12 mA drive: a row
#       carries the power-up current of 7 sensors at once (hardware/sensor-matrix.md).
#
# Square index = (rank - 1) * 7 + file (a1 = 0, g1 = 6, a2 = 7, g9 = 62).
#
# Debounce: a square counts as changed once its raw reading has not changed for debounce_ms
# (reed: DEBOUNCE_MS; hall: HALL_DEBOUNCE_MS). A bounce that ends back at the old state produces
# no event.
#
# Events (like CircuitPython's keypad.EventQueue, without allocation):
#   code = m.pop()   -> -1 if empty, else square | (present << 7)
#   m.event_time     -> ms when that change was first seen (before the debounce delay)
# Events carry the new state, so applying one twice is harmless. If the queue is full, new
# events are dropped and m.overflow becomes True; m.occupied (debounced 0/1 per square) is still
# exact, so the consumer should then call m.resync() and rebuild its view from the board it
# returns (a copy of m.occupied that matches the emptied queue).
# At start-up m.occupied is all 0: pieces already on the board arrive as ordinary events.
#
# Scanning from a timer: m.start() scans every period_ms from a machine.Timer callback, so the
# sensors keep their period and their event times while the loop works longer (a commit, a
# save, the screen). The callback is a hard IRQ: a soft one waits for the next bytecode, so a
# garbage collection (21-25 ms with the firmware's heap on the RP2040) or a long C call held
# the scans up for as long. A hard IRQ runs inside those too (only flash erase/program turn
# interrupts off, and the LED frame where it is bit-banged, off the rp2 port), so the scan
# must not allocate (the heap is locked in a hard IRQ): it allocates nothing, as the tests
# check. It may interrupt the loop anywhere, so the queue is shared by two sides without a
# lock: the scan (producer) only advances the tail, pop() (consumer) only the head, each a
# counter that wraps at twice the queue length, so neither ever rewrites what the other just
# wrote; resync() checks that no scan queued an event while it copied the board. Without
# start() the loop calls scan().
#
# Nothing here allocates per scan: state lives in preallocated bytearrays/arrays, hot methods
# keep few locals (MicroPython heap-allocates frames of functions with many locals), and rows
# are switched by calling the Pin object (pin(v)), the port's fast path.
import sys
from array import array

from machine import Pin, mem32
import machine

from drivers.ticks import ticks_diff, ticks_ms, sleep_us

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_ROWS = const(9)
_COLS = const(7)
_SQUARES = const(63)
GPIO_IN = 0xD0000004         # RP2040 SIO GPIO_IN: level of GPIO 0..29, one bit each
# PADS_BANK0 atomic-set alias (base + 0x2000); GPIO n's pad register at +4 + 4n. The RP2350
# (Pico 2) has the same register layout at another address.
PADS_SET = 0x4003A000 if "RP2350" in getattr(sys.implementation, "_machine", "") \
    else 0x4001E000
_DRIVE_12MA = const(0x30)    # DRIVE field (bits 5:4) = 3: 12 mA (reset value: 4 mA)
_MAX_WINDOW = const(8)       # widest GPIO span read in one go (lookup table of 2**8 bytes)


class Matrix:
    def __init__(self, row_pins, col_pins, sensor="reed", diode="row_cathode", active_level=0,
                 debounce_ms=5, settle_us=15, queue_len=64, period_ms=5):
        if len(row_pins) != _ROWS or len(col_pins) != _COLS:
            raise ValueError("matrix needs 9 row pins and 7 column pins")
        if sensor not in ("reed", "hall") or diode not in ("row_cathode", "row_anode") \
                or active_level not in (0, 1):
            raise ValueError("bad matrix sensor, diode or active level")
        self.sensor = sensor
        self.period_ms = period_ms
        self.occupied = bytearray(_SQUARES)
        self.event_time = 0
        self.overflow = False
        # row_cathode: the row sinks current (reed) / is the sensors' ground (hall): active low.
        self._row_on = 0 if diode == "row_cathode" else 1
        self._row_off = 1 - self._row_on   # open-drain rows: 1 = released (high-impedance)
        self._rows = self._setup_rows(row_pins)
        pull = Pin.PULL_UP if active_level == 0 else Pin.PULL_DOWN
        self._cols = [Pin(p, Pin.IN, pull) for p in col_pins]
        self._active = active_level
        self._db = debounce_ms
        self._settle = settle_us
        self._now = 0
        self._chg = 0
        self._raw = bytearray(_ROWS)       # last raw column bits per row (bit f = file f present)
        self._stable = bytearray(_ROWS)    # debounced bits per row
        self._uns = bytearray(_ROWS)       # squares whose raw value changed < debounce_ms ago
        self._t_run = array("l", [0] * _SQUARES)    # last raw change per square
        self._t_first = array("l", [0] * _SQUARES)  # first raw change since last stable state
        n = 1
        while n < queue_len:
            n <<= 1                        # power of two: ring index is a mask
        self._qlen = n
        self._qmask = n - 1
        self._qwrap = 2 * n - 1            # head and tail counters wrap here: full != empty
        self._qc = bytearray(n)
        self._qt = array("l", [0] * n)
        self._qh = 0                       # written by pop() / resync() only
        self._qtail = 0                    # written by the scan only
        self._timer = None
        self.timed = False                 # scanning from a timer (start())
        self._timed_cb = self._timed       # bound once: no allocation per tick
        self._snap = bytearray(_SQUARES)    # resync()'s copy of the board
        self.fault = None                  # an exception that stopped the timer's scans
        self.interrupted = False           # a Ctrl-C the timer's scan caught for the loop
        self._mem = mem32
        self._addr = GPIO_IN
        self._setup_bank_read(col_pins, active_level)

    def _setup_rows(self, row_pins):
        if self.sensor == "hall":
            self.row_mode = "push_pull"
            rows = [Pin(p, Pin.OUT, value=self._row_off) for p in row_pins]
            for p in row_pins:
                mem32[PADS_SET + 4 + 4 * p] = _DRIVE_12MA
        elif self._row_on == 0:
            self.row_mode = "open_drain"
            rows = [Pin(p, Pin.OPEN_DRAIN, value=1) for p in row_pins]   # 1 = released
        else:
            self.row_mode = "switched"
            rows = [Pin(p, Pin.IN) for p in row_pins]
            for pin in rows:
                pin.value(1)                   # the latch drives 1 once the output is on
        return rows

    def _setup_bank_read(self, col_pins, active_level):
        # Table from the GPIO window holding the columns to "present" bits in file order.
        lo = min(col_pins)
        width = max(col_pins) - lo + 1
        if width > _MAX_WINDOW:
            self._shift = -1               # too spread out: per-pin reads
            self._lut = None
            return
        self._shift = lo
        self._wmask = (1 << width) - 1
        lut = bytearray(1 << width)
        for w in range(1 << width):
            bits = 0
            for f in range(_COLS):
                if ((w >> (col_pins[f] - lo)) & 1) == active_level:
                    bits |= 1 << f
            lut[w] = bits
        self._lut = lut

    def scan(self, now):
        """One full scan at time now (ms): debounce, queue changes. Call every period_ms."""
        self._now = now
        if self._shift < 0 or self.row_mode == "switched":
            self._scan_slow()
            return
        mem = self._mem
        r = 0
        while r < _ROWS:
            pin = self._rows[r]
            pin(self._row_on)
            if self._settle:
                sleep_us(self._settle)
            bits = self._lut[(mem[self._addr] >> self._shift) & self._wmask]
            pin(self._row_off)
            if bits != self._raw[r] or self._uns[r]:
                self._update(r, bits)
            r += 1

    def _scan_slow(self):
        # Scattered column pins (one read per pin) or rows switched by direction.
        r = 0
        while r < _ROWS:
            self._row(r, 1)
            if self._settle:
                sleep_us(self._settle)
            bits = self._read_pins() if self._shift < 0 else \
                self._lut[(self._mem[self._addr] >> self._shift) & self._wmask]
            self._row(r, 0)
            if bits != self._raw[r] or self._uns[r]:
                self._update(r, bits)
            r += 1

    def _row(self, r, on):
        pin = self._rows[r]
        if self.row_mode == "switched":
            pin.init(Pin.OUT if on else Pin.IN)
        else:
            pin(self._row_on if on else self._row_off)

    def _read_pins(self):
        bits = 0
        f = 0
        while f < _COLS:
            if self._cols[f].value() == self._active:
                bits |= 1 << f
            f += 1
        return bits

    def _update(self, r, bits):
        # Only rows with a new raw value or unsettled squares get here.
        self._chg = bits ^ self._raw[r]
        self._raw[r] = bits
        todo = self._chg | self._uns[r]
        f = 0
        while todo:
            if todo & 1:
                self._square(r, f)
            todo >>= 1
            f += 1

    def _square(self, r, f):
        m = 1 << f
        sq = r * _COLS + f
        if self._chg & m:
            self._t_run[sq] = self._now
            if not self._uns[r] & m:
                self._t_first[sq] = self._now
                self._uns[r] |= m
        if ticks_diff(self._now, self._t_run[sq]) < self._db:
            return
        self._uns[r] &= ~m
        if (self._raw[r] ^ self._stable[r]) & m:
            self._stable[r] ^= m
            p = 1 if self._raw[r] & m else 0
            self.occupied[sq] = p
            self._push(sq | (p << 7), self._t_first[sq])

    def _push(self, code, t):
        tail = self._qtail
        if (tail - self._qh) & self._qwrap >= self._qlen:
            self.overflow = True           # drop: m.occupied still holds the final state
            return
        i = tail & self._qmask
        self._qc[i] = code
        self._qt[i] = t
        self._qtail = (tail + 1) & self._qwrap    # published last: the slot is complete

    def pop(self):
        """Next event code (square | present << 7) or -1; sets event_time."""
        h = self._qh
        if h == self._qtail:
            return -1
        i = h & self._qmask
        self.event_time = self._qt[i]
        code = self._qc[i]
        self._qh = (h + 1) & self._qwrap
        return code

    def pending(self):
        return (self._qtail - self._qh) & self._qwrap

    def resync(self):
        """Empty the queue and clear overflow; returns the debounced board (a copy of
        m.occupied) that matches the emptied queue: with a timer scanning, an event queued
        while this runs is either in the copy and not in the queue, or the other way round."""
        self.overflow = False              # first: a drop from here on flags again
        snap = self._snap
        while True:
            tail = self._qtail
            snap[:] = self.occupied        # one C call: no scan can run inside it
            if tail == self._qtail:        # no scan queued an event in between
                break
        self._qh = tail
        return snap

    # --- scanning from a timer ----------------------------------------------------------------
    def start(self):
        """Scan every period_ms from a timer (hard IRQ) from now on. False where the port
        has no machine.Timer (the loop then keeps calling scan())."""
        if self._timer is None:
            timer = getattr(machine, "Timer", None)
            if timer is None:
                return False
            self._timer = timer(-1, mode=timer.PERIODIC, period=self.period_ms,
                                callback=self._timed_cb, hard=True)
            self.timed = True
        return True

    def stop(self):
        if self._timer is not None:
            self._timer.deinit()
            self._timer = None
            self.timed = False

    def _timed(self, timer):
        try:
            self.scan(ticks_ms())
        except KeyboardInterrupt:          # Ctrl-C from the USB serial (mpremote, Thonny) is
            self.interrupted = True        # raised in whatever Python code runs next, often
            # this callback: swallowed here, main.py would go on and the tools could never
            # reach the REPL. The loop raises it again (see app.run); scans go on meanwhile.
        except Exception as e:             # never leave the board unscanned: the loop takes
            self.fault = e                 # over (it checks m.timed each step) and reports it
            self.stop()

    def release(self):
        """Every row inactive: released (reed) or driven off (hall: all sensors unpowered)."""
        for r in range(_ROWS):
            self._row(r, 0)


def from_config(cfg):
    hall = cfg.SENSOR_TYPE == "hall"
    return Matrix(cfg.MATRIX_ROW_PINS, cfg.MATRIX_COL_PINS, cfg.SENSOR_TYPE,
                  cfg.DIODE_DIRECTION, cfg.SENSOR_ACTIVE_LEVEL,
                  cfg.HALL_DEBOUNCE_MS if hall else cfg.DEBOUNCE_MS,
                  getattr(cfg, "HALL_POWER_UP_US", 150) if hall
                  else getattr(cfg, "MATRIX_SETTLE_US", 15),
                  period_ms=cfg.SCAN_PERIOD_MS)
