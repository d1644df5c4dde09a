# The KiCad netlists, read back with kinparse, a netlist parser from PyPI: hardware/barragoon.net
# (the default build, written by tools/hardware.py from the circuit data) - every part has a
# footprint and is the BOM's, every Pico pin sits on the net hardware/pinmap.csv names, and the
# nets are the circuit's - and the netlist tools/hardware.py --kicad writes for the other build
# options, each compared part for part and net for net with the circuit. kinparse parses about
# 10 kB/s (10-20 s a netlist): each is read once; by default one other build option (the
# external supply, hall sensors, the encoder), all eleven with BARRAGOON_KICAD_NETLISTS=all.
# CPython only (pytest).
import csv
import os
import re
import subprocess
import sys
import warnings

import pytest

kinparse = pytest.importorskip("kinparse", reason="pip install -r requirements-dev.txt")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARDWARE = os.path.join(ROOT, "hardware")
sys.path.insert(0, os.path.join(ROOT, "tools"))

from circuit import design, kicad  # noqa: E402
from circuit.config import load_config  # noqa: E402
from circuit.pico import PICO_HEADER  # noqa: E402


@pytest.fixture(scope="module")
def netlist():
    with open(os.path.join(HARDWARE, "barragoon.net"), encoding="utf-8") as f:
        text = f.read()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return kinparse.parse_netlist(text)


@pytest.fixture(scope="module")
def nets(netlist):
    """{net name: {(ref, pad)}}"""
    return {n.name: {(p.ref, p.num) for p in n.pins} for n in netlist.nets}


