"""Print the legal moves of a Barragoon position (runs on CPython and MicroPython).

    python tools/legal_moves.py '<position>'     one move per line, sorted
    python tools/legal_moves.py < positions.txt  one output line per input line: the moves
                                                 separated by spaces, sorted ('' if none)
Bad input: a message on stderr naming the problem, exit status 2.
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
            try:
                print(" ".join(moves_of(line)))
            except RulesError as e:
                raise RulesError("line %d: %s" % (lineno, e))
    except RulesError as e:
        sys.stderr.write("legal_moves: %s\n" % e)
        return 2


sys.exit(main(sys.argv))
