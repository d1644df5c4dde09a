# The parts the board is built from, as electrical models: which pins a part has, what kind
# each is (power source, supply input, logic input or output, open drain, passive), the ratings
# the electrical rules check (erc.py) compares against, how current can flow inside the part
# (links: resistors, diodes, contacts), and where it goes in KiCad (symbol, footprint, and the
# pad number of every pin, for the netlist kicad.py writes). Figures come from the datasheets
# named with each part; where a datasheet gives a range, the limit that is worse for the check
# is used. Check a footprint against the part you buy before you lay out a board.


class Link:
    """A path for current between two pins of one part.

    kind: "wire" (ohms, usually 0), "fuse" (a PTC: ohms is its tripped-free resistance R1max),
    "resistor" (ohms), "diode" (from a = anode to b = cathode, forward voltage vf = (min, max)),
    "base" (the base-emitter junction of an NPN transistor: a diode, vf), "switch" (a contact
    that a magnet, a finger or a knob closes), "sensor" (an open-drain output: conducts from
    a = OUT to b = GND while the sensor is powered and sees a magnet), "transistor" (an NPN's
    collector a to emitter b, conducting while the net of pin ctl, its base, is driven high: a
    switch when the emitter is on GND, a follower when the collector is on a rail),
    "protector" (passes a = input to b = output only while the input lies within
    window = (lowest turn-on, highest turn-on, lowest turn-off, highest turn-off) volts, which
    the graph sets from the part's resistors; ohms of its switches), "clamp" (a TVS: conducts
    only above its breakdown voltage)."""

    def __init__(self, a, b, kind, ohms=0.0, vf=(0.0, 0.0), window=None, ctl=None):
        self.a, self.b, self.kind = a, b, kind
        self.ohms, self.vf, self.window = ohms, vf, window
        self.ctl = ctl                      # "transistor": the pin whose net switches it


class Pin:
    """kind: "source" (v = (min, max) volts at its terminals, ma = what it gives in normal
    use, ma_fault = the most it delivers into a fault before its own protection acts, ret =
    the pin its current returns to), "supply" (v = the operating range, vabs = (min, max)
    beyond which the part is damaged, ma = what the part draws at most, bypass_uf = the ceramic
    capacitor its datasheet asks for at the pin), "gnd", "gpio", "in" (vih volts, or vih_frac
    of the part's supply; vmax absolute), "out" (drives its part's supply, voh_drop below it at
    load), "od" (open drain), "tvs" (a clamp to ground for ESD), "pas" (passive: only its
    links matter), "chassis" (metal a player can touch: a shaft, a bezel). cap_pf: the pin's
    capacitance (I2C rise time)."""

    def __init__(self, kind, **kw):
        self.kind = kind
        self.v = kw.get("v")
        self.vabs = kw.get("vabs") or ((-0.3, self.v[1]) if self.v else None)
        self.ma = kw.get("ma", 0)
        self.ma_fault = kw.get("ma_fault", self.ma)
        self.ret = kw.get("ret")
        self.vih = kw.get("vih")
        self.vih_frac = kw.get("vih_frac")
        self.vmax = kw.get("vmax")
        self.vmin = kw.get("vmin")
        self.voh_drop = kw.get("voh_drop", 0.0)
        self.supply = kw.get("supply")       # name of the part's supply pin (for "in"/"out")
        self.bypass_uf = kw.get("bypass_uf")
        self.cap_pf = kw.get("cap_pf", 0.0)
        self.enable = kw.get("enable")       # "in": the level the part needs to work at all
        self.series_ohms = kw.get("series_ohms")   # (min, max) ohms of the resistor the pin
                                                   # must be reached through
        self.pull = kw.get("pull")           # "in": an internal pull to this level
        self.optional = kw.get("optional")   # "gnd": joined inside the part, may stay free
        self.signal = kw.get("signal")       # "in": carries data from a GPIO (not a level)
        self.fed_from = kw.get("fed_from")   # "source": the part's supply pin it draws from
        self.ratio = kw.get("ratio", 1.0)    # ... and mA there per mA given


class PartType:
    """pads: {pin name: KiCad pad number, or a tuple of them}; pins without an entry use their
    own name. symbol: (KiCad library, symbol); footprint: "Library:Footprint". modes: a
    function of level (pin name -> 1, 0 or None: the pin's static level) returning the pins
    whose kind that changes (a direction pin), {name: Pin}."""

    def __init__(self, name, pins, links=(), datasheet="", symbol=None, footprint=None,
                 pads=None, modes=None, **ratings):
        self.name = name
        self.pins = pins
        self.modes = modes       # modes(level): the pins whose kind a pin's level changes
        self._links = links
        self.datasheet = datasheet
        self.symbol = symbol or ("Device", name)
        self.footprint = footprint
        self.pads = pads or {}
        self.ratings = ratings

    def links(self, part):
        return self._links(part) if callable(self._links) else list(self._links)

    def pad_numbers(self, pin):
        p = self.pads.get(pin, pin)
        return p if isinstance(p, tuple) else (p,)


