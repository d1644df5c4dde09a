# Electrical rules about the signals on the Pico's pins and the logic inputs: voltages, fights
# between driven pins, loads on outputs, logic levels, inputs nobody drives, the I2C bus's rise
# time and ESD protection on what a user touches.
from circuit import parts as P
from circuit.graph import Violation, drives, names, propagate, ref_span, span, switched_levels

LOW_OHMS = 1000.0            # a path with less resistance than this is "low impedance"
GPIO_CAP_LIMIT_UF = 0.01
# I2C-bus specification (NXP UM10204): rise time 30-70 % at most 1000 ns (Standard mode,
# 100 kHz), 300 ns (Fast mode, 400 kHz), 120 ns (Fast-mode Plus, 1 MHz); a pin sinks 3 mA at
# 0.4 V (Standard and Fast mode).
I2C_RISE_NS = ((100000, 1000.0), (400000, 300.0), (1000000, 120.0))
I2C_SINK_MA = 3.0
BOARD_PF = 10.0              # perfboard wiring at the Pico


def rule_gpio_voltage(c, g):
    """No net that can reach more than the RP2040's 3.6 V (or less than -0.5 V) touches a GPIO:
    rails and logic outputs at their supply's maximum, through resistors (dividers counted),
    contacts, diodes and transistors."""
    return g.shared("gpio-voltage", lambda: _gpio_voltage(c, g))


def _gpio_voltage(c, g):
    seeds, origin = {}, {}
    for net in c.nets:
        rng = g.rail(net)
        if rng:
            seeds[net], origin[net] = rng[1], "rail " + names(g.group_nets(net))
    for net, part, pin in g.pins("out"):
        sup = part.net.get(part.spec(pin).supply)
        rng = g.rail(sup) if sup else None
        if rng and rng[1] > seeds.get(net, -1):
            seeds[net], origin[net] = rng[1], "%s.%s" % (part.ref, pin)
    vmax, via = propagate(g, seeds, +1, g.links, origin)
    out = []
    for net, pin in sorted(g.gpio.items()):
        if vmax.get(net, 0) > P.RP2040["vmax"]:
            out.append(Violation("gpio-voltage", "%s (%s)" % (pin, net),
                                 "can reach %.2f V from %s; RP2040 pins take at most %.1f V"
                                 % (vmax[net], via[net], P.RP2040["vmax"])))
    return out


def powered(c, part, levels, g):
    """A hall sensor has power when its VCC net is high and its GND net low (an unsoldered
    pin: no power)."""
    def level(net):
        if net is None:
            return None
        if net in levels and len(levels[net]) == 1:
            return next(iter(levels[net]))
        rng = g.rail(net)
        if rng:
            return 1 if rng[0] > 1.0 else 0
        return None
    return level(part.net.get("VCC")) == 1 and level(part.net.get("GND")) == 0


def flow_edges(c, g, levels, closed, low_ohms=LOW_OHMS):
    """Directed edges current can take: {net: [(net, part)]}. closed: which contacts are
    closed, "all", "sensors" (the matrix's) or "none". Built once per graph for each set of
    hall sensors that have power."""
    levels = switched_levels(g, levels)
    on = tuple(sorted(part.ref for a, b, ln, part in g.links if ln.kind == "sensor" and
                      powered(c, part, levels, g)))
    return g.memo(("flow", closed, low_ohms, on), lambda: _flow_edges(g, closed, low_ohms,
                                                                       set(on)))


def _flow_edges(g, closed, low_ohms, powered_refs):
    adj = {}

    def edge(x, y, part):
        adj.setdefault(x, []).append((y, part))
    for a, b, ln, part in g.links:
        k = ln.kind
        if k in ("diode", "base"):
            edge(a, b, part)
        elif k == "switch":
            if closed == "all" or (closed == "sensors" and part.type in MATRIX_SENSORS):
                edge(a, b, part)
                edge(b, a, part)
        elif k == "sensor":
            if closed != "none" and part.ref in powered_refs:
                edge(a, b, part)
        elif k == "resistor":
            if ln.ohms < low_ohms:
                edge(a, b, part)
                edge(b, a, part)
        elif k == "transistor":
            edge(a, b, part)
        elif k in ("wire", "fuse", "protector"):
            edge(a, b, part)
            edge(b, a, part)
    return adj


