# Single wiring faults, generated from the circuit: every pin of every part left unsoldered,
# moved to ground, moved to +5V, or moved to the net of its neighbouring pin (a wire landed one
# pad over). Each is applied to the circuit in place and undone afterwards, so the whole space
# runs in one process on one circuit (tools/hardware.py --faults, host_tests).
from contextlib import contextmanager


def single_faults(c, grounds=("GND", "+5V")):
    """Every single fault of circuit c: (ref, pin, net), net None for a pin left unsoldered.
    Pins are taken in the part type's order; a pin's neighbour is the next pin (the last
    pin's, the one before)."""
    out = []
    for ref in sorted(c.parts, key=_ref_key):
        part = c.parts[ref]
        pins = list(part.type.pins)
        for i, pin in enumerate(pins):
            now = part.net.get(pin)
            targets = [None] if now else []
            targets += [n for n in grounds if n in c.nets]
            if len(pins) > 1:
                nb = part.net.get(pins[i + 1] if i + 1 < len(pins) else pins[i - 1])
                if nb:
                    targets.append(nb)
            for net in dict.fromkeys(targets):
                if net != now:
                    out.append((ref, pin, net))
    return out


def describe(fault):
    ref, pin, net = fault
    return "%s.%s %s" % (ref, pin, "left unsoldered" if net is None else "moved to " + net)


@contextmanager
def applied(c, fault):
    """The circuit with the fault in place, restored afterwards (even if the body raises)."""
    ref, pin, net = fault
    part = c.parts[ref]
    old = part.net.get(pin)
    index = c.nets[old].index((ref, pin)) if old else None
    if net is None:
        c.disconnect(ref, pin)
    else:
        c.rewire(ref, pin, net)
    try:
        yield c
    finally:
        if pin in part.net:
            c.disconnect(ref, pin)
        if old:
            c.connect(old, "%s.%s" % (ref, pin))
            members = c.nets[old]
            members.insert(index, members.pop())     # the net's order as it was


def _ref_key(ref):
    head = ref.rstrip("0123456789")
    return (head, int(ref[len(head):] or 0))


def run(c, check):
    """check(c) on every single fault of c: {fault: its violations}; a fault whose check
    raised maps to the exception (the caller reports it)."""
    out = {}
    for fault in single_faults(c):
        with applied(c, fault):
            try:
                out[fault] = check(c)
            except Exception as e:      # the point: find the faults the check cannot take
                out[fault] = e
    return out
