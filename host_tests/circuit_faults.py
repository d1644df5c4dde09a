# Faults injected into the circuit data, one set per rule of the electrical rules check
# (tools/circuit/erc.py): FAULTS, a hand-made fault per rule that fits every build option, and
# generated(), the faults of a kind found in the circuit itself (every polarised capacitor
# reversed, every ground pin lifted, every resistor of the cut-off's string off by ten...).
# Used by test_circuit.py and test_circuit_faults.py; not a test module.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.join(ROOT, "tools") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "tools"))

from circuit import design, erc, parts as P  # noqa: E402
from circuit.graph import Graph  # noqa: E402
from circuit.netlist import Part  # noqa: E402

HALL = [v for v in design.VARIANTS if v["sensor"] == "hall"]


def wire(c, a, b, ref="W99"):
    """A wire (a solder bridge) from net a to net b."""
    c.add(Part(ref, P.NET_TIE, "bridge"))
    c.connect(a, ref + ".1")
    c.connect(b, ref + ".2")


def add_supply(c):
    """An external 5 V supply on net EXT_X: the one from the build, or a bare one added."""
    if "PS1" in c.parts:
        return "EXT_5V"
    c.add(Part("PS1", P.SUPPLY_5V, "5 V 4 A"))
    c.connect("EXT_X", "PS1.+")
    c.connect("PGND", "PS1.-")
    return "EXT_X"


def reverse(c, ref, a="A", k="K"):
    na, nk = c.parts[ref].net[a], c.parts[ref].net[k]
    c.rewire(ref, a, nk)
    c.rewire(ref, k, na)


def led_return_on_gnd(c, caps=False):
    """The LED chain's return (and J5's ground, and with caps their capacitors) moved to the
    Pico's ground pins."""
    for ref, pin in list(c.nets["PGND"]):
        part = c.parts[ref]
        if part.type is P.WS2812B or ref == "J5" or (caps and part.group == "led"):
            c.rewire(ref, pin, "GND")


def add_cap(c, uf, plus, minus):
    """An electrolytic C99 (10 V) with its + on net plus."""
    c.add(Part("C99", P.capacitor(uf, 10, True), "%g uF" % uf))
    c.connect(plus, "C99.1")
    c.connect(minus, "C99.2")


def f_one_source(c, v):
    # The power switch bridged (both positions at once), or a supply on the LED rail.
    if v["supply"] == "external":
        c.parts["SW69"].attrs["position"] = "both"
    else:
        c.add(Part("PS1", P.SUPPLY_5V, "5 V 4 A"))
        c.connect("+5V", "PS1.+")
        c.connect("PGND", "PS1.-")


def f_fused(c, v):
    # The fuse left out (bridged), or a supply added through a diode to VSYS without one.
    if v["supply"] == "external":
        c.remove("F1")
        wire(c, "EXT_RAW", "EXT_IN")
    else:
        net = add_supply(c)
        c.add(Part("D99", P.SCHOTTKY, "1N5819", role="feed"))
        c.connect(net, "D99.A")
        c.connect("VSYS", "D99.K")


def f_supply_range(c, v):
    # The LED chain fed from 3V3.
    for ref in [r for r, p in c.parts.items() if p.type is P.WS2812B]:
        c.rewire(ref, "VDD", "3V3_OUT")


def f_supply_drop(c, v):
    # The first review, finding 9: the 74AHCT125 on a rail that sags below 4.5 V at full load.
    c.parts["U2"].type = P.AHCT125
    u2 = c.parts["U2"]
    for pin, net in list(u2.net.items()):
        c.disconnect("U2", pin)
    c.connect("LED_DATA", "U2.1A")
    c.connect("+5V", "U2.VCC", "U2.2OE", "U2.3OE", "U2.4OE")
    c.connect("GND", "U2.GND", "U2.1OE", "U2.2A", "U2.3A", "U2.4A")
    c.connect("LED_Y", "U2.1Y")


def f_supply_current(c, v):
    c.settings["led_budget_ma"] = 500 if v["supply"] == "usb" else 4500


