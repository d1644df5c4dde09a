# The circuit as a graph of nets, and what the rules (erc.py) need to know about it in normal
# use: which nets form one rail, the voltage range of every rail, the current drawn from each
# net, the voltage left at each net after the drops in cables, fuses and switches at full load,
# and the most current that can flow into a net before a fuse or its source limits it.
import re

from circuit import parts as P


class Violation:
    def __init__(self, rule, where, message):
        self.rule, self.where, self.message = rule, where, message

    def key(self):
        return (self.rule, self.where)

    def __repr__(self):
        return "%s %s: %s" % (self.rule, self.where, self.message)


def pins_of_kind(c, kind):
    for net, members in c.nets.items():
        for ref, pin in members:
            if c.pin(ref, pin).kind == kind:
                yield net, c.parts[ref], pin


def pin_name(part, spec):
    for name, s in part.type.pins.items():
        if s is spec:
            return name
    return "?"


def names(nets):
    return "/".join(nets)


def span(nets):
    """ROW_1..ROW_9 for a run of nets, else a list."""
    if len(nets) > 2 and len({n.rsplit("_", 1)[0] for n in nets}) == 1:
        return "%s..%s" % (nets[0], nets[-1])
    return ", ".join(nets)


def ref_span(refs):
    """['D1', 'D2', 'D3', 'C65'] -> 'C65, D1-D3'."""
    keys = sorted((m.group(1), int(m.group(2))) for m in
                  (re.fullmatch(r"([A-Z]+)(\d+)", r) for r in refs))
    out, i = [], 0
    while i < len(keys):
        j = i
        while j + 1 < len(keys) and keys[j + 1][0] == keys[i][0] and \
                keys[j + 1][1] == keys[j][1] + 1:
            j += 1
        out.append("%s%d" % keys[i] if i == j else "%s%d-%s%d" % (keys[i] + keys[j]))
        i = j + 1
    return ", ".join(out)


def ohms(r):
    return "%g kOhm" % (r / 1000) if r >= 1000 else "%g ohm" % r


def describe(part, ln):
    if ln.kind == "resistor":
        return "(%s)" % ohms(ln.ohms)
    return "(%s)" % ln.kind


CONDUCTORS = ("wire", "fuse", "protector")     # join nets into one rail in normal use


_SHARED = {}                 # Graph.shared(): answers by print_of_links()


class _Print:
    """A graph's fingerprint: a tuple, hashed once."""

    def __init__(self, items):
        self.items = items
        self.hash = hash(items)

    def __hash__(self):
        return self.hash

    def __eq__(self, other):
        return self.hash == other.hash and self.items == other.items


def _members(groups):
    out = {}
    for n in sorted(groups):
        out.setdefault(groups[n], []).append(n)
    return out


