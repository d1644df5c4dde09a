# Engine strength in matches (tools/bench/bench_engine.py). By default a few short, seeded games
# that the lowest level must win against a random and a greedy player (CPython). With
# BARRAGOON_ENGINE_MATCHES=N the targets are played, N games per match (N=100 is the
# full target run: long, use nice; on the MicroPython unix port when there is one, the same
# games): L1 and L2 against the 2-ply reference player, each level against the one below,
# and at most 1 % of all games may reach 300 turns.
import os

import pytest

from bench import bench_engine

GAMES = int(os.environ.get("BARRAGOON_ENGINE_MATCHES") or 0)


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_lowest_level_wins_short_matches(opponent):
    w, d, l, capped = bench_engine.match("L1", opponent, 4, "both", 200, seed=3,
                                         out=lambda s: None)
    assert (w, d, l) == (4, 0, 0)


@pytest.mark.skipif(not GAMES, reason="set BARRAGOON_ENGINE_MATCHES=N for N-game matches")
def test_strength_targets():
    lines = []
    results = []
    opts = bench_engine.parse(["--games", str(GAMES)])
    assert bench_engine.matches(opts, lines.append, results) == 0, "\n".join(lines)
    print("\n".join(lines))
    total = capped = 0
    for (a, b, what, ok), r in zip(bench_engine.TARGETS, results):
        assert r[:2] == (a, b)
        w, d, l = r[2:5]
        assert ok(w, d, l), "%s vs %s: %s not met: won %d, drawn %d, lost %d" % (a, b, what, w,
                                                                               d, l)
        total += w + d + l
        capped += r[5]
    assert capped * 100 <= bench_engine.CAPPED_PERCENT * total, "%d of %d games capped" % (
        capped, total)
