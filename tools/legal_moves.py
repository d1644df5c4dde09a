"""Print the legal moves of a Barragoon position (runs on CPython and MicroPython).

    python tools/legal_moves.py '<position>'     one move per line, sorted
    python tools/legal_moves.py < positions.txt  positions on standard input: one output
                                                 line per input line, the moves separated
                                                 by spaces, sorted ('' if none); a blank
                                                 line gives a blank line
Bad input: a message on stderr naming the problem, exit status 2.
Positions: see "Notation" in firmware/barragoon/RULES.md; the start position:
    python tools/legal_moves.py '1vd1dv1/2zdz2/7/1[X]3[X]1/[X]1[X]1[X]1[X]/1[X]3[X]1/7/2ZDZ2/1VD1DV1 w 24'
"""
import sys


def _firmware_dir():
    here = __file__.replace("\\", "/")
    base = here.rsplit("/", 1)[0] if "/" in here else "."
    return base + "/../firmware"


sys.path.insert(0, _firmware_dir())

from barragoon.core import RulesError  # noqa: E402
from barragoon.notation import parse_position, format_move  # noqa: E402


def moves_of(text):
    pos = parse_position(text)
    out = []
    for m in pos.legal_moves():
        frm, to = m // 64, m % 64
        out.append(format_move(frm, to, pos.get(to) != 0))
    out.sort()
    return out


def main(argv):
    args = argv[1:]
    if "-h" in args or "--help" in args:
        print(globals().get("__doc__") or "usage: legal_moves.py '<position>' (or positions on "
              "standard input, one per line)")
        return 0
    for a in args:
        if a.startswith("-"):
            sys.stderr.write("legal_moves: unknown option %s (see --help)\n" % a)
            return 2
    try:
        if len(argv) > 1:
            for m in moves_of(" ".join(argv[1:])):
                print(m)
            return 0
        lineno = 0
        while True:
            line = sys.stdin.readline()
            if not line:
                return 0
            lineno += 1
            line = line.strip()
            if not line:
                print("")
                continue
            try:
                print(" ".join(moves_of(line)))
            except RulesError as e:
                raise RulesError("line %d: %s" % (lineno, e))
    except RulesError as e:
        sys.stderr.write("legal_moves: %s\n" % e)
        return 2


sys.exit(main(sys.argv))
