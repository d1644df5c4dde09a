# A one-page schematic drawn from the netlist (hardware/schematic.svg). Every part is a box with
# its pins; every pin ends in a label with the name of its net, and pins with the same label are
# connected (the "global label" style of circuit editors). Parts repeated per square or per LED
# are drawn once with the count: square (rank r, file f) sits on ROW_r and COL_f; LED n's DIN is
# DIN_n, its DOUT DIN_n+1. Blocks that only some build options have are drawn from those
# options' netlists and marked with their tag.
from wiring_svg import Svg

from circuit import design
from circuit import parts as P
from circuit.pico import PICO_HEADER

W, H = 1800, 1180
PIN_DY = 17
BOX_W = 150

LABEL_CLASS = [("ROW_", "c-row"), ("COL_", "c-col"), ("S_", "c-col"), ("LED_", "c-led"),
               ("DIN_", "c-led"), ("I2C_", "c-i2c"), ("BTN_", "c-in"), ("ENC_", "c-in"),
               ("BUZZER", "c-buz"), ("BZ", "c-buz"), ("GND", "c-gnd")]
POWER_NETS = ("VBUS", "VSYS", "3V3_OUT", "+5V", "EXT_IN", "EXT_5V")


def label_class(net):
    if net in POWER_NETS:
        return "c-pwr"
    for prefix, cls in LABEL_CLASS:
        if net.startswith(prefix):
            return cls
    return ""


def _sides(part):
    names = [n for n in part.type.pins if n in part.net]
    if part.type is P.AHCT125:
        order = P.AHCT125_PIN_NUMBERS
        names.sort(key=lambda n: order[n])
        return names[:7], names[7:]
    if len(names) == 2:
        return names[:1], names[1:]
    half = (len(names) + 1) // 2
    return names[:half], names[half:]


def _pin_label(part, pin):
    if part.type is P.AHCT125:
        return "%s %d" % (pin, P.AHCT125_PIN_NUMBERS[pin])
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


