# Electrical rules check: rules a circuit (design.py) must pass in every build option. Each rule
# looks at the netlist and the part ratings (parts.py) together with what the firmware does
# (circuit.settings: row mode, settle time, LED current cap), and returns Violations that name
# the rule, the net or part, and what is wrong in numbers.
#
#   one-source          every supply rail has exactly one source joined to it (diode-fed
#                       inputs such as the Pico's VSYS may be fed by several, through diodes)
#   fused               an external supply reaches its loads only through a fuse
#   supply-range        every part's supply pin sees a voltage within its rating
#   supply-current      no source (USB port, 3V3 regulator, external supply, fuse) is asked for
#                       more than it gives, with the firmware's LED current cap
#   usb-capacitance     the capacitance a USB port charges at plug-in stays small
#   capacitor-voltage   capacitors are rated at least 1.25 x the voltage across them
#   gpio-voltage        no net that can reach more than the RP2040's 3.6 V touches a GPIO
#   gpio-fight          no GPIO driven high can be joined to a GPIO driven low, even with one
#                       shorted matrix diode and every sensor closed, in any scan state
#   gpio-capacitance    no output GPIO charges a capacitor (> 10 nF) at every switch
#   logic-levels        every logic input is driven above its high threshold
#   column-pullup       every matrix column has an external pull-up (or pull-down)
#   column-low-level    a column pulled through a sensor stays below the RP2040's 0.8 V
#   column-settle       the firmware waits long enough for a column to recover
#   diode-direction     each square reads its sensor with the firmware's diode and level
#                       settings, and no square on another row shows on its column
#   hall-row-drive      a hall row pin can power its 7 sensors at the drive strength set
import math

from circuit import parts as P

VIL_MARGIN = 0.05            # noise margin below the RP2040's VIL
LOW_OHMS = 1000.0            # a path with less resistance than this is "low impedance"
GPIO_CAP_LIMIT_UF = 0.01
USB_BULK_LIMIT_UF = 220.0    # USB 2.0 allows 10 uF at plug-in; 100-220 uF is the compromise
CAP_DERATING = 1.25


class Violation:
    def __init__(self, rule, where, message):
        self.rule, self.where, self.message = rule, where, message

    def key(self):
        return (self.rule, self.where)

    def __repr__(self):
        return "%s %s: %s" % (self.rule, self.where, self.message)


def check(c):
    """Every violation of every rule, in rule order."""
    g = Graph(c)
    out = []
    for rule in RULES:
        out.extend(rule(c, g))
    return out


# --- the circuit as a graph of nets --------------------------------------------------------------

class Graph:
    def __init__(self, c):
        self.c = c
        self.links = []          # (net_a, net_b, link, part)
        for part in c.parts.values():
            for ln in part.links():
                a, b = part.net.get(ln.a), part.net.get(ln.b)
                if a and b and a != b:
                    self.links.append((a, b, ln, part))
        self.groups = self._groups(("wire", "fuse"))
        self.unfused = self._groups(("wire",))
        self.sources = []        # (net, part, pin spec)
        for net, members in c.nets.items():
            for ref, pin in members:
                spec = c.pin(ref, pin)
                if spec.kind == "source":
                    self.sources.append((net, c.parts[ref], spec))
        self.range = self._voltage_ranges()

    def _groups(self, kinds):
        parent = {n: n for n in self.c.nets}

        def find(n):
            while parent[n] != n:
                parent[n] = parent[parent[n]]
                n = parent[n]
            return n
        for a, b, ln, part in self.links:
            if ln.kind in kinds:
                parent[find(a)] = find(b)
        return {n: find(n) for n in self.c.nets}

    def group_nets(self, net, groups=None):
        groups = groups or self.groups
        root = groups[net]
        return sorted(n for n in groups if groups[n] == root)

    def direct_sources(self, net):
        root = self.groups[net]
        return [s for s in self.sources if self.groups[s[0]] == root]

    def _voltage_ranges(self):
        # Rails with a source: its (min, max). Diode-fed rails: from every feeder minus the
        # diode drop; the lowest minimum (a feeder may be absent) and the highest maximum.
        rng = {}
        for net, part, spec in self.sources:
            root = self.groups[net]
            lo, hi = rng.get(root, spec.v)
            rng[root] = (min(lo, spec.v[0]), max(hi, spec.v[1]))
        if "GND" in self.groups:
            rng[self.groups["GND"]] = (0.0, 0.0)
        direct = set(rng)
        for _ in range(5):
            feeds = {}
            for a, b, ln, part in self.links:
                ra, rb = self.groups[a], self.groups[b]
                if ln.kind == "diode" and ra in rng and rb not in direct:
                    lo, hi = rng[ra]
                    feeds.setdefault(rb, []).append((lo - ln.vf[1], hi - ln.vf[0]))
            new = {rb: (min(f[0] for f in fs), max(f[1] for f in fs)) for rb, fs in feeds.items()}
            if all(rng.get(k) == v for k, v in new.items()):
                break
            rng.update(new)
        return rng

    def rail(self, net):
        """(min, max) volts of the rail net belongs to, or None."""
        return self.range.get(self.groups[net])

    def is_rail(self, net):
        return self.groups[net] in self.range


