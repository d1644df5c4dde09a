# Electrical rules about power: sources, rails, fuses, conductors, what a plug can bring in, and
# where the current goes back. Each rule takes the circuit and its Graph (graph.py) and returns
# Violations naming the rule, the place and what is wrong in numbers (erc.py lists them all).
from circuit import parts as P
from circuit.graph import (Violation, links_any_setting, names, pin_name, propagate,
                           ref_span)


def switched_supply(c, g, part, pin):
    """A hall sensor's supply or ground pin fed by a GPIO or a GPIO-driven follower (hall rows):
    hall-row-drive checks it."""
    nets = [part.net.get(p) for p, s in part.type.pins.items() if s.kind in ("supply", "gnd")]
    gpios = g.gpio
    return part.type is P.HALL and any(n in gpios or n in g.follows for n in nets if n)


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
                "one-source", names(g.group_nets(net)),
                "joined to %d sources at once (%s): they push current into each other, and "
                "an external supply feeds 5 V back into the computer's USB port"
                % (len(srcs), ", ".join("%s.%s" % (p.ref, pin_name(p, s)) for n, p, s in srcs))))
    return out


def rule_fused(c, g):
    out = []
    for net, part, spec in g.sources:
        if part.type is not P.SUPPLY_5V:
            continue
        root = g.unfused[net]
        loads = [("%s.%s" % (p.ref, pin)) for n, p, pin in g.pins("supply")
                 if g.unfused[n] == root and p.type is not P.LTC4365]
        loads += ["%s" % p.ref for p in c.parts.values() if p.attrs.get("role") == "feed"
                  and g.unfused.get(p.net.get("A")) == root]
        if loads:
            out.append(Violation("fused", part.ref, "the %.0f A external supply reaches %s "
                                 "without a fuse" % (spec.ma / 1000.0, ", ".join(loads[:4]) +
                                                     (" ..." if len(loads) > 4 else ""))))
    return out


def grouped(rule, found):
    """Violations of rule from [(ref, pin, message)], parts with the same message in one."""
    by = {}
    for ref, pin, msg in found:
        by.setdefault((pin, msg), []).append(ref)
    return [Violation(rule, "%s.%s" % (ref_span(refs), pin),
                      msg if len(refs) == 1 else "%s (%d parts)" % (msg, len(refs)))
            for (pin, msg), refs in sorted(by.items())]


def rule_supply_range(c, g):
    out = []
    for net, part, pin in g.pins("supply"):
        rng = g.rail(net)
        spec = part.spec(pin)
        if rng is None or switched_supply(c, g, part, pin):
            continue
        if rng[0] < spec.v[0] - 1e-9 or rng[1] > spec.v[1] + 1e-9:
            out.append((part.ref, pin, "%s gets %.2f-%.2f V on %s; it needs %.2f-%.2f V"
                        % (part.type.name, rng[0], rng[1], net, spec.v[0], spec.v[1])))
    return grouped("supply-range", out)


def rule_supply_drop(c, g):
    """The lowest voltage at each supply pin at full load, after the user's cable, the fuses and
    switches on the way (a rail within its range at the source can still be too low here)."""
    out = []
    for net, part, pin in g.pins("supply"):
        rng, v = g.rail(net), g.vmin.get(net)
        spec = part.spec(pin)
        if rng is None or v is None or switched_supply(c, g, part, pin):
            continue
        if rng[0] >= spec.v[0] - 1e-9 and v < spec.v[0] - 1e-9:
            steps = ", ".join("%s %+.2f V" % (what, dv) if i else what
                              for i, (what, dv) in enumerate(g.path[net]))
            out.append((part.ref, pin, "%s gets %.2f V on %s at full load (%s); it needs %.2f V"
                        % (part.type.name, v, net, steps, spec.v[0])))
    return grouped("supply-drop", out)


