# A netlist: parts (with a reference, a part type from parts.py, a value and free attributes)
# and nets (named sets of part pins). The design (design.py) builds one; the rules (erc.py),
# the pin map, the BOM and the schematic read it.


class Bom:
    """What a part is in the bill of materials. Parts with equal Bom entries share a row."""

    def __init__(self, part, value, mpn, notes, cost, order=0):
        self.part, self.value, self.mpn, self.notes, self.cost = part, value, mpn, notes, cost
        self.order = order

    def key(self):
        return (self.part, self.value, self.mpn, self.notes, self.cost)


class Part:
    def __init__(self, ref, ptype, value="", bom=None, group=None, **attrs):
        self.ref = ref
        self.type = ptype
        self.value = value
        self.bom = bom
        self.group = group         # parts repeated per square share a group (schematic)
        self.attrs = attrs
        self.net = {}              # pin name -> net name
        self.mode = {}             # pins a direction pin turned around (set by the graph)

    def spec(self, pin):
        """The pin's model: as its direction pins set it, else as the part type has it."""
        return (self.mode and self.mode.get(pin)) or self.type.pins[pin]

    def links(self):
        return self.type.links(self)

    def __repr__(self):
        return "Part(%s %s)" % (self.ref, self.type.name)


class Circuit:
    def __init__(self, variant):
        self.variant = variant
        self.parts = {}
        self.nets = {}             # net name -> [(ref, pin)]
        self.settings = {}         # firmware settings the rules need (settle time, row mode, ...)
        self.notes = {}            # net name -> note for the pin map

    def add(self, part):
        if part.ref in self.parts:
            raise ValueError("reference used twice: " + part.ref)
        self.parts[part.ref] = part
        return part

    def connect(self, net, *pins):
        """connect("ROW_1", "U1.GP9", "D1.K"): put part pins on a net."""
        members = self.nets.setdefault(net, [])
        for spec in pins:
            ref, _, pin = spec.partition(".")
            part = self.parts[ref]
            if pin not in part.type.pins:
                raise ValueError("%s has no pin %s" % (ref, pin))
            if pin in part.net:
                raise ValueError("%s.%s is already on %s" % (ref, pin, part.net[pin]))
            part.net[pin] = net
            members.append((ref, pin))

    def disconnect(self, ref, pin):
        """Take one part pin off its net (a wire that was never soldered)."""
        net = self.parts[ref].net.pop(pin)
        self.nets[net].remove((ref, pin))
        if not self.nets[net]:
            del self.nets[net]
        return net

    def rewire(self, ref, pin, net):
        """Move one part pin to another net."""
        if pin in self.parts[ref].net:
            self.disconnect(ref, pin)
        self.connect(net, "%s.%s" % (ref, pin))

    def remove(self, ref):
        """Take a part out of the circuit (a part that was never fitted)."""
        for pin in list(self.parts[ref].net):
            self.disconnect(ref, pin)
        return self.parts.pop(ref)

    def pins_on(self, net):
        return self.nets.get(net, [])

    def pin(self, ref, pin):
        return self.parts[ref].spec(pin)

    def net_of(self, ref, pin):
        return self.parts[ref].net.get(pin)

    def by_type(self, ptype):
        return [p for p in self.parts.values() if p.type is ptype]
