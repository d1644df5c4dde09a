# Fake `machine` module for host tests (CPython and the MicroPython unix port).
#
# Install with vboard.install() (puts it in sys.modules before drivers are imported). It models
# the RP2040 GPIOs the way MicroPython's rp2 port drives them (ports/rp2/machine_pin.c):
#   - every pin has an output latch (OUT) and an output enable (OE); a pin drives its latch only
#     while OE is on, otherwise it is an input (high-impedance) read through its pull;
#   - Pin.IN turns OE off; Pin.OUT turns it on (value= sets the latch first); value() on an
#     input only sets the latch, as gpio_put() does;
#   - Pin.OPEN_DRAIN is emulated like the port: the latch stays 0 and value(0) / value(1) turn OE
#     on / off, so a "high" open-drain pin is really an input;
#   - every init (and a constructor with arguments) sets the pulls: none unless pull= is given;
#   - one 30-bit GPIO_IN register, so Pin.value() and mem32[GPIO_IN] agree: driven pins read
#     their latch, undriven pins their pull (up = 1, down or none = 0);
#   - pad drive strength (PADS_BANK0 DRIVE bits, reset 4 mA) written through mem32, including the
#     atomic SET / CLR / XOR aliases; drive_ma(pin) reads it back;
#   - Pin.irq(handler, trigger, hard): edges caused by set_input() call the handler at once; on
#     MicroPython a hard handler runs with the heap locked (as in an ISR: any allocation raises
#     MemoryError). An exception in a handler is printed, recorded in irq_errors and disables the
#     handler, as the port does;
#   - set_input(pin, level) drives an input from outside (a button, an encoder contact);
#     set_inputs({pin: level, ...}) changes several at once (two contacts that both changed
#     before an interrupt handler ran),
#   - a "world" object (e.g. board_wiring.BoardWiring) may own some input pins: it provides
#     `col_mask` and `col_bits()`, and is told of every change of a pin's driven state through
#     on_drive(pin, level), level 0 / 1 when driven and None when released.
#   - ADC(pin).read_u16() reads adc_values[pin] (0-65535 for 0-3.3 V; 0 unless set_adc() set
#     it), as the RP2040's 12-bit ADC scaled by MicroPython.
# Recording (record = True): every change of a pin's driven state is appended to `trace` as
# (pin, 0 / 1 / None), every I2C write to I2C.writes / i2c_log, PWM changes to PWM.history. Set
# record = False to measure allocation: then nothing is logged and no device model runs.
GPIO_IN = 0xD0000004
PADS_BANK0 = 0x4001C000      # +4 + 4 * gpio: pad control; DRIVE in bits 5:4 (2, 4, 8, 12 mA)
_PADS_END = PADS_BANK0 + 4 + 4 * 30
_PAD_RESET = 0x56            # RP2040 reset value: 4 mA, input enabled, pull-down, Schmitt
DRIVE_MA = (2, 4, 8, 12)

record = True
trace = []           # (pin id, 0 / 1 / None) for every change of what a pin drives, in order
pins = {}            # pin id -> latest Pin object
world = None
i2c_devices = {}     # address -> device model with write(bytes) (or None: just ACK)
i2c_log = []         # (bus id, address, bytes) of every I2C write, all buses
pwms = []
wdts = []
irq_errors = []      # (pin id, exception) raised by IRQ handlers
adc_values = {}      # pin id -> ADC reading (read_u16 scale)

_oe = 0              # output enable per pin
_out = 0             # output latch per pin
_od = 0              # pins in the port's emulated open-drain mode
_pullup_bits = 0     # pull-ups
_pulldown_bits = 0   # pull-downs
_ext_mask = 0        # inputs driven from outside (set_input)
_ext_bits = 0
_pads = {}           # pin id -> pad register value (absent: reset value)

try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython: nothing to lock
    heap_lock = heap_unlock = None


class Restarted(Exception):
    """Raised by the fake machine.reset(): the firmware asked for a hard reset."""


resets = 0


def reset():
    """machine.reset(): the board restarts. Here it is counted and raises Restarted."""
    global resets
    resets += 1
    raise Restarted()


def clear():
    """Forget all pins, devices and logs (call at the start of each test)."""
    global record, world, _oe, _out, _od, _pullup_bits, _pulldown_bits, _ext_mask, _ext_bits
    record = True
    world = None
    trace.clear()
    pins.clear()
    i2c_devices.clear()
    i2c_devices[0x3C] = None
    i2c_log.clear()
    pwms.clear()
    wdts.clear()
    irq_errors.clear()
    adc_values.clear()
    _pads.clear()
    _oe = _out = _od = _pullup_bits = _pulldown_bits = _ext_mask = _ext_bits = 0
    mem32.reads = 0


