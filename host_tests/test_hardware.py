# Hardware documentation vs firmware: hardware/pinmap.csv must describe exactly the pins of
# firmware/config.py, the BOM must be consistent with 63 squares, and the generated files (pin
# map, BOM, schematic, wiring SVGs) must be what tools/hardware.py makes from the circuit
# description. CPython only (pytest).
import csv
import importlib.util
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARDWARE = os.path.join(ROOT, "hardware")
PINMAP = os.path.join(HARDWARE, "pinmap.csv")
CONFIG = os.path.join(ROOT, "firmware", "config.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))

# The Pico header table is shared by the circuit, the diagrams and these tests (one copy, in
# tools/circuit/pico.py); test_pico_header_table_matches_the_pinout checks it against facts of
# the Pico pinout stated here independently.
from circuit.pico import PICO_HEADER as PICO_PINS, PICO_INTERNAL_GPIOS  # noqa: E402
from kicad_library import FOOTPRINTS, PACKAGES, SYMBOLS  # noqa: E402

PICO_INTERNAL_GPIOS = set(PICO_INTERNAL_GPIOS)


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def config():
    return load_module("barragoon_config_for_hardware_test", CONFIG)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def pinmap():
    return read_csv(PINMAP)


def config_pins(config):
    """Every pin setting of config.py (names ending in _PIN or _PINS) as {"KEY" or "KEY[i]": gpio}."""
    pins = {}
    for name in sorted(vars(config)):
        if not re.fullmatch(r"[A-Z0-9_]+_PINS?", name):
            continue
        value = getattr(config, name)
        if value is None:               # optional part left out (e.g. BUZZER_PIN = None)
            continue
        if isinstance(value, (tuple, list)):
            for i, gpio in enumerate(value):
                pins["%s[%d]" % (name, i)] = gpio
        else:
            pins[name] = value
    return pins


def pinmap_pins(pinmap):
    pins = {}
    for row in pinmap:
        if row["config_key"]:
            assert row["config_key"] not in pins, "config_key twice: " + row["config_key"]
            pins[row["config_key"]] = int(row["gpio"])
    return pins


# --- pin map -----------------------------------------------------------------------------------

def test_pico_header_table_matches_the_pinout():
    # Facts of the Raspberry Pi Pico pinout (Pico datasheet), not a second copy of the table:
    # 40 pins; a ground on every fifth pin from 3 to 38, except 33, which is AGND; power pins
    # at the top right; GP0-GP22 and GP26-GP28 each once, in order, down the left side and up
    # the right side; GP23-GP25 and GP29 are not on the header.
    assert sorted(PICO_PINS) == list(range(1, 41))
    grounds = [p for p in PICO_PINS if PICO_PINS[p] in ("GND", "AGND")]
    assert grounds == [3, 8, 13, 18, 23, 28, 33, 38]
    assert PICO_PINS[33] == "AGND"
    assert [PICO_PINS[p] for p in (30, 35, 36, 37, 39, 40)] == \
        ["RUN", "ADC_VREF", "3V3_OUT", "3V3_EN", "VSYS", "VBUS"]
    gpios = [int(PICO_PINS[p][2:]) for p in list(range(1, 21)) + list(range(21, 41))
             if PICO_PINS[p].startswith("GP")]
    assert gpios == list(range(0, 23)) + [26, 27, 28]
    assert not {"GP%d" % g for g in PICO_INTERNAL_GPIOS} & set(PICO_PINS.values())


def test_pinmap_columns(pinmap):
    assert list(pinmap[0].keys()) == [
        "signal", "gpio", "pico_pin", "direction", "config_key", "variant", "notes"]
    signals = [row["signal"] for row in pinmap]
    assert len(signals) == len(set(signals)), "signal names must be unique"


def test_every_config_pin_is_in_the_pinmap_and_vice_versa(config, pinmap):
    from_config = config_pins(config)
    from_pinmap = pinmap_pins(pinmap)
    missing = sorted(set(from_config) - set(from_pinmap))
    extra = sorted(set(from_pinmap) - set(from_config))
    assert not missing, "config.py pins missing from hardware/pinmap.csv: %s" % missing
    assert not extra, "hardware/pinmap.csv has pins config.py does not: %s" % extra
    differ = {k: (from_config[k], from_pinmap[k]) for k in from_config
              if from_config[k] != from_pinmap[k]}
    assert not differ, "GPIO differs (config, pinmap): %s" % differ


def test_config_pin_lists_have_the_expected_sizes(config):
    assert len(config.MATRIX_ROW_PINS) == 9          # ranks 1..9
    assert len(config.MATRIX_COL_PINS) == 7          # files a..g
    assert len(config.BUTTON_PINS) == 3              # up, down, ok
    assert len(config.ENCODER_PINS) == 3             # A, B, push
    assert config.LED_COUNT == 63 == len(config.MATRIX_ROW_PINS) * len(config.MATRIX_COL_PINS)


def test_physical_pico_pins_match_the_gpios(pinmap):
    for row in pinmap:
        pin = int(row["pico_pin"])
        assert pin in PICO_PINS, row
        if row["gpio"]:
            assert PICO_PINS[pin] == "GP%d" % int(row["gpio"]), \
                "%s: GP%s is not on Pico pin %d (that is %s)" % (
                    row["signal"], row["gpio"], pin, PICO_PINS[pin])
        else:       # a power pin, or RUN (the panel's reset button)
            assert row["direction"] == ("in" if row["signal"] == "RUN" else "power"), row
            assert not row["config_key"], row
            assert PICO_PINS[pin] == row["signal"], row


def test_no_gpio_used_twice_except_documented_alternatives(config, pinmap):
    by_gpio = {}
    for row in pinmap:
        if row["gpio"]:
            by_gpio.setdefault(int(row["gpio"]), []).append(row)
    for gpio, rows in sorted(by_gpio.items()):
        if len(rows) == 1:
            continue
        variants = [row["variant"] for row in rows]
        assert all(variants), "GP%d used by %s without a variant" % (
            gpio, [r["signal"] for r in rows])
        keys = {v.split("=", 1)[0] for v in variants}
        assert len(keys) == 1, "GP%d shared across different options %s" % (gpio, variants)
        assert len(set(variants)) == len(variants), "GP%d used twice in one variant" % gpio


def test_variants_name_real_config_options(config, pinmap):
    seen = {}
    for row in pinmap:
        if not row["variant"]:
            continue
        key, _, value = row["variant"].partition("=")
        assert hasattr(config, key), "variant names unknown config option " + key
        seen.setdefault(key, set()).add(value)
    assert seen == {"INPUT_TYPE": {"buttons", "encoder"}, "POWER_SUPPLY": {"external"}}
    assert config.INPUT_TYPE in seen["INPUT_TYPE"]


def test_pinmap_power_rows(pinmap):
    power = {row["signal"]: row for row in pinmap if row["direction"] == "power"}
    assert sorted(power) == ["3V3_OUT", "GND", "VBUS", "VSYS"]
    assert power["VSYS"]["pico_pin"] == "39" and power["VSYS"]["variant"] == "POWER_SUPPLY=external"
    assert power["GND"]["pico_pin"] == "38"
    assert "33" in power["GND"]["notes"] and "AGND" in power["GND"]["notes"]
    assert " 33" not in power["GND"]["notes"].split("(")[0]   # 33 is not listed as a GND


def test_pico_internal_gpios_are_not_used(config, pinmap):
    used = {int(row["gpio"]) for row in pinmap if row["gpio"]} | set(config_pins(config).values())
    assert not used & PICO_INTERNAL_GPIOS, "GP23/24/25/29 are not on the Pico header"
    assert all(0 <= g <= 28 for g in used)


def test_matrix_columns_are_consecutive_gpios(config):
    cols = list(config.MATRIX_COL_PINS)
    assert cols == list(range(cols[0], cols[0] + 7)), "scanner reads the 7 columns in one read"


def test_i2c_pins_belong_to_the_configured_i2c_block(config):
    # RP2040: GPIO n carries I2C((n >> 1) & 1); SDA on even, SCL on odd GPIOs.
    for pin, is_sda in ((config.I2C_SDA_PIN, True), (config.I2C_SCL_PIN, False)):
        assert (pin >> 1) & 1 == config.I2C_ID, "GP%d is not on I2C%d" % (pin, config.I2C_ID)
        assert (pin % 2 == 0) == is_sda


def test_documented_sensor_wiring_matches_config(config):
    # hardware/sensor-matrix.md describes this wiring; change both together.
    assert config.DIODE_DIRECTION == "row_cathode"
    assert config.SENSOR_ACTIVE_LEVEL == 0
    assert config.SENSOR_TYPE in ("reed", "hall")


# --- bill of materials -------------------------------------------------------------------------

BOM = os.path.join(HARDWARE, "bom.csv")
BOM_COLUMNS = ["reference", "part", "value", "quantity", "manufacturer_part", "notes",
               "unit_cost_eur"]
# A note starting with one of these tags marks a row outside the default build.
BOM_TAGS = ("hall", "encoder", "encoder-module", "external")


@pytest.fixture(scope="module")
def bom():
    return read_csv(BOM)


def bom_tag(row):
    m = re.match(r"\[([a-z-]+)\]", row["notes"])
    return m.group(1) if m else None


def expand_refs(text):
    """'SW1-SW63' -> ['SW1', ..., 'SW63']; 'U1' -> ['U1']."""
    refs = []
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"([A-Z]+)(\d+)-([A-Z]+)(\d+)", part)
        if m:
            assert m.group(1) == m.group(3), "range with two prefixes: " + part
            lo, hi = int(m.group(2)), int(m.group(4))
            assert lo < hi, part
            refs.extend("%s%d" % (m.group(1), n) for n in range(lo, hi + 1))
        else:
            assert re.fullmatch(r"[A-Z]+\d+", part), "bad reference " + repr(part)
            refs.append(part)
    return refs