def f_fuse_rating(c, v):
    # USB: a fuse that trips in normal use; external: the reviewed design's RXEF250, which never
    # trips.
    if v["supply"] == "usb":
        c.parts["F2"].type = P.ptc("MF-R050", 0.5, 1.0, 1.17, "Bourns MF-R050")
    else:
        c.parts["F1"].type = P.PTC_RXEF250


def f_conductor_rating(c, v):
    # The first review, finding 3: the LED feed on a JST XH with 0.5 mm2 wire.
    c.parts["J5"].type = P.xh(3)
    c.parts["J5"].attrs["awg"] = 20


def f_input_protection(c, v):
    # The first review, finding 1: the DC jack straight to the fuse and the LED rail.
    if v["supply"] == "external":
        for ref in ("U3", "Q1", "Q2", "R14", "R15", "R16"):
            c.remove(ref)
        wire(c, "EXT_IN", "EXT_5V")
    else:
        c.add(Part("J8", P.DC_JACK, "5.5 / 2.1 mm", awg=18))
        c.connect("EXT_X", "J8.TIP", "SW69.A_EXT")
        c.connect("PGND", "J8.SLEEVE")
        add_cap(c, 1000, "EXT_X", "PGND")


def f_backfeed(c, v):
    # The first review: VBUS and VSYS bridged with D64 fitted: the supply feeds the computer's port.
    net = add_supply(c)
    if "D64" not in c.parts:
        c.add(Part("D64", P.SCHOTTKY, "1N5819", role="feed"))
        c.connect(net, "D64.A")
        c.connect("VSYS", "D64.K")
    wire(c, "VBUS", "VSYS")


def f_diode_orientation(c, v):
    # The first review: D64 fitted backwards; in every build the buzzer's flyback diode too.
    reverse(c, "D65")
    if "D64" in c.parts:
        reverse(c, "D64")


def f_ground_return(c, v):
    # "All GND to the Pico": the LED chain's return on the Pico's ground pins.
    led_return_on_gnd(c)


def f_usb_capacitance(c, v):
    add_cap(c, 1000, "VBUS", "PGND")


def f_capacitor_voltage(c, v):
    c.parts["C65"].type = P.capacitor(100, 6.3, True)


def f_bypass(c, v):
    # The first review: C64 missing.
    c.remove("C64")


def f_power_pins(c, v):
    # The level translator's ground pin left unsoldered.
    c.disconnect("U2", "GND")


def f_capacitor_polarity(c, v):
    # The LED rail's electrolytic fitted backwards.
    reverse(c, "C65", "1", "2")


def f_exposed_metal(c, v):
    # The encoder's frame lugs left free (or, without an encoder, a metal shaft unwired).
    if "ENC1" in c.parts:
        c.disconnect("ENC1", "MP")
    else:
        c.add(Part("ENC9", P.ENCODER, "spare encoder"))


def f_i2c_address(c, v):
    # A second display at the same address on the bus.
    c.add(Part("DS2", P.OLED, "SSD1306"))
    c.connect("I2C_SDA", "DS2.SDA")
    c.connect("I2C_SCL", "DS2.SCL")
    c.connect("3V3_OUT", "DS2.VCC")
    c.connect("GND", "DS2.GND")


def f_bulk_capacitor(c, v):
    for ref in ("C65", "C77"):
        if ref in c.parts:
            c.remove(ref)


def f_series_resistor(c, v):
    # The LED data resistor bridged: U2 drives the chain's first data input directly.
    c.remove("R1")
    wire(c, "LED_Y", "DIN_0")


def f_gpio_voltage(c, v):
    # The OLED module on +5V: its pull-ups put 5 V on GP0 and GP1.
    c.rewire("DS1", "VCC", "+5V")


def f_gpio_fight(c, v):
    # A row line bridged to the LED data line: a low row fights a high data bit.
    wire(c, "ROW_1", "LED_DATA")


def f_gpio_capacitance(c, v):
    c.add(Part("C99", P.capacitor(0.1, 50), "100 nF"))
    c.connect("ROW_1", "C99.1")
    c.connect("3V3_OUT", "C99.2")