def rule_supply_current(c, g):
    out = []
    for net, part, spec in g.sources:
        if len(g.direct_sources(net)) != 1:
            continue                     # one-source already reports it
        ma = sum(g.load.get(n, 0.0) for n in g.group_nets(net))
        if ma > spec.ma:
            out.append(Violation("supply-current", "%s.%s" % (part.ref, pin_name(part, spec)),
                                 "asked for about %.0f mA, gives %.0f mA" % (ma, spec.ma)))
    return out


def _fuses(g):
    for a, b, ln, part in g.links:
        if ln.kind == "fuse":
            up, down = (a, b) if g.tree.get(b) and g.tree[b][0] == a else (b, a)
            yield part, up, down


def rule_fuse_rating(c, g):
    """A PTC must hold the load when warm (the frame at its hottest) and trip below what its
    supply delivers when cold: otherwise a short never trips it and everything after it has to
    carry the supply's whole current."""
    from circuit.design import AMBIENT_C
    out = []
    for part, up, down in _fuses(g):
        r = part.type.ratings
        src = g.source_of(up)
        load = g.subtree_ma(down)
        hold = 1000.0 * r["hold_a"] * P.derating(AMBIENT_C[1])
        trip = 1000.0 * r["trip_a"] * P.derating(AMBIENT_C[0])
        if load > hold:
            out.append(Violation("fuse-rating", part.ref,
                                 "%s holds %.0f mA at %d C but carries about %.0f mA: it trips "
                                 "in normal use" % (r["model"], hold, AMBIENT_C[1], load)))
        if src and trip > src[2].ma_fault:
            out.append(Violation("fuse-rating", part.ref,
                                 "%s trips only above %.0f mA at %d C; %s.%s gives at most %.0f "
                                 "mA, so a short never trips it" % (
                                     r["model"], trip, AMBIENT_C[0], src[1].ref,
                                     pin_name(src[1], src[2]), src[2].ma_fault)))
    return out


def _through_ma(c, g, part):
    """The most current that can flow through a connector or switch before a fuse trips or the
    source limits (mA): the largest on any of its pins' nets."""
    return max([g.fault_ma.get(n, 0.0) for n in part.net.values()] or [0.0])


def rule_conductor_rating(c, g):
    out = []
    for part in c.parts.values():
        r = part.type.ratings
        if r.get("usb_amps"):                # the Pico's own micro-USB socket
            vbus = part.type.pins["VBUS"]
            ma = vbus.ma_fault if vbus.kind == "source" else g.fault_ma.get(part.net.get("VBUS"), 0)
            if ma > 1000.0 * r["usb_amps"]:
                out.append(Violation("conductor-rating", "%s.VBUS" % part.ref,
                                     "up to %.1f A can flow through the Pico's micro-USB socket, "
                                     "rated %.1f A" % (ma / 1000.0, r["usb_amps"])))
            continue
        if "amps" not in r:
            continue
        ma = _through_ma(c, g, part)
        if ma <= 0:
            continue
        where = part.ref
        if ma > 1000.0 * r["amps"]:
            out.append(Violation("conductor-rating", where,
                                 "its contacts carry %.1f A; up to %.1f A can flow through them "
                                 "before a fuse trips" % (r["amps"], ma / 1000.0)))
        awg = part.attrs.get("awg")
        if awg is None:
            continue
        if "awg" in r and not r["awg"][1] <= awg <= r["awg"][0]:
            out.append(Violation("conductor-rating", where,
                                 "%s crimps take %d-%d AWG; its harness is %d AWG (%.2g mm2)"
                                 % (r.get("family", part.type.name), r["awg"][0], r["awg"][1],
                                    awg, P.MM2_OF_AWG[awg])))
        elif ma > 1000.0 * P.WIRE[awg][1]:
            out.append(Violation("conductor-rating", where,
                                 "its %d AWG wires carry %.1f A; up to %.1f A can flow through "
                                 "them before a fuse trips" % (awg, P.WIRE[awg][1], ma / 1000.0)))
    return out


# --- what a plug can bring in --------------------------------------------------------------------

