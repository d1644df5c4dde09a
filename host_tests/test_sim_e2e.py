# End to end: `python tools/sim.py` with the real firmware on the MicroPython unix port, driven
# through its page in headless Chromium (Chrome DevTools Protocol over a pipe: host_tests/
# cdp_browser.py) with real mouse clicks. Sets up the board, plays turns with a Barragoon capture
# and a tile capture (both placements, face choice), provokes a touch-move warning, takes two
# turns back through the menu and repairs the board, then replays the game. What the page shows
# is read from its model (window.sim.model): pieces, LED colours, and the OLED text found in the
# decoded OLED pixels.
#
# Screenshots go to host_tests/artifacts/sim_e2e/. With UPDATE_SCREENSHOT=1 the test also
# writes tools/sim/screenshot.png (the README's picture).
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

import pytest

import micropython_env
from cdp_browser import Browser, CdpError, find_chromium
from oled_text import Picture

ROOT = micropython_env.ROOT
ART = os.path.join(ROOT, "host_tests", "artifacts", "sim_e2e")
README_SHOT = os.path.join(ROOT, "tools", "sim", "screenshot.png")
FILES = "abcdefg"

pytestmark = [
    pytest.mark.skipif(find_chromium() is None,
                       reason="no chromium (apt-get install chromium, or set $CHROMIUM)"),
    pytest.mark.skipif(micropython_env.find_micropython() is None,
                       reason=micropython_env.missing_reason()),
]


def sq(name):
    return (int(name[1:]) - 1) * 7 + FILES.index(name[0])


class Page:
    def __init__(self, browser, sim_dir):
        self.b = browser
        self.dir = sim_dir
        self.shots = 0

    # --- reading the page's model ------------------------------------------------------------
    def model(self, path=""):
        return self.b.eval("window.sim.model" + path)

    def oled(self):
        return Picture.from_hex(self.model(".oled.rows"))

    def wait(self, cond, what, timeout=30.0):
        end = time.monotonic() + timeout
        while True:
            v = cond()
            if v:
                return v
            if time.monotonic() > end:
                self.shot("timeout")
                raise AssertionError("timed out after %.0f s waiting for %s\nOLED:\n%s\n"
                                     "console: %s" % (timeout, what, self.oled().ascii(),
                                                      self.model(".log.slice(-8)")))
            time.sleep(0.04)

    def wait_oled(self, *texts, timeout=30.0, inverted=None):
        def ok():
            pic = self.oled()
            return all(pic.has(t, inverted) for t in texts)
        self.wait(ok, "OLED showing %r" % (texts,), timeout)

    def wait_game(self, last, timeout=30.0):
        self.wait(lambda: self.model(".game.last") == last, "saved game with last turn %r" % last,
                  timeout)

    def led(self, name):
        return tuple(self.model(".leds[%d]" % sq(name)))

    def piece(self, name):
        return self.model(".board[%d]" % sq(name))

    # --- doing things through the page --------------------------------------------------------
    def lift(self, name):
        self.b.click("#sq-" + name)
        self.wait(lambda: self.piece(name) is None, "%s lifted" % name)
        time.sleep(0.05)    # a hand is never faster than the 10 ms debounce plus a scan

    def put(self, name, piece_id=None):
        if piece_id is not None:
            self.b.click("#hand-piece-%d" % piece_id)
            self.wait(lambda: self.model(".selected") == piece_id, "piece selected")
        self.b.click("#sq-" + name)
        self.wait(lambda: self.piece(name) is not None, "a piece on %s" % name)
        time.sleep(0.05)

    def move(self, frm, to, text=None):
        self.lift(frm)
        self.put(to)
        self.wait_game(text or "%s-%s" % (frm, to))

    def press(self, button, hold=0.1):
        sel = "#btn-" + button
        self.b.mouse_down(sel)
        time.sleep(hold)
        self.b.mouse_up(sel)
        # Released on the pin (the host holds a short click for MIN_PRESS_MS)...
        self.wait(lambda: 0 not in self.model(".pins").values(), "button released")
        time.sleep(0.05)                   # ... and past the firmware's 20 ms debounce

    def press_until_changed(self, button):
        before = self.model(".oled.rows")
        self.press(button)
        self.wait(lambda: self.model(".oled.rows") != before, "the OLED to change after %s"
                  % button, 3)

    def choose(self, label):
        """Move the menu selection (the inverted row) to label, then press OK."""
        for _ in range(12):
            if self.oled().has(label, inverted=True):
                self.press("ok")
                return
            self.press_until_changed("down")
        raise AssertionError("no menu item %r:\n%s" % (label, self.oled().ascii()))

    def hand(self, side):
        return self.model(".hands[%d]" % side)

    def shot(self, name):
        self.shots += 1
        return self.b.screenshot(os.path.join(ART, "%02d_%s.png" % (self.shots, name)))


