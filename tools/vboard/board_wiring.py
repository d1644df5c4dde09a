# Physical model of the 9 x 7 sensor matrix, plugged into vboard.machine as its "world".
#
# A row pin is "active" while its output is on and drives the active level (low for
# "row_cathode", high for "row_anode"); a released pin (an input) or one driving the other
# level is not. Only active rows take part in a column read.
# Reed: a closed switch and its diode join a row line to a column line. With "row_cathode" the
# diode conducts when the row is low and the column is pulled up, so the column reads 0; with
# "row_anode" when the row is high and the column pulled down, so it reads 1. A column whose
# pull is the wrong way round never changes (as on a real board).
# Hall: a row driven to the active level powers its sensors; a row driven to the other level
# switches them off (supply and ground equal). A released row keeps them as they were: the
# charge on the line holds powered sensors up, so they are not restarted. A sensor that powers
# up is high-impedance for power_up_us (real time, the driver really waits), then shows what
# the field was at its power-up. With sample_ms set, a sensor that stays powered refreshes its
# output only every sample_ms from then on (fake clock), like a free-running 20 Hz DRV5032;
# without it, a powered sensor follows the field at once.
#
# Time: t_us is a fake clock the test advances (bounce windows, hall sampling).
# Bounce: place(sq, 1, bounce_us=800) makes the contact read pseudo-randomly until t_us passes
# the window, then settle.
# Faults: short_diode(sq) makes a square's diode conduct both ways. fights counts moments when
# a row driven high and a row driven low were joined through closed switches and a shorted
# diode (current flowing from pin to pin); a scanner that leaves idle rows released keeps it 0.
# Checks: reads (column reads with a row active), multi_row_reads (reads while more than one
# row was active; a correct scanner keeps it 0) and, when machine.record is set, read_rows (the
# active row mask at every column read, i.e. the scan order).
# Methods called from the driver's hot path keep few locals: MicroPython heap-allocates large
# frames, and tests measure those calls for allocation.
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
        self._shorted = bytearray(63)
        self._n_shorted = 0
        self._seed = 12345
        self._active = 0             # rows driving the active level
        self._high = 0               # rows driving 1
        self._low = 0                # rows driving 0
        self._alive = 0              # hall: rows whose sensors have power (or are held up)
        self._power_t = [0] * 9      # hall: real time (us) of each row's last power-up
        self._power_fake = [0] * 9   # hall: t_us of the same power-up
        self.t_us = 0
        self.reads = 0
        self.multi_row_reads = 0
        self.fights = 0
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
        self._check_fight()

    def lift(self, sq, bounce_us=0):
        self.place(sq, 0, bounce_us)

    def set_squares(self, squares):
        for sq in range(63):
            self.place(sq, 1 if sq in squares else 0)

    def short_diode(self, sq, shorted=True):
        """Fault: the diode of square sq conducts both ways (or is repaired)."""
        self._shorted[sq] = 1 if shorted else 0
        self._n_shorted = sum(self._shorted)
        self._check_fight()

    # --- called by vboard.machine ----------------------------------------------------------
    def on_drive(self, pin_id, v):
        r = self._row_of.get(pin_id)
        if r is not None:
            self._levels(1 << r, v)
            if v == self.row_on:
                self._power_on(r)
            elif v is not None:
                self._alive &= ~(1 << r)       # driven to the other level: sensors off
            self._check_fight()

    def _levels(self, m, v):
        self._high = (self._high | m) if v == 1 else (self._high & ~m)
        self._low = (self._low | m) if v == 0 else (self._low & ~m)
        self._active = (self._active | m) if v == self.row_on else (self._active & ~m)

    def _power_on(self, r):
        if not self._alive >> r & 1:
            self._power_t[r] = ticks_us()
            self._power_fake[r] = self.t_us
            self._alive |= 1 << r

    def _check_fight(self):
        # Without a shorted diode every path has a diode facing the wrong way for one side.
        if self._n_shorted and self._high and self._low:
            self._find_fight()

    def _find_fight(self):
        # A driven-high row and a driven-low row joined through one column: on each side a
        # closed switch, and a diode that conducts from the high row towards the low row.
        shorted = self._shorted
        for f in range(7):
            src = snk = False
            for r in range(9):
                sq = r * 7 + f
                if not self.field[sq]:
                    continue
                m = 1 << r
                # row_cathode: a diode conducts from the column into its row; row_anode: out.
                into_row = self.row_on == 0 or shorted[sq]
                out_of_row = self.row_on == 1 or shorted[sq]
                if self._high & m and out_of_row:
                    src = True
                if self._low & m and into_row:
                    snk = True
            if src and snk:
                self.fights += 1
                return

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
        # The field at the sensors' last measurement: their power-up, then every sample_ms.
        period = self.sample_ms * 1000
        t = self._power_fake[r]
        t += (self.t_us - t) // period * period
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
