# python tools/sim.py --rp2040: the simulator's board on the emulated Pico (MicroPython's RP2040
# port in rp2040js, the .mpy build deploy.py flashes). A player sets up, lifts a tile and sees
# its targets lit, moves it, and the move reaches game.txt in the sim folder (copied from the
# emulated flash's littlefs), the board speaking the language --lang named (German, from its
# saved settings at power-on); Ctrl-C stops it cleanly with no emulator left running. Mistakes
# on the command line are one line. CPython only (pytest); skips without Node or the UF2.
import os
import shutil
import signal
import subprocess
import sys

import pytest

from barragoon.notation import parse_square
from oled_text import Picture
from test_sim_tool import SimProcess, run_sim, one_line_error

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from rp2040 import pico  # noqa: E402

WHY = pico.missing() or ("" if shutil.which("node") else "Node.js is not installed") or (
    "" if os.path.isdir(os.path.join(ROOT, "tools", "rp2040", "node_modules", "rp2040js"))
    else "rp2040js is not installed (npm ci in tools/rp2040)")


def emulators_running(session):
    """The emulators in the simulator's session (it runs in its own: other tests, on another
    pytest worker or another checkout, may have emulators of their own running)."""
    out = subprocess.run(["ps", "-eo", "sid=,args="], capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        sid, _, args = line.strip().partition(" ")
        if sid == str(session) and "emulator.js" in args and "node" in args:
            found.append(args)
    return found


@pytest.mark.skipif(bool(WHY), reason=WHY or "-")
def test_play_a_move_on_the_emulated_pico(tmp_path):
    sim_dir = str(tmp_path / "board")
    s = SimProcess(sim_dir, extra=["--rp2040", "--lang", "de"])
    game = os.path.join(sim_dir, "saved", "game.txt")
    try:
        st = s.wait(lambda: (lambda m: m if m["device"]["status"] == "running" else None)(
            s.state()), "the firmware running", timeout=120)
        assert emulators_running(s.p.pid), "the emulator runs in the simulator's session"
        assert st["device"]["runtime"] == "rp2040"
        assert "emulated Pico" in st["device"]["runtime_text"]
        s.wait(lambda: Picture.from_hex(s.state()["oled"]["rows"]).has("Grundstellung"),
               "the set-up screen in German", timeout=60)
        assert s.state()["lang"] == "de"
        assert s.act("setup", variant=0)["ok"]
        s.wait(lambda: not s.state()["busy"], "the set-up", timeout=60)
        s.wait(lambda: (s.state()["game"] or {}).get("exists"),
               "the game to start (saved to game.txt)", timeout=60)
        d2, d4 = parse_square("d2"), parse_square("d4")
        # The game starts once the pieces have been still for the settle time; then a lift
        # lights the tile's targets (d4 among them for the 2-tile on d2).
        assert s.act("lift", sq=d2)["ok"]
        s.wait(lambda: any(s.state()["leds"][d4]), "d4 lit as a target", timeout=60)
        assert s.act("put", sq=d4)["ok"]
        s.wait(lambda: os.path.exists(game) and "d2-d4" in open(game).read(),
               "the move saved to the emulated flash and copied to the sim folder", timeout=60)
        # the language is the board's own setting, as if chosen in its menu before
        with open(os.path.join(sim_dir, "settings.txt")) as f:
            assert "language=de" in f.read()
    finally:
        code = s.stop(signal.SIGINT)
    out = "".join(s.lines)
    assert code == 0 and "Traceback" not in out, out
    assert "emulated Pico" in out
    assert emulators_running(s.p.pid) == [], "an emulator was left running"


def test_rp2040_mistakes_are_one_line(tmp_path):
    one_line_error(run_sim("--rp2040", "--micropython", "micropython", "--dir",
                           str(tmp_path)), "choose one")
    one_line_error(run_sim("--firmware", "x.uf2", "--dir", str(tmp_path)), "--rp2040")
    one_line_error(run_sim("--rp2040", "--firmware", str(tmp_path / "none.uf2"),
                           "--dir", str(tmp_path)), "none.uf2")
