# End to end: `python tools/sim.py` with the real firmware on the MicroPython unix port, driven
# through its page in headless Chromium (Chrome DevTools Protocol over a pipe: host_tests/
# cdp_browser.py) with real mouse clicks. Sets up the board, plays turns with a Barragoon capture
# and a tile capture (both placements, face choice), provokes a touch-move warning, takes two
# turns back through the menu and repairs the board, then replays the game. What the page shows
# is read from its model (window.sim.model): pieces, LED colours, and the OLED text found in the
# decoded OLED pixels. The line under the board says what to do next through each capture.
#
# A second test checks what the page explains: the legend of the LED colours follows the
# palette chosen in the board's menu and shows the firmware's own colours (the same the squares
# show), the 16 faces are there with names and what they do (checked against the rules core),
# the rules open from the page, and a capture begun with the piece to capture is explained.
#
# Screenshots go to host_tests/artifacts/sim_e2e/<test>/. With UPDATE_SCREENSHOT=1 the first
# test also writes tools/sim/screenshot.png (the README's picture).
import base64
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
from processes import stop

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
    def __init__(self, browser, sim_dir, art):
        self.b = browser
        self.dir = sim_dir
        self.art = art
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

    def settled(self):
        """The OLED once the firmware has sent all of its new screen (no change for 0.3 s: it
        sends a screen over several loop steps)."""
        rows = self.model(".oled.rows")
        while True:
            time.sleep(0.3)
            now = self.model(".oled.rows")
            if now == rows:
                return Picture.from_hex(rows)
            rows = now

    def choose(self, label):
        """Move the menu selection (the inverted row, read off the settled screen) to label,
        then press OK."""
        for _ in range(16):
            if self.settled().has(label, inverted=True):
                self.press("ok")
                return
            self.press("down")
        raise AssertionError("no menu item %r:\n%s" % (label, self.settled().ascii()))

    def hand(self, side):
        return self.model(".hands[%d]" % side)

    def hint(self):
        return self.b.eval("document.getElementById('hint').textContent")

    def wait_hint(self, text):
        """The line under the board reads text (or, for a list of parts, holds them all)."""
        parts = [text] if isinstance(text, str) else text
        ok = (lambda h: h == text) if isinstance(text, str) else \
            (lambda h: all(t in h for t in parts))
        try:
            self.wait(lambda: ok(self.hint()), "the hint %r" % (text,), 10)
        except AssertionError:
            raise AssertionError("the hint reads %r, not %r" % (self.hint(), text))

    def shot(self, name):
        self.shots += 1
        return self.b.screenshot(os.path.join(self.art, "%02d_%s.png" % (self.shots, name)))


def start_sim(sim_dir, args):
    """tools/sim.py on a free port with its board's files in sim_dir: (process, page address)."""
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--port",
                             "0", "--no-browser", "--dir", sim_dir] + args,
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
    return proc, url


@pytest.fixture
def page(tmp_path, request):
    # request.param (indirect parametrization): {"args": more sim.py options,
    # "accept_language": the browser's languages, as a browser in that country sends them}
    opts = getattr(request, "param", {})
    sim_dir = str(tmp_path / "board")
    proc, url = start_sim(sim_dir, ["--fresh"] + opts.get("args", []))
    art = os.path.join(ART, request.node.name.replace("test_", "", 1))
    shutil.rmtree(art, ignore_errors=True)
    b = Browser(width=1400, height=900)
    try:
        if opts.get("accept_language"):
            b.call("Emulation.setUserAgentOverride", {
                "userAgent": b.eval("navigator.userAgent"),
                "acceptLanguage": opts["accept_language"]})
        b.goto(url)
        b.wait("window.sim && window.sim.ready && window.sim.model.device.status === 'running'",
               timeout=60, what="the page and the firmware")
        pg = Page(b, sim_dir, art)
        pg.url = url
        yield pg
        assert not [c for c in b.console if c.startswith("exception")], b.console
    finally:
        b.close()
        stop(proc)


