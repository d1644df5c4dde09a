# Engine strength in matches (tools/bench_engine.py), CPython only. By default a few short,
# seeded games that the lowest level must win; BARRAGOON_ENGINE_MATCHES=N plays the issue's
# four target matches with N games each (N=200 is the full target run: long, use nice) and
# checks the targets.
import os

import pytest

import bench_engine

GAMES = int(os.environ.get("BARRAGOON_ENGINE_MATCHES") or 0)


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_lowest_level_wins_short_matches(opponent):
    w, d, l = bench_engine.match("L1", opponent, 4, "both", 200, seed=3, out=lambda s: None)
    assert (w, d, l) == (4, 0, 0)


@pytest.mark.skipif(not GAMES, reason="set BARRAGOON_ENGINE_MATCHES=N for N-game matches")
@pytest.mark.parametrize("a,b,what,ok", bench_engine.TARGETS,
                         ids=["%s-%s" % (t[0], t[1]) for t in bench_engine.TARGETS])
@pytest.mark.parametrize("openings", ["start", "random"])
def test_strength_targets(a, b, what, ok, openings):
    lines = []
    w, d, l = bench_engine.match(a, b, GAMES, openings, 200, out=lines.append)
    print("\n".join(lines))
    assert ok(w, d, l), "%s vs %s: %s not met: won %d, drawn %d, lost %d" % (a, b, what, w, d, l)
