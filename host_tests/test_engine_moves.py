# The engine's strength is its work: for the same position and the same work units it must
# choose the same turn, whatever is done to make it faster (the match tables of
# firmware/README.md, The engine, stay valid only then). engine_moves.txt holds a set of
# positions (game records: pending placements, repetitions and express stages included) with
# a budget in units each, from a few thousand to level 3's, and what the engine answered there
# when the set was recorded: the turn, its score, depth, nodes and units. Every search must
# give all of them again, on the MicroPython unix port (the whole set) and on CPython (the
# searches below level 2's budget: the viper kernels run there as plain Python).
#
# Re-recording (`python host_tests/test_engine_moves.py --record`) is only for a change that
# is meant to change the engine's play: its matches must then be played again.
import sys

RUNTIMES = ("cpython", "micropython")
MICRO = sys.implementation.name == "micropython"

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
DATA = HERE + "/engine_moves.txt"


def _cases():
    # One case a line: units<TAB>expected<TAB>record (its newlines as " / ").
    out = []
    with open(DATA) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                units, expected, record = line.rstrip("\n").split("\t")
                out.append((int(units), expected, record.replace(" / ", "\n")))
    return out


def _answer(record, units):
    from barragoon.engine import Engine
    from barragoon.record import parse_record
    t = Engine().run(parse_record(record), steps=units)
    return "%s|%d|%d|%d|%d" % (t.text, t.score, t.depth, t.nodes, t.steps)


def test_the_same_turn_for_the_same_work():
    from barragoon.engine import LEVELS
    cases = _cases()
    assert len(cases) >= 40
    wrong = []
    for units, expected, record in cases:
        if not MICRO and units >= LEVELS[2][1]:
            continue
        got = _answer(record, units)
        if got != expected:
            wrong.append("%d units: %s, recorded %s\n%s" % (units, got, expected, record))
    assert not wrong, "%d of %d differ:\n%s" % (len(wrong), len(cases), "\n".join(wrong))


# --- recording the set -----------------------------------------------------------------------
def _positions():
    """(record text, units): random games of 6 to 70 actions (every kind of turn, placements
    pending at the root among them), some with express stages, and two crowded positions."""
    from barragoon.game import Game
    from barragoon.engine import LEVELS
    from barragoon.record import format_record
    from bench.bench_engine import Rng, random_action
    rng = Rng(32)
    units = (4000, LEVELS[1][1], 9000, LEVELS[1][1], 30000)
    out = []
    for start in ("2d1dv1/2z[X]3/2[X]4/v[X]D[X]1z1/[X]1[X]3[X]/5[X]1/V2V3/1Z[X][X]Z2/2D1D2 w 22",
                  "[X]v[X][X]3/1[X]d[X][RN]2/[A]1[X][X]3/z[X]d[X]1Z1/[X]1V2[1E][X]/3V3/1Z2D2/"
                  "4D2/4D2 w 18"):
        out.append((format_record(Game(start)), LEVELS[2][1]))
    out.append((format_record(Game()), LEVELS[3][1]))
    while len(out) < 48:
        stages = (1, 1) if len(out) % 9 == 4 else (0, 0)
        g = Game(stages=stages)
        n = 6 + rng.below(64)
        for i in range(n):
            if g.over:
                break
            random_action(g, rng)
        if g.over:
            continue
        k = len(out)
        steps = LEVELS[3][1] if k == 20 else LEVELS[2][1] if k % 8 == 3 else units[k % 5]
        out.append((format_record(g), steps))
    return out


def record(path=DATA):
    lines = ["# units<TAB>text|score|depth|nodes|units<TAB>game record; recorded by "
             "`python host_tests/test_engine_moves.py --record`"]
    for text, units in _positions():
        lines.append("%d\t%s\t%s" % (units, _answer(text, units),
                                      text.strip().replace("\n", " / ")))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%d positions written to %s" % (len(lines) - 1, path))


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        print("usage: python host_tests/test_engine_moves.py --record  (re-records the set: "
              "only for a change meant to change the engine's play)")
        sys.exit(2)
    import os
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(HERE)), "firmware"))
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(HERE)), "tools"))
    record()
