# The parts the board is built from, as electrical models: which pins a part has, what kind
# each is (power source, supply input, logic input or output, open drain, passive), the ratings
# the electrical rules check (erc.py) compares against, and how current can flow inside the part
# (links: resistors, diodes, contacts). Figures come from the datasheets named with each part;
# where a datasheet gives a range, the limit that is worse for the check is used.


class Link:
    """A path for current between two pins of one part.

    kind: "wire" (0 ohm), "fuse" (0 ohm, hold_a), "resistor" (ohms), "diode" (from a = anode
    to b = cathode, forward voltage vf = (min, max)), "switch" (a contact that a magnet, a
    finger or a knob closes), "sensor" (an open-drain output: conducts from a = OUT to b = GND
    while the sensor is powered and sees a magnet)."""

    def __init__(self, a, b, kind, ohms=0.0, vf=(0.0, 0.0), hold_a=None):
        self.a, self.b, self.kind = a, b, kind
        self.ohms, self.vf, self.hold_a = ohms, vf, hold_a


class Pin:
    """kind: "source" (v = (min, max) volts, ma = what it can give), "supply" (v = the allowed
    range, ma = what the part draws at most), "gnd", "gpio", "in" (vih volts, or vih_frac of
    the part's supply; vmax absolute), "out" (drives its part's supply, voh_drop below it at
    load), "od" (open drain), "pas" (passive: only its links matter)."""

    def __init__(self, kind, **kw):
        self.kind = kind
        self.v = kw.get("v")
        self.ma = kw.get("ma", 0)
        self.vih = kw.get("vih")
        self.vih_frac = kw.get("vih_frac")
        self.vmax = kw.get("vmax")
        self.voh_drop = kw.get("voh_drop", 0.0)
        self.supply = kw.get("supply")       # name of the part's supply pin (for "in"/"out")


class PartType:
    def __init__(self, name, pins, links=(), datasheet="", **ratings):
        self.name = name
        self.pins = pins
        self._links = links
        self.datasheet = datasheet
        self.ratings = ratings

    def links(self, part):
        return self._links(part) if callable(self._links) else list(self._links)


# --- RP2040 on the Raspberry Pi Pico ----------------------------------------------------------
# RP2040 datasheet, "IO Electrical Characteristics" (IOVDD = 3.3 V): VIL max 0.8 V, VIH min
# 2.0 V, VOH min 2.62 V and VOL max 0.5 V at the selected drive current (2, 4, 8 or 12 mA),
# pull-ups / pull-downs 50-80 kOhm; IO voltage at most IOVDD + 0.5 V: the pins are not 5 V
# tolerant. Pico datasheet "Powering Pico": VBUS is the USB 5 V (through the Pico's Schottky
# diode to VSYS, 1.8-5.5 V); 3V3_OUT comes from the Pico's regulator, keep its load under 300 mA.
RP2040 = dict(vil=0.8, vih=2.0, voh=2.62, vol=0.5, pull_min=50e3, pull_max=80e3, vmax=3.6,
              iovdd=3.3, drives=(2, 4, 8, 12))


def _pico_pins():
    from circuit.pico import PICO_HEADER
    pins = {}
    for fn in PICO_HEADER.values():
        if fn.startswith("GP"):
            pins[fn] = Pin("gpio", vmax=RP2040["vmax"])
        elif fn in ("GND", "AGND"):
            pins[fn] = Pin("gnd")
        else:
            pins[fn] = Pin("pas")
    # USB 2.0: a host port gives 4.75-5.25 V and up to 500 mA once configured.
    pins["VBUS"] = Pin("source", v=(4.75, 5.25), ma=500)
    pins["VSYS"] = Pin("supply", v=(1.8, 5.5), ma=50)
    pins["3V3_OUT"] = Pin("source", v=(3.2, 3.4), ma=300)
    return pins


