#!/usr/bin/env python3
"""Generate the hardware files from the circuit description and check its electrical rules.

    python tools/hardware.py            write hardware/pinmap.csv, bom.csv, schematic.svg, the
                                        three wiring diagrams and the KiCad netlist
                                        barragoon.net, after the rules check passed
    python tools/hardware.py --check    write nothing; exit 1 and name every stale file
    python tools/hardware.py --erc      only run the electrical rules check on every build option
    python tools/hardware.py --erc --legacy
                                        the same check on the first documented design: shows
                                        what it fails (exit 1)
    python tools/hardware.py --erc --reviewed
                                        ... and on the design the first electronics review
                                        found
    python tools/hardware.py --faults   every single wiring fault (each pin of each part left
                                        unsoldered, moved to GND, to +5V, to its neighbouring
                                        pin's net) through the check: how many it reports
    python tools/hardware.py --erc --variant supply=external,sensor=hall,input=encoder
    python tools/hardware.py --kicad my.net --variant supply=external
                                        write the KiCad netlist of one build option

The circuit is tools/circuit/design.py; pins and settings come from firmware/config.py. Exit
status: 0 all good, 1 rule violations, stale files or a fault the check could not take, 2 a
usage mistake (bad option or file).
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from circuit import design, erc, faults, history, kicad, outputs, schematic  # noqa: E402
from circuit.config import ConfigError, DEFAULT_CONFIG, load_config  # noqa: E402
import wiring_svg  # noqa: E402

ROOT = os.path.dirname(HERE)
DEFAULT_OUT = os.path.join(ROOT, "hardware")
OPTIONS = {"supply": design.SUPPLIES, "sensor": design.SENSORS, "input": design.INPUTS}


class UsageError(Exception):
    pass


def parse_variant(text):
    v = {}
    for item in text.split(","):
        key, _, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if key not in OPTIONS:
            raise UsageError("--variant: unknown option %r (use %s)" % (key, ", ".join(OPTIONS)))
        if value not in OPTIONS[key]:
            raise UsageError("--variant: %s=%s is not an option (use %s)"
                             % (key, value, " or ".join(OPTIONS[key])))
        v[key] = value
    return v


def build(v, cfg, which="current"):
    if which == "current":
        return design.build(v, cfg)
    return history.build(v, cfg, legacy=(which == "legacy"))


def run_erc(cfg, variants, which="current", out=None):
    """Print the violations of every variant; return how many there were."""
    out = out or sys.stdout
    total = 0
    for v in variants:
        violations = erc.check(build(v, cfg, which))
        name = variant_name(v)
        if not violations:
            out.write("ok    %s\n" % name)
            continue
        total += len(violations)
        out.write("FAIL  %s\n" % name)
        for x in violations:
            out.write("      %-17s %s: %s\n" % (x.rule, x.where, x.message))
    return total


def run_faults(cfg, variants, out=None):
    """Every single wiring fault of each variant through the check: one line per variant (how
    many faults, how many reported, the rules that report most) and one per fault the check
    could not take. Returns 1 if there was such a fault."""
    out = out or sys.stdout
    bad = 0
    for v in variants:
        results = faults.run(design.build(v, cfg), erc.check)
        crashed = [(f, r) for f, r in results.items() if isinstance(r, Exception)]
        reported = [r for r in results.values() if not isinstance(r, Exception) and r]
        by_rule = {}
        for r in reported:
            for rid in {x.rule for x in r}:
                by_rule[rid] = by_rule.get(rid, 0) + 1
        top = sorted(by_rule.items(), key=lambda kv: (-kv[1], kv[0]))[:4]
        out.write("%s: %d single faults, %d reported (most by %s)\n" % (
            variant_name(v), len(results), len(reported),
            ", ".join("%s %d" % kv for kv in top)))
        for f, e in crashed:
            out.write("  check failed on %s: %s: %s\n" % (faults.describe(f),
                                                          type(e).__name__, e))
        bad += len(crashed)
    return 1 if bad else 0


def generated(cfg, config_path):
    """{file name: text} of everything generated into hardware/."""
    files = {"pinmap.csv": outputs.pinmap_csv(cfg), "bom.csv": outputs.bom_csv(cfg),
             "schematic.svg": schematic.render(cfg)}
    pins = wiring_svg.Pins(wiring_svg.rows_from_csv(files["pinmap.csv"], "pinmap.csv"))
    files.update(wiring_svg.render_pins(pins, wiring_svg.load_settings(config_path)))
    files["barragoon.net"] = kicad.netlist(design.build(design.DEFAULT, cfg), variant_name({}))
    return files


def variant_name(v):
    return "supply=%(supply)s sensor=%(sensor)s input=%(input)s" % dict(design.DEFAULT, **v)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__.split(
        "\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    ap.add_argument("--erc", action="store_true", help="only the electrical rules check")
    ap.add_argument("--legacy", action="store_true",
                    help="check the first documented design (with --erc)")
    ap.add_argument("--reviewed", action="store_true",
                    help="check the design the first electronics review found (with --erc)")
    ap.add_argument("--faults", action="store_true",
                    help="run every single wiring fault through the check, per build option")
    ap.add_argument("--kicad", metavar="FILE",
                    help="write the KiCad netlist of the build option --variant to FILE")
    ap.add_argument("--variant", help="one build option, e.g. supply=external,sensor=hall")
    ap.add_argument("--config", default=DEFAULT_CONFIG, help="firmware config (config.py)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="directory of the generated files")
    args = ap.parse_args(argv)
    try:
        for flag in ("legacy", "reviewed"):
            if getattr(args, flag) and not args.erc:
                raise UsageError("--%s only goes with --erc (nothing is generated from it)"
                                 % flag)
        if args.legacy and args.reviewed:
            raise UsageError("--legacy and --reviewed: choose one design")
        if args.kicad and (args.erc or args.check):
            raise UsageError("--kicad writes one netlist: leave out --erc and --check")
        if args.faults and (args.erc or args.check or args.kicad):
            raise UsageError("--faults runs on its own: leave out --erc, --check and --kicad")
        variants = [parse_variant(args.variant)] if args.variant else design.VARIANTS
        cfg = load_config(args.config)
        if not os.path.isdir(args.out):
            raise UsageError("--out: %s is not a directory" % args.out)
    except (UsageError, ConfigError) as e:
        print("hardware.py: %s" % e, file=sys.stderr)
        return 2
    which = "legacy" if args.legacy else "reviewed" if args.reviewed else "current"
    if args.faults:
        return run_faults(cfg, variants)
    if args.erc:
        n = run_erc(cfg, variants, which)
        print("%d violation%s" % (n, "" if n == 1 else "s"))
        return 1 if n else 0
    n = run_erc(cfg, variants, out=_Quiet())
    if n:
        run_erc(cfg, variants)
        print("electrical rules check failed: nothing written", file=sys.stderr)
        return 1
    if args.kicad:
        v = variants[0] if args.variant else {}
        try:
            with open(args.kicad, "w", encoding="utf-8") as f:
                f.write(kicad.netlist(design.build(v, cfg), variant_name(v)))
        except OSError as e:
            print("hardware.py: --kicad: cannot write %s (%s)" % (args.kicad, e.strerror or e),
                  file=sys.stderr)
            return 2
        print("wrote %s (%s)" % (args.kicad, variant_name(v)))
        return 0
    stale = wiring_svg.write_or_check(generated(cfg, args.config), args.out, args.check)
    return 1 if (stale and args.check) else 0


class _Quiet:
    def write(self, text):
        pass


if __name__ == "__main__":
    sys.exit(main())
