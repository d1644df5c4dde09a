#!/usr/bin/env python3
"""Draw the wiring diagrams in hardware/ from a pin map.

    python tools/wiring_svg.py              write hardware/wiring-matrix.svg, wiring-leds.svg and
                                            wiring-peripherals.svg
    python tools/wiring_svg.py --check      write nothing; exit 1 and name every file that differs
                                            from what would be generated
    python tools/wiring_svg.py --led-table  print the LED-index-per-square table (Markdown) for
                                            the LED order set in firmware/config.py
    python tools/wiring_svg.py --pinmap my-pinmap.csv --out /tmp
                                            diagrams for another pin map

hardware/pinmap.csv is generated from the circuit description by tools/hardware.py, which also
calls this module; run that after changing pins. From firmware/config.py come the LED chain
order (LED_WIRING, LED_START, LED_RUNS), the LED current cap, and the matrix polarity
(DIODE_DIRECTION, SENSOR_ACTIVE_LEVEL). The output is deterministic: same inputs, same bytes.
Standard library only. A mistake in the arguments or files is reported in one line (exit 2).
"""
import argparse
import csv
import importlib.util
import io
import os
import sys
from xml.sax.saxutils import escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PINMAP = os.path.join(ROOT, "hardware", "pinmap.csv")
DEFAULT_CONFIG = os.path.join(ROOT, "firmware", "config.py")
DEFAULT_OUT = os.path.join(ROOT, "hardware")

FILES = "abcdefg"
N_FILES = 7
N_RANKS = 9
PINMAP_COLUMNS = ["signal", "gpio", "pico_pin", "direction", "config_key", "variant", "notes"]

# Raspberry Pi Pico header seen from above, USB at the top (shared with the circuit description).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from circuit.pico import PICO_HEADER  # noqa: E402

LED_WIRINGS = ("rows", "serpentine")
LED_STARTS = ("a1", "g1", "a9", "g9")
LED_RUNS_OPTIONS = ("ranks", "files")


# --- input data --------------------------------------------------------------------------------

class InputError(ValueError):
    """A pin map or config.py this tool cannot use; the message says why in one line."""


