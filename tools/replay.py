"""Check a game record by replaying it through the rules core (CPython and MicroPython)."""
import sys

HELP = """usage: python tools/replay.py FILE [--game N]

Replays a Barragoon game record (the format of the board's game.txt and records.txt, see
firmware/barragoon/RULES.md) action by action through the rules core, and prints one line per
turn: its number as the record writes it, the turn, and the position after it, e.g.

    1. d2-d5  1vd1dv1/2zdz2/7/1[X]3[X]1/[X]1[X]D[X]1[X]/1[X]3[X]1/7/2Z1Z2/1VD1DV1 b 24

then `result: 1-0` (1-0, 0-1, 1/2-1/2, or * while the game goes on), followed by the reason
in brackets when the game is over.

  FILE       the record; a file with several records (records.txt) needs --game
  --game N   replay the N-th record of FILE (1 = the first)
  -h, --help this text

Exit status: 0 when the whole record is legal; 2 when the rules refuse it (one line on
standard error names the turn as the record numbers it, e.g. `turn 4... g6-g9`, and the
reason; the turns before it are printed) or when FILE or an option is wrong.
Runs under micropython too, with the same output: micropython tools/replay.py FILE
"""


def _firmware_dir():
    here = __file__.replace("\\", "/")
    base = here.rsplit("/", 1)[0] if "/" in here else "."
    return base, base + "/../firmware"


for _p in _firmware_dir():
    sys.path.insert(0, _p)

from toolkit.cli import fail, wants_help  # noqa: E402
from barragoon.core import RulesError  # noqa: E402
from barragoon.notation import format_position  # noqa: E402
from barragoon.record import parse_record, result_text, turn_label  # noqa: E402
from toolkit.record_file import split_records  # noqa: E402


class UsageError(Exception):
    pass


def parse_args(argv):
    """(file, game number or 0) from the command line; UsageError on a mistake."""
    path = None
    game = 0
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--game" or a.startswith("--game="):
            if "=" in a:
                value = a.split("=", 1)[1]
            elif i + 1 < len(argv):
                i += 1
                value = argv[i]
            else:
                raise UsageError("--game needs a number")
            if not value or value.strip("0123456789") or int(value) < 1:
                raise UsageError("--game needs a number from 1, not %r" % value)
            game = int(value)
        elif a.startswith("-") and a != "-":
            raise UsageError("unknown option %s (see --help)" % a)
        elif path is None:
            path = a
        else:
            raise UsageError("one record file at a time (got %s and %s)" % (path, a))
        i += 1
    if path is None:
        raise UsageError("which record? python tools/replay.py FILE (see --help)")
    return path, game


def read_text(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        reason = {2: "no such file", 13: "permission denied", 21: "is a directory"}
        raise UsageError("%s: %s" % (path, reason.get(e.args[0], "cannot read it (errno %s)"
                                                     % e.args[0])))
    if b"\0" in data:
        raise UsageError("%s: not a text file" % path)
    try:
        return data.decode()
    except UnicodeError:
        raise UsageError("%s: not UTF-8 text" % path)


def choose(path, text, game):
    records = split_records(text)
    if not records:
        raise UsageError("%s: no game record in it" % path)
    if game == 0:
        if len(records) > 1:
            raise UsageError("%s holds %d games: choose one with --game N (1-%d)"
                             % (path, len(records), len(records)))
        return records[0]
    if game > len(records):
        raise UsageError("%s holds %d game%s, no game %d"
                         % (path, len(records), "" if len(records) == 1 else "s", game))
    return records[game - 1]


def replay(record, out):
    """Replay one record, writing a line per turn through out(text); returns the Game.
    Raises RulesError naming the first fault."""
    count = [0]

    def each_turn(game):
        text = game.last_turn_text()
        if not text:                      # only an agreed draw before any move
            text = " ".join(game.iter_turns())
        out("%s %s  %s" % (turn_label(count[0], game.start.side), text,
                           format_position(game.pos)))
        count[0] += 1

    return parse_record(record, each_turn)


def main(argv):
    if wants_help(argv):
        print(HELP)
        return 0
    try:
        path, number = parse_args(argv)
        record = choose(path, read_text(path), number)
    except UsageError as e:
        fail("replay", str(e))
    try:
        game = replay(record, print)
    except RulesError as e:
        fail("replay", "%s: %s" % (path, e))
    line = "result: " + result_text(game)
    if game.over:
        line += " (%s)" % game.reason
    print(line)
    return 0


def run():
    try:
        return main(sys.argv[1:])
    except OSError as e:
        if e.args[0] != 32:           # EPIPE: the reader went away (| head); nothing to add
            raise
        try:
            import os
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (ImportError, AttributeError, OSError):
            pass
        return 0


sys.exit(run())