def quantity_of(rows, predicate):
    return sum(int(row["quantity"]) for row in rows if predicate(row))


def test_bom_columns_and_numbers(bom):
    assert list(bom[0].keys()) == BOM_COLUMNS
    for row in bom:
        assert all(row[c].strip() for c in BOM_COLUMNS if c != "notes"), row
        assert re.fullmatch(r"[1-9]\d*", row["quantity"]), row
        cost = float(row["unit_cost_eur"])
        assert 0 <= cost < 100, row
        assert bom_tag(row) in (None,) + BOM_TAGS, row


def test_bom_references_match_quantities_and_are_unique(bom):
    seen = set()
    for row in bom:
        refs = expand_refs(row["reference"])
        assert len(refs) == int(row["quantity"]), row["reference"]
        assert not seen & set(refs), "reference used twice: %s" % sorted(seen & set(refs))
        seen |= set(refs)


def test_bom_default_build_has_one_sensor_diode_and_led_per_square(bom):
    default = [row for row in bom if bom_tag(row) is None]
    assert quantity_of(default, lambda r: "reed switch" in r["part"].lower()) == 63
    assert quantity_of(default, lambda r: r["value"] == "1N4148" and "square" in r["notes"]) == 63
    assert quantity_of(default, lambda r: r["value"].startswith("WS2812B")) == 63
    assert quantity_of(default, lambda r: r["value"].startswith("SN74LVC1T45")) == 1
    assert quantity_of(default, lambda r: "tactile push button" in r["part"].lower()) == 3
    assert quantity_of(default, lambda r: "magnet" in r["part"].lower()) == 14 + 32
    assert quantity_of(default, lambda r: r["value"].startswith("SSD1306")) == 1
    assert quantity_of(default, lambda r: "DRV5032" in r["value"]) == 0
    # Column pull-ups, sockets, harness connectors, the power selector; the reed switches come
    # from one sensitivity band.
    assert quantity_of(default, lambda r: r["value"].startswith("22 kOhm")) == 7
    assert quantity_of(default, lambda r: "socket strip" in r["part"].lower()) == 2
    assert quantity_of(default, lambda r: "connector" in r["part"].lower()) == 5
    assert all("band" in r["value"] for r in default if "reed" in r["part"].lower())
    # The USB socket and its fuse, ESD arrays on everything a player touches, the I2C
    # pull-ups, panel RESET and BOOTSEL (BOOTSEL through 1 kOhm), the power switch, the
    # buzzer's driver, a JST VH for the LED feed, adapters for the SMD parts.
    assert quantity_of(default, lambda r: "usb-c receptacle" in r["part"].lower()) == 1
    assert quantity_of(default, lambda r: r["value"].startswith("USBLC6-2SC6")) == 5
    assert quantity_of(default, lambda r: r["value"].startswith("2.2 kOhm")) == 2
    assert quantity_of(default, lambda r: "panel push button" in r["part"].lower()) == 2
    assert quantity_of(default, lambda r: "dpdt" in r["part"].lower()) == 1
    assert quantity_of(default, lambda r: r["manufacturer_part"] == "Bourns MF-RHT070") == 1
    assert any("R37" in r["reference"] for r in default if r["value"].startswith("1 kOhm"))
    assert quantity_of(default, lambda r: r["value"].startswith("2N3904")) == 1
    assert quantity_of(default, lambda r: "JST B3P-VH" in r["manufacturer_part"]) == 1
    assert quantity_of(default, lambda r: "adapter" in r["part"].lower()) == 6
    # Through-hole parts on the perfboard and the LED boards: no SMD 0805 capacitor there.
    assert all("radial" in r["value"] for r in default if "C64" in r["reference"] or
               "C1-C63" in r["reference"])
    external = [row for row in bom if bom_tag(row) == "external"]
    assert {ref for r in external for ref in expand_refs(r["reference"])} == {
        "PS1", "J8", "F1", "U3", "Q1", "Q2", "R14", "R15", "R16", "R17", "R18", "C68", "C77",
        "D64", "D66", "XU3"}