def f_gpio_current(c, v):
    # The first review: a 16 ohm magnetic buzzer straight on GP21 (through R2's 100 ohm).
    for ref in ("Q3", "R12", "R13", "D65", "BZ1"):
        c.remove(ref)
    c.rewire("R2", "1", "BUZZER")
    c.add(Part("BZ1", P.MAGNETIC_BUZZER, "16 ohm"))
    c.connect("BZ_V", "BZ1.1")
    c.connect("GND", "BZ1.2")


def f_logic_levels(c, v):
    # GP22 straight to R1 and DIN of LED 0 (no level translator).
    c.rewire("R1", "1", "LED_DATA")


def f_undriven_input(c, v):
    # The first review: U2's direction pin left floating (the 74AHCT125's 1OE in the old design).
    c.disconnect("U2", "DIR")


def f_signal_path(c, v):
    # LED 10's data input soldered to its own output's net: LEDs 10-63 get nothing.
    c.rewire("LED10", "DIN", c.parts["LED10"].net["DOUT"])


def f_gpio_assignment(c, v):
    # Column a's GPIO soldered onto column b's wire.
    c.rewire("U1", "GP%d" % int(c.settings["pins"]["COL_A"][2:]), "COL_B")


def f_usb_data(c, v):
    # The pigtail's D- wire soldered to D+.
    c.rewire("X1", "DM", "USB_DP")


def f_i2c_rise_time(c, v):
    # The first review: an OLED module without pull-ups, and the pull-ups at J6 left out.
    c.parts["DS1"].type = P.oled_module(None)
    c.remove("R10")
    c.remove("R11")


def f_esd(c, v):
    c.remove("U6")


def f_column_pullup(c, v):
    for ref in ("R3", "R4", "R5", "R6", "R7", "R8", "R9"):
        c.remove(ref)


def f_column_low_level(c, v):
    for ref in ("R3", "R4", "R5", "R6", "R7", "R8", "R9"):
        c.parts[ref].type = P.resistor(2.2e3)


def f_column_settle(c, v):
    c.settings["settle_us"] = 2
    c.settings["hall_power_up_us"] = 100       # the DRV5032's t_on alone, no margin


def f_diode_direction(c, v):
    for d in [p for p in c.parts.values() if p.attrs.get("role") == "matrix"]:
        reverse(c, d.ref)


def f_ghosting(c, v):
    # The matrix built without diodes: each diode's place bridged by a wire.
    for d in [p for p in c.parts.values() if p.attrs.get("role") == "matrix"]:
        a, k = d.net["A"], d.net["K"]
        c.remove(d.ref)
        wire(c, a, k, "W" + d.ref)


def f_hall_row_drive(c, v):
    # Base resistors of 47 kOhm: the followers starve.
    for r in range(9):
        c.parts["R%d" % (19 + r)].type = P.resistor(47e3)


FAULTS = {rid: globals()["f_" + rid.replace("-", "_")] for rid in erc.RULE_IDS}
REED = [v for v in design.VARIANTS if v["sensor"] == "reed"]
CASES = [(rid, v) for rid in erc.RULE_IDS for v in (HALL if rid == "hall-row-drive" else
                                                    REED if rid == "ghosting" else
                                                    design.VARIANTS)]




# --- faults generated from the circuit ------------------------------------------------------------

def _set_ohms(ref, ohms):
    def fault(c):
        c.parts[ref].type = P.resistor(ohms, c.parts[ref].type.ratings.get("tol", 0.01))
    return fault


def _swap(ref1, ref2):
    def fault(c):
        t1, t2 = c.parts[ref1].type, c.parts[ref2].type
        c.parts[ref1].type, c.parts[ref2].type = t2, t1
    return fault


def _rewire(ref, pin, net):
    def fault(c):
        if net is None:
            c.disconnect(ref, pin)
        else:
            c.rewire(ref, pin, net)
    return fault


def _remove(*refs):
    def fault(c):
        for ref in refs:
            c.remove(ref)
    return fault


def _bridge(ref):
    """A part's two pins bridged with a wire in its place."""
    def fault(c):
        a, b = (c.parts[ref].net.get(p) for p in c.parts[ref].type.pins)
        c.remove(ref)
        wire(c, a, b, "W" + ref)
    return fault


