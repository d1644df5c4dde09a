# The Barragoon board as a circuit: every part, every net, for every build option. This is the
# one description the hardware files come from: tools/hardware.py writes hardware/pinmap.csv,
# hardware/bom.csv, hardware/schematic.svg and the KiCad netlist from it and runs the electrical
# rules (erc.py) on every variant. Pins come from firmware/config.py, so a pin change is: edit
# config.py, run python tools/hardware.py.
#
# Build options (VARIANTS): supply "usb" or "external" (a 5 V supply on a DC jack for brighter
# LEDs), sensor "reed" or "hall", input "buttons", "encoder" (a bare EC11-style encoder) or
# "encoder_module" (a KY-040-style board with its own pull-ups). DEFAULT is the build the BOM
# rows without a tag make up. Earlier designs, kept to show what the rules find in them, are in
# history.py.
#
# Power, in short: USB comes in on a panel USB-C socket (J9) at the perfboard, through F2 to
# VBUS, which feeds the Pico (through a short micro-USB pigtail X1) and, through the power
# switch SW69, the LED rail; the LED current never passes the Pico. The external supply comes
# in on J8 through F1 and an over-voltage / reverse-polarity cut-off (U3 with Q1, Q2). Power
# returns meet at one star point (PGND, at C65); the Pico's ground joins it there (NT1).
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
I2C_PULLUP_OHMS = 2.2e3
HALL_BASE_OHMS = 1e3
HALL_ROW_PULLDOWN_OHMS = 1e3
AMBIENT_C = (0, 50)          # inside the closed frame, next to the LED wiring

# The cables the board meets, worst case: a 1.5 m USB cable with 28 AWG power wires (common for
# cheap cables) and its two mated plugs; the external supply's 1.5 m lead of 20 AWG and the
# jack's contacts.
USB_CABLE_OHMS = 2 * 1.5 * P.WIRE[28][0] + 4 * P.CONTACT_OHMS
SUPPLY_CABLE_OHMS = 2 * 1.5 * P.WIRE[20][0] + 2 * P.CONTACT_OHMS

# The external supply's cut-off U3 (LTC4365): a string of 0.1 % resistors from its input,
# VIN - R14 - UV - R15 - OV - R16 - GND. The rules check computes the window it passes from
# these resistors as fitted: 5 V supplies (4.75-5.25 V) pass; it cuts off anything above about
# 5.26-5.44 V or below about 3.9-4.0 V, and a reversed plug.
OVP_STRING = (953e3, 35.7e3, 102e3)
OVP_TOL = 0.001


# The power-sense divider (R17, R18): the external 5 V scaled into the ADC's 0-3.3 V range.
SENSE_DIVIDER = (22e3, 33e3)


def wire_estimate_m():
    """Metres of wire the board needs: "signal" (24 AWG: rows, columns, sensor leads, LED data,
    front panel), "power" (0.5 mm2: +5 V and GND along every rank) and "feed" (0.75 mm2: the LED
    chain's feed from J5, the power switch and the DC jack)."""
    rows = 9 * (7 * PITCH_M + LEAD_M)
    cols = 7 * (9 * PITCH_M + LEAD_M)
    leads = 63 * 2 * 0.05            # each sensor's two leads extended by about 5 cm
    data = 62 * PITCH_M * 1.2 + LEAD_M
    panel = (4 + 7) * 0.4            # OLED and controls cables
    power = 9 * 2 * (7 * PITCH_M + 0.1)
    feed = 2 * 0.5 + 2 * 2 * 0.3
    return {"signal": rows + cols + leads + data + panel, "power": power, "feed": feed}


_WIRE = wire_estimate_m()

# Firmware behaviour the rules depend on (drivers/matrix.py): how idle rows are left, per
# sensor and diode direction, and the drive strength of hall rows. A host test runs the real
# driver on the virtual hardware and checks it does what this table says.
ROW_MODES = {("reed", "row_cathode"): "open_drain", ("reed", "row_anode"): "switched",
             ("hall", "row_cathode"): "push_pull", ("hall", "row_anode"): "push_pull"}
HALL_ROW_DRIVE_MA = 12
DEFAULT_DRIVE_MA = 4
# How each sensor is wired in this design; a config.py for the other sensor is read as if it
# were set up for this one (the rules check every build option with one config.py).
SENSOR_WIRING = {"reed": ("row_cathode", 0), "hall": ("row_anode", 0)}

