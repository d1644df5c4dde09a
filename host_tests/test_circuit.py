# The circuit as data (tools/circuit): every build option passes the electrical rules; the
# design as documented before issue 14 fails exactly the rules its findings describe; each rule
# catches the mistake it is there for; and the firmware drives the pins the way the rules
# assume. CPython only (pytest).
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from circuit import design, erc, parts as P  # noqa: E402
from circuit.config import load_config  # noqa: E402
from circuit.netlist import Part  # noqa: E402


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def rules(c):
    return sorted({(v.rule, v.where) for v in erc.check(c)})


def name(v):
    return "%(supply)s/%(sensor)s/%(input)s" % v


@pytest.mark.parametrize("variant", design.VARIANTS, ids=name)
def test_every_build_option_passes_the_rules(cfg, variant):
    c = design.build(variant, cfg)
    assert erc.check(c) == []


# --- the design before issue 14 ------------------------------------------------------------------

def legacy_expected(v):
    """What the old design fails, option by option (issue 14's findings in brackets)."""
    out = {("usb-capacitance", "+5V"),                      # 1000 uF on VBUS [4]
           ("column-pullup", "COL_A..COL_G"),               # internal pull-ups only [5]
           ("column-settle", "COL_A")}                      # MATRIX_SETTLE_US = 0 [5]
    if v["supply"] == "external":
        out |= {("one-source", "+5V"),                      # USB and the supply joined [1]
                ("fused", "PS1")}                           # no fuse [1]
    if v["input"] == "encoder_module":
        out |= {("gpio-voltage", "GP18 (ENC_A)"),           # "+" on VBUS [2]
                ("gpio-voltage", "GP19 (ENC_B)")}
    if v["sensor"] == "reed":
        out |= {("gpio-fight", "ROW_1..ROW_9")}             # push-pull idle rows [3]
    else:
        out |= {("gpio-capacitance", "ROW_1..ROW_9"),       # 100 nF on every row [8]
                ("hall-row-drive", "ROW_1..ROW_9")}         # 4 mA drive [8]
    return sorted(out)


@pytest.mark.parametrize("variant", design.VARIANTS, ids=name)
def test_the_old_design_fails_exactly_its_findings(cfg, variant):
    assert rules(design.build(variant, cfg, legacy=True)) == legacy_expected(variant)


def test_findings_1_to_3_are_failing_checks_on_the_old_design(cfg):
    old = design.build(dict(supply="external", sensor="reed", input="encoder_module"), cfg,
                       legacy=True)
    by_rule = {}
    for v in erc.check(old):
        by_rule.setdefault(v.rule, []).append(v.message)
    # 1: the external supply feeds 5 V back into the computer, and nothing is fused.
    assert "U1.VBUS, PS1.+" in by_rule["one-source"][0]
    assert "without a fuse" in by_rule["fused"][0]
    # 2: the encoder module's pull-ups put VBUS on GP18 / GP19.
    assert all("5.25 V" in m for m in by_rule["gpio-voltage"])
    # 3: a shorted diode and two closed switches join a high row to the scanned low row.
    assert "shorted" in by_rule["gpio-fight"][0]
    # The same options built today pass.
    new = design.build(dict(supply="external", sensor="reed", input="encoder_module"), cfg)
    assert erc.check(new) == []


# --- each rule catches its mistake ---------------------------------------------------------------

def rewire(c, ref, pin, net):
    """Move one part pin to another net."""
    old = c.parts[ref].net.pop(pin)
    c.nets[old].remove((ref, pin))
    c.connect(net, "%s.%s" % (ref, pin))


def test_a_diode_or_from_vbus_starves_the_level_shifter(cfg):
    # The issue warns against feeding the LED rail through a Schottky from VBUS: 4.75 V minus
    # the diode is below the 74AHCT125's 4.5 V minimum.
    c = design.build(None, cfg)
    c.parts["JP1"].attrs["position"] = None
    c.add(Part("D99", P.SCHOTTKY, "1N5819"))
    c.connect("VBUS", "D99.A")
    c.connect("+5V", "D99.K")
    found = {(v.rule, v.where) for v in erc.check(c)}
    assert ("supply-range", "U2.VCC") in found
    assert any(r == "supply-range" and w.startswith("LED") for r, w in found) is False


def test_reversed_matrix_diodes_do_not_match_the_firmware(cfg):
    for sensor in ("reed", "hall"):
        c = design.build(dict(sensor=sensor), cfg)
        for d in [p for p in c.parts.values() if p.type is P.DIODE_1N4148]:
            a, k = d.net["A"], d.net["K"]
            rewire(c, d.ref, "A", "tmp")
            rewire(c, d.ref, "K", a)
            rewire(c, d.ref, "A", k)
        found = [v for v in erc.check(c) if v.rule == "diode-direction"]
        assert found and found[0].where == "all 63 squares", (sensor, found)