def _victims(c, g, vhi, vlo):
    """Parts a fault voltage damages: [(ref, '.pin', or '' for a capacitor, its limit)]."""
    out = []
    for net in set(vhi) | set(vlo):
        hi, lo = vhi.get(net, 0.0), min(vlo.get(net, 0.0), 0.0)
        for ref, pin in c.pins_on(net):
            part, spec = c.parts[ref], c.pin(ref, pin)
            lim = None
            if spec.kind in ("supply", "pas") and spec.vabs:
                lim = spec.vabs
            elif spec.kind == "gpio":
                lim = (spec.vmin, spec.vmax)
            elif spec.kind == "in" and spec.vmax:
                lim = (spec.vmin if spec.vmin is not None else -0.5, spec.vmax)
            if lim and (hi > lim[1] + 1e-9 or lo < lim[0] - 1e-9):
                out.append((ref, "." + pin, "%.1f to %.1f V" % (lim[0], lim[1])))
    for p in caps(c):
        n1, n2 = p.net.get("1"), p.net.get("2")
        if not (n1 in vhi or n1 in vlo or n2 in vhi or n2 in vlo):
            continue
        hi1, hi2 = vhi.get(n1, 0.0), vhi.get(n2, 0.0)
        lo1, lo2 = min(vlo.get(n1, 0.0), 0.0), min(vlo.get(n2, 0.0), 0.0)
        r = p.type.ratings
        if max(hi1 - lo2, hi2 - lo1) > r["rated_v"] or \
                (r["polarised"] and max(hi2 - lo1 if n2 in vhi else 0.0,
                                        -lo1 if n1 in vlo else 0.0) > 1.0):
            out.append((p.ref, "", "%s%.0f V" % ("polarised, " if r["polarised"] else "",
                                                 r["rated_v"])))
    return out


def _victim_text(hit):
    """[(ref, '.pin' or '', limit)] -> 'C65 (polarised, 10 V), LED1-LED63.VDD (-0.5 to 5.5 V)
    ...': parts with the same pin and limit in one span, at most five spans."""
    by = {}
    for ref, pin, lim in hit:
        by.setdefault((pin, lim), set()).add(ref)
    spans = sorted("%s%s (%s)" % (ref_span(refs), pin, lim) for (pin, lim), refs in by.items())
    return ", ".join(spans[:5]) + (" and %d more" % (len(spans) - 5) if len(spans) > 5 else "")


def _clamp_volts(g, net):
    """The lowest clamping voltage of a TVS from net's rail to ground, or None."""
    root = g.groups.get(net)
    vcs = [p.type.ratings["vc"] for a, b, ln, p in g.links if ln.kind == "clamp" and
           ((g.groups[a] == root and g.is_ground(b)) or (g.groups[b] == root and g.is_ground(a)))]
    return min(vcs) if vcs else None


def _volts(c, g, seeds, side, links):
    """propagate()'s voltages over links_any_setting(), shared between graphs with the same
    links, rails, cut-off windows and supply switches (the fault space's many checks)."""
    switches = g.memo("switches", lambda: (
        tuple(sorted((p.ref, tuple(sorted(p.net.items()))) for p in c.parts.values()
                     if p.type.ratings.get("positions"))), repr(sorted(g.windows.items()))))
    key = (tuple(sorted(seeds.items())), side) + switches
    return g.shared(("volts",) + key, lambda: propagate(g, seeds, side, links)[0])