def _pins_of_kind(c, kind):
    for net, members in c.nets.items():
        for ref, pin in members:
            if c.pin(ref, pin).kind == kind:
                yield net, c.parts[ref], pin


def _names(nets):
    return "/".join(nets)


# --- supply rules --------------------------------------------------------------------------------

def rule_one_source(c, g):
    out = []
    seen = set()
    for net, part, spec in g.sources:
        root = g.groups[net]
        if root in seen:
            continue
        seen.add(root)
        srcs = g.direct_sources(net)
        if len(srcs) > 1:
            out.append(Violation(
                "one-source", _names(g.group_nets(net)),
                "joined to %d sources at once (%s): they push current into each other, and "
                "an external supply feeds 5 V back into the computer's USB port"
                % (len(srcs), ", ".join("%s.%s" % (p.ref, _pin_name(p, s)) for n, p, s in srcs))))
    for net, part, pin in _pins_of_kind(c, "supply"):
        if g.rail(net) is None:
            out.append(Violation("one-source", net, "%s.%s has no source" % (part.ref, pin)))
    return out


def _pin_name(part, spec):
    for name, s in part.type.pins.items():
        if s is spec:
            return name
    return "?"


def rule_fused(c, g):
    out = []
    for net, part, spec in g.sources:
        if part.type is not P.SUPPLY_5V:
            continue
        root = g.unfused[net]
        loads = [("%s.%s" % (p.ref, pin)) for n, p, pin in _pins_of_kind(c, "supply")
                 if g.unfused[n] == root]
        loads += ["%s" % p.ref for p in c.parts.values() if p.type is P.SCHOTTKY
                  and g.unfused.get(p.net.get("A")) == root]
        if loads:
            out.append(Violation("fused", part.ref, "the %.0f A external supply reaches %s "
                                 "without a fuse" % (spec.ma / 1000.0, ", ".join(loads[:4]) +
                                                     (" ..." if len(loads) > 4 else ""))))
    return out


def rule_supply_range(c, g):
    out = []
    for net, part, pin in _pins_of_kind(c, "supply"):
        rng = g.rail(net)
        spec = part.type.pins[pin]
        if rng is None:
            continue
        if part.type is P.HALL and pin == "VCC" and not g.is_rail(part.net["GND"]) or \
                part.type is P.HALL and pin == "VCC" and net.startswith("ROW_"):
            continue                  # switched by a row pin: hall-row-drive checks it
        if rng[0] < spec.v[0] - 1e-9 or rng[1] > spec.v[1] + 1e-9:
            out.append(Violation("supply-range", "%s.%s" % (part.ref, pin),
                                 "%s gets %.2f-%.2f V on %s; it needs %.2f-%.2f V"
                                 % (part.type.name, rng[0], rng[1], net, spec.v[0], spec.v[1])))
    return out


def _loads_ma(c, g):
    """Current drawn from each rail group (mA), with the LED cap; diode-fed rails pass their
    load on to every feeder (any one may carry it alone)."""
    s = c.settings
    load = {}

    def add(net, ma):
        root = g.groups[net]
        load[root] = load.get(root, 0) + ma
    led_rail = None
    for net, part, pin in _pins_of_kind(c, "supply"):
        if part.type is P.WS2812B:
            led_rail = net
            continue
        if part.type is P.HALL:
            continue                      # one row of 7 at a time: the burst below
        add(net, part.type.pins[pin].ma)
    if led_rail:
        add(led_rail, s["led_budget_ma"])
    # The Pico's regulator: 3V3 loads appear on VSYS at about 3.3 / (5 x 0.85) of the current.
    v33 = g.groups.get("3V3_OUT")
    vsys = g.groups.get("VSYS")
    hall_burst = 7 * P.HALL.ratings["burst_ma"] if c.variant["sensor"] == "hall" else 0
    pullups = sum(3.3 / ln.ohms * 1000 for a, b, ln, part in g.links
                  if ln.kind == "resistor" and (g.groups[a] == v33 or g.groups[b] == v33))
    if v33 is not None:
        load[v33] = load.get(v33, 0) + hall_burst + pullups
        if vsys is not None:
            load[vsys] = load.get(vsys, 0) + load[v33] * 0.8
    for a, b, ln, part in g.links:       # diode-fed rails: their load on each feeder
        if ln.kind == "diode" and g.is_rail(a) and g.groups[b] == vsys and g.groups[a] != vsys:
            load[g.groups[a]] = load.get(g.groups[a], 0) + load.get(vsys, 0)
    return load