def test_firmware_level_setting_must_match_the_wiring(cfg):
    c = design.build(None, cfg)
    c.settings["active_level"] = 1            # wired for 0 (pull-ups, row driven low)
    assert "diode-direction" in {v.rule for v in erc.check(c)}


def test_led_data_without_the_level_shifter_is_too_low(cfg):
    c = design.build(None, cfg)
    rewire(c, "R1", "1", "LED_DATA")          # GP22 straight to R1 and DIN of LED 0
    found = [v for v in erc.check(c) if v.rule == "logic-levels"]
    assert [v.where for v in found] == ["LED1.DIN"]
    assert "U1.GP22" in found[0].message


def test_column_pullups_too_strong_lift_the_low_level(cfg):
    c = design.build(None, cfg)
    for ref in ("R3", "R4", "R5", "R6", "R7", "R8", "R9"):
        c.parts[ref].type = P.resistor(10e3)
    assert erc.check(c) == []                 # 10 kOhm: close to the limit, still below
    for ref in ("R3", "R4", "R5", "R6", "R7", "R8", "R9"):
        c.parts[ref].type = P.resistor(4.7e3)
    found = [v for v in erc.check(c) if v.rule == "column-low-level"]
    assert len(found) == 7


def test_settle_time_too_short_for_the_columns(cfg):
    c = design.build(None, cfg)
    c.settings["settle_us"] = 2
    assert [v.rule for v in erc.check(c)] == ["column-settle"]
    c = design.build(dict(sensor="hall"), cfg)
    c.settings["hall_power_up_us"] = 100       # the DRV5032's t_on alone, no margin
    assert [v.rule for v in erc.check(c)] == ["column-settle"]


def test_usb_current_budget_is_checked_against_the_port(cfg):
    c = design.build(None, cfg)
    c.settings["led_budget_ma"] = 500          # what a USB port gives for the whole board
    found = [v for v in erc.check(c) if v.rule == "supply-current"]
    assert [v.where for v in found] == ["U1.VBUS"]
    c = design.build(dict(supply="external"), cfg)
    c.settings["led_budget_ma"] = 2600         # above the PTC's hold current
    assert [v.where for v in erc.check(c) if v.rule == "supply-current"] == ["F1"]


def test_capacitor_voltage_rating(cfg):
    c = design.build(None, cfg)
    c.parts["C65"].type = P.capacitor(100, 6.3, True)
    assert [(v.rule, v.where) for v in erc.check(c)] == [("capacitor-voltage", "C65")]


def test_one_source_per_rail_holds_in_both_jumper_positions(cfg):
    for supply, position in (("usb", "USB"), ("external", "EXT")):
        c = design.build(dict(supply=supply), cfg)
        assert c.parts["JP1"].attrs["position"] == position
        g = erc.Graph(c)
        srcs = g.direct_sources("+5V")
        assert len(srcs) == 1
        assert srcs[0][1].ref == ("U1" if supply == "usb" else "PS1")
    # Both at once (a wire across the header instead of the jumper) is what the rule refuses.
    c = design.build(dict(supply="external"), cfg)
    c.parts["JP1"].attrs["position"] = "both"
    found = [v for v in erc.check(c) if v.rule == "one-source"]
    assert found and "U1.VBUS" in found[0].message and "PS1.+" in found[0].message


def test_hall_rows_need_the_strong_drive(cfg):
    c = design.build(dict(sensor="hall"), cfg)
    c.settings["row_drive_ma"] = 4
    assert [v.rule for v in erc.check(c)] == ["hall-row-drive"]


# --- the firmware does what the rules assume -----------------------------------------------------

def test_matrix_driver_row_modes_match_the_circuit():
    import vboard
    machine = vboard.install()
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from drivers.matrix import Matrix
    rows, cols = tuple(range(9, 18)), tuple(range(2, 9))
    for (sensor, diode), mode in design.ROW_MODES.items():
        vboard.reset()
        level = 0 if (sensor == "hall" or diode == "row_cathode") else 1
        m = Matrix(rows, cols, sensor, diode, level, settle_us=0)
        assert m.row_mode == mode, (sensor, diode)
        idle = {machine.driven(p) for p in rows}
        if mode == "push_pull":
            assert idle == {1 if diode == "row_cathode" else 0}
            assert {machine.drive_ma(p) for p in rows} == {design.HALL_ROW_DRIVE_MA}
        else:
            assert idle == {None}              # released: high-impedance
            assert {machine.drive_ma(p) for p in rows} == {design.DEFAULT_DRIVE_MA}
    vboard.reset()


def test_led_limits_in_the_rules_are_the_firmware_config_check_limits(cfg):
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "cc", os.path.join(ROOT, "firmware", "drivers", "config_check.py"))
    cc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cc)
    assert design.build(dict(supply="usb"), cfg).settings["led_budget_ma"] == \
        cc.POWER_LIMITS["usb"]
    assert design.build(dict(supply="external"), cfg).settings["led_budget_ma"] == \
        cc.POWER_LIMITS["external"]