@pytest.fixture
def page(tmp_path):
    sim_dir = str(tmp_path / "board")
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--port",
                             "0", "--no-browser", "--dir", sim_dir, "--fresh"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=ROOT)
    url = None
    end = time.monotonic() + 20
    while url is None and time.monotonic() < end:
        line = proc.stdout.readline()
        if not line:
            break
        m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        if m:
            url = m.group(1)
    if url is None:
        proc.kill()
        pytest.fail("tools/sim.py did not start: %s" % proc.stdout.read())
    threading.Thread(target=proc.stdout.read, daemon=True).start()   # keep the pipe drained
    shutil.rmtree(ART, ignore_errors=True)
    b = Browser(width=1400, height=900)
    try:
        b.goto(url)
        b.wait("window.sim && window.sim.ready && window.sim.model.device.status === 'running'",
               timeout=60, what="the page and the firmware")
        yield Page(b, sim_dir)
        assert not [c for c in b.console if c.startswith("exception")], b.console
    finally:
        b.close()
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def colour(rgb):
    r, g, b = rgb
    if r == g == b == 0:
        return "off"
    if r == g == b:
        return "white"
    if r > g > 0 and b > g:
        return "pink"
    if r == 0 and g == 0 and b > 0:
        return "blue"
    if r == 0 and g > 0 and b == 0:
        return "green"
    if r > 0 and g == 0 and b > 0:
        return "magenta"
    if r == 0 and g > 0 and b > 0:
        return "cyan"
    if r > 0 and g > 0 and b == 0:
        return "orange" if g < r * 0.5 else "yellow"
    if r > 0 and g == 0 and b == 0:
        return "red"
    return "other %r" % (rgb,)


