# The Barragoon board as a circuit: every part, every net, for every build option. This is the
# one description the hardware files come from: tools/hardware.py writes hardware/pinmap.csv,
# hardware/bom.csv and hardware/schematic.svg from it and runs the electrical rules (erc.py)
# on every variant. Pins come from firmware/config.py, so a pin change is: edit config.py, run
# python tools/hardware.py.
#
# Build options (VARIANTS): supply "usb" or "external" (a 5 V supply on a DC jack for brighter
# LEDs), sensor "reed" or "hall", input "buttons", "encoder" (a bare EC11-style encoder) or
# "encoder_module" (a KY-040-style board with its own pull-ups). DEFAULT is the build the BOM
# rows without a tag make up.
#
# legacy=True builds the design as it was documented before issue 14 (hardware/ at commit
# 0cb79e7): VBUS wired straight to the LED rail, the external supply joined to it with only a
# diode to VSYS and no fuse, 1000 uF on VBUS, no column pull-ups, settle time 0, rows driven
# push-pull at the default 4 mA, a 100 nF capacitor on every hall row, and nothing saying where
# an encoder module's "+" goes (so it went to the only 5 V, VBUS). The host tests run the rules
# on it to show which checks the old design fails.
import itertools

from circuit import parts as P
from circuit.netlist import Bom, Circuit, Part

FILES = "abcdefg"
SUPPLIES = ("usb", "external")
SENSORS = ("reed", "hall")
INPUTS = ("buttons", "encoder", "encoder_module")
DEFAULT = {"supply": "usb", "sensor": "reed", "input": "buttons"}
VARIANTS = [dict(supply=s, sensor=t, input=i) for s, t, i in
            itertools.product(SUPPLIES, SENSORS, INPUTS)]

# Board geometry the wiring estimates use (hardware/mechanical.md): 40 mm squares, the
# electronics in the frame next to a1, about 0.3 m from the field's edge to the Pico.
PITCH_M = 0.040
LEAD_M = 0.30
WIRE_PF_PER_M = 100          # a wire in a loom next to others: about 100 pF per metre
COL_PULLUP_OHMS = 22e3


def wire_estimate_m():
    """Metres of wire the board needs: "signal" (24 AWG: rows, columns, sensor leads, LED data,
    front panel) and "power" (0.5 mm2: +5 V and GND along every rank, and the feed)."""
    rows = 9 * (7 * PITCH_M + LEAD_M)
    cols = 7 * (9 * PITCH_M + LEAD_M)
    leads = 63 * 2 * 0.05            # each sensor's two leads extended by about 5 cm
    data = 62 * PITCH_M * 1.2 + LEAD_M
    panel = (4 + 5) * 0.4            # OLED and controls cables
    power = 9 * 2 * (7 * PITCH_M + 0.1) + 2 * 0.5
    return {"signal": rows + cols + leads + data + panel, "power": power}


_WIRE = wire_estimate_m()

# Firmware behaviour the rules depend on (drivers/matrix.py): how idle rows are left, per
# sensor and diode direction, and the drive strength of hall rows. A host test runs the real
# driver on the virtual hardware and checks it does what this table says.
ROW_MODES = {("reed", "row_cathode"): "open_drain", ("reed", "row_anode"): "switched",
             ("hall", "row_cathode"): "push_pull", ("hall", "row_anode"): "push_pull"}
HALL_ROW_DRIVE_MA = 12
DEFAULT_DRIVE_MA = 4