# --- bill of materials entries -------------------------------------------------------------------
# Bom(part, value, manufacturer part, notes, unit cost EUR, order). Tags ([hall], [external], ...)
# are added by outputs.py from the variants a part appears in.
B = {
    "pico": Bom("Microcontroller board Raspberry Pi Pico", "RP2040", "Raspberry Pi SC0915",
                "Pico or Pico H; the pin map uses GP0-GP22 and GP28 only. A Pico 2 (RP2350) "
                "needs external column pull-ups: its internal pull-downs latch (erratum E9)",
                4.20, 1),
    "reed": Bom("Reed switch normally open", "glass about 14 mm; one band: 15-20 AT",
                "Standex-Meder ORD228VL 15-20 AT",
                "one per square; order all 63 from one sensitivity band and one lot (the type "
                "spans 10-45 AT); place it off-centre (sensor-matrix.md); never bend leads "
                "close to the glass", 0.45, 10),
    "hall": Bom("Hall switch", "DRV5032FC omnipolar open-drain 20 Hz, TO-92",
                "Texas Instruments DRV5032FCLPGM",
                "replaces SW1-SW63 when SENSOR_TYPE = \"hall\"; TO-92 is easiest to wire by hand "
                "(pins 1 VCC, 2 GND, 3 OUT) (sensor-matrix.md)", 0.60, 11),
    "diode": Bom("Switching diode", "1N4148", "onsemi 1N4148TR",
                 "one per square in series with its reed switch, band (cathode) to the row line "
                 "(sensor-matrix.md)", 0.03, 12),
    "hall_diode": Bom("Schottky diode", "BAT85, DO-34", "Vishay BAT85",
                      "replaces D1-D63 when SENSOR_TYPE = \"hall\": one per square, band to the "
                      "sensor's OUT; about 0.3 V keeps a column well below 0.8 V", 0.08, 12),
    "hall_cap": Bom("Ceramic capacitor", "100 nF 50 V X7R, radial 5 mm", "TDK FG28X7R1H104KNT06",
                    "one at every hall sensor, from its VCC (the row's follower output) to its "
                    "GND, at the sensor (DRV5032 datasheet: 0.1 uF minimum)", 0.10, 13),
    "hall_bulk": Bom("Electrolytic capacitor", "10 uF 10 V", "Panasonic EEU-FR1A100",
                     "on 3V3 at the row followers Q4-Q12 (their collectors): each row switch-on "
                     "charges 0.7 uF of sensor capacitors; mind the polarity", 0.15, 14),
    "hall_npn": Bom("NPN transistor", "2N3904, TO-92", "onsemi 2N3904BU",
                    "one per row: emitter follower that powers the row's 7 hall sensors from "
                    "3V3 (collector 3V3, base through 1 kOhm from the row pin, emitter = the "
                    "sensors' VCC); the GPIO only gives the base current", 0.05, 15),
    "hall_rb": Bom("Resistor", "1 kOhm 1/4 W", "Yageo MFR-25FBF52-1K",
                   "base resistors of Q4-Q12 (R19-R27) and row pull-downs that switch the "
                   "sensors fully off between scans (R28-R36)", 0.05, 16),
    "pullup": Bom("Resistor", "22 kOhm 1/4 W", "Yageo MFR-25FBF52-22K",
                  "column pull-up from each column line to 3V3 at the perfboard; 10 kOhm "
                  "would lift the low level close to the 0.8 V limit", 0.05, 17),
    "led": Bom("Addressable RGB LED", "WS2812B", "Worldsemi WS2812B",
               "one per square; single-LED boards of about 10 mm are easiest to wire and "
               "often carry C1-C63", 0.15, 20),
    "led_cap": Bom("Ceramic capacitor", "100 nF 50 V X7R, radial 5 mm", "TDK FG28X7R1H104KNT06",
                   "one at each LED between VDD and GND; skip if the LED boards have one",
                   0.10, 21),
    "shifter": Bom("Level translator 3.3 V to the LED rail", "SN74LVC1T45, SOT-23-6",
                   "Texas Instruments SN74LVC1T45DBVR",
                   "on a SOT-23-6 adapter; A side from 3V3, B side from the LED rail: the data "
                   "stays valid however far the rail sags (a 74AHCT125 needs 4.5 V)", 0.45, 22),
    "shifter_cap": Bom("Ceramic capacitor", "100 nF 50 V X7R, radial 5 mm",
                       "TDK FG28X7R1H104KNT06",
                       "decoupling of U2: C64 at VCCB (pin 6), C67 at VCCA (pin 1), both to "
                       "GND (pin 2)", 0.10, 23),
    "bulk": Bom("Electrolytic capacitor", "100 uF 10 V", "Panasonic EEU-FR1A101",
                "across the LED rail at J5, the star point of the grounds; at most 220 uF on "
                "USB (power.md); mind the polarity", 0.20, 24),
    "r_data": Bom("Resistor", "330 ohm 1/4 W", "Yageo MFR-25FBF52-330R",
                  "in series with the LED data line, at U2's output (leds.md)", 0.05, 25),
    "r_buzzer": Bom("Resistor", "100 ohm 1/4 W", "Yageo MFR-25FBF52-100R",
                    "from 3V3 to BZ1: limits a magnetic buzzer to about 28 mA", 0.05, 26),
    "i2c_pullup": Bom("Resistor", "2.2 kOhm 1/4 W", "Yageo MFR-25FBF52-2K2",
                      "I2C pull-ups SDA and SCL to 3V3 at J6: 400 kHz needs them whatever the "
                      "OLED module carries (peripherals.md)", 0.05, 27),
    "r_bootsel": Bom("Resistor", "1 kOhm 1/4 W", "Yageo MFR-25FBF52-1K",
                     "R37: from the wire to the Pico's TP6 (the flash chip's select line) to "
                     "the BOOTSEL button's lead, right at the Pico: the Pico's own button "
                     "has the same 1 kOhm", 0.05, 28),
    "r_1k": Bom("Resistor", "1 kOhm 1/4 W", "Yageo MFR-25FBF52-1K",
                "R12: GP21 to Q3's base; R13: across BZ1 (a piezo recharges through it)",
                0.05, 28),
    "buzzer_npn": Bom("NPN transistor", "2N3904, TO-92", "onsemi 2N3904BU",
                      "Q3 switches BZ1: the GPIO gives 2.6 mA of base current, whatever the "
                      "buzzer draws", 0.05, 29),
    "flyback": Bom("Switching diode", "1N4148", "onsemi 1N4148TR",
                   "D65 across BZ1, band to the 3V3 side: takes a magnetic buzzer's kickback",
                   0.03, 29),
    "oled": Bom("OLED display module", "SSD1306 128x64 I2C 0.96 in", "generic 4-pin I2C module",
                "address 0x3C; power it from 3V3; pin order differs between modules; its own "
                "pull-ups may be 4.7-10 kOhm or missing", 3.50, 30),
    "button": Bom("Tactile push button", "6 x 6 mm", "Omron B3F-1000",
                  "up / down / ok between GPIO and GND (internal pull-ups)", 0.15, 31),
    "panel_button": Bom("Panel push button", "momentary, 12 mm, plastic body and cap", "generic",
                        "SW67 RESET (the Pico's RUN to GND) and SW68 BOOTSEL (through R37 to the "
                        "Pico's test pad TP6: hold it while pressing RESET to flash); no metal "
                        "bezel: nothing a finger can discharge into", 0.60, 31),
    "encoder": Bom("Rotary encoder with push switch", "24 detents", "Bourns PEC11R-4215F-S0024",
                   "replaces SW64-SW66 when INPUT_TYPE = \"encoder\"; C and the frame's "
                   "mounting lugs (MP: the metal shaft) to GND", 1.80, 32),
    "enc_cap": Bom("Ceramic capacitor", "10 nF 50 V, radial 5 mm", "generic",
                   "from encoder A to GND and from B to GND, at the encoder", 0.05, 33),
    "enc_module": Bom("Rotary encoder module", "KY-040 style, 10 kOhm pull-ups", "generic",
                      "replaces SW64-SW66 when INPUT_TYPE = \"encoder\"; its + pin goes to 3V3 "
                      "(never 5 V: the pull-ups would put 5 V on GP18 and GP19)", 1.50, 34),
    "piezo": Bom("Passive piezo transducer", "4 kHz, 12 mm", "TDK PS1240P02BT",
                 "may be left out (BUZZER_PIN = None); must be passive: a self-oscillating "
                 "buzzer cannot play tones. A 16-42 ohm magnetic passive buzzer fits the same "
                 "place (Q3 and D65 drive it)", 0.60, 35),
    "esd": Bom("ESD protection array", "USBLC6-2SC6, SOT-23-6", "STMicroelectronics USBLC6-2SC6",
               "on SOT-23-6 adapters, at the connector they guard: U4 USB D+/D- (J9), U5 I2C "
               "(J6), U6-U8 the controls, RESET and BOOTSEL (J7)", 0.30, 36),
    "selector": Bom("Toggle switch DPDT ON-ON", "5 A, panel mount", "C&K 7201",
                    "SW69, the LED rail's source: USB or EXT, never both; its second pole "
                    "tells the firmware (GP28) that the rail is on EXT", 2.50, 40),
    "row_conn": Bom("Wire-to-board connector", "10 pins, 2.50 mm", "JST B10B-XH-A + XHP-10",
                    "row harness at the perfboard (mechanical.md); pin 10 GND (hall sensors)",
                    0.65, 41),
    "col_conn": Bom("Wire-to-board connector", "7 pins, 2.50 mm", "JST B7B-XH-A + XHP-7",
                    "column harness at the perfboard", 0.50, 42),
    "led_conn": Bom("Wire-to-board connector", "3 pins, 3.96 mm, 10 A", "JST B3P-VH + VHR-3N",
                    "LED chain: +5 V, data, GND; its crimps take the 0.75 mm2 feed (XH takes "
                    "at most 0.33 mm2 and 3 A)", 0.60, 43),
    "oled_conn": Bom("Wire-to-board connector", "4 pins, 2.50 mm", "JST B4B-XH-A + XHP-4",
                     "OLED cable", 0.30, 44),
    "ctl_conn": Bom("Wire-to-board connector", "7 pins, 2.50 mm", "JST B7B-XH-A + XHP-7",
                    "controls: GP18, GP19, GP20, 3V3, GND, RUN, BOOTSEL", 0.50, 45),
    "usb_socket": Bom("USB-C receptacle breakout", "USB 2.0, 5.1 kOhm CC pull-downs, panel",
                      "generic", "the board's USB input and flashing port, in the frame; 4 wires "
                      "(VBUS, D-, D+, GND) to the perfboard", 1.50, 46),
    "pigtail": Bom("Micro-USB cable, cut", "about 15 cm, 24 AWG power wires", "generic",
                   "X1: plug into the Pico, the 4 wires soldered to the perfboard (VBUS, D-, "
                   "D+, GND); a data cable", 1.50, 47),
    "usb_ptc": Bom("Resettable fuse (PTC)", "hold 0.7 A, trip 1.4 A", "Bourns MF-RHT070",
                   "F2, right after J9's VBUS: limits what reaches the Pico and the LED rail "
                   "from a charger (power.md)", 0.30, 48),
    "psu": Bom("Power supply", "5 V 4 A, 5.5 / 2.1 mm plug", "generic",
               "only with POWER_SUPPLY = \"external\" (power.md)", 8.00, 50),
    "jack": Bom("DC jack", "5.5 / 2.1 mm, panel mount, 5 A", "generic",
                "the external supply's input; centre positive (a reversed or 9-24 V adapter "
                "is cut off by U3)", 0.80, 51),
    "ptc": Bom("Resettable fuse (PTC)", "hold 1.6 A, trip 3.2 A", "Littelfuse RXEF160",
               "F1, in series with the DC jack's +, before anything else; trips below the "
               "supply's 4 A even when cold, holds the board's 1.2 A when warm (power.md)",
               0.40, 52),
    "ovp": Bom("Over-voltage and reverse-supply protection", "LTC4365, TSOT-23-8",
               "Analog Devices LTC4365CTS8", "U3, on a SOT-23-8 adapter: cuts the external "
               "supply off above about 5.4 V, below about 4 V and when reversed", 3.50, 53),
    "ovp_fet": Bom("N-channel MOSFET", "IRLZ44N, TO-220", "Infineon IRLZ44NPBF",
                   "Q1, Q2 back to back (sources joined) between F1 and the external 5 V, "
                   "gates to U3's GATE", 1.00, 54),
    "ovp_r1": Bom("Resistor 0.1 %", "953 kOhm 1/4 W", "Vishay MBB0207 0.1 %",
                  "R14: U3's VIN to UV", 0.40, 55),
    "ovp_r2": Bom("Resistor 0.1 %", "35.7 kOhm 1/4 W", "Vishay MBB0207 0.1 %",
                  "R15: U3's UV to OV", 0.40, 55),
    "ovp_r3": Bom("Resistor 0.1 %", "102 kOhm 1/4 W", "Vishay MBB0207 0.1 %",
                  "R16: U3's OV to GND", 0.40, 55),
    "bulk_ext": Bom("Electrolytic capacitor", "1000 uF 10 V", "Nichicon UVR1A102MPD",
                    "after U3, on the external supply side of SW69; mind the polarity", 0.35, 56),
    "tvs": Bom("TVS diode, bidirectional", "P6KE27CA, DO-15", "Littelfuse P6KE27CA",
               "D66, from U3's input (after F1) to the power ground: clamps the ringing of a "
               "hot-plugged adapter to 37.5 V, below Q1/Q2's 55 V and U3's -40 to 60 V; off "
               "below 25.6 V, so a 24 V adapter of either polarity leaves it cold", 0.30, 53),
    "schottky": Bom("Schottky diode", "1N5819", "onsemi 1N5819RLG",
                    "from the protected external 5 V to VSYS (pin 39): the Pico runs from either "
                    "supply", 0.10, 57),
    "sense_r1": Bom("Resistor", "22 kOhm 1/4 W", "Yageo MFR-25FBF52-22K",
                    "R17: power sense, from SW69's second pole to GP28", 0.05, 58),
    "sense_r2": Bom("Resistor", "33 kOhm 1/4 W", "Yageo MFR-25FBF52-33K",
                    "R18: power sense, GP28 to GND (5.45 V reads 3.27 V)", 0.05, 58),
    "sense_c": Bom("Ceramic capacitor", "100 nF 50 V X7R, radial 5 mm", "TDK FG28X7R1H104KNT06",
                   "C68: GP28 to GND, at the Pico", 0.10, 58),
}
# Parts that are not in the netlist: mechanics, wire, sockets.
EXTRAS = [
    ("J1-J2", Bom("Pin header 2.54 mm", "1x20", "generic",
                  "for U1 unless you buy a Pico H", 0.30, 2), None),
    ("XJ1-XJ2", Bom("Female socket strip 2.54 mm", "1x20", "generic",
                    "on the perfboard: U1 plugs in and stays replaceable", 0.50, 3), None),
    ("XU2, XU4-XU8", Bom("SOT-23-6 adapter board", "SOT-23-6 to 2.54 mm", "generic",
                         "for U2 and the ESD arrays U4-U8 (solder them first, then the adapter "
                         "onto the perfboard)", 0.25, 4), None),
    ("XU3", Bom("SOT-23-8 adapter board", "SOT-23-8 to 2.54 mm", "generic",
                "[external] for U3", 0.30, 4), None),
    ("MAG1-MAG46", Bom("Neodymium disc magnet", "8 x 3 mm N42 axially magnetised", "generic",
                       "one per piece: 14 tiles + 32 Barragoons; buy a few spares", 0.12, 60),
     None),
    ("W1", Bom("Hook-up wire", "0.25 mm2 (24 AWG) 35 m", "generic",
               "matrix rows and columns, sensor leads, LED data and front panel: about %.0f m "
               "needed (mechanical.md)" % _WIRE["signal"], 7.00, 61), None),
    ("W2", Bom("Power wire red and black", "0.5 mm2 (20 AWG) 2 x 6 m", "generic",
               "+5 V and GND bus along each rank of LEDs: about %.0f m needed"
               % _WIRE["power"], 6.00, 62), None),
    ("W3", Bom("Power wire red and black", "0.75 mm2 (18 AWG) 2 x 2 m", "generic",
               "the LED chain's feed from J5 to the rank buses, the USB socket and power "
               "switch wires: about %.0f m needed" % _WIRE["feed"], 3.00, 62), None),
    ("PCB1", Bom("Perfboard", "about 80 x 100 mm", "generic",
                 "carries XJ1-XJ2, U2, the adapters, SW69's wires, the resistors, capacitors and "
                 "connectors", 1.50, 63), None),
    ("X2", Bom("USB cable", "USB-C data cable", "generic",
               "a charge-only cable cannot flash the Pico", 2.00, 64), None),
]