def test_play_a_game_through_the_page(page):
    p = page
    t0 = time.monotonic()
    # --- a fresh start says what to do ------------------------------------------------------
    hint = p.b.eval("document.getElementById('hint').textContent")
    assert "Set up start position" in hint and "pick it up" not in hint, hint
    assert p.b.eval("document.getElementById('setup').classList.contains('attention')")
    assert "Set up start position" in p.b.eval(
        "document.getElementById('board-empty').hidden ? '' : "
        "document.getElementById('board-empty').textContent")
    # --- power-on: a fresh board goes straight to the guided set-up --------------------------
    p.wait_oled("Set up the board", "White 4-tile")
    r, g, b = p.led("b1")                                # the first square to fill: green
    assert g > 0 and r == b == 0
    p.b.click("#setup")
    p.wait(lambda: not p.model(".busy"), "set-up done")
    p.wait(lambda: p.b.eval("document.getElementById('board-empty').hidden"),
           "the empty-board note gone")
    p.wait_oled("White to move", "Supply 24")
    assert p.piece("d2") == {"id": p.piece("d2")["id"], "kind": "tile", "side": 0, "value": 3}
    assert p.piece("c8")["side"] == 1 and p.piece("c8")["value"] == 2
    assert p.piece("b4")["kind"] == "barragoon" and p.piece("b4")["face"] == "X"
    assert all(colour(c) == "off" for c in p.model(".leds"))
    assert p.model(".supply") == 24

    # --- 1. d2-d5: lift lights the origin blue and the targets green -------------------------
    p.lift("d2")
    p.wait(lambda: colour(p.led("d5")) == "green", "d5 lit as a target")
    assert colour(p.led("d2")) == "blue" and colour(p.led("d3")) == "off"
    assert [x["value"] for x in p.hand(0)] == [3]
    p.put("d5")
    p.wait_game("d2-d5")
    p.wait_oled("Brown to move", "d2-d5")
    p.wait(lambda: p.model(".active") == 1, "the hand to follow the turn (from game.txt)")
    p.move("d8", "d6")
    p.wait_oled("White to move", "d8-d6")

    # --- 2. d5xb4 d4=1N: a Barragoon capture and its placement with a face choice ------------
    p.lift("d5")
    p.wait(lambda: colour(p.led("b4")) == "yellow", "b4 lit: capture a Barragoon")
    p.lift("b4")
    time.sleep(0.3)        # longer than the adjust time: b4 was not just nudged
    tile = [x for x in p.hand(0) if x["kind"] == "tile"][0]
    p.put("b4", tile["id"])
    p.wait_oled("Place Barragoon", "White:")
    assert [x["kind"] for x in p.hand(0)] == ["barragoon"]
    p.put("d4")
    assert p.piece("d4")["confirmed"] is False           # shown with "?" until confirmed
    p.wait_oled("White: Barragoon", "No Entry")
    # On the picker (the firmware sends a new screen over a few loop steps, the icon after
    # the text may come a step later):
    p.wait(lambda: p.piece("d4")["face"] == "X" and p.piece("d4").get("choosing"),
           "d4 shown as the Barragoon on the face picker")
    p.press_until_changed("down")
    p.wait_oled("One Way N")
    p.wait(lambda: p.piece("d4")["face"] == "1N", "d4 shows the face being chosen")
    assert p.piece("d4")["confirmed"] is False and p.b.eval(
        "document.querySelector('#sq-d4 .piece').classList.contains('choosing')")
    p.wait(lambda: "UP and DOWN" in p.b.eval("document.getElementById('hint').textContent"),
           "the hint to say how to choose the face")
    p.shot("face_picker")
    p.press("ok")
    p.wait_game("d5xb4 d4=1N")
    p.wait_oled("Brown to move", "d5xb4 d4=1N")
    p.wait(lambda: p.piece("d4")["face"] == "1N" and p.piece("d4")["confirmed"],
           "d4 shows the confirmed face 1N")

    p.move("d6", "c7")
    p.move("e1", "d2")
    p.move("c7", "d5")
    p.wait_oled("White to move", "c7-d5")

    # --- 4. d2xd5 e6=X b3=A: a tile capture, Brown places first, then White ------------------
    p.lift("d2")
    p.wait(lambda: colour(p.led("d5")) == "orange", "d5 lit: capture a tile")
    if os.environ.get("UPDATE_SCREENSHOT") == "1":
        time.sleep(0.3)                                  # let the glow transitions settle
        box = p.b.eval("(function(){var a=document.querySelector('#view-play .table')"
                       ".getBoundingClientRect(), b=document.querySelector('#view-play .side')"
                       ".getBoundingClientRect(), h=document.querySelector('header')"
                       ".getBoundingClientRect(); return [a.left, Math.max(a.bottom, b.bottom),"
                       " b.right, h.bottom];})()")
        p.b.screenshot(README_SHOT, (box[0] - 24, box[3], box[2] - box[0] + 48,
                                     box[1] - box[3] + 12))
    p.shot("tile_lifted")
    p.lift("d5")
    time.sleep(0.3)        # longer than the adjust time: d5 was not just nudged
    victim = p.hand(1)[0]                                # Brown's tile: into Brown's hand
    own = p.hand(0)[0]
    assert victim["side"] == 1 and own["side"] == 0 and p.model(".next") == own["id"]
    p.put("d5")                                          # the mover's tile goes down
    p.wait_oled("Place Barragoon", "Brown:")
    p.wait(lambda: p.model(".active") == 1, "Brown's hand active for the placement")
    p.b.click("#hand-piece-%d .away" % victim["id"])     # the captured tile leaves the game
    p.wait(lambda: len(p.model(".box")) == 1, "the captured tile off the board")
    p.b.click("#take-supply")
    p.wait(lambda: len(p.hand(1)) == 1, "a Barragoon in Brown's hand")
    assert p.model(".supply") == 23
    p.put("e6")
    p.wait_oled("Brown: Barragoon", "No Entry")
    p.press("ok")
    p.wait(lambda: p.model(".game.placing") == 0, "White's placement next")
    p.wait_oled("Place Barragoon", "White:")
    p.b.click("#take-supply")
    p.wait(lambda: len(p.hand(0)) == 1, "a Barragoon in White's hand")
    p.put("b3")
    p.wait_oled("White: Barragoon", "No Entry")
    p.press_until_changed("up")
    p.wait_oled("All Turns")
    p.press("ok")
    p.wait_game("d2xd5 e6=X b3=A")
    p.wait_oled("Brown to move", "Supply 22")
    p.wait(lambda: p.piece("b3")["face"] == "A" and p.piece("e6")["face"] == "X",
           "the placed faces on the board")
    assert p.piece("d5")["side"] == 0 and p.model(".supply") == 22

    # --- touch-move: Brown lifts c8 (longer than the adjust time) and puts it back ---------
    p.lift("c8")
    p.wait(lambda: colour(p.led("c8")) == "blue", "the firmware saw c8 lifted")
    time.sleep(0.4)
    p.put("c8")
    p.wait_oled("Touch-move: move", "c8")
    p.shot("touch_move")
    p.lift("e8")                                         # another tile: it must go back
    p.wait_oled("Touch-move: move", "c8")
    p.wait(lambda: colour(p.led("e8")) == "white", "e8 must be put back (white)")
    p.put("e8")
    p.move("c8", "c6")
    p.wait_oled("White to move", "c8-c6")

    # --- take back c8-c6 through the menu (long press OK = BACK) ----------------------------
    p.press("ok", hold=1.0)
    p.wait_oled("Menu", "Take back turn")
    p.choose("Take back turn")
    p.wait_game("d2xd5 e6=X b3=A")
    p.wait_oled("Fix the board", "Put back on c8:", "Brown 2-tile")
    assert colour(p.led("c6")) == "pink" and colour(p.led("c8")) == "white"
    p.shot("take_back")
    p.lift("c6")
    p.put("c8")
    p.wait_oled("Brown to move", "d2xd5 e6=X", "b3=A")   # wrapped
    p.wait(lambda: colour(p.led("c8")) == "off", "the board repaired")

    # --- take back the tile capture: Barragoons back to the supply, the tile back on d5 ------
    p.press("ok", hold=1.0)
    p.wait_oled("Menu")
    p.choose("Take back turn")
    p.wait_game("c7-d5")
    p.wait_oled("Fix the board")
    p.wait(lambda: colour(p.led("e6")) == "pink" and colour(p.led("b3")) == "pink"
           and colour(p.led("d5")) == "pink" and colour(p.led("d2")) == "white",
           "squares to fix: e6, b3, d5 (wrong piece) and d2")
    for name in ("e6", "b3"):
        p.lift(name)
        bid = [x for x in p.hand(p.model(".active")) if x["kind"] == "barragoon"][0]["id"]
        p.b.click("#hand-piece-%d .away" % bid)
        p.wait(lambda: not any(x["id"] == bid for h in p.model(".hands") for x in h),
               "the Barragoon back in the supply")
    p.lift("d5")
    p.wait(lambda: colour(p.led("d5")) == "white", "d5 now to fill with the right piece")
    p.put("d2")
    p.b.click("#box .piece")
    p.wait(lambda: len(p.model(".box")) == 0, "the captured tile taken back")
    p.put("d5")
    p.wait_oled("White to move", "c7-d5", "Supply 24")
    p.wait(lambda: all(colour(c) == "off" for c in p.model(".leds")), "all LEDs dark")
    assert p.piece("d5")["side"] == 1 and p.piece("d2")["side"] == 0
    assert p.model(".supply") == 24
    p.shot("repaired")

    # --- replay the saved game on the same page ---------------------------------------------
    p.b.click("#replay-current")
    p.wait(lambda: p.b.eval("!document.getElementById('view-replay').hidden && "
                            "window.sim.replay && window.sim.replay.games.length === 1"),
           "the replay view")
    steps = p.b.eval("window.sim.replay.games[0].steps.map(s => s.label)")
    assert steps == ["start", "d2-d5", "d8-d6", "d5xb4", "d4=1N", "d6-c7", "e1-d2", "c7-d5"]
    p.b.click("#rp-first")
    p.b.click("#rp-next")
    p.wait(lambda: p.b.eval("window.sim.rp.step") == 1, "step 1")
    assert p.b.eval("document.querySelector('#rp-sq-d5 .piece') !== null && "
                    "document.querySelector('#rp-sq-d2 .piece') === null")
    assert p.b.eval("document.getElementById('rp-sq-d5').classList.contains('mark')")
    p.b.click("#rp-tok-4")
    p.wait(lambda: p.b.eval("window.sim.rp.step") == 4, "step 4")
    assert p.b.eval("document.querySelector('#rp-sq-d4 .piece').dataset.kind") == "barragoon"
    p.b.click("#rp-prev")
    p.wait(lambda: p.b.eval("document.querySelector('#rp-sq-d4 .piece') === null"),
           "a step back: d4 empty again")
    p.shot("replay")

    # --- a records file read off a board, opened on the page --------------------------------
    records = os.path.join(p.dir, "..", "records_from_board.txt")
    with open(records, "w") as f:
        f.write('[Variant "closed"]\n[Express "0 0"]\n[Result "*"]\n\n1. d2-d5 d8-d6\n\n'
                '[Variant "open"]\n[Express "0 1"]\n[Result "*"]\n\n1. c2-c4 c8-c6\n'
                '2. c4-d4\n')
    p.b.set_files("#replay-file", [os.path.abspath(records)])
    p.wait(lambda: p.b.eval("window.sim.replay.name") == "records_from_board.txt",
           "the uploaded records")
    assert p.b.eval("window.sim.replay.games.length") == 2
    assert p.b.eval("window.sim.rp.game") == 1            # the newest game first
    p.b.click("#rp-last")
    p.wait(lambda: p.b.eval("window.sim.rp.step") == 3, "the last step")
    assert p.b.eval("document.querySelector('#rp-sq-d4 .piece') !== null")
    assert "express 0 1" in p.b.eval("document.getElementById('replay-head').textContent")