# --- bill of materials entries -------------------------------------------------------------------
# Bom(part, value, manufacturer part, notes, unit cost EUR, order). Tags ([hall], [external], ...)
# are added by outputs.py from the variants a part appears in.
B = {
    "pico": Bom("Microcontroller board Raspberry Pi Pico", "RP2040", "Raspberry Pi SC0915",
                "Pico or Pico H; the pin map uses GP0-GP22 only. A Pico 2 (RP2350) needs "
                "external column pull-ups: its internal pull-downs latch (erratum E9)", 4.20, 1),
    "reed": Bom("Reed switch normally open", "glass about 14 mm; one band: 15-20 AT",
                "Standex-Meder ORD228VL 15-20 AT",
                "one per square; order all 63 from one sensitivity band and one lot (the type "
                "spans 10-45 AT); place it off-centre (sensor-matrix.md); never bend leads "
                "close to the glass", 0.45, 10),
    "hall": Bom("Hall switch", "DRV5032FC omnipolar open-drain 20 Hz, TO-92",
                "Texas Instruments DRV5032FCLPGM",
                "replaces SW1-SW63 when SENSOR_TYPE = \"hall\"; TO-92 is easiest to wire by hand "
                "(pins 1 VCC, 2 GND, 3 OUT); D1-D63 stay (sensor-matrix.md)", 0.60, 11),
    "diode": Bom("Switching diode", "1N4148", "onsemi 1N4148TR",
                 "one per square in series with its sensor; reed: band (cathode) to the row "
                 "line; hall: band to the sensor's OUT (sensor-matrix.md)", 0.03, 12),
    "pullup": Bom("Resistor", "22 kOhm 1/4 W", "Yageo MFR-25FBF52-22K",
                  "column pull-up from each column line to 3V3 at the perfboard; 10 kOhm "
                  "would lift the low level close to the 0.8 V limit", 0.05, 13),
    "hall_cap": Bom("Ceramic capacitor", "100 nF 50 V X7R, radial 5 mm", "TDK FG28X7R1H104KNT06",
                    "from 3V3 to GND where the 3V3 wire enters the sensor field; nothing on "
                    "the row lines (sensor-matrix.md)", 0.10, 14),
    "led": Bom("Addressable RGB LED", "WS2812B", "Worldsemi WS2812B",
               "one per square; single-LED boards of about 10 mm are easiest to wire and "
               "often carry C1-C63", 0.15, 20),
    "led_cap": Bom("Ceramic capacitor", "100 nF 50 V X7R", "Samsung CL21B104KBCNNNC",
                   "one at each LED between VDD and GND; skip if the LED boards have one",
                   0.02, 21),
    "shifter": Bom("Quad buffer used as 3.3 V to 5 V level shifter", "74AHCT125",
                   "Texas Instruments SN74AHCT125N",
                   "DIP-14 powered from 5 V; one gate drives the LED data", 0.60, 22),
    "shifter_cap": Bom("Ceramic capacitor", "100 nF 50 V X7R, radial 5 mm",
                       "TDK FG28X7R1H104KNT06", "decoupling of U2 between pin 14 and pin 7",
                       0.10, 23),
    "bulk": Bom("Electrolytic capacitor", "100 uF 10 V", "Panasonic EEU-FR1A101",
                "across the LED rail at the start of the chain; at most 220 uF on USB "
                "(power.md); mind the polarity", 0.20, 24),
    "r_data": Bom("Resistor", "330 ohm 1/4 W", "Yageo MFR-25FBF52-330R",
                  "in series with the LED data line, at the perfboard end of the data wire "
                  "(leds.md)", 0.05, 25),
    "r_buzzer": Bom("Resistor", "100 ohm 1/4 W", "Yageo MFR-25FBF52-100R", "in series with BZ1",
                    0.05, 26),
    "oled": Bom("OLED display module", "SSD1306 128x64 I2C 0.96 in", "generic 4-pin I2C module",
                "address 0x3C; power it from 3V3; pin order differs between modules", 3.50, 30),
    "button": Bom("Tactile push button", "6 x 6 mm", "Omron B3F-1000",
                  "up / down / ok between GPIO and GND (internal pull-ups)", 0.15, 31),
    "encoder": Bom("Rotary encoder with push switch", "24 detents", "Bourns PEC11R-4215F-S0024",
                   "replaces SW64-SW66 when INPUT_TYPE = \"encoder\"; C to GND", 1.80, 32),
    "enc_cap": Bom("Ceramic capacitor", "10 nF 50 V, radial 5 mm", "generic",
                   "from encoder A to GND and from B to GND, at the encoder", 0.05, 33),
    "enc_module": Bom("Rotary encoder module", "KY-040 style, 10 kOhm pull-ups", "generic",
                      "replaces SW64-SW66 when INPUT_TYPE = \"encoder\"; its + pin goes to 3V3 "
                      "(never VBUS: the pull-ups would put 5 V on GP18 and GP19)", 1.50, 34),
    "piezo": Bom("Passive piezo transducer", "about 4 kHz", "Murata PKM17EPPH4001-B0",
                 "may be left out (BUZZER_PIN = None); must be passive: a self-oscillating "
                 "buzzer cannot play tones", 0.60, 35),
    "jumper": Bom("Pin header 1x3 with jumper cap", "2.54 mm", "generic",
                  "JP1 selects the LED rail's one source: USB (VBUS) or EXT (the DC jack)",
                  0.15, 40),
    "row_conn": Bom("Wire-to-board connector", "9 pins, 2.54 mm", "JST B9B-XH-A + XHP-9",
                    "row harness at the perfboard (mechanical.md)", 0.60, 41),
    "col_conn": Bom("Wire-to-board connector", "7 pins, 2.54 mm", "JST B7B-XH-A + XHP-7",
                    "column harness at the perfboard", 0.50, 42),
    "led_conn": Bom("Wire-to-board connector", "3 pins, 2.54 mm", "JST B3B-XH-A + XHP-3",
                    "LED chain: +5 V, data, GND (up to 3 A)", 0.30, 43),
    "oled_conn": Bom("Wire-to-board connector", "4 pins, 2.54 mm", "JST B4B-XH-A + XHP-4",
                     "OLED cable", 0.30, 44),
    "ctl_conn": Bom("Wire-to-board connector", "5 pins, 2.54 mm", "JST B5B-XH-A + XHP-5",
                    "buttons or encoder: GP18, GP19, GP20, 3V3, GND", 0.35, 45),
    "psu": Bom("Power supply", "5 V 4 A, 5.5 / 2.1 mm plug", "generic",
               "only with POWER_SUPPLY = \"external\" (power.md)", 8.00, 50),
    "jack": Bom("DC jack", "5.5 / 2.1 mm, panel mount", "generic",
                "the external supply's input; centre positive", 0.80, 51),
    "ptc": Bom("Resettable fuse (PTC)", "hold 2.5 A", "Littelfuse RXEF250",
               "in series with the DC jack's +, before anything else", 0.40, 52),
    "bulk_ext": Bom("Electrolytic capacitor", "1000 uF 10 V", "Nichicon UVR1A102MPD",
                    "after F1, on the external supply side of JP1; mind the polarity", 0.35, 53),
    "schottky": Bom("Schottky diode", "1N5819", "onsemi 1N5819RLG",
                    "from the fused external 5 V to VSYS (pin 39): the Pico runs from either "
                    "supply", 0.10, 54),
}
# Parts that are not in the netlist: mechanics, wire, sockets.
EXTRAS = [
    ("J1-J2", Bom("Pin header 2.54 mm", "1x20", "generic",
                  "for U1 unless you buy a Pico H", 0.30, 2), None),
    ("XJ1-XJ2", Bom("Female socket strip 2.54 mm", "1x20", "generic",
                    "on the perfboard: U1 plugs in and stays replaceable", 0.50, 3), None),
    ("XU2", Bom("IC socket", "DIP-14", "generic", "for U2", 0.20, 4), None),
    ("MAG1-MAG46", Bom("Neodymium disc magnet", "8 x 3 mm N42 axially magnetised", "generic",
                       "one per piece: 14 tiles + 32 Barragoons; buy a few spares", 0.12, 60),
     None),
    ("W1", Bom("Hook-up wire", "0.25 mm2 (24 AWG) 30 m", "generic",
               "matrix rows and columns, sensor leads, LED data and front panel: about %.0f m "
               "needed (mechanical.md)" % _WIRE["signal"], 6.00, 61), None),
    ("W2", Bom("Power wire red and black", "0.5 mm2 (20 AWG) 2 x 6 m", "generic",
               "+5 V and GND bus along each rank of LEDs and the feed: about %.0f m needed"
               % _WIRE["power"], 6.00, 62), None),
    ("PCB1", Bom("Perfboard", "about 70 x 90 mm", "generic",
                 "carries XJ1-XJ2, U2, JP1, the resistors, capacitors and connectors",
                 1.50, 63), None),
    ("X1", Bom("USB cable", "micro-USB data cable", "generic",
               "a charge-only cable cannot flash the Pico", 2.00, 64), None),
    ("X2", Bom("Panel-mount USB extension", "micro-USB, 0.3 m", "generic",
               "brings the Pico's USB to the frame (mechanical.md)", 3.00, 65), None),
]