def gpio_in():
    """The GPIO_IN register: the level of every pin."""
    v = (_out & _oe) | (_pullup_bits & ~_oe)
    v = (v & ~_ext_mask) | _ext_bits
    w = world
    if w is not None:
        v = (v & ~w.col_mask) | w.col_bits()
    return v


def pullup_bits():
    """Pins that float high: pulled up and not driven."""
    return _pullup_bits & ~_oe


def driven(pin_id):
    """What the pin drives: 0 or 1, or None when its output is off (an input)."""
    if not _oe >> pin_id & 1:
        return None
    return _out >> pin_id & 1


def drive_ma(pin_id):
    """The pad's drive strength in mA (RP2040 PADS_BANK0 DRIVE field)."""
    return DRIVE_MA[(_pads.get(pin_id, _PAD_RESET) >> 4) & 3]


def set_input(pin_id, level):
    """Drive an input pin from outside (None releases it back to its pull)."""
    global _ext_mask, _ext_bits
    old = (gpio_in() >> pin_id) & 1
    m = 1 << pin_id
    if level is None:
        _ext_mask &= ~m
        _ext_bits &= ~m
    else:
        _ext_mask |= m
        _ext_bits = (_ext_bits & ~m) | ((1 if level else 0) << pin_id)
    p = pins.get(pin_id)
    if p is not None:
        p._edge(old, (gpio_in() >> pin_id) & 1)


def set_inputs(levels):
    """Drive several inputs at once ({pin: level}), then raise their edges: what an interrupt
    handler sees when more than one contact changed before it ran."""
    before = gpio_in()
    global _ext_mask, _ext_bits
    for pin_id, level in levels.items():
        m = 1 << pin_id
        _ext_mask |= m
        _ext_bits = (_ext_bits & ~m) | ((1 if level else 0) << pin_id)
    after = gpio_in()
    for pin_id in levels:
        p = pins.get(pin_id)
        if p is not None:
            p._edge(before >> pin_id & 1, after >> pin_id & 1)


def _set_drive(pin_id, oe, out):
    """Change OE / latch of one pin; report a change of its driven state."""
    global _oe, _out
    m = 1 << pin_id
    before = driven(pin_id)
    _oe = (_oe | m) if oe else (_oe & ~m)
    _out = (_out | m) if out else (_out & ~m)
    after = driven(pin_id)
    if after != before:
        if record:
            trace.append((pin_id, after))
        if world is not None:
            world.on_drive(pin_id, after)


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None, **kw):
        if not isinstance(id, int) or not 0 <= id <= 29:
            raise ValueError("invalid pin %r" % (id,))
        self.id = id
        self.reads = 0
        self._irq = None
        self._trigger = 0
        self._hard = False
        pins[id] = self
        if mode != -1 or pull != -1 or value is not None or kw:
            self.init(mode, pull, value, **kw)

    @property
    def mode(self):
        m = 1 << self.id
        if _od & m:
            return Pin.OPEN_DRAIN
        return Pin.OUT if _oe & m else Pin.IN

    @property
    def pull(self):
        m = 1 << self.id
        if _pullup_bits & m:
            return Pin.PULL_UP
        if _pulldown_bits & m:
            return Pin.PULL_DOWN
        return None

    def init(self, mode=-1, pull=-1, value=None, **kw):
        global _od, _pullup_bits, _pulldown_bits
        m = 1 << self.id
        latch = _out >> self.id & 1
        if mode == Pin.IN:
            _od &= ~m
            _set_drive(self.id, 0, latch)
        elif mode == Pin.OUT:
            _od &= ~m
            _set_drive(self.id, 1, latch if value is None else (1 if value else 0))
        elif mode == Pin.OPEN_DRAIN:
            _od |= m
            _set_drive(self.id, value is not None and not value, 0)
        elif mode != -1:
            raise ValueError("fake Pin models IN, OUT and OPEN_DRAIN only")
        # The port sets the pulls on every init: None (the default) means no pull.
        _pullup_bits &= ~m
        _pulldown_bits &= ~m
        if pull == Pin.PULL_UP:
            _pullup_bits |= m
        elif pull == Pin.PULL_DOWN:
            _pulldown_bits |= m

    def value(self, x=None):
        if x is None:
            self.reads += 1
            return (gpio_in() >> self.id) & 1
        self._drive(x)

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self._drive(1)

    def off(self):
        self._drive(0)

    def _drive(self, x):
        m = 1 << self.id
        if _od & m:
            _set_drive(self.id, not x, 0)        # open-drain: 0 drives low, 1 releases
        else:
            _set_drive(self.id, _oe & m, 1 if x else 0)

    def irq(self, handler=None, trigger=12, hard=False):
        self._irq = handler
        self._trigger = trigger
        self._hard = hard
        return self

    def _edge(self, old, new):
        h = self._irq
        if h is None or old == new:
            return
        if not ((new and self._trigger & Pin.IRQ_RISING) or
                (not new and self._trigger & Pin.IRQ_FALLING)):
            return
        lock = self._hard and heap_lock is not None
        if lock:
            heap_lock()
        try:
            h(self)
        except Exception as e:     # the port prints it and disables the handler
            if lock:
                heap_unlock()
                lock = False
            irq_errors.append((self.id, e))
            print("Uncaught exception in IRQ callback handler")
            print(repr(e))
            self._irq = None
        finally:
            if lock:
                heap_unlock()

    def __repr__(self):
        return "Pin(%d)" % self.id