def square_name(sq):
    return "%s%d" % (FILES[sq % 7], sq // 7 + 1)


def build(variant=None, cfg=None):
    """The circuit of one build option. cfg: the firmware config module (pins, settings)."""
    v = dict(DEFAULT)
    v.update(variant or {})
    if cfg is None:
        from circuit.config import load_config
        cfg = load_config()
    c = Circuit(v)
    _settings(c, cfg)
    c.add(Part("U1", P.PICO, "RP2040", B["pico"]))
    _power(c, cfg)
    _matrix(c, cfg)
    _leds(c, cfg)
    _oled(c, cfg)
    _inputs(c, cfg)
    _buzzer(c, cfg)
    return c


def _settings(c, cfg):
    from circuit.config import power_limits
    sensor = c.variant["sensor"]
    if cfg.SENSOR_TYPE == sensor:
        diode, level = cfg.DIODE_DIRECTION, cfg.SENSOR_ACTIVE_LEVEL
    else:
        diode, level = SENSOR_WIRING[sensor]
    s = c.settings
    s["diode"] = diode
    s["active_level"] = level
    s["settle_us"] = getattr(cfg, "MATRIX_SETTLE_US", 15)
    s["hall_power_up_us"] = getattr(cfg, "HALL_POWER_UP_US", 150)
    s["row_mode"] = ROW_MODES[(sensor, diode)]
    s["row_drive_ma"] = HALL_ROW_DRIVE_MA if sensor == "hall" else DEFAULT_DRIVE_MA
    limits = power_limits()
    s["led_budget_ma"] = limits["usb" if c.variant["supply"] == "usb" else "external"]
    s["i2c_hz"] = cfg.I2C_FREQ
    s["oled_addr"] = getattr(cfg, "OLED_ADDR", 0x3C)


def _gpio(c, gpio, net, key, direction, note):
    """Put GPIO gpio of U1 on net; remember its pin map row."""
    c.connect(net, "U1.GP%d" % gpio)
    c.notes[net] = (key, direction, note)
    c.settings.setdefault("pins", {})[net] = "GP%d" % gpio      # where the firmware looks


# --- power ---------------------------------------------------------------------------------------

def _power(c, cfg):
    ext = c.variant["supply"] == "external"
    c.connect("GND", "U1.GND")
    c.connect("3V3_OUT", "U1.3V3_OUT")
    c.connect("VBUS", "U1.VBUS")
    c.connect("VSYS", "U1.VSYS")
    c.notes["VBUS"] = ("", "power", "USB 5 V from J9 through F2 (and the pigtail X1 into the "
                                    "Pico's socket); the LED rail when SW69 is on USB")
    c.notes["VSYS"] = ("", "power", "external supply: the protected 5 V through D64 (Schottky); "
                                    "the Pico runs from USB or the external supply, whichever "
                                    "is higher")
    c.notes["3V3_OUT"] = ("", "power", "3.3 V from the Pico's regulator: OLED and its pull-ups, "
                                       "column pull-ups, U2's A side, encoder module +, buzzer; "
                                       "hall build: the row followers")
    c.notes["GND"] = ("", "power", "the Pico's ground (also pins 3 8 13 18 23 28; pin 33 is "
                                   "AGND, the ADC's ground: leave it free); joins the power "
                                   "ground only at the star point, C65's minus (NT1)")
    # Star ground: the LED chain's and the supplies' returns meet at C65 (PGND); the Pico's
    # ground joins them there with one wire.
    c.add(Part("NT1", P.NET_TIE, "star point"))
    c.connect("GND", "NT1.1")
    c.connect("PGND", "NT1.2")
    # USB: the panel socket, its ESD array, F2, the pigtail into the Pico.
    c.add(Part("J9", P.USB_BREAKOUT, "USB-C", B["usb_socket"], cable_ohms=USB_CABLE_OHMS,
               awg=20, touched=True))
    c.add(Part("U4", P.USBLC6, "USBLC6-2SC6", B["esd"]))
    c.add(Part("F2", P.PTC_MFRHT070, "0.7 A", B["usb_ptc"]))
    c.add(Part("X1", P.USB_PIGTAIL, "micro-USB", B["pigtail"], awg=24))
    c.connect("USB_IN", "J9.VBUS", "U4.VBUS", "F2.1")
    c.connect("PGND", "J9.GND", "U4.GND", "X1.GND")
    c.connect("USB_DP", "J9.DP", "U4.IO1", "X1.DP")
    c.connect("USB_DM", "J9.DM", "U4.IO2", "X1.DM")
    c.connect("VBUS", "F2.2", "X1.VBUS")
    for pin in ("VBUS", "DP", "DM", "GND"):     # the pigtail's plug in the Pico's socket
        c.connect("X1_" + pin, "X1.P_" + pin, "U1.USB_" + pin)
    # The LED rail's one source: SW69 pole A. Pole B tells the firmware when it is on EXT.
    c.add(Part("SW69", P.SELECTOR, "USB | EXT", B["selector"], position="EXT" if ext else "USB",
               awg=20))
    c.connect("VBUS", "SW69.A_USB")
    c.connect("+5V", "SW69.A_COM")
    _cap(c, "C65", 100, "bulk", "+5V")
    if ext:
        _external(c, cfg)


def _external(c, cfg):
    """The external supply: J8, F1, the cut-off U3 with Q1 and Q2, C77, D64, the power sense."""
    c.add(Part("J8", P.DC_JACK, "5.5 / 2.1 mm", B["jack"], awg=18))
    c.add(Part("PS1", P.SUPPLY_5V, "5 V 4 A", B["psu"], cable_ohms=SUPPLY_CABLE_OHMS))
    c.add(Part("F1", P.PTC_RXEF160, "1.6 A", B["ptc"]))
    c.connect("EXT_RAW", "PS1.+", "J8.TIP", "F1.1")
    c.connect("PGND", "PS1.-", "J8.SLEEVE")
    c.add(Part("U3", P.LTC4365, "LTC4365", B["ovp"],
               switch_ohms=2 * P.NMOS_IRLZ44N.ratings["rds_ohms"]))
    c.add(Part("Q1", P.NMOS_IRLZ44N, "IRLZ44N", B["ovp_fet"], role="block"))
    c.add(Part("Q2", P.NMOS_IRLZ44N, "IRLZ44N", B["ovp_fet"], role="block"))
    for ref, ohms, bom, value in (("R14", OVP_STRING[0], "ovp_r1", "953 kOhm"),
                                 ("R15", OVP_STRING[1], "ovp_r2", "35.7 kOhm"),
                                 ("R16", OVP_STRING[2], "ovp_r3", "102 kOhm")):
        c.add(Part(ref, P.resistor(ohms, OVP_TOL), value, B[bom]))
    c.connect("EXT_IN", "F1.2", "U3.VIN", "U3.SHDN", "Q1.D", "R14.1")
    c.add(Part("D66", P.TVS_P6KE27CA, "P6KE27CA", B["tvs"]))
    c.connect("EXT_IN", "D66.A1")
    c.connect("PGND", "D66.A2")
    c.connect("OVP_UV", "R14.2", "U3.UV", "R15.1")
    c.connect("OVP_OV", "R15.2", "U3.OV", "R16.1")
    c.connect("PGND", "R16.2", "U3.GND")
    c.connect("OVP_GATE", "U3.GATE", "Q1.G", "Q2.G")
    c.connect("OVP_S", "Q1.S", "Q2.S")
    c.connect("EXT_5V", "Q2.D", "U3.VOUT", "SW69.A_EXT", "SW69.B_EXT")
    _cap(c, "C77", 1000, "bulk_ext", "EXT_5V")
    c.add(Part("D64", P.SCHOTTKY, "1N5819", B["schottky"], role="feed"))
    c.connect("EXT_5V", "D64.A")
    c.connect("VSYS", "D64.K")
    # Power sense: pole B of SW69 puts the external 5 V on the divider only while the LED rail
    # is on EXT; the firmware caps the LEDs at the USB budget whenever GP28 reads less.
    pin = getattr(cfg, "POWER_SENSE_PIN", None)
    if pin is None:
        return
    c.add(Part("R17", P.resistor(SENSE_DIVIDER[0]), "22 kOhm", B["sense_r1"]))
    c.add(Part("R18", P.resistor(SENSE_DIVIDER[1]), "33 kOhm", B["sense_r2"]))
    c.add(Part("C68", P.capacitor(0.1, 50), "100 nF", B["sense_c"]))
    c.connect("EXT_SENSE", "SW69.B_COM", "R17.1")
    _gpio(c, pin, "POWER_SENSE", "POWER_SENSE_PIN", "in ADC",
          "ADC: the external 5 V x 0.6 (R17 22k, R18 33k) while SW69 puts the LED rail on EXT, "
          "else 0 V; the firmware then caps the LEDs at the USB budget")
    c.connect("POWER_SENSE", "R17.2", "R18.1", "C68.1")
    c.connect("GND", "R18.2", "C68.2")


def _cap(c, ref, uf, bom, net, rated_v=10):
    """An electrolytic capacitor from net to the power ground."""
    c.add(Part(ref, P.capacitor(uf, rated_v, True), "%d uF" % uf, B[bom]))
    c.connect(net, ref + ".1")
    c.connect("PGND", ref + ".2")


def _ceramic(c, ref, bom, net, gnd="GND", uf=0.1, value="100 nF", **attrs):
    c.add(Part(ref, P.capacitor(uf, 50), value, B[bom], **attrs))
    c.connect(net, ref + ".1")
    c.connect(gnd, ref + ".2")


# --- sensor matrix -------------------------------------------------------------------------------

def _matrix(c, cfg):
    hall = c.variant["sensor"] == "hall"
    s = c.settings
    cathode_row = s["diode"] == "row_cathode"
    pull = "pull-up" if s["active_level"] == 0 else "pull-down"
    c.add(Part("J3", P.xh(10), "rows", B["row_conn"], awg=24))
    c.add(Part("J4", P.xh(7), "columns", B["col_conn"], awg=24))
    c.connect("GND", "J3.10")
    mode = s["row_mode"]
    row_dir = {"open_drain": "open-drain", "switched": "out / input",
               "push_pull": "out %d mA" % s["row_drive_ma"]}[mode]
    for r in range(9):
        net = "ROW_%d" % (r + 1)
        level = "low" if cathode_row else "high"
        if hall:
            how = ("through Q%d's base: driven high while scanned (the row's sensors on), low "
                   "between scans" % (4 + r))
        elif mode == "open_drain":
            how = "driven low only while scanned; otherwise an input (high-impedance)"
        else:
            how = "driven %s only while scanned; otherwise an input" % level
        _gpio(c, cfg.MATRIX_ROW_PINS[r], net, "MATRIX_ROW_PINS[%d]" % r, row_dir,
              "row line of rank %d; %s" % (r + 1, how) if r == 0 else "row line of rank %d"
              % (r + 1))
        if hall:
            _hall_row(c, r, net)
        else:
            c.connect(net, "J3.%d" % (r + 1))
    for f in range(7):
        net = "COL_%s" % FILES[f].upper()
        note = "column line of file %s" % FILES[f]
        if f == 0:
            note += "; reads %d when a sensor on the scanned row is on" % s["active_level"]
        if f == 6:
            note += "; columns stay on consecutive GPIOs (one register read)"
        _gpio(c, cfg.MATRIX_COL_PINS[f], net, "MATRIX_COL_PINS[%d]" % f,
              "in %s" % pull, note)
        c.connect(net, "J4.%d" % (f + 1))
        ref = "R%d" % (3 + f)
        c.add(Part(ref, P.resistor(COL_PULLUP_OHMS), "22 kOhm", B["pullup"], group="pullup"))
        c.connect(net, ref + ".1")
        c.connect("3V3_OUT" if s["active_level"] == 0 else "GND", ref + ".2")
    if hall:
        c.add(Part("C66", P.capacitor(10, 10, True), "10 uF", B["hall_bulk"]))
        c.connect("3V3_OUT", "C66.1")
        c.connect("GND", "C66.2")
    for sq in range(63):
        if hall:
            _hall_square(c, sq)
        else:
            _reed_square(c, sq, cathode_row)


def _hall_row(c, r, row):
    """Q(4+r) powers rank r+1's sensors from 3V3 while the row pin is high."""
    vcc, base = "HROW_%d" % (r + 1), "HBASE_%d" % (r + 1)
    rb = c.add(Part("R%d" % (19 + r), P.resistor(HALL_BASE_OHMS), "1 kOhm", B["hall_rb"],
                    group="hallrow"))
    rd = c.add(Part("R%d" % (28 + r), P.resistor(HALL_ROW_PULLDOWN_OHMS), "1 kOhm",
                    B["hall_rb"], group="hallrow"))
    q = c.add(Part("Q%d" % (4 + r), P.NPN_2N3904, "2N3904", B["hall_npn"], group="hallrow",
                   role="follower"))
    c.connect(row, rb.ref + ".1")
    c.connect(base, rb.ref + ".2", q.ref + ".B")
    c.connect("3V3_OUT", q.ref + ".C")
    c.connect(vcc, q.ref + ".E", rd.ref + ".1", "J3.%d" % (r + 1))
    c.connect("GND", rd.ref + ".2")


def _hall_square(c, sq):
    r, f = sq // 7, sq % 7
    col, node = "COL_%s" % FILES[f].upper(), "S_" + square_name(sq)
    vcc = "HROW_%d" % (r + 1)
    d = c.add(Part("D%d" % (101 + sq), P.DIODE_BAT85, "BAT85", B["hall_diode"], group="square",
                   square=sq, role="matrix"))
    h = c.add(Part("H%d" % (sq + 1), P.HALL, "DRV5032FC", B["hall"], group="square", square=sq))
    # column -> diode (band to OUT) -> OUT; VCC from the row's follower, GND to GND, and the
    # datasheet's 100 nF right at the sensor.
    c.connect(col, d.ref + ".A")
    c.connect(node, d.ref + ".K", h.ref + ".OUT")
    c.connect(vcc, h.ref + ".VCC")
    c.connect("GND", h.ref + ".GND")
    _ceramic(c, "C%d" % (101 + sq), "hall_cap", vcc, group="square", square=sq)


def _reed_square(c, sq, cathode_row):
    r, f = sq // 7, sq % 7
    row, col, node = "ROW_%d" % (r + 1), "COL_%s" % FILES[f].upper(), "S_" + square_name(sq)
    d = c.add(Part("D%d" % (sq + 1), P.DIODE_1N4148, "1N4148", B["diode"], group="square",
                   square=sq, role="matrix"))
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
          "WS2812B data through U2 (SN74LVC1T45, A pin 3 -> B pin 4) and 330 ohm to DIN of "
          "LED 0; sent by PIO0 state machine 0 fed by DMA, which own this pin")
    c.add(Part("U2", P.LVC1T45, "SN74LVC1T45", B["shifter"]))
    _ceramic(c, "C64", "shifter_cap", "+5V")
    _ceramic(c, "C67", "shifter_cap", "3V3_OUT")
    c.add(Part("R1", P.resistor(330), "330 ohm", B["r_data"]))
    c.add(Part("J5", P.vh(3), "LED chain", B["led_conn"], awg=18))
    c.connect("LED_DATA", "U2.A")
    c.connect("3V3_OUT", "U2.VCCA", "U2.DIR")
    c.connect("+5V", "U2.VCCB", "J5.1")
    c.connect("GND", "U2.GND")
    c.connect("LED_Y", "U2.B", "R1.1")
    c.connect("DIN_0", "R1.2", "J5.2")
    c.connect("PGND", "J5.3")
    for i in range(63):
        led = c.add(Part("LED%d" % (i + 1), P.WS2812B, "WS2812B", B["led"], group="led", index=i))
        c.connect("+5V", led.ref + ".VDD")
        c.connect("PGND", led.ref + ".VSS")
        _ceramic(c, "C%d" % (i + 1), "led_cap", "+5V", gnd="PGND", group="led", index=i)
        c.connect("DIN_%d" % i, led.ref + ".DIN")
        if i < 62:
            c.connect("DIN_%d" % (i + 1), led.ref + ".DOUT")