def readme_screenshot(p, scale=0.8):
    """tools/sim/screenshot.png: the page's header (with its language choice), board, device
    and legend, a little smaller than on screen."""
    p.b.call("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 1000,
                                                     "deviceScaleFactor": 1, "mobile": False})
    time.sleep(0.5)                                      # let the glow transitions settle
    bottom = p.b.eval("Math.max(document.querySelector('#view-play .table')"
                      ".getBoundingClientRect().bottom, document.querySelector('#legend')"
                      ".getBoundingClientRect().bottom)")
    clip = {"x": 0, "y": 0, "width": p.b.eval("window.innerWidth"), "height": bottom + 16,
            "scale": scale}
    data = p.b.call("Page.captureScreenshot", {"format": "png", "clip": clip})["data"]
    with open(README_SHOT, "wb") as f:
        f.write(base64.b64decode(data))
    p.b.call("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 900,
                                                     "deviceScaleFactor": 1, "mobile": False})


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
    p.wait_hint(["White\u2019s 3-tile is in hand", "click a lit square",
                 "click the piece on a pulsing square to take it off, then click that square "
                 "again"])
    p.lift("b4")
    time.sleep(0.3)        # longer than the adjust time: b4 was not just nudged
    p.wait_hint("Click b4 again to put White\u2019s 3-tile there: it captures the Barragoon "
                "(now in White\u2019s hand), which White then places again.")
    tile = [x for x in p.hand(0) if x["kind"] == "tile"][0]
    assert p.model(".next") == tile["id"]                # as the hint says
    assert p.b.eval("[...document.querySelectorAll('#board .sq.target')].map(e => e.id)") == \
        ["sq-b4"]                                        # and b4 is marked
    p.shot("capture_hint")
    p.put("b4")
    p.wait_oled("Place Barragoon", "White:")
    assert [x["kind"] for x in p.hand(0)] == ["barragoon"]
    assert p.b.eval("document.querySelectorAll('#board .sq.target').length") == 0
    p.wait_hint("White places the captured Barragoon again: click an empty square, then "
                "choose its face with UP/DOWN and OK.")
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
        readme_screenshot(p)
    p.shot("tile_lifted")
    p.lift("d5")
    time.sleep(0.3)        # longer than the adjust time: d5 was not just nudged
    victim = p.hand(1)[0]                                # Brown's tile: into Brown's hand
    own = p.hand(0)[0]
    assert victim["side"] == 1 and own["side"] == 0 and p.model(".next") == own["id"]
    p.wait_hint("Click d5 again to put White\u2019s 3-tile there: it captures the Brown 3-tile "
                "(now in Brown\u2019s hand), which leaves the game.")
    p.put("d5")                                          # the mover's tile goes down
    p.wait_oled("Place Barragoon", "Brown:")
    p.wait(lambda: p.model(".active") == 1, "Brown's hand active for the placement")
    p.wait_hint("Brown places a Barragoon: first put the captured Brown 3-tile aside (the \u00d7 "
                "on it in Brown\u2019s hand), then click \u201cTake a Barragoon\u201d and an "
                "empty square.")
    p.b.click("#hand-piece-%d .away" % victim["id"])     # the captured tile leaves the game
    p.wait(lambda: len(p.model(".box")) == 1, "the captured tile off the board")
    p.wait_hint("Brown places a Barragoon: click \u201cTake a Barragoon\u201d, then an empty "
                "square.")
    p.b.click("#take-supply")
    p.wait(lambda: len(p.hand(1)) == 1, "a Barragoon in Brown's hand")
    assert p.model(".supply") == 23
    p.wait_hint("Brown places a Barragoon: click an empty square, then choose its face with "
                "UP/DOWN and OK.")
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


