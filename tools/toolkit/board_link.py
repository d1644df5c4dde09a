# The computer's side of the board's line protocol (firmware/controller/protocol.py, where the
# protocol is documented): every line checked (its checksum, its sequence number, its fields),
# and a mirror of the board built from them with the rules core.
#
#   m = Mirror()
#   for line in lines: m.line(line)    -> what it asks of the board: None, or "state" (lines
#                                         were lost or damaged: the full state repairs it)
#   m.game (a barragoon Game), m.occ, m.meanings, m.palette, m.oled, m.clock, m.ask, m.plan,
#   m.opp; m.record_text() is the game's record as the board writes it to records.txt.
# A line that is not the protocol's (the firmware's own prints, a boot banner) is kept in
# m.console; "Barragoon board firmware" there means the board restarted: say hello again.
if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/board_link.py is a module the tools import, not a tool "
                     "(tools/README.md lists the tools)\n")
    sys.exit(2)

import time  # noqa: E402

from barragoon.core import RulesError  # noqa: E402
from barragoon.game import Game, VARIANTS  # noqa: E402
from barragoon.record import play_token  # noqa: E402
import storage as fw_storage  # noqa: E402

PROTOCOL = 1
BANNER = "Barragoon board firmware"
SIDES = {"w": 0, "b": 1}
ASKS = ("offer", "repetition", "takeback", "remote", "which")
CLOCK_STATES = ("run", "pause", "stop")


class LineError(ValueError):
    """A line the mirror cannot take (damaged, or not what the protocol allows)."""


def checked(line):
    """(seq, word, fields text) of a protocol line, or None when it is not one; LineError when
    it is one but damaged."""
    line = line.strip("\r\n\x00 ")
    i = line.find("@")
    if i < 0:
        return None
    line = line[i:]
    if len(line) < 8 or line[-3] != "*" or line[3] != " ":
        raise LineError("not a whole line")
    body = line[1:-3]
    x = 0
    for b in body.encode("utf-8", "surrogateescape"):
        x ^= b
    try:
        if int(line[-2:], 16) != x:
            raise LineError("checksum")
        seq = int(line[1:3], 16)
    except ValueError:
        raise LineError("not hex")
    word, _, rest = body[3:].partition(" ")
    return seq, word, rest


def opponent_tag(field):
    """The game's opponent tag (storage.py) for a game line's OPP field ('' for '-')."""
    if field == "-":
        return ""
    if len(field) != 2 or field[0] not in SIDES or field[1] not in "123r":
        raise LineError("opponent %r" % field)
    return "%s %s" % ("Brown" if field[0] == "b" else "White",
                      "remote" if field[1] == "r" else field[1])