def rule_input_protection(c, g):
    """What a plug can bring - steadily, and ringing at hot-plug through the cable's
    inductance (up to twice the step, less where a TVS clamps it) - damages no part; a TVS
    stays off at anything a plug brings steadily; a cut-off passes the board's own supply."""
    out = []
    links = links_any_setting(c, g)

    def report(part, what, lo, hi, hit):
        out.append(Violation(
            "input-protection", part.ref, "%s can receive %s: %.0f to %.0f V reaches %s" % (
                part.ref, what, lo, hi, _victim_text(hit))))
    for part in c.parts.values():
        r = part.type.ratings
        if "receives" not in r:
            continue
        lo, hi = r["receives"]
        for pin in [p for p in r["entry"] if part.net.get(p)]:
            net = part.net[pin]
            vhi = _volts(c, g, {net: hi}, +1, links)
            # from no lower than 0 V, nothing goes below 0 V: no part is hurt from below
            vlo = _volts(c, g, {net: lo}, -1, links) if lo < 0 else {}
            hit = _victims(c, g, vhi, vlo)
            if hit:
                report(part, r["what"], lo, hi, hit)
            ring = r.get("ringing")
            if hit or not ring:
                continue
            clamp = _clamp_volts(g, net)
            peak = ring * max(hi, -lo)
            if clamp is not None:
                peak = min(peak, clamp)
            vhi = _volts(c, g, {net: peak}, +1, links)
            vlo = _volts(c, g, {net: -peak}, -1, links)
            hit = _victims(c, g, vhi, vlo)
            if hit:
                report(part, "%s, ringing at hot-plug to %s" % (
                    r["what"], "%.0f V%s" % (peak, " (clamped)" if clamp is not None and
                                              peak == clamp else "")), -peak, peak, hit)
    for a, b, ln, part in g.links:
        if ln.kind == "clamp":                   # a TVS conducts at what a plug brings
            rng = _plug_range(c, g, a)
            if rng and max(rng[1], -rng[0]) >= part.type.ratings["vbr"][0]:
                out.append(Violation("input-protection", part.ref,
                                     "its breakdown starts at %.1f V; a plug brings %.0f V "
                                     "steadily: it conducts and overheats" % (
                                         part.type.ratings["vbr"][0], max(rng[1], -rng[0]))))
        if ln.kind != "protector":              # a cut-off must pass the board's own supply
            continue
        w = g.windows.get(part.ref)
        rng, v = g.rail(a), g.vmin.get(a)
        if not rng or v is None:
            continue
        if w is None:
            out.append(Violation("input-protection", part.ref,
                                 "it never turns on: the board's own supply never gets through"))
        elif v < w[1] or rng[1] > w[2]:
            out.append(Violation("input-protection", part.ref,
                                 "its input sees %.2f-%.2f V from the board's own supply, but it "
                                 "passes only %.2f-%.2f V for sure" % (v, rng[1], w[1], w[2])))
        else:                                    # ... and keeps out what its loads cannot run on
            need = max([(p.spec(pin).v[0], "%s.%s" % (p.ref, pin)) for n, p, pin in
                        g.pins("supply") if g.groups.get(n) == g.groups.get(b)] or [(0, "")])
            if w[0] < need[0]:
                out.append(Violation("input-protection", part.ref,
                                     "it turns on from %.2f V; %s needs %.2f V: an adapter that "
                                     "sags lower gets through" % (w[0], need[1], need[0])))
    return out


def _plug_range(c, g, net):
    """(lowest, highest) volts a connector's entry brings steadily to net's rail, or None."""
    root = g.groups.get(net)
    for part in c.parts.values():
        r = part.type.ratings
        if "receives" in r and any(g.groups.get(part.net.get(p)) == root for p in r["entry"]):
            return r["receives"]
    return None


# --- where current may not go --------------------------------------------------------------------

def rule_backfeed(c, g):
    """No source can push current through a diode (or a chain of diodes and diode-fed rails)
    into the rail of another source: an external supply into a computer's USB port, USB into
    the external supply."""
    direct = {}
    for net, part, spec in g.sources:
        if len(g.direct_sources(net)) == 1:
            direct[g.groups[net]] = (part, spec)
    ground = g.groups.get("GND")
    edges = {}
    for a, b, ln, part in g.links:
        ga, gb = g.groups[a], g.groups[b]
        if ln.kind == "diode" and ga != gb and gb != ground:
            edges.setdefault(ga, []).append((gb, part))
    out = []
    for root, (part, spec) in sorted(direct.items(), key=lambda kv: kv[1][0].ref):
        seen, todo = {root: []}, [root]
        while todo:
            x = todo.pop()
            for y, d in edges.get(x, ()):
                if y in seen:
                    continue
                seen[y] = seen[x] + [d.ref]
                if y in direct:
                    other = direct[y][0]
                    out.append(Violation(
                        "backfeed", "%s -> %s" % (part.ref, other.ref),
                        "%s.%s pushes current into %s's rail (%s) through %s" % (
                            part.ref, pin_name(part, spec), other.ref,
                            names(g.group_nets(other.net[pin_name(other, direct[y][1])])),
                            " and ".join(seen[y]))))
                else:
                    todo.append(y)
    return out