def read_csv(name):
    with open(os.path.join(HARDWARE, name), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def expand(text):
    out = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*([A-Z]+)(\d+)-([A-Z]+)(\d+)\s*", part)
        if m:
            out += ["%s%d" % (m.group(1), n) for n in range(int(m.group(2)), int(m.group(4)) + 1)]
        else:
            out.append(part.strip())
    return out


def test_every_part_has_a_footprint_and_a_symbol(netlist):
    assert len(netlist.parts) > 250
    for p in netlist.parts:
        assert re.fullmatch(r"[A-Za-z0-9_.]+:[^:\s]+", p.footprint), (p.ref, p.footprint)
        assert p.lib and p.name, p.ref


def test_the_parts_are_the_default_build_of_the_bom(netlist):
    bom = read_csv("bom.csv")
    extras = {ref for row, b, _ in design.EXTRAS for ref in expand(row)}
    by_ref = {}
    for row in bom:
        if row["notes"].startswith("["):
            continue                                # not in the default build
        for ref in expand(row["reference"]):
            if ref not in extras:
                by_ref[ref] = row
    parts = {p.ref: p for p in netlist.parts}
    # NT1 (the star point, a net tie) and TP1 (a wire's pad) are in the layout, not bought.
    assert set(parts) == set(by_ref) | {"NT1", "TP1"}
    for ref, row in by_ref.items():
        mpn = {prop.name: prop.value for prop in parts[ref].properties}.get("MPN")
        assert mpn == row["manufacturer_part"], (ref, mpn, row["manufacturer_part"])


def test_every_pico_pin_is_on_the_net_the_pin_map_names(nets):
    rows = [r for r in read_csv("pinmap.csv") if r["variant"] in ("", "INPUT_TYPE=buttons")]
    assert len(rows) > 25
    pad_net = {pad: name for name, pads in nets.items() if len({r for r, p in pads}) > 1
               for ref, pad in pads if ref == "U1"}
    for row in rows:
        assert pad_net.get(row["pico_pin"]) == row["signal"], row
    # Every ground pin of the Pico is on GND (AGND, pin 33, stays free).
    grounds = {str(p) for p, fn in PICO_HEADER.items() if fn == "GND"}
    assert {pad for ref, pad in nets["GND"] if ref == "U1"} == grounds
    assert "33" not in pad_net
    # The Pico's pins that the default build leaves free reach no other part.
    used = {r["pico_pin"] for r in rows} | grounds
    assert set(pad_net) == used


def circuit_nets(c):
    """{net: {(ref, pad)}} of the parts on the board, as the netlist should have them."""
    want = {}
    for name, members in c.nets.items():
        pads = {(ref, pad) for ref, pin in members if not
                c.parts[ref].type.ratings.get("offboard")
                for pad in c.parts[ref].type.pad_numbers(pin)}
        if pads:
            want[name] = pads
    return want


def circuit_parts(c):
    """{ref: (value, footprint, manufacturer part)} of the parts on the board."""
    return {p.ref: (p.value or p.type.name, p.type.footprint or "", p.bom.mpn if p.bom else None)
            for p in c.parts.values() if not p.type.ratings.get("offboard")}


def read_parts(netlist):
    return {p.ref: (p.value, p.footprint, {prop.name: prop.value for prop in p.properties}
                    .get("MPN")) for p in netlist.parts}


def test_the_nets_are_the_circuit_s(nets):
    c = design.build(design.DEFAULT, load_config())
    assert nets == circuit_nets(c)
    # The pads are numbered as the parts' datasheets have them (a few checks).
    assert ("U2", "3") in nets["LED_DATA"] and ("U2", "4") in nets["LED_Y"]    # SN74LVC1T45 A, B
    assert ("LED1", "4") in nets["DIN_0"] and ("LED1", "1") in nets["+5V"]     # WS2812B DIN, VDD
    assert {("U5", "1"), ("U5", "6")} <= nets["I2C_SDA"]                      # USBLC6 I/O1


def test_a_build_option_s_netlist_on_request(tmp_path):
    out = tmp_path / "ext.net"
    p = subprocess.run([sys.executable, "tools/hardware.py", "--kicad", str(out), "--variant",
                        "supply=external,sensor=hall"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    text = out.read_text(encoding="utf-8")

    def pads(net):
        block = re.search(r'\(net \(code "\d+"\) \(name "%s"\)(.*?)(?:\)\n    \(net|\)\n  \))'
                          % re.escape(net), text, re.S).group(1)
        return set(re.findall(r'\(node \(ref "(\w+)"\) \(pin "(\w+)"\)', block))
    # The external supply's rows of the pin map: VSYS on pin 39, the power sense on GP28.
    assert ("U1", "39") in pads("VSYS") and ("D64", "1") in pads("VSYS")
    assert ("U1", "34") in pads("POWER_SENSE")
    assert ("U3", "1") in pads("EXT_IN") and ("Q1", "2") in pads("EXT_IN")   # LTC4365 VIN, D
    assert ("H1", "1") in pads("HROW_1")                                      # DRV5032 VCC


OTHERS = [v for v in design.VARIANTS if v != design.DEFAULT]
if os.environ.get("BARRAGOON_KICAD_NETLISTS") != "all":
    OTHERS = [dict(supply="external", sensor="hall", input="encoder")]


@pytest.mark.parametrize("variant", OTHERS, ids=lambda v: "%(supply)s/%(sensor)s/%(input)s" % v)
def test_every_build_option_s_netlist_reads_back_as_its_circuit(variant):
    c = design.build(variant, load_config())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = kinparse.parse_netlist(kicad.netlist(c, "test"))
    assert read_parts(parsed) == circuit_parts(c)
    assert {n.name: {(p.ref, p.num) for p in n.pins} for n in parsed.nets} == circuit_nets(c)
    # the parts the option adds are there, with their pads where their datasheets have them
    if variant["supply"] == "external":
        assert {"J8", "F1", "U3", "Q1", "Q2", "D64", "D66"} <= set(read_parts(parsed))
        assert "PS1" not in read_parts(parsed)        # the adapter is not on the board
    if variant["input"] == "encoder":
        mp = [n for n in parsed.nets if ("ENC1", "MP") in {(p.ref, p.num) for p in n.pins}]
        assert [n.name for n in mp] == ["GND"]
