# Electrical rules about the sensor matrix: the columns' pull-ups, the level a closed sensor
# pulls a column to, the time a column takes to recover, that every square reads its sensor
# the way the firmware expects, and that a hall row's sensors get enough voltage.
import math

from circuit import parts as P
from circuit.graph import Violation, drives, span, switched_levels
from circuit.rules_signal import MATRIX_SENSORS as SENSORS, flow_edges, matrix_diodes_of

VIL_MARGIN = 0.05            # noise margin below the RP2040's VIL


def columns(c):
    return sorted(n for n in c.nets if n.startswith("COL_"))


def col_pull(c, g, col):
    """External pull resistor(s) on a column to the right rail: total ohms, or None."""
    return g.memo("col_pull", lambda: _col_pulls(c, g)).get(col)


def _col_pulls(c, g):
    want = g.groups.get("3V3_OUT" if c.settings["active_level"] == 0 else "GND")
    rs = {}
    for a, b, ln, part in g.links:
        if ln.kind == "resistor":
            for col, other in ((a, b), (b, a)):
                if col.startswith("COL_") and g.groups.get(other) == want:
                    rs.setdefault(col, []).append(ln.ohms)
    return {col: 1.0 / sum(1.0 / r for r in v) for col, v in rs.items()}


def _parallel(a, b):
    return a * b / (a + b) if a else b


def _diode_type(c, g, col):
    """The type of the matrix diodes in col's file."""
    f = "ABCDEFG".find(col[4:]) if col.startswith("COL_") else -1
    for d in matrix_diodes_of(g):
        if col in d.net.values() or d.attrs.get("square", -1) % 7 == f:
            return d.type
    return P.DIODE_1N4148


def _through_row_pin(c, g):
    """Does a closed sensor's current return through a row GPIO (not straight to GND)?"""
    rows = {n for n in g.gpio if n.startswith("ROW_")}
    for d in matrix_diodes_of(g):
        if set(d.net.values()) & rows:
            return True
    return any(p.type is P.HALL and p.net.get("GND") in rows for p in c.parts.values())


def rule_column_pullup(c, g):
    bad = [col for col in columns(c) if col_pull(c, g, col) is None]
    if not bad:
        return []
    return [Violation("column-pullup", span(bad),
                      "no external %s: the RP2040's own 50-80 kOhm is slow to recover on long "
                      "wires (and on a Pico 2 the internal pull-downs latch, erratum E9)"
                      % ("pull-up to 3V3" if c.settings["active_level"] == 0 else "pull-down"))]


def column_low_level(c, g, col):
    """Worst-case column voltage while a sensor pulls it low (V), and the current (mA)."""
    r_ext = col_pull(c, g, col)
    r = _parallel(r_ext, P.RP2040["pull_min"]) if r_ext else P.RP2040["pull_min"]
    d = _diode_type(c, g, col).ratings
    row_pin = _through_row_pin(c, g)
    v = 0.7
    for _ in range(5):               # the current depends on the level: iterate
        i_ma = (3.3 - v) / r * 1000
        vf = d["vf_1ma"] + d["vf_decade"] * math.log10(i_ma) + 0.1   # cold, spread
        row = i_ma * P.RP2040["vol"] / c.settings["row_drive_ma"] if row_pin else 0.0
        sensor = 0.0
        if c.variant["sensor"] == "hall":
            sensor = P.HALL.ratings["vol_at_half_ma"] * i_ma / 0.5
        v = vf + row + sensor
    return v, i_ma


def rule_column_low_level(c, g):
    if c.settings["active_level"] != 0:
        return []
    out = []
    limit = P.RP2040["vil"] - VIL_MARGIN
    for col in columns(c):
        v, i_ma = column_low_level(c, g, col)
        if v > limit:
            out.append(Violation("column-low-level", col,
                                 "pulled to %.2f V at %.2f mA (worst case), above %.2f V: the "
                                 "RP2040 may read it as high" % (v, i_ma, limit)))
    return out


def column_rise_us(c, g, col):
    """Time for a column to rise from its low level to VIH through its pull (us)."""
    from circuit.design import PITCH_M, LEAD_M, WIRE_PF_PER_M
    r_ext = col_pull(c, g, col)
    r = _parallel(r_ext, P.RP2040["pull_max"]) if r_ext else P.RP2040["pull_max"]
    cj = _diode_type(c, g, col).ratings["cj_pf"]
    pf = (9 * PITCH_M + LEAD_M) * WIRE_PF_PER_M + 9 * cj + 5
    tau_us = r * pf * 1e-12 * 1e6
    return tau_us * math.log((3.3 - 0.7) / (3.3 - P.RP2040["vih"])), tau_us, pf