PICO = PartType("Raspberry Pi Pico", _pico_pins(),
                [Link("VBUS", "VSYS", "diode", vf=(0.2, 0.45))],     # the Pico's own Schottky
                datasheet="Raspberry Pi Pico datasheet; RP2040 datasheet", draw_ma=50)

# --- the sensor matrix --------------------------------------------------------------------------
# 1N4148 (onsemi datasheet): forward voltage about 0.62 V at 1 mA and 0.5 V at 0.1 mA at
# 25 C (about 0.12 V per decade of current), at most 1 V at 10 mA; 4 pF.
DIODE_1N4148 = PartType("1N4148", {"A": Pin("pas"), "K": Pin("pas")},
                        [Link("A", "K", "diode", vf=(0.4, 1.0))],
                        datasheet="onsemi 1N4148", vf_1ma=0.62, vf_decade=0.12, cj_pf=4.0)
REED = PartType("reed switch", {"1": Pin("pas"), "2": Pin("pas")},
                [Link("1", "2", "switch")], datasheet="Standex-Meder ORD228VL")
# DRV5032 (TI SLVSDC7): 1.65-5.5 V; open-drain output (FC), valid t_on after power-up; while it
# measures it draws a few mA (taken as 3 mA here), then sleeps at microamps. Pinout: SOT-23
# (DBZ) 1 VCC, 2 OUT, 3 GND; TO-92 (LPG) 1 VCC, 2 GND, 3 OUT.
HALL = PartType("DRV5032FC", {"VCC": Pin("supply", v=(1.65, 5.5), ma=3), "GND": Pin("gnd"),
                              "OUT": Pin("od", vmax=5.5)},
                [Link("OUT", "GND", "sensor")], datasheet="TI DRV5032 (SLVSDC7)",
                burst_ma=3.0, t_on_us=100, vol_at_half_ma=0.3)


def resistor(ohms):
    return PartType("resistor", {"1": Pin("pas"), "2": Pin("pas")},
                    [Link("1", "2", "resistor", ohms=ohms)])


def capacitor(uf, rated_v, polarised=False):
    return PartType("capacitor", {"1": Pin("pas"), "2": Pin("pas")}, (),
                    uf=uf, rated_v=rated_v, polarised=polarised)


# --- LEDs ----------------------------------------------------------------------------------------
# WS2812B (Worldsemi datasheet): VDD 3.5-5.3 V; data input high from 0.7 x VDD.
WS2812B = PartType("WS2812B", {"VDD": Pin("supply", v=(3.5, 5.3), ma=60), "VSS": Pin("gnd"),
                               "DIN": Pin("in", vih_frac=0.7, supply="VDD"),
                               "DOUT": Pin("out", supply="VDD", voh_drop=0.5)},
                   datasheet="Worldsemi WS2812B")
# SN74AHCT125 (TI SCLS264): VCC 4.5-5.5 V; TTL inputs (high from 2.0 V, up to 7 V: a 3.3 V
# signal is a valid high); outputs reach VCC - 0.8 V at 8 mA.
AHCT125_PINS = {"VCC": Pin("supply", v=(4.5, 5.5), ma=1), "GND": Pin("gnd")}
for _g in "1234":
    AHCT125_PINS[_g + "A"] = Pin("in", vih=2.0, vmax=7.0)
    AHCT125_PINS[_g + "OE"] = Pin("in", vih=2.0, vmax=7.0)
    AHCT125_PINS[_g + "Y"] = Pin("out", supply="VCC", voh_drop=0.8)
AHCT125 = PartType("74AHCT125", AHCT125_PINS, datasheet="TI SN74AHCT125 (SCLS264)")
AHCT125_PIN_NUMBERS = {"1OE": 1, "1A": 2, "1Y": 3, "2OE": 4, "2A": 5, "2Y": 6, "GND": 7,
                       "3Y": 8, "3A": 9, "3OE": 10, "4Y": 11, "4A": 12, "4OE": 13, "VCC": 14}