# --- OLED, inputs, buzzer ------------------------------------------------------------------------

def _esd(c, ref, io1, io2=None):
    """A USBLC6-2SC6 on one or two signal nets, its rail clamp on 3V3."""
    c.add(Part(ref, P.USBLC6, "USBLC6-2SC6", B["esd"]))
    c.connect(io1, ref + ".IO1")
    if io2:
        c.connect(io2, ref + ".IO2")
    c.connect("3V3_OUT", ref + ".VBUS")
    c.connect("GND", ref + ".GND")


def _oled(c, cfg):
    _gpio(c, cfg.I2C_SDA_PIN, "I2C_SDA", "I2C_SDA_PIN", "bidir open-drain",
          "I2C%d SDA to the OLED; 2.2 kOhm pull-up R10 to 3V3 at J6 (and the module's own, "
          "if any); ESD array U5" % cfg.I2C_ID)
    _gpio(c, cfg.I2C_SCL_PIN, "I2C_SCL", "I2C_SCL_PIN", "out open-drain",
          "I2C%d SCL to the OLED; pull-up R11" % cfg.I2C_ID)
    c.add(Part("DS1", P.OLED, "SSD1306", B["oled"]))
    c.add(Part("J6", P.xh(4), "OLED", B["oled_conn"], awg=24, touched=True, cable_m=0.4))
    for ref, net in (("R10", "I2C_SDA"), ("R11", "I2C_SCL")):
        c.add(Part(ref, P.resistor(I2C_PULLUP_OHMS), "2.2 kOhm", B["i2c_pullup"]))
        c.connect(net, ref + ".1")
        c.connect("3V3_OUT", ref + ".2")
    c.connect("I2C_SDA", "DS1.SDA", "J6.4")
    c.connect("I2C_SCL", "DS1.SCL", "J6.3")
    c.connect("3V3_OUT", "DS1.VCC", "J6.2")
    c.connect("GND", "DS1.GND", "J6.1")
    _esd(c, "U5", "I2C_SDA", "I2C_SCL")