def rule_column_settle(c, g):
    out = []
    s = c.settings
    hall = c.variant["sensor"] == "hall"
    wait = s["hall_power_up_us"] if hall else s["settle_us"]
    need_base = P.HALL.ratings["t_on_us"] if hall else 0
    for col in columns(c):
        rise, tau, pf = column_rise_us(c, g, col)
        need = need_base + 3 * rise
        if wait + 1 < need:          # about 1 us of code between the row switch and the read
            out.append(Violation("column-settle", col,
                                 "%s is %d us; the column needs %.1f us (%s3 x %.1f us to rise "
                                 "through %.0f pF)" % ("HALL_POWER_UP_US" if hall else
                                                       "MATRIX_SETTLE_US", wait, need,
                                                       "t_on %d us + " % need_base if hall else "",
                                                       rise, pf)))
            break                     # all columns are alike: one report
    return out


class _Scan:
    """What a column reads in one scan state (rows driven as drives() has them), with the
    sensors of some squares closed. The edges current can take are built once per state; with
    one sensor closed, a path to the column's far side must cross that sensor once, so the nets
    reachable without any sensor answer it."""

    def __init__(self, c, g, row):
        levels = drives(g, row)
        self.active = c.settings["active_level"]
        self.adj = flow_edges(c, g, levels, "sensors")
        switched = switched_levels(g, levels)
        grounds, highs = g.rail_nets()
        driven = {n for n, lv in switched.items() if lv == {self.active}}
        self.sensors = g.memo("matrix_sensors", lambda: {
            part for a, b, ln, part in g.links if part.type in SENSORS})
        self.bare, self.back, self.edges = g.memo(("split", id(self.adj)), self._split)
        # pulled up: a column reads 0 when it reaches a low net; pulled down: 1 when a high net
        # reaches it. far: the nets on the far side, reached without a sensor (the rails' part
        # is the same in every state).
        step = self.back if self.active == 0 else self.bare
        rails = grounds if self.active == 0 else highs
        self.far = dict(g.memo(("far", id(self.adj), self.active),
                               lambda: _reach(step, rails, ())))
        self.far.update(_reach(step, [n for n in driven if n not in self.far], ()))
        high = highs | {n for n, lv in switched.items() if lv == {1}}
        self.high = high
        self._near = {}

    def _split(self):
        bare, back, edges = {}, {}, {}
        for x, out in self.adj.items():
            for y, part in out:
                if part in self.sensors:
                    edges.setdefault(part, []).append((x, y))
                else:
                    bare.setdefault(x, []).append((y, part))
                    back.setdefault(y, []).append((x, part))
        return bare, back, edges

    def near(self, col):
        """The nets on the column's side, reached without a sensor."""
        if col not in self._near:
            self._near[col] = _reach(self.bare if self.active == 0 else self.back, [col], ())
        return self._near[col]

    def reads(self, col, closed=None, all_but=None):
        """The level col reads with only the sensors in closed on (closed=None: all of them
        but all_but)."""
        on, off = self.active, 1 - self.active
        if closed is not None and len(closed) <= 1:
            if col in self.far:
                return on
            near = self.near(col)
            for part in closed:
                for x, y in self.edges.get(part, ()):
                    if (x in near and y in self.far) if self.active == 0 else \
                            (x in self.far and y in near):
                        return on
            return off
        skip = self.sensors - set(closed) if closed is not None else {all_but}
        if self.active == 0:
            return on if _reach(self.adj, [col], skip).keys() & self.far.keys() else off
        return on if col in _reach(self.adj, list(self.high), skip) else off



def _scans(c, g):
    return g.memo("scans", lambda: [_Scan(c, g, r) for r in range(9)])


def _reach(adj, starts, skip):
    seen = dict.fromkeys(starts)
    todo = list(starts)
    while todo:
        n = todo.pop()
        for m, part in adj.get(n, ()):
            if m not in seen and part not in skip:
                seen[m] = n
                todo.append(m)
    return seen


def _square_sensors(c):
    """{square: [its sensor parts]}"""
    out = {}
    for p in c.parts.values():
        if p.type in SENSORS and p.attrs.get("square") is not None:
            out.setdefault(p.attrs["square"], []).append(p)
    return out