# --- user interface -------------------------------------------------------------------------------
# 0.96" SSD1306 I2C module: an on-board regulator takes 3.3-5 V; its I2C pull-ups (about
# 10 kOhm) go to the module's VCC, so VCC decides the bus high level.
OLED = PartType("SSD1306 module", {"VCC": Pin("supply", v=(3.0, 5.5), ma=20), "GND": Pin("gnd"),
                                   "SCL": Pin("pas"), "SDA": Pin("pas")},
                [Link("SCL", "VCC", "resistor", ohms=10e3), Link("SDA", "VCC", "resistor", ohms=10e3)],
                datasheet="SSD1306 module (generic)")
BUTTON = PartType("push button", {"1": Pin("pas"), "2": Pin("pas")}, [Link("1", "2", "switch")])
# EC11-style encoder: two contacts A and B to the common C, and a push switch S1-S2.
ENCODER = PartType("rotary encoder", {"A": Pin("pas"), "B": Pin("pas"), "C": Pin("pas"),
                                      "S1": Pin("pas"), "S2": Pin("pas")},
                   [Link("A", "C", "switch"), Link("B", "C", "switch"), Link("S1", "S2", "switch")],
                   datasheet="Bourns PEC11R")
# KY-040-style encoder module: the same encoder with 10 kOhm pull-ups from CLK and DT to "+".
ENCODER_MODULE = PartType("encoder module", {"CLK": Pin("pas"), "DT": Pin("pas"),
                                             "SW": Pin("pas"), "+": Pin("pas"), "GND": Pin("gnd")},
                          [Link("CLK", "+", "resistor", ohms=10e3),
                           Link("DT", "+", "resistor", ohms=10e3),
                           Link("CLK", "GND", "switch"), Link("DT", "GND", "switch"),
                           Link("SW", "GND", "switch")], datasheet="KY-040 module (generic)")
PIEZO = PartType("piezo", {"1": Pin("pas"), "2": Pin("pas")}, datasheet="Murata PKM17EPPH4001-B0")

# --- power ---------------------------------------------------------------------------------------
# External 5 V supply: 4.75-5.25 V, 4 A.
SUPPLY_5V = PartType("5 V supply", {"+": Pin("source", v=(4.75, 5.25), ma=4000), "-": Pin("gnd")})
DC_JACK = PartType("DC jack", {"TIP": Pin("pas"), "SLEEVE": Pin("pas")})
# Resettable fuse (PTC): holds 2.5 A, trips above about 5 A.
PTC = PartType("PTC fuse", {"1": Pin("pas"), "2": Pin("pas")},
               [Link("1", "2", "fuse", hold_a=2.5)], datasheet="Littelfuse RXEF250")
# 1N5819 Schottky (onsemi): 0.2-0.45 V at the Pico's current.
SCHOTTKY = PartType("1N5819", {"A": Pin("pas"), "K": Pin("pas")},
                    [Link("A", "K", "diode", vf=(0.2, 0.45))], datasheet="onsemi 1N5819")


def _jumper_links(part):
    pos = part.attrs.get("position")
    if pos == "both":               # a wire across all three pins: the mistake JP1 prevents
        return [Link("COM", "USB", "wire"), Link("COM", "EXT", "wire")]
    return [Link("COM", pos, "wire")] if pos in ("USB", "EXT") else []


# JP1: a 3-pin header with a jumper. COM (the LED rail) joins either USB (the Pico's VBUS) or
# EXT (the fused DC jack), never both: the rail has one source by construction.
JUMPER3 = PartType("3-pin jumper", {"USB": Pin("pas"), "COM": Pin("pas"), "EXT": Pin("pas")},
                   _jumper_links)


def connector(n):
    return PartType("connector %d" % n, {str(i): Pin("pas") for i in range(1, n + 1)})
