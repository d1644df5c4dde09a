# How the players of tools/toolkit/players.py answer the board's questions: they read the
# options on the screen (English) and choose the one that says what their hands did; a player
# who finds none leaves the preselection. The board's internals are not looked at.
if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/player_answers.py is a module the tools import, not a "
                     "tool (tools/README.md lists the tools)\n")
    sys.exit(2)

from barragoon.core import TILE
from barragoon.notation import parse_square


def truth_option(pl):
    """The index of the option that says what the hands did, or None."""
    j = pl.tb.ctl.judge
    labels = [j.ask_label(k) for k in range(j.q.n)]
    for k in range(len(labels)):
        if says_what_happened(pl, labels[k]):
            return k
    for k in range(len(labels)):
        if labels[k] == "Not yet":
            return k
    return None


def says_what_happened(pl, label):
    tb = pl.tb
    did = pl.did or [None, {}]
    board = tb.ctl.game
    if label == "Yes, all back":
        return all_back(tb, board)
    if label in ("Not yet", "Pieces swapped"):
        return False
    if label in ("Nothing moved", "No capture"):
        return did[0] is None
    if label.startswith("Barragoon on "):
        return _square(label[13:]) in did[1]
    for side, word in ((1, "Brown's on "), (0, "White's on ")):
        if label.startswith(word):
            return did[1].get(_square(label[len(word):]), -1) == side
    if len(label) == 5 and label[2] in "-x":
        return did[0] == label
    return False


def all_back(tb, board):
    """Does every square hold what the board's game has there (a Barragoon of any face)?"""
    for s in range(63):
        want, have = board.pos.get(s), tb.pieces[s]
        if (1 if want else 0) != (1 if have else 0):
            return False
        if want and want != have and (have & TILE or want & TILE):
            return False
    return True


def _square(text):
    try:
        return parse_square(text)
    except Exception:
        return -1
