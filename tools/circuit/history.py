# Earlier designs of the board, kept as data so that the rules check can show what it finds in
# them (tools/hardware.py --erc --legacy / --reviewed, host_tests/test_circuit.py):
#
#   reviewed     the design as the first electronics review found it (main at de99025):
#                the DC jack straight to F1 (a 2.5 A PTC) and the LED rail, the LED chain fed
#                from the Pico's own VBUS, one ground for everything, a 74AHCT125, the OLED
#                module's own pull-ups only, no ESD protection, a piezo straight on GP21, hall
#                rows that power their sensors from the GPIO;
#   legacy       the design as first documented (hardware/ at commit 0cb79e7): VBUS
#                wired straight to the LED rail, the external supply joined to it with only a
#                diode to VSYS and no fuse, 1000 uF on VBUS, no column pull-ups, settle time 0,
#                rows driven push-pull at the default 4 mA, a 100 nF capacitor on every hall
#                row, and nothing saying where an encoder module's "+" goes (so it went to the
#                only 5 V, VBUS).
#
# Pins come from firmware/config.py, the firmware settings of their time are frozen here. Parts
# have no BOM entries: nothing is generated from these designs.
from circuit import parts as P
from circuit.design import DEFAULT, FILES, USB_CABLE_OHMS, square_name
from circuit.netlist import Circuit, Part

ROW_MODES = {("reed", "row_cathode"): "open_drain", ("reed", "row_anode"): "switched",
             ("hall", "row_cathode"): "push_pull", ("hall", "row_anode"): "push_pull"}
BUDGETS = {"usb": 350, "external": 2000}          # the firmware's limits at de99025

# The Pico as the source of USB power: the LED rail hung off its VBUS pin, so every LED
# milliamp went through its micro-USB socket (and a panel-mount extension cable).
OLD_PICO = P.PartType("Raspberry Pi Pico", dict(P.PICO.pins), P.PICO.links(None),
                      datasheet=P.PICO.datasheet, usb_amps=P.MICRO_USB_A)
OLD_PICO.pins["VBUS"] = P.Pin("source", v=(4.75, 5.25), ma=500, ma_fault=3000, ret="GND")
EXTENSION_OHMS = 2 * 0.3 * P.WIRE[28][0] + 2 * P.CONTACT_OHMS   # 0.3 m panel extension


def _jumper_links(part):
    pos = part.attrs.get("position")
    if pos == "both":
        return [P.Link("COM", "USB", "wire"), P.Link("COM", "EXT", "wire")]
    return [P.Link("COM", pos, "wire")] if pos in ("USB", "EXT") else []


JUMPER3 = P.PartType("3-pin jumper", {"USB": P.Pin("pas"), "COM": P.Pin("pas"),
                                      "EXT": P.Pin("pas")}, _jumper_links, amps=3.0)


def build(variant=None, cfg=None, legacy=False):
    """The reviewed design (legacy=False) or the first documented one (legacy=True)."""
    v = dict(DEFAULT)
    v.update(variant or {})
    if cfg is None:
        from circuit.config import load_config
        cfg = load_config()
    c = Circuit(v)
    _settings(c, cfg, legacy)
    c.add(Part("U1", OLD_PICO, "RP2040", cable_ohms=USB_CABLE_OHMS + EXTENSION_OHMS))
    _power(c, legacy)
    _matrix(c, cfg, legacy)
    _leds(c, cfg)
    _oled(c, cfg)
    _inputs(c, cfg, legacy)
    _buzzer(c, cfg)
    return c


def _settings(c, cfg, legacy):
    sensor = c.variant["sensor"]
    s = c.settings
    s["diode"] = cfg.DIODE_DIRECTION
    s["active_level"] = cfg.SENSOR_ACTIVE_LEVEL
    s["settle_us"] = 15
    s["hall_power_up_us"] = 150
    s["row_mode"] = ROW_MODES[(sensor, cfg.DIODE_DIRECTION)]
    s["row_drive_ma"] = 12 if sensor == "hall" else 4
    s["led_budget_ma"] = BUDGETS[c.variant["supply"]]
    s["i2c_hz"] = 400000
    if legacy:
        s.update(settle_us=0, hall_power_up_us=100, row_mode="push_pull", row_drive_ma=4,
                 led_budget_ma=350 if c.variant["supply"] == "usb" else 3500)


def _gpio(c, gpio, net):
    c.connect(net, "U1.GP%d" % gpio)


