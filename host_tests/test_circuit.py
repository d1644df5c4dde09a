# The circuit as data (tools/circuit): every build option passes the electrical rules; the
# earlier designs fail exactly the rules their reviews' findings describe; each rule catches the
# fault it is there for, injected into every build option; and the firmware drives the pins the
# way the rules assume. CPython only (pytest).
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from circuit import design, erc, history, parts as P  # noqa: E402
from circuit.config import load_config  # noqa: E402
from circuit.graph import Graph  # noqa: E402
from circuit.netlist import Part  # noqa: E402
from circuit_faults import (CASES, FAULTS, f_backfeed, f_bypass, f_diode_direction,  # noqa: E402
                            f_diode_orientation, f_gpio_current, f_i2c_rise_time,
                            f_logic_levels, f_column_low_level, f_undriven_input, reverse)


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def rules(c):
    return sorted({(v.rule, v.where) for v in erc.check(c)})


def name(v):
    return "%(supply)s/%(sensor)s/%(input)s" % v


EXTERNAL = [v for v in design.VARIANTS if v["supply"] == "external"]
HALL = [v for v in design.VARIANTS if v["sensor"] == "hall"]


@pytest.mark.parametrize("variant", design.VARIANTS, ids=name)
def test_every_build_option_passes_the_rules(cfg, variant):
    c = design.build(variant, cfg)
    assert erc.check(c) == []


def test_every_rule_is_listed_once():
    assert len(erc.RULES) == len(erc.RULE_IDS) == len(set(erc.RULE_IDS)) == 37
    for rule, rid in zip(erc.RULES, erc.RULE_IDS):
        assert rule.__name__ == "rule_" + rid.replace("-", "_")


# --- the first documented design -----------------------------------------------------------------

def legacy_expected(v):
    """What the first documented design fails, option by option (its review's findings; the
    rules added since find more in it, marked "later")."""
    out = {("usb-capacitance", "+5V"),                      # 1000 uF on VBUS
           ("column-pullup", "COL_A..COL_G"),               # internal pull-ups only
           ("column-settle", "COL_A"),                      # MATRIX_SETTLE_US = 0
           ("conductor-rating", "U1.VBUS"),                 # the LEDs through the Pico (later)
           ("esd", "J6"), ("esd", "J7"),                    # (later)
           ("i2c-rise-time", "I2C_SDA"), ("i2c-rise-time", "I2C_SCL")}   # (later)
    if v["supply"] == "external":
        out |= {("one-source", "+5V"),                      # USB and the supply joined
                ("fused", "PS1")}                           # no fuse
    else:
        out |= {("conductor-rating", "J5"),                 # 0.5 mm2 in XH crimps (later)
                ("ground-return", "U1.VBUS"),               # (later)
                ("supply-drop", "U2.VCC")}                  # the cable's drop (later)
    if v["input"] == "encoder_module":
        out |= {("gpio-voltage", "GP18 (ENC_A)"),           # "+" on VBUS
                ("gpio-voltage", "GP19 (ENC_B)")}
    if v["input"] == "encoder":
        out |= {("exposed-metal", "ENC1.MP")}               # the shaft floats (later)
    if v["sensor"] == "reed":
        out |= {("gpio-fight", "ROW_1..ROW_9")}             # push-pull idle rows
    else:
        out |= {("gpio-capacitance", "ROW_1..ROW_9"),       # 100 nF on every row
                ("hall-row-drive", "ROW_1..ROW_9"),         # 4 mA drive
                ("gpio-current", "ROW_1..ROW_9"),           # (later)
                ("bypass", "H2-H7, H9-H14, H16-H21, H23-H28, H30-H35, H37-H42, H44-H49, "
                           "H51-H56, H58-H63.VCC")}         # (later; a row capacitor serves one)
    return sorted(out)


@pytest.mark.parametrize("variant", design.VARIANTS, ids=name)
def test_the_old_design_fails_exactly_its_findings(cfg, variant):
    assert rules(history.build(variant, cfg, legacy=True)) == legacy_expected(variant)