# --- what the page explains ---------------------------------------------------------------------
def shown_colour(style):
    """(r, g, b, alpha) of the first colour in a computed CSS background."""
    m = re.search(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", style)
    assert m, style
    return tuple(int(x) for x in m.groups()[:3]) + (float(m.group(4) or 1),)


def hue(rgb):
    top = max(rgb)
    return tuple(int(v * 255 / top + 0.5) for v in rgb)


def close(a, b, tol=4):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


LEGEND_JS = ("[...document.querySelectorAll('#legend-led-list .led-row')].map(r => ({"
             "key: r.dataset.led, rgb: r.dataset.rgb.split(',').map(Number), "
             "pattern: r.dataset.pattern, text: r.querySelector('.led-text').textContent, "
             "shown: getComputedStyle(r.querySelector('.glow')).backgroundImage, "
             "visible: r.getBoundingClientRect().height > 0}))")


def legend_rows(p):
    return {r["key"]: r for r in p.b.eval(LEGEND_JS)}


def check_legend(p, palette):
    """The legend lists every meaning a player meets, in the firmware's colours of palette."""
    from controller import colours as C
    pal = C.PALETTES[palette]
    rows = legend_rows(p)
    skip = {C.OFF, C.TEST_R, C.TEST_G, C.TEST_B, C.TEST_W}
    assert sorted(rows) == sorted(C.name(m) for m in range(C.COUNT) if m not in skip)
    for m in range(C.COUNT):
        if m in skip:
            continue
        r = rows[C.name(m)]
        rgb = tuple(C.colour(pal, m))
        assert tuple(r["rgb"]) == rgb, (C.name(m), r["rgb"], rgb)
        assert r["visible"] and r["text"] and not r["text"].startswith(C.name(m)), r
        shown = shown_colour(r["shown"])
        # the hue at full strength, a dim colour dim (as the squares show it)
        assert shown[:3] == hue(rgb), (C.name(m), shown, rgb)
        assert abs(shown[3] - max(0.3, max(rgb) / 255)) < 0.01, (C.name(m), shown)
        word = {C.PULSE: "pulsing", C.BLINK: "blinking", C.FLASH: "flashing"}.get(C.PATTERN[m])
        assert (word in r["text"]) if word else not any(
            w in r["text"] for w in ("pulsing", "blinking", "flashing")), r["text"]
    name = {0: "normal", 1: "for red-green colour blindness"}[palette]
    assert p.b.eval("document.getElementById('legend-palette').textContent") == \
        "Colours: " + name
    return rows


def test_legend_palette_faces_rules_and_capture_hints(page):
    from barragoon import core
    from controller import colours as C
    from controller import screens
    p = page
    # --- the LED legend in the normal palette, the one a fresh board uses ---------------------
    assert p.model(".palette") == 0
    check_legend(p, 0)
    p.b.click("#setup")
    p.wait(lambda: not p.model(".busy"), "set-up done")
    p.wait_oled("White to move")
    p.shot("legend_normal")

    # --- the board's menu switches to the red-green palette: the legend follows -------------
    p.press("ok", hold=1.0)
    p.wait_oled("Menu")
    p.choose("LEDs: normal")
    p.wait_oled("LEDs: red-green")
    p.wait(lambda: p.model(".palette") == 1, "the palette saved by the firmware")
    p.wait(lambda: legend_rows(p)["move"]["rgb"] == list(C.colour(C.RED_GREEN, C.MOVE)),
           "the legend in the red-green palette")
    rows = check_legend(p, 1)
    p.press("ok", hold=1.0)                             # BACK: out of the menu
    p.wait_oled("White to move")
    # ... and a lifted tile's squares light in the colours the legend shows
    p.lift("d2")
    p.wait(lambda: colour(p.led("d5")) != "off", "d5 lit as a target")
    assert close(hue(p.led("d5")), shown_colour(rows["move"]["shown"])[:3]), p.led("d5")
    assert close(hue(p.led("d2")), shown_colour(rows["origin"]["shown"])[:3]), p.led("d2")
    p.shot("legend_red_green")
    p.put("d5")
    p.wait_game("d2-d5")
    p.move("d8", "d6")

    # --- a capture begun with the piece to capture: the hint leads through it ----------------
    p.lift("b4")
    time.sleep(0.3)        # longer than the adjust time: b4 was not just nudged
    p.wait_hint("The Barragoon from b4 is in White\u2019s hand: now click the White tile that "
                "captures it (lit), then click b4 again to put that tile there. If none is lit, "
                "click b4 to put it back.")
    p.wait(lambda: colour(p.led("d5")) != "off", "d5 lit: the tile that can capture b4")
    assert close(hue(p.led("d5")), shown_colour(rows["capturer"]["shown"])[:3]), p.led("d5")
    p.shot("victim_first")
    p.lift("d5")
    p.wait_hint("Click b4 again to put White\u2019s 3-tile there: it captures the Barragoon "
                "(now in White\u2019s hand), which White then places again.")
    p.put("b4")
    p.wait_oled("Place Barragoon", "White:")
    p.wait_hint("White places the captured Barragoon again: click an empty square, then "
                "choose its face with UP/DOWN and OK.")
    p.put("d4")
    p.wait_oled("No Entry")
    p.wait_hint("Choose the Barragoon\u2019s face with UP and DOWN (arrow keys), confirm with "
                "OK (Enter).")
    p.press("ok")
    p.wait_game("d5xb4 d4=X")

    # --- the 16 faces: the board's pictures, the OLED's names, what the rules core does -----
    p.b.click("#legend-tab-faces")
    faces = p.b.eval("[...document.querySelectorAll('#legend-face-list .face-row')].map(r => ({"
                     "code: r.dataset.face, name: r.querySelector('.face-name').textContent, "
                     "does: r.querySelector('.face-does').textContent, "
                     "svg: r.querySelector('svg').innerHTML, "
                     "visible: r.getBoundingClientRect().height > 0}))")
    assert [f["code"] for f in faces] == list(core.FACES)
    assert [f["name"] for f in faces] == list(screens.FACE_NAMES)
    assert all(f["visible"] for f in faces)
    assert len({f["svg"] for f in faces}) == 16 and all('d="M' in f["svg"] for f in faces)
    assert faces[0]["svg"] == p.b.eval("document.querySelector('#sq-d4 svg').innerHTML")
    check_face_descriptions(faces, core)
    p.shot("legend_faces")

    # --- the rules, one click away ------------------------------------------------------------
    before = {t["targetId"] for t in p.b.call("Target.getTargets", session=False)["targetInfos"]}
    p.b.click("#rules-link")

    def new_tab():
        for t in p.b.call("Target.getTargets", session=False)["targetInfos"]:
            if t["type"] == "page" and t["targetId"] not in before and \
                    t["url"].endswith("/rules?lang=en#english-how-to-play"):
                return t["url"]
    url = p.wait(new_tab, "the rules in a new tab")
    p.b.goto(url)
    assert p.b.eval("document.querySelector('h1').textContent") == "How to play Barragoon"
    with open(os.path.join(ROOT, "firmware", "barragoon", "RULES.md"), encoding="utf-8") as f:
        md = f.read()
    h2 = [m.group(1).replace("`", "") for m in re.finditer(r"^## (.*)$", md, re.M)]
    assert p.b.eval("[...document.querySelectorAll('h2')].map(h => h.textContent)") == h2
    p.b.eval("document.querySelector('a[href=\"#the-16-faces-of-a-barragoon\"]').click()")
    p.wait(lambda: abs(p.b.eval("document.getElementById('the-16-faces-of-a-barragoon')"
                                ".getBoundingClientRect().top")) < 2, "the contents link to work")
    p.shot("rules")
    raw = p.b.eval("fetch(document.querySelector('a[href=\"/rules.md\"]').href)"
                   ".then(r => r.text())", await_promise=True)
    assert raw == md


def check_face_descriptions(faces, core):
    """Each face's words say what the rules core lets a tile do on it."""
    heading = {"north": core.N, "east": core.E, "south": core.S, "west": core.W}
    table = core._build_pass()

    def passes(code, h_in, h_out):
        return table[(core.FACES.index(code) + 1) * 16 + h_in * 4 + h_out] == 1

    every = [(i, o) for i in range(4) for o in range(4)]
    for f in faces:
        code, does = f["code"], f["does"].lower()
        dirs = [heading[w] for w in re.findall(r"north|east|south|west", does)]
        allowed = {(i, o) for i, o in every if passes(code, i, o)}
        if code == "X":
            assert not allowed and "no tile" in does, f
        elif code == "A":
            assert allowed == {(i, o) for i, o in every if (o - i) % 4 in (1, 3)}, f
            assert "left or right" in does and "never straight" in does, f
        elif code[0] in "12":
            assert "straight" in does and allowed == {(d, d) for d in dirs}, f
        else:
            turn = "right" if code[0] == "R" else "left"
            assert "turn " + turn in does and len(dirs) == 2, f
            assert allowed == {(dirs[0], dirs[1])}, f


# --- the page in the players' languages --------------------------------------------------------
def page_texts(p):
    return p.b.eval("[document.documentElement.lang, document.getElementById('setup')"
                    ".textContent, document.getElementById('rules-link').getAttribute('href'), "
                    "document.getElementById('legend-rules').getAttribute('href'), "
                    "document.getElementById('lang').value, document.title]")


def texts_not_in(p, lang):
    """The texts the page names that it does not show in lang's table (the status line
    excepted: it shows the firmware's state once the page runs)."""
    return p.b.eval("(function(){var T=window.sim.text; if (window.sim.lang !== '%s') "
                    "return ['the page is in ' + window.sim.lang]; var q = s => [...document"
                    ".querySelectorAll(s)].filter(e => e.id !== 'status'); "
                    "return q('[data-t]').filter(e => e.textContent !== T[e.dataset.t])"
                    ".map(e => e.dataset.t).concat(q('[data-t-title]').filter(e => e.title "
                    "!== T[e.dataset.tTitle]).map(e => e.dataset.tTitle));})()" % lang)


@pytest.mark.parametrize("page", [{"accept_language": "es-ES,es;q=0.9,en;q=0.5"}],
                         indirect=True)
def test_the_page_speaks_the_players_language(page):
    p = page
    with open(os.path.join(ROOT, "tools", "sim", "text.json"), encoding="utf-8") as f:
        texts = json.load(f)
    # --- a browser in Spanish and a board without a language of its own: Spanish, both ------
    assert page_texts(p) == ["es", "Colocar la posición inicial", "/rules?lang=es#español-cómo-se-juega",
                             "/rules?lang=es#español-cómo-se-juega", "es",
                             "Simulador del tablero Barragoon"]
    assert texts_not_in(p, "es") == []
    p.wait(lambda: p.model(".lang") == "es", "the page's language sent to the board")
    p.wait_oled("Preparar tablero")                     # the board's screen: Spanish too
    assert p.b.eval("[...document.querySelectorAll('#lang option')].map(o => o.textContent)") \
        == ["English", "Deutsch", "Italiano", "Español"]
    assert p.hint() == texts["es"]["hintStart"]

    # --- choosing Deutsch: every text, the legend, the hint and the rules link follow -------
    p.b.eval("(function(){var s=document.getElementById('lang'); s.value='de'; "
             "s.dispatchEvent(new Event('change'));})()")
    assert page_texts(p) == ["de", "Grundstellung aufbauen", "/rules?lang=de#deutsch-so-spielt-man",
                             "/rules?lang=de#deutsch-so-spielt-man", "de", "Barragoon-Brett-Simulator"]
    assert texts_not_in(p, "de") == []
    assert p.hint() == texts["de"]["hintStart"]
    assert p.b.eval("document.querySelector('#legend-face-list .face-name').textContent") == \
        "Kein Weg"
    assert p.b.eval("document.querySelector('#legend-led-list .led-group').textContent") == \
        texts["de"]["ledGroups"]["lifted"]
    p.wait(lambda: p.model(".lang") == "de", "the board told")
    assert p.b.eval("localStorage.getItem('barragoon.sim.lang')") == "de"
    p.wait_oled("Grundstellung")                        # the board speaks German at once
    p.wait(lambda: "language=de" in read_settings(p), "the board's choice saved, as its menu's")
    p.b.click("#setup")
    p.wait(lambda: not p.model(".busy"), "set-up done")
    p.wait_oled("Weiß am Zug")                          # (its own glyphs: controller/font.py)
    p.wait(lambda: p.b.eval("document.getElementById('game-summary').textContent")
           .startswith("Weiß am Zug"), "the saved game's summary in German")
    p.shot("deutsch")

    # --- the rules link opens the German players' section -----------------------------------
    before = {t["targetId"] for t in p.b.call("Target.getTargets", session=False)["targetInfos"]}
    p.b.click("#rules-link")

    def new_tab():
        for t in p.b.call("Target.getTargets", session=False)["targetInfos"]:
            if t["type"] == "page" and t["targetId"] not in before and "/rules" in t["url"]:
                return t["url"]
    url = p.wait(new_tab, "the rules in a new tab")
    assert url == p.url + "rules?lang=de#deutsch-so-spielt-man"
    p.b.goto(url)
    p.wait(lambda: abs(p.b.eval("document.getElementById('deutsch-so-spielt-man')"
                                ".getBoundingClientRect().top")) < 2, "the German section shown")
    assert p.b.eval("document.getElementById('deutsch-so-spielt-man').textContent") == \
        "Deutsch: So spielt man"
    assert p.b.eval("document.documentElement.lang") == "de"
    assert p.b.eval("document.querySelector('.top').textContent").startswith(
        "Barragoon-Brett-Simulator \u00b7 die Regeln des Projekts")
    # the one anchor with letters beyond ASCII works in a browser too
    p.b.goto(p.url + "rules#español-cómo-se-juega")
    p.wait(lambda: abs(p.b.eval("document.getElementById('español-cómo-se-juega')"
                                ".getBoundingClientRect().top")) < 2, "the Spanish section shown")
    p.shot("rules_deutsch")

    # --- the page opened again: German still (the board's language now) --------------------
    p.b.eval("localStorage.clear()")
    p.b.goto(p.url)
    p.b.wait("window.sim && window.sim.ready", timeout=60, what="the page again")
    assert page_texts(p)[:2] == ["de", "Grundstellung aufbauen"]

    # --- the language chosen in the board's menu: the page follows ------------------------
    p.press("ok", hold=1.0)
    p.choose("Spr.: Deutsch")                            # the next language: Italiano
    p.wait(lambda: p.model(".lang") == "it", "the board's choice seen by the host")
    p.wait(lambda: page_texts(p)[:2] == ["it", "Disponi la posizione di partenza"],
           "the page in Italian")
    assert texts_not_in(p, "it") == []
    assert "language=it" in read_settings(p)
    p.press("ok", hold=1.0)                              # BACK: out of the menu
    p.wait_oled("Tocca al")


def read_settings(p):
    try:
        with open(os.path.join(p.dir, "settings.txt"), encoding="utf-8") as f:
            return f.read()
    except OSError:
        return ""