def _power(c, legacy):
    c.connect("GND", "U1.GND")
    c.connect("3V3_OUT", "U1.3V3_OUT")
    c.connect("VBUS", "U1.VBUS")
    c.connect("VSYS", "U1.VSYS")
    ext = c.variant["supply"] == "external"
    if legacy:
        c.nets["+5V"] = c.nets.pop("VBUS")
        for ref, pin in c.nets["+5V"]:
            c.parts[ref].net[pin] = "+5V"
        _cap(c, "C65", 1000, "+5V")
        if ext:
            _supply(c, "+5V", "+5V")
        return
    c.add(Part("JP1", JUMPER3, "USB | EXT", position="EXT" if ext else "USB"))
    c.connect("VBUS", "JP1.USB")
    c.connect("+5V", "JP1.COM")
    _cap(c, "C65", 100, "+5V")
    if ext:
        c.add(Part("J8", P.DC_JACK, "5.5 / 2.1 mm", awg=20))
        c.add(Part("F1", P.PTC_RXEF250, "2.5 A"))
        _supply(c, "EXT_IN", "EXT_5V")
        c.connect("EXT_IN", "J8.TIP", "F1.1")
        c.connect("GND", "J8.SLEEVE")
        c.connect("EXT_5V", "F1.2", "JP1.EXT")
        _cap(c, "C77", 1000, "EXT_5V")


def _cap(c, ref, uf, net):
    c.add(Part(ref, P.capacitor(uf, 10, True), "%d uF" % uf))
    c.connect(net, ref + ".1")
    c.connect("GND", ref + ".2")


def _supply(c, out_net, diode_net):
    c.add(Part("PS1", P.SUPPLY_5V, "5 V 4 A", cable_ohms=0.16))
    c.add(Part("D64", P.SCHOTTKY, "1N5819", role="feed"))
    c.connect(out_net, "PS1.+")
    c.connect("GND", "PS1.-")
    c.connect(diode_net, "D64.A")
    c.connect("VSYS", "D64.K")


def _matrix(c, cfg, legacy):
    hall = c.variant["sensor"] == "hall"
    cathode_row = cfg.DIODE_DIRECTION == "row_cathode"
    c.add(Part("J3", P.xh(9), "rows", awg=24))
    c.add(Part("J4", P.xh(7), "columns", awg=24))
    for r in range(9):
        _gpio(c, cfg.MATRIX_ROW_PINS[r], "ROW_%d" % (r + 1))
        c.connect("ROW_%d" % (r + 1), "J3.%d" % (r + 1))
    for f in range(7):
        net = "COL_%s" % FILES[f].upper()
        _gpio(c, cfg.MATRIX_COL_PINS[f], net)
        c.connect(net, "J4.%d" % (f + 1))
        if not legacy:
            ref = "R%d" % (3 + f)
            c.add(Part(ref, P.resistor(22e3), "22 kOhm", group="pullup"))
            c.connect(net, ref + ".1")
            c.connect("3V3_OUT" if cfg.SENSOR_ACTIVE_LEVEL == 0 else "GND", ref + ".2")
    if hall and not legacy:
        c.add(Part("C66", P.capacitor(0.1, 50), "100 nF"))
        c.connect("3V3_OUT", "C66.1")
        c.connect("GND", "C66.2")
    for sq in range(63):
        _square(c, sq, hall, cathode_row)
    if hall and legacy:
        for r in range(9):
            ref = "C%d" % (90 + r)
            c.add(Part(ref, P.capacitor(0.1, 50), "100 nF"))
            c.connect("ROW_%d" % (r + 1), ref + ".2")
            c.connect("3V3_OUT" if cathode_row else "GND", ref + ".1")


def _square(c, sq, hall, cathode_row):
    r, f = sq // 7, sq % 7
    row, col, node = "ROW_%d" % (r + 1), "COL_%s" % FILES[f].upper(), "S_" + square_name(sq)
    d = c.add(Part("D%d" % (sq + 1), P.DIODE_1N4148, "1N4148", group="square", square=sq,
                   role="matrix"))
    if hall:
        h = c.add(Part("H%d" % (sq + 1), P.HALL, "DRV5032FC", group="square", square=sq))
        c.connect(col, d.ref + ".A")
        c.connect(node, d.ref + ".K", h.ref + ".OUT")
        if cathode_row:
            c.connect("3V3_OUT", h.ref + ".VCC")
            c.connect(row, h.ref + ".GND")
        else:
            c.connect(row, h.ref + ".VCC")
            c.connect("GND", h.ref + ".GND")
        return
    s = c.add(Part("SW%d" % (sq + 1), P.REED, "reed", group="square", square=sq))
    c.connect(col, s.ref + ".1")
    c.connect(node, s.ref + ".2")
    if cathode_row:
        c.connect(node, d.ref + ".A")
        c.connect(row, d.ref + ".K")
    else:
        c.connect(row, d.ref + ".A")
        c.connect(node, d.ref + ".K")