def square_name(sq):
    return "%s%d" % (FILES[sq % 7], sq // 7 + 1)


def legacy_settings():
    """Firmware defaults before issue 14."""
    return dict(settle_us=0, hall_power_up_us=100, hall_debounce_ms=120)


def build(variant=None, cfg=None, legacy=False):
    """The circuit of one build option. cfg: the firmware config module (pins, settings)."""
    v = dict(DEFAULT)
    v.update(variant or {})
    if cfg is None:
        from circuit.config import load_config
        cfg = load_config()
    c = Circuit(v)
    c.legacy = legacy
    _settings(c, cfg, legacy)
    c.add(Part("U1", P.PICO, "RP2040", B["pico"]))
    _power(c, legacy)
    _matrix(c, cfg, legacy)
    _leds(c, cfg)
    _oled(c, cfg)
    _inputs(c, cfg, legacy)
    _buzzer(c, cfg)
    return c


def _settings(c, cfg, legacy):
    from circuit.config import power_limits
    diode = cfg.DIODE_DIRECTION
    sensor = c.variant["sensor"]
    s = c.settings
    s["diode"] = diode
    s["active_level"] = cfg.SENSOR_ACTIVE_LEVEL
    s["settle_us"] = getattr(cfg, "MATRIX_SETTLE_US", 15)
    s["hall_power_up_us"] = getattr(cfg, "HALL_POWER_UP_US", 150)
    s["row_mode"] = ROW_MODES[(sensor, diode)]
    s["row_drive_ma"] = HALL_ROW_DRIVE_MA if sensor == "hall" else DEFAULT_DRIVE_MA
    limits = power_limits()
    s["led_budget_ma"] = limits["usb" if c.variant["supply"] == "usb" else "external"]
    if legacy:
        s.update(legacy_settings())
        s["row_mode"] = "push_pull"
        s["row_drive_ma"] = DEFAULT_DRIVE_MA
        s["led_budget_ma"] = 350 if c.variant["supply"] == "usb" else 3500


def _gpio(c, gpio, net, key, direction, note):
    """Put GPIO gpio of U1 on net; remember its pin map row."""
    c.connect(net, "U1.GP%d" % gpio)
    c.notes[net] = (key, direction, note)


# --- power ---------------------------------------------------------------------------------------

def _power(c, legacy):
    c.connect("GND", "U1.GND")
    c.connect("3V3_OUT", "U1.3V3_OUT")
    c.connect("VBUS", "U1.VBUS")
    c.connect("VSYS", "U1.VSYS")
    c.notes["VBUS"] = ("", "power", "USB 5 V: the LED rail when JP1 is on USB")
    c.notes["VSYS"] = ("", "power", "external supply: fused 5 V through D64 (Schottky); the "
                                    "Pico runs from USB or the external supply, whichever is "
                                    "higher")
    c.notes["3V3_OUT"] = ("", "power", "3.3 V from the Pico's regulator: OLED, column pull-ups, "
                                       "encoder module +; hall build: VCC of all sensors")
    c.notes["GND"] = ("", "power", "common ground; also pins 3 8 13 18 23 28 (pin 33 is AGND, "
                                   "the ADC's ground: leave it free)")
    ext = c.variant["supply"] == "external"
    if legacy:
        # VBUS wired to the LED rail; the external supply joined to the same rail.
        c.nets["+5V"] = c.nets.pop("VBUS")
        for ref, pin in c.nets["+5V"]:
            c.parts[ref].net[pin] = "+5V"
        _cap(c, "C65", 1000, "bulk_ext", "+5V")
        if ext:
            _supply(c, "+5V", "+5V")
        return
    c.add(Part("JP1", P.JUMPER3, "USB | EXT", B["jumper"], position="EXT" if ext else "USB"))
    c.connect("VBUS", "JP1.USB")
    c.connect("+5V", "JP1.COM")
    _cap(c, "C65", 100, "bulk", "+5V")
    if ext:
        c.add(Part("J8", P.DC_JACK, "5.5 / 2.1 mm", B["jack"]))
        c.add(Part("F1", P.PTC, "2.5 A", B["ptc"]))
        _supply(c, "EXT_IN", "EXT_5V")
        c.connect("EXT_IN", "J8.TIP", "F1.1")
        c.connect("GND", "J8.SLEEVE")
        c.connect("EXT_5V", "F1.2", "JP1.EXT")
        _cap(c, "C77", 1000, "bulk_ext", "EXT_5V")


def _cap(c, ref, uf, bom, net):
    """An electrolytic capacitor from net to GND."""
    c.add(Part(ref, P.capacitor(uf, 10, True), "%d uF" % uf, B[bom]))
    c.connect(net, ref + ".1")
    c.connect("GND", ref + ".2")


def _supply(c, out_net, diode_net):
    """PS1, the external 5 V supply, on out_net; D64 from diode_net to the Pico's VSYS."""
    c.add(Part("PS1", P.SUPPLY_5V, "5 V 4 A", B["psu"]))
    c.add(Part("D64", P.SCHOTTKY, "1N5819", B["schottky"]))
    c.connect(out_net, "PS1.+")
    c.connect("GND", "PS1.-")
    c.connect(diode_net, "D64.A")
    c.connect("VSYS", "D64.K")


# --- sensor matrix -------------------------------------------------------------------------------

def _matrix(c, cfg, legacy):
    hall = c.variant["sensor"] == "hall"
    cathode_row = cfg.DIODE_DIRECTION == "row_cathode"
    pull = "pull-up" if cfg.SENSOR_ACTIVE_LEVEL == 0 else "pull-down"
    c.add(Part("J3", P.connector(9), "rows", B["row_conn"]))
    c.add(Part("J4", P.connector(7), "columns", B["col_conn"]))
    mode = c.settings["row_mode"]
    row_dir = {"open_drain": "open-drain", "switched": "out / input",
               "push_pull": "out %d mA" % c.settings["row_drive_ma"]}[mode]
    for r in range(9):
        net = "ROW_%d" % (r + 1)
        level = "low" if cathode_row else "high"
        if hall:
            how = ("the sensors' %s: driven %s while scanned, the other level between scans"
                   % ("GND" if cathode_row else "VCC", level))
        elif mode == "open_drain":
            how = "driven low only while scanned; otherwise an input (high-impedance)"
        else:
            how = "driven %s only while scanned; otherwise an input" % level
        _gpio(c, cfg.MATRIX_ROW_PINS[r], net, "MATRIX_ROW_PINS[%d]" % r, row_dir,
              "row line of rank %d; %s" % (r + 1, how) if r == 0 else "row line of rank %d"
              % (r + 1))
        c.connect(net, "J3.%d" % (r + 1))
    for f in range(7):
        net = "COL_%s" % FILES[f].upper()
        note = "column line of file %s" % FILES[f]
        if f == 0:
            note += "; reads %d when a sensor on the scanned row is on" % cfg.SENSOR_ACTIVE_LEVEL
        if f == 6:
            note += "; columns stay on consecutive GPIOs (one register read)"
        _gpio(c, cfg.MATRIX_COL_PINS[f], net, "MATRIX_COL_PINS[%d]" % f,
              "in %s" % pull, note)
        c.connect(net, "J4.%d" % (f + 1))
        if not legacy:
            ref = "R%d" % (3 + f)
            c.add(Part(ref, P.resistor(COL_PULLUP_OHMS), "22 kOhm", B["pullup"], group="pullup"))
            c.connect(net, ref + ".1")
            c.connect("3V3_OUT" if cfg.SENSOR_ACTIVE_LEVEL == 0 else "GND", ref + ".2")
    if hall and not legacy:
        c.add(Part("C66", P.capacitor(0.1, 50), "100 nF", B["hall_cap"]))
        c.connect("3V3_OUT", "C66.1")
        c.connect("GND", "C66.2")
    for sq in range(63):
        _square(c, sq, hall, cathode_row)
    if hall and legacy:
        for r in range(9):          # the old per-row capacitors, from the rail to the row line
            ref = "C%d" % (66 + r)
            c.add(Part(ref, P.capacitor(0.1, 50), "100 nF", None))
            c.connect("ROW_%d" % (r + 1), ref + ".2")
            c.connect("3V3_OUT" if cathode_row else "GND", ref + ".1")


def _square(c, sq, hall, cathode_row):
    r, f = sq // 7, sq % 7
    row, col, node = "ROW_%d" % (r + 1), "COL_%s" % FILES[f].upper(), "S_" + square_name(sq)
    d = c.add(Part("D%d" % (sq + 1), P.DIODE_1N4148, "1N4148", B["diode"], group="square",
                   square=sq))
    if hall:
        h = c.add(Part("H%d" % (sq + 1), P.HALL, "DRV5032FC", B["hall"], group="square",
                       square=sq))
        # column -> diode (band to OUT) -> OUT; the row line is the sensors' GND or VCC.
        c.connect(col, d.ref + ".A")
        c.connect(node, d.ref + ".K", h.ref + ".OUT")
        if cathode_row:
            c.connect("3V3_OUT", h.ref + ".VCC")
            c.connect(row, h.ref + ".GND")
        else:
            c.connect(row, h.ref + ".VCC")
            c.connect("GND", h.ref + ".GND")
        return
    s = c.add(Part("SW%d" % (sq + 1), P.REED, "reed", B["reed"], group="square", square=sq))
    c.connect(col, s.ref + ".1")
    c.connect(node, s.ref + ".2")
    if cathode_row:                 # band (cathode) to the row line
        c.connect(node, d.ref + ".A")
        c.connect(row, d.ref + ".K")
    else:
        c.connect(row, d.ref + ".A")
        c.connect(node, d.ref + ".K")


# --- LEDs ----------------------------------------------------------------------------------------

def _leds(c, cfg):
    _gpio(c, cfg.LED_PIN, "LED_DATA", "LED_PIN", "out PIO",
          "WS2812B data through the 74AHCT125 (1A pin 2) and 330 ohm to DIN of LED 0; sent by "
          "PIO0 state machine 0 fed by DMA, which own this pin")
    u2 = c.add(Part("U2", P.AHCT125, "74AHCT125", B["shifter"]))
    c.add(Part("C64", P.capacitor(0.1, 50), "100 nF", B["shifter_cap"]))
    c.add(Part("R1", P.resistor(330), "330 ohm", B["r_data"]))
    c.add(Part("J5", P.connector(3), "LED chain", B["led_conn"]))
    c.connect("LED_DATA", "U2.1A")
    c.connect("GND", "U2.GND", "U2.1OE", "U2.2A", "U2.3A", "U2.4A", "C64.2")
    c.connect("+5V", "U2.VCC", "U2.2OE", "U2.3OE", "U2.4OE", "C64.1", "J5.1")
    c.connect("LED_Y", "U2.1Y", "R1.1")
    c.connect("DIN_0", "R1.2", "J5.2")
    c.connect("GND", "J5.3")
    del u2
    for i in range(63):
        led = c.add(Part("LED%d" % (i + 1), P.WS2812B, "WS2812B", B["led"], group="led", index=i))
        cap = c.add(Part("C%d" % (i + 1), P.capacitor(0.1, 50), "100 nF", B["led_cap"],
                         group="led", index=i))
        c.connect("+5V", led.ref + ".VDD", cap.ref + ".1")
        c.connect("GND", led.ref + ".VSS", cap.ref + ".2")
        c.connect("DIN_%d" % i, led.ref + ".DIN")
        if i < 62:
            c.connect("DIN_%d" % (i + 1), led.ref + ".DOUT")


# --- OLED, inputs, buzzer ------------------------------------------------------------------------

def _oled(c, cfg):
    _gpio(c, cfg.I2C_SDA_PIN, "I2C_SDA", "I2C_SDA_PIN", "bidir open-drain",
          "I2C%d SDA to the OLED; pull-ups are on the OLED module (to its VCC: 3V3)" % cfg.I2C_ID)
    _gpio(c, cfg.I2C_SCL_PIN, "I2C_SCL", "I2C_SCL_PIN", "out open-drain",
          "I2C%d SCL to the OLED" % cfg.I2C_ID)
    c.add(Part("DS1", P.OLED, "SSD1306", B["oled"]))
    c.add(Part("J6", P.connector(4), "OLED", B["oled_conn"]))
    c.connect("I2C_SDA", "DS1.SDA", "J6.4")
    c.connect("I2C_SCL", "DS1.SCL", "J6.3")
    c.connect("3V3_OUT", "DS1.VCC", "J6.2")
    c.connect("GND", "DS1.GND", "J6.1")


def _inputs(c, cfg, legacy):
    kind = c.variant["input"]
    c.add(Part("J7", P.connector(5), "controls", B["ctl_conn"]))
    c.connect("3V3_OUT", "J7.4")
    c.connect("GND", "J7.5")
    if kind == "buttons":
        for i, (name, word) in enumerate((("BTN_UP", "up"), ("BTN_DOWN", "down"),
                                          ("BTN_OK", "ok"))):
            ref = "SW%d" % (64 + i)
            c.add(Part(ref, P.BUTTON, "6 x 6 mm", B["button"], group="button"))
            _gpio(c, cfg.BUTTON_PINS[i], name, "BUTTON_PINS[%d]" % i, "in pull-up",
                  "push button %s to GND" % word)
            c.connect(name, ref + ".1", "J7.%d" % (i + 1))
            c.connect("GND", ref + ".2")
        return
    notes = ("rotary encoder A; read in a pin interrupt", "rotary encoder B",
             "encoder push switch to GND")
    for i, name in enumerate(("ENC_A", "ENC_B", "ENC_PUSH")):
        _gpio(c, cfg.ENCODER_PINS[i], name, "ENCODER_PINS[%d]" % i,
              "in pull-up" + (", IRQ" if i < 2 else ""), notes[i])
        c.connect(name, "J7.%d" % (i + 1))
    if kind == "encoder":
        c.add(Part("ENC1", P.ENCODER, "24 detents", B["encoder"]))
        c.connect("ENC_A", "ENC1.A")
        c.connect("ENC_B", "ENC1.B")
        c.connect("ENC_PUSH", "ENC1.S1")
        c.connect("GND", "ENC1.C", "ENC1.S2")
        for ref, net in (("C75", "ENC_A"), ("C76", "ENC_B")):
            c.add(Part(ref, P.capacitor(0.01, 50), "10 nF", B["enc_cap"]))
            c.connect(net, ref + ".1")
            c.connect("GND", ref + ".2")
        return
    c.add(Part("ENC2", P.ENCODER_MODULE, "KY-040", B["enc_module"]))
    c.connect("ENC_A", "ENC2.CLK")
    c.connect("ENC_B", "ENC2.DT")
    c.connect("ENC_PUSH", "ENC2.SW")
    c.connect("GND", "ENC2.GND")
    # Before: nothing said where "+" goes; the only 5 V on the board was VBUS.
    c.connect(("+5V" if legacy else "3V3_OUT"), "ENC2.+")


def _buzzer(c, cfg):
    if cfg.BUZZER_PIN is None:
        return
    _gpio(c, cfg.BUZZER_PIN, "BUZZER", "BUZZER_PIN", "out PWM",
          "optional passive piezo through 100 ohm to GND; BUZZER_PIN = None leaves it out")
    c.add(Part("R2", P.resistor(100), "100 ohm", B["r_buzzer"]))
    c.add(Part("BZ1", P.PIEZO, "piezo", B["piezo"]))
    c.connect("BUZZER", "R2.1")
    c.connect("BZ", "R2.2", "BZ1.1")
    c.connect("GND", "BZ1.2")