# --- RP2040 on the Raspberry Pi Pico ----------------------------------------------------------
# RP2040 datasheet, "IO Electrical Characteristics" (IOVDD = 3.3 V): VIL max 0.8 V, VIH min
# 2.0 V, VOH min 2.62 V and VOL max 0.5 V at the selected drive current (2, 4, 8 or 12 mA),
# pull-ups / pull-downs 50-80 kOhm; IO voltage at most IOVDD + 0.5 V: the pins are not 5 V
# tolerant. Pico datasheet "Powering Pico": VBUS is the USB 5 V from the Pico's own micro-USB
# socket (through the Pico's Schottky diode to VSYS, 1.8-5.5 V); 3V3_OUT comes from the Pico's
# regulator, keep its load under 300 mA. The Pico has no ESD diodes on its USB lines.
RP2040 = dict(vil=0.8, vih=2.0, voh=2.62, vol=0.5, pull_min=50e3, pull_max=80e3, vmax=3.6,
              vneg=-0.5, iovdd=3.3, drives=(2, 4, 8, 12), cin_pf=10.0)
MICRO_USB_A = 1.8            # a micro-B receptacle's contacts (USB Battery Charging 1.2)


def _pico_pins():
    from circuit.pico import PICO_HEADER
    pins = {}
    for fn in PICO_HEADER.values():
        if fn.startswith("GP"):
            pins[fn] = Pin("gpio", vmax=RP2040["vmax"], vmin=RP2040["vneg"],
                           cap_pf=RP2040["cin_pf"])
        elif fn in ("GND", "AGND"):
            pins[fn] = Pin("gnd", optional=(fn == "AGND"))
        else:
            pins[fn] = Pin("pas")
    # RUN and 3V3_EN have pull-ups on the Pico: left open they are high; held low, the RP2040
    # stays in reset or the regulator off.
    pins["RUN"] = Pin("in", vih=RP2040["vih"], vmax=RP2040["vmax"], enable=1, pull=1)
    pins["3V3_EN"] = Pin("in", vih=1.0, vmax=5.5, enable=1, pull=1)
    # VBUS: the USB 5 V as it reaches the Pico's micro-USB socket (and pin 40).
    pins["VBUS"] = Pin("pas", vabs=(-0.3, 5.5))
    pins["VSYS"] = Pin("supply", v=(1.8, 5.5), ma=50)
    # The regulator draws its 3V3 load from VSYS: about 3.3 / (5 x 0.85) of it.
    pins["3V3_OUT"] = Pin("source", v=(3.2, 3.4), ma=300, ma_fault=1000, ret="GND",
                          fed_from="VSYS", ratio=0.8)
    # The micro-USB socket's contacts (no header pins; the pigtail X1 plugs in): its VBUS is
    # pin 40's, its ground the Pico's, its D+ and D- the RP2040's USB pins (taken at the
    # RP2040's 3.6 V IO limit).
    pins["USB_VBUS"] = Pin("pas", vabs=(-0.3, 5.5))
    # ADC_VREF: the ADC's reference, filtered from 3V3 on the Pico (3.6 V at most).
    pins["ADC_VREF"] = Pin("pas", vabs=(-0.3, RP2040["vmax"]))
    pins["USB_GND"] = Pin("pas")
    pins["USB_DP"] = Pin("pas", vabs=(RP2040["vneg"], RP2040["vmax"]))
    pins["USB_DM"] = Pin("pas", vabs=(RP2040["vneg"], RP2040["vmax"]))
    return pins


def _pico_pads():
    from circuit.pico import PICO_HEADER
    pads = {}
    for num in sorted(PICO_HEADER):
        fn = PICO_HEADER[num]
        pads[fn] = pads.get(fn, ()) + (str(num),)
    for fn in ("USB_VBUS", "USB_GND", "USB_DP", "USB_DM"):
        pads[fn] = ()                   # the socket: nothing on the board's layout
    return pads


PICO = PartType("Raspberry Pi Pico", _pico_pins(),
                [Link("VBUS", "VSYS", "diode", vf=(0.2, 0.45)),      # the Pico's own Schottky
                 Link("USB_VBUS", "VBUS", "wire"), Link("USB_GND", "GND", "wire"),
                 Link("AGND", "GND", "wire")],                       # joined on the Pico
                datasheet="Raspberry Pi Pico datasheet; RP2040 datasheet",
                symbol=("MCU_Module", "RaspberryPi_Pico"),
                footprint="Module:RaspberryPi_Pico_Common_THT", pads=_pico_pads(),
                usb_amps=MICRO_USB_A, draw_ma=50, usb_data=("USB_DP", "USB_DM"))

