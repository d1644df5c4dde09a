# The board's line protocol (controller/protocol.py) and a side played on a computer
# (controller/remote.py), through the controller as players and a listener use them: silent
# until a listener says hello, then a full state and one checked line per change; a listener
# that stops reading loses lines, never the board's time, and the next full state repairs it;
# every command of the listener checked (a stale, replayed, illegal or out-of-turn action is
# refused), a remote side only with the board player's consent; reports allocate nothing.
import gc
import sys

from toolkit.ctl_script import Rig
from controller import protocol as P
from controller import remote as R
from controller import modes as M
from controller import opponent as OP
from barragoon.notation import parse_square

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_reports_allocate_nothing_beyond_the_queue",)


class Port:
    """The USB console as the listener sees it: what it sends, what it reads."""

    def __init__(self):
        self.inp = bytearray()
        self.buf = bytearray(32768)        # what the listener received (no allocation when
        self.n = 0                         # the board writes: the heap test counts it)
        self.reading = True

    def read(self, buf, n):
        if not self.inp:
            return 0
        buf[0] = self.inp[0]
        self.inp[:1] = b""
        return 1

    def write(self, buf, n):
        if not self.reading:
            return 0
        k = self.n
        for i in range(n):
            self.buf[k + i] = buf[i]
        self.n = k + n
        return n

    def received(self):
        """Every whole line received since the last call (a line not yet whole waits)."""
        data = bytes(self.buf[:self.n])
        end = data.rfind(b"\n") + 1
        rest = data[end:]
        self.buf[:len(rest)] = rest
        self.n = len(rest)
        return data[:end]


class Listener:
    def __init__(self, rig):
        self.rig = rig
        self.port = Port()
        self.con = P.Console(rig.ctl, self.port, "9.9.9")
        self.seq = -1
        self.gaps = 0
        self.lines = []

    def say(self, text):
        """A command; its answer is in the lines the next run() returns."""
        self.port.inp.extend(text.encode() + b"\n")
        self.steps(20)

    def steps(self, ms):
        rig = self.rig
        end = rig.t + ms
        while rig.t < end:
            rig.advance(5)
            self.con.step(rig.t)

    def run(self, ms):
        self.steps(ms)
        return self.take()

    def take(self):
        """The new lines, each checked (checksum, sequence number): [(word, fields)]."""
        out = []
        for raw in self.port.received().split(b"\n"):
            raw = raw.strip(b"\r")
            if not raw:
                continue
            assert raw[:1] == b"@" and raw[-3:-2] == b"*", raw
            x = 0
            for b in raw[1:-3]:
                x ^= b
            assert int(raw[-2:], 16) == x, raw
            seq = int(raw[1:3], 16)
            if self.seq >= 0 and seq != (self.seq + 1) & 255:
                self.gaps += 1                     # lines were lost
            self.seq = seq
            body = raw[4:-3].decode()
            word, _, rest = body.partition(" ")
            out.append((word, rest))
        self.lines += out
        return out


def words(lines):
    return [w for w, _ in lines]


def fields(lines, word):
    return [r for w, r in lines if w == word]


def game_rig(position=None):
    rig = Rig()
    rig.start_game(position)
    return rig, Listener(rig)


# --- reporting -----------------------------------------------------------------------------------
def test_silent_until_a_listener_says_hello_then_the_full_state():
    rig, ls = game_rig()
    rig.run("lift b1; drop a3; wait 400")
    assert ls.run(200) == []                       # nobody listens: nothing written
    ls.say("hello 1")
    got = ls.run(200)
    assert words(got)[:3] == ["hello", "game", "rec"], got
    assert fields(got, "hello") == ["1 9.9.9"]
    assert fields(got, "game") == ["1 closed 0 0 - -"]
    assert fields(got, "rec") == ["0 b1-a3"]
    assert set(words(got)) >= {"occ", "leds", "oled", "clock", "ask", "plan"}
    assert "Brown to move" in fields(got, "oled")[0]
    occ = int(fields(got, "occ")[0], 16)
    assert occ >> parse_square("a3") & 1 and not occ >> parse_square("b1") & 1


def test_each_change_is_one_line_a_move_a_lift_a_take_back():
    rig, ls = game_rig()
    ls.say("hello 1")
    ls.run(200)
    rig.put(parse_square("d2"), 0)                 # a lift: its lights and the sensors
    got = ls.run(50)
    assert "occ" in words(got) and "leds" in words(got) and "rec" not in words(got)
    lights = fields(got, "leds")[-1].split()[1]
    assert lights[parse_square("d2")] != "0" and lights[parse_square("d5")] != "0"
    rig.put(parse_square("d5"), 1)
    got = ls.run(600)
    assert fields(got, "rec") == ["0 d2-d5"]
    rig.ctl.take_back()
    got = ls.run(200)
    assert fields(got, "undo") == ["0"]


def record_of(lines):
    """The record a listener rebuilds from game, rec and undo lines."""
    acts = []
    for w, r in lines:
        if w == "game":
            acts = []
        elif w == "rec":
            k, _, toks = r.partition(" ")
            assert int(k) == len(acts), (r, acts)
            acts += toks.split()
        elif w == "undo":
            del acts[int(r):]
    return " ".join(acts)