def _inputs(c, cfg):
    kind = c.variant["input"]
    c.add(Part("J7", P.xh(7), "controls", B["ctl_conn"], awg=24, touched=True))
    c.connect("3V3_OUT", "J7.4")
    c.connect("GND", "J7.5")
    # RESET and BOOTSEL on the panel: the Pico's RUN pin and its BOOTSEL test pad (TP6).
    c.add(Part("SW67", P.PANEL_BUTTON, "RESET", B["panel_button"]))
    c.add(Part("SW68", P.PANEL_BUTTON, "BOOTSEL", B["panel_button"]))
    c.add(Part("TP1", P.WIRE_PAD, "to TP6", None))
    c.add(Part("R37", P.resistor(1e3), "1 kOhm", B["r_bootsel"]))
    c.connect("RUN", "U1.RUN", "J7.6", "SW67.1")
    c.connect("QSPI_SS", "TP1.1", "R37.1")
    c.connect("BOOTSEL", "R37.2", "J7.7", "SW68.1")
    c.connect("GND", "SW67.2", "SW68.2")
    c.notes["RUN"] = ("", "in", "panel RESET button SW67 to GND (J7 pin 6); the panel BOOTSEL "
                                "button SW68 goes to the Pico's test pad TP6 (J7 pin 7)")
    if kind == "buttons":
        names = ("BTN_UP", "BTN_DOWN", "BTN_OK")
        for i, (name, word) in enumerate(zip(names, ("up", "down", "ok"))):
            ref = "SW%d" % (64 + i)
            c.add(Part(ref, P.BUTTON, "6 x 6 mm", B["button"], group="button"))
            _gpio(c, cfg.BUTTON_PINS[i], name, "BUTTON_PINS[%d]" % i, "in pull-up",
                  "push button %s to GND" % word)
            c.connect(name, ref + ".1", "J7.%d" % (i + 1))
            c.connect("GND", ref + ".2")
    else:
        names = ("ENC_A", "ENC_B", "ENC_PUSH")
        notes = ("rotary encoder A; read in a pin interrupt", "rotary encoder B",
                 "encoder push switch to GND")
        for i, name in enumerate(names):
            _gpio(c, cfg.ENCODER_PINS[i], name, "ENCODER_PINS[%d]" % i,
                  "in pull-up" + (", IRQ" if i < 2 else ""), notes[i])
            c.connect(name, "J7.%d" % (i + 1))
        if kind == "encoder":
            c.add(Part("ENC1", P.ENCODER, "24 detents", B["encoder"]))
            c.connect("ENC_A", "ENC1.A")
            c.connect("ENC_B", "ENC1.B")
            c.connect("ENC_PUSH", "ENC1.S1")
            c.connect("GND", "ENC1.C", "ENC1.S2", "ENC1.MP")
            _ceramic(c, "C75", "enc_cap", "ENC_A", uf=0.01, value="10 nF")
            _ceramic(c, "C76", "enc_cap", "ENC_B", uf=0.01, value="10 nF")
        else:
            c.add(Part("ENC2", P.ENCODER_MODULE, "KY-040", B["enc_module"]))
            c.connect("ENC_A", "ENC2.CLK")
            c.connect("ENC_B", "ENC2.DT")
            c.connect("ENC_PUSH", "ENC2.SW")
            c.connect("GND", "ENC2.GND")
            c.connect("3V3_OUT", "ENC2.+")
    _esd(c, "U6", names[0], names[1])
    _esd(c, "U7", names[2], "RUN")
    _esd(c, "U8", "BOOTSEL")