def rule_diode_orientation(c, g):
    """Diodes with a job point the way the job needs: a feed diode from a source's rail into a
    diode-fed input, a flyback diode with its band to the coil's supply, the two MOSFETs of a
    reverse-polarity cut-off with their body diodes back to back (sources joined)."""
    out = []
    blocks = []
    for part in c.parts.values():
        role = part.attrs.get("role")
        if role == "feed":
            a, k = part.net.get("A"), part.net.get("K")
            if not (a and k and g.direct_sources(a) and not g.direct_sources(k)):
                out.append(Violation("diode-orientation", part.ref,
                                     "fitted backwards: its anode is on %s and its band on %s; it "
                                     "is there to feed a diode-fed input from a supply" % (a, k)))
        elif role == "flyback":
            a, k = part.net.get("A"), part.net.get("K")
            collectors = {p.net.get("C") for p in c.parts.values()
                          if p.type is P.NPN_2N3904}
            if a not in collectors or k in collectors:
                out.append(Violation("diode-orientation", part.ref,
                                     "its band is on %s, the transistor's side: it conducts "
                                     "straight from the coil's supply into the transistor "
                                     "whenever it switches on" % k))
        elif role == "block":
            blocks.append(part)
    if len(blocks) == 2 and blocks[0].net.get("S") != blocks[1].net.get("S"):
        out.append(Violation("diode-orientation", "%s, %s" % (blocks[0].ref, blocks[1].ref),
                             "their sources are not joined: one body diode conducts from the "
                             "input to the output, and a reversed or over-voltage supply gets "
                             "through"))
    return out


def _ground_path(g, start, goal):
    """Ground nets from start to goal along wires (net ties), or None."""
    adj = {}
    for a, b, ln, part in g.links:
        if ln.kind == "wire" and g.is_ground(a) and g.is_ground(b):
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
    prev, todo = {start: None}, [start]
    while todo:
        n = todo.pop(0)
        if n == goal:
            path = []
            while n is not None:
                path.append(n)
                n = prev[n]
            return path[::-1]
        for m in adj.get(n, ()):
            if m not in prev:
                prev[m] = n
                todo.append(m)
    return None


def rule_ground_return(c, g):
    """The LED chain's current goes back to its supply's return without passing through the
    Pico (its ground pins and its USB socket carry the Pico's own current only)."""
    leds = [p for p in c.parts.values() if p.type is P.WS2812B]
    if not leds or "U1" not in c.parts:
        return []
    vdd = leds[0].net.get("VDD")
    ma = c.settings["led_budget_ma"]
    src = g.source_of(vdd) if vdd else None
    if src is None and vdd in g.groups:   # a diode-fed rail: through the Pico's own diode?
        root = g.groups[vdd]
        inner = [p for a, b, ln, p in g.links if ln.kind == "diode" and p.ref == "U1" and
                 g.groups[b] == root and g.groups[a] != root]
        if inner:
            return [Violation("ground-return", "U1.VSYS",
                              "the LED chain (up to %d mA) hangs off the Pico's VSYS: its "
                              "current comes through the Pico's micro-USB socket and its own "
                              "diode" % ma)]
    if src is None:
        return []                         # power-pins reports an unpowered chain
    net0, part, spec = src
    if part.ref == "U1":
        return [Violation("ground-return", "U1.%s" % pin_name(part, spec),
                          "the LED chain (up to %d mA) hangs off the Pico's VBUS: its current "
                          "comes through the Pico's micro-USB socket and goes back through the "
                          "Pico's ground" % ma)]
    pico = c.parts["U1"].net.get("GND")
    ret = part.net.get(spec.ret)
    out = []
    for vss in sorted({p.net.get("VSS") for p in leds} - {None}):
        path = _ground_path(g, vss, ret)
        if path is None or pico in path:
            out.append(Violation("ground-return", vss,
                                 "the LED chain's return (up to %d mA) reaches %s.%s %s: bring "
                                 "it and the supply's return to one star point" % (
                                     ma, part.ref, spec.ret, "through the Pico's ground (%s)"
                                     % " -> ".join(path) if path else "not at all")))
    return out


