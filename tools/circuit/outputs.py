# What is generated from the circuit: the pin map (hardware/pinmap.csv) and the bill of
# materials (hardware/bom.csv), as CSV text. Both cover every build option: a row that only
# some options use says which (pin map: the config.py setting; BOM: a [tag] in its notes).
import csv
import io
import re

from circuit import design
from circuit.pico import PICO_HEADER, pin_of, pin_of_gpio

PINMAP_COLUMNS = ["signal", "gpio", "pico_pin", "direction", "config_key", "variant", "notes"]
BOM_COLUMNS = ["reference", "part", "value", "quantity", "manufacturer_part", "notes",
               "unit_cost_eur"]
POWER_ORDER = ("RUN", "VBUS", "VSYS", "3V3_OUT", "GND")   # header pins that are no GPIO
POWER_PINS = {"GND": 38}          # the ground pin next to the power pins
# How a build option shows in the pin map (config.py) and in the BOM ([tag]).
CONFIG_NAMES = {("supply", "external"): "POWER_SUPPLY=external",
                ("input", "buttons"): "INPUT_TYPE=buttons",
                ("input", "encoder"): "INPUT_TYPE=encoder",
                ("input", "encoder_module"): "INPUT_TYPE=encoder",
                ("sensor", "hall"): "SENSOR_TYPE=hall", ("sensor", "reed"): "SENSOR_TYPE=reed"}
BOM_TAGS = {("supply", "external"): "external", ("sensor", "hall"): "hall",
            ("input", "encoder"): "encoder", ("input", "encoder_module"): "encoder-module",
            ("input", "buttons"): "buttons", ("sensor", "reed"): "reed"}


def _condition(present, variants):
    """The one option (key, values) that decides whether something is present, or None when
    it is present everywhere. present: the indices of the variants that have it."""
    if len(present) == len(variants):
        return None
    for key in ("supply", "sensor", "input"):
        values = {variants[i][key] for i in present}
        if all((v[key] in values) == (i in present) for i, v in enumerate(variants)):
            return key, sorted(values)
    raise ValueError("present in an odd set of build options: %s" % sorted(present))


def _csv(columns, rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow([row[c] for c in columns])
    return buf.getvalue()


# --- pin map -------------------------------------------------------------------------------------

def _used_pins(c):
    """U1 pins whose net reaches another part: {pico function: net}."""
    out = {}
    for fn, net in c.parts["U1"].net.items():
        if fn in PICO_FUNCTIONS and any(ref != "U1" for ref, pin in c.pins_on(net)):
            out[fn] = net
    return out


def pinmap_rows(cfg):
    variants = [dict(supply=s, sensor=cfg.SENSOR_TYPE, input=i)
                for s in design.SUPPLIES for i in design.INPUTS]
    seen = {}                     # (function, net) -> [variant indices], row
    for i, v in enumerate(variants):
        c = design.build(v, cfg)
        for fn, net in _used_pins(c).items():
            key = (fn, net)
            if key not in seen:
                key_, direction, note = c.notes.get(net, ("", "", ""))
                gpio = int(fn[2:]) if fn.startswith("GP") else None
                seen[key] = ([], {
                    "signal": net if gpio is not None else fn,
                    "gpio": "" if gpio is None else str(gpio),
                    "pico_pin": str(pin_of_gpio(gpio) if gpio is not None
                                    else POWER_PINS.get(fn) or pin_of(fn)),
                    "direction": direction, "config_key": key_, "notes": note})
            seen[key][0].append(i)
    rows = []
    for (fn, net), (present, row) in seen.items():
        cond = _condition(set(present), variants)
        names = sorted({CONFIG_NAMES[(cond[0], val)] for val in cond[1]}) if cond else [""]
        if len(names) != 1:
            raise ValueError("%s: used in %s" % (net, names))
        row["variant"] = names[0]
        rows.append(row)
    gpio_rows = [r for r in rows if r["gpio"]]
    group_min = {}
    for r in gpio_rows:
        group_min[r["variant"]] = min(group_min.get(r["variant"], 99), int(r["gpio"]))

    def order(r):
        return (group_min[r["variant"]] if r["variant"] else int(r["gpio"]), r["variant"],
                int(r["gpio"]))
    gpio_rows.sort(key=order)
    power = sorted((r for r in rows if not r["gpio"]), key=lambda r: POWER_ORDER.index(r["signal"]))
    return gpio_rows + power


def pinmap_csv(cfg):
    return _csv(PINMAP_COLUMNS, pinmap_rows(cfg))


# --- bill of materials ---------------------------------------------------------------------------

def _ref_key(ref):
    m = re.fullmatch(r"([A-Z]+)(\d+)", ref)
    return (m.group(1), int(m.group(2)))


def ref_ranges(refs):
    """['D1', 'D2', 'D3', 'C65'] -> 'C65, D1-D3'."""
    keys = sorted(_ref_key(r) for r in refs)
    parts = []
    i = 0
    while i < len(keys):
        j = i
        while j + 1 < len(keys) and keys[j + 1][0] == keys[i][0] and \
                keys[j + 1][1] == keys[j][1] + 1:
            j += 1
        a, b = keys[i], keys[j]
        parts.append("%s%d" % a if i == j else "%s%d-%s%d" % (a + b))
        i = j + 1
    return ", ".join(parts)


def bom_rows(cfg):
    variants = design.VARIANTS
    items = {}                    # bom key -> [bom, refs, variant indices]
    for i, v in enumerate(variants):
        c = design.build(v, cfg)
        for part in c.parts.values():
            if part.bom is None:
                continue
            entry = items.setdefault(part.bom.key(), [part.bom, set(), set()])
            entry[1].add(part.ref)
            entry[2].add(i)
    default = variants.index(design.DEFAULT)
    rows = []
    for bom, refs, present in items.values():
        notes = bom.notes
        if default not in present:
            key, values = _condition(present, variants)
            tags = sorted({BOM_TAGS[(key, val)] for val in values})
            notes = "[%s] %s" % (tags[0], notes)
        rows.append((bom.order, {"reference": ref_ranges(refs), "part": bom.part,
                                 "value": bom.value, "quantity": str(len(refs)),
                                 "manufacturer_part": bom.mpn, "notes": notes,
                                 "unit_cost_eur": "%.2f" % bom.cost}))
    for ref, bom, _ in design.EXTRAS:
        n = sum(1 for _ in _expand(ref))
        rows.append((bom.order, {"reference": ref, "part": bom.part, "value": bom.value,
                                 "quantity": str(n), "manufacturer_part": bom.mpn,
                                 "notes": bom.notes, "unit_cost_eur": "%.2f" % bom.cost}))
    rows.sort(key=lambda r: r[0])
    return [r for _, r in rows]


def _expand(text):
    for part in text.split(","):
        m = re.fullmatch(r"\s*([A-Z]+)(\d+)-([A-Z]+)(\d+)\s*", part)
        if m:
            for n in range(int(m.group(2)), int(m.group(4)) + 1):
                yield "%s%d" % (m.group(1), n)
        else:
            yield part.strip()


def bom_csv(cfg):
    return _csv(BOM_COLUMNS, bom_rows(cfg))


def default_cost(cfg):
    """EUR for the default build (rows without a tag)."""
    return sum(int(r["quantity"]) * float(r["unit_cost_eur"]) for r in bom_rows(cfg)
               if not r["notes"].startswith("["))


PICO_FUNCTIONS = set(PICO_HEADER.values())
