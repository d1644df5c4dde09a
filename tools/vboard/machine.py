# Fake `machine` module for host tests (CPython and the MicroPython unix port).
#
# Install with vboard.install() (puts it in sys.modules before drivers are imported). It models
# the RP2040 GPIO levels as one 30-bit register, so Pin.value() and mem32[GPIO_IN] agree:
#   - output pins read what was driven; inputs read their pull (up = 1, down/none = 0),
#   - set_input(pin, level) drives an input from outside (a button, an encoder contact),
#   - a "world" object (e.g. board_wiring.BoardWiring) may own some input pins: it provides
#     `col_mask` and `col_bits()`, and is told of every output write via on_drive(pin, value).
# Recording (record = True): every output write is appended to `trace` as (pin, value), every
# I2C write to I2C.writes / i2c_log, PWM changes to PWM.history. Set record = False to measure
# allocation: then nothing is logged and no device model runs.
GPIO_IN = 0xD0000004

record = True
trace = []           # (pin id, value) of every write to an output pin, in order
pins = {}            # pin id -> latest Pin object
world = None
i2c_devices = {}     # address -> device model with write(bytes) (or None: just ACK)
i2c_log = []         # (bus id, address, bytes) of every I2C write, all buses
pwms = []
wdts = []

_drive_mask = 0      # pins configured as outputs
_drive_bits = 0      # levels driven on those
_pullup_bits = 0     # inputs with a pull-up
_ext_mask = 0        # inputs driven from outside (set_input)
_ext_bits = 0


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
    global record, world, _drive_mask, _drive_bits, _pullup_bits, _ext_mask, _ext_bits
    record = True
    world = None
    trace.clear()
    pins.clear()
    i2c_devices.clear()
    i2c_devices[0x3C] = None
    i2c_log.clear()
    pwms.clear()
    wdts.clear()
    _drive_mask = _drive_bits = _pullup_bits = _ext_mask = _ext_bits = 0
    mem32.reads = 0


def gpio_in():
    """The GPIO_IN register: the level of every pin."""
    v = (_drive_bits & _drive_mask) | (_pullup_bits & ~_drive_mask)
    v = (v & ~_ext_mask) | _ext_bits
    w = world
    if w is not None:
        v = (v & ~w.col_mask) | w.col_bits()
    return v


def pullup_bits():
    return _pullup_bits & ~_drive_mask


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
        self.mode = Pin.IN
        self.pull = None
        self.reads = 0
        self._irq = None
        self._trigger = 0
        pins[id] = self
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, **kw):
        global _drive_mask, _pullup_bits
        m = 1 << self.id
        if mode != -1:
            self.mode = mode
            if mode == Pin.OUT or mode == Pin.OPEN_DRAIN:
                _drive_mask |= m
            else:
                _drive_mask &= ~m
        if value is not None:
            self._drive(value)
        if pull != -1:
            self.pull = pull
            if pull == Pin.PULL_UP:
                _pullup_bits |= m
            else:
                _pullup_bits &= ~m

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
        global _drive_bits
        v = 1 if x else 0
        m = 1 << self.id
        _drive_bits = (_drive_bits & ~m) | (v << self.id)
        if record and self.mode != Pin.IN:
            trace.append((self.id, v))
        if world is not None:
            world.on_drive(self.id, v)

    def irq(self, handler=None, trigger=12, hard=False):
        self._irq = handler
        self._trigger = trigger

    def _edge(self, old, new):
        if self._irq is None or old == new:
            return
        if (new and self._trigger & Pin.IRQ_RISING) or (not new and
                                                        self._trigger & Pin.IRQ_FALLING):
            self._irq(self)

    def __repr__(self):
        return "Pin(%d)" % self.id


class _Mem32:
    reads = 0

    def __getitem__(self, addr):
        if addr != GPIO_IN:
            raise ValueError("fake mem32 only models GPIO_IN, not 0x%08x" % addr)
        self.reads += 1
        return gpio_in()

    def __setitem__(self, addr, value):
        raise ValueError("fake mem32 is read-only (0x%08x)" % addr)


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