# --- capacitors ----------------------------------------------------------------------------------

USB_BULK_LIMIT_UF = 220.0    # USB 2.0 allows 10 uF at plug-in; 100-220 uF is the compromise
CAP_DERATING = 1.25


def caps(c):
    for part in c.parts.values():
        if part.type.name == "capacitor":
            yield part


def rule_usb_capacitance(c, g):
    out = []
    for net, part, spec in g.sources:
        if pin_name(part, spec) != "VBUS":
            continue
        root = g.groups[net]
        uf = sum(p.type.ratings["uf"] for p in caps(c)
                 if g.groups.get(p.net.get("1")) == root or g.groups.get(p.net.get("2")) == root)
        if uf > USB_BULK_LIMIT_UF:
            out.append(Violation("usb-capacitance", names(g.group_nets(net)),
                                 "%.0f uF on the USB port's 5 V: it charges at plug-in with up "
                                 "to %.0fx the charge USB allows (10 uF); keep it at most "
                                 "%.0f uF" % (uf, uf / 10, USB_BULK_LIMIT_UF)))
    return out


def rule_capacitor_voltage(c, g):
    out = []
    for p in caps(c):
        v = []
        for pin in ("1", "2"):
            rng = g.rail(p.net[pin]) if pin in p.net else None
            v.append(rng[1] if rng else 3.3)
        across = abs(v[0] - v[1])
        if p.type.ratings["rated_v"] < across * CAP_DERATING:
            out.append(Violation("capacitor-voltage", p.ref, "rated %.0f V for %.2f V"
                                 % (p.type.ratings["rated_v"], across)))
    return out


def rule_bypass(c, g):
    """Every supply pin whose datasheet asks for a ceramic capacitor has its own, from the pin's
    net to the part's ground net."""
    free = {}                             # {nets: [ceramic capacitors across them]}
    for p in caps(c):
        if not p.type.ratings["polarised"]:
            free.setdefault(frozenset(p.net.values()), []).append(p)
    missing = {}
    for part in c.parts.values():
        gnd = next((part.net.get(n) for n, s in part.type.pins.items() if s.kind == "gnd"), None)
        for pin, spec in part.type.pins.items():
            if spec.kind != "supply" or not spec.bypass_uf or pin not in part.net:
                continue
            pool = free.get(frozenset((part.net[pin], gnd)), [])
            hit = next((cap for cap in pool if cap.type.ratings["uf"] >= spec.bypass_uf * 0.9),
                       None)
            if hit:
                pool.remove(hit)
            else:
                missing.setdefault((part.type.name, pin, spec.bypass_uf), []).append(part)
    out = []
    for (name, pin, uf), parts in sorted(missing.items()):
        refs = [p.ref for p in parts]
        out.append(Violation("bypass", "%s.%s" % (ref_span(refs), pin),
                             "no %.0f nF ceramic from %s to %s at the pin%s (%s datasheet)" % (
                                 uf * 1000, parts[0].net[pin], next(
                                     (parts[0].net.get(n) for n, s in parts[0].type.pins.items()
                                      if s.kind == "gnd"), "GND"),
                                 " of %d parts" % len(parts) if len(parts) > 1 else "", name)))
    return out
