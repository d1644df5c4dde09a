# The real firmware on an emulated Pico (tools/rp2040): the stock MicroPython v1.28 UF2 boots
# main.py from littlefs on emulated flash, and a player sets up the board and plays through the
# modelled sensor matrix and buttons; LEDs are decoded from the WS2812 pin's edges and the
# OLED from its I2C traffic. One emulator for the module.
import os

import pytest

import pico_bench
from rp2040 import board
from toolkit.event_script import square_number as S

pico_bench.require()

WHITE = (101, 101, 101)          # full white at the default 40 % brightness, as sent


@pytest.fixture(scope="module")
def bench():
    b = pico_bench.start()
    yield b
    b.close()


def green(c):
    return c[1] > 0 and c[0] == 0 and c[2] == 0


def test_blank_board_set_up_then_turns_with_a_capture_and_placements(bench):
    b = bench
    assert b.screen()[0] == "Set up the board"    # a fresh board: straight to the set-up
    lit = b.lit()
    assert green(lit["b1"])                       # the piece to put down now
    assert len(lit) == 22 and all(c[0] == c[1] == c[2] > 0    # the rest: dim white
                                  for sq, c in lit.items() if sq != "b1")
    b.set_board(board.occupancy())
    b.wait(1000)                                  # still for the settle time: it starts
    assert b.screen()[:2] == ["White to move", "Last -"]
    assert b.lit() == {}
    b.move(S("b1"), S("a3"))
    b.move(S("d8"), S("d5"))
    assert b.screen()[:2] == ["White to move", "Last d8-d5"]
    b.lift(S("d2"))
    b.wait(100)
    lit = b.lit()
    assert lit["d2"][2] > 0 and lit["d2"][:2] == (0, 0)       # origin: blue
    assert lit["d5"][0] > lit["d5"][1] > 0 == lit["d5"][2]    # captures a tile: orange
    assert green(lit["d4"]) and green(lit["c3"])
    b.lift(S("d5"))                               # the victim comes off
    b.wait(300)
    b.drop(S("d5"))
    b.wait(450)
    assert b.screen()[:2] == ["Place Barragoon", "Brown: put one"]   # the captured side first
    b.drop(S("e7"))
    b.wait(450)
    assert "on e7" in b.screen() and "No Entry" in b.screen()
    b.tap("ok")
    b.wait(300)                                   # (the save: game.txt and events.txt)
    assert b.screen()[:2] == ["Place Barragoon", "White: put one"]
    b.drop(S("d3"))
    b.wait(450)
    b.tap("down")
    assert "One Way N" in b.screen()
    b.tap("ok")
    b.wait(300)
    assert b.screen()[:3] == ["Brown to move", "Last d2xd5 e7=X", "d3=1N"]
    assert b.lit() == {}
    game = b.files()[board.GAME].decode()
    assert game.endswith("1. b1-a3 d8-d5\n2. d2xd5 e7=X d3=1N\n"), game
    files = b.files()                             # the flight recorder: in log/, not at
    assert "log/events.txt" in files and "events.txt" not in files   # the root (storage.py)
    assert len(b.lift_to_light()) == 4            # every lift lit something (figures: bench)
    # Power off and on with the pieces standing: the saved game is offered and resumes.
    b.reboot(occupied=b.occ)
    assert b.screen()[:2] == ["Saved game", "Resume game"]
    b.tap("ok")
    b.wait(100)
    assert b.screen()[:2] == ["Brown to move", "Last d2xd5 e7=X"]
    b.move(S("c8"), S("c7"))
    assert b.files()[board.GAME].decode().endswith("2. d2xd5 e7=X d3=1N c8-c7\n")


def test_the_board_runs_the_armv6m_mpy_files_deploy_builds(bench):
    b = bench
    build = pico_bench.build()
    on_board = b.files()
    frozen = board.firmware_kind() == "frozen"       # (the board's own build: .ci/run)
    for dirpath, _, names in os.walk(build):
        for name in names:
            if name.startswith(".") or (frozen and name.endswith((".mpy", ".bin"))):
                continue
            path = os.path.relpath(os.path.join(dirpath, name), build).replace(os.sep, "/")
            with open(os.path.join(dirpath, name), "rb") as f:
                assert on_board[path] == f.read(), path           # byte for byte
    sources = sorted(p for p in on_board if p.endswith(".py"))
    assert sources == ["config.py", "main.py"]                  # nothing else compiles on board
    if frozen:                                   # the modules are in the firmware, no files
        assert not [p for p in on_board if p.endswith((".mpy", ".bin"))]
        out = b.pico.exec("import sys\nprint(sys.modules['drivers.matrix'].__file__)\n")
        assert out.strip() == "drivers/matrix.py"       # the frozen module's name: no such file
        return
    out = b.pico.exec(
        "import sys\n"
        "for n in ('app', 'storage', 'barragoon.core', 'controller.controller',"
        " 'drivers.matrix'):\n"
        "    print(n, sys.modules[n].__file__)\n"
        "print(sys.implementation._machine)\n")
    lines = out.split("\r\n")
    assert lines[0] == "app app.mpy" and lines[4] == "drivers.matrix drivers/matrix.mpy", out
    assert "RP2040" in lines[5]


def test_run_rp2040_plays_an_event_script_and_reports(tmp_path):
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = tmp_path / "s.txt"
    script.write_text("100 lift d2\n400 drop d5\n1400 lift d8\n1700 drop d6\n2600 end\n")
    png = tmp_path / "screen.png"
    proc = subprocess.run([sys.executable, os.path.join(root, "tools", "run_rp2040.py"),
                           str(script), "--png", str(png)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "1. d2-d5 d8-d6" in proc.stdout
    assert "screen: White to move | Last d8-d6" in proc.stdout
    assert png.read_bytes().startswith(b"\x89PNG")
    bad = subprocess.run([sys.executable, os.path.join(root, "tools", "run_rp2040.py"), "-"],
                         input="10 hover d2\n", capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "line 1" in bad.stderr


def test_an_encoder_turned_at_20_detents_a_second_moves_the_menu(tmp_path):
    # config.py with INPUT_TYPE = "encoder" on the board; A/B change in quadrature, each step
    # a quarter of the detent's time, while the firmware redraws the menu after every detent.
    # (Held push: the menu; three detents down from "Resume": "Sensor test".)
    from rp2040 import flashfs
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "firmware", "config.py")) as f:
        cfg = f.read().replace('INPUT_TYPE = "buttons"', 'INPUT_TYPE = "encoder"')
    assert 'INPUT_TYPE = "encoder"' in cfg
    path = tmp_path / "config.py"
    path.write_text(cfg)
    image = flashfs.build_image(pico_bench.build(), {"config.py": cfg.encode()})
    b = pico_bench.start(image, config=str(path))
    try:
        for ms_per_detent in (200, 50):
            assert b.screen()[0] == "Set up the board"
            b.press("ok")                                     # held: the menu
            b.wait(900)
            b.release("ok")
            b.wait(200)
            assert b.screen()[0] == "Menu", b.screen()
            b.wait(b.pico.turn(3, ms_per_detent) + 100)      # down to the 4th item
            b.tap("ok")                                       # the push button
            b.wait(200)
            assert "Sensors" in " ".join(b.screen()), (ms_per_detent, b.screen())
            b.reboot()
    finally:
        b.close()