# --- the sensor matrix --------------------------------------------------------------------------
# 1N4148 (onsemi datasheet): forward voltage about 0.62 V at 1 mA and 0.5 V at 0.1 mA at
# 25 C (about 0.12 V per decade of current), at most 1 V at 10 mA; 4 pF.
DIODE_1N4148 = PartType("1N4148", {"A": Pin("pas"), "K": Pin("pas")},
                        [Link("A", "K", "diode", vf=(0.4, 1.0))],
                        datasheet="onsemi 1N4148", symbol=("Device", "D"),
                        footprint="Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
                        pads={"K": "1", "A": "2"}, vf_1ma=0.62, vf_decade=0.12, cj_pf=4.0)
# BAT85 small-signal Schottky (Vishay/Nexperia): VF at most 0.24 V at 0.1 mA, 0.32 V at 1 mA,
# 0.40 V at 10 mA; about 10 pF; reverse leakage below 2 uA at 25 V. DO-34, through-hole.
DIODE_BAT85 = PartType("BAT85", {"A": Pin("pas"), "K": Pin("pas")},
                       [Link("A", "K", "diode", vf=(0.15, 0.8))],
                       datasheet="Vishay BAT85", symbol=("Device", "D_Schottky"),
                       footprint="Diode_THT:D_DO-34_SOD68_P7.62mm_Horizontal",
                       pads={"K": "1", "A": "2"}, vf_1ma=0.32, vf_decade=0.08, cj_pf=10.0)
REED = PartType("reed switch", {"1": Pin("pas"), "2": Pin("pas")},
                [Link("1", "2", "switch")], datasheet="Standex-Meder ORD228VL",
                symbol=("Switch", "SW_Reed"),
                # a glass reed of about 14 mm lies on an axial footprint of 15.24 mm pitch
                footprint="Resistor_THT:R_Axial_DIN0414_L11.9mm_D4.5mm_P15.24mm_Horizontal")
# DRV5032 (TI SLVSDC7): 1.65-5.5 V (absolute maximum 5.5 V); open-drain output (FC), valid
# t_on after power-up; while it measures it draws a few mA (taken as 3 mA here), then sleeps
# at microamps. "Place a 0.1 uF (minimum) ceramic capacitor between VCC and GND" as close to
# the device as possible. Pinout: TO-92 (LPG) 1 VCC, 2 GND, 3 OUT; SOT-23 (DBZ) 1 VCC, 2 OUT,
# 3 GND.
HALL = PartType("DRV5032FC", {"VCC": Pin("supply", v=(1.65, 5.5), vabs=(-0.3, 5.5), ma=3,
                                         bypass_uf=0.1),
                              "GND": Pin("gnd"), "OUT": Pin("od", vmax=5.5)},
                [Link("OUT", "GND", "sensor")], datasheet="TI DRV5032 (SLVSDC7)",
                symbol=("Connector_Generic", "Conn_01x03"),     # KiCad has no DRV5032
                footprint="Package_TO_SOT_THT:TO-92_Inline",
                pads={"VCC": "1", "GND": "2", "OUT": "3"},
                burst_ma=3.0, t_on_us=100, vol_at_half_ma=0.3)


def resistor(ohms, tol=0.01):
    return PartType("resistor", {"1": Pin("pas"), "2": Pin("pas")},
                    [Link("1", "2", "resistor", ohms=ohms)], symbol=("Device", "R"),
                    footprint="Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
                    ohms=ohms, tol=tol)


def capacitor(uf, rated_v, polarised=False):
    if polarised:
        fp = ("Capacitor_THT:CP_Radial_D10.0mm_P5.00mm" if uf >= 470 else
              "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm" if uf >= 47 else
              "Capacitor_THT:CP_Radial_D5.0mm_P2.00mm")
    else:
        fp = "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm"
    return PartType("capacitor", {"1": Pin("pas"), "2": Pin("pas")}, (),
                    symbol=("Device", "C_Polarized" if polarised else "C"), footprint=fp,
                    uf=uf, rated_v=rated_v, polarised=polarised)


# --- LEDs ----------------------------------------------------------------------------------------
# WS2812B (Worldsemi datasheet): a table headed "absolute maximum ratings" gives the power
# supply voltage as +3.5~+5.3 V, while the electrical and switching characteristics are
# specified at VDD = 4.5-5.5 V. A lower bound of 3.5 V is no damage limit: that table is the
# operating range, and the characterised 5.5 V (also USB-C's vSafe5V, the most a USB port
# gives) is taken as what the LED survives. Data input high from 0.7 x VDD; 100 nF at every
# LED; the chain's feed needs a bulk capacitor (100 uF here, the most USB allows with margin)
# and the first LED's data input a series resistor of a few hundred ohms (the LED makers'
# application notes). Pins: 1 VDD, 2 DOUT, 3 VSS, 4 DIN.
WS2812B = PartType("WS2812B", {"VDD": Pin("supply", v=(3.5, 5.3), vabs=(-0.5, 5.5), ma=60,
                                          bypass_uf=0.1),
                               "VSS": Pin("gnd"),
                               "DIN": Pin("in", vih_frac=0.7, supply="VDD", signal=True,
                                          series_ohms=(200.0, 1000.0)),
                               "DOUT": Pin("out", supply="VDD", voh_drop=0.5)},
                   datasheet="Worldsemi WS2812B", symbol=("LED", "WS2812B"),
                   footprint="LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
                   pads={"VDD": "1", "DOUT": "2", "VSS": "3", "DIN": "4"}, bulk_uf=100.0)