def _reverse_cap(ref):
    return lambda c: reverse(c, ref, "1", "2")


def _duplicate(ref):
    """A second part like ref on the same nets (a second I2C device at the same address)."""
    def fault(c):
        part = c.parts[ref]
        c.add(Part(ref + "X", part.type, part.value))
        for pin, net in part.net.items():
            c.connect(net, "%s.%s" % (ref + "X", pin))
    return fault


def _setting(key, value):
    def fault(c):
        c.settings[key] = value
    return fault


def generated(c):
    """Faults of a kind, found in circuit c: [(rule that must catch it, what, fault(c))]."""
    out = []
    resistors = {p.ref: p for p in c.parts.values() if p.type.name == "resistor"}
    # The cut-off's window comes from the resistors on its threshold pins.
    for cut in [p for p in c.parts.values() if "thresholds" in p.type.ratings]:
        string = sorted({r for r, p in resistors.items() if set(p.net.values()) &
                         {cut.net.get(t) for t in cut.type.ratings["thresholds"]}})
        for ref in string:
            ohms = resistors[ref].type.ratings["ohms"]
            out.append(("input-protection", "%s x 10" % ref, _set_ohms(ref, ohms * 10)))
            out.append(("input-protection", "%s / 10" % ref, _set_ohms(ref, ohms / 10)))
        for i, a in enumerate(string):
            for b in string[i + 1:]:
                out.append(("input-protection", "%s and %s swapped" % (a, b), _swap(a, b)))
    lifted = set()                        # ground pins: one of each kind of part
    for p in c.parts.values():
        r = p.type.ratings
        if r.get("polarised"):
            out.append(("capacitor-polarity", "%s reversed" % p.ref, _reverse_cap(p.ref)))
        for pin, spec in p.type.pins.items():
            if spec.kind == "gnd" and not spec.optional and pin in p.net and \
                    p.type is not P.HALL and (p.type.name, pin) not in lifted:
                lifted.add((p.type.name, pin))
                out.append(("power-pins", "%s.%s lifted" % (p.ref, pin), _rewire(p.ref, pin, None)))
            if spec.enable is not None:
                out.append(("power-pins", "%s.%s to ground" % (p.ref, pin),
                            _rewire(p.ref, pin, "GND")))
            if spec.kind == "chassis":
                out.append(("exposed-metal", "%s.%s lifted" % (p.ref, pin),
                            _rewire(p.ref, pin, None)))
            if spec.series_ohms and pin in p.net:
                for ref, rp in c.pins_on(p.net[pin]):
                    if ref in resistors:
                        out.append(("series-resistor", "%s bridged" % ref, _bridge(ref)))
                        out.append(("series-resistor", "%s x 100" % ref, _set_ohms(
                            ref, resistors[ref].type.ratings["ohms"] * 100)))
        if r.get("i2c"):
            out.append(("i2c-address", "a second %s" % p.ref, _duplicate(p.ref)))
            out.append(("i2c-address", "OLED_ADDR 0x3D", _setting("oled_addr", 0x3D)))
        if r.get("bulk_uf"):
            g = Graph(c)
            root = {g.groups.get(p.net.get(n)) for n, s in p.type.pins.items()
                    if s.kind == "supply"}
            bulk = [q.ref for q in c.parts.values() if q.type.ratings.get("polarised") and
                    g.groups.get(q.net.get("1")) in root]
            if bulk and ("bulk-capacitor", "bulk removed") not in [o[:2] for o in out]:
                out.append(("bulk-capacitor", "bulk removed", _remove(*bulk)))
        for pin, spec in p.type.pins.items():
            if spec.signal and pin in p.net and p.attrs.get("index", 0) in (0, 31, 62):
                out.append(("signal-path", "%s.%s to ground" % (p.ref, pin),
                            _rewire(p.ref, pin, "GND")))
        if p.ref == "U1":                 # the firmware's GPIOs, left off
            for net, gp in sorted(c.settings.get("pins", {}).items())[::6]:
                out.append(("gpio-assignment", "%s left off" % gp, _rewire("U1", gp, None)))
        if p.type.modes:                  # a direction pin tied the other way
            for pin, spec in p.type.pins.items():
                if spec.kind == "in" and p.net.get(pin) and "DIR" in pin:
                    out.append(("gpio-fight", "%s.%s to ground" % (p.ref, pin),
                                _rewire(p.ref, pin, "GND")))
    if c.variant["sensor"] == "reed":
        diodes = [p.ref for p in c.parts.values() if p.attrs.get("role") == "matrix"]
        out.append(("ghosting", "matrix without diodes", lambda c: [_bridge(d)(c)
                                                                    for d in diodes]))
    return out


