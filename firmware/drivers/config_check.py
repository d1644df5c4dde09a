# Checks every value in config.py before any hardware is touched. check(cfg) returns None for a
# good config and raises ValueError with a message naming the setting otherwise, meant for the
# person who edited config.py (main.py shows it on the OLED and the serial console).
# No `machine` import here: host tests run it on CPython and MicroPython.
# When you add a setting to config.py, add it to REQUIRED or OPTIONAL below and check it in
# check(): unknown UPPERCASE names are reported as probable typos.

PICO_PINS = tuple(range(0, 23)) + (26, 27, 28)   # GPIOs on the Pico's header

REQUIRED = (
    "MATRIX_ROW_PINS", "MATRIX_COL_PINS", "SENSOR_TYPE", "DIODE_DIRECTION",
    "SENSOR_ACTIVE_LEVEL", "SCAN_PERIOD_MS", "DEBOUNCE_MS", "HALL_DEBOUNCE_MS",
    "LED_PIN", "LED_COUNT", "LED_WIRING", "LED_START", "LED_RUNS", "LED_BRIGHTNESS",
    "LED_CURRENT_BUDGET_MA", "LED_MA_PER_CHANNEL",
    "I2C_ID", "I2C_SDA_PIN", "I2C_SCL_PIN", "I2C_FREQ", "OLED_ADDR", "OLED_FLIP",
    "INPUT_TYPE", "BUTTON_PINS", "ENCODER_PINS", "BUTTON_DEBOUNCE_MS",
    "BUZZER_PIN", "SETTLE_MS",
)
# Added with the drivers; an older config.py without them gets the drivers' defaults.
OPTIONAL = ("MATRIX_SETTLE_US", "HALL_POWER_UP_US", "LED_IDLE_MA", "LONG_PRESS_MS",
            "ENCODER_DETENT_STEPS", "POWER_SUPPLY", "POWER_SENSE_PIN", "ADJUST_MS", "REOPEN_MS",
            "RECORDER_EVENTS", "RECORDER_FILE_EVENTS", "LANGUAGE")
# Largest LED_CURRENT_BUDGET_MA per POWER_SUPPLY (hardware/power.md): a USB 2.0 port gives
# 500 mA in all; the external supply's resettable fuse F1 holds 1.28 A when warm (50 C), of which
# the Pico, the OLED and U2 take about 120 mA. "usb_strict" is capped by the LED driver itself
# (drivers/leds.py STRICT_USB_MA), whatever the budget says. drivers/leds.py keeps its own copy
# of the external and USB figures (USB_MA, MAX_MA): a host test keeps them equal.
POWER_LIMITS = {"usb": 350, "usb_strict": 5000, "external": 1150}
# The LED current estimate must count the brightest LED: a WS2812B draws about 20 mA per colour
# channel at full value (12-20 mA between makes). A smaller figure would let a full-white frame
# draw several times the budget.
MIN_MA_PER_CHANNEL = 20
ADC_PINS = (26, 27, 28)      # GPIOs with an ADC input on the Pico's header
# The board's languages: controller/i18n.py's LANGUAGES (a host test keeps them equal; this
# module stands alone: tools load it by its path).
LANGUAGES = ("en", "de", "it", "es")


def passes():
    """True when config.py loads and check() finds nothing (main.py asks before the App's
    modules load; on False, app.main checks again and shows the problem)."""
    try:
        import config
        return check(config) is None
    except Exception:                      # noqa: BLE001 - app.main reports it
        return False


def _fail(msg):
    raise ValueError("config.py: " + msg)


def _distance(a, b, most):
    # Edit distance, to suggest the setting a typo was meant to be; `most` when it is that
    # or more (a row's least value never drops in the rows below it).
    prev = list(range(len(b) + 1))
    for i in range(len(a)):
        cur = [i + 1]
        for j in range(len(b)):
            cur.append(min(prev[j + 1] + 1, cur[j] + 1, prev[j] + (a[i] != b[j])))
        if min(cur) >= most:
            return most
        prev = cur
    return prev[-1]