class Graph:
    def __init__(self, c):
        self.c = c
        self._memo = {}
        self.links = []          # (net_a, net_b, link, part)
        for part in c.parts.values():
            part.mode = {}
            for ln in part.links():
                a, b = part.net.get(ln.a), part.net.get(ln.b)
                if a and b and a != b:
                    self.links.append((a, b, ln, part))
        self.groups = self._groups(CONDUCTORS)
        self.unfused = self._groups(("wire", "protector"))
        self.kinds = self._kinds()           # pin kind -> [(net, part, pin)]
        self.sources = [(net, part, part.type.pins[pin])     # (net, part, pin spec)
                        for net, part, pin in self.pins("source")]
        self.range = self._voltage_ranges()
        moded = False
        for part in c.parts.values():     # direction pins: the pins they turn around
            if part.type.modes:
                part.mode = part.type.modes(lambda pin, part=part: self.level(part.net.get(pin)))
                moded = moded or bool(part.mode)
        if moded:
            self.kinds = self._kinds()
        self.gpio = {net: pin for net, part, pin in self.pins("gpio") if part.ref == "U1"}
        self.windows = {p.ref: cutoff_window(self, p) for a, b, ln, p in self.links
                        if ln.kind == "protector"}
        self.follows = self._followers()
        self.load = self._loads()
        self.vmin, self.path, self.fault_ma, self.tree = self._power_trees()

    def _kinds(self):
        kinds = {}
        parts = self.c.parts
        for net, members in self.c.nets.items():
            for ref, pin in members:
                part = parts[ref]
                kind = ((part.mode and part.mode.get(pin)) or part.type.pins[pin]).kind
                out = kinds.get(kind)
                if out is None:
                    out = kinds[kind] = []
                out.append((net, part, pin))
        return kinds

    def memo(self, key, make):
        """make() once per graph: analyses several rules share."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def print_of_links(self):
        """A fingerprint of everything the path analyses read: the links (with their parts'
        types and jobs, and each end's rail), the GPIOs, the outputs and hall sensors' pins,
        the firmware settings. Two graphs with equal prints give those analyses equal
        answers."""
        def make():
            rng = self.range
            grp = self.groups
            links = tuple((a, b, ln.kind, ln.ohms, ln.vf, ln.ctl, part.ref, id(part.type),
                           part.attrs.get("role"), part.attrs.get("square"),
                           rng.get(grp[a]), rng.get(grp[b])) for a, b, ln, part in self.links)
            cols = tuple((n, rng.get(grp[n])) for n in self.c.nets if n.startswith("COL_"))
            outs = tuple((n, p.ref, pin, self.rail(p.net.get(p.spec(pin).supply)))
                         for n, p, pin in self.pins("out"))
            hall = tuple((p.ref, k, n, self.rail(n)) for p in self.c.parts.values()
                         if p.type is P.HALL for k, n in sorted(p.net.items()))
            gpio = tuple((n, pin, self.rail(n)) for n, pin in sorted(self.gpio.items()))
            return _Print((links, cols, outs, hall, gpio,
                         repr(sorted(self.c.settings.items())),
                         tuple(sorted((k, v[0], v[1].ref) for k, v in self.follows.items()))))
        return self.memo("print_of_links", make)

    def shared(self, key, make):
        """make() once for all graphs with the same print_of_links(): the fault space checks
        one circuit thousands of times, most faults far from what these analyses read."""
        k = (key, self.print_of_links())
        if k not in _SHARED:
            if len(_SHARED) > 256:
                _SHARED.clear()
            _SHARED[k] = make()
        found = _SHARED[k]
        return list(found) if isinstance(found, list) else found

    def pins(self, kind):
        """[(net, part, pin)] of every connected pin of that kind."""
        return self.kinds.get(kind, [])

    def every_pin(self):
        """[(part, pin name, spec, net or None)] of every pin of every part."""
        return self.memo("every_pin", lambda: [
            (part, pin, part.spec(pin), part.net.get(pin)) for part in self.c.parts.values()
            for pin in part.type.pins])

    # --- rails -------------------------------------------------------------------------------

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

    def group_nets(self, net=None, groups=None, b=None):
        """The nets of net's rail (or of the rail whose root is b), sorted."""
        groups = groups or self.groups
        root = groups[net] if b is None else b
        if groups is self.groups:
            members = self.memo("members", lambda: _members(groups))
            return members.get(root, [])
        return sorted(n for n in groups if groups[n] == root)

    def direct_sources(self, net):
        root = self.groups[net]
        return [s for s in self.sources if self.groups[s[0]] == root]

    def source_of(self, net):
        """The one source that feeds net's rail directly: (net, part, spec), or None."""
        srcs = self.direct_sources(net) if net in self.groups else []
        return srcs[0] if len(srcs) == 1 else None

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
        """(min, max) volts of the rail net belongs to, or None (no drops counted)."""
        return self.range.get(self.groups.get(net))

    def is_rail(self, net):
        return self.groups[net] in self.range

    def is_ground(self, net):
        return self.rail(net) == (0.0, 0.0)

    def level(self, net):
        """1 or 0 for a net tied to a high rail or to ground, else None."""
        rng = self.rail(net) if net in self.groups else None
        if rng is None:
            return None
        return 0 if rng == (0.0, 0.0) else 1 if rng[0] > 1.0 else None

    def rail_nets(self):
        """(ground nets, nets of rails that are high: above 1 V at their lowest)."""
        def make():
            lows, highs = set(), set()
            for n in self.c.nets:
                rng = self.rail(n)
                if rng == (0.0, 0.0):
                    lows.add(n)
                elif rng and rng[0] > 1.0:
                    highs.add(n)
            return lows, highs
        return self.memo("rail_nets", make)

    # --- switched supplies -------------------------------------------------------------------

    def _followers(self):
        """{emitter net: (base-side GPIO net, transistor part)} for NPN emitter followers whose
        collector is on a rail: their emitter net is a supply switched by a GPIO."""
        out = {}
        for a, b, ln, part in self.links:
            if ln.kind == "transistor" and self.is_rail(a) and not self.is_rail(b):
                base = part.net.get(ln.ctl)
                gpio = self.gpio_behind(base)
                if gpio:
                    out[b] = (gpio, part)
        return out

    def gpio_behind(self, net):
        """The GPIO net that drives net through one resistor (a base resistor), or net itself."""
        if net is None:
            return None
        if self.gpio_pin(net):
            return net
        for a, b, ln, part in self.links:
            if ln.kind == "resistor" and net in (a, b):
                other = b if a == net else a
                if self.gpio_pin(other):
                    return other
        return None

    def gpio_pin(self, net):
        for ref, pin in self.c.pins_on(net):
            if ref == "U1" and self.c.pin(ref, pin).kind == "gpio":
                return pin
        return None

    # --- loads, drops, fault currents ----------------------------------------------------------

    def _loads(self):
        """mA drawn from each net in normal use, with the firmware's LED current cap. A
        regulator takes its rail's load from its input (per its ratio); a diode-fed rail passes
        the load of all its nets on to every feeder (any one may carry it alone)."""
        s = self.c.settings
        base = {}

        def add(net, ma):
            base[net] = base.get(net, 0.0) + ma
        leds = {}                             # the LED chain: the firmware's cap, on the
        for net, part, pin in self.pins("supply"):          # rail most of its LEDs are on
            if part.type is P.WS2812B:
                leds[net] = leds.get(net, 0) + 1
            elif part.type is not P.HALL:    # one row of 7 at a time: below
                add(net, part.spec(pin).ma)
        if leds:
            rail = max(sorted(leds), key=lambda n: leds[n])
            add(rail, s["led_budget_ma"])
            for net, n in leds.items():
                if net != rail:
                    add(net, n * P.WS2812B.pins["VDD"].ma)
        for net, part, spec in self.sources:
            if not spec.fed_from:
                continue
            nets = set(self.group_nets(net))
            v = sum(spec.v) / 2
            extra = 0.0                       # resistors to the rail, at worst to ground
            for a, b, ln, p in self.links:
                if ln.kind == "resistor" and (a in nets) != (b in nets):
                    extra += v / ln.ohms * 1000
            if any(p.type is P.HALL for p in self.c.parts.values()):
                extra += 7 * P.HALL.ratings["burst_ma"]     # one row of hall sensors
            if self.follows_from(nets):       # ... and its follower's pull-down
                extra += max(sum(v / ln.ohms * 1000 for a, b, ln, p in self.links
                                 if ln.kind == "resistor" and e in (a, b))
                             for e in self.follows)
            add(net, extra)
        for net, part, spec in self.sources:  # regulators: from their input
            inp = part.net.get(spec.fed_from) if spec.fed_from else None
            if inp:
                add(inp, spec.ratio * sum(base.get(n, 0.0) for n in self.group_nets(net)))
        direct = {self.groups[n] for n, p, sp in self.sources}
        feeds = []                            # (anode net, diode-fed group root)
        for a, b, ln, part in self.links:
            ga, gb = self.groups[a], self.groups[b]
            if ln.kind == "diode" and ga != gb and gb not in direct and self.is_rail(a) \
                    and self.is_rail(b):
                feeds.append((a, gb))
        load = dict(base)
        for _ in range(5):                    # chains of diode-fed rails
            new = dict(base)
            for a, root in feeds:
                new[a] = new.get(a, 0.0) + sum(load.get(n, 0.0) for n in self.group_nets(b=root))
            if new == load:
                break
            load = new
        return load

    def follows_from(self, nets):
        """Is one of the hall rows' emitter followers fed from these nets?"""
        return any(p.net.get("C") in nets for e, (gpio, p) in self.follows.items())

    def _power_trees(self):
        """Walk every rail with one source from its source pin along wires, fuses, switches and
        protectors: the voltage left at each net at full load (and what took it), the current
        that can flow into each net before a fuse trips or the source limits (mA), and the tree
        itself ({net: (parent net, link, part)})."""
        from circuit.design import AMBIENT_C
        vmin, path, fault, tree = {}, {}, {}, {}
        self._subtree = {}
        done = set()
        for net0, part0, spec in self.sources:
            root = self.groups[net0]
            if root in done or len(self.direct_sources(net0)) != 1:
                continue
            done.add(root)
            nets = set(self.group_nets(net0))
            adj = {}
            for a, b, ln, part in self.links:
                if ln.kind in CONDUCTORS and a in nets and b in nets:
                    adj.setdefault(a, []).append((b, ln, part))
                    adj.setdefault(b, []).append((a, ln, part))
            order, parent = [net0], {net0: None}
            for n in order:
                for m, ln, part in adj.get(n, ()):
                    if m not in parent:
                        parent[m] = (n, ln, part)
                        order.append(m)
            sub = {n: self.load.get(n, 0.0) for n in order}
            for n in reversed(order[1:]):
                sub[parent[n][0]] += sub[n]
            cable = part0.attrs.get("cable_ohms", 0.0)
            v = spec.v[0] - sub[net0] / 1000.0 * cable
            vmin[net0] = v
            path[net0] = [("%s at %.2f V" % (part0.ref, spec.v[0]), spec.v[0])]
            if cable:
                path[net0].append(("the cable (%.2f ohm)" % cable, -sub[net0] / 1000.0 * cable))
            fault[net0] = spec.ma_fault
            for n in order[1:]:
                p, ln, part = parent[n]
                tree[n] = parent[n]
                drop = sub[n] / 1000.0 * ln.ohms
                vmin[n] = vmin[p] - drop
                path[n] = path[p] + ([("%s (%.2f ohm)" % (part.ref, ln.ohms), -drop)]
                                     if ln.ohms else [])
                f = fault[p]
                if ln.kind == "fuse":
                    f = min(f, 1000.0 * part.type.ratings["trip_a"] *
                            P.derating(AMBIENT_C[0]))
                fault[n] = f
            tree[net0] = None
            self._subtree.update(sub)
        # Diode-fed rails: from their lowest feeder.
        for _ in range(3):
            for a, b, ln, part in self.links:
                if ln.kind == "diode" and a in vmin and not self.direct_sources(b) \
                        and self.is_rail(b):
                    v = vmin[a] - ln.vf[1]
                    for n in self.group_nets(b):
                        if n not in vmin or v < vmin[n]:
                            vmin[n] = v
                            path[n] = path[a] + [("%s (%.2f V)" % (part.ref, ln.vf[1]),
                                                  -ln.vf[1])]
        return vmin, path, fault, tree

    def subtree_ma(self, net):
        """Current through the branch of a power tree that starts at net (mA)."""
        return self._subtree.get(net, 0.0)


# --- what the firmware drives --------------------------------------------------------------------

def drives(g, active_row):
    """GPIO nets driven in a scan state: {net: set of levels it may drive}."""
    return g.memo(("drives", active_row), lambda: _drives(g, active_row))


def _drives(g, active_row):
    s = g.c.settings
    on = 0 if s["diode"] == "row_cathode" else 1
    levels = {}
    for net, pin in g.gpio.items():
        if net.startswith("ROW_"):
            r = int(net[4:]) - 1
            if r == active_row:
                levels[net] = {on}
            elif s["row_mode"] == "push_pull":
                levels[net] = {1 - on}
        elif net in ("LED_DATA", "BUZZER"):
            levels[net] = {0, 1}
    return levels


def switched_levels(g, levels):
    """levels, plus the emitter nets of followers at the level of the GPIO behind them."""
    out = dict(levels)
    for emitter, (gpio, part) in g.follows.items():
        if gpio in levels and len(levels[gpio]) == 1:
            out[emitter] = set(levels[gpio])
        else:
            out.setdefault(emitter, {0})        # not driven high: pulled down, off
    return out


# --- voltages a net can reach --------------------------------------------------------------------

def links_any_setting(c, g=None):
    """The circuit's links, with every position of a switch that selects a supply at once
    (once per graph, given g)."""
    if g is not None:
        return g.memo("links_any_setting", lambda: links_any_setting(c))
    links = []
    for part in c.parts.values():
        positions = part.type.ratings.get("positions")
        lns = P.selector_links(positions) if positions else part.links()
        for ln in lns:
            a, b = part.net.get(ln.a), part.net.get(ln.b)
            if a and b and a != b:
                links.append((a, b, ln, part))
    return links


def _propagation_edges(links, up):
    out, res = {}, {}
    for a, b, ln, part in links:
        k = ln.kind
        if k == "resistor":
            res.setdefault(a, []).append((b, ln.ohms, part))
            res.setdefault(b, []).append((a, ln.ohms, part))
        elif k in ("wire", "fuse", "switch"):
            out.setdefault(a, []).append((b, ln, part))
            out.setdefault(b, []).append((a, ln, part))
        elif k in ("diode", "base"):
            if up:
                out.setdefault(a, []).append((b, ln, part))
            else:
                out.setdefault(b, []).append((a, ln, part))
        elif k in ("transistor", "protector"):
            out.setdefault(a, []).append((b, ln, part))
    return out, res


def propagate(g, seeds, side, links, origin=None):
    """The highest (side > 0) or lowest (side < 0) voltage every net can reach from seeds
    ({net: volts}, held fixed): through wires, fuses and contacts (closed or open), forward
    diodes and base-emitter junctions, a transistor's collector to its emitter, a protector's
    window, and resistor dividers (a node on resistors takes their weighted mean, the other
    ends counted at the value reached or at their rail; a rail itself only moves through
    conductors). Returns ({net: volts}, {net: how})."""
    up = side > 0
    val = dict(seeds)
    via = {n: (origin[n] if origin else n, None, "") for n in seeds}
    out, res = g.memo(("propagate", id(links), up), lambda: _propagation_edges(links, up))

    bases = {}

    def base(n):
        if n not in bases:
            rng = g.rail(n) if n in g.groups else None
            bases[n] = (rng[1] if up else rng[0]) if rng else 0.0
        return bases[n]
    todo = list(seeds)
    updates = {}

    def offer(n, v, x, part, note=""):
        if n in seeds or (n in val and (v <= val[n] + 1e-9 if up else v >= val[n] - 1e-9)):
            return
        updates[n] = updates.get(n, 0) + 1
        if updates[n] > 200:                # a resistor loop creeping up: close enough
            return
        val[n], via[n] = v, (via[x][0], part.ref, note)
        todo.append(n)
    while todo:
        x = todo.pop()
        vx = val[x]
        for y, ln, part in out.get(x, ()):
            k = ln.kind
            if k in ("wire", "fuse", "switch"):
                offer(y, vx, x, part)
            elif k in ("diode", "base"):
                offer(y, vx - ln.vf[0] if up else vx + ln.vf[0], x, part, " (diode)")
            elif k == "transistor":
                if up:
                    offer(y, vx, x, part)
            elif k == "protector":
                w = g.windows.get(part.ref)
                if w is None:
                    continue                    # never turns on
                if up and vx >= w[0]:
                    offer(y, min(vx, w[3]), x, part, " (passes up to %.2f V)" % w[3])
                elif not up:
                    offer(y, max(vx, 0.0), x, part)
        for n, r0, p0 in res.get(x, ()):
            if n in seeds or g.is_rail(n):
                continue                    # a rail is held by its source, not by resistors
            nb = res[n]
            w = sum(1.0 / r for m, r, p in nb)
            v = sum((val[m] if m in val else base(m)) / r for m, r, p in nb) / w
            if n in val and (v <= val[n] + 1e-9 if up else v >= val[n] - 1e-9):
                continue                    # no better: offer() would refuse it
            src = [(m, r, p) for m, r, p in nb if m in val]
            m0, r1, p1 = max(src, key=lambda t: val[t[0]] if up else -val[t[0]])
            offer(n, v, m0, p1, " (%s)" % ohms(r1))
    return val, {n: o if ref is None else "%s through %s%s" % (o, ref, note)
                 for n, (o, ref, note) in via.items()}


# --- a cut-off's window, from the resistors fitted on its threshold pins -------------------------

INF = float("inf")


def cutoff_window(g, part):
    """(lowest turn-on, highest turn-on, lowest turn-off, highest turn-off) input volts of an
    over- / under-voltage cut-off (LTC4365): it turns on while its UV pin is above, and off
    while its OV pin is above its threshold (vref), each pin's voltage set by the resistors
    around it from the input, at every corner of their tolerance. None: it never turns on
    (its enable pin is not held high). A threshold pin that no resistor ties to the input
    floats: anything from 0 to infinity."""
    r = part.type.ratings
    pins = part.type.pins
    for name, spec in pins.items():
        if spec.enable is not None and g.level(part.net.get(name)) != spec.enable:
            return None
    vin = part.net.get(next(ln.a for ln in part.links() if ln.kind == "protector"))
    out = []
    for pin in r["thresholds"]:
        net = part.net.get(pin)
        lims = _crossings(g, net, vin, r["vref"]) if net and vin else None
        out += lims if lims else [0.0, INF]
    return tuple(out)


def _crossings(g, net, vin, vref):
    """(lowest, highest) input volts at which net crosses vref, over the resistors'
    tolerance corners, or None if the input does not set it."""
    if g.level(net) is not None or g.groups.get(net) == g.groups.get(vin):
        lvl = 1 if g.groups.get(net) == g.groups.get(vin) else g.level(net)
        return [0.0, 0.0] if lvl else [INF, INF]
    fixed = {}
    nodes, todo, res = {net}, [net], []
    while todo:                             # the resistor network around net
        n = todo.pop()
        for a, b, ln, p in g.links:
            if ln.kind != "resistor" or n not in (a, b):
                continue
            m = b if a == n else a
            res.append((a, b, ln.ohms, p.type.ratings.get("tol", 0.01)))
            if m in nodes or m in fixed:
                continue
            if g.groups.get(m) == g.groups.get(vin):
                fixed[m] = "in"
            elif g.is_rail(m):
                fixed[m] = sum(g.rail(m)) / 2
            else:
                nodes.add(m)
                todo.append(m)
    if "in" not in fixed.values():
        return None
    res = list(dict.fromkeys(res))
    if len(res) > 8:
        return None
    key = (net, tuple(res), tuple(sorted(fixed.items())), tuple(vref))
    if key not in _CROSSINGS:
        if len(_CROSSINGS) > 256:
            _CROSSINGS.clear()
        _CROSSINGS[key] = _corners(net, nodes, fixed, res, vref)
    return _CROSSINGS[key]


_CROSSINGS = {}              # the same resistor network gives the same crossings


def _corners(net, nodes, fixed, res, vref):
    ts = []
    for corner in range(1 << len(res)):
        ohms = [r * (1 + t if corner >> i & 1 else 1 - t) for i, (a, b, r, t) in enumerate(res)]
        a0 = _node_voltage(net, nodes, fixed, res, ohms, 0.0)
        a1 = _node_voltage(net, nodes, fixed, res, ohms, 1.0)
        if a0 is None:
            return None
        slope = a1 - a0
        for v in vref:
            ts.append((v - a0) / slope if slope > 1e-12 else (0.0 if a0 >= v else INF))
    return [min(ts), max(ts)]


def _node_voltage(net, nodes, fixed, res, ohms, vin):
    """Voltage of net with the input at vin (nodal analysis, Gaussian elimination)."""
    order = sorted(nodes)
    idx = {n: i for i, n in enumerate(order)}
    size = len(order)
    m = [[0.0] * (size + 1) for _ in range(size)]
    for (a, b, r, t), ohm in zip(res, ohms):
        gval = 1.0 / ohm
        for x, y in ((a, b), (b, a)):
            if x not in idx:
                continue
            i = idx[x]
            m[i][i] += gval
            if y in idx:
                m[i][idx[y]] -= gval
            else:
                m[i][size] += gval * (vin if fixed[y] == "in" else fixed[y])
    for col in range(size):
        piv = max(range(col, size), key=lambda i: abs(m[i][col]))
        if abs(m[piv][col]) < 1e-15:
            return None
        m[col], m[piv] = m[piv], m[col]
        for i in range(size):
            if i != col and m[i][col]:
                f = m[i][col] / m[col][col]
                m[i] = [x - f * y for x, y in zip(m[i], m[col])]
    return m[idx[net]][size] / m[idx[net]][idx[net]]