def rule_supply_current(c, g):
    out = []
    load = _loads_ma(c, g)
    for net, part, spec in g.sources:
        root = g.groups[net]
        if len(g.direct_sources(net)) != 1:
            continue                     # one-source already reports it
        ma = load.get(root, 0)
        if ma > spec.ma:
            out.append(Violation("supply-current", "%s.%s" % (part.ref, _pin_name(part, spec)),
                                 "asked for about %.0f mA, gives %.0f mA" % (ma, spec.ma)))
    for a, b, ln, part in g.links:
        if ln.kind == "fuse":
            ma = load.get(g.groups[a], 0)
            if ma > ln.hold_a * 1000:
                out.append(Violation("supply-current", part.ref, "carries about %.0f mA, holds "
                                     "%.0f mA" % (ma, ln.hold_a * 1000)))
    return out


def _caps(c):
    for part in c.parts.values():
        if part.type.name == "capacitor":
            yield part


def rule_usb_capacitance(c, g):
    out = []
    for net, part, spec in g.sources:
        if part.type is not P.PICO or _pin_name(part, spec) != "VBUS":
            continue
        root = g.groups[net]
        uf = sum(p.type.ratings["uf"] for p in _caps(c)
                 if g.groups.get(p.net.get("1")) == root or g.groups.get(p.net.get("2")) == root)
        if uf > USB_BULK_LIMIT_UF:
            out.append(Violation("usb-capacitance", _names(g.group_nets(net)),
                                 "%.0f uF on the USB port's 5 V: it charges at plug-in with up "
                                 "to %.0fx the charge USB allows (10 uF); keep it at most "
                                 "%.0f uF" % (uf, uf / 10, USB_BULK_LIMIT_UF)))
    return out


def rule_capacitor_voltage(c, g):
    out = []
    for p in _caps(c):
        v = []
        for pin in ("1", "2"):
            rng = g.rail(p.net[pin]) if pin in p.net else None
            v.append(rng[1] if rng else 3.3)
        across = abs(v[0] - v[1])
        if p.type.ratings["rated_v"] < across * CAP_DERATING:
            out.append(Violation("capacitor-voltage", p.ref, "rated %.0f V for %.2f V"
                                 % (p.type.ratings["rated_v"], across)))
    return out


# --- GPIO rules ----------------------------------------------------------------------------------

def _gpio_nets(c):
    return {net: pin for net, part, pin in _pins_of_kind(c, "gpio") if part.ref == "U1"}


def rule_gpio_voltage(c, g):
    # Highest voltage each net can reach: rails, logic outputs at their part's supply, then
    # through resistors, contacts (closed) and forward diodes.
    vmax, via = {}, {}
    for net in c.nets:
        rng = g.rail(net)
        if rng:
            vmax[net], via[net] = rng[1], "rail " + _names(g.group_nets(net))
    for net, part, pin in _pins_of_kind(c, "out"):
        sup = part.net.get(part.type.pins[pin].supply)
        rng = g.rail(sup) if sup else None
        if rng and rng[1] > vmax.get(net, -1):
            vmax[net], via[net] = rng[1], "%s.%s" % (part.ref, pin)
    changed = True
    while changed:
        changed = False
        for a, b, ln, part in g.links:
            if ln.kind == "sensor":
                continue
            pairs = [(a, b, ln.vf[0])] if ln.kind == "diode" else [(a, b, 0.0), (b, a, 0.0)]
            for x, y, drop in pairs:
                if g.is_rail(y):
                    continue              # a rail's voltage is its source's
                if x in vmax and vmax[x] - drop > vmax.get(y, -1) + 1e-9:
                    vmax[y] = vmax[x] - drop
                    via[y] = "%s through %s %s" % (via[x].split(" through ")[0], part.ref,
                                                   _describe(part, ln))
                    changed = True
    out = []
    for net, pin in sorted(_gpio_nets(c).items()):
        if vmax.get(net, 0) > P.RP2040["vmax"]:
            out.append(Violation("gpio-voltage", "%s (%s)" % (pin, net),
                                 "can reach %.2f V from %s; RP2040 pins take at most %.1f V"
                                 % (vmax[net], via[net], P.RP2040["vmax"])))
    return out