def _names(cfg):
    # The names config.py sets: its own dict. (dir() on MicroPython tries every interned name
    # as an attribute, and the firmware frozen in has thousands: it took most of the check.)
    names = getattr(cfg, "__dict__", None)
    return dir(cfg) if names is None else names


def _unknown_keys(cfg):
    known = REQUIRED + OPTIONAL
    for key in _names(cfg):
        if key.startswith("_") or not key.isupper() or key in known:
            continue
        best, most = None, 4               # the first closest setting, at most 3 edits away
        for k in known:
            if abs(len(k) - len(key)) < most:   # (else at least that many edits)
                d = _distance(key, k, most)
                if d < most:
                    best, most = k, d
        if best is not None:
            _fail("%s is not a known setting. Did you mean %s?" % (key, best))
        _fail("%s is not a known setting (check the spelling; known settings are listed in "
              "drivers/config_check.py)." % key)


def _int(cfg, key, lo, hi, unit=""):
    v = getattr(cfg, key)
    if type(v) is not int:
        _fail("%s = %r must be a whole number%s (no quotes, no decimal point)."
              % (key, v, unit and " of " + unit))
    if not lo <= v <= hi:
        _fail("%s = %d is out of range: use %d to %d%s." % (key, v, lo, hi, unit and " " + unit))
    return v


def _choice(cfg, key, options):
    v = getattr(cfg, key)
    if v not in options or type(v) is not type(options[0]):
        _fail("%s = %r is not an option: use %s." % (key, v, " or ".join(repr(o) for o in options)))
    return v


def _pin(key, v):
    if type(v) is not int:
        _fail("%s: %r is not a pin number (write the GPIO number, e.g. 5 for GP5)." % (key, v))
    if v not in PICO_PINS:
        _fail("%s uses GP%d, which is not on the Pico's header: use GP0-GP22 or GP26-GP28."
              % (key, v))
    return v


def _pin_list(cfg, key, n, what, check_pins=True):
    v = getattr(cfg, key)
    if type(v) not in (tuple, list):
        _fail("%s = %r must be a list of %d pin numbers in brackets, e.g. (2, 3, ...)."
              % (key, v, n))
    if len(v) != n:
        _fail("%s has %d pins; it needs %d (%s)." % (key, len(v), n, what))
    if check_pins:
        for p in v:
            _pin(key, p)
    return v


def _check_matrix(cfg):
    _pin_list(cfg, "MATRIX_ROW_PINS", 9, "ranks 1 to 9")
    _pin_list(cfg, "MATRIX_COL_PINS", 7, "files a to g")
    sensor = _choice(cfg, "SENSOR_TYPE", ("reed", "hall"))
    diode = _choice(cfg, "DIODE_DIRECTION", ("row_cathode", "row_anode"))
    level = _choice(cfg, "SENSOR_ACTIVE_LEVEL", (0, 1))
    if sensor == "reed" and level != (0 if diode == "row_cathode" else 1):
        _fail("SENSOR_ACTIVE_LEVEL = %d cannot work with DIODE_DIRECTION = %r: a closed reed "
              "switch pulls the column %s, so use SENSOR_ACTIVE_LEVEL = %d."
              % (level, diode, "low" if level else "high", 1 - level))
    period = _int(cfg, "SCAN_PERIOD_MS", 1, 10, "ms")
    _int(cfg, "DEBOUNCE_MS", 0, 200, "ms")
    _int(cfg, "HALL_DEBOUNCE_MS", 0, 1000, "ms")
    for key in ("MATRIX_SETTLE_US", "HALL_POWER_UP_US"):
        if hasattr(cfg, key):
            _int(cfg, key, 0, 2000, "us")
    key = "HALL_POWER_UP_US" if sensor == "hall" else "MATRIX_SETTLE_US"
    wait = getattr(cfg, key, 0)
    if 9 * wait * 2 > period * 1000:
        _fail("%s = %d: waiting that long on each of the 9 rows takes more than half of "
              "SCAN_PERIOD_MS = %d ms. Lower it or raise SCAN_PERIOD_MS." % (key, wait, period))
    if sensor == "hall" and diode != "row_anode":
        _fail("SENSOR_TYPE = \"hall\" needs DIODE_DIRECTION = \"row_anode\": each row pin "
              "switches its 7 sensors on through a transistor (hardware/sensor-matrix.md).")


