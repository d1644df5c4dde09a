# tools/bench/bench_handling.py: hands of four kinds play through the board controller and the
# record is compared with what they did. By default a few short games per profile; set
# BARRAGOON_HANDLING_GAMES=200 (and BARRAGOON_HANDLING_TURNS, default 40) for the issue's targets:
# no wrong record and no stuck game in any profile, every game exact in careful and normal, at
# least 99.5 % in blitz and sloppy, questions per 100 turns at most 1, 1, 5, 10.
import json
import os
import subprocess
import sys

import micropython_env

from bench import bench_handling
from toolkit import hands, players

GAMES = int(os.environ.get("BARRAGOON_HANDLING_GAMES", "2"))
TURNS = int(os.environ.get("BARRAGOON_HANDLING_TURNS", "40" if GAMES >= 50 else "12"))
EXACT = {"careful": 1.0, "normal": 1.0, "blitz": 0.995, "sloppy": 0.995}
QUESTIONS = {"careful": 1, "normal": 1, "blitz": 5, "sloppy": 10}


def test_hands_of_every_kind_are_recorded_as_they_played():
    for profile in hands.PROFILES:
        out, bad = bench_handling.run(profile, GAMES, 1, TURNS)
        assert out["wrong_records"] == 0 and out["stuck_games"] == 0, (profile, bad)
        if GAMES >= 50:                        # (a rate over a few games means little)
            assert out["exact_games"] >= EXACT[profile] * out["games"], (profile, bad)
            assert out["questions_per_100_turns"] <= QUESTIONS[profile], (profile, out)


def tool(args, exe=None):
    return subprocess.run([exe or sys.executable, os.path.join(micropython_env.TOOLS, "bench",
                                                               "bench_handling.py")] + args,
                          capture_output=True, text=True, timeout=600, cwd=micropython_env.ROOT)


def test_json_holds_the_issues_keys_and_the_unix_port_plays_the_same_games():
    args = ["--profile", "blitz", "--games", "2", "--turns", "6", "--seed", "7", "--json"]
    r = tool(args)
    assert r.returncode == 0, r.stderr
    figures = json.loads(r.stdout)
    assert sorted(figures) == sorted(bench_handling.KEYS)
    assert figures["games"] == 2 and figures["turns"] == 12
    if micropython_env.find_micropython() is not None:
        m = tool(args + ["--micropython"])
        assert m.returncode == 0, m.stderr
        assert json.loads(m.stdout) == figures


CUTS = int(os.environ.get("BARRAGOON_HANDLING_CUTS", "6"))


def test_power_cuts_at_random_moments_keep_every_completed_turn_and_record_nothing_twice():
    # The plug pulled CUTS times a game at random moments (a tile in the hand, within the settle
    # time, the face picker open); the players power the board on and go on as it shows them.
    # Per profile one game: its record must be what the hands did (nothing lost, nothing twice).
    for profile in hands.PROFILES:
        r = players.play_game(profile, 3, 30, cuts=CUTS)
        assert r["cuts"] >= 1, profile
        assert not r["wrong"] and not r["stuck"], (profile, r["why"])
