# tools/start.py picks the main job: the simulator without a board, flashing with one.
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import start  # noqa: E402


class Port:
    def __init__(self, device, vid):
        self.device, self.vid = device, vid


def test_without_a_board_it_runs_the_simulator(monkeypatch):
    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports", lambda: [Port("/dev/ttyS0", None),
                                                         Port("/dev/ttyUSB0", 0x0403)])
    assert start.find_board() is None
    assert start.choose(start.find_board())[0] == "sim.py"


def test_with_a_pico_it_flashes_the_board(monkeypatch):
    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports", lambda: [Port("/dev/ttyACM0", 0x2E8A)])
    assert start.find_board() == "/dev/ttyACM0"
    tool, why = start.choose(start.find_board())
    assert tool == "deploy.py" and "/dev/ttyACM0" in why


def test_which_names_the_tool_on_this_machine():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "start.py"), "--which"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert out.stdout.strip().splitlines()[-1] in ("sim.py", "deploy.py")