def test_a_listener_that_stops_reading_costs_the_board_nothing_and_catches_up():
    rig, ls = game_rig()
    ls.say("hello 1")
    ls.run(200)
    ls.port.reading = False
    moves = ("b1-a3", "d8-d5", "a3-b1", "d5-d8")
    for m in moves * 3:
        rig.run("lift %s; drop %s; wait 400" % (m[:2], m[3:]))
        ls.run(20)
        assert len(ls.con.q) <= P.QUEUE            # bounded: the queue, never more
    assert rig.record() == " ".join(moves * 3)     # the board played on
    rig.ctl.take_back()
    ls.run(20)
    ls.port.reading = True
    ls.run(400)
    assert record_of(ls.lines) == " ".join((moves * 3)[:-1]) and ls.gaps == 0
    ls.port.reading = False                        # and when lines are dropped after all:
    for _ in range(30):
        ls.con._say("ok", "x", "y" * 100)          # (more than the queue holds)
    assert ls.con.lost
    ls.port.reading = True
    got = ls.run(400)
    assert ls.gaps == 1 and "game" in words(got)   # lost lines, then the full state
    assert record_of(got) == " ".join((moves * 3)[:-1])


def test_the_game_end_and_a_new_game():
    rig, ls = game_rig("7/7/7/7/3z3/7/7/3D3/7 w 24")
    ls.say("hello 1")
    ls.run(200)
    rig.run("lift d5; lift d2; drop d5; wait 400")
    got = ls.run(200)
    assert fields(got, "rec") == ["0 d2xd5"] and fields(got, "end") == ["1-0 no tiles left"]
    assert fields(got, "game")[0].startswith("1 closed") if "game" in words(got) else True


# --- commands ------------------------------------------------------------------------------------
def replies(lines):
    return [(w, r) for w, r in lines if w in ("ok", "refused")]


def test_commands_are_checked_and_refused_with_a_reason():
    rig, ls = game_rig()
    ls.say("play 0 d2-d5")                         # before hello: ignored, nothing written
    assert ls.run(50) == []
    ls.say("hello 2")
    assert replies(ls.run(50)) == [("refused", "hello this board speaks protocol 1")]
    ls.say("hello 1")
    ls.run(200)
    for cmd, why in (("play 0 d2-d5", "no side of this game is played remotely"),
                     ("fly away", "unknown command"), ("remote x", "write: remote w"),
                     ("play", "write: play K TOKEN")):
        ls.say(cmd)
        r = replies(ls.run(50))
        assert len(r) == 1 and r[0][0] == "refused" and why in r[0][1], (cmd, r)
    ls.say("x" * 200)                              # too long: skipped whole, not half-read
    assert replies(ls.run(50)) == []
    assert rig.record() == ""


def consent(rig, ls, side="b"):
    ls.say("remote " + side)
    got = ls.run(100)
    assert replies(got)[-1] == ("ok", "remote %d" % len(rig.ctl.game.actions)), got
    top = rig.ctl.top
    assert isinstance(top, R.Question) and top.ask == (R.CONSENT << 2 | (side == "b"))
    rig.run("hold")                                # the board's player accepts
    ls.run(100)


def remote_rig(position=None):
    """A game with a listener, Brown played remotely."""
    rig, ls = game_rig(position)
    ls.say("hello 1")
    ls.run(200)
    consent(rig, ls)
    return rig, ls


def test_a_remote_side_needs_the_board_players_consent():
    rig, ls = game_rig()
    ls.say("hello 1")
    ls.run(200)
    ls.say("remote b")
    assert fields(ls.run(50), "ask") == ["remote b"]
    rig.run("press ok")                            # a short press declines
    assert rig.ctl.opponent is None
    consent(rig, ls)
    op = rig.ctl.opponent
    assert op is not None and op.remote and op.side == 1
    assert rig.ctl.game.opponent == "Brown remote"                # saved with the game
    assert fields(ls.run(50) + ls.lines, "opp")[-1] == "br"


def test_the_remote_sides_move_is_shown_and_only_it_commits():
    rig, ls = remote_rig()
    ls.say("play 0 d8-d5")
    assert replies(ls.run(50))[-1] == ("refused", "play not your turn")
    rig.run("lift b1; drop a3; wait 400")
    for cmd, why in (("play 0 d8-d5", "out of date"), ("play 1 d8-d7", "not a legal move"),
                     ("play 1 d8xd5", "write d8-d5"), ("play 1 zz", "not a move")):
        ls.say(cmd)
        r = replies(ls.run(50))
        assert r and r[-1][0] == "refused" and why in r[-1][1], (cmd, r)
    ls.say("play 1 d8-d5")
    got = ls.run(100)
    assert replies(got)[-1] == ("ok", "play 2") or replies(got)[-1][0] == "ok"
    assert fields(got, "plan") == ["d8-d5"]
    assert rig.meaning("d8") != 0 and "Remote: Brown" in _texts()
    ls.say("play 1 d8-d5")                         # the same again (replayed): refused
    assert replies(ls.run(50))[-1][0] == "refused"
    rig.run("lift d8; drop d6; wait 600")          # another move: not what was sent
    assert rig.record() == "b1-a3"
    rig.run("lift d6; drop d8; wait 600")
    rig.run("lift d8; drop d5; wait 600")          # the player carries it out
    assert rig.record() == "b1-a3 d8-d5"
    got = ls.run(100)
    assert fields(got, "rec") == ["1 d8-d5"] and fields(got, "plan") == ["-"]