def _describe(part, ln):
    if ln.kind == "resistor":
        return "(%s)" % _ohms(ln.ohms)
    return "(%s)" % ln.kind


def _ohms(r):
    return "%g kOhm" % (r / 1000) if r >= 1000 else "%g ohm" % r


def _drives(c, active_row):
    """GPIO nets driven in a scan state: {net: set of levels it may drive}."""
    s = c.settings
    on = 0 if s["diode"] == "row_cathode" else 1
    levels = {}
    for net, pin in _gpio_nets(c).items():
        if net.startswith("ROW_"):
            r = int(net[4:]) - 1
            if r == active_row:
                levels[net] = {on}
            elif s["row_mode"] == "push_pull":
                levels[net] = {1 - on}
        elif net in ("LED_DATA", "BUZZER"):
            levels[net] = {0, 1}
    return levels


def _powered(c, part, levels, g):
    """A hall sensor has power when its VCC net is high and its GND net low."""
    def level(net):
        if net in levels and len(levels[net]) == 1:
            return next(iter(levels[net]))
        rng = g.rail(net)
        if rng:
            return 1 if rng[0] > 1.0 else 0
        return None
    return level(part.net["VCC"]) == 1 and level(part.net["GND"]) == 0


def _flow_edges(c, g, levels, closed, shorted=None, low_ohms=LOW_OHMS):
    """Directed edges current can take: {net: [(net, part)]}."""
    adj = {}

    def edge(x, y, part):
        adj.setdefault(x, []).append((y, part))
    for a, b, ln, part in g.links:
        if ln.kind == "diode":
            edge(a, b, part)
            if part is shorted:
                edge(b, a, part)
        elif ln.kind == "switch":
            if closed(part):
                edge(a, b, part)
                edge(b, a, part)
        elif ln.kind == "sensor":
            if closed(part) and _powered(c, part, levels, g):
                edge(a, b, part)
        elif ln.kind == "resistor":
            if ln.ohms < low_ohms:
                edge(a, b, part)
                edge(b, a, part)
        else:
            edge(a, b, part)
            edge(b, a, part)
    return adj


def _reach(adj, start):
    seen = {start: None}
    todo = [start]
    while todo:
        n = todo.pop()
        for m, part in adj.get(n, ()):
            if m not in seen:
                seen[m] = (n, part)
                todo.append(m)
    return seen


def _matrix_diodes(c):
    return [p for p in c.parts.values() if p.type is P.DIODE_1N4148 and "square" in p.attrs]


def rule_gpio_fight(c, g):
    found = {}
    faults = [None] + _matrix_diodes(c)
    for r in range(9):
        levels = _drives(c, r)
        highs = [n for n in levels if 1 in levels[n]]
        lows = {n for n in levels if 0 in levels[n]}
        if not highs or not lows:
            continue
        for fault in faults:
            adj = _flow_edges(c, g, levels, lambda p: True, fault)
            for h in highs:
                seen = _reach(adj, h)
                for lo in lows:
                    if lo != h and lo in seen and (h, lo) not in found:
                        found[(h, lo)] = (r, fault)
    if not found:
        return []
    (h, lo), (r, fault) = sorted(found.items())[0]
    why = "with %s shorted and the sensors closed" % fault.ref if fault else \
        "with the sensors closed"
    nets = sorted({n for pair in found for n in pair})
    return [Violation("gpio-fight", _span(nets),
                      "%d pairs of pins can short each other, e.g. %s (driven high) joins %s "
                      "(driven low) %s while rank %d is scanned" % (len(found), h, lo, why,
                                                                     r + 1))]


def _span(nets):
    """ROW_1..ROW_9 for a run of nets, else a list."""
    if len(nets) > 2 and len({n.rsplit("_", 1)[0] for n in nets}) == 1:
        return "%s..%s" % (nets[0], nets[-1])
    return ", ".join(nets)