def rule_diode_direction(c, g):
    return g.shared("diode-direction", lambda: _diode_direction(c, g))


def _diode_direction(c, g):
    active = c.settings["active_level"]
    bad = {"present": [], "absent": [], "other row": []}
    sensors = _square_sensors(c)
    scans = _scans(c, g)
    for sq in range(63):
        r, f = sq // 7, sq % 7
        col = "COL_%s" % "ABCDEFG"[f]
        on = sensors.get(sq, [])
        if scans[r].reads(col, on) != active:
            bad["present"].append(sq)
        if scans[r].reads(col, []) != 1 - active:
            bad["absent"].append(sq)
        if scans[(r + 1) % 9].reads(col, on) != 1 - active:
            bad["other row"].append(sq)
    out = []
    what = {"present": "a sensor that is on does not read %d" % active,
            "absent": "reads %d with no sensor on" % active,
            "other row": "a sensor on another rank shows on the column"}
    for case, squares in bad.items():
        if squares:
            out.append(Violation("diode-direction", _where(squares),
                                 "%s with DIODE_DIRECTION = %r, SENSOR_ACTIVE_LEVEL = %d"
                                 % (what[case], c.settings["diode"], active)))
    return out


def rule_ghosting(c, g):
    """With every other sensor on (pieces on all the other squares), a square whose own sensor
    is off still reads off: three closed sensors in a rectangle must not fake the fourth."""
    return g.shared("ghosting", lambda: _ghosting(c, g))


def _ghosting(c, g):
    active = c.settings["active_level"]
    sensors = _square_sensors(c)
    ghosts = []
    for r in range(9):
        scan = None
        for f in range(7):
            sq = r * 7 + f
            own = sensors.get(sq, [])
            if len(own) != 1:
                continue
            scan = scan or _scans(c, g)[r]
            if scan.reads("COL_%s" % "ABCDEFG"[f], all_but=own[0]) == active:
                ghosts.append(sq)
    if not ghosts:
        return []
    return [Violation("ghosting", _where(ghosts),
                      "reads a piece that is not there when the other squares are full: "
                      "current runs back through the sensors of other ranks (a diode per "
                      "sensor blocks it)")]


def _where(squares):
    return "all 63 squares" if len(squares) == 63 else \
        ", ".join(_sqname(s) for s in squares[:6]) + (" ..." if len(squares) > 6 else "")


def _sqname(sq):
    return "%s%d" % ("abcdefg"[sq % 7], sq // 7 + 1)


def hall_row_volts(c, g):
    """Worst-case voltage a scanned hall row gives its 7 sensors while they power up, and how
    (text). Through a follower: the pin's high level less the base current through the pad and
    the base resistor, less VBE. Straight from the pin: the pin's level less the burst through
    the pad at the drive strength the firmware sets."""
    ma = c.settings["row_drive_ma"]
    r_pad = P.RP2040["vol"] / ma * 1000           # ohms
    burst = 7 * P.HALL.ratings["burst_ma"]
    for emitter, (gpio, q) in sorted(g.follows.items()):
        rb = sum(ln.ohms for a, b, ln, p in g.links if ln.kind == "resistor" and gpio in (a, b)
                 and q.net.get("B") in (a, b))
        rd = [ln.ohms for a, b, ln, p in g.links if ln.kind == "resistor" and emitter in (a, b)]
        i_e = burst + sum(3.3 / r * 1000 for r in rd)
        i_b = i_e / q.type.ratings["hfe_min"]
        vbe = q.type.links(q)[0].vf[1]
        v = 3.2 - i_b / 1000 * (r_pad + rb) - vbe
        return v, ("%s's emitter follower gives them %.2f V (%.1f mA base current through "
                   "%.0f ohm, VBE %.2f V)" % (q.ref, v, i_b, r_pad + rb, vbe))
    drop = burst * r_pad / 1000
    return 3.2 - drop, ("at %d mA drive the row pin (about %.0f ohm) leaves them %.2f V while "
                        "they draw about %.0f mA" % (ma, r_pad, 3.2 - drop, burst))


def rule_hall_row_drive(c, g):
    if c.variant["sensor"] != "hall":
        return []
    v, how = hall_row_volts(c, g)
    need = P.HALL.pins["VCC"].v[0] + 0.1
    if v < need:
        return [Violation("hall-row-drive", "ROW_1..ROW_9", "%s, below %.2f V" % (how, need))]
    return []