# SN74LVC1T45 (TI SCES515): a dual-supply translator. The A side runs from VCCA (here 3V3),
# the B side from VCCB (the LED rail), each 1.65-5.5 V (absolute maximum 6.5 V): the data stays
# valid however far the LED rail sags. A input high from 2.0 V at VCCA 2.7-3.6 V; B output
# within 0.1 V of VCCB at the LED's microamps. DIR high = A to B, low = B to A (then A is an
# output and B an input, high from 0.7 x VCCB); DIR is referred to VCCA.
# With either supply at 0 V its outputs are off (Ioff). DBV (SOT-23-6) pins: 1 VCCA, 2 GND,
# 3 A, 4 B, 5 DIR, 6 VCCB. 0.1 uF at each supply pin.
LVC1T45 = PartType("SN74LVC1T45", {
    "VCCA": Pin("supply", v=(1.65, 5.5), vabs=(-0.5, 6.5), ma=1, bypass_uf=0.1),
    "VCCB": Pin("supply", v=(1.65, 5.5), vabs=(-0.5, 6.5), ma=1, bypass_uf=0.1),
    "GND": Pin("gnd"),
    "A": Pin("in", vih=2.0, vmax=6.5, supply="VCCA", signal=True),
    "DIR": Pin("in", vih=2.0, vmax=6.5, supply="VCCA"),
    "B": Pin("out", supply="VCCB", voh_drop=0.1)},
    modes=lambda level: {} if level("DIR") != 0 else {
        "A": Pin("out", supply="VCCA", voh_drop=0.1),
        "B": Pin("in", vih_frac=0.7, vmax=6.5, supply="VCCB", signal=True)},
    datasheet="TI SN74LVC1T45 (SCES515)", symbol=("Logic_LevelTranslator", "SN74LVC1T45DBV"),
    footprint="Package_TO_SOT_SMD:SOT-23-6",
    pads={"VCCA": "1", "GND": "2", "A": "3", "B": "4", "DIR": "5", "VCCB": "6"})
# SN74AHCT125 (TI SCLS264): VCC 4.5-5.5 V (absolute maximum 7 V); TTL inputs (high from
# 2.0 V, up to 7 V: a 3.3 V signal is a valid high); outputs reach VCC - 0.8 V at 8 mA. The
# reviewed design's level shifter (a sagging USB rail left it below 4.5 V).
AHCT125_PINS = {"VCC": Pin("supply", v=(4.5, 5.5), vabs=(-0.5, 7.0), ma=1, bypass_uf=0.1),
                "GND": Pin("gnd")}
for _g in "1234":
    AHCT125_PINS[_g + "A"] = Pin("in", vih=2.0, vmax=7.0)
    AHCT125_PINS[_g + "OE"] = Pin("in", vih=2.0, vmax=7.0)
    AHCT125_PINS[_g + "Y"] = Pin("out", supply="VCC", voh_drop=0.8)
AHCT125_PIN_NUMBERS = {"1OE": 1, "1A": 2, "1Y": 3, "2OE": 4, "2A": 5, "2Y": 6, "GND": 7,
                       "3Y": 8, "3A": 9, "3OE": 10, "4Y": 11, "4A": 12, "4OE": 13, "VCC": 14}
AHCT125 = PartType("74AHCT125", AHCT125_PINS, datasheet="TI SN74AHCT125 (SCLS264)",
                   symbol=("74xx", "74AHCT125"), footprint="Package_DIP:DIP-14_W7.62mm",
                   pads={k: str(v) for k, v in AHCT125_PIN_NUMBERS.items()})

# --- user interface -------------------------------------------------------------------------------
# 0.96" SSD1306 I2C module: an on-board regulator takes 3.3-5 V; its I2C pull-ups (about
# 10 kOhm where fitted; some modules have none) go to the module's VCC. Header 1 GND, 2 VCC,
# 3 SCL, 4 SDA (the order differs between modules: go by the labels).
def oled_module(pullup_ohms=10e3):
    links = []
    if pullup_ohms:
        links = [Link("SCL", "VCC", "resistor", ohms=pullup_ohms),
                 Link("SDA", "VCC", "resistor", ohms=pullup_ohms)]
    return PartType("SSD1306 module", {"VCC": Pin("supply", v=(3.0, 5.5), vabs=(-0.3, 6.0),
                                                  ma=20),
                                       "GND": Pin("gnd"), "SCL": Pin("pas", cap_pf=10.0),
                                       "SDA": Pin("pas", cap_pf=10.0)},
                    links, datasheet="SSD1306 module (generic)",
                    symbol=("Connector_Generic", "Conn_01x04"),
                    footprint="Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical",
                    pads={"GND": "1", "VCC": "2", "SCL": "3", "SDA": "4"},
                    pullup_ohms=pullup_ohms, i2c=("SDA", "SCL"), i2c_address=0x3C)