def rule_gpio_capacitance(c, g):
    bad = []
    driven = {}
    for r in range(9):
        for net in _drives(c, r):
            driven[net] = True
    for net in sorted(driven):
        uf = 0.0
        for ref, pin in c.pins_on(net):
            part = c.parts[ref]
            if part.type.name == "capacitor":
                uf += part.type.ratings["uf"]
        if uf > GPIO_CAP_LIMIT_UF:
            bad.append((net, uf))
    if not bad:
        return []
    return [Violation("gpio-capacitance", _span([n for n, uf in bad]),
                      "%.0f nF on a switched GPIO output: every switch charges it through the "
                      "pin (short pulses of tens of mA)" % (max(uf for n, uf in bad) * 1000))]


def rule_logic_levels(c, g):
    out = []
    gpio = _gpio_nets(c)
    for net, part, pin in _pins_of_kind(c, "in"):
        spec = part.type.pins[pin]
        if g.is_rail(net):
            continue                      # tied to a rail: a static level
        vih = spec.vih
        if vih is None:
            sup = g.rail(part.net[spec.supply])
            vih = spec.vih_frac * sup[1]
        # Drivers reachable through low-resistance series parts (wires, R1).
        adj = _flow_edges(c, g, {}, lambda p: False, None, low_ohms=10e3)
        near = _reach(adj, net)
        drivers = []
        for n in near:
            if n in gpio:
                drivers.append(("U1.%s" % gpio[n], P.RP2040["voh"]))
            for ref, p2 in c.pins_on(n):
                s2 = c.pin(ref, p2)
                if s2.kind == "out":
                    sup = g.rail(c.net_of(ref, s2.supply))
                    if sup:
                        drivers.append(("%s.%s" % (ref, p2), sup[0] - s2.voh_drop))
        for name, voh in drivers:
            if voh < vih:
                out.append(Violation("logic-levels", "%s.%s" % (part.ref, pin),
                                     "driven by %s at %.2f V or more; needs %.2f V for a high"
                                     % (name, voh, vih)))
    return out


# --- matrix rules --------------------------------------------------------------------------------

def _columns(c):
    return sorted(n for n in c.nets if n.startswith("COL_"))


def _col_pull(c, g, col):
    """External pull resistor(s) on a column to the right rail: total ohms, or None."""
    want = "3V3_OUT" if c.settings["active_level"] == 0 else "GND"
    rs = []
    for a, b, ln, part in g.links:
        if ln.kind == "resistor" and col in (a, b):
            other = b if a == col else a
            if g.groups.get(other) == g.groups.get(want):
                rs.append(ln.ohms)
    if not rs:
        return None
    return 1.0 / sum(1.0 / r for r in rs)


def _parallel(a, b):
    return a * b / (a + b) if a else b


def rule_column_pullup(c, g):
    bad = [col for col in _columns(c) if _col_pull(c, g, col) is None]
    if not bad:
        return []
    return [Violation("column-pullup", _span(bad),
                      "no external %s: the RP2040's own 50-80 kOhm is slow to recover on long "
                      "wires (and on a Pico 2 the internal pull-downs latch, erratum E9)"
                      % ("pull-up to 3V3" if c.settings["active_level"] == 0 else "pull-down"))]


def column_low_level(c, g, col):
    """Worst-case column voltage while a sensor pulls it low (V), and the current (mA)."""
    r_ext = _col_pull(c, g, col)
    r = _parallel(r_ext, P.RP2040["pull_min"]) if r_ext else P.RP2040["pull_min"]
    d = P.DIODE_1N4148.ratings
    v = 0.7
    for _ in range(5):               # the current depends on the level: iterate
        i_ma = (3.3 - v) / r * 1000
        vf = d["vf_1ma"] + d["vf_decade"] * math.log10(i_ma) + 0.1   # cold, spread
        row = i_ma * P.RP2040["vol"] / c.settings["row_drive_ma"]
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
    for col in _columns(c):
        v, i_ma = column_low_level(c, g, col)
        if v > limit:
            out.append(Violation("column-low-level", col,
                                 "pulled to %.2f V at %.2f mA (worst case), above %.2f V: the "
                                 "RP2040 may read it as high" % (v, i_ma, limit)))
    return out


