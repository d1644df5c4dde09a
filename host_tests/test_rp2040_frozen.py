# The board's own MicroPython (tools/build_firmware.py: the firmware frozen in) flashed as a
# maker does, onto the emulated Pico: a board that played under the stock firmware with .mpy
# files, its game saved and its config.py edited, gets `tools/deploy.py --uf2` over its USB
# serial (a pseudo-terminal running the real mpremote). The board goes into BOOTSEL mode, the
# UF2 lands on its RPI-RP2 drive (a folder here, as the boot ROM's drive would take it), the
# board restarts into it, keeps its saved game and config.py, loses every module file that
# would shadow the frozen ones, says "frozen" on its serial console and its boot screen, and
# the game resumes. Module files that turn up on it later (a copy of the .mpy files) make it
# run "files"; a second --uf2 does not flash again but removes them (that plain deploy.py
# says so in one line: test_deploy.py). Needs the frozen build of this tree (made by
# .ci/run; skipped with the reason otherwise); the emulator runs paced to real time while a
# tool talks to it.
import os
import signal
import subprocess
import sys

import pytest

import pico_bench
from rp2040 import board, flashfs
from rp2040.pico import BootselDrive, Pico, SerialBridge
from toolkit.event_script import square_number as S

pico_bench.require()
FROZEN, WHY = pico_bench.frozen_uf2()
if FROZEN is None:
    pytest.skip(WHY, allow_module_level=True)
STOCK = pico_bench.stock_uf2()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPLOY = os.path.join(ROOT, "tools", "deploy.py")
VERSION = __import__("deploy").firmware_version()


def read(path):
    with open(path, "rb") as f:
        return f.read()


@pytest.fixture(scope="module")
def stock_board(tmp_path_factory):
    """A board on stock MicroPython with the .mpy files, a game begun on it (d2-d5 saved) and
    the maker's own config.py."""
    tmp = tmp_path_factory.mktemp("frozen")
    mine = read(os.path.join(ROOT, "firmware", "config.py")).replace(
        b"LED_BRIGHTNESS = 40", b"LED_BRIGHTNESS = 30")
    image = board.firmware_image(pico_bench.build(), firmware=STOCK,
                                 files={"config.py": mine})
    b = board.EmulatedBoard(None, pico=Pico(flash=image, firmware=STOCK))
    b.boot(board.occupancy())
    assert b.banner() == "Barragoon board firmware %s (files)" % VERSION
    assert b.wait_for(lambda b: b.screen()[:1] == ["White to move"], 4000), b.screen()
    b.move(S("d2"), S("d5"))
    assert b.files()[board.GAME].decode().endswith("1. d2-d5\n")
    yield b, tmp, mine
    b.close()


def deploy(b, tmp, *args, timeout=240):
    drive = BootselDrive(b.pico, str(tmp / "RPI-RP2"))
    with SerialBridge(b.pico, drive=drive) as port:
        # Its own process group: a deploy that runs out of time goes with its mpremote (left
        # behind, it would hold the port open).
        proc = subprocess.Popen([sys.executable, DEPLOY, "--port", port, "--out",
                                 str(tmp / "build")] + list(args), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            raise AssertionError("deploy.py ran out of time: " + out[-2000:] + err[-2000:])
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), drive


def test_a_game_saved_under_the_stock_firmware_resumes_after_the_uf2_is_flashed(stock_board):
    b, tmp, mine = stock_board
    before = b.files()
    assert "app.mpy" in before and "barragoon/core.mpy" in before
    proc, drive = deploy(b, tmp, "--uf2", FROZEN, "--drive", str(tmp / "RPI-RP2"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [name for _, name in drive.flashed] == [os.path.basename(FROZEN)]
    assert "OK: the board runs firmware %s frozen into its MicroPython" % VERSION in proc.stdout
    assert "kept      config.py (the board's own; differs" in proc.stdout
    files = b.files()
    assert not [p for p in files if p.endswith(".mpy")]        # nothing shadows the firmware
    # (the modules and the language files were removed; main.py, config.py and data stay)
    assert sorted(files) == sorted(p for p in before if not p.endswith((".mpy", ".bin")))
    assert files["main.py"] == read(os.path.join(ROOT, "firmware", "main.py"))
    assert files["config.py"] == mine                          # the maker's config.py
    assert files[board.GAME] == before[board.GAME]             # the saved game
    assert not any(p.startswith(("barragoon/", "controller/", "drivers/")) for p in files)

    # deploy.py restarted the board: it says what it runs, then offers the saved game.
    assert b.wait_for(lambda b: b.screen()[:3] == ["Barragoon", "firmware %s" % VERSION,
                                                   "frozen"], 3000), b.screen()
    assert b.wait_for(lambda b: b.screen()[:2] == ["Saved game", "Resume game"], 3000), \
        b.screen()
    b.tap("ok")
    b.wait(200)
    assert b.screen()[:2] == ["Brown to move", "Last d2-d5"]
    b.move(S("d8"), S("d6"))
    assert b.files()[board.GAME].decode().endswith("1. d2-d5 d8-d6\n")
    assert b.banner(wait=False) == "Barragoon board firmware %s (frozen)" % VERSION


def test_module_files_left_on_a_frozen_board_are_removed_without_flashing_again(stock_board):
    # As a copy of the .mpy files (or a hand-flashed UF2 over a .mpy deploy) leaves a board:
    # the files shadow the frozen modules, and the board runs them ("files").
    b, tmp, mine = stock_board
    stale = {p: d for p, d in board.deployed_files(pico_bench.build(), STOCK).items()
             if p.endswith((".mpy", ".bin"))}       # (modules and language files)
    b.pico.power_off()
    b.pico.load_storage(flashfs.with_files(b.pico.storage(), stale))
    b.pico.power_on()
    b.boot(b.occ, boot_screen=False)
    assert b.banner(wait=False) == "Barragoon board firmware %s (files)" % VERSION
    proc, drive = deploy(b, tmp, "--uf2", FROZEN, "--drive", str(tmp / "RPI-RP2"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert drive.flashed == [] and "not flashed again" in proc.stdout
    assert "removed %d module files and folders" % (len(stale) + 3) in proc.stdout
    files = b.files()
    assert not [p for p in files if p.endswith((".mpy", ".bin"))]
    assert files["config.py"] == mine
    assert files[board.GAME].decode().endswith("1. d2-d5 d8-d6\n")
    assert b.banner(wait=False) == "Barragoon board firmware %s (frozen)" % VERSION


def test_the_engine_plays_the_same_turns_frozen_as_on_the_host():
    # The frozen firmware runs the engine's search steps as native armv6m code (the .mpy
    # build as bytecode): the same turns for the same work as recorded from the host
    # (host_tests/engine_moves.txt). Every native function is called in a search: one whose
    # code the build left off a word boundary would stop the Pico (a HardFault on a board).
    from test_engine_moves import _cases
    cases = [c for c in _cases() if c[0] <= 9000][:4]
    files = board.deployed_files(pico_bench.build(), FROZEN)
    files.pop("main.py")
    code = ["from barragoon.engine import Engine", "from barragoon.record import parse_record"]
    for units, _, record in cases:
        code.append("t = Engine().run(parse_record(%r), steps=%d)" % (record, units))
        code.append("print('%s|%d|%d|%d|%d' % (t.text, t.score, t.depth, t.nodes, t.steps))")
    with Pico(flash=flashfs.build_image(None, files), firmware=FROZEN) as p:
        p.run_for(500)
        out = p.exec("\n".join(code) + "\n", timeout_ms=120000).split("\r\n")
    assert [line for line in out if line] == [expected for _, expected, _ in cases]