MATRIX_SENSORS = (P.REED, P.HALL)


def reach(adj, start, skip=None):
    """{net: (previous net, part)} of every net reachable from start; skip: a part whose
    edges are not taken."""
    seen = {start: None}
    todo = [start]
    while todo:
        n = todo.pop()
        for m, part in adj.get(n, ()):
            if m not in seen and part is not skip:
                seen[m] = (n, part)
                todo.append(m)
    return seen


def reach_one_short(adj, start, diodes):
    """reach() when any one diode of diodes (parts) may be shorted: {net: the shorted diode
    the path needs, or None}."""
    back = {}
    for x, edges in adj.items():
        for y, part in edges:
            if part in diodes:
                back.setdefault(y, []).append((x, part))
    seen = {start: None}
    todo = [start]
    while todo:                        # first without a short
        n = todo.pop()
        for m, part in adj.get(n, ()):
            if m not in seen:
                seen[m] = None
                todo.append(m)
    todo = [(n, None) for n in seen]
    shorted = {}
    while todo:                        # then one short on the way
        n, used = todo.pop()
        steps = [(m, used) for m, part in adj.get(n, ())]
        if used is None:
            steps += [(m, part) for m, part in back.get(n, ())]
        for m, u in steps:
            if m not in seen and m not in shorted:
                shorted[m] = u
                todo.append((m, u))
    seen.update(shorted)
    return seen


def matrix_diodes(c):
    return [p for p in c.parts.values() if p.attrs.get("role") == "matrix"]


def matrix_diodes_of(g):
    return g.memo("matrix_diodes", lambda: matrix_diodes(g.c))


def rule_gpio_fight(c, g):
    """No GPIO driven high can be joined to one driven low (through closed sensors and any one
    shorted matrix diode), and no part's output drives a net a GPIO drives."""
    out = g.shared("gpio-fight", lambda: _fights(c, g))
    driven = driven_levels(c, g)
    for net, part, pin in g.pins("out"):
        if net in driven and (part.ref, pin) != ("U1", g.gpio.get(net)):
            out.append(Violation("gpio-fight", "%s.%s" % (part.ref, pin),
                                 "an output on %s, which %s drives: they fight" % (
                                     net, g.gpio[net])))
        elif g.is_rail(net):
            out.append(Violation("gpio-fight", "%s.%s" % (part.ref, pin),
                                 "an output tied to the rail %s: it shorts it whenever it "
                                 "drives the other level" % net))
    return out


def _fights(c, g):
    found = {}
    diodes = set(matrix_diodes_of(g))
    for r in range(9):
        levels = drives(g, r)
        highs = [n for n in levels if 1 in levels[n]]
        lows = {n for n in levels if 0 in levels[n]}
        if not highs or not lows:
            continue
        adj = flow_edges(c, g, levels, "all")
        for h in highs:
            seen = reach_one_short(adj, h, diodes)
            for lo in lows:
                if lo != h and lo in seen:
                    old = found.get((h, lo))
                    if old is None or (old[1] is not None and seen[lo] is None):
                        found[(h, lo)] = (r, seen[lo])
    out = []
    if found:
        (h, lo), (r, fault) = sorted(found.items(), key=lambda kv: (kv[1][1] is not None,
                                                                     kv[0]))[0]
        why = "with %s shorted and the sensors closed" % fault.ref if fault else \
            "with the sensors closed"
        nets = sorted({n for pair in found for n in pair})
        out.append(Violation("gpio-fight", span(nets),
                             "%d pairs of pins can short each other, e.g. %s (driven high) joins "
                             "%s (driven low) %s while rank %d is scanned"
                             % (len(found), h, lo, why, r + 1)))
    return out


def rule_gpio_capacitance(c, g):
    bad = []
    driven = {}
    for r in range(9):
        for net in drives(g, r):
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
    return [Violation("gpio-capacitance", span([n for n, uf in bad]),
                      "%.0f nF on a switched GPIO output: every switch charges it through the "
                      "pin (short pulses of tens of mA)" % (max(uf for n, uf in bad) * 1000))]


# --- current out of and into a GPIO --------------------------------------------------------------

