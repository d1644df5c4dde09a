# Electrical rules about what each part needs around it, read from the parts fitted: its power
# and ground pins connected, its enable pins held, polarised capacitors the right way round,
# metal a player touches grounded, one address per I2C device, and the bulk capacitor and series
# resistors its datasheet asks for.
from circuit import parts as P
from circuit.graph import Violation
from circuit.rules_power import caps, grouped, switched_supply

REVERSE_V = 0.5              # an electrolytic takes no more than about this reversed for long


def rule_power_pins(c, g):
    """Every supply pin is connected to a rail with a source, every ground pin to ground, and
    every enable pin held at the level the part needs to work."""
    out = []
    for part, pin, spec, net in g.every_pin():
        if spec.kind in ("supply", "gnd") or spec.enable is not None:
            what = None
            if spec.kind == "supply":
                if net is None:
                    what = "%s is not connected: the part has no power" % pin
                elif g.rail(net) is None and not switched_supply(c, g, part, pin):
                    what = "%s has no source: nothing powers %s" % (pin, net)
            elif spec.kind == "gnd":
                if spec.optional or (net and g.is_ground(net)) or \
                        switched_supply(c, g, part, pin):
                    pass
                elif net is None:
                    what = "%s (ground) is not connected" % pin
                else:
                    what = "%s (ground) is on %s, not on ground" % (pin, net)
            elif spec.enable is not None and net is not None:
                level = g.level(net)
                if level is not None and level != spec.enable:
                    what = "%s is tied %s on %s: the part never works (it needs it %s)" % (
                        pin, "high" if level else "low", net, "high" if spec.enable else "low")
            if what:
                out.append((part.ref, pin, what))
    return grouped("power-pins", out)


def rule_capacitor_polarity(c, g):
    """A polarised capacitor's + (pin 1) is never below its - (pin 2) in normal use."""
    out = []
    for p in caps(c):
        if not p.type.ratings["polarised"]:
            continue
        r1, r2 = (g.rail(p.net[n]) if n in p.net else None for n in ("1", "2"))
        if r1 and r2 and r2[1] - r1[0] > REVERSE_V:
            out.append(Violation("capacitor-polarity", p.ref,
                                 "fitted backwards: its - is on %s (up to %.2f V), its + on %s "
                                 "(%.2f V): reversed, an electrolytic heats up and vents"
                                 % (p.net["2"], r2[1], p.net["1"], r1[0])))
    return out


def rule_exposed_metal(c, g):
    """Metal a player can touch (an encoder's shaft and frame) is grounded: a discharge from a
    finger then goes to ground instead of arcing to the contacts beside it."""
    out = []
    for part, pin, spec, net in g.every_pin():
        if spec.kind == "chassis" and (net is None or not g.is_ground(net)):
            out.append(Violation("exposed-metal", "%s.%s" % (part.ref, pin),
                                 "the metal a player touches %s: a discharge arcs to the "
                                 "contacts" % ("floats" if net is None else "is on %s" % net)))
    return out


def rule_i2c_address(c, g):
    """No two devices on one I2C bus answer at the same address, and the display answers at
    the address the firmware uses (OLED_ADDR)."""
    buses = {}
    for part in c.parts.values():
        pins = part.type.ratings.get("i2c")
        if not pins:
            continue
        bus = tuple(part.net.get(p) for p in pins)
        addr = part.attrs.get("address", part.type.ratings.get("i2c_address"))
        buses.setdefault(bus, {}).setdefault(addr, []).append(part.ref)
    out = []
    for bus, devices in sorted(buses.items(), key=lambda kv: str(kv[0])):
        for addr, refs in sorted(devices.items()):
            if len(refs) > 1:
                out.append(Violation("i2c-address", "%s/%s" % bus,
                                     "%s all answer at 0x%02X: both reply at once and the bus "
                                     "garbles" % (", ".join(refs), addr)))
    want = c.settings.get("oled_addr")
    sda = next((n for n in g.gpio if n.startswith("I2C_SDA")), None)
    scl = next((n for n in g.gpio if n.startswith("I2C_SCL")), None)
    on_bus = {a for bus, devices in buses.items() if bus == (sda, scl) for a in devices}
    if want is not None and sda and want not in on_bus:
        out.append(Violation("i2c-address", sda,
                             "the firmware talks to 0x%02X (OLED_ADDR); the display on this bus "
                             "answers at %s" % (want, ", ".join("0x%02X" % a for a in
                                                                sorted(on_bus)) or "nothing")))
    return out


def rule_bulk_capacitor(c, g):
    """A part whose datasheet asks for a bulk capacitor on its supply (the LED chain) has one
    from that rail to ground."""
    out = []
    seen = set()
    for net, part, pin in g.pins("supply"):
        uf = part.type.ratings.get("bulk_uf")
        root = g.groups.get(net)
        if not uf or (part.type, root) in seen:
            continue
        seen.add((part.type, root))
        have = sum(p.type.ratings["uf"] for p in caps(c) if p.type.ratings["polarised"] and
                   {g.groups.get(p.net.get("1")), g.groups.get(p.net.get("2"))} ==
                   {root, g.groups.get("GND")})
        if have < 0.9 * uf:
            out.append(Violation("bulk-capacitor", net,
                                 "%s's supply has %.0f uF of bulk capacitance to ground; its "
                                 "datasheet asks for %.0f uF" % (part.type.name, have, uf)))
    return out


def rule_series_resistor(c, g):
    """A pin that must be reached through a series resistor (the first LED's data input, the
    wire to the Pico's BOOTSEL pad) sees its driver or its lead only through one of the right
    size: nothing else shares its net but that resistor and the connector on the way."""
    out = []
    for part, pin, spec, net in g.every_pin():
        if not spec.series_ohms or net is None:
            continue
        lo, hi = spec.series_ohms
        others = [(c.parts[r], p) for r, p in c.pins_on(net) if (r, p) != (part.ref, pin)]
        if not others or g.is_rail(net):
            continue                      # a floating or tied input: undriven-input's case
        if any(o.type is part.type and o.spec(p).kind == "out" for o, p in others):
            continue                  # fed by the previous part of a chain
        res = [o for o, p in others if o.type.name == "resistor"]
        stray = [o.ref for o, p in others if o.type.name != "resistor" and
                 "family" not in o.type.ratings]
        good = [o for o in res if lo <= o.type.ratings["ohms"] <= hi]
        if not good or stray:
            out.append(Violation("series-resistor", "%s.%s" % (part.ref, pin),
                                 "needs a %g-%g ohm resistor in series; on %s it has %s" % (
                                     lo, hi, net, ", ".join(
                                         ["%s (%g ohm)" % (o.ref, o.type.ratings["ohms"])
                                          for o in res] + stray) or "nothing")))
    return out