def load_pinmap(path):
    """Rows of a pin map file (see rows_from_csv)."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InputError("%s: cannot read the pin map (%s)" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise InputError("%s: not a text (CSV) file" % path)
    return rows_from_csv(text, path)


def rows_from_csv(text, path):
    """Rows with gpio/pico_pin as int (gpio None for power rows). Checks that every GPIO sits
    on the Pico pin the row claims."""
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames != PINMAP_COLUMNS:
        raise InputError("%s: columns must be %s" % (path, ",".join(PINMAP_COLUMNS)))
    rows = []
    for line, row in enumerate(reader, start=2):
        row = dict(row)
        try:
            row["pico_pin"] = int(row["pico_pin"])
            row["gpio"] = int(row["gpio"]) if row["gpio"] else None
        except (TypeError, ValueError):
            raise InputError("%s line %d: %s: gpio %r and pico_pin %r must be whole numbers"
                             % (path, line, row.get("signal"), row.get("gpio"),
                                row.get("pico_pin")))
        name = PICO_HEADER.get(row["pico_pin"])
        expected = row["signal"] if row["gpio"] is None else "GP%d" % row["gpio"]
        if name is None:
            raise InputError("%s line %d: %s: the Pico has no pin %d (1-40)"
                             % (path, line, row["signal"], row["pico_pin"]))
        if name != expected:
            raise InputError("%s line %d: %s says pin %d is %s, but it is %s"
                             % (path, line, row["signal"], row["pico_pin"], expected, name))
        rows.append(row)
    return rows


class Pins:
    """Look-ups into the pin map."""

    def __init__(self, rows):
        self.rows = rows
        self.by_key = {r["config_key"]: r for r in rows if r["config_key"]}
        self.by_signal = {r["signal"]: r for r in rows}

    def key(self, key):
        return self.by_key.get(key)

    def series(self, name):
        """Rows for NAME[0], NAME[1], ... in index order."""
        out = []
        while "%s[%d]" % (name, len(out)) in self.by_key:
            out.append(self.by_key["%s[%d]" % (name, len(out))])
        return out

    def at_pin(self, pico_pin):
        return [r for r in self.rows if r["pico_pin"] == pico_pin]


def net(row):
    """'GP9 (pin 12)' for a GPIO row, 'VBUS (pin 40)' for a power row."""
    if row is None:
        return "not connected"
    name = "GP%d" % row["gpio"] if row["gpio"] is not None else row["signal"]
    return "%s (pin %d)" % (name, row["pico_pin"])


def load_settings(config_path):
    """The config.py values the diagrams depend on (besides the pins)."""
    if not os.path.isfile(config_path):
        raise InputError("%s: no such config file" % config_path)
    spec = importlib.util.spec_from_file_location("barragoon_config_for_wiring_svg", config_path)
    config = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(config)
        cfg = {
            "wiring": config.LED_WIRING,
            "start": config.LED_START,
            "runs": config.LED_RUNS,
            "count": config.LED_COUNT,
            "budget_ma": config.LED_CURRENT_BUDGET_MA,
            "diode": config.DIODE_DIRECTION,
            "active": config.SENSOR_ACTIVE_LEVEL,
            "supply": getattr(config, "POWER_SUPPLY", "usb"),
        }
    except Exception as e:          # a maker's typo: one line, no traceback
        raise InputError("%s: cannot be read (%s: %s)" % (config_path, type(e).__name__, e))
    if (cfg["wiring"] not in LED_WIRINGS or cfg["start"] not in LED_STARTS
            or cfg["runs"] not in LED_RUNS_OPTIONS):
        raise InputError("config.py: unknown LED order %r" % (cfg,))
    if cfg["count"] != N_FILES * N_RANKS:
        raise InputError("config.py: LED_COUNT must be %d" % (N_FILES * N_RANKS))
    if cfg["diode"] not in ("row_cathode", "row_anode") or cfg["active"] not in (0, 1):
        raise InputError("config.py: unknown DIODE_DIRECTION or SENSOR_ACTIVE_LEVEL")
    return cfg


# --- LED chain order ---------------------------------------------------------------------------

def square(file, rank):
    """Square index: file 0..6 (a..g), rank 1..9; a1 = 0 .. g9 = 62."""
    return (rank - 1) * N_FILES + file


def square_name(index):
    return "%s%d" % (FILES[index % N_FILES], index // N_FILES + 1)


def led_chain(wiring, start, runs):
    """Square index of each LED along the data chain (LED 0 first).

    The chain begins at the corner LED_START and runs along a rank ("ranks") or a file ("files")
    first; the next line is the neighbouring one away from the start corner. With "rows" every
    line starts on the same side as the first; with "serpentine" the direction alternates."""
    file0 = 0 if start[0] == "a" else N_FILES - 1
    rank0 = 1 if start[1] == "1" else N_RANKS
    files = list(range(N_FILES)) if file0 == 0 else list(range(N_FILES - 1, -1, -1))
    ranks = list(range(1, N_RANKS + 1)) if rank0 == 1 else list(range(N_RANKS, 0, -1))
    outer, inner = (ranks, files) if runs == "ranks" else (files, ranks)
    chain = []
    for n, line in enumerate(outer):
        along = inner if (wiring == "rows" or n % 2 == 0) else inner[::-1]
        for pos in along:
            chain.append(square(pos, line) if runs == "ranks" else square(line, pos))
    return chain


def led_index_of_square(chain):
    index = [0] * len(chain)
    for led, sq in enumerate(chain):
        index[sq] = led
    return index


def led_table_markdown(led):
    """LED index per square as a Markdown table, rank 9 at the top (as seen from White's side)."""
    index = led_index_of_square(led_chain(led["wiring"], led["start"], led["runs"]))
    lines = ["| rank | " + " | ".join(FILES) + " |",
             "|---:|" + "---:|" * N_FILES]
    for rank in range(N_RANKS, 0, -1):
        cells = [str(index[square(f, rank)]) for f in range(N_FILES)]
        lines.append("| **%d** | " % rank + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# --- SVG writer --------------------------------------------------------------------------------

def fmt(v):
    if isinstance(v, int):
        return str(v)
    s = "%.1f" % v
    return s[:-2] if s.endswith(".0") else s


STYLE = """
.w{stroke:#222;stroke-width:1.6;fill:none}
.thin{stroke:#999;stroke-width:1;fill:none}
.row{stroke:#1f5fbf;stroke-width:2.2;fill:none}
.col{stroke:#c0392b;stroke-width:2.2;fill:none}
.v5{stroke:#d35400;stroke-width:2.4;fill:none}
.gnd{stroke:#222;stroke-width:2.4;fill:none}
.data{stroke:#1e8449;stroke-width:2.2;fill:none}
.chain{stroke:#1e8449;stroke-width:2;fill:none}
.chainthumb{stroke:#1e8449;stroke-width:1.3;fill:none}
.box{fill:#fff;stroke:#222;stroke-width:1.4}
.pico{fill:#e9f5ec;stroke:#1b5e20;stroke-width:1.6}
.glass{fill:#eaf2fb;stroke:#7f9cc0;stroke-width:1}
.sq0{fill:#f6f6f6;stroke:#ddd;stroke-width:1}
.sq1{fill:#ffffff;stroke:#ddd;stroke-width:1}
.sel{fill:none;stroke:#1e8449;stroke-width:2.5}
.dot{fill:#222}
.fill{fill:#222;stroke:#222;stroke-width:1}
.pad{fill:#c9a227;stroke:#7a6215;stroke-width:1}
text{font-family:Helvetica,Arial,sans-serif;font-size:12px;fill:#222}
.h{font-size:17px;font-weight:bold}
.h2{font-size:14px;font-weight:bold}
.b{font-weight:bold}
.s{font-size:10px;fill:#555}
.big{font-size:15px;font-weight:bold}
.m{font-family:Menlo,Consolas,monospace}
.c-row{fill:#1f5fbf}
.c-col{fill:#c0392b}
.c-led{fill:#1e8449}
.c-i2c{fill:#7d3c98}
.c-in{fill:#b9770e}
.c-buz{fill:#6e2c00}
.c-pwr{fill:#d35400}
.c-gnd{fill:#222}
.c-off{fill:#aaa}
"""


class Svg:
    def __init__(self, width, height, title):
        self.width, self.height, self.title = width, height, title
        self.items = []

    def _attrs(self, cls, extra=""):
        return (' class="%s"' % cls if cls else "") + extra

    def line(self, x1, y1, x2, y2, cls="w", marker=False):
        self.items.append('<line x1="%s" y1="%s" x2="%s" y2="%s"%s/>' % (
            fmt(x1), fmt(y1), fmt(x2), fmt(y2),
            self._attrs(cls, ' marker-end="url(#arrow)"' if marker else "")))

    def path(self, points, cls="w", marker=False, closed=False):
        d = "M" + " L".join("%s,%s" % (fmt(x), fmt(y)) for x, y in points) + (" Z" if closed else "")
        self.items.append('<path d="%s"%s/>' % (
            d, self._attrs(cls, ' marker-end="url(#arrow)"' if marker else "")))

    def rect(self, x, y, w, h, cls="box", rx=0):
        self.items.append('<rect x="%s" y="%s" width="%s" height="%s"%s%s/>' % (
            fmt(x), fmt(y), fmt(w), fmt(h), ' rx="%s"' % fmt(rx) if rx else "", self._attrs(cls)))

    def circle(self, x, y, r, cls="dot"):
        self.items.append('<circle cx="%s" cy="%s" r="%s"%s/>' % (
            fmt(x), fmt(y), fmt(r), self._attrs(cls)))

    def text(self, x, y, s, cls=None, anchor="start"):
        a = "" if anchor == "start" else ' text-anchor="%s"' % anchor
        self.items.append('<text x="%s" y="%s"%s%s>%s</text>' % (
            fmt(x), fmt(y), a, self._attrs(cls), escape(s)))

    def render(self):
        out = ['<?xml version="1.0" encoding="UTF-8"?>',
               '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
               'viewBox="0 0 %d %d">' % (self.width, self.height, self.width, self.height),
               "<title>%s</title>" % escape(self.title),
               "<style>%s</style>" % STYLE,
               '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
               'markerHeight="7" orient="auto"><path d="M0,1 L10,5 L0,9 Z" fill="#1e8449"/>'
               "</marker></defs>",
               '<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>' % (
                   self.width, self.height)]
        out.extend(self.items)
        out.append("</svg>")
        return "\n".join(out) + "\n"


# --- schematic symbols (axis-aligned) ----------------------------------------------------------

def _unit(x1, y1, x2, y2):
    length = abs(x2 - x1) + abs(y2 - y1)
    return (x2 - x1) / length, (y2 - y1) / length, length


def diode(svg, ax, ay, kx, ky, cls="w"):
    """Diode from anode (ax, ay) to cathode (kx, ky); the bar is on the cathode side."""
    ux, uy, length = _unit(ax, ay, kx, ky)
    nx, ny = -uy, ux
    mx, my = (ax + kx) / 2, (ay + ky) / 2
    bx, by = mx - 6 * ux, my - 6 * uy         # triangle base (anode side)
    tx, ty = mx + 6 * ux, my + 6 * uy         # tip and bar (cathode side)
    svg.line(ax, ay, bx, by, cls)
    svg.line(tx, ty, kx, ky, cls)
    svg.path([(bx + 7 * nx, by + 7 * ny), (bx - 7 * nx, by - 7 * ny), (tx, ty)], "fill", closed=True)
    svg.line(tx + 7 * nx, ty + 7 * ny, tx - 7 * nx, ty - 7 * ny, cls)


def resistor(svg, x1, y1, x2, y2, cls="w"):
    ux, uy, length = _unit(x1, y1, x2, y2)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    svg.line(x1, y1, mx - 13 * ux, my - 13 * uy, cls)
    svg.line(mx + 13 * ux, my + 13 * uy, x2, y2, cls)
    if ux:
        svg.rect(mx - 13, my - 5, 26, 10, "box")
    else:
        svg.rect(mx - 5, my - 13, 10, 26, "box")


def capacitor(svg, x1, y1, x2, y2, polarised=False, cls="w"):
    ux, uy, length = _unit(x1, y1, x2, y2)
    nx, ny = -uy, ux
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    p1 = (mx - 3 * ux, my - 3 * uy)
    p2 = (mx + 3 * ux, my + 3 * uy)
    svg.line(x1, y1, p1[0], p1[1], cls)
    svg.line(p2[0], p2[1], x2, y2, cls)
    for px, py in (p1, p2):
        svg.line(px + 10 * nx, py + 10 * ny, px - 10 * nx, py - 10 * ny, "w")
    if polarised:
        svg.text(p1[0] + 13 * abs(nx) - 16 * ux + 4, p1[1] - 6 * uy + 4, "+", "b")


def reed(svg, x1, y, x2):
    """Reed switch (horizontal): glass capsule with two overlapping blades."""
    svg.line(x1, y, x1 + 4, y)
    svg.line(x2 - 4, y, x2, y)
    svg.rect(x1 + 4, y - 6, x2 - x1 - 8, 12, "glass", rx=6)
    mid = (x1 + x2) / 2
    svg.line(x1 + 4, y, mid + 3, y - 3, "w")
    svg.line(x2 - 4, y, mid - 3, y + 2, "w")


def button(svg, x1, y, x2):
    """Normally open push button (horizontal)."""
    mid = (x1 + x2) / 2
    svg.line(x1, y, mid - 10, y)
    svg.line(mid + 10, y, x2, y)
    svg.circle(mid - 10, y, 2)
    svg.circle(mid + 10, y, 2)
    svg.line(mid - 12, y - 8, mid + 12, y - 8)
    svg.line(mid, y - 8, mid, y - 15)


def ground(svg, x, y):
    """Ground symbol hanging below (x, y)."""
    svg.line(x, y, x, y + 8, "gnd")
    for i, half in enumerate((9, 6, 3)):
        svg.line(x - half, y + 8 + 4 * i, x + half, y + 8 + 4 * i, "gnd")


def piezo(svg, x1, y, x2):
    mid = (x1 + x2) / 2
    svg.line(x1, y, mid - 5, y)
    svg.line(mid + 5, y, x2, y)
    svg.rect(mid - 4, y - 11, 8, 22, "box")
    svg.line(mid - 8, y - 14, mid - 8, y + 14)
    svg.line(mid + 8, y - 14, mid + 8, y + 14)


# --- diagram 1: sensor matrix ------------------------------------------------------------------

def matrix_svg(pins, cfg):
    rows = pins.series("MATRIX_ROW_PINS")
    cols = pins.series("MATRIX_COL_PINS")
    if len(rows) != N_RANKS or len(cols) != N_FILES:
        raise InputError("pin map needs MATRIX_ROW_PINS[0..8] and MATRIX_COL_PINS[0..6]")
    P = 86
    X0, Y0 = 230, 96
    RX = X0 + N_FILES * P + 44
    W, H = RX + 400, Y0 + N_RANKS * P + 110
    svg = Svg(W, H, "Barragoon board sensor matrix: 9 row lines x 7 column lines, "
                    "one sensor and one diode per square")
    svg.text(20, 32, "Sensor matrix: 9 row lines (ranks) x 7 column lines (files), "
                     "one sensor + one diode per square", "h")
    svg.text(20, 54, "Seen from above, White's side at the bottom. Square index = (rank - 1) * 7 "
                     "+ file (a1 = 0 ... g9 = 62). Pins from hardware/pinmap.csv.", "s")
    cathode_row = cfg["diode"] == "row_cathode"
    on, off = ("low", "high") if cathode_row else ("high", "low")
    pull = "pull-up" if cfg["active"] == 0 else "pull-down"
    svg.text(20, 70, "Reed build shown (DIODE_DIRECTION = \"%s\"): diode band toward the %s; the "
                     "scanned row is driven %s and a closed switch makes its column read %d."
             % (cfg["diode"], "row" if cathode_row else "column", on, cfg["active"]), "s")

    def sensor_diode(x, y_sensor, y_row):
        if cathode_row:
            diode(svg, x, y_sensor, x, y_row)
        else:
            diode(svg, x, y_row, x, y_sensor)

    def row_y(rank):
        return Y0 + (N_RANKS - rank) * P + P - 14

    def col_x(f):
        return X0 + f * P + 16

    for rank in range(N_RANKS, 0, -1):
        for f in range(N_FILES):
            svg.rect(X0 + f * P, Y0 + (N_RANKS - rank) * P, P, P, "sq%d" % ((f + rank) % 2))
    for f in range(N_FILES):
        x = col_x(f)
        svg.line(x, Y0 + 6, x, Y0 + N_RANKS * P + 6, "col")
        svg.text(x, Y0 + N_RANKS * P + 24, "file " + FILES[f], "b c-col", "middle")
        svg.text(x, Y0 + N_RANKS * P + 40, "GP%d" % cols[f]["gpio"], "m", "middle")
        svg.text(x, Y0 + N_RANKS * P + 54, "pin %d" % cols[f]["pico_pin"], "s", "middle")
    for rank in range(1, N_RANKS + 1):
        y = row_y(rank)
        svg.line(X0 - 8, y, X0 + N_FILES * P - 4, y, "row")
        r = rows[rank - 1]
        svg.text(X0 - 14, y + 4, "rank %d  GP%d  pin %d" % (rank, r["gpio"], r["pico_pin"]),
                 "c-row", "end")
    for rank in range(1, N_RANKS + 1):
        ry = row_y(rank)
        jy = ry - 50
        for f in range(N_FILES):
            cx = col_x(f)
            dx = cx + 58
            svg.line(cx, jy, cx + 12, jy)
            reed(svg, cx + 12, jy, cx + 46)
            svg.line(cx + 46, jy, dx, jy)
            sensor_diode(dx, jy, ry)
            svg.circle(cx, jy, 3)
            svg.circle(dx, ry, 3)
            sq = square(f, rank)
            svg.text(cx + 6, jy - 14, square_name(sq), "b")
            svg.text(cx + 66, jy - 14, "#%d" % sq, "s", "end")

    # Right-hand panel: one square in detail, reed and hall.
    y = Y0 + 10
    svg.text(RX, y, "One square, reed (SENSOR_TYPE = \"reed\")", "h2")
    cx, top, ry = RX + 30, y + 24, y + 150
    svg.line(cx, top, cx, ry + 20, "col")
    svg.line(cx - 10, ry, RX + 330, ry, "row")
    svg.line(cx, top + 40, cx + 30, top + 40)
    reed(svg, cx + 30, top + 40, cx + 100)
    svg.line(cx + 100, top + 40, cx + 140, top + 40)
    sensor_diode(cx + 140, top + 40, ry)
    svg.circle(cx, top + 40, 3)
    svg.circle(cx + 140, ry, 3)
    svg.text(cx + 65, top + 22, "reed switch SW", "s", "middle")
    svg.text(cx + 152, top + 80, "1N4148 D", "s")
    svg.text(cx + 152, top + 94, "band (cathode) to the %s" % ("row" if cathode_row else "switch"),
             "s")
    svg.text(cx + 8, top + 8, "column: input, %s + 22 kOhm to %s" % (
        pull, "3V3" if cfg["active"] == 0 else "GND"), "s c-col")
    svg.text(cx + 8, ry - 8, "row: %s while scanned, else released" % on, "s c-row")
    svg.text(RX, ry + 40, "Scanned row %s + switch closed -> column reads %d" % (on, cfg["active"]),
             "s")
    svg.text(RX, ry + 54, "(SENSOR_ACTIVE_LEVEL = %d). The other rows are inputs" % (
        cfg["active"]), "s")
    svg.text(RX, ry + 68, "(high-impedance): a shorted diode cannot join two driven pins.", "s")

    y = ry + 110
    svg.text(RX, y, "One square, hall (SENSOR_TYPE = \"hall\")", "h2")
    svg.text(RX, y + 16, "DIODE_DIRECTION = \"row_anode\": the row pin switches the rank's", "s")
    svg.text(RX, y + 29, "sensors on through an emitter follower (one per rank)", "s")
    cx = RX + 30
    vx = cx + 280
    # The follower: collector 3V3, base 1 kOhm from the row pin, emitter = HROW, 1 kOhm down.
    qx, qy = vx, y + 80
    svg.circle(qx, qy, 14, "box")
    svg.line(qx - 7, qy - 8, qx - 7, qy + 8, "w")
    svg.line(qx - 7, qy - 3, qx, qy - 14, "w")
    svg.line(qx - 7, qy + 3, qx, qy + 14, "w")
    svg.line(qx, qy - 14, qx, qy - 24, "w")
    svg.text(qx + 6, qy - 26, "3V3 (collector)", "s")
    resistor(svg, qx - 110, qy, qx - 7, qy, "row")
    svg.text(qx - 58, qy - 10, "1 kOhm", "s", "middle")
    svg.text(qx - 114, qy + 4, "row pin", "s c-row", "end")
    svg.text(qx + 18, qy + 4, "2N3904", "s")
    svg.text(qx - 8, qy + 40, "HROW: the rank's VCC,", "s c-row", "end")
    svg.text(qx - 8, qy + 53, "1 kOhm to GND", "s c-row", "end")
    bx, by = cx + 130, qy + 80
    svg.line(cx, by - 30, cx, by + 100, "col")
    svg.rect(bx, by, 90, 80, "box")
    svg.text(bx + 45, by - 6, "DRV5032FC", "b", "middle")
    svg.text(bx + 8, by + 20, "OUT", "s")
    svg.text(bx + 82, by + 20, "VCC", "s", "end")
    svg.text(bx + 82, by + 70, "GND", "s", "end")
    svg.text(bx + 45, by + 45, "open-drain", "s", "middle")
    # OUT <- diode (cathode at OUT) <- column
    svg.circle(cx, by + 16, 3)
    diode(svg, cx, by + 16, bx, by + 16)
    svg.text(cx + 65, by + 4, "BAT85 (Schottky)", "s", "middle")
    # VCC from the follower's emitter (HROW), GND to GND, 100 nF across at the sensor.
    svg.line(qx, qy + 14, vx, by + 30, "row")
    svg.line(bx + 90, by + 16, vx, by + 16, "row")
    svg.circle(vx, by + 16, 3)
    svg.line(bx + 90, by + 66, bx + 106, by + 66)
    ground(svg, bx + 106, by + 66)
    capacitor(svg, vx, by + 30, vx, by + 80)
    ground(svg, vx, by + 80)
    svg.text(vx + 14, by + 60, "100 nF", "s")
    svg.text(cx + 8, by + 114, "column: input, pull-up + 22 kOhm to 3V3", "s c-col")
    ry = by + 146
    svg.text(RX, ry, "The scanned row pin is driven high: its follower powers the", "s")
    svg.text(RX, ry + 14, "rank's 7 sensors (about 2.1 V or more; the GPIO gives only", "s")
    svg.text(RX, ry + 28, "the base current); the other rows are low, their sensors off.", "s")
    svg.text(RX, ry + 42, "Magnet present -> OUT pulls low through the diode, column", "s")
    svg.text(RX, ry + 56, "reads 0 (about 0.5 V at worst). The diode keeps unpowered", "s")
    svg.text(RX, ry + 70, "sensors off the column. A3144-type sensors need 4.5 V: no.", "s")
    return svg.render()


# --- diagram 2: LED chain ----------------------------------------------------------------------

def thumbnail(svg, x, y, chain, pitch, selected, label1, label2):
    for f in range(N_FILES):
        for rank in range(1, N_RANKS + 1):
            svg.rect(x + f * pitch, y + (N_RANKS - rank) * pitch, pitch, pitch,
                     "sq%d" % ((f + rank) % 2))

    def centre(sq):
        f, rank = sq % N_FILES, sq // N_FILES + 1
        return x + f * pitch + pitch / 2, y + (N_RANKS - rank) * pitch + pitch / 2

    svg.path([centre(sq) for sq in chain], "chainthumb")
    sx, sy = centre(chain[0])
    svg.circle(sx, sy, 3, "fill")
    if selected:
        svg.rect(x - 5, y - 5, N_FILES * pitch + 10, N_RANKS * pitch + 10, "sel", rx=4)
    svg.text(x + N_FILES * pitch / 2, y + N_RANKS * pitch + 16, label1, "s", "middle")
    svg.text(x + N_FILES * pitch / 2, y + N_RANKS * pitch + 28, label2, "s", "middle")


def leds_svg(pins, led):
    data = pins.key("LED_PIN")
    vbus = pins.by_signal.get("VBUS")
    gnd = pins.by_signal.get("GND")
    if data is None:
        raise InputError("pin map has no LED_PIN row")
    W, H = 1200, 1000
    chain = led_chain(led["wiring"], led["start"], led["runs"])
    svg = Svg(W, H, "Barragoon board LED chain: 63 WS2812B, data level shifting and order")
    svg.text(20, 32, "LEDs: %d x WS2812B, one per square, on the +5 V rail, data shifted to 5 V"
             % led["count"], "h")
    svg.text(20, 54, "Full white would draw about %d x 60 mA = %.2f A. The firmware scales every "
                     "frame so that its current estimate stays within LED_CURRENT_BUDGET_MA = %d mA "
                     "(numbers in hardware/leds.md)." % (
                         led["count"], led["count"] * 60 / 1000.0, led["budget_ma"]), "s")

    # Driver schematic.
    v33 = pins.by_signal.get("3V3_OUT")
    rail5, railg = 140, 480
    px, py = 30, 170
    svg.rect(px, py, 150, 250, "pico", rx=6)
    svg.text(px + 75, py + 22, "Raspberry Pi Pico", "b", "middle")
    y_data, y_33, y_vbus, y_gnd = py + 60, py + 110, py + 160, py + 210
    for y, row in ((y_data, data), (y_33, v33), (y_vbus, vbus), (y_gnd, gnd)):
        svg.text(px + 142, y + 4, net(row), "m", "end")
    ux, uy = 250, py
    svg.rect(ux, uy, 140, 150, "box")
    svg.text(ux + 70, uy + 18, "U2 SN74LVC1T45", "b", "middle")
    svg.text(ux + 70, uy + 32, "A side 3V3, B side +5 V rail", "s", "middle")
    # data: GP -> A (3); B (4) -> R1 -> DIN
    svg.line(px + 150, y_data, ux, y_data, "data")
    svg.text(ux + 6, y_data + 4, "A (3)", "s")
    svg.text(ux + 134, y_data + 4, "B (4)", "s", "end")
    resistor(svg, ux + 140, y_data, ux + 230, y_data, "data")
    svg.text(ux + 185, y_data - 12, "R1 330 ohm", "s", "middle")
    svg.line(ux + 230, y_data, 560, y_data, "data", marker=True)
    svg.text(ux + 240, y_data - 12, "to DIN of LED 0 (J5 pin 2)", "s c-led")
    # VCCA (1) and DIR (5) to 3V3, GND (2) to the Pico's ground, VCCB (6) to the LED rail
    svg.text(ux + 6, y_33 + 4, "VCCA (1), DIR (5)", "s")
    svg.line(px + 150, y_33, ux, y_33, "w")
    svg.text(ux + 6, uy + 142, "GND (2)", "s")
    svg.line(ux + 60, uy + 150, ux + 60, railg - 40, "gnd")
    svg.line(px + 150, y_gnd, ux + 60, y_gnd, "gnd")
    svg.line(ux + 110, uy, ux + 110, rail5, "v5")
    svg.circle(ux + 110, rail5, 3)
    svg.text(ux + 114, uy - 6, "VCCB (6)", "s")
    svg.text(ux + 150, uy + 130, "C67 100 nF VCCA-GND,", "s")
    svg.text(ux + 150, uy + 142, "C64 100 nF VCCB-GND", "s")
    # The LED rail: SW69 pole A selects USB (VBUS, through F2 from the USB socket) or EXT.
    sx, sy = 120, rail5 - 70
    svg.line(px + 150, y_vbus, px + 175, y_vbus, "v5")
    svg.line(px + 175, y_vbus, px + 175, sy + 20, "v5")
    svg.line(px + 175, sy + 20, sx + 120, sy + 20, "v5")
    svg.circle(sx + 120, sy + 20, 3)
    svg.circle(sx + 120, sy + 40, 3)
    svg.line(sx + 120, sy + 40, sx + 100, sy + 40, "v5")
    svg.text(sx + 96, sy + 44, "EXT_5V", "s c-pwr", "end")
    svg.circle(sx + 160, sy + 30, 3)
    svg.line(sx + 160, sy + 30, sx + 123, sy + 21, "w")
    svg.text(sx + 126, sy + 12, "USB", "s")
    svg.text(sx + 126, sy + 56, "EXT", "s")
    svg.text(sx + 170, sy + 14, "SW69 pole A (power switch, panel)", "s")
    svg.line(sx + 160, sy + 30, sx + 200, sy + 30, "v5")
    svg.line(sx + 200, sy + 30, sx + 200, rail5, "v5")
    svg.line(sx + 200, rail5, 560, rail5, "v5")
    svg.text(sx + 250, rail5 - 8, "+5 V rail", "b c-pwr")
    svg.line(ux + 200, railg, 560, railg, "gnd")
    svg.text(ux + 205, railg + 18, "PGND (power ground)", "b")
    # C65 bulk at the chain start: the star point where GND meets PGND (NT1).
    capacitor(svg, 520, rail5, 520, railg, polarised=True)
    svg.circle(520, rail5, 3)
    svg.circle(520, railg, 3)
    svg.text(528, railg - 100, "C65", "s")
    svg.text(528, railg - 87, "100 uF", "s")
    svg.line(ux + 60, railg - 40, 470, railg - 40, "gnd")
    svg.line(470, railg - 40, 470, railg, "gnd")
    svg.circle(470, railg, 4, "fill")
    svg.text(466, railg - 46, "NT1: GND joins PGND", "s", "end")
    svg.text(566, rail5 + 4, "J5 pin 1: to VDD", "s c-pwr")
    svg.text(566, railg + 4, "J5 pin 3: to GND", "s")
    notes = ["Every LED: VDD to +5 V, GND to PGND, 100 nF across them (C1-C63, often",
             "already on the LED board), DOUT to DIN of the next LED.",
             "Feed +5 V and PGND into the chain at its start through J5 (JST VH) in 0.75 mm2,",
             "then a 0.5 mm2 bus along each rank. The LED current returns to the supply at",
             "C65; only the Pico's own current uses its GND (power.md, \"Grounds\").",
             "External supply: SW69 on EXT (power.md and schematic.svg)."]
    for i, line in enumerate(notes):
        svg.text(30, railg + 40 + i * 15, line, "s")

    # Board with the LED index of each square.
    P = 52
    BX, BY = 760, 124
    svg.text(BX - 40, 84, "LED index per square (firmware/config.py)", "h2")
    svg.text(BX - 40, 102, "LED_WIRING = \"%s\", LED_START = \"%s\", LED_RUNS = \"%s\""
             % (led["wiring"], led["start"], led["runs"]), "m")
    index = led_index_of_square(chain)
    for rank in range(N_RANKS, 0, -1):
        for f in range(N_FILES):
            x, y = BX + f * P, BY + (N_RANKS - rank) * P
            sq = square(f, rank)
            svg.rect(x, y, P, P, "sq%d" % ((f + rank) % 2))
            svg.text(x + 3, y + 11, square_name(sq), "s")
        svg.text(BX - 10, BY + (N_RANKS - rank) * P + P / 2 + 5, str(rank), "b", "end")
    for f in range(N_FILES):
        svg.text(BX + f * P + P / 2, BY + N_RANKS * P + 18, FILES[f], "b", "middle")
    svg.text(BX + N_FILES * P / 2, BY + N_RANKS * P + 36, "White's side", "s", "middle")

    def centre(sq):
        f, rank = sq % N_FILES, sq // N_FILES + 1
        return BX + f * P + P / 2, BY + (N_RANKS - rank) * P + P / 2

    for a, b in zip(chain, chain[1:]):
        (x1, y1), (x2, y2) = centre(a), centre(b)
        # shorten so the arrow ends before the next number
        ux, uy, _ = _unit(x1, y1, x2, y2)
        svg.line(x1 + 15 * ux, y1 + 15 * uy, x2 - 15 * ux, y2 - 15 * uy, "chain", marker=True)
    for sq in range(N_FILES * N_RANKS):
        x, y = centre(sq)
        svg.text(x, y + 9, str(index[sq]), "big c-led" if index[sq] == 0 else "big", "middle")
    sx, sy = centre(chain[0])
    edge_left = chain[0] % N_FILES == 0
    ex = BX - 52 if edge_left else BX + N_FILES * P + 52
    svg.line(ex, sy + 17, sx + (-12 if edge_left else 12), sy + 17, "data", marker=True)
    svg.text(ex, sy + 11, "data in", "s c-led", "middle")

    # All orders the firmware supports.
    ty = 700
    svg.text(20, ty - 40, "All 16 LED orders config.py supports", "h2")
    svg.text(20, ty - 22, "Dot = LED 0, frame = the configured order. Wire the chain the way that "
                          "is shortest on your board, then set LED_WIRING, LED_START and LED_RUNS "
                          "to match.", "s")
    n = 0
    for wiring in LED_WIRINGS:
        for runs in LED_RUNS_OPTIONS:
            for start in LED_STARTS:
                x = 40 + (n % 8) * 140
                y = ty + (n // 8) * 150
                sel = (wiring, start, runs) == (led["wiring"], led["start"], led["runs"])
                thumbnail(svg, x, y, led_chain(wiring, start, runs), 11, sel,
                          wiring, "%s, %s" % (start, runs))
                n += 1
    return svg.render()


# --- diagram 3: Pico pinout and peripherals ----------------------------------------------------

def signal_class(row):
    key, sig = row["config_key"], row["signal"]
    if key.startswith("MATRIX_ROW"):
        return "c-row"
    if key.startswith("MATRIX_COL"):
        return "c-col"
    if key == "LED_PIN":
        return "c-led"
    if key.startswith("I2C"):
        return "c-i2c"
    if key.startswith(("BUTTON", "ENCODER")):
        return "c-in"
    if key.startswith("BUZZER"):
        return "c-buz"
    if sig == "RUN":
        return "c-in"
    if sig == "GND":
        return "c-gnd"
    return "c-pwr"


def net_label(svg, x, y, row, anchor="end"):
    svg.text(x, y + 4, net(row), "m", anchor)


def peripherals_svg(pins):
    W, H = 1300, 720
    svg = Svg(W, H, "Barragoon board: Raspberry Pi Pico pinout and peripheral wiring")
    svg.text(20, 32, "Raspberry Pi Pico pin map (top view, USB up) and peripherals", "h")
    svg.text(20, 54, "Labels from hardware/pinmap.csv. GPIOs are 3.3 V only: never connect 5 V "
                     "to a GPIO. Buttons and encoder share GP18-GP20 (INPUT_TYPE).", "s")

    # Pinout.
    BX, BY, BW = 330, 100, 150
    pitch = 22
    svg.rect(BX, BY - 10, BW, 20 * pitch + 10, "pico", rx=8)
    svg.rect(BX + BW / 2 - 20, BY - 22, 40, 16, "box", rx=3)
    svg.text(BX + BW / 2, BY - 10, "USB", "s", "middle")
    svg.text(BX + BW / 2, BY + 20 * pitch + 22, "Raspberry Pi Pico, top view", "b", "middle")
    for pin in range(1, 41):
        left = pin <= 20
        y = BY + ((pin - 1) if left else (40 - pin)) * pitch + 8
        x = BX if left else BX + BW
        svg.rect(x - 5, y - 5, 10, 10, "pad")
        func = PICO_HEADER[pin]
        used = pins.at_pin(pin)
        fcls = "s" if used or func in ("GND", "VBUS", "VSYS", "3V3_OUT", "RUN") else "s c-off"
        if left:
            svg.text(x + 10, y + 4, "%d" % pin, "s")
            svg.text(x + 30, y + 4, func, fcls)
        else:
            svg.text(x - 10, y + 4, "%d" % pin, "s", "end")
            svg.text(x - 30, y + 4, func, fcls, "end")
        if used:
            label = " / ".join(r["signal"] for r in used)
            cls = signal_class(used[0])
            if left:
                svg.line(x - 5, y, x - 14, y, "thin")
                svg.text(x - 18, y + 4, label, cls, "end")
            else:
                svg.line(x + 5, y, x + 14, y, "thin")
                svg.text(x + 18, y + 4, label, cls)
    legend = [("c-row", "matrix rows (ranks)"), ("c-col", "matrix columns (files)"),
              ("c-led", "LED data"), ("c-i2c", "I2C OLED"), ("c-in", "buttons / encoder / RESET"),
              ("c-buz", "buzzer"), ("c-pwr", "power")]
    for i, (cls, text) in enumerate(legend):
        svg.text(20, 110 + i * 18, text, cls)

    # Peripherals.
    RX = 820
    sda, scl = pins.key("I2C_SDA_PIN"), pins.key("I2C_SCL_PIN")
    v33, gnd = pins.by_signal.get("3V3_OUT"), pins.by_signal.get("GND")
    y = 92
    svg.text(RX - 120, y - 10, "DS1 OLED SSD1306 128x64, I2C address 0x3C", "h2")
    svg.rect(RX + 40, y, 150, 100, "box")
    svg.rect(RX + 62, y + 16, 110, 60, "glass")
    for i, (name, row) in enumerate((("GND", gnd), ("VCC", v33), ("SCL", scl), ("SDA", sda))):
        yy = y + 14 + i * 24
        svg.line(RX + 10, yy, RX + 40, yy, "w")
        svg.text(RX + 44, yy + 4, name, "s")
        net_label(svg, RX + 4, yy, row)
    svg.text(RX + 200, y + 40, "pin order differs", "s")
    svg.text(RX + 200, y + 54, "between modules:", "s")
    svg.text(RX + 200, y + 68, "go by the labels", "s")
    svg.text(RX - 120, y + 118, "At J6: R10, R11 2.2 kOhm from SDA and SCL to 3V3 (400 kHz needs "
                                "them), ESD array U5.", "s")

    y = 240
    svg.text(RX - 120, y - 10, "SW64-SW66 buttons (INPUT_TYPE = \"buttons\"), to GND", "h2")
    for i, (name, key) in enumerate((("up", "BUTTON_PINS[0]"), ("down", "BUTTON_PINS[1]"),
                                     ("ok", "BUTTON_PINS[2]"))):
        yy = y + 16 + i * 34
        net_label(svg, RX + 4, yy, pins.key(key))
        svg.line(RX + 10, yy, RX + 40, yy)
        button(svg, RX + 40, yy, RX + 110)
        svg.line(RX + 110, yy, RX + 140, yy)
        ground(svg, RX + 140, yy)
        svg.text(RX + 160, yy + 4, name, "b")
    run = pins.by_signal.get("RUN")
    svg.text(RX + 210, y + 16, "Panel: RESET (SW67)", "s")
    svg.text(RX + 210, y + 30, "%s to GND;" % net(run), "s")
    svg.text(RX + 210, y + 44, "BOOTSEL (SW68): the", "s")
    svg.text(RX + 210, y + 58, "Pico's test pad TP6", "s")
    svg.text(RX + 210, y + 72, "to GND. J7 pins 6, 7;", "s")
    svg.text(RX + 210, y + 86, "ESD arrays U6-U8.", "s")

    y = 370
    svg.text(RX - 120, y - 10, "ENC1 rotary encoder instead (INPUT_TYPE = \"encoder\")", "h2")
    svg.rect(RX + 40, y, 110, 130, "box")
    svg.text(RX + 95, y + 122, "ENC1", "b", "middle")
    for i, (name, key) in enumerate((("A", "ENCODER_PINS[0]"), ("C", None),
                                     ("B", "ENCODER_PINS[1]"))):
        yy = y + 18 + i * 26
        svg.line(RX + 10, yy, RX + 40, yy)
        svg.text(RX + 44, yy + 4, name, "s")
        if key:
            net_label(svg, RX + 4, yy, pins.key(key))
        else:
            ground(svg, RX + 10, yy)
    for i, (name, key) in enumerate((("SW", "ENCODER_PINS[2]"), ("SW", None))):
        yy = y + 18 + i * 26
        svg.line(RX + 150, yy, RX + 180, yy)
        svg.text(RX + 146, yy + 4, name, "s", "end")
        if key:
            net_label(svg, RX + 184, yy, pins.key(key), "start")
        else:
            ground(svg, RX + 180, yy)
    svg.text(RX + 160, y + 90, "push switch between", "s")
    svg.text(RX + 160, y + 104, "SW pins; C is common", "s")
    svg.text(RX - 120, y + 148, "Encoder module (KY-040): CLK, DT, SW as A, B, SW; + to 3V3 (pin 36),",
             "s")
    svg.text(RX - 120, y + 161, "never VBUS: its pull-ups would put 5 V on the GPIOs.", "s")

    buzzer = pins.key("BUZZER_PIN")
    y = 640
    if buzzer is not None:
        svg.text(RX - 120, y - 60, "BZ1 buzzer (optional), driven by PWM through Q3", "h2")
        net_label(svg, RX + 4, y, buzzer)
        svg.line(RX + 10, y, RX + 20, y)
        resistor(svg, RX + 20, y, RX + 90, y)
        svg.text(RX + 55, y - 10, "R12 1 kOhm", "s", "middle")
        qx = RX + 110
        svg.circle(qx, y, 14, "box")
        svg.line(RX + 90, y, qx - 7, y)
        svg.line(qx - 7, y - 8, qx - 7, y + 8)
        svg.line(qx - 7, y - 3, qx, y - 14)
        svg.line(qx - 7, y + 3, qx, y + 14)
        svg.line(qx, y + 14, qx, y + 22)
        ground(svg, qx, y + 22)
        svg.text(qx - 20, y + 30, "Q3", "s", "end")
        svg.line(qx, y - 14, qx, y - 24)
        svg.line(qx, y - 24, qx + 40, y - 24)
        piezo(svg, qx + 40, y - 24, qx + 100)
        svg.line(qx + 100, y - 24, qx + 115, y - 24)
        resistor(svg, qx + 115, y - 24, qx + 175, y - 24)
        svg.text(qx + 145, y - 34, "R2 100 ohm", "s", "middle")
        svg.text(qx + 179, y - 20, "3V3", "s")
        svg.text(qx + 70, y - 44, "BZ1", "s", "middle")
        svg.text(qx + 30, y + 4, "R13 1 kOhm and D65 (band to the 3V3 side)", "s")
        svg.text(qx + 30, y + 18, "across BZ1: a piezo or a 16-42 ohm magnetic buzzer", "s")
    vbus = pins.by_signal.get("VBUS")
    svg.text(RX - 120, 684, "Power: USB socket J9 -> F2 -> %s and, through SW69 (USB), +5 V for "
             "the LEDs; %s -> OLED, U2's A side;" % (net(vbus), net(v33)), "s")
    svg.text(RX - 120, 698, "ground: %s or any other GND pin (not 33: AGND); the LED current "
             "returns to PGND." % net(gnd), "s")
    return svg.render()


# --- main --------------------------------------------------------------------------------------

OUTPUTS = ("wiring-matrix.svg", "wiring-leds.svg", "wiring-peripherals.svg")


def render_pins(pins, cfg):
    """{file name: SVG text} for a Pins look-up and load_settings() values."""
    return {
        "wiring-matrix.svg": matrix_svg(pins, cfg),
        "wiring-leds.svg": leds_svg(pins, cfg),
        "wiring-peripherals.svg": peripherals_svg(pins),
    }


def render_all(pinmap_path=DEFAULT_PINMAP, config_path=DEFAULT_CONFIG):
    return render_pins(Pins(load_pinmap(pinmap_path)), load_settings(config_path))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if a file differs from the generated one")
    ap.add_argument("--led-table", action="store_true",
                    help="print the LED index table (Markdown) and exit")
    ap.add_argument("--pinmap", default=DEFAULT_PINMAP, help="pin map CSV (hardware/pinmap.csv)")
    ap.add_argument("--config", default=DEFAULT_CONFIG, help="firmware config (config.py)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="directory of the SVG files")
    args = ap.parse_args(argv)
    try:
        if args.led_table:
            sys.stdout.write(led_table_markdown(load_settings(args.config)))
            return 0
        if not os.path.isdir(args.out):
            raise InputError("--out: %s is not a directory" % args.out)
        outputs = render_all(args.pinmap, args.config)
    except InputError as e:
        print("wiring_svg.py: %s" % e, file=sys.stderr)
        return 2
    stale = write_or_check(outputs, args.out, args.check)
    return 1 if (stale and args.check) else 0


def write_or_check(files, out_dir, check):
    """Write {name: text} into out_dir where it differs (or with check, only report it).
    Prints one line per differing file; returns their paths."""
    stale = []
    for name in sorted(files):
        path = os.path.join(out_dir, name)
        data = files[name].encode("utf-8")
        try:
            with open(path, "rb") as f:
                current = f.read()
        except OSError:
            current = None
        if current == data:
            continue
        stale.append(path)
        if not check:
            with open(path, "wb") as f:
                f.write(data)
    for path in stale:
        print(("out of date: %s (run python tools/hardware.py)" if check else "wrote %s")
              % os.path.relpath(path))
    return stale


if __name__ == "__main__":
    sys.exit(main())