class Mirror:
    def __init__(self):
        self.seq = -1                  # the last line's sequence number
        self.synced = False            # a full state came since the last gap
        self.hello = None              # (protocol, version) of the board
        self.game = None
        self.opp = ""                  # the game's opponent tag
        self.header = None             # the game line's fields (a new game if they change)
        self.want = 0                  # actions the game line announced
        self.occ = [0] * 63
        self.meanings = [0] * 63
        self.palette = 0
        self.oled = []                 # [(y, x, c, text)]
        self.clock = None              # {"ms": [w, b], "inc", "side", "state", "at"} or None
        self.ask = None                # (kind, side) or None
        self.plan = ""
        self.replies = []              # ("ok" | "refused", word, text) in order
        self.console = []              # the firmware's other lines
        self.errors = 0                # damaged or impossible lines
        self.games = 0                 # games begun (a new one: a new access code)
        self.changed = 0               # one more for every change

    # --- lines ---------------------------------------------------------------------------------
    def line(self, text):
        """Take one line from the board; returns "state" when the mirror needs a full state."""
        try:
            got = checked(text)
        except LineError:
            self.errors += 1
            self.synced = False
            return "state"
        if got is None:
            t = text.strip("\r\n\x00 ")
            if t:
                self.console.append(t)
                del self.console[:-200]
            return None
        seq, word, rest = got
        gap = self.seq >= 0 and seq != (self.seq + 1) & 255
        self.seq = seq
        if word == "hello":
            return self._hello(rest)
        if gap:
            self.synced = False
        if word == "game":
            self.synced = True
        elif not self.synced:
            return "state"                         # (the caller asks at most once a second)
        try:
            getattr(self, "_" + word)(rest) if word in WORDS else self._unknown(word)
        except (LineError, RulesError, ValueError, IndexError) as e:
            self.errors += 1
            self.synced = False
            self.console.append("[watch] refused line from the board: %s (%s)" % (text.strip(), e))
            return "state"
        self.changed += 1
        return "state" if gap else None

    def _unknown(self, word):
        raise LineError("unknown word %r" % word)

    def _hello(self, rest):
        f = rest.split()
        if len(f) != 2 or not f[0].isdigit():
            raise LineError("hello")
        self.hello = (int(f[0]), f[1])
        self.changed += 1
        return None

    def _game(self, rest):
        f = rest.split(" ", 5)
        if len(f) == 6 and f[1] == "-":            # no game (the saved-game question)
            self.game, self.header, self.want, self.opp = None, None, 0, ""
            return
        if len(f) != 6 or not f[0].isdigit() or f[1] not in VARIANTS or \
                f[2] not in ("0", "1", "2") or f[3] not in ("0", "1", "2"):
            raise LineError("game")
        n = int(f[0])
        start = None if f[5] == "-" else f[5]
        header = (f[1], f[2], f[3], f[5])
        old = self.game
        self.game = Game(start, VARIANTS.index(f[1]), (int(f[2]), int(f[3])))
        self.opp = opponent_tag(f[4])
        self.game.opponent = self.opp
        self.want = n
        if old is None or header != self.header or n < len(old.actions) or n == 0:
            self.games += 1
        self.header = header

    def _rec(self, rest):
        f = rest.split()
        if not f or not f[0].isdigit():
            raise LineError("rec")
        k = int(f[0])
        g = self.game
        if g is None or k != len(g.actions):
            raise LineError("rec %d: the mirror holds %d actions" % (k, len(g.actions) if g
                                                                     else 0))
        try:
            for tok in f[1:]:
                play_token(g, tok)
        except RulesError:
            while len(g.actions) > k:              # all of the line or none of it
                g.undo()
            raise

    def _undo(self, rest):
        if not rest.isdigit() or self.game is None or int(rest) > len(self.game.actions):
            raise LineError("undo")
        g = self.game
        while len(g.actions) > int(rest):
            g.undo()

    def _end(self, rest):
        g = self.game
        f = rest.split(" ", 1)
        if g is None or (f[0] != "*" and (not g.over or g.outcome().result() != f[0])):
            raise LineError("end %s: the record says otherwise" % rest)

    def _opp(self, rest):
        self.opp = opponent_tag(rest.strip())
        if self.game is not None:
            self.game.opponent = self.opp

    def _occ(self, rest):
        if len(rest) != 16:
            raise LineError("occ")
        v = int(rest, 16)
        self.occ = [(v >> sq) & 1 for sq in range(63)]

    def _leds(self, rest):
        f = rest.split()
        if len(f) != 2 or len(f[1]) != 63 or not f[0].isdigit():
            raise LineError("leds")
        self.palette = int(f[0])
        self.meanings = [int(c, 36) for c in f[1]]

    def _oled(self, rest):
        items = []
        for item in rest.split("|") if rest else ():
            p = item.split(",", 3)
            if len(p) != 4 or not all(v.isdigit() for v in p[:3]):
                raise LineError("oled")
            items.append((int(p[0]), int(p[1]), int(p[2]), p[3]))
        self.oled = items

    def _clock(self, rest):
        f = rest.split()
        if f == ["-"]:
            self.clock = None
            return
        if len(f) != 5 or not all(v.isdigit() for v in f[:3]) or f[3] not in SIDES or \
                f[4] not in CLOCK_STATES:
            raise LineError("clock")
        self.clock = {"ms": [int(f[0]), int(f[1])], "inc": int(f[2]), "side": SIDES[f[3]],
                      "state": f[4], "at": time.monotonic()}

    def _ask(self, rest):
        f = rest.split()
        if f == ["-"]:
            self.ask = None
        elif len(f) == 2 and f[0] in ASKS and f[1] in SIDES:
            self.ask = (f[0], SIDES[f[1]])
        else:
            raise LineError("ask")

    def _plan(self, rest):
        self.plan = "" if rest.strip() == "-" else rest.strip()

    def _ok(self, rest):
        w, _, text = rest.partition(" ")
        self.replies.append(("ok", w, text))

    def _refused(self, rest):
        w, _, text = rest.partition(" ")
        self.replies.append(("refused", w, text))

    # --- what the mirror holds -------------------------------------------------------------------
    @property
    def complete(self):
        """The mirror holds the whole record the board announced."""
        return self.game is not None and len(self.game.actions) >= self.want

    def remote_side(self):
        """The side played remotely in the board's game, or -1."""
        if self.opp.endswith(" remote"):
            return 1 if self.opp.startswith("Brown") else 0
        return -1

    def clock_tag(self):
        """The clock as the board's save tag (controller/clock.py), '' without one."""
        c = self.clock
        if c is None:
            return ""
        return "%d %d %d %s" % (c["ms"][0], c["ms"][1], c["inc"], "wb"[c["side"]])

    def clock_now(self):
        """The times left now ([white ms, brown ms]): the running side's counts down here."""
        c = self.clock
        ms = list(c["ms"])
        if c["state"] == "run":
            left = ms[c["side"]] - int((time.monotonic() - c["at"]) * 1000)
            ms[c["side"]] = max(0, left)
        return ms

    def record_text(self):
        """The game's record as the board writes it to records.txt when it is finished (its
        tags, turns and the blank line after it)."""
        if self.game is None:
            return ""
        parts = []
        fw_storage.game_text(self.game, "", parts.append, self.clock_tag())
        return "".join(parts) + "\n"


WORDS = ("game", "rec", "undo", "end", "opp", "occ", "leds", "oled", "clock", "ask", "plan",
         "ok", "refused")
