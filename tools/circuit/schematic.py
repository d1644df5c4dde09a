# A one-page schematic drawn from the netlist (hardware/schematic.svg). Every part is a box with
# its pins; every pin ends in a label with the name of its net, and pins with the same label are
# connected (the "global label" style of circuit editors). Parts repeated per square, per LED or
# per hall row are drawn once with the count: square (rank r, file f) sits on ROW_r and COL_f;
# LED n's DIN is DIN_n, its DOUT DIN_n+1; hall row r's follower feeds HROW_r from HBASE_r. Blocks
# that only some build options have are drawn from those options' netlists and marked with
# their tag. The Pico shows every pin any build option uses.
from wiring_svg import Svg

from circuit import design
from circuit.pico import PICO_HEADER

W, H = 2300, 1640
PIN_DY = 17
BOX_W = 150
GAP = 16

LABEL_CLASS = [("ROW_", "c-row"), ("HROW_", "c-row"), ("HBASE_", "c-row"), ("COL_", "c-col"),
               ("S_", "c-col"), ("LED_", "c-led"), ("DIN_", "c-led"), ("I2C_", "c-i2c"),
               ("BTN_", "c-in"), ("ENC_", "c-in"), ("RUN", "c-in"), ("BOOTSEL", "c-in"),
               ("BUZZER", "c-buz"), ("BZ", "c-buz"), ("GND", "c-gnd"), ("PGND", "c-gnd")]
POWER_NETS = ("VBUS", "VSYS", "3V3_OUT", "+5V", "USB_IN", "EXT_RAW", "EXT_IN", "EXT_5V",
              "EXT_SENSE", "POWER_SENSE")


def label_class(net):
    if net in POWER_NETS:
        return "c-pwr"
    for prefix, cls in LABEL_CLASS:
        if net.startswith(prefix):
            return cls
    return ""


def _sides(part):
    names = [n for n in part.type.pins if n in part.net]
    if len(names) == 2:
        return names[:1], names[1:]
    half = (len(names) + 1) // 2
    return names[:half], names[half:]


def _pin_label(part, pin):
    pads = part.type.pad_numbers(pin)
    if part.type.pads and pads != (pin,):
        return "%s %s" % (pin, ",".join(pads))
    return pin


def part_box(svg, x, y, part, title=None, note=None):
    """Draw part with its pins and net labels at (x, y); return the height used."""
    left, right = _sides(part)
    rows = max(len(left), len(right), 1)
    h = 22 + rows * PIN_DY
    svg.rect(x, y, BOX_W, h, "box", rx=3)
    svg.text(x + BOX_W / 2, y + 14, title or "%s %s" % (part.ref, part.value), "b", "middle")
    for side, names in ((0, left), (1, right)):
        for i, pin in enumerate(names):
            py = y + 30 + i * PIN_DY
            net = part.net[pin]
            if side == 0:
                svg.line(x - 14, py, x, py)
                svg.text(x + 4, py + 4, _pin_label(part, pin), "s")
                svg.text(x - 17, py + 4, net, "m " + label_class(net), "end")
            else:
                svg.line(x + BOX_W, py, x + BOX_W + 14, py)
                svg.text(x + BOX_W - 4, py + 4, _pin_label(part, pin), "s", "end")
                svg.text(x + BOX_W + 17, py + 4, net, "m " + label_class(net))
    if note:
        for i, line in enumerate(note):
            svg.text(x, y + h + 13 + 12 * i, line, "s")
        h += 12 * len(note) + 4
    return h + 14


class Column:
    """Boxes stacked top to bottom at x."""

    def __init__(self, svg, x, y):
        self.svg, self.x, self.y = svg, x, y

    def box(self, part, title=None, note=None):
        self.y += part_box(self.svg, self.x, self.y, part, title, note) + GAP - 14

    def head(self, text):
        self.svg.text(self.x - 70, self.y + 4, text, "b")
        self.y += 18


def pico_box(svg, x, y, circuits):
    used = {}
    for c in circuits:
        for fn, net in c.parts["U1"].net.items():
            if any(ref != "U1" for ref, pin in c.pins_on(net)) or fn == "GND":
                used.setdefault(fn, []).append(net)
    pins = sorted(p for p, fn in PICO_HEADER.items() if fn in used)
    left = [p for p in pins if p <= 20]
    right = sorted((p for p in pins if p > 20), reverse=True)
    rows = max(len(left), len(right))
    h = 30 + rows * PIN_DY
    svg.rect(x, y, 210, h, "pico", rx=6)
    svg.text(x + 105, y + 16, "U1 Raspberry Pi Pico (RP2040)", "b", "middle")
    for side, names in ((0, left), (1, right)):
        for i, p in enumerate(names):
            py = y + 34 + i * PIN_DY
            fn = PICO_HEADER[p]
            nets = sorted(set(used[fn]))
            net = " / ".join(nets)
            if side == 0:
                svg.line(x - 14, py, x, py)
                svg.text(x + 4, py + 4, "%d %s" % (p, fn), "s")
                svg.text(x - 17, py + 4, net, "m " + label_class(nets[0]), "end")
            else:
                svg.line(x + 210, py, x + 224, py)
                svg.text(x + 206, py + 4, "%s %d" % (fn, p), "s", "end")
                svg.text(x + 227, py + 4, net, "m " + label_class(nets[0]))
    svg.text(x, y + h + 16, "Not on the header: BOOTSEL is the test pad TP6 under", "s")
    svg.text(x, y + h + 28, "the Pico (a wire to TP1); USB D+/D- come in through", "s")
    svg.text(x, y + h + 40, "the pigtail X1 in the Pico's micro-USB socket.", "s")
    return h