OLED = oled_module()
BUTTON = PartType("push button", {"1": Pin("pas"), "2": Pin("pas")}, [Link("1", "2", "switch")],
                  symbol=("Switch", "SW_Push"), footprint="Button_Switch_THT:SW_PUSH_6mm")
# A 12 mm panel push button (RESET, BOOTSEL) in the frame, its two lugs wired: plastic body
# and cap, so no metal reaches a finger.
PANEL_BUTTON = PartType("panel push button", {"1": Pin("pas"), "2": Pin("pas")},
                        [Link("1", "2", "switch")], symbol=("Switch", "SW_Push"),
                        footprint="Connector_Wire:SolderWire-0.25sqmm_1x02_P4.5mm_D0.65mm_OD2mm")
# EC11-style encoder: two contacts A and B to the common C, and a push switch S1-S2. Its
# metal shaft and bushing are joined to the frame's mounting lugs (MP): grounded, a discharge
# from a finger goes to ground instead of arcing to the contacts.
ENCODER = PartType("rotary encoder", {"A": Pin("pas"), "B": Pin("pas"), "C": Pin("pas"),
                                      "S1": Pin("pas"), "S2": Pin("pas"), "MP": Pin("chassis")},
                   [Link("A", "C", "switch"), Link("B", "C", "switch"), Link("S1", "S2", "switch")],
                   datasheet="Bourns PEC11R", symbol=("Device", "RotaryEncoder_Switch_MP"),
                   footprint="Rotary_Encoder:RotaryEncoder_Alps_EC11E-Switch_Vertical_H20mm")
# KY-040-style encoder module: the same encoder with 10 kOhm pull-ups from CLK and DT to "+".
ENCODER_MODULE = PartType("encoder module", {"CLK": Pin("pas"), "DT": Pin("pas"),
                                             "SW": Pin("pas"), "+": Pin("pas"), "GND": Pin("gnd")},
                          [Link("CLK", "+", "resistor", ohms=10e3),
                           Link("DT", "+", "resistor", ohms=10e3),
                           Link("CLK", "GND", "switch"), Link("DT", "GND", "switch"),
                           Link("SW", "GND", "switch")], datasheet="KY-040 module (generic)",
                          symbol=("Connector_Generic", "Conn_01x05"),
                          footprint="Connector_PinHeader_2.54mm:PinHeader_1x05_P2.54mm_Vertical",
                          pads={"CLK": "1", "DT": "2", "SW": "3", "+": "4", "GND": "5"})
# A passive piezo is a capacitor (about 20 nF) with no DC path; a magnetic "passive buzzer" is
# a coil of 16-42 ohm, which a GPIO cannot drive (about 28 mA at 3.3 V with 100 ohm in series).
PIEZO = PartType("piezo", {"1": Pin("pas"), "2": Pin("pas")}, datasheet="TDK PS1240P02BT",
                 symbol=("Device", "Buzzer"),
                 footprint="Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm",
                 cap_nf=20.0)
MAGNETIC_BUZZER = PartType("magnetic buzzer", {"1": Pin("pas"), "2": Pin("pas")},
                           [Link("1", "2", "resistor", ohms=16.0)], datasheet="generic 16 ohm",
                           symbol=("Device", "Buzzer"),
                           footprint="Buzzer_Beeper:Buzzer_12x9.5RM7.6", coil=True)
# 2N3904 (onsemi): NPN, hFE at least 100 at 10 mA, VBE(on) 0.65-0.85 V, 200 mA. TO-92 pins
# 1 E, 2 B, 3 C. As a switch (emitter to GND) or an emitter follower (collector to a rail).
NPN_2N3904 = PartType("2N3904", {"E": Pin("pas"), "B": Pin("pas"), "C": Pin("pas")},
                      lambda part: [Link("B", "E", "base", vf=(0.6, 0.85)),
                                    Link("C", "E", "transistor", vf=(0.6, 0.85), ctl="B")],
                      datasheet="onsemi 2N3904", symbol=("Transistor_BJT", "2N3904"),
                      footprint="Package_TO_SOT_THT:TO-92_Inline",
                      pads={"E": "1", "B": "2", "C": "3"}, hfe_min=100, ic_max_ma=200)

