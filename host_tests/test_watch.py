# End to end without a board: `tools/sim.py` (the real firmware on the MicroPython unix port)
# with its USB console on a TCP port, `tools/watch.py` attached to it as to a board, and
# headless Chromium on watch.py's page. First the read-only mirror: the board's pieces, lights,
# screen and record follow what the players do, a click changes nothing, the record file grows.
# Then a friend plays Brown from the page with the game's access code: a page without the code
# sees nothing, a forged, replayed, stale or illegal message is refused, a whole game with
# captures and placements is played (the board's player carries out each of the friend's
# actions), the board is switched off and on in the middle (the connection resumes, the game
# goes on), and the friend resigns; the board's records.txt, the record file and the friend's
# page then hold the same record. One simulator, one browser for the module.
import json
import os
import re
import sys
import time
import urllib.error
import urllib.request

import pytest

import micropython_env
from cdp_browser import Browser
from oled_text import Picture
from test_sim_tool import SimProcess, ToolProcess
from test_sim_opponent import tap
from test_start import free_port
from test_sim_e2e import pytestmark  # noqa: F401 (chromium and MicroPython, or skip)

ROOT = micropython_env.ROOT
sys.path.insert(0, os.path.join(ROOT, "firmware"))
from barragoon.record import parse_record  # noqa: E402
from barragoon.game import action_move  # noqa: E402
from barragoon.notation import square_name  # noqa: E402
from barragoon.core import FACES  # noqa: E402
from controller.screens import FACE_NAMES  # noqa: E402


FILES = "abcdefg"


def sq(name):
    return (int(name[1:]) - 1) * 7 + FILES.index(name[0])


class Board(SimProcess):
    """The simulated board, as its player handles it (the simulator's page's actions)."""

    def __init__(self, board_dir, usb, fresh=False):
        SimProcess.__init__(self, board_dir, extra=["--usb-port", str(usb)], fresh=fresh)
        self.dir = board_dir
        self.usb = usb
        self.wait(lambda: self.state()["device"]["status"] == "running", "the firmware")

    def actions(self):
        g = self.state()["game"]
        return len(parse_record(g["record"]).actions) if g.get("exists") else 0

    def settled(self, n):
        self.wait(lambda: self.actions() == n, "the board's record to have %d actions" % n)

    def move(self, tok):
        """Carry out a move (the victim first for a capture), then let the board see it."""
        n = self.actions()
        a, b = sq(tok[:2]), sq(tok[3:])
        if tok[2] == "x":
            self.act("lift", sq=b)
            time.sleep(0.15)
        self.act("lift", sq=a)
        time.sleep(0.15)
        self.act("put", sq=b)
        self.settled(n + 1)

    def place(self, tok, chosen_by_board=False):
        """Set a Barragoon down (tok: e7=RN) and confirm its face with OK, by what the screen
        shows (a loaded machine slows the board; the hands wait for it as a player would)."""
        n = self.actions()
        held = [p["id"] for h in self.state()["hands"] for p in h if p["kind"] == "barragoon"]
        if not held:
            self.act("take_supply")
            held = [p["id"] for h in self.state()["hands"] for p in h
                    if p["kind"] == "barragoon"]
        # The Barragoon, not a captured tile still in the hand.
        self.act("put", sq=sq(tok[:2]), id=held[0])
        name = FACE_NAMES[FACES.index(tok[3:])]
        end = time.monotonic() + 60
        while self.actions() == n and time.monotonic() < end:
            rows = self.state()["oled"]["rows"]
            pic = Picture.from_hex(rows)
            if pic.has(": Barragoon"):                 # the face picker
                tap(self, "ok" if chosen_by_board or pic.has(name) else "down")
            elif pic.has("UP/DN, OK"):
                # On the capturer's start square the sensors also fit "both pieces put back":
                # the board asks first (which answer it preselects depends on the timing).
                tap(self, "down" if pic.has("No capture", inverted=True) else "ok")
            else:
                time.sleep(0.1)
                continue
            self.wait(lambda: self.actions() != n or self.state()["oled"]["rows"] != rows,
                      "the board to take the button")
        self.settled(n + 1)

    def hold(self):
        self.act("press", button="ok")
        time.sleep(1.0)
        self.act("release", button="ok")
        time.sleep(0.3)

    def shows(self, text):
        return Picture.from_hex(self.state()["oled"]["rows"]).has(text)


def http(url, body=None, cookie=None):
    req = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None
                                 else None, method="POST" if body is not None else "GET")
    if cookie:
        req.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("watch")
    browser = Browser(width=1400, height=900)
    r = {"board": Board(str(tmp / "board"), free_port(), fresh=True), "b": browser,
         "tmp": tmp, "tools": []}
    try:
        yield r
    finally:
        browser.close()
        for t in r["tools"] + [r["board"]]:
            t.close()