def _buzzer(c, cfg):
    if cfg.BUZZER_PIN is None:
        return
    _gpio(c, cfg.BUZZER_PIN, "BUZZER", "BUZZER_PIN", "out PWM",
          "optional buzzer: through 1 kOhm (R12) to Q3's base; Q3 switches BZ1 (a piezo with "
          "R13 across it, or a magnetic buzzer) from 3V3 through 100 ohm (R2); "
          "BUZZER_PIN = None leaves it out")
    c.add(Part("R12", P.resistor(1e3), "1 kOhm", B["r_1k"]))
    c.add(Part("Q3", P.NPN_2N3904, "2N3904", B["buzzer_npn"], role="switch"))
    c.add(Part("R2", P.resistor(100), "100 ohm", B["r_buzzer"]))
    c.add(Part("BZ1", P.PIEZO, "piezo", B["piezo"]))
    c.add(Part("R13", P.resistor(1e3), "1 kOhm", B["r_1k"]))
    c.add(Part("D65", P.DIODE_1N4148, "1N4148", B["flyback"], role="flyback"))
    c.connect("BUZZER", "R12.1")
    c.connect("BZ_BASE", "R12.2", "Q3.B")
    c.connect("GND", "Q3.E")
    c.connect("3V3_OUT", "R2.1")
    c.connect("BZ_V", "R2.2", "BZ1.1", "R13.1", "D65.K")
    c.connect("BZ", "BZ1.2", "R13.2", "D65.A", "Q3.C")