def _check_leds(cfg):
    _pin("LED_PIN", cfg.LED_PIN)
    if cfg.LED_COUNT != 63 or type(cfg.LED_COUNT) is not int:
        _fail("LED_COUNT = %r, but the board has one LED per square: set LED_COUNT = 63."
              % (cfg.LED_COUNT,))
    _choice(cfg, "LED_WIRING", ("rows", "serpentine"))
    _choice(cfg, "LED_START", ("a1", "g1", "a9", "g9"))
    _choice(cfg, "LED_RUNS", ("ranks", "files"))
    _int(cfg, "LED_BRIGHTNESS", 0, 100, "percent")
    budget = _int(cfg, "LED_CURRENT_BUDGET_MA", 1, 5000, "mA")
    supply = _choice(cfg, "POWER_SUPPLY", ("usb", "usb_strict", "external")) \
        if hasattr(cfg, "POWER_SUPPLY") else "usb"
    if budget > POWER_LIMITS[supply]:
        _fail("LED_CURRENT_BUDGET_MA = %d is more than POWER_SUPPLY = %r can give the LEDs "
              "(at most %d mA). %s" % (budget, supply, POWER_LIMITS[supply],
                                      "Fit the external supply (hardware/power.md) and set "
                                      "POWER_SUPPLY = \"external\"." if supply == "usb" else
                                      "Lower it to stay within the fuse F1 when warm."))
    sense = getattr(cfg, "POWER_SENSE_PIN", None)
    if sense is not None and (type(sense) is not int or sense not in ADC_PINS):
        _fail("POWER_SENSE_PIN = %r: the power sense needs an ADC pin: GP26, GP27 or GP28 (or "
              "None)." % (sense,))
    if supply == "external" and sense is None:
        _fail("POWER_SUPPLY = \"external\" needs POWER_SENSE_PIN (the divider from the power "
              "switch, hardware/power.md): without it the firmware cannot tell that the LEDs "
              "run from USB and would draw the external budget from the USB port.")
    _int(cfg, "LED_MA_PER_CHANNEL", MIN_MA_PER_CHANNEL, 100, "mA (the LED current cap must "
         "count the brightest LED)")
    idle = _int(cfg, "LED_IDLE_MA", 1, 10, "mA") if hasattr(cfg, "LED_IDLE_MA") else 1
    if budget <= idle * 63:
        _fail("LED_CURRENT_BUDGET_MA = %d leaves no current for light: 63 dark LEDs already "
              "draw %d mA (LED_IDLE_MA = %d)." % (budget, idle * 63, idle))


def _check_oled(cfg):
    bus = _choice(cfg, "I2C_ID", (0, 1))
    for key, role, off in (("I2C_SDA_PIN", "SDA", 0), ("I2C_SCL_PIN", "SCL", 1)):
        p = _pin(key, getattr(cfg, key))
        if p % 4 != 2 * bus + off:
            ok = ", ".join("GP%d" % q for q in PICO_PINS if q % 4 == 2 * bus + off)
            _fail("%s = %d: GP%d cannot be %s of I2C%d. Use one of %s (or change I2C_ID)."
                  % (key, p, p, role, bus, ok))
    _int(cfg, "I2C_FREQ", 10000, 1000000, "Hz")
    if cfg.OLED_ADDR not in (0x3C, 0x3D) or type(cfg.OLED_ADDR) is not int:
        _fail("OLED_ADDR = %r: an SSD1306 answers at 0x3C or 0x3D." % (cfg.OLED_ADDR,))
    if type(cfg.OLED_FLIP) is not bool:
        _fail("OLED_FLIP = %r must be True or False." % (cfg.OLED_FLIP,))