def driven_levels(c, g):
    """{GPIO net: levels the firmware drives it to}: rows as their mode has them, the LED data
    and the buzzer both ways, the I2C lines low (open drain)."""
    s = c.settings
    on = 0 if s["diode"] == "row_cathode" else 1
    out = {}
    for net in g.gpio:
        if net.startswith("ROW_"):
            out[net] = {0, 1} if s["row_mode"] == "push_pull" else {on}
        elif net in ("LED_DATA", "BUZZER"):
            out[net] = {0, 1}
        elif net.startswith("I2C_"):
            out[net] = {0}
    return out


def _links_by_net(g):
    adj = {}
    for a, b, ln, part in g.links:
        adj.setdefault(a, []).append((b, ln, part, True))
        adj.setdefault(b, []).append((a, ln, part, False))
    return adj


def pin_current_ma(c, g, net, level, stop):
    """Static current a GPIO driven to level sources (1) or sinks (0), in mA: along resistors,
    contacts (closed), diodes and base-emitter junctions the right way round to a rail (a
    transistor's emitter counted at 0 V, as it is at switch-on), plus hall sensors the pin
    powers directly. stop: other driven nets (not followed)."""
    v = P.RP2040["iovdd"] if level else 0.0
    total = 0.0
    for ref, pin in c.pins_on(net):
        part = c.parts[ref]
        if part.type is P.HALL and (pin, level) in (("VCC", 1), ("GND", 0)):
            total += P.HALL.ratings["burst_ma"]
    adj = g.memo("links_by_net", lambda: _links_by_net(g))
    todo = [(net, 0.0, 0.0, (net,))]
    while todo:
        n, r, drop, seen = todo.pop()
        for m, ln, part, forward in adj.get(n, ()):
            if m in seen:
                continue
            k = ln.kind
            if k in ("diode", "base"):
                if forward != bool(level):
                    continue
                if k == "base":
                    total += max(0.0, v - ln.vf[0] - drop) / max(r, 1.0) * 1000 if level else 0
                    continue
                r2, d2 = r, drop + ln.vf[0]
            elif k == "resistor":
                r2, d2 = r + ln.ohms, drop
            elif k in ("wire", "fuse", "switch"):
                r2, d2 = r, drop
            else:
                continue
            if g.is_rail(m):
                rng = g.rail(m)
                vr = rng[0] if level else rng[1]
                total += max(0.0, abs(v - vr) - d2) / max(r2, 1.0) * 1000
            elif m not in stop and len(seen) < 8:
                todo.append((m, r2, d2, seen + (m,)))
    return total


def rule_gpio_current(c, g):
    """No GPIO is asked for more current than its drive strength gives (RP2040 datasheet: VOH
    and VOL are specified at the 2, 4, 8 or 12 mA the pad is set to; the firmware sets 4 mA,
    12 mA for hall rows)."""
    return g.shared("gpio-current", lambda: _gpio_current(c, g))


def _gpio_current(c, g):
    s = c.settings
    levels = driven_levels(c, g)
    gpios = g.gpio
    bad = {}                             # message -> nets (the 9 rows alike: one report)
    for net in sorted(levels):
        limit = s["row_drive_ma"] if net.startswith("ROW_") else 4
        stop = set(levels) - {net}
        for level in sorted(levels[net]):
            ma = pin_current_ma(c, g, net, level, stop)
            if ma > limit + 1e-6:
                msg = "%s about %.0f mA when driven %s; the pad gives %d mA" % (
                    "sources" if level else "sinks", ma, "high" if level else "low", limit)
                bad.setdefault(msg, []).append(net)
    out = []
    for msg, nets in sorted(bad.items()):
        nets.sort(key=lambda n: int(gpios[n][2:]))
        where = span(nets) if len(nets) > 1 else "%s (%s)" % (gpios[nets[0]], nets[0])
        out.append(Violation("gpio-current", where, msg))
    return out


def rule_logic_levels(c, g):
    out = []
    gpio = g.gpio
    adj = flow_edges(c, g, {}, "none", low_ohms=10e3)
    for net, part, pin in g.pins("in"):
        spec = part.spec(pin)
        if g.is_rail(net):
            continue                      # tied to a rail: a static level
        vih = spec.vih
        if vih is None:
            sup = part.net.get(spec.supply)
            if sup is None or g.rail(sup) is None:
                continue                  # an unpowered part: power-pins reports it
            vih = spec.vih_frac * g.rail(sup)[1]
        near = reach(adj, net)
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


