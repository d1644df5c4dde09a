# A KiCad netlist (.net, the s-expression "export" format version "E" that Pcbnew reads with
# File > Import > Netlist) written from the same circuit data the rules check and the pin map
# come from: every part with its footprint (parts.py), value and manufacturer part, every net
# with its pads. Standard library only; the output is deterministic (no dates, no time stamps:
# Pcbnew matches footprints by reference), so tools/hardware.py --check can compare it byte
# for byte. The library parts section is left out: KiCad takes pins from its own libraries.
# Parts that are not on the board (the external supply's adapter) are left out.
PIN_TYPES = {"source": "power_out", "supply": "power_in", "gnd": "power_in",
             "gpio": "bidirectional", "in": "input", "out": "output", "od": "open_collector",
             "tvs": "passive", "pas": "passive", "chassis": "passive"}


def q(text):
    """An s-expression string."""
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"')


def _ref_key(ref):
    head = ref.rstrip("0123456789")
    return (head, int(ref[len(head):] or 0))


def _description(part):
    if part.bom is not None:
        return "%s, %s" % (part.bom.part, part.bom.value)
    return part.type.name


def netlist(c, title):
    """The KiCad netlist of circuit c as text: its components (reference, value, footprint,
    symbol, manufacturer part) and its nets (every pad with its pin name and type)."""
    out = ["(export (version \"E\")",
           "  (design (source %s) (tool %s))" % (q("tools/circuit/design.py: " + title),
                                               q("tools/hardware.py")),
           "  (components"]
    parts = sorted((p for p in c.parts.values() if not p.type.ratings.get("offboard")),
                   key=lambda p: _ref_key(p.ref))
    board = {p.ref for p in parts}
    for p in parts:
        lib, sym = p.type.symbol
        mpn = "" if p.bom is None else " (property (name \"MPN\") (value %s))" % q(p.bom.mpn)
        out.append("    (comp (ref %s) (value %s) (footprint %s)\n"
                   "      (libsource (lib %s) (part %s) (description %s))%s)"
                   % (q(p.ref), q(p.value or p.type.name), q(p.type.footprint or ""), q(lib),
                      q(sym), q(_description(p)), mpn))
    out.append("  )")
    out.append("  (nets")
    names = [n for n in sorted(c.nets) if any(ref in board and c.parts[ref].type.pad_numbers(pin)
                                              for ref, pin in c.nets[n])]
    for code, name in enumerate(names, 1):
        nodes = []
        for ref, pin in c.nets[name]:
            if ref not in board:
                continue
            part = c.parts[ref]
            kind = PIN_TYPES[part.type.pins[pin].kind]
            for pad in part.type.pad_numbers(pin):
                nodes.append((_ref_key(ref), pad.zfill(3), ref, pad, pin, kind))
        out.append("    (net (code %s) (name %s)" % (q(code), q(name)))
        for key, order, ref, pad, pin, kind in sorted(nodes):
            out.append("      (node (ref %s) (pin %s) (pinfunction %s) (pintype %s))"
                       % (q(ref), q(pad), q(pin), q(kind)))
        out[-1] += ")"
    out.append("  )")
    out.append(")")
    return "\n".join(out) + "\n"