def _check_input(cfg):
    kind = _choice(cfg, "INPUT_TYPE", ("buttons", "encoder"))
    _pin_list(cfg, "BUTTON_PINS", 3, "up, down, ok", kind == "buttons")
    _pin_list(cfg, "ENCODER_PINS", 3, "A, B, push", kind == "encoder")
    db = _int(cfg, "BUTTON_DEBOUNCE_MS", 0, 200, "ms")
    if hasattr(cfg, "LONG_PRESS_MS"):
        if _int(cfg, "LONG_PRESS_MS", 100, 10000, "ms") <= db:
            _fail("LONG_PRESS_MS must be longer than BUTTON_DEBOUNCE_MS.")
    if hasattr(cfg, "ENCODER_DETENT_STEPS"):
        _choice(cfg, "ENCODER_DETENT_STEPS", (4, 2, 1))


def _check_unique_pins(cfg):
    uses = [("MATRIX_ROW_PINS", cfg.MATRIX_ROW_PINS), ("MATRIX_COL_PINS", cfg.MATRIX_COL_PINS),
            ("LED_PIN", (cfg.LED_PIN,)), ("I2C_SDA_PIN", (cfg.I2C_SDA_PIN,)),
            ("I2C_SCL_PIN", (cfg.I2C_SCL_PIN,))]
    if cfg.INPUT_TYPE == "encoder":
        uses.append(("ENCODER_PINS", cfg.ENCODER_PINS))
    else:
        uses.append(("BUTTON_PINS", cfg.BUTTON_PINS))
    if cfg.BUZZER_PIN is not None:
        uses.append(("BUZZER_PIN", (cfg.BUZZER_PIN,)))
    if getattr(cfg, "POWER_SENSE_PIN", None) is not None:
        uses.append(("POWER_SENSE_PIN", (cfg.POWER_SENSE_PIN,)))
    owner = {}
    for key, pins in uses:
        for p in pins:
            if p in owner:
                if owner[p] == key:
                    _fail("%s lists GP%d twice." % (key, p))
                _fail("GP%d is used by both %s and %s; each pin can do only one job."
                      % (p, owner[p], key))
            owner[p] = key


def _check_play(cfg):
    _int(cfg, "SETTLE_MS", 0, 5000, "ms")
    if hasattr(cfg, "ADJUST_MS"):
        _int(cfg, "ADJUST_MS", 0, 1000, "ms")
    if hasattr(cfg, "REOPEN_MS"):
        _int(cfg, "REOPEN_MS", 0, 10000, "ms")
    if hasattr(cfg, "RECORDER_EVENTS"):
        _int(cfg, "RECORDER_EVENTS", 0, 8192, "events")
    if hasattr(cfg, "RECORDER_FILE_EVENTS"):
        _int(cfg, "RECORDER_FILE_EVENTS", 16, 8192, "events")


def check(cfg):
    """Raise ValueError naming the first bad setting in the config module cfg."""
    _unknown_keys(cfg)
    for key in REQUIRED:
        if not hasattr(cfg, key):
            _fail("%s is missing (see the comments in config.py for its meaning)." % key)
    _check_matrix(cfg)
    _check_leds(cfg)
    _check_oled(cfg)
    _check_input(cfg)
    if cfg.BUZZER_PIN is not None:
        _pin("BUZZER_PIN", cfg.BUZZER_PIN)
    _check_play(cfg)
    if hasattr(cfg, "LANGUAGE"):
        if cfg.LANGUAGE not in LANGUAGES:
            _fail("LANGUAGE = %r is not a language of the board: use %s." % (
                cfg.LANGUAGE, ", ".join(repr(c) for c in LANGUAGES)))
    _check_unique_pins(cfg)