# --- ESD -----------------------------------------------------------------------------------------
# USBLC6-2SC6 (ST): two low-capacitance (about 3.5 pF) ESD channels and a rail clamp, IEC
# 61000-4-2 level 4 (15 kV air, 8 kV contact). SOT-23-6: channel 1 on pins 1 and 6, channel 2
# on pins 3 and 4 (pass-through), 2 GND, 5 VBUS (to the protected lines' supply: the rail its
# positive clamps ride on; on ground, it would clamp the lines it guards to ground). Its links:
# the diode from each line up to VBUS (a line above its rail feeds that rail through it).
USBLC6 = PartType("USBLC6-2SC6", {"IO1": Pin("tvs", cap_pf=4.0), "IO2": Pin("tvs", cap_pf=4.0),
                                  "VBUS": Pin("supply", v=(3.0, 5.5), vabs=(-0.3, 6.0)),
                                  "GND": Pin("gnd")},
                  [Link(io, "VBUS", "diode", vf=(0.6, 1.0)) for io in ("IO1", "IO2")],
                  datasheet="ST USBLC6-2", symbol=("Power_Protection", "USBLC6-2SC6"),
                  footprint="Package_TO_SOT_SMD:SOT-23-6",
                  pads={"IO1": ("1", "6"), "IO2": ("3", "4"), "GND": "2", "VBUS": "5"})

# --- power ---------------------------------------------------------------------------------------
# PTC fuses hold less when warm and more when cold (Littelfuse RXEF and Bourns MF-R "thermal
# derating" tables: about 115 % of the 23 C hold and trip current at 0 C, 87 % at 40 C, 80 % at
# 50 C, 73 % at 60 C). A PTC carries up to its trip current indefinitely without tripping.
PTC_DERATING = ((0, 1.15), (23, 1.0), (40, 0.87), (50, 0.80), (60, 0.73))


def derating(celsius):
    pts = PTC_DERATING
    if celsius <= pts[0][0]:
        return pts[0][1]
    for (t0, f0), (t1, f1) in zip(pts, pts[1:]):
        if celsius <= t1:
            return f0 + (f1 - f0) * (celsius - t0) / float(t1 - t0)
    return pts[-1][1]


def ptc(name, hold_a, trip_a, r1max, datasheet, footprint=None):
    return PartType("PTC fuse", {"1": Pin("pas"), "2": Pin("pas")},
                    [Link("1", "2", "fuse", ohms=r1max)], datasheet=datasheet,
                    symbol=("Device", "Polyfuse"), footprint=footprint,
                    model=name, hold_a=hold_a, trip_a=trip_a, r1max=r1max)


# Littelfuse RXEF160: radial leads 5.1 mm apart. KiCad's library has no RXEF footprint: the
# project's own (hardware/barragoon.pretty) has its two pads.
PTC_RXEF160 = ptc("RXEF160", 1.6, 3.2, 0.12, "Littelfuse RXEF160",
                  "Barragoon:Fuse_Littelfuse_RXEF160")
PTC_RXEF250 = ptc("RXEF250", 2.5, 5.0, 0.07, "Littelfuse RXEF250")
# Bourns MF-RHT070 (MF-RHT series): hold 0.7 A, trip 1.4 A at 23 C, R1max 0.8 ohm, 16 V. Its
# thermal derating is flatter than the table above: the table is the safe side for both limits.
PTC_MFRHT070 = ptc("MF-RHT070", 0.7, 1.4, 0.8, "Bourns MF-RHT", "Fuse:Fuse_Bourns_MF-RHT070")

# External 5 V supply: 4.75-5.25 V, 4 A (its own over-current protection starts there).
SUPPLY_5V = PartType("5 V supply", {"+": Pin("source", v=(4.75, 5.25), ma=4000, ma_fault=4000,
                                             ret="-"),
                                    "-": Pin("gnd")}, symbol=("Device", "Battery"),
                     pads={"+": "1", "-": "2"}, offboard=True)
# A 5.5/2.1 mm jack takes any adapter with that plug: 5, 9, 12, 15, 19 or 24 V, either polarity
# (centre-negative adapters exist), relative to its sleeve; plugged in live, the adapter's lead
# (an inductance) and the board's input capacitance ring up to twice the step. Panel jacks of
# this size carry 5 A.
DC_JACK = PartType("DC jack", {"TIP": Pin("pas"), "SLEEVE": Pin("pas")},
                   symbol=("Connector", "Barrel_Jack"),
                   footprint="Connector_Wire:SolderWire-0.75sqmm_1x02_P4.8mm_D1.25mm_OD2.3mm",
                   pads={"TIP": "1", "SLEEVE": "2"},
                   receives=(-24.0, 24.0), ringing=2.0, entry=("TIP",), ground="SLEEVE",
                   amps=5.0,
                   what="any 5.5/2.1 mm adapter, 5-24 V, either polarity")