def _texts():
    from controller import font
    return " | ".join(font.texts[i] for i in range(font.texts_n))


def test_the_remote_side_places_its_barragoon_and_resigns():
    rig, ls = remote_rig("6z/7/7/7/3z3/7/7/[X]2D3/7 w 24")   # White takes d5: Brown places
    rig.run("lift d5; lift d2; drop d5; wait 400")
    assert rig.ctl.game.placing() == 1
    ls.say("play 1 d5=X")
    assert "not allowed" in replies(ls.run(50))[-1][1]
    ls.say("play 1 e7=RN")
    assert replies(ls.run(50))[-1][0] == "ok"
    rig.run("drop e7; wait 400; press ok; wait 100")   # the player sets it down, confirms
    assert rig.record() == "d2xd5 e7=RN"
    k = len(rig.ctl.game.actions)
    ls.say("resign %d" % k)                       # White places now: not Brown's turn
    assert "own turn" in replies(ls.run(50))[-1][1]
    rig.run("drop e2; wait 400; press ok; wait 100")
    k = len(rig.ctl.game.actions)
    ls.say("resign %d" % k)
    got = ls.run(200)
    assert replies(got)[-1][0] == "ok" and fields(got, "end") == ["1-0 resigned"]
    assert rig.ctl.game.over and rig.record().endswith("(resign)")


def test_take_back_and_draw_requests_wait_for_the_board_player():
    rig, ls = remote_rig()
    rig.run("lift b1; drop a3; wait 400")
    ls.say("play 1 d8-d5")
    ls.run(50)
    rig.run("lift d8; drop d5; wait 600")
    rig.run("lift a3; drop b1; wait 600")
    assert rig.record() == "b1-a3 d8-d5 a3-b1"
    ls.say("takeback 3")
    got = ls.run(50)
    assert fields(got, "ask") == ["takeback b"]
    rig.run("hold")                                # accepted: Brown's turn back, Brown to move
    assert rig.record() == "b1-a3" and rig.ctl.game.turn == 1
    rig.run("lift b1; drop a3; lift d5; drop d8; wait 600")   # the board guided back
    ls.say("draw 1")
    assert fields(ls.run(50), "ask") == ["offer b"]
    rig.run("press ok")                            # declined
    assert not rig.ctl.game.over
    ls.say("draw 1")
    ls.run(50)
    rig.run("hold")
    assert rig.ctl.game.over and rig.record().endswith("(agree)")


def test_the_board_players_draw_offer_is_answered_by_the_remote_side():
    rig, ls = remote_rig()
    rig.ctl.opponent.answer(rig.ctl, False)        # the game menu's "Offer draw"
    assert fields(ls.run(50), "ask") == ["offer w"]
    ls.say("answer 0 no")
    ls.run(50)
    assert not rig.ctl.game.over
    rig.ctl.opponent.answer(rig.ctl, False)
    ls.say("answer 0 yes")
    ls.run(50)
    assert rig.ctl.game.over and rig.record() == "(agree)"


def test_the_board_player_takes_the_remote_side_back_in_the_menu():
    rig, ls = remote_rig()
    from test_controller import choose
    rig.run("hold")
    choose(rig, "Play Brown here")
    assert rig.ctl.opponent is None and rig.ctl.game.opponent == ""
    assert isinstance(rig.ctl.stack[0], M.Play) and not isinstance(rig.ctl.stack[0], OP.VsPlay)


def test_a_silent_listener_is_forgotten():
    rig, ls = game_rig()
    ls.say("hello 1")
    ls.run(200)
    assert ls.con.on
    rig.run("wait %d" % (P.LISTENER_MS + 100))
    ls.run(10)
    assert not ls.con.on


def test_reports_allocate_nothing_beyond_the_queue():
    rig, ls = game_rig()
    ls.say("hello 1")
    ls.run(300)
    con = ls.con
    step = con.step
    for _ in range(2):                             # warm: lifts, set-downs, a screen
        rig.put(parse_square("d8"), 0)
        rig.advance(30)
        step(rig.t)
        rig.put(parse_square("d8"), 1)
        rig.advance(30)
        step(rig.t)
        ls.take()
    import micropython
    made = 0
    for sq in ("d8", "c8", "e8"):
        for present in (0, 1):
            rig.put(parse_square(sq), present)
            rig.advance(30)                        # (the controller's own work first)
            gc.collect()
            micropython.heap_lock()
            try:
                step(rig.t)                        # occ, leds and oled lines
            finally:
                micropython.heap_unlock()
            made += con.made
            ls.take()
    assert made >= 6
    assert sys.implementation.name == "micropython"