def pico_box(svg, x, y, c):
    used = {fn: net for fn, net in c.parts["U1"].net.items()
            if any(ref != "U1" for ref, pin in c.pins_on(net)) or fn == "GND"}
    pins = sorted((p for p, fn in PICO_HEADER.items() if fn in used))
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
            net = used[fn]
            if side == 0:
                svg.line(x - 14, py, x, py)
                svg.text(x + 4, py + 4, "%d %s" % (p, fn), "s")
                svg.text(x - 17, py + 4, net, "m " + label_class(net), "end")
            else:
                svg.line(x + 210, py, x + 224, py)
                svg.text(x + 206, py + 4, "%s %d" % (fn, p), "s", "end")
                svg.text(x + 227, py + 4, net, "m " + label_class(net))
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
                     "(rank r, file f) = ROW_r, COL_f.", "s")
    svg.text(20, 64, "Blocks marked [external], [hall], [encoder] or [encoder-module] belong to "
                     "those build options only (hardware/bom.csv tags).", "s")

    # U1 in the middle.
    pico_box(svg, 760, 90, base)

    # Sensor matrix, left.
    frame(svg, 20, 80, 600, 560, "Sensor matrix (9 rows x 7 columns, one sensor + diode each)")
    y = 110
    p = base.parts
    y += part_box(svg, 100, y, p["R3"], "R3-R9 22 kOhm x 7",
                  ["one per column: COL_A..COL_G to 3V3_OUT"])
    sw, d = p["SW1"], p["D1"]
    part_box(svg, 100, y, sw, "SW1 reed (a1)")
    part_box(svg, 370, y, d, "D1 1N4148 (a1)")
    y += 74
    svg.text(40, y, "x 63: SWn + Dn per square; square n on ROW_r, COL_f, node S_<square>.", "s")
    svg.text(40, y + 13, "Reed: band (K) of every diode to the row line.", "s")
    y += 32
    hp = hall.parts
    svg.text(40, y, "[hall] instead of SW1-SW63: DRV5032FC H1-H63 (+ C66 on 3V3)", "b")
    y += 14
    part_box(svg, 100, y, hp["D1"], "D1 1N4148 (a1)")
    part_box(svg, 430, y, hp["H1"], "H1 DRV5032FC (a1)")
    y += 92
    part_box(svg, 100, y, hp["C66"], "C66 100 nF [hall]")
    y += 58
    part_box(svg, 100, y, p["J3"], "J3 row harness")
    part_box(svg, 370, y, p["J4"], "J4 column harness")

    # LEDs, right top.
    frame(svg, 1060, 80, 720, 420, "LEDs: level shifter and chain (63 x WS2812B)")
    y = 110
    part_box(svg, 1150, y, p["U2"], "U2 74AHCT125 (DIP-14)")
    part_box(svg, 1500, y, p["R1"], "R1 330 ohm")
    part_box(svg, 1500, y + 60, p["C64"], "C64 100 nF at U2")
    part_box(svg, 1500, y + 120, p["C65"], "C65 100 uF")
    y += 190
    part_box(svg, 1150, y, p["LED1"], "LED1-LED63 WS2812B",
             ["x 63: LED n: DIN_n-1 in, DIN_n out;", "LED63's DOUT is free"])
    part_box(svg, 1500, y, p["C1"], "C1-C63 100 nF", ["one at every LED"])
    part_box(svg, 1500, y + 90, p["J5"], "J5 LED chain")

    # Power, right middle.
    frame(svg, 1060, 520, 720, 300, "Power: the LED rail +5V has one source (JP1)")
    y = 550
    part_box(svg, 1150, y, ext.parts["JP1"], "JP1 USB | EXT", ["jumper on USB: +5V = VBUS (shown);",
                                                     "on EXT: +5V = EXT_5V"])
    ep = ext.parts
    svg.text(1480, y - 6, "[external]", "b")
    part_box(svg, 1500, y, ep["J8"], "J8 DC jack")
    part_box(svg, 1500, y + 62, ep["F1"], "F1 PTC 2.5 A")
    part_box(svg, 1500, y + 124, ep["C77"], "C77 1000 uF")
    part_box(svg, 1500, y + 186, ep["D64"], "D64 1N5819")
    part_box(svg, 1150, y + 130, ep["PS1"], "PS1 5 V 4 A")

    # OLED, controls, buzzer, bottom.
    frame(svg, 20, 660, 1000, 500, "OLED, controls, buzzer")
    y = 700
    part_box(svg, 80, y, p["DS1"], "DS1 SSD1306 OLED", ["module pull-ups go to its VCC: 3V3"])
    part_box(svg, 80, y + 110, p["J6"], "J6 OLED cable")
    part_box(svg, 420, y, p["SW64"], "SW64 up")
    part_box(svg, 420, y + 54, p["SW65"], "SW65 down")
    part_box(svg, 420, y + 108, p["SW66"], "SW66 ok")
    part_box(svg, 420, y + 170, p["J7"], "J7 controls")
    ep = enc.parts
    svg.text(700, y - 6, "[encoder] instead of SW64-SW66", "b")
    part_box(svg, 740, y, ep["ENC1"], "ENC1 encoder")
    part_box(svg, 740, y + 92, ep["C75"], "C75 10 nF")
    part_box(svg, 740, y + 146, ep["C76"], "C76 10 nF")
    mp = mod.parts
    svg.text(700, y + 218, "[encoder-module] instead", "b")
    part_box(svg, 740, y + 224, mp["ENC2"], "ENC2 KY-040 module",
             ["+ to 3V3_OUT, never VBUS"])
    part_box(svg, 80, y + 290, p["R2"], "R2 100 ohm")
    part_box(svg, 80, y + 350, p["BZ1"], "BZ1 piezo", ["optional (BUZZER_PIN = None)"])
    return svg.render()