# USB-C receptacle breakout (USB 2.0 pins, 5.1 kOhm CC pull-downs on the board): a computer
# port gives 4.75-5.25 V and 500 mA; a USB-C charger up to 3 A before its limit, and without
# a Power Delivery contract never more than 5.5 V (vSafe5V). The contacts carry 3 A. Pads of
# the breakout: 1 VBUS, 2 D-, 3 D+, 4 GND.
USB_BREAKOUT = PartType("USB-C receptacle breakout",
                        {"VBUS": Pin("source", v=(4.75, 5.25), ma=500, ma_fault=3000, ret="GND"),
                         "DM": Pin("pas"), "DP": Pin("pas"), "GND": Pin("gnd")},
                        datasheet="USB 2.0; USB Type-C 2.0",
                        symbol=("Connector_Generic", "Conn_01x04"),
                        footprint="Connector_Wire:SolderWire-0.5sqmm_1x04_P4.6mm_D0.9mm_OD2.1mm",
                        pads={"VBUS": "1", "DM": "2", "DP": "3", "GND": "4"},
                        receives=(0.0, 5.5), entry=("VBUS",), ground="GND", amps=3.0,
                        what="any USB port or charger (at most 5.5 V without Power Delivery)",
                        usb_data=("DP", "DM"))
# The short micro-USB cable from the perfboard to the Pico's own socket (its plug end in the
# Pico, its four wires soldered to the perfboard: 1 VBUS, 2 D-, 3 D+, 4 GND).
USB_PIGTAIL = PartType("micro-USB pigtail", {n: Pin("pas") for n in (
                           "VBUS", "DM", "DP", "GND", "P_VBUS", "P_DM", "P_DP", "P_GND")},
                       [Link(n, "P_" + n, "wire") for n in ("VBUS", "DM", "DP", "GND")],
                       symbol=("Connector_Generic", "Conn_01x04"),
                       footprint="Connector_Wire:SolderWire-0.25sqmm_1x04_P4.5mm_D0.65mm_OD2mm",
                       pads={"VBUS": "1", "DM": "2", "DP": "3", "GND": "4", "P_VBUS": (),
                             "P_DM": (), "P_DP": (), "P_GND": ()}, amps=MICRO_USB_A)
# 1N5819 Schottky (onsemi): 0.2-0.45 V at the Pico's current; 40 V.
SCHOTTKY = PartType("1N5819", {"A": Pin("pas"), "K": Pin("pas")},
                    [Link("A", "K", "diode", vf=(0.2, 0.45))], datasheet="onsemi 1N5819",
                    symbol=("Device", "D_Schottky"),
                    footprint="Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal",
                    pads={"K": "1", "A": "2"})


def _protector_links(part):
    return [Link("VIN", "VOUT", "protector", ohms=part.attrs.get("switch_ohms", 0.05))]


# LTC4365 (Analog Devices): over-voltage, under-voltage and reverse-supply protection; drives
# two back-to-back N-channel MOSFETs. VIN 2.5-34 V in operation, survives -40 to 60 V; UV and
# OV comparators at 0.5 V +-1.5 % (492.5-507.5 mV) on a resistor string from VIN; the gates
# turn off within about 1-2 us of an over-voltage; a negative VIN holds the gates at VIN, so
# only M1's body diode conducts and M2 blocks. TSOT-23-8 (TS8): 1 VIN, 2 UV, 3 OV, 4 GND,
# 5 SHDN, 6 FAULT, 7 VOUT, 8 GATE. SHDN low keeps the gates off: it is tied high. Its link
# stands for the two MOSFETs' channels; the window it passes comes from the resistors fitted
# on UV and OV (graph.py: it passes while UV is above and OV below the threshold).
LTC4365 = PartType("LTC4365", {"VIN": Pin("supply", v=(2.5, 34.0), vabs=(-40.0, 60.0), ma=0.2),
                               "UV": Pin("in", vih=0.5075, vmax=60.0, vmin=-40.0),
                               "OV": Pin("in", vih=0.5075, vmax=60.0, vmin=-40.0),
                               "GND": Pin("gnd"),
                               "SHDN": Pin("in", vih=1.2, vmax=60.0, vmin=-40.0, enable=1),
                               "FAULT": Pin("od"), "VOUT": Pin("pas"), "GATE": Pin("pas")},
                   _protector_links, datasheet="Analog Devices LTC4365",
                   symbol=("Power_Management", "LTC4365TS8"),
                   footprint="Package_TO_SOT_SMD:TSOT-23-8",
                   pads={"VIN": "1", "UV": "2", "OV": "3", "GND": "4", "SHDN": "5",
                         "FAULT": "6", "VOUT": "7", "GATE": "8"},
                   vref=(0.4925, 0.5075), thresholds=("UV", "OV"))
# IRLZ44N (Infineon): logic-level N-MOSFET, 55 V, 25 mOhm at VGS 5 V, gate +-16 V. TO-220:
# 1 G, 2 D, 3 S. The body diode conducts from S to D.
NMOS_IRLZ44N = PartType("IRLZ44N", {"G": Pin("pas"), "D": Pin("pas", vabs=(-55.0, 55.0)),
                                    "S": Pin("pas")},
                        [Link("S", "D", "diode", vf=(0.5, 1.3))], datasheet="Infineon IRLZ44N",
                        symbol=("Transistor_FET", "IRLZ44N"),
                        footprint="Package_TO_SOT_THT:TO-220-3_Vertical",
                        pads={"G": "1", "D": "2", "S": "3"}, vds=55.0, rds_ohms=0.025, amps=47.0)


