# Board configuration: the one file a builder edits.
# Pin numbers are RP2040 GPIO numbers (GPn). hardware/pinmap.csv documents the same default
# wiring; a host test keeps the two in step. main.py validates every value at boot and shows a
# clear message on the OLED and the serial console if something is wrong.

# --- Sensor matrix: 9 rows (ranks 1..9) x 7 columns (files a..g), one diode per square. ---
# Column inputs on consecutive GPIOs let the scanner read all 7 in one register read.
MATRIX_ROW_PINS = (9, 10, 11, 12, 13, 14, 15, 16, 17)   # rank 1 .. rank 9
MATRIX_COL_PINS = (2, 3, 4, 5, 6, 7, 8)                  # file a .. file g
# "reed": rows are driven to the active level one at a time, columns read through pulls.
# "hall": rows power one row of open-drain digital hall switches (e.g. DRV5032) at a time.
SENSOR_TYPE = "reed"
# Diode direction: "row_cathode" means the diode's cathode faces the row line, so a row driven
# low pulls a column low through a closed switch (columns use pull-ups, active level 0).
DIODE_DIRECTION = "row_cathode"
SENSOR_ACTIVE_LEVEL = 0          # column level that means "piece present"
SCAN_PERIOD_MS = 4               # one full matrix scan every 4 ms (a timer interrupt; ~0.55 ms
#                                  of CPU for reeds; a hall build scans for ~1.4 ms: 5 is kinder)
DEBOUNCE_MS = 0                  # reed: none. Every raw change goes to the controller at once
#                                  (hints light on the first scan that sees a lift); a bounce is a
#                                  very short lift and drop, which the controller takes as an
#                                  adjustment (ADJUST_MS), so debouncing gains nothing
# Hall: every scan powers each row's sensors up afresh, so each scan is a new measurement and
# three equal scans confirm a change (hardware/sensor-matrix.md).
HALL_DEBOUNCE_MS = 15
# Wait after selecting a row before reading the columns. Reed: a column that the previous row
# pulled low rises through its pull-up (22 kOhm, about 0.1 nF of wiring): 15 us is several time
# constants, 9 x 15 us = 0.14 ms per scan. Hall: the row pin is the sensors' supply
# ("row_anode": driven high) or ground ("row_cathode": driven low); an output is valid only
# after the power-on time: DRV5032 datasheet (TI SLVSDC7) tON max 100 us, plus margin.
MATRIX_SETTLE_US = 15
HALL_POWER_UP_US = 150

# --- NeoPixels (WS2812), one per square. ---
LED_PIN = 22
LED_COUNT = 63
# Order of the LEDs along the data chain:
#   LED_WIRING: "rows" (every row starts at the same side) or "serpentine" (rows alternate).
#   LED_START: corner of the first LED: "a1", "g1", "a9" or "g9".
#   LED_RUNS: "ranks" (the chain runs along a rank first) or "files" (along a file first).
LED_WIRING = "serpentine"
LED_START = "a1"
LED_RUNS = "ranks"
LED_BRIGHTNESS = 40              # percent, changeable from the menu
# Where the LEDs' 5 V comes from (hardware/power.md):
#   "usb"        the board's USB socket; LED_CURRENT_BUDGET_MA at most 350 (about 0.47 A in
#                all: use a charger or hub port rated 1 A or more).
#   "usb_strict" the same, but the LEDs are capped at 200 mA whatever the budget says, so the
#                whole board stays within the 250 mA MicroPython's USB descriptor asks for.
#   "external"   a 5 V supply on the DC jack (power switch SW69 on EXT); budget at most 1150 mA
#                (the fuse F1 when warm). Needs POWER_SENSE_PIN: whenever the switch is on USB
#                (or the supply is unplugged) the LEDs are capped at 350 mA.
POWER_SUPPLY = "usb"
POWER_SENSE_PIN = 28             # ADC2: the external 5 V through a divider while SW69 is on EXT
LED_CURRENT_BUDGET_MA = 350      # hard cap for a whole frame
LED_MA_PER_CHANNEL = 20          # WS2812B: about 20 mA per colour channel at full value (the
#                                  cap counts the brightest LED: at least 20)
LED_IDLE_MA = 1                  # WS2812B: about 1 mA per LED even when dark (counted in the cap)

# --- Language of the screens: "en" English, "de" German, "it" Italian, "es" Spanish. ---
# The players can change it in the menu (Language); their choice is saved and wins over this.
LANGUAGE = "en"

# --- OLED: SSD1306, 128x64, I2C. ---
I2C_ID = 0
I2C_SDA_PIN = 0
I2C_SCL_PIN = 1
I2C_FREQ = 400000
OLED_ADDR = 0x3C
OLED_FLIP = False                # rotate the picture 180 degrees

# --- Input: "buttons" (up / down / ok) or "encoder" (A / B / push). Active low, pull-ups. ---
INPUT_TYPE = "buttons"
BUTTON_PINS = (18, 19, 20)       # up, down, ok
ENCODER_PINS = (18, 19, 20)      # A, B, push (used when INPUT_TYPE = "encoder")
BUTTON_DEBOUNCE_MS = 20
LONG_PRESS_MS = 700              # holding ok (or the encoder push) this long means "back"
ENCODER_DETENT_STEPS = 4         # quadrature steps per click: 4 (most EC11), 2 or 1

# --- Buzzer (optional passive piezo, driven by PWM). None to leave it out. ---
BUZZER_PIN = 21

# --- Play. ---
# (controller/timing.py says what each of these does and why; none of them decides which
# story of the hands is true.)
SETTLE_MS = 300                  # the whole board must be still this long before it is judged
ADJUST_MS = 250                  # touch-move: a lift shorter than this that ends on the same
#                                  square is an adjustment, no duty
REOPEN_MS = 2000                 # the mover lifting the piece just moved is shown as sliding on
#                                  within this, as the opponent's capture after it (the mover
#                                  may slide on until the opponent lifts a tile, at any time)

# --- Flight recorder: the last raw sensor and button events, written to events.txt. ---
RECORDER_EVENTS = 768            # events kept in RAM (3 bytes each; twice what a save writes); 0: off
RECORDER_FILE_EVENTS = 400       # at most about this many go into events.txt with each save