def test_findings_1_to_3_are_failing_checks_on_the_old_design(cfg):
    old = history.build(dict(supply="external", sensor="reed", input="encoder_module"), cfg,
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


# --- the design the first electronics review found -----------------------------------------------

def reviewed_expected(v):
    """The findings of that review that are rules (numbered as the review numbered them), option
    by option; "later": what the rules added since find in it too."""
    out = {("conductor-rating", "U1.VBUS"),     # 2: up to 3 A through the Pico's USB socket
           ("conductor-rating", "J5"),          # 3: 0.5 mm2 in XH crimps (and 4 A over 3 A)
           ("esd", "J6"), ("esd", "J7"),        # 4: no ESD protection on what a user touches
           ("supply-drop", "U2.VCC"),           # 9: VBUS after the cable below U2's 4.5 V
           ("i2c-rise-time", "I2C_SDA"),        # 10: 10 kOhm module pull-ups at 400 kHz
           ("i2c-rise-time", "I2C_SCL")}
    if v["supply"] == "external":
        out |= {("input-protection", "J8"),     # 1: 9-24 V or a reversed plug gets through
                ("fuse-rating", "F1"),          # 3: never trips on a short; trips when warm
                ("conductor-rating", "JP1"),
                ("ground-return", "GND")}       # 6: the LED return through the Pico's ground
    else:
        out |= {("ground-return", "U1.VBUS")}   # 6
    if v["sensor"] == "hall":
        out |= {("gpio-current", "ROW_1..ROW_9"),     # 7: 21 mA at the 12 mA setting
                ("bypass", "H1-H63.VCC")}             # 7: no capacitor at the sensors
    if v["input"] == "encoder":
        out |= {("exposed-metal", "ENC1.MP")}         # later: the shaft floats
    return sorted(out)


@pytest.mark.parametrize("variant", design.VARIANTS, ids=name)
def test_the_reviewed_design_fails_its_review_s_findings(cfg, variant):
    assert rules(history.build(variant, cfg)) == reviewed_expected(variant)


def test_the_review_s_figures(cfg):
    c = history.build(dict(supply="external", sensor="hall"), cfg)
    msg = {(v.rule, v.where): v.message for v in erc.check(c)}
    # 3: hold current derated to 2.0 A at 50 C against about 2.07 A; trip 5.75 A at 0 C > 4 A
    fuse = [v.message for v in erc.check(c, ["fuse-rating"])]
    assert "holds 2000 mA at 50 C" in fuse[0] and "5750 mA at 0 C" in fuse[1]
    # 7: 21 mA through a row pin set to 12 mA
    assert "21 mA" in msg[("gpio-current", "ROW_1..ROW_9")]
    # 10: 10 kOhm and 70 pF rise in 623 ns, 400 kHz allows 300
    assert "623 ns" in msg[("i2c-rise-time", "I2C_SDA")]
    # 9: 4.34 V at U2 after the cable and the extension (USB)
    usb = history.build(dict(supply="usb", sensor="hall"), cfg)
    assert "4.34 V" in erc.check(usb, ["supply-drop"])[0].message
    # the unprotected DC jack reaches all 63 LEDs: one span, not 63 names
    jack = msg[("input-protection", "J8")]
    assert "LED1-LED63.VDD (-0.5 to 5.5 V)" in jack and "C65, C77 (polarised, 10 V)" in jack


# --- each rule catches its fault, on every build option ------------------------------------------

@pytest.mark.parametrize("rule, variant", CASES, ids=["%s-%s" % (r, name(v)) for r, v in CASES])
def test_each_rule_catches_its_fault(cfg, rule, variant):
    c = design.build(variant, cfg)
    FAULTS[rule](c, variant)
    found = erc.check(c, [rule])
    assert found and all(v.rule == rule for v in found), (rule, found)


def test_the_faults_the_first_review_injected_are_caught_by_their_rules(cfg):
    # The faults that review injected and the check then missed, named as it named them.
    v = dict(supply="external", sensor="reed", input="buttons")
    cases = [("backfeed", f_backfeed, "PS1.+ pushes current into J9's rail"),
             ("diode-orientation", f_diode_orientation, "D64"),
             ("i2c-rise-time", f_i2c_rise_time, "no pull-up"),
             ("undriven-input", f_undriven_input, "U2.DIR"),
             ("bypass", f_bypass, "U2.VCCB"),
             ("gpio-current", f_gpio_current, "28 mA")]
    for rule, fault, word in cases:
        c = design.build(v, cfg)
        fault(c, v)
        found = erc.check(c, [rule])
        assert any(word in x.where or word in x.message for x in found), (rule, found)
    old = history.build(v, cfg)
    old.rewire("U2", "1OE", "FLOATING")                 # U2's 1OE left floating
    assert ("undriven-input", "U2.1OE") in {(x.rule, x.where) for x in erc.check(old)}
    old = history.build(v, cfg)
    old.disconnect("U2", "2A")                          # ... or 2A
    assert ("undriven-input", "U2.2A") in {(x.rule, x.where) for x in erc.check(old)}


def test_a_module_without_pull_ups_is_fine_with_the_pull_ups_at_j6(cfg):
    c = design.build(None, cfg)
    c.parts["DS1"].type = P.oled_module(None)
    assert erc.check(c) == []


# --- figures -------------------------------------------------------------------------------------

def test_the_usb_rail_after_the_cable_and_f2_still_feeds_the_leds_and_u2(cfg):
    for sensor in ("reed", "hall"):
        g = Graph(design.build(dict(sensor=sensor), cfg))
        v = g.vmin["+5V"]
        # A 1.5 m cable with 28 AWG power wires and F2 take about 0.7 V at full load; what is
        # left is above the WS2812B's 3.5 V and far above U2's 1.65 V.
        assert 3.5 < v < 4.3, v
        assert g.vmin["VSYS"] > 1.8


def test_f1_holds_the_external_budget_warm_and_trips_below_the_supply_cold(cfg):
    from circuit.rules_power import _fuses
    c = design.build(dict(supply="external"), cfg)
    g = Graph(c)
    (f1, up, down), = [f for f in _fuses(g) if f[0].ref == "F1"]
    load = g.subtree_ma(down)
    assert load <= 1000 * 1.6 * P.derating(design.AMBIENT_C[1])
    assert 1000 * 3.2 * P.derating(design.AMBIENT_C[0]) <= c.parts["PS1"].type.pins["+"].ma_fault
    assert g.fault_ma["+5V"] == pytest.approx(3680)


def string_window(ra, rb, rc, tol, vref=(0.4925, 0.5075)):
    """The LTC4365's window for the string VIN - ra - UV - rb - OV - rc - GND, in closed form."""
    lo, hi = 1 - tol, 1 + tol
    uv = (vref[0] * (1 + ra * lo / ((rb + rc) * hi)), vref[1] * (1 + ra * hi / ((rb + rc) * lo)))
    ov = (vref[0] * (1 + (ra + rb) * lo / (rc * hi)), vref[1] * (1 + (ra + rb) * hi / (rc * lo)))
    return uv + ov


def test_the_cutoff_passes_5_v_supplies_and_blocks_wrong_adapters(cfg):
    c = design.build(dict(supply="external"), cfg)
    window = Graph(c).windows["U3"]             # from the resistors on UV and OV, fitted
    assert window == pytest.approx(string_window(*design.OVP_STRING, design.OVP_TOL))
    uv_lo, uv_hi, ov_lo, ov_hi = window
    assert uv_hi < 4.75 - 0.4 and 5.25 < ov_lo       # a 5 V supply at full load passes
    assert ov_hi <= 5.5 and uv_lo > 3.5              # the WS2812B's 5.5 V, U2 and VSYS safe
    # The window follows the resistors: 357 kOhm fitted for 35.7 kOhm lets 6-7 V through.
    c.parts["R15"].type = P.resistor(357e3, design.OVP_TOL)
    assert Graph(c).windows["U3"] == pytest.approx(string_window(953e3, 357e3, 102e3, 0.001))
    assert 6.5 < Graph(c).windows["U3"][3] < 7.5


def test_the_power_sense_reads_the_external_supply_within_the_adc_range(cfg):
    from circuit.graph import propagate
    c = design.build(dict(supply="external"), cfg)
    g = Graph(c)
    ov_hi = g.windows["U3"][3]
    hi = propagate(g, {"EXT_5V": ov_hi}, +1, g.links)[0]["POWER_SENSE"]
    assert 3.0 < hi < 3.3                           # below ADC_VREF: the highest supply reads
    lo = propagate(g, {"EXT_5V": 4.3}, +1, g.links)[0]["POWER_SENSE"]
    assert lo == pytest.approx(4.3 * 0.6)


# --- single rules in more detail -----------------------------------------------------------------

def test_reversed_matrix_diodes_do_not_match_the_firmware(cfg):
    for sensor in ("reed", "hall"):
        c = design.build(dict(sensor=sensor), cfg)
        f_diode_direction(c, None)
        found = [v for v in erc.check(c) if v.rule == "diode-direction"]
        assert found and found[0].where == "all 63 squares", (sensor, found)


def test_firmware_level_setting_must_match_the_wiring(cfg):
    c = design.build(None, cfg)
    c.settings["active_level"] = 1            # wired for 0 (pull-ups, row driven low)
    assert "diode-direction" in {v.rule for v in erc.check(c)}
    c = design.build(dict(sensor="hall"), cfg)
    c.settings["diode"] = "row_cathode"      # the old hall wiring's setting on the new wiring
    assert "diode-direction" in {v.rule for v in erc.check(c)}


def test_led_data_without_the_level_shifter_is_too_low(cfg):
    c = design.build(None, cfg)
    f_logic_levels(c, None)
    found = [v for v in erc.check(c) if v.rule == "logic-levels"]
    assert [v.where for v in found] == ["LED1.DIN"]
    assert "U1.GP22" in found[0].message


def test_column_pullups_too_strong_lift_the_low_level(cfg):
    c = design.build(None, cfg)
    for ref in ("R3", "R4", "R5", "R6", "R7", "R8", "R9"):
        c.parts[ref].type = P.resistor(10e3)
    assert erc.check(c) == []                 # 10 kOhm: close to the limit, still below
    f_column_low_level(c, None)
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
    assert [v.where for v in found] == ["J9.VBUS"]
    c = design.build(dict(supply="external"), cfg)
    c.settings["led_budget_ma"] = 2000         # an early limit: above F1's warm hold current
    assert [v.where for v in erc.check(c) if v.rule == "fuse-rating"] == ["F1"]


def test_one_source_per_rail_holds_in_both_switch_positions(cfg):
    for supply, position in (("usb", "USB"), ("external", "EXT")):
        c = design.build(dict(supply=supply), cfg)
        assert c.parts["SW69"].attrs["position"] == position
        srcs = Graph(c).direct_sources("+5V")
        assert len(srcs) == 1
        assert srcs[0][1].ref == ("J9" if supply == "usb" else "PS1")
    c = design.build(dict(supply="external"), cfg)
    c.parts["SW69"].attrs["position"] = "both"
    found = [v for v in erc.check(c) if v.rule == "one-source"]
    assert found and "J9.VBUS" in found[0].message and "PS1.+" in found[0].message


def test_a_reversed_mosfet_lets_a_reversed_plug_through(cfg):
    c = design.build(dict(supply="external"), cfg)
    reverse(c, "Q2", "D", "S")
    rules_hit = {v.rule for v in erc.check(c)}
    assert {"input-protection", "diode-orientation"} <= rules_hit


def test_a_cutoff_set_too_low_would_cut_off_the_board_s_own_supply(cfg):
    c = design.build(dict(supply="external"), cfg)
    c.parts["R16"].type = P.resistor(130e3, 0.001)
    msgs = [v.message for v in erc.check(c, ["input-protection"])]
    assert any("passes only" in m for m in msgs), msgs


def test_the_selector_s_faults_are_reported_not_raised(cfg):
    # Its common lug unsoldered leaves the LED rail without a source; its USB and EXT lugs
    # swapped put the external budget on the USB port.
    for supply in ("usb", "external"):
        c = design.build(dict(supply=supply), cfg)
        c.disconnect("SW69", "A_COM")
        assert "power-pins" in {v.rule for v in erc.check(c)}
    c = design.build(dict(supply="external"), cfg)
    usb, ext = c.parts["SW69"].net["A_USB"], c.parts["SW69"].net["A_EXT"]
    c.rewire("SW69", "A_USB", ext)
    c.rewire("SW69", "A_EXT", usb)
    found = {(v.rule, v.where) for v in erc.check(c)}
    assert {("supply-current", "J9.VBUS"), ("fuse-rating", "F2")} <= found


def test_a_rail_fed_through_a_diode_passes_all_its_load_on(cfg):
    # The selector's USB lug on VSYS: the LEDs hang off the Pico's VSYS, which its diode feeds
    # from VBUS; their current still counts against the USB port.
    c = design.build(None, cfg)
    before = Graph(c).load["VBUS"] + Graph(c).load["+5V"]
    c.rewire("SW69", "A_USB", "VSYS")
    g = Graph(c)
    assert g.load["VBUS"] == pytest.approx(before)
    assert g.load["VBUS"] > c.settings["led_budget_ma"]
    # ... and it runs through the Pico's socket and diode: reported.
    assert [v.where for v in erc.check(c, ["ground-return"])] == ["U1.VSYS"]


def test_an_output_tied_to_a_rail_is_a_fight(cfg):
    c = design.build(None, cfg)
    c.rewire("LED63", "DOUT", "+5V")                       # the chain's last output, unused
    assert [(v.rule, v.where) for v in erc.check(c)] == [("gpio-fight", "LED63.DOUT")]


def test_parts_without_power_are_reported_not_raised(cfg):
    # An LED's or the translator's supply pin unsoldered: the logic-level rules cannot know
    # the thresholds; the check says what is missing instead of stopping.
    for sensor, ref, pin in (("reed", "LED5", "VDD"), ("reed", "LED1", "VSS"),
                             ("reed", "U2", "VCCB"), ("reed", "LED1", "VDD"),
                             ("hall", "H1", "VCC")):
        c = design.build(dict(sensor=sensor), cfg)
        c.disconnect(ref, pin)
        assert "power-pins" in {v.rule for v in erc.check(c)}, (ref, pin)


def test_a_direction_pin_tied_low_turns_the_translator_round(cfg):
    c = design.build(None, cfg)
    c.rewire("U2", "DIR", "GND")
    found = {(v.rule, v.where) for v in erc.check(c)}
    assert ("gpio-fight", "U2.A") in found                  # now an output, against GP22
    assert ("signal-path", "LED1.DIN") in found             # and the LEDs get nothing


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


def _load(name, path):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_led_limits_in_the_rules_are_the_firmware_limits(cfg):
    cc = _load("cc", os.path.join(ROOT, "firmware", "drivers", "config_check.py"))
    assert design.build(dict(supply="usb"), cfg).settings["led_budget_ma"] == \
        cc.POWER_LIMITS["usb"]
    assert design.build(dict(supply="external"), cfg).settings["led_budget_ma"] == \
        cc.POWER_LIMITS["external"]
    # The LED driver's own hard limits (it runs without the config checker) are the same.
    import re
    with open(os.path.join(ROOT, "firmware", "drivers", "leds.py"), encoding="utf-8") as f:
        text = f.read()
    consts = {k: int(v) for k, v in re.findall(r"^(\w+) = const\((\d+)\)", text, re.M)}
    assert consts["USB_MA"] == cc.POWER_LIMITS["usb"]
    assert consts["MAX_MA"] == cc.POWER_LIMITS["external"]
    assert consts["MIN_MA_PER_CHANNEL"] == cc.MIN_MA_PER_CHANNEL


def test_power_sense_threshold_matches_the_divider():
    # drivers/power.py reads the external supply as present from the ADC value of 4.3 V
    # through R17/R18; the same divider is in the circuit.
    import re
    with open(os.path.join(ROOT, "firmware", "drivers", "power.py"), encoding="utf-8") as f:
        text = f.read()
    thr = int(re.search(r"^PRESENT_U16 = const\((\d+)\)", text, re.M).group(1))
    top, bottom = design.SENSE_DIVIDER
    volts = thr / 65535 * 3.3 * (top + bottom) / bottom
    assert 4.2 < volts < 4.4, volts