def test_bom_alternatives_replace_existing_rows(bom):
    hall = [row for row in bom if bom_tag(row) == "hall"]
    assert quantity_of(hall, lambda r: "DRV5032" in r["value"]) == 63
    refs = {ref for row in bom for ref in expand_refs(row["reference"])}
    replacing = {}
    for row in bom:
        m = re.search(r"replaces ([A-Z]+\d+(?:-[A-Z]+\d+)?)", row["notes"])
        if m:
            assert bom_tag(row) in ("hall", "encoder", "encoder-module"), row
            assert set(expand_refs(m.group(1))) <= refs, row
            replacing[row["reference"]] = m.group(1)
    assert replacing == {"H1-H63": "SW1-SW63", "D101-D163": "D1-D63", "ENC1": "SW64-SW66",
                         "ENC2": "SW64-SW66"}


def test_readme_states_the_bom_total(bom):
    total = sum(int(r["quantity"]) * float(r["unit_cost_eur"]) for r in bom if bom_tag(r) is None)
    with open(os.path.join(HARDWARE, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"default build: about EUR (\d+)", text)
    assert m, "hardware/README.md must state 'default build: about EUR <n>'"
    assert int(m.group(1)) == round(total), "BOM total is EUR %.2f" % total


def test_wire_in_the_bom_covers_the_board():
    # Rows, columns, sensor leads, LED data and the front panel: about 20 m of hook-up wire;
    # the 0.5 mm2 bus along the ranks: about 7 m. The BOM buys at least a third more.
    from circuit import design
    need = design.wire_estimate_m()
    with open(os.path.join(HARDWARE, "bom.csv"), newline="", encoding="utf-8") as f:
        rows = {r["reference"]: r for r in csv.DictReader(f)}
    bought = float(re.search(r"(\d+) m$", rows["W1"]["value"]).group(1))
    assert bought >= 1.3 * need["signal"], (bought, need)
    m = re.search(r"2 x (\d+) m", rows["W2"]["value"])
    assert 2 * float(m.group(1)) >= 1.3 * need["power"], need


def _footprint_pads(fp):
    """Pad names of a footprint: KiCad's (kicad_library.py) or the project's own."""
    lib, name = fp.split(":")
    if lib != "Barragoon":
        return FOOTPRINTS[fp]
    with open(os.path.join(HARDWARE, "barragoon.pretty", name + ".kicad_mod"),
              encoding="utf-8") as f:
        return set(re.findall(r"\(pad \"?([^\s\")]+)", f.read()))


def test_bom_parts_footprints_and_symbols_agree():
    # Each part's pads are its KiCad symbol's pins and its footprint's pads, and its footprint
    # is the package its datasheet gives (an 0805 capacitor on a through-hole footprint, another
    # fuse series' footprint or a PCB jack for a panel jack would not be).
    from circuit import design
    bad = set()
    for v in design.VARIANTS:
        for part in design.build(v).parts.values():
            t = part.type
            if t.ratings.get("offboard"):
                continue                    # not on the board: the adapter of the supply
            pads = {p for pin in t.pins for p in t.pad_numbers(pin)}
            sym = SYMBOLS.get(t.symbol)
            fp = _footprint_pads(t.footprint) if t.footprint in FOOTPRINTS or \
                (t.footprint or "").startswith("Barragoon:") else None
            if sym != pads or fp != pads:
                bad.add((part.ref, "pads %s, symbol %s %s, footprint %s %s" % (
                    sorted(pads), t.symbol, sorted(sym or []), t.footprint, sorted(fp or []))))
            if part.bom is None:
                continue
            key = part.bom.part if part.bom.mpn.startswith("generic") else part.bom.mpn
            pattern = next((pat for k, pat in PACKAGES.items() if key.startswith(k)), None)
            if pattern is None or not re.search(pattern, t.footprint or ""):
                bad.add((part.ref, "%s is %s; footprint %s" % (key, pattern, t.footprint)))
    assert not bad, sorted(bad)[:10]


# --- generated files -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hardware_tool():
    return load_module("hardware_tool_for_test", os.path.join(ROOT, "tools", "hardware.py"))


def test_generated_hardware_files_are_up_to_date(hardware_tool):
    cfg = hardware_tool.load_config(CONFIG)
    files = hardware_tool.generated(cfg, CONFIG)
    assert sorted(files) == ["barragoon.net", "bom.csv", "pinmap.csv", "schematic.svg",
                             "wiring-leds.svg", "wiring-matrix.svg", "wiring-peripherals.svg"]
    for name, text in files.items():
        with open(os.path.join(HARDWARE, name), encoding="utf-8") as f:
            assert f.read() == text, "hardware/%s is stale: run python tools/hardware.py" % name


def test_schematic_shows_every_net_and_part(hardware_tool):
    import xml.etree.ElementTree as ET
    from circuit import design
    root = ET.parse(os.path.join(HARDWARE, "schematic.svg")).getroot()
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    words = set(re.findall(r"[A-Za-z0-9_+]+", texts))
    for v in design.VARIANTS:
        c = design.build(v)
        for net in c.nets:
            if re.fullmatch(r"(ROW_\d|HROW_\d|HBASE_\d|COL_[A-G]|S_[a-g]\d|DIN_\d+)", net):
                continue                      # drawn once for square a1, rank 1, LED 0 ("x 63")
            assert net in words, (v, net)
        firsts = {}
        for ref, part in c.parts.items():
            if part.group in ("square", "led", "pullup", "hallrow"):
                firsts.setdefault(re.match(r"[A-Z]+", ref).group(0), ref)   # drawn once
                continue
            assert ref in words, (v, ref)
        for ref in firsts.values():
            assert ref in words or ("%s-" % ref) in texts, (v, ref)
    for net in ("ROW_1", "COL_A", "S_a1", "DIN_0", "DIN_1"):
        assert net in words


@pytest.mark.parametrize("args, words", [
    (["tools/wiring_svg.py", "--pinmap", "/nonexistent.csv"], ["/nonexistent.csv"]),
    (["tools/wiring_svg.py", "--config", "/nonexistent.py"], ["/nonexistent.py"]),
    (["tools/wiring_svg.py", "--out", "/nonexistent-dir"], ["--out"]),
    (["tools/hardware.py", "--variant", "supply=battery"], ["supply=battery", "usb"]),
    (["tools/hardware.py", "--variant", "colour=red"], ["colour"]),
    (["tools/hardware.py", "--config", "/nonexistent.py"], ["/nonexistent.py"]),
    (["tools/hardware.py", "--legacy"], ["--erc"]),
    (["tools/hardware.py", "--reviewed"], ["--erc"]),
    (["tools/hardware.py", "--erc", "--legacy", "--reviewed"], ["choose one"]),
    (["tools/hardware.py", "--kicad", "/nonexistent-dir/x.net"], ["/nonexistent-dir/x.net"]),
    (["tools/hardware.py", "--faults", "--erc"], ["--faults"]),
])
def test_tools_answer_mistakes_in_one_line(args, words):
    p = subprocess.run([sys.executable] + args, cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert "Traceback" not in p.stderr and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_a_bad_pin_in_a_pinmap_is_one_line(tmp_path):
    with open(PINMAP, encoding="utf-8") as f:
        text = f.read()
    for bad, word in (("LED_DATA,22,29,", "LED_DATA,x2,29,"), ("LED_DATA,22,29,", "LED_DATA,22,41,"),
                      ("LED_DATA,22,29,", "LED_DATA,22,28,")):
        path = tmp_path / "pinmap.csv"
        path.write_text(text.replace(bad, word), encoding="utf-8")
        p = subprocess.run([sys.executable, "tools/wiring_svg.py", "--pinmap", str(path),
                            "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                           timeout=120)
        assert p.returncode == 2 and "Traceback" not in p.stderr
        assert len(p.stderr.strip().splitlines()) == 1 and "LED_DATA" in p.stderr, p.stderr


def test_tools_have_help():
    for tool in ("tools/wiring_svg.py", "tools/hardware.py"):
        p = subprocess.run([sys.executable, tool, "--help"], cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
        assert p.returncode == 0 and "usage:" in p.stdout and "--check" in p.stdout, tool


def test_faults_command_counts_reports_and_names_a_fault_the_check_cannot_take(
        hardware_tool, monkeypatch):
    import io
    from circuit import faults
    some = [("R1", "1", None), ("C65", "1", "GND"), ("LED1", "DIN", "GND")]
    monkeypatch.setattr(faults, "single_faults", lambda c: some)
    cfg = hardware_tool.load_config(CONFIG)
    out = io.StringIO()
    assert hardware_tool.run_faults(cfg, [{}], out) == 0
    assert "3 single faults, 3 reported" in out.getvalue()
    real = hardware_tool.erc.check

    def check(c):
        if "LED1" in c.parts and "DIN" not in c.parts["LED1"].net:
            raise KeyError("DIN")
        return real(c)
    monkeypatch.setattr(hardware_tool.erc, "check", check)
    some[2] = ("LED1", "DIN", None)
    out = io.StringIO()
    assert hardware_tool.run_faults(cfg, [{}], out) == 1
    assert "check failed on LED1.DIN left unsoldered: KeyError" in out.getvalue()


def test_erc_command_reports_the_old_design(hardware_tool, capsys):
    assert hardware_tool.main(["--erc"]) == 0
    out = capsys.readouterr().out
    assert out.count("ok    ") == len(hardware_tool.design.VARIANTS)
    assert hardware_tool.main(["--erc", "--legacy", "--variant", "supply=external"]) == 1
    out = capsys.readouterr().out
    assert "one-source" in out and "fused" in out and "gpio-fight" in out
    assert hardware_tool.main(["--erc", "--reviewed", "--variant", "supply=external"]) == 1
    out = capsys.readouterr().out
    assert "input-protection" in out and "fuse-rating" in out and "ground-return" in out


# --- wiring diagrams ---------------------------------------------------------------------------

GENERATOR = os.path.join(ROOT, "tools", "wiring_svg.py")


@pytest.fixture(scope="module")
def gen():
    return load_module("wiring_svg_for_hardware_test", GENERATOR)


def test_svgs_regenerate_identically(gen, tmp_path):
    assert gen.main(["--out", str(tmp_path)]) == 0
    for name in gen.OUTPUTS:
        with open(os.path.join(tmp_path, name), "rb") as f:
            fresh = f.read()
        with open(os.path.join(HARDWARE, name), "rb") as f:
            committed = f.read()
        assert fresh == committed, "hardware/%s is stale: run python tools/wiring_svg.py" % name


def test_generator_is_deterministic(gen):
    assert gen.render_all(PINMAP, CONFIG) == gen.render_all(PINMAP, CONFIG)


def test_svgs_are_xml_and_label_every_pin(gen, pinmap):
    import xml.etree.ElementTree as ET
    texts = {}
    for name in gen.OUTPUTS:
        root = ET.parse(os.path.join(HARDWARE, name)).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        texts[name] = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for row in pinmap:      # the pinout shows every signal of the pin map
        assert row["signal"] in texts["wiring-peripherals.svg"], row["signal"]
    for row in pinmap:
        if row["config_key"].startswith("MATRIX_"):
            assert "GP%s" % row["gpio"] in texts["wiring-matrix.svg"], row["signal"]
    assert "GP22 (pin 29)" in texts["wiring-leds.svg"]


def test_svgs_follow_the_pinmap(gen, tmp_path):
    # Move the buzzer to GP26 (Pico pin 31): the diagrams must change, and --check must say so.
    moved = os.path.join(tmp_path, "pinmap.csv")
    with open(PINMAP, encoding="utf-8") as f:
        text = f.read()
    assert "BUZZER,21,27," in text
    with open(moved, "w", encoding="utf-8") as f:
        f.write(text.replace("BUZZER,21,27,", "BUZZER,26,31,"))
    fresh = gen.render_all(moved, CONFIG)
    assert "GP26 (pin 31)" in fresh["wiring-peripherals.svg"]
    assert fresh["wiring-peripherals.svg"] != gen.render_all(PINMAP, CONFIG)["wiring-peripherals.svg"]


def test_check_mode_names_stale_files(gen, tmp_path, capsys):
    assert gen.main(["--out", str(tmp_path)]) == 0
    capsys.readouterr()
    assert gen.main(["--out", str(tmp_path), "--check"]) == 0
    with open(os.path.join(tmp_path, "wiring-leds.svg"), "ab") as f:
        f.write(b"<!-- edited by hand -->\n")
    before = open(os.path.join(tmp_path, "wiring-leds.svg"), "rb").read()
    assert gen.main(["--out", str(tmp_path), "--check"]) == 1
    out = capsys.readouterr().out
    assert "wiring-leds.svg" in out and "wiring-matrix.svg" not in out
    assert open(os.path.join(tmp_path, "wiring-leds.svg"), "rb").read() == before  # untouched


def test_generator_rejects_a_wrong_physical_pin(gen, tmp_path):
    bad = os.path.join(tmp_path, "pinmap.csv")
    with open(PINMAP, encoding="utf-8") as f:
        text = f.read()
    with open(bad, "w", encoding="utf-8") as f:
        f.write(text.replace("LED_DATA,22,29,", "LED_DATA,22,28,"))
    with pytest.raises(ValueError, match="LED_DATA"):
        gen.load_pinmap(bad)


def test_led_chain_orders(gen):
    corners = {"a1": 0, "g1": 6, "a9": 56, "g9": 62}
    for wiring in gen.LED_WIRINGS:
        for start in gen.LED_STARTS:
            for runs in gen.LED_RUNS_OPTIONS:
                chain = gen.led_chain(wiring, start, runs)
                assert sorted(chain) == list(range(63)), (wiring, start, runs)
                assert chain[0] == corners[start]
                step = 1 if runs == "ranks" else 7
                line = 7 if runs == "ranks" else 9
                assert abs(chain[1] - chain[0]) == step
                if wiring == "serpentine":   # every hop goes to a neighbouring square
                    for a, b in zip(chain, chain[1:]):
                        assert abs(a % 7 - b % 7) + abs(a // 7 - b // 7) == 1, (a, b)
                else:                        # every line starts on the same side
                    starts = chain[::line]
                    if runs == "ranks":
                        assert len({s % 7 for s in starts}) == 1
                    else:
                        assert len({s // 7 for s in starts}) == 1
    assert gen.led_chain("serpentine", "a1", "ranks")[:8] == [0, 1, 2, 3, 4, 5, 6, 13]
    assert gen.led_chain("rows", "g9", "files")[:3] == [62, 55, 48]


def test_led_table_in_docs_matches_config(gen):
    with open(os.path.join(HARDWARE, "leds.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- led-table:start[^>]*-->\n(.*?)<!-- led-table:end -->", text, re.S)
    assert m, "hardware/leds.md lost its led-table markers"
    expected = gen.led_table_markdown(gen.load_settings(CONFIG))
    assert m.group(1) == expected, "paste the output of: python tools/wiring_svg.py --led-table"


def test_led_chain_matches_the_firmware_driver(gen):
    # The diagram and leds.md must number the LEDs the way drivers/leds.py addresses them.
    # chain_index() is pure Python; take it out of the module without importing machine/neopixel.
    import ast
    path = os.path.join(ROOT, "firmware", "drivers", "leds.py")
    if not os.path.exists(path):
        pytest.skip("firmware/drivers/leds.py not present")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "chain_index"]
    assert funcs, "drivers/leds.py has no chain_index(sq, wiring, start, runs) any more"
    ns = {}
    exec(compile(ast.Module(body=funcs, type_ignores=[]), path, "exec"), ns)
    for wiring in gen.LED_WIRINGS:
        for start in gen.LED_STARTS:
            for runs in gen.LED_RUNS_OPTIONS:
                ours = gen.led_index_of_square(gen.led_chain(wiring, start, runs))
                theirs = [ns["chain_index"](sq, wiring, start, runs) for sq in range(63)]
                assert ours == theirs, (wiring, start, runs)


def test_the_build_guide_gives_micropythons_version_and_the_firmwares_hold_time(config):
    # Step 6 names the MicroPython the firmware needs and where to get it (or the ready UF2);
    # every "hold OK for N s" in the guide is the firmware's own long press (config.py).
    with open(os.path.join(HARDWARE, "build-guide.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("## 6. ")
    step6 = text[start:text.index("\n## 7. ", start)]
    assert "MicroPython v1.28" in step6
    assert "https://micropython.org/download/RPI_PICO/" in step6
    assert "tools/build_firmware.py" in step6 and "Install the ready firmware" in step6
    holds = re.findall(r"[Hh]old OK for ([0-9.]+) s", text)
    assert holds, "the guide says how long to hold OK"
    assert "about a second" not in text
    for seconds in holds:
        assert round(float(seconds) * 1000) == config.LONG_PRESS_MS, seconds