def column_rise_us(c, g, col):
    """Time for a column to rise from its low level to VIH through its pull (us)."""
    from circuit.design import PITCH_M, LEAD_M, WIRE_PF_PER_M
    r_ext = _col_pull(c, g, col)
    r = _parallel(r_ext, P.RP2040["pull_max"]) if r_ext else P.RP2040["pull_max"]
    pf = (9 * PITCH_M + LEAD_M) * WIRE_PF_PER_M + 9 * P.DIODE_1N4148.ratings["cj_pf"] + 5
    tau_us = r * pf * 1e-12 * 1e6
    return tau_us * math.log((3.3 - 0.7) / (3.3 - P.RP2040["vih"])), tau_us, pf


def rule_column_settle(c, g):
    out = []
    s = c.settings
    hall = c.variant["sensor"] == "hall"
    wait = s["hall_power_up_us"] if hall else s["settle_us"]
    need_base = P.HALL.ratings["t_on_us"] if hall else 0
    for col in _columns(c):
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


def _square_parts(c, sq):
    return [p for p in c.parts.values() if p.attrs.get("square") == sq]


def _reads(c, g, col, levels, on_parts):
    """Level a column reads with the given rows driven and only on_parts' sensors closed."""
    active = c.settings["active_level"]
    adj = _flow_edges(c, g, levels, lambda p: p in on_parts)
    low_nets = {n for n, lv in levels.items() if lv == {0}} | {"GND"}
    high_nets = {n for n, lv in levels.items() if lv == {1}}
    high_nets |= {n for n in c.nets if g.rail(n) and g.rail(n)[0] > 1.0}
    if active == 0:                   # pulled up: reads 0 if current can flow to a low net
        seen = _reach(adj, col)
        return 0 if seen.keys() & low_nets else 1
    for h in high_nets:
        if col in _reach(adj, h):
            return 1
    return 0


def rule_diode_direction(c, g):
    active = c.settings["active_level"]
    bad = {"present": [], "absent": [], "other row": []}
    for sq in range(63):
        r, f = sq // 7, sq % 7
        col = "COL_%s" % "ABCDEFG"[f]
        sensor = [p for p in _square_parts(c, sq) if p.type in (P.REED, P.HALL)]
        levels = _drives(c, r)
        if _reads(c, g, col, levels, sensor) != active:
            bad["present"].append(sq)
        if _reads(c, g, col, levels, []) != 1 - active:
            bad["absent"].append(sq)
        if _reads(c, g, col, _drives(c, (r + 1) % 9), sensor) != 1 - active:
            bad["other row"].append(sq)
    out = []
    what = {"present": "a sensor that is on does not read %d" % active,
            "absent": "reads %d with no sensor on" % active,
            "other row": "a sensor on another rank shows on the column"}
    for case, squares in bad.items():
        if squares:
            where = "all 63 squares" if len(squares) == 63 else \
                ", ".join(_sqname(s) for s in squares[:6])
            out.append(Violation("diode-direction", where,
                                 "%s with DIODE_DIRECTION = %r, SENSOR_ACTIVE_LEVEL = %d"
                                 % (what[case], c.settings["diode"], active)))
    return out


def _sqname(sq):
    return "%s%d" % ("abcdefg"[sq % 7], sq // 7 + 1)


def rule_hall_row_drive(c, g):
    if c.variant["sensor"] != "hall":
        return []
    ma = c.settings["row_drive_ma"]
    burst = 7 * P.HALL.ratings["burst_ma"]
    r_pad = P.RP2040["vol"] / ma * 1000           # ohms
    drop = burst * r_pad / 1000
    v = 3.2 - drop
    need = P.HALL.pins["VCC"].v[0] + 0.1
    if v < need:
        return [Violation("hall-row-drive", "ROW_1..ROW_9",
                          "7 sensors draw about %.0f mA while they power up; at %d mA drive "
                          "the row pin (about %.0f ohm) leaves them %.2f V, below %.2f V"
                          % (burst, ma, r_pad, v, need))]
    return []


RULES = [rule_one_source, rule_fused, rule_supply_range, rule_supply_current,
         rule_usb_capacitance, rule_capacitor_voltage, rule_gpio_voltage, rule_gpio_fight,
         rule_gpio_capacitance, rule_logic_levels, rule_column_pullup, rule_column_low_level,
         rule_column_settle, rule_diode_direction, rule_hall_row_drive]
RULE_IDS = ["one-source", "fused", "supply-range", "supply-current", "usb-capacitance",
            "capacitor-voltage", "gpio-voltage", "gpio-fight", "gpio-capacitance",
            "logic-levels", "column-pullup", "column-low-level", "column-settle",
            "diode-direction", "hall-row-drive"]