class _Mem32:
    reads = 0

    def __getitem__(self, addr):
        if addr == GPIO_IN:
            self.reads += 1
            return gpio_in()
        pin = _pad_pin(addr)
        if pin is not None:
            return _pads.get(pin, _PAD_RESET)
        raise ValueError("fake mem32 models GPIO_IN and PADS_BANK0 only, not 0x%08x" % addr)

    def __setitem__(self, addr, value):
        # PADS_BANK0 and its atomic aliases: +0x1000 XOR, +0x2000 SET, +0x3000 CLR.
        alias = (addr - PADS_BANK0) & 0x3000
        pin = _pad_pin(addr - alias)
        if pin is None:
            raise ValueError("fake mem32 can write PADS_BANK0 only, not 0x%08x" % addr)
        old = _pads.get(pin, _PAD_RESET)
        if alias == 0x1000:
            value = old ^ value
        elif alias == 0x2000:
            value = old | value
        elif alias == 0x3000:
            value = old & ~value
        _pads[pin] = value & 0xFF


def _pad_pin(addr):
    if PADS_BANK0 + 4 <= addr < _PADS_END and addr % 4 == 0:
        return (addr - PADS_BANK0 - 4) // 4
    return None


mem32 = _Mem32()


class I2C:
    def __init__(self, id=0, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = id
        self.scl = scl
        self.sda = sda
        self.freq = freq
        self.writes = []   # (address, bytes) of every writeto on this bus

    def scan(self):
        return sorted(i2c_devices)

    def writeto(self, addr, buf, stop=True):
        if addr not in i2c_devices:
            raise OSError(5)   # EIO, what the RP2040 port raises when nobody ACKs
        if record:
            data = bytes(buf)
            self.writes.append((addr, data))
            i2c_log.append((self.id, addr, data))
            dev = i2c_devices[addr]
            if dev is not None:
                dev.write(data)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = b"".join(bytes(b) for b in vector)
        return self.writeto(addr, data, stop)


class SoftI2C(I2C):
    pass


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0, **kw):
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16
        self.history = []   # (freq, duty_u16) after every change
        self.deinited = False
        pwms.append(self)

    def _log(self):
        if record:
            self.history.append((self._freq, self._duty))

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        self._log()

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        self._log()

    def deinit(self):
        self._duty = 0
        self.deinited = True


def set_adc(pin_id, volts):
    """An analogue voltage on an ADC pin (GP26-GP29), as read_u16() will report it."""
    adc_values[pin_id] = max(0, min(65535, int(volts / 3.3 * 65535 + 0.5)))


class ADC:
    def __init__(self, pin):
        pid = pin.id if isinstance(pin, Pin) else pin
        if pid not in (26, 27, 28, 29):
            raise ValueError("GP%d has no ADC input" % pid)
        self.pin = pid

    def read_u16(self):
        return adc_values.get(self.pin, 0)


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        wdts.append(self)

    def feed(self):
        self.feeds += 1


def freq(f=None):
    return 125000000


def unique_id():
    return b"\xe6\x61\x38\x51\x23\x45\x67\x89"


def disable_irq():
    return 0


def enable_irq(state=0):
    pass


def idle():
    pass


def reset_cause():
    return 1


clear()
