# Flashing as a user does, onto the emulated Pico: its USB serial is a pseudo-terminal, and
# `tools/deploy.py --port` runs the real mpremote against it. First onto a blank board (only
# MicroPython on it: the file system is made at its first boot), then onto a board in the
# middle of a game with its watchdog running: it restarts, resumes the game, and keeps its own
# config.py and saved game. The emulator runs paced to real time while a tool talks to it.
import os
import subprocess
import sys

import pytest

import pico_bench
from rp2040 import board
from rp2040.pico import Pico, SerialBridge
from toolkit.event_script import square_number as S

pico_bench.require()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPLOY = os.path.join(ROOT, "tools", "deploy.py")


def mpremote(*args):
    return [sys.executable, "-m", "mpremote"] + list(args)


@pytest.fixture(scope="module")
def blank(tmp_path_factory):
    b = board.EmulatedBoard(None, pico=Pico(flash=None))   # erased storage: MicroPython only
    b.pico.run_for(1500)
    yield b, tmp_path_factory.mktemp("deploy")
    b.close()


def run(bridge_board, cmd, timeout=240):
    with SerialBridge(bridge_board.pico) as port:
        proc = subprocess.run([c.replace("PORT", port) for c in cmd], capture_output=True,
                              text=True, timeout=timeout, cwd=ROOT)
    return proc


def test_deploy_onto_a_blank_board_then_again_mid_game(blank):
    b, tmp = blank
    assert b.files() == {}                       # MicroPython made an empty file system
    out = str(tmp / "build")
    proc = run(b, [sys.executable, DEPLOY, "--port", "PORT", "--out", out])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "OK: all" in proc.stdout and "match the build" in proc.stdout
    assert b.pico.resets and b.pico.resets[-1][1] == "reset"   # deploy restarted the board
    files = b.files()
    assert files["config.py"] == open(os.path.join(ROOT, "firmware", "config.py"), "rb").read()
    assert "app.mpy" in files and "main.py" in files
    b.boot(board.occupancy())                    # the firmware runs: a new board, set up
    b.wait(1000)
    assert b.screen()[0] == "White to move"

    # The maker edits config.py on the board; then a game is played.
    mine = files["config.py"].replace(b"LED_BRIGHTNESS = 40", b"LED_BRIGHTNESS = 30")
    assert mine != files["config.py"]
    cfg = tmp / "config.py"
    cfg.write_bytes(mine)
    proc = run(b, mpremote("connect", "PORT", "fs", "cp", str(cfg), ":config.py", "+",
                           "reset"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    b.boot(board.occupancy())
    b.wait(1000)                                 # the pieces stand: the game starts
    b.move(S("d2"), S("d5"))
    assert b.files()[board.GAME].decode().endswith("1. d2-d5\n")
    assert b.leds == [(0, 0, 0)] * 63

    # Flash again in the middle of the game (the watchdog is running).
    resets = len(b.pico.resets)
    proc = run(b, [sys.executable, DEPLOY, "--port", "PORT", "--out", out])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "OK: all" in proc.stdout
    assert "differs" in proc.stdout              # it says the board's config.py is its own
    assert [why for _, why in b.pico.resets[resets:]] == ["reset"]   # no watchdog reset
    files = b.files()
    assert files["config.py"] == mine            # the maker's config.py is kept
    assert files[board.GAME].decode().endswith("1. d2-d5\n")
    b.boot(b.occ)
    assert b.screen()[:2] == ["Saved game", "Resume game"]
    b.tap("ok")
    b.wait(100)
    assert b.screen()[:2] == ["Brown to move", "Last d2-d5"]
    b.move(S("d8"), S("d6"))
    assert b.files()[board.GAME].decode().endswith("1. d2-d5 d8-d6\n")