def _leds(c, cfg):
    _gpio(c, cfg.LED_PIN, "LED_DATA")
    c.add(Part("U2", P.AHCT125, "74AHCT125"))
    c.add(Part("C64", P.capacitor(0.1, 50), "100 nF"))
    c.add(Part("R1", P.resistor(330), "330 ohm"))
    c.add(Part("J5", P.xh(3), "LED chain", awg=20))      # power.md asked for 0.5 mm2 wire
    c.connect("LED_DATA", "U2.1A")
    c.connect("GND", "U2.GND", "U2.1OE", "U2.2A", "U2.3A", "U2.4A", "C64.2")
    c.connect("+5V", "U2.VCC", "U2.2OE", "U2.3OE", "U2.4OE", "C64.1", "J5.1")
    c.connect("LED_Y", "U2.1Y", "R1.1")
    c.connect("DIN_0", "R1.2", "J5.2")
    c.connect("GND", "J5.3")
    for i in range(63):
        led = c.add(Part("LED%d" % (i + 1), P.WS2812B, "WS2812B", group="led", index=i))
        cap = c.add(Part("C%d" % (i + 1), P.capacitor(0.1, 50), "100 nF", group="led", index=i))
        c.connect("+5V", led.ref + ".VDD", cap.ref + ".1")
        c.connect("GND", led.ref + ".VSS", cap.ref + ".2")
        c.connect("DIN_%d" % i, led.ref + ".DIN")
        if i < 62:
            c.connect("DIN_%d" % (i + 1), led.ref + ".DOUT")


def _oled(c, cfg):
    _gpio(c, cfg.I2C_SDA_PIN, "I2C_SDA")
    _gpio(c, cfg.I2C_SCL_PIN, "I2C_SCL")
    c.add(Part("DS1", P.OLED, "SSD1306"))
    c.add(Part("J6", P.xh(4), "OLED", awg=24, touched=True, cable_m=0.4))
    c.connect("I2C_SDA", "DS1.SDA", "J6.4")
    c.connect("I2C_SCL", "DS1.SCL", "J6.3")
    c.connect("3V3_OUT", "DS1.VCC", "J6.2")
    c.connect("GND", "DS1.GND", "J6.1")


def _inputs(c, cfg, legacy):
    kind = c.variant["input"]
    c.add(Part("J7", P.xh(5), "controls", awg=24, touched=True))
    c.connect("3V3_OUT", "J7.4")
    c.connect("GND", "J7.5")
    if kind == "buttons":
        for i, name in enumerate(("BTN_UP", "BTN_DOWN", "BTN_OK")):
            ref = "SW%d" % (64 + i)
            c.add(Part(ref, P.BUTTON, "6 x 6 mm", group="button"))
            _gpio(c, cfg.BUTTON_PINS[i], name)
            c.connect(name, ref + ".1", "J7.%d" % (i + 1))
            c.connect("GND", ref + ".2")
        return
    for i, name in enumerate(("ENC_A", "ENC_B", "ENC_PUSH")):
        _gpio(c, cfg.ENCODER_PINS[i], name)
        c.connect(name, "J7.%d" % (i + 1))
    if kind == "encoder":
        c.add(Part("ENC1", P.ENCODER, "24 detents"))
        c.connect("ENC_A", "ENC1.A")
        c.connect("ENC_B", "ENC1.B")
        c.connect("ENC_PUSH", "ENC1.S1")
        c.connect("GND", "ENC1.C", "ENC1.S2")
        for ref, net in (("C75", "ENC_A"), ("C76", "ENC_B")):
            c.add(Part(ref, P.capacitor(0.01, 50), "10 nF"))
            c.connect(net, ref + ".1")
            c.connect("GND", ref + ".2")
        return
    c.add(Part("ENC2", P.ENCODER_MODULE, "KY-040"))
    c.connect("ENC_A", "ENC2.CLK")
    c.connect("ENC_B", "ENC2.DT")
    c.connect("ENC_PUSH", "ENC2.SW")
    c.connect("GND", "ENC2.GND")
    c.connect(("+5V" if legacy else "3V3_OUT"), "ENC2.+")


def _buzzer(c, cfg):
    if cfg.BUZZER_PIN is None:
        return
    _gpio(c, cfg.BUZZER_PIN, "BUZZER")
    c.add(Part("R2", P.resistor(100), "100 ohm"))
    c.add(Part("BZ1", P.PIEZO, "piezo"))
    c.connect("BUZZER", "R2.1")
    c.connect("BZ", "R2.2", "BZ1.1")
    c.connect("GND", "BZ1.2")
