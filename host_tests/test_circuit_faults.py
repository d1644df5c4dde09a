# The electrical rules check against faults. Every single wiring fault of a build (each pin of
# each part left unsoldered, moved to ground, to +5V, or to its neighbouring pin's net) gives a
# report and never an exception; every fault generated from the circuit (each polarised
# capacitor reversed, each resistor of the cut-off's string off by ten or swapped, each ground
# pin lifted...) and each rule's hand-made fault is caught by its rule; and every rule is
# needed: one of its faults is caught by it alone, so its test goes red without it.
# The whole fault space runs for the default build and one external-supply build, in one
# process on one circuit (tools/circuit/faults.py); BARRAGOON_CIRCUIT_FAULTS=all runs every
# build option. CPython only (pytest).
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from circuit import design, erc, faults  # noqa: E402
from circuit.config import load_config  # noqa: E402
from circuit_faults import ALONE, FAULTS, generated  # noqa: E402

EXTERNAL = dict(design.DEFAULT, supply="external")
ALL = os.environ.get("BARRAGOON_CIRCUIT_FAULTS") == "all"
SPACE = design.VARIANTS if ALL else [design.DEFAULT, EXTERNAL]
# Builds for the rules' own faults: between them every rule has something to check (hall rows,
# the encoder's shaft, the external supply, the ghosting of reed switches).
RULE_BUILDS = design.VARIANTS if ALL else [
    design.DEFAULT, dict(supply="external", sensor="reed", input="encoder"),
    dict(supply="usb", sensor="hall", input="encoder_module")]


def name(v):
    return "%(supply)s/%(sensor)s/%(input)s" % v


@pytest.fixture(scope="module")
def cfg():
    return load_config()


@pytest.mark.parametrize("variant", SPACE, ids=name)
def test_every_single_wiring_fault_gives_a_report(cfg, variant):
    c = design.build(variant, cfg)
    results = faults.run(c, erc.check)
    crashed = ["%s: %s: %s" % (faults.describe(f), type(e).__name__, e)
               for f, e in results.items() if isinstance(e, Exception)]
    assert not crashed, "the check raised on %d faults, e.g. %s" % (len(crashed), crashed[:5])
    pins = sum(len(p.type.pins) for p in c.parts.values())
    assert len(results) >= 3 * pins             # every pin, at least three ways
    assert erc.check(c) == []                  # each fault undone
    reported = sum(1 for r in results.values() if r)
    assert reported >= 0.8 * len(results), (reported, len(results))


def _rule_faults(c, variant, rule):
    """[(what, fault(c))] for rule on this build: its hand-made faults, where they apply, and
    the faults generated from the circuit."""
    out = []
    if not (rule == "hall-row-drive" and variant["sensor"] != "hall" or
            rule == "ghosting" and variant["sensor"] != "reed"):
        out.append(("%s's fault" % rule, lambda c: FAULTS[rule](c, variant)))
    if rule in ALONE:
        out.append(("%s's own fault" % rule, lambda c: ALONE[rule](c, variant)))
    return out + [(what, fault) for r, what, fault in generated(c) if r == rule]


def test_each_rule_catches_its_faults_and_is_needed(cfg):
    missed, alone, tried = [], {}, set()
    for variant in RULE_BUILDS:
        base = design.build(variant, cfg)
        for rule in erc.RULE_IDS:
            for what, fault in _rule_faults(base, variant, rule):
                c = design.build(variant, cfg)
                fault(c)
                found = {x.rule for x in erc.check(c)}
                tried.add(rule)
                if rule not in found:
                    missed.append((name(variant), rule, what, sorted(found)))
                elif found == {rule}:
                    alone[rule] = (name(variant), what)
    assert not missed, missed
    assert sorted(tried) == sorted(erc.RULE_IDS)
    # Each rule has a fault that no other rule reports: without the rule, it would pass.
    assert sorted(tried - set(alone)) == []
