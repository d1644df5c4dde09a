# The board watched on a computer, end to end on the emulated Pico: the firmware (the .mpy
# build deploy.py flashes) speaks its line protocol on its real USB CDC console (rp2040js's
# USB device, bridged to a pseudo-terminal as a USB serial port), tools/watch.py attached to it
# as to a board on a cable, and headless Chromium on watch.py's page. Scripted sensor events:
# the page mirrors the pieces, the lights and the screen; a whole game is played, and the
# record file watch.py wrote equals the board's own records.txt. One emulator, one browser.
import os
import re
import subprocess
import sys
import threading
import time

import pytest

import pico_bench
from cdp_browser import Browser, find_chromium
from oled_text import Picture
from rp2040 import board
from rp2040.pico import SerialBridge
from toolkit.event_script import square_number as S
from test_watch import wait_page
from barragoon.game import Game
from barragoon.notation import square_name

pico_bench.require()
pytestmark = pytest.mark.skipif(find_chromium() is None,
                                reason="no chromium (apt-get install chromium, or set $CHROMIUM)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = "6z/7/7/7/3[X]3/7/4z2/3D3/7 w 24"      # White captures a Barragoon, places, then a tile


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rp2040_watch")
    image = board.firmware_image(pico_bench.build(), position=START)
    b = pico_bench.start(image, occupied=board.occupancy(START))
    bridge = SerialBridge(b.pico, speed=3.0)     # (as fast as the emulator runs, up to 3x)
    port = bridge.__enter__()
    record = str(tmp / "records.txt")
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "tools", "watch.py"), "--port",
                             port, "--http-port", "0", "--no-browser", "--record", record],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=ROOT)
    url = None
    lines = []
    while url is None:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        url = m.group(1) if m else None
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    browser = Browser(width=1400, height=900)
    try:
        assert url, lines
        yield {"b": b, "bridge": bridge, "url": url, "browser": browser, "record": record,
               "lines": lines}
    finally:
        browser.close()
        proc.terminate()
        proc.wait(10)
        bridge.__exit__(None, None, None)
        b.close()


def on_board(r, fn):
    """fn(EmulatedBoard) run by the bridge's thread (it owns the emulator)."""
    return r["bridge"].call(lambda p: fn(r["b"]))


def lift(sq):
    return lambda b: (b.lift(sq), b.wait(300))


def drop(sq, ms=700):
    return lambda b: (b.drop(sq), b.wait(ms))


def test_the_page_mirrors_the_emulated_board_and_keeps_its_record(rig):
    br = rig["browser"]
    br.goto(rig["url"])
    wait_page(br, "window.sim.ready && window.sim.model.mirror.connected && "
                  "window.sim.model.game.exists && window.sim.model.mirror.k === 0",
              "the mirror of the board")
    screen = on_board(rig, lambda b: b.screen())
    end = time.monotonic() + 20                    # (the page's screen follows the board's)
    pic = Picture.from_hex(br.eval("window.sim.model.oled.rows"))
    while not pic.has("White to move") and time.monotonic() < end:
        time.sleep(0.2)
        pic = Picture.from_hex(br.eval("window.sim.model.oled.rows"))
    assert screen[0] == "White to move" and pic.has("White to move") and pic.has("Supply")
    on_board(rig, lift(S("d2")))                   # a lift: the board's lights on the page
    wait_page(br, "window.sim.model.leds[%d].some(v => v > 0)" % S("d5"), "the targets")
    lit = on_board(rig, lambda b: sorted(b.lit()))
    page = br.eval("window.sim.model.leds.map((c, i) => c.some(v => v > 0) ? i : -1)"
                   ".filter(i => i >= 0)")
    assert sorted(square_name(i) for i in page) == lit
    assert br.eval("window.sim.model.board[%d]" % S("d2")) is None     # lifted
    on_board(rig, lift(S("d5")))                   # a capture: the victim off, the tile down
    on_board(rig, drop(S("d5")))
    wait_page(br, "window.sim.model.mirror.k === 1", "the capture on the page")
    g = Game(START)
    g.move(S("d2"), S("d5"))
    on_board(rig, drop(S("a1"), 450))              # White places a Barragoon, confirms with OK
    on_board(rig, lambda b: b.tap("ok"))
    on_board(rig, lambda b: b.wait(400))
    wait_page(br, "window.sim.model.mirror.k === 2", "the placement on the page")
    g.place(S("a1"), 1)
    while not g.over:                              # the rest of the game: tile captures first
        m = choose(g)
        frm, to = m >> 6, m & 63
        if g.pos.get(to):
            on_board(rig, lift(to))
        on_board(rig, lift(frm))
        on_board(rig, drop(to))
        g.move(frm, to)
        wait_page(br, "window.sim.model.mirror.k === %d" % len(g.actions), "each move")
        assert g.placing() < 0 or g.over, "a placement the test does not play"
    wait_page(br, "window.sim.model.game.over", "the game's end on the page")
    assert "e1xd2" in br.eval("window.sim.model.game.record")
    on_board(rig, lambda b: b.tap("ok"))           # OK: a new game; the record is written
    on_board(rig, lambda b: b.wait(1500))
    files = on_board(rig, lambda b: b.files())
    with open(rig["record"], encoding="utf-8") as f:
        kept = f.read()
    assert files["records.txt"].decode() == kept, (files["records.txt"], kept)
    assert "1-0" in kept or "0-1" in kept


def choose(g):
    moves = g.legal_moves()
    tiles = [m for m in moves if g.pos.get(m & 63) > 16]
    return (tiles or moves)[0]