def watch(rig, *extra):
    w = ToolProcess([os.path.join(ROOT, "tools", "watch.py"), "--port",
                     "socket://127.0.0.1:%d" % rig["board"].usb, "--http-port", "0",
                     "--no-browser", "--record", str(rig["tmp"] / "records.txt")] + list(extra))
    rig["tools"].append(w)
    return w


def page_model(b, path=""):
    return b.eval("window.sim.model" + path)


def wait_page(b, cond, what, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if b.eval(cond):
                return
        except Exception:                              # noqa: BLE001 - the page is loading
            pass
        time.sleep(0.1)
    raise AssertionError("timed out waiting for %s: %s" % (what, b.eval(
        "JSON.stringify(window.sim && window.sim.model && window.sim.model.mirror)")))


def test_the_page_mirrors_the_board_read_only_and_the_record_file_grows(rig):
    board, b = rig["board"], rig["b"]
    w = watch(rig)
    board.act("setup", variant="closed")
    board.wait(lambda: board.shows("White to move"), "the game to start")
    b.goto(w.url)
    wait_page(b, "window.sim.ready && window.sim.model.mirror.connected && "
                 "window.sim.model.game.exists", "the mirror")
    assert b.eval("document.body.classList.contains('mirror')")
    board.move("b1-a3")
    wait_page(b, "window.sim.model.mirror.k === 1", "the move on the page")
    m = page_model(b)
    assert m["board"][sq("a3")]["kind"] == "tile" and m["board"][sq("b1")] is None
    end = time.monotonic() + 30                    # the board's screen, as it comes
    while not Picture.from_hex(page_model(b, ".oled.rows")).has("Brown to move"):
        assert time.monotonic() < end, "the board's screen on the page"
        time.sleep(0.1)
    board.act("lift", sq=sq("d8"))                 # a lift: its targets light on the page too
    time.sleep(0.8)
    lit = lambda leds: sorted(i for i, c in enumerate(leds) if any(c))   # noqa: E731
    wait_page(b, "window.sim.model.leds[%d].some(v => v > 0)" % sq("d5"), "the lights")
    assert lit(page_model(b, ".leds")) == lit(board.state()["leds"])
    assert page_model(b, ".hands[1]")[0]["from"] == sq("d8")          # lifted: in the hand
    board.act("put", sq=sq("d5"))
    board.settled(2)
    wait_page(b, "window.sim.model.mirror.k === 2", "the second move")
    b.click("#sq-c2")                              # read-only: a click changes nothing
    time.sleep(0.3)
    assert board.actions() == 2 and board.state()["board"][sq("c2")] is not None
    with open(rig["tmp"] / "records.txt") as f:
        assert f.read().endswith("\n1. b1-a3 d8-d5\n\n")              # as records.txt has it
    assert page_model(b, ".game.record").endswith("1. b1-a3 d8-d5\n\n")
    w.close()


def test_a_friend_plays_brown_from_the_page_with_the_games_code(rig):
    board, b = rig["board"], rig["b"]
    w = watch(rig, "--remote", "brown")
    code = None
    end = time.monotonic() + 30
    while code is None and time.monotonic() < end:
        for line in w.lines:
            m = re.search(r"Access code for this game: (\w+)", line)
            if m:
                code = m.group(1)
        time.sleep(0.1)
    assert code, w.lines
    # The board asks its player; the page waits for the answer.
    board.wait(lambda: board.shows("a computer?"), "the board's question")
    status, r = http(w.url + "api/state")          # no code: nothing to see
    assert status == 403 and "code" in r["error"]
    b.goto(w.url)
    assert b.eval("document.getElementById('code') !== null")          # the code form
    b.goto(w.url + "?code=" + code)
    wait_page(b, "window.sim.ready && window.sim.model.mirror.role === 'remote'", "the page")
    board.hold()                                   # the board's player agrees
    wait_page(b, "window.sim.model.mirror.remote_on === 1", "Brown remote")
    cookie = "barragoon_code=" + code
    # White (on the board) to move; messages the page could forge are refused.
    k = page_model(b, ".mirror.k")
    for body, why in (({"op": "play", "token": "d8-d5", "k": k, "seq": 1}, "not your turn"),
                      ({"op": "play", "token": "c2-c5", "k": k, "seq": 2}, "not your turn"),
                      ({"op": "play", "token": "rm -rf", "k": k, "seq": 3}, "not a move")):
        status, r = http(w.url + "api/action", body, cookie)
        assert not r["ok"] and why in r["error"], (body, r)
    status, r = http(w.url + "api/action", {"op": "play", "token": "d8-d5", "k": k, "seq": 3},
                     cookie)
    assert "replayed" in r["error"]
    status, r = http(w.url + "api/action", {"op": "draw", "k": k, "seq": 9},
                     "barragoon_code=wrong")
    assert status == 403 and not r["ok"]
    # A whole game: White on the board, Brown from the page, captures and placements.
    g = parse_record(board.state()["game"]["record"])
    local_turn(board, g, {"local capture": 0})
    k = board.actions()
    wait_page(b, "window.sim.model.mirror.k === %d" % k, "White's move on the page")
    for body, why in (({"op": "play", "token": "d5-d4", "k": k, "seq": 10}, "not legal"),
                      ({"op": "play", "token": "d5-d8", "k": k - 1, "seq": 11}, "out of date")):
        status, r = http(w.url + "api/action", body, cookie)
        assert not r["ok"] and why in r["error"], (body, r)
    assert board.actions() == k
    g = parse_record(board.state()["game"]["record"])
    played = {"remote capture": 0, "local capture": 0}
    restarted = False
    for turn in range(40):
        if played["remote capture"] and played["local capture"] and restarted and \
                g.turn == 1 and g.placing() < 0:
            break
        if g.turn == 0:
            local_turn(board, g, played)
        else:
            remote_turn(board, b, g, played)
        g = parse_record(board.state()["game"]["record"])
        if turn == 3 and not restarted:            # the board off and on mid-game
            board.close()
            board = rig["board"] = Board(board.dir, board.usb)
            board.wait(lambda: board.shows("Resume game"), "the saved game offered")
            tap(board, "ok")
            board.wait(lambda: board.state()["device"]["status"] == "running", "resumed")
            restarted = True
            wait_page(b, "window.sim.model.mirror.connected && window.sim.model.mirror.k "
                         "=== %d" % len(g.actions), "the page after the restart", 60)
    assert played["remote capture"] and played["local capture"] and restarted, played
    # The friend resigns, in Brown's turn.
    b.eval("window.confirm = () => true")
    b.click("#watch-resign")
    board.wait(lambda: board.state()["game"]["over"], "the game's end")
    wait_page(b, "window.sim.model.game.over", "the end on the page")
    friend = page_model(b, ".game.record")
    assert friend.endswith("(resign)\n\n") and "[Opponent \"Brown remote\"]" in friend
    tap(board, "ok")                               # OK: new game - the record is written
    board.wait(lambda: os.path.exists(os.path.join(board.dir, "records.txt")), "records.txt")
    with open(os.path.join(board.dir, "records.txt")) as f:
        on_board = f.read()
    with open(rig["tmp"] / "records.txt") as f:
        kept = f.read()
    assert on_board == friend, (on_board, friend)
    assert kept.endswith(on_board)
    assert not [c for c in b.console if c.startswith("exception")], b.console
    w.close()


def local_turn(board, g, played):
    """White's whole turn on the board: a capture when there is one, its placements."""
    if g.placing() == 0:
        board.place(first_placement(g))
        return
    tok = choose_move(g)
    board.move(tok)
    if "x" in tok:
        played["local capture"] += 1


def remote_turn(board, b, g, played):
    """Brown's action clicked on the page; the board's player carries it out."""
    k = len(g.actions)
    b.eval("window.sim.model.mirror.k === %d || true" % k)
    wait_page(b, "window.sim.model.mirror.k === %d && window.sim.model.mirror.turn === 1 && "
                 "(window.sim.model.mirror.moves.length || window.sim.model.mirror.squares"
                 ".length)" % k, "Brown's turn on the page")
    if g.placing() == 1:
        tok = first_placement(g)
        b.click("#sq-" + tok[:2])
        b.click("#watch-face-" + tok[3:])
        wait_page(b, "window.sim.model.mirror.plan === %r" % tok, "the placement shown")
        board.place(tok, chosen_by_board=True)
        return
    tok = choose_move(g)
    b.click("#sq-" + tok[:2])
    b.click("#sq-" + tok[3:])
    wait_page(b, "window.sim.model.mirror.plan === %r" % tok, "the move shown on the board")
    board.move(tok)
    if "x" in tok:
        played["remote capture"] += 1


def choose_move(g):
    """A tile capture if there is one, else a Barragoon capture, else the first move."""
    moves = g.legal_moves()
    tiles = [m for m in moves if g.pos.get(m & 63) > 16]
    barragoons = [m for m in moves if 0 < g.pos.get(m & 63) <= 16]
    m = (tiles or barragoons or moves)[0]
    return "%s%s%s" % (square_name(m >> 6), "x" if g.pos.get(m & 63) else "-",
                       square_name(m & 63))


def first_placement(g):
    # Not on the start square of the move it follows: a Barragoon there looks like the tile
    # put back, and the board asks which (test_board_events.py covers that; here the timing of
    # a loaded machine decides which answer is preselected, and the taps race the screen).
    frm = -1
    for a in reversed(g.actions):
        if action_move(a) >= 0:
            frm = action_move(a) >> 6
            break
    for s in range(63):
        if s == frm:
            continue
        for face in (1, 6):
            if g.placement_allowed(s, face):
                return "%s=%s" % (square_name(s), FACES[face - 1])
    raise AssertionError("no placement allowed")