def selector_links(positions):
    """The contacts of the power switch closed in the given positions ("USB", "EXT")."""
    return [Link(pole + "_COM", pole + "_" + pos, "wire", ohms=0.01)
            for pos in positions for pole in "AB"]


def _selector_links(part):
    pos = part.attrs.get("position")
    if pos == "both":               # a bridge across the switch: the mistake it prevents
        return selector_links(("USB", "EXT"))
    return selector_links((pos,)) if pos in ("USB", "EXT") else []


# Power selector: a two-pole, two-way (DPDT ON-ON) toggle switch, break-before-make, rated 5 A
# (e.g. C&K 7201). Pole A connects the LED rail to USB or EXT, never both; pole B tells the
# firmware that the rail is on EXT. Lugs 1-3 pole A (USB, common, EXT), 4-6 pole B.
SELECTOR = PartType("DPDT toggle switch", {n: Pin("pas") for n in
                                           ("A_USB", "A_COM", "A_EXT", "B_USB", "B_COM", "B_EXT")},
                    _selector_links, datasheet="C&K 7201", symbol=("Switch", "SW_DPDT_x2"),
                    footprint="Connector_Wire:SolderWire-0.5sqmm_1x06_P4.6mm_D0.9mm_OD2.1mm",
                    pads={"A_USB": "1", "A_COM": "2", "A_EXT": "3", "B_USB": "4", "B_COM": "5",
                          "B_EXT": "6"}, amps=5.0, positions=("USB", "EXT"))
# P6KE27CA (Littelfuse P6KE): a bidirectional 600 W TVS, DO-15. Breakdown 25.65-28.35 V at
# 1 mA (below it, microamps: a 24 V adapter of either polarity leaves it off), clamping at
# most 37.5 V at its 16 A peak pulse current (10/1000 us).
TVS_P6KE27CA = PartType("P6KE27CA", {"A1": Pin("pas"), "A2": Pin("pas")},
                        [Link("A1", "A2", "clamp")], datasheet="Littelfuse P6KE",
                        symbol=("Device", "D_TVS"),
                        footprint="Diode_THT:D_DO-15_P10.16mm_Horizontal",
                        pads={"A1": "1", "A2": "2"}, vbr=(25.65, 28.35), vc=37.5)
# A KiCad net tie: the one point where two ground nets meet (the star point).
NET_TIE = PartType("net tie", {"1": Pin("pas"), "2": Pin("pas")}, [Link("1", "2", "wire")],
                   symbol=("Device", "NetTie_2"), footprint="NetTie:NetTie-2_THT_Pad0.3mm")
# A pad on the perfboard for a wire to the Pico's BOOTSEL test pad (TP6): the flash chip's
# select line, which the Pico's own BOOTSEL button reaches through 1 kOhm (Pico datasheet,
# schematic; RP2040 hardware design guide). A lead to a panel button is a long stub on a
# fast line: it joins through a resistor of that size too.
WIRE_PAD = PartType("wire pad", {"1": Pin("pas", series_ohms=(470.0, 2200.0), enable=1,
                                         vabs=(RP2040["vneg"], RP2040["vmax"]))},
                    symbol=("Connector", "TestPoint"),
                    footprint="TestPoint:TestPoint_THTPad_D1.0mm_Drill0.5mm")

# --- connectors and wire --------------------------------------------------------------------------
# JST XH (2.50 mm): 3 A per contact, crimps for 28-22 AWG. JST VH (3.96 mm): 10 A per contact,
# crimps for 22-16 AWG.
def _connector(family, n, amps, awg, footprint):
    return PartType("%s connector %d" % (family, n), {str(i): Pin("pas") for i in range(1, n + 1)},
                    symbol=("Connector_Generic", "Conn_01x%02d" % n), footprint=footprint,
                    family=family, amps=amps, awg=awg)


def xh(n):
    return _connector("JST XH", n, 3.0, (28, 22),
                      "Connector_JST:JST_XH_B%dB-XH-A_1x%02d_P2.50mm_Vertical" % (n, n))


def vh(n):
    return _connector("JST VH", n, 10.0, (22, 16),
                      "Connector_JST:JST_VH_B%dP-VH_1x%02d_P3.96mm_Vertical" % (n, n))


# Copper wire: ohms per metre, and the current a PVC hook-up wire in a bundle in a closed box
# carries for long (about half the single-wire "chassis wiring" figures).
WIRE = {28: (0.213, 0.7), 26: (0.134, 1.1), 24: (0.084, 1.75), 22: (0.053, 3.5),
        20: (0.033, 5.5), 18: (0.021, 8.0), 16: (0.013, 11.0)}
MM2_OF_AWG = {28: 0.08, 26: 0.14, 24: 0.25, 22: 0.34, 20: 0.5, 18: 0.75, 16: 1.5}
CONTACT_OHMS = 0.03          # one mated connector contact, worst case