def rule_undriven_input(c, g):
    """Every logic input is connected and held: tied to a rail, driven by an output or a GPIO,
    or pulled by a resistor. A floating CMOS input switches at random and can draw current."""
    adj = {}
    for a, b, ln, part in g.links:
        if ln.kind in ("wire", "fuse", "resistor", "protector"):
            adj.setdefault(a, []).append((b, part))
            adj.setdefault(b, []).append((a, part))
    gpio = g.gpio
    out = []
    for part in c.parts.values():
        for pin in part.type.pins:
            spec = part.spec(pin)
            if spec.kind != "in" or spec.pull is not None:
                continue                  # an internal pull holds it
            net = part.net.get(pin)
            if net is None:
                out.append(Violation("undriven-input", "%s.%s" % (part.ref, pin),
                                     "not connected: a floating input"))
                continue
            held = False
            for n in reach(adj, net):
                if g.is_rail(n) or n in gpio or any(c.pin(r, p).kind == "out"
                                                    for r, p in c.pins_on(n)):
                    held = True
                    break
            if not held:
                out.append(Violation("undriven-input", "%s.%s" % (part.ref, pin),
                                     "on %s, which nothing drives or pulls: a floating input"
                                     % net))
    return out


def rule_i2c_rise_time(c, g):
    """The I2C lines rise fast enough for I2C_FREQ through their pull-ups (at the worst
    tolerance) and the bus capacitance (pins, ESD arrays, the cable), and the pull-ups are not
    so strong that a pin cannot pull the line low."""
    hz = c.settings.get("i2c_hz", 400000)
    limit = next((ns for f, ns in I2C_RISE_NS if hz <= f), I2C_RISE_NS[-1][1])
    out = []
    for net in sorted(n for n in g.gpio if n.startswith("I2C_")):
        pulls = []
        for a, b, ln, part in g.links:
            if ln.kind == "resistor" and net in (a, b):
                other = b if a == net else a
                rng = g.rail(other)
                if rng and rng[0] > 1.0:
                    tol = part.type.ratings.get("tol", 0.05)
                    pulls.append((ln.ohms, tol, rng[1]))
        if not pulls:
            out.append(Violation("i2c-rise-time", net, "no pull-up: the line never goes high"))
            continue
        r_max = 1.0 / sum(1.0 / (r * (1 + t)) for r, t, v in pulls)
        r_min = 1.0 / sum(1.0 / (r * (1 - t)) for r, t, v in pulls)
        pf = BOARD_PF + sum(c.pin(ref, pin).cap_pf for ref, pin in c.pins_on(net))
        pf += sum(c.parts[ref].attrs.get("cable_m", 0.0) for ref, pin in c.pins_on(net)) * 100
        rise = 0.8473 * r_max * pf * 1e-3
        if rise > limit:
            out.append(Violation("i2c-rise-time", net,
                                 "rises in %.0f ns (%.1f kOhm, %.0f pF); %d kHz allows %.0f ns"
                                 % (rise, r_max / 1000, pf, hz // 1000, limit)))
        sink = max(v for r, t, v in pulls) / r_min * 1000
        if sink > I2C_SINK_MA:
            out.append(Violation("i2c-rise-time", net,
                                 "the pull-ups (%.2f kOhm) need %.1f mA to pull low; I2C pins "
                                 "sink %.0f mA" % (r_min / 1000, sink, I2C_SINK_MA)))
    return out


def rule_esd(c, g):
    """Every signal line that leaves the board for something a player touches (the controls,
    the OLED, the USB socket) has an ESD clamp on it."""
    out = []
    for part in c.parts.values():
        if not part.attrs.get("touched"):
            continue
        bare = []
        for pin in sorted(part.net, key=lambda p: part.type.pad_numbers(p)):
            net = part.net[pin]
            if g.is_rail(net):
                continue
            if not any(c.pin(r, p).kind == "tvs" for r, p in c.pins_on(net)):
                bare.append(net)
        if bare:
            out.append(Violation("esd", part.ref, "no ESD clamp on %s, which %s brings to "
                                 "the player's hands" % (", ".join(bare), part.ref)))
    return out


def rule_signal_path(c, g):
    """Every data input (the translator's input, each LED's DIN) gets its data from a GPIO:
    through wires and series resistors, from a GPIO or from the output of a part whose own data
    inputs get theirs (the LED chain, LED by LED). Tied to a rail, fed by its own output or by
    nothing, it and everything after it stays dark."""
    adj = {n: [(m, p) for m, p in e if not g.is_rail(m)]      # data does not pass a rail
           for n, e in flow_edges(c, g, {}, "none", low_ohms=10e3).items() if not g.is_rail(n)}
    inputs = [(net, part, pin) for net, part, pin in g.pins("in") if part.spec(pin).signal]
    if not inputs:
        return []
    outs = {}                             # net -> parts whose output is on it
    for net, part, pin in g.pins("out"):
        outs.setdefault(net, []).append(part)
    near = {net: {} if g.is_rail(net) else reach(adj, net) for net, part, pin in inputs}
    dead = {(part.ref, pin) for net, part, pin in inputs}
    # parts whose outputs carry data: to begin with, those with no data inputs modelled
    live = {p for ps in outs.values() for p in ps if not any(
        p.spec(n).kind == "in" and p.spec(n).signal for n in p.type.pins)}
    changed = True
    while changed:
        changed = False
        for net, part, pin in inputs:
            if (part.ref, pin) not in dead:
                continue
            if any(n in g.gpio or any(p in live and p is not part for p in outs.get(n, ()))
                   for n in near[net]):
                dead.discard((part.ref, pin))
                if not any((part.ref, p) in dead for p in part.type.pins):
                    live.add(part)
                changed = True
    if not dead:
        return []
    refs = sorted({ref for ref, pin in dead}, key=lambda r: (r.rstrip("0123456789"),
                                                            int(r[len(r.rstrip("0123456789")):]
                                                                or 0)))
    first = min(dead, key=lambda rp: refs.index(rp[0]))
    return [Violation("signal-path", "%s.%s" % first,
                      "gets no data from a GPIO (on %s): %s stay%s dark or idle" % (
                          c.parts[first[0]].net.get(first[1]),
                          ref_span(refs) if len(refs) > 1 else refs[0],
                          "" if len(refs) > 1 else "s"))]


def rule_gpio_assignment(c, g):
    """Every GPIO the firmware uses is on the net it is there for (config.py's pin for that
    net), alone: a row, column, button or bus wire landed one pin over, or left off, reads or
    drives the wrong thing."""
    out = []
    for net, want in sorted(c.settings.get("pins", {}).items()):
        at = c.parts["U1"].net.get(want) if "U1" in c.parts else None
        others = sorted(p for r, p in c.pins_on(net) if r == "U1" and p != want and
                        c.pin(r, p).kind == "gpio")
        if at != net or others:
            out.append(Violation("gpio-assignment", "%s (%s)" % (want, net),
                                 "the firmware uses %s for %s; %s is %s%s" % (
                                     want, net, want, "on " + at if at else "not connected",
                                     "; %s is on it too" % ", ".join(others) if others else "")))
    return out


def rule_usb_data(c, g):
    """The USB socket's D+ and D- reach the RP2040's USB pins, each its own, on no rail."""
    ends = [(p, p.type.ratings["usb_data"]) for p in c.parts.values()
            if p.type.ratings.get("usb_data")]
    sockets = [(p, d) for p, d in ends if "receives" in p.type.ratings and
               any(n in p.net for n in d)]         # a socket wired for power only: no data
    chips = [(p, d) for p, d in ends if "receives" not in p.type.ratings]
    out = []
    for a, pa in sockets:
        for b, pb in chips:
            for line, (x, y) in enumerate(zip(pa, pb)):
                na, nb = a.net.get(x), b.net.get(y)
                other = a.net.get(pa[1 - line])
                if not (na and nb and g.groups.get(na) == g.groups.get(nb)) or \
                        g.is_rail(na) or (other and g.groups.get(other) == g.groups.get(na)):
                    out.append(Violation("usb-data", "%s.%s-%s.%s" % (a.ref, x, b.ref, y),
                                         "the USB line from %s.%s does not reach %s.%s on its "
                                         "own: the board cannot be flashed or talk to the "
                                         "computer" % (a.ref, x, b.ref, y)))
    return out
