# Physical model of the 9 x 7 sensor matrix, plugged into vboard.machine as its "world".
#
# Reed: a closed switch and its diode join a row line to a column line. With "row_cathode" the
# diode conducts when the row is low and the column is pulled up, so the column reads 0; with
# "row_anode" when the row is high and the column pulled down, so it reads 1. A column whose
# pull is the wrong way round never changes (as on a real board). Rows not at the active level
# block their diodes.
# Hall: a row at the active level powers that row's sensors. A powered sensor's output is
# high-impedance until power_up_us (real time) has passed, then pulls its column to
# active_level while a magnet is present. With sample_ms set, a sensor only refreshes its output
# at multiples of sample_ms (fake clock), like a 20 Hz DRV5032.
#
# Time: t_us is a fake clock the test advances (bounce windows, hall sampling); power-up uses
# real time because the driver really waits for it.
# Bounce: place(sq, 1, bounce_us=800) makes the contact read pseudo-randomly until t_us passes
# the window, then settle.
# Checks: reads (column reads with a row active), multi_row_reads (reads while more than one
# row was active; a correct scanner keeps it 0) and, when machine.record is set, read_rows (the
# active row mask at every column read, i.e. the scan order).
from vboard import machine as _m

try:
    from time import ticks_us, ticks_diff
except ImportError:  # CPython
    import time as _time

    def ticks_us():
        return (_time.perf_counter_ns() // 1000) & 0x3FFFFFFF

    def ticks_diff(a, b):
        return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000

FILES = "abcdefg"


def square(name):
    """'a1' -> 0, 'g1' -> 6, 'a2' -> 7, 'g9' -> 62."""
    return (int(name[1:]) - 1) * 7 + FILES.index(name[0])


def name(sq):
    return FILES[sq % 7] + str(sq // 7 + 1)


class BoardWiring:
    def __init__(self, row_pins, col_pins, sensor="reed", diode="row_cathode", active_level=0,
                 power_up_us=0, sample_ms=0):
        self.row_pins = tuple(row_pins)
        self.col_pins = tuple(col_pins)
        self.sensor = sensor
        self.row_on = 0 if diode == "row_cathode" else 1
        if sensor == "hall":
            self.sink = active_level == 0      # open-drain outputs pull low
        else:
            self.sink = diode == "row_cathode"
        self.power_up_us = power_up_us
        self.sample_ms = sample_ms
        self._row_of = {}
        for r in range(len(self.row_pins)):
            self._row_of[self.row_pins[r]] = r
        self.col_mask = 0
        for p in self.col_pins:
            self.col_mask |= 1 << p
        self._gpio = []
        for bits in range(128):
            g = 0
            for f in range(7):
                if bits >> f & 1:
                    g |= 1 << self.col_pins[f]
            self._gpio.append(g)
        self.field = bytearray(63)   # what is physically on each square
        self._bits = bytearray(9)    # the same as one bit per file, per row
        self._hist = {}              # sq -> [(t_us, present), ...] for sampled hall sensors
        self._bounce = {}            # sq -> end of its bounce window (t_us)
        self._seed = 12345
        self._active = 0
        self._power_t = [0] * 9
        self.t_us = 0
        self.reads = 0
        self.multi_row_reads = 0
        self.read_rows = []
        _m.world = self

    # --- the test's side ---------------------------------------------------------------------
    def place(self, sq, present=1, bounce_us=0):
        v = 1 if present else 0
        if self.sample_ms and self.field[sq] != v:
            self._hist.setdefault(sq, [(-1 << 40, self.field[sq])]).append((self.t_us, v))
        self.field[sq] = v
        r, f = sq // 7, sq % 7
        self._bits[r] = (self._bits[r] & ~(1 << f)) | (v << f)
        if bounce_us:
            self._bounce[sq] = self.t_us + bounce_us

    def lift(self, sq, bounce_us=0):
        self.place(sq, 0, bounce_us)

    def set_squares(self, squares):
        for sq in range(63):
            self.place(sq, 1 if sq in squares else 0)

    # --- called by vboard.machine ----------------------------------------------------------
    def on_drive(self, pin_id, v):
        r = self._row_of.get(pin_id)
        if r is None:
            return
        if v == self.row_on:
            if not self._active >> r & 1:
                self._power_t[r] = ticks_us()
            self._active |= 1 << r
        else:
            self._active &= ~(1 << r)

    def col_bits(self):
        pull = _m.pullup_bits() & self.col_mask
        act = self._active
        if not act:
            return pull
        self.reads += 1
        if act & (act - 1):
            self.multi_row_reads += 1
        if _m.record:
            self.read_rows.append(act)
        present = 0
        r = 0
        while act:
            if act & 1:
                present |= self._present(r)
            act >>= 1
            r += 1
        g = self._gpio[present]
        if self.sink:
            return pull & ~g
        return pull | g

    def _present(self, r):
        bits = self._bits[r]
        if self.sensor == "hall":
            if ticks_diff(ticks_us(), self._power_t[r]) < self.power_up_us:
                return 0                        # output still high-impedance
            if self.sample_ms:
                bits = self._sampled(r)
        if self._bounce:
            bits = self._bouncing(r, bits)
        return bits

    def _sampled(self, r):
        period = self.sample_ms * 1000
        t = (self.t_us // period) * period      # last sample instant
        bits = 0
        for f in range(7):
            v = self.field[r * 7 + f]
            for (tc, vc) in self._hist.get(r * 7 + f, ()):
                if tc <= t:
                    v = vc
            bits |= v << f
        return bits

    def _bouncing(self, r, bits):
        for sq in list(self._bounce):
            if self.t_us >= self._bounce[sq]:
                del self._bounce[sq]
            elif sq // 7 == r:
                self._seed = (self._seed * 1103515245 + 12345) & 0x7FFFFFFF
                f = sq % 7
                bits = (bits & ~(1 << f)) | (((self._seed >> 16) & 1) << f)
        return bits