def frame(svg, x, y, w, h, title):
    svg.rect(x, y, w, h, "frame", rx=6)
    svg.text(x + 10, y + 18, title, "h2")


def render(cfg):
    base = design.build(design.DEFAULT, cfg)
    ext = design.build(dict(design.DEFAULT, supply="external"), cfg)
    hall = design.build(dict(design.DEFAULT, sensor="hall"), cfg)
    enc = design.build(dict(design.DEFAULT, input="encoder"), cfg)
    mod = design.build(dict(design.DEFAULT, input="encoder_module"), cfg)
    svg = Svg(W, H, "Barragoon board: schematic (generated from tools/circuit/design.py)")
    svg.items.append('<style>.frame{fill:none;stroke:#bbb;stroke-width:1.2;'
                     'stroke-dasharray:6 4}</style>')
    svg.text(20, 30, "Barragoon board schematic: every build option on one page", "h")
    svg.text(20, 50, "Generated from tools/circuit/design.py by tools/hardware.py, pins from "
                     "firmware/config.py. Pins with the same label are connected. Square "
                     "(rank r, file f) = ROW_r, COL_f. Pad numbers follow the pin names.", "s")
    svg.text(20, 64, "Blocks marked [external], [hall], [encoder] or [encoder-module] belong to "
                     "those build options only (hardware/bom.csv tags). GND is the Pico's ground, "
                     "PGND the power ground: they meet only at NT1, the star point at C65.", "s")
    p, ep, hp = base.parts, ext.parts, hall.parts

    # U1 in the middle, drawn from every build option.
    pico_bottom = 96 + pico_box(svg, 790, 96, [base, ext, hall, enc, mod]) + 40

    # Sensor matrix, left.
    a, b = Column(svg, 110, 116), Column(svg, 450, 116)
    a.box(p["R3"], "R3-R9 22 kOhm x 7", ["one per column: COL_A..COL_G to 3V3_OUT"])
    a.box(p["SW1"], "SW1 reed (a1)")
    a.box(p["D1"], "D1 1N4148 (a1)", ["x 63: SWn + Dn per square, node S_<square>;",
                                      "reed: band (K) of every diode to the row line"])
    a.box(p["J3"], "J3 row harness", ["hall build: pins 1-9 carry HROW_1..9"])
    a.box(p["J4"], "J4 column harness")
    b.head("[hall] instead of SW1-SW63, D1-D63:")
    b.box(hp["H1"], "H1-H63 DRV5032FC (a1)")
    b.box(hp["D101"], "D101-D163 BAT85 (a1)", ["band to the sensor's OUT"])
    b.box(hp["C101"], "C101-C163 100 nF (a1)", ["at every sensor, VCC to GND"])
    b.box(hp["Q4"], "Q4-Q12 2N3904 (rank 1)", ["x 9: emitter follower per rank:",
                                               "HROW_r = the rank's sensors' VCC"])
    b.box(hp["R19"], "R19-R27 1 kOhm (rank 1)", ["base resistor, ROW_r to HBASE_r"])
    b.box(hp["R28"], "R28-R36 1 kOhm (rank 1)", ["pull-down: the rank off between scans"])
    b.box(hp["C66"], "C66 10 uF [hall]", ["at the followers' collectors"])
    bottom = max(a.y, b.y)
    frame(svg, 20, 80, 700, bottom - 70, "Sensor matrix (9 rows x 7 columns, one sensor + "
                                         "diode each)")

    # LEDs, right top.
    a, b, d = Column(svg, 1260, 116), Column(svg, 1590, 116), Column(svg, 1920, 116)
    a.box(p["U2"], "U2 SN74LVC1T45 (SOT-23-6)", ["A from 3V3, B from the LED rail"])
    a.box(p["C67"], "C67 100 nF at U2 pin 1")
    a.box(p["C64"], "C64 100 nF at U2 pin 6")
    b.box(p["R1"], "R1 330 ohm")
    b.box(p["J5"], "J5 LED chain (JST VH)")
    b.box(p["C65"], "C65 100 uF", ["the star point: PGND here"])
    d.box(p["LED1"], "LED1-LED63 WS2812B", ["x 63: LED n: DIN_n-1 in, DIN_n out;",
                                            "LED63's DOUT is free"])
    d.box(p["C1"], "C1-C63 100 nF", ["one at every LED"])
    led_bottom = max(a.y, b.y, d.y)
    frame(svg, 1160, 80, 1120, led_bottom - 70, "LEDs: level translator and chain (63 x WS2812B)")

    # Power, right.
    top = led_bottom + 20
    a, b, d = Column(svg, 1260, top + 40), Column(svg, 1590, top + 40), Column(svg, 1920, top + 40)
    a.box(p["J9"], "J9 USB-C socket (panel)")
    a.box(p["U4"], "U4 USBLC6-2SC6 (ESD)")
    a.box(p["F2"], "F2 PTC 0.7 A")
    a.box(p["X1"], "X1 pigtail into U1", ["micro-USB plug into the Pico"])
    a.box(ep["SW69"], "SW69 power switch", ["[external] wiring shown (on EXT);",
                                            "USB build: A_EXT and pole B free"])
    a.box(p["NT1"], "NT1 star point", ["GND meets PGND here only"])
    b.head("[external]")
    b.box(ep["J8"], "J8 DC jack")
    b.box(ep["PS1"], "PS1 5 V 4 A")
    b.box(ep["F1"], "F1 PTC 1.6 A")
    b.box(ep["D66"], "D66 P6KE27CA TVS", ["clamps hot-plug ringing"])
    b.box(ep["U3"], "U3 LTC4365 cut-off", ["passes 4.0-5.3 V; off above 5.44 V,",
                                           "below 3.9 V and when reversed"])
    b.box(ep["Q1"], "Q1 IRLZ44N")
    b.box(ep["Q2"], "Q2 IRLZ44N", ["sources joined: back to back"])
    d.head("[external]")
    d.box(ep["R14"], "R14 953 kOhm 0.1 %")
    d.box(ep["R15"], "R15 35.7 kOhm 0.1 %")
    d.box(ep["R16"], "R16 102 kOhm 0.1 %")
    d.box(ep["C77"], "C77 1000 uF")
    d.box(ep["D64"], "D64 1N5819")
    d.box(ep["R17"], "R17 22 kOhm", ["power sense: EXT_5V x 0.6"])
    d.box(ep["R18"], "R18 33 kOhm")
    d.box(ep["C68"], "C68 100 nF")
    frame(svg, 1160, top, 1120, max(a.y, b.y, d.y) - top + 10,
          "Power: the LED rail +5V has one source (SW69); external supply protected")

    # Buzzer, under the Pico.
    col = Column(svg, 820, pico_bottom + 60)
    col.head("Buzzer (optional, BUZZER_PIN)")
    col.box(p["R12"], "R12 1 kOhm")
    col.box(p["Q3"], "Q3 2N3904", ["switches BZ1 from 3V3"])
    col.box(p["R2"], "R2 100 ohm")
    col.box(p["BZ1"], "BZ1 piezo", ["or a 16-42 ohm magnetic buzzer"])
    col.box(p["R13"], "R13 1 kOhm", ["across BZ1"])
    col.box(p["D65"], "D65 1N4148", ["band to BZ_V: the kickback"])

    # OLED, controls: below the matrix and the buzzer.
    top = max(bottom, col.y) + 30
    a, b, d = Column(svg, 110, top + 40), Column(svg, 450, top + 40), Column(svg, 790, top + 40)
    a.box(p["DS1"], "DS1 SSD1306 OLED", ["module pull-ups (if any) go to its VCC"])
    a.box(p["J6"], "J6 OLED cable")
    a.box(p["R10"], "R10 2.2 kOhm", ["SDA pull-up at J6"])
    a.box(p["R11"], "R11 2.2 kOhm", ["SCL pull-up at J6"])
    a.box(p["U5"], "U5 USBLC6-2SC6 (ESD)")
    b.box(p["J7"], "J7 controls")
    b.box(p["SW64"], "SW64 up")
    b.box(p["SW65"], "SW65 down")
    b.box(p["SW66"], "SW66 ok")
    b.box(p["SW67"], "SW67 RESET (panel)")
    b.box(p["SW68"], "SW68 BOOTSEL (panel)")
    b.box(p["TP1"], "TP1 wire to TP6", ["the Pico's BOOTSEL test pad"])
    b.box(p["R37"], "R37 1 kOhm", ["at TP1: the lead is a stub", "on the flash's select"])
    d.box(p["U6"], "U6 USBLC6-2SC6 (ESD)")
    d.box(p["U7"], "U7 USBLC6-2SC6 (ESD)")
    d.box(p["U8"], "U8 USBLC6-2SC6 (ESD)")
    d.head("[encoder] instead of SW64-SW66")
    d.box(enc.parts["ENC1"], "ENC1 encoder", ["MP: the shaft's frame, to GND"])
    d.box(enc.parts["C75"], "C75 10 nF")
    d.box(enc.parts["C76"], "C76 10 nF")
    d.head("[encoder-module] instead")
    d.box(mod.parts["ENC2"], "ENC2 KY-040 module", ["+ to 3V3_OUT, never 5 V"])
    frame(svg, 20, top, 1020, max(a.y, b.y, d.y) - top + 10,
          "OLED and controls (ESD arrays at the connectors)")
    return svg.render()
