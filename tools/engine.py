"""Print the engine's turn for a Barragoon position (runs on CPython and MicroPython).

    python tools/engine.py '<position>' [--time S | --depth N | --steps N | --level L]
                                        [--stages W,B]

The position is in the notation of the rules document, e.g. the start:
    1vd1dv1/2zdz2/7/1[X]3[X]1/[X]1[X]1[X]1[X]/1[X]3[X]1/7/2ZDZ2/1VD1DV1 w 24

Prints the turn in notation on the first line (the move and its placements: after a tile
capture the captured side's placement, as the engine expects it, comes first), then the
evaluation and how far the engine looked, e.g.
    d2xd5 e6=X
    evaluation: +0.45 for White (1.00 = a 2-tile); depth 3, 2710 nodes, 0.31 s

Limits: --time S seconds of thinking, --depth N turns, --steps N units of work (about one
tile's move generation each), --level 1-3 (the board's levels, as the work the Pico does in
their time, so the answer is the same on every machine). Every limit still completes the
first look at every move (and every face of the engine's own placements). Default: --level 2.
--stages W,B sets the express stage (0-2) of White and Brown (default 0,0).
Bad input: one line on stderr naming the problem, exit status 2.
"""
import sys


def _firmware_dir():
    here = __file__.replace("\\", "/")
    base = here.rsplit("/", 1)[0] if "/" in here else "."
    return base + "/../firmware"


sys.path.insert(0, _firmware_dir())

from barragoon.core import RulesError  # noqa: E402
from barragoon.game import Game, side_name  # noqa: E402
from barragoon.engine import Engine, LEVELS  # noqa: E402

try:
    from time import ticks_ms, ticks_diff
except ImportError:  # CPython
    from time import monotonic

    def ticks_ms():
        return int(monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b


class UsageError(Exception):
    pass


def _number(opt, text, low, high, kind=int):
    try:
        v = kind(text)
    except ValueError:
        raise UsageError("%s needs a number, not %r" % (opt, text))
    if not low <= v <= high:
        raise UsageError("%s must be between %s and %s" % (opt, low, high))
    return v


def parse_args(argv):
    """-> (position text, limits dict, stages). Raises UsageError."""
    words = []
    limits = {}
    stages = (0, 0)
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--time", "--depth", "--steps", "--level", "--stages"):
            if i + 1 >= len(argv):
                raise UsageError("%s needs a value" % a)
            v = argv[i + 1]
            i += 2
            if a == "--stages":
                parts = v.split(",")
                if len(parts) != 2:
                    raise UsageError("--stages takes W,B, e.g. 0,1")
                stages = (_number(a, parts[0], 0, 2), _number(a, parts[1], 0, 2))
                continue
            if limits:
                raise UsageError("give one of --time, --depth, --steps, --level")
            if a == "--time":
                limits["budget_ms"] = int(_number(a, v, 0.001, 3600, float) * 1000)
            elif a == "--depth":
                limits["depth"] = _number(a, v, 1, 12)
            elif a == "--steps":
                limits["steps"] = _number(a, v, 1, 100000000)
            else:
                limits["steps"] = LEVELS[_number(a, v, 1, len(LEVELS) - 1)][1]
            continue
        if a.startswith("--"):
            raise UsageError("unknown option %s (see --help)" % a)
        words.append(a)
        i += 1
    if not words:
        raise UsageError("no position given (see --help)")
    if not limits:
        limits["steps"] = LEVELS[2][1]
    return " ".join(words), limits, stages


def evaluation_text(turn, seconds):
    side = side_name(turn.side)
    if turn.decided > 0:
        what = "%s wins by force" % side
    elif turn.decided < 0:
        what = "%s loses by force" % side
    else:
        what = "%+.2f for %s (1.00 = a 2-tile)" % (turn.score / 100.0, side)
    return "evaluation: %s; depth %d, %d nodes, %.2f s" % (what, turn.depth, turn.nodes,
                                                          seconds)


USAGE = ("usage: engine.py '<position>' [--time S | --depth N | --steps N | --level 1-3] "
         "[--stages W,B] (see the comment at the top of tools/engine.py)")


def main(argv):
    if "--help" in argv or "-h" in argv:
        print((globals().get("__doc__") or USAGE).strip())   # MicroPython drops docstrings
        return 0
    try:
        text, limits, stages = parse_args(argv)
        game = Game(text, stages=stages)
    except (UsageError, RulesError) as e:
        sys.stderr.write("engine: %s\n" % e)
        return 2
    if game.over:
        sys.stderr.write("engine: the game is over: %s\n" % game.reason)
        return 2
    t0 = ticks_ms()
    turn = Engine().run(game, limits.get("budget_ms", 0), limits.get("steps", 0),
                        limits.get("depth", 0))
    seconds = ticks_diff(ticks_ms(), t0) / 1000.0
    print(turn.text)
    print(evaluation_text(turn, seconds))
    return 0


sys.exit(main(sys.argv[1:]))