# --- faults only one rule reports -----------------------------------------------------------------
# Where a rule's fault in FAULTS also trips other rules (a reversed electrolytic on the USB rail
# is also damaged by what the plug brings), the fault here trips that rule alone: without the
# rule, it would pass the check.

def a_second_usb_socket(c, net):
    """A second USB-C socket J10 whose VBUS is on net."""
    c.add(Part("J10", P.USB_BREAKOUT, "USB-C"))
    c.connect(net, "J10.VBUS")
    c.connect("PGND", "J10.GND")


def a_one_source(c, v):
    # A second USB socket on VBUS: two sources on one rail.
    a_second_usb_socket(c, "VBUS")


def a_supply_range(c, v):
    # A module that runs on 3.0-3.6 V (and survives 6 V) on the LED rail.
    low = P.PartType("3.3 V module", {"VCC": P.Pin("supply", v=(3.0, 3.6), vabs=(-0.3, 6.0),
                                                   ma=5),
                                      "GND": P.Pin("gnd")})
    c.add(Part("M99", low, "3.3 V module"))
    c.connect("+5V", "M99.VCC")
    c.connect("GND", "M99.GND")


def a_supply_current(c, v):
    # LEDs capped at 0 mA, but a 300 mA display module on 3V3: more than its regulator gives.
    c.settings["led_budget_ma"] = 0
    big = P.PartType("display", dict(P.OLED.pins), P.OLED.links(None), **P.OLED.ratings)
    big.pins["VCC"] = P.Pin("supply", v=(3.0, 5.5), vabs=(-0.3, 6.0), ma=300)
    c.parts["DS1"].type = big


def a_backfeed(c, v):
    # A second USB socket feeding VBUS through a diode: it pushes into J9's port.
    a_second_usb_socket(c, "USB2_IN")
    c.add(Part("D99", P.SCHOTTKY, "1N5819"))
    c.connect("USB2_IN", "D99.A")
    c.connect("VBUS", "D99.K")


def a_diode_orientation(c, v):
    reverse(c, "D65")


def a_ground_return(c, v):
    # The LED chain's return, its capacitors and J5's ground on the Pico's ground.
    led_return_on_gnd(c, caps=True)


def a_capacitor_polarity(c, v):
    # A 10 uF electrolytic across 3V3 (no plug reaches it), fitted backwards.
    add_cap(c, 10, "GND", "3V3_OUT")


def a_gpio_voltage(c, v):
    # The translator's 5 V output wired through 10 kOhm to the first control input.
    c.add(Part("R99", P.resistor(10e3), "10 kOhm"))
    c.connect("LED_Y", "R99.1")
    c.connect("BTN_UP" if "BTN_UP" in c.nets else "ENC_A", "R99.2")


def a_column_pullup(c, v):
    # No column pull-ups, with a settle time long enough for the internal ones.
    f_column_pullup(c, v)
    c.settings["settle_us"] = 1000


def a_column_low_level(c, v):
    # Rectifier diodes (1N4007: about 0.75 V at 1 mA) in the matrix.
    slow = P.PartType("1N4007", P.DIODE_1N4148.pins, P.DIODE_1N4148.links(None),
                      **dict(P.DIODE_1N4148.ratings, vf_1ma=0.75))
    for d in [p for p in c.parts.values() if p.attrs.get("role") == "matrix"]:
        d.type = slow


ALONE = {name[2:].replace("_", "-"): f for name, f in list(globals().items())
         if name.startswith("a_") and name != "a_second_usb_socket"}
