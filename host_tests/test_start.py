# tools/start.py picks the main job (the simulator without a board, flashing with one, the
# MicroPython install steps for a Pico in BOOTSEL mode), passes each tool only its own options,
# and stops together with the tool on Ctrl-C and SIGTERM: no traceback, nothing left running.
# tools/pico_usb.py finds the boards. CPython only (pytest).
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = os.path.join(ROOT, "tools", "start.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))

import pico_usb  # noqa: E402
import start  # noqa: E402
from processes import running_with  # noqa: E402


class Port:
    def __init__(self, device, vid):
        self.device, self.vid = device, vid


def plan(argv, board=None, bootsel=None, firmware=None):
    return start.plan(start.parse_args(argv), board, bootsel, firmware)


def tool(cmd):
    return [os.path.basename(cmd[0])] + cmd[1:]


# --- finding boards -----------------------------------------------------------------------------
def test_a_pico_running_micropython_is_found_by_its_usb_vendor():
    assert pico_usb.find_serial_board([Port("/dev/ttyS0", None), Port("/dev/ttyUSB0", 0x0403)]) \
        is None
    assert pico_usb.find_serial_board([Port("/dev/ttyUSB0", 0x0403),
                                       Port("/dev/ttyACM0", 0x2E8A)]) == "/dev/ttyACM0"
    assert pico_usb.find_serial_board([Port("COM5", 0xF055)]) == "COM5"


def usb_device(root, name, vid, pid):
    d = root / name
    d.mkdir(parents=True)
    (d / "idVendor").write_text("%04x\n" % vid)
    (d / "idProduct").write_text("%04x\n" % pid)


def test_a_pico_in_bootsel_mode_is_found_on_the_usb_bus(tmp_path):
    sysfs = tmp_path / "usb"
    usb_device(sysfs, "1-1", 0x046D, 0xC52B)                 # a mouse
    usb_device(sysfs, "1-2", 0x2E8A, 0x0005)                 # a Pico running MicroPython
    assert pico_usb.find_bootsel(str(sysfs), drives=[]) is None
    usb_device(sysfs, "1-3", 0x2E8A, 0x0003)                 # the RP2040 boot ROM
    assert pico_usb.find_bootsel(str(sysfs), drives=[]) == {"chip": "RP2040", "drive": None}
    assert pico_usb.find_bootsel(str(tmp_path / "none"), drives=[]) is None


def test_a_pico_in_bootsel_mode_is_found_by_its_drive(tmp_path):
    usb = tmp_path / "USB STICK"
    usb.mkdir()
    (usb / "notes.txt").write_text("hello")
    drive = tmp_path / "RP2350"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\n"
                                        "Board-ID: RP2350\n")
    found = pico_usb.find_bootsel(str(tmp_path / "none"), drives=[str(usb), str(drive)])
    assert found == {"chip": "RP2350", "drive": str(drive)}
    steps = pico_usb.install_steps(found)
    assert "Pico 2" in steps and "RPI_PICO2" in steps and str(drive) in steps


# --- what runs ----------------------------------------------------------------------------------
def test_without_a_board_it_runs_the_simulator_with_the_simulators_options():
    cmd, why, _ = plan(["--http-port", "9000", "--no-browser", "--dir", "/tmp/b"])
    assert tool(cmd) == ["sim.py", "--port", "9000", "--no-browser", "--dir", "/tmp/b"]
    assert "no board" in why


def test_with_a_board_it_flashes_it_and_passes_only_the_serial_port():
    cmd, why, _ = plan(["--no-browser"], board="/dev/ttyACM0")
    assert tool(cmd) == ["deploy.py", "--port", "/dev/ttyACM0"]   # --no-browser not passed on
    assert "/dev/ttyACM0" in why
    cmd, _, _ = plan(["--serial", "COM3"])
    assert tool(cmd) == ["deploy.py", "--port", "COM3"]


def test_board_or_simulator_can_be_forced():
    assert tool(plan(["--sim"], board="/dev/ttyACM0")[0])[0] == "sim.py"
    cmd, why, status = plan(["--board"])
    assert cmd is None and status == 1 and "no board found" in why and "--serial" in why


def test_a_pico_in_bootsel_mode_gets_the_install_steps_not_the_simulator():
    boot = {"chip": "RP2040", "drive": "/media/me/RPI-RP2"}
    cmd, why, status = plan([], bootsel=boot)
    assert cmd is None and status == 1
    assert "Install MicroPython first" in why and "/media/me/RPI-RP2" in why
    assert "RPI_PICO/" in why and "RPI_PICO_W" in why and "--sim" in why
    assert plan(["--board"], bootsel=boot)[1].count("Install MicroPython first") == 1
    assert tool(plan(["--sim"], bootsel=boot)[0])[0] == "sim.py"


def test_main_says_bootsel_steps_and_runs_nothing(monkeypatch, capsys):
    monkeypatch.setattr(start, "find_uf2", lambda: None)     # (no board's own build here)
    monkeypatch.setattr(pico_usb, "find_serial_board", lambda: None)
    monkeypatch.setattr(pico_usb, "find_bootsel", lambda: {"chip": "RP2040", "drive": None})
    monkeypatch.setattr(start, "run_child", lambda cmd, argv=(): pytest.fail("ran %s" % cmd))
    assert start.main([]) == 1
    out = capsys.readouterr().out
    assert "BOOTSEL" in out and "RPI-RP2" in out


# --- the board's own MicroPython in build/ (tools/build_firmware.py) ---------------------------
def uf2_in(folder, source=None):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from test_deploy import frozen_uf2
    os.makedirs(str(folder), exist_ok=True)
    return frozen_uf2(folder / "barragoon-0.2.0-RPI_PICO.uf2", source=source)


def test_a_current_build_in_build_is_flashed_onto_a_board_or_a_pico_in_bootsel(tmp_path):
    found = start.find_uf2(str(tmp_path))
    assert found is None                                   # nothing built
    fw = uf2_in(tmp_path)
    found = start.find_uf2(str(tmp_path))
    assert found == (fw, None)
    cmd, why, _ = plan([], board="/dev/ttyACM0", firmware=found)
    assert tool(cmd) == ["deploy.py", "--port", "/dev/ttyACM0", "--uf2", fw]
    boot = {"chip": "RP2040", "drive": "/media/me/RPI-RP2"}
    cmd, why, status = plan([], bootsel=boot, firmware=found)
    assert tool(cmd) == ["deploy.py", "--uf2", fw] and status == 0 and "BOOTSEL" in why
    assert tool(plan(["--sim"], bootsel=boot, firmware=found)[0])[0] == "sim.py"


def test_a_build_of_older_sources_is_named_in_one_line_and_not_used(tmp_path):
    uf2_in(tmp_path, source="0123456789ab")
    found = start.find_uf2(str(tmp_path))
    assert found[1] is not None and "\n" not in found[1]
    assert "older than firmware/" in found[1] and "build_firmware.py" in found[1]
    cmd, why, _ = plan([], board="/dev/ttyACM0", firmware=found)
    assert tool(cmd) == ["deploy.py", "--port", "/dev/ttyACM0"]     # the .mpy files
    assert why.startswith(found[1]) and "\n" not in why
    cmd, why, status = plan([], bootsel={"chip": "RP2040", "drive": None}, firmware=found)
    assert cmd is None and status == 1
    assert why.splitlines()[0] == found[1] and "Install MicroPython first" in why


def test_without_a_board_no_build_is_looked_for(monkeypatch):
    # start.main looks for a build only when it would flash
    monkeypatch.setattr(start, "find_uf2", lambda: pytest.fail("looked for a UF2"))
    monkeypatch.setattr(pico_usb, "find_serial_board", lambda: None)
    monkeypatch.setattr(pico_usb, "find_bootsel", lambda: None)
    monkeypatch.setattr(start, "run_child", lambda cmd, argv=(): 0)
    assert start.main([]) == 0


@pytest.mark.parametrize("argv,words", [
    (["--board", "--sim"], "not allowed with"),
    (["--serial", "COM3", "--sim"], "--serial is for flashing"),
    (["--serial", "COM3", "--no-browser"], "--no-browser is for the simulator"),
    (["--board", "--http-port", "80"], "only for the simulator"),
    (["--port", "80"], "unrecognized arguments"),
    (["--http-port", "web"], "invalid int value"),
])
def test_mixed_up_options_are_refused_in_one_line(argv, words):
    p = subprocess.run([sys.executable, START] + argv, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert words in p.stderr.strip().splitlines()[-1], p.stderr


def test_help_names_its_own_options():
    p = subprocess.run([sys.executable, START, "--help"], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0
    for opt in ("--board", "--sim", "--serial", "--http-port", "--no-browser", "--which"):
        assert opt in p.stdout


def test_which_names_the_tool_on_this_machine():
    out = subprocess.run([sys.executable, START, "--which"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0
    assert re.search(r"would run: python tools/(sim|deploy)\.py", out.stdout) or \
        "BOOTSEL" in out.stdout


# --- stopping -----------------------------------------------------------------------------------
def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_sim(tmp_path, port, *extra, env=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.Popen([sys.executable, START, "--sim", "--http-port", str(port), "--dir",
                          str(tmp_path / "board")] + list(extra), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True, env=e)
    lines = []
    end = time.monotonic() + 60
    while time.monotonic() < end:
        line = p.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "127.0.0.1:%d" % port in line:
            break
    threading.Thread(target=lambda: lines.extend(p.stdout), daemon=True).start()
    return p, lines


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to find left-over processes")
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "sigint to start.py only"])
def test_stopping_stops_the_simulator_too_without_a_traceback(tmp_path, how):
    port = free_port()
    p, lines = start_sim(tmp_path, port, "--no-browser")
    try:
        assert any("127.0.0.1:%d" % port in line for line in lines), lines
        time.sleep(0.5)
        if how == "ctrl-c":
            os.killpg(p.pid, signal.SIGINT)          # what a terminal does
        elif how == "sigterm":
            p.send_signal(signal.SIGTERM)            # a service manager, `kill`
        else:
            p.send_signal(signal.SIGINT)
        code = p.wait(20)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    time.sleep(0.2)
    out = "".join(lines)
    assert code == 0, out
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out
    assert running_with(str(tmp_path)) == [], "left running: " + out
    s = socket.socket()                             # the port is free for the next start
    s.bind(("127.0.0.1", port))
    s.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="no desktop test elsewhere")
def test_without_a_desktop_it_says_to_open_the_page(tmp_path):
    env = {k: "" for k in ("DISPLAY", "WAYLAND_DISPLAY")}
    port = free_port()
    p, lines = start_sim(tmp_path, port, env=env)
    try:
        end = time.monotonic() + 20
        while time.monotonic() < end and not any("browser" in line for line in lines):
            time.sleep(0.05)
    finally:
        os.killpg(p.pid, signal.SIGINT)
        p.wait(20)
    assert any("open http://127.0.0.1:%d/ in a browser" % port in line for line in lines), lines


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_killed_start_takes_the_simulator_with_it(tmp_path):
    port = free_port()
    p, lines = start_sim(tmp_path, port, "--no-browser")
    assert any("127.0.0.1:%d" % port in line for line in lines), lines
    p.kill()                                        # kill -9: no chance to clean up
    p.wait(20)
    end = time.monotonic() + 20
    while running_with(str(tmp_path)) and time.monotonic() < end:
        time.sleep(0.1)
    left = running_with(str(tmp_path))
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], "".join(lines)


# --- asking before replacing what is on a board -------------------------------------------------
import shlex  # noqa: E402

import micropython_env  # noqa: E402

FAKE_MPREMOTE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_mpremote.py")
needs_micropython = pytest.mark.skipif(micropython_env.find_micropython() is None,
                                       reason=micropython_env.missing_reason())


def survey(files=(), micropython="1.28.0", firmware=None, runs=None):
    return {"micropython": micropython, "firmware": firmware, "runs": runs,
            "files": list(files)}


def test_what_is_on_the_board_is_said_in_one_line():
    import deploy
    here = deploy.firmware_version()
    assert deploy.describe(survey(["main.py", "config.py", "barragoon"], firmware=here,
                                  runs="files"), here) == \
        "Barragoon firmware %s (files) on MicroPython v1.28.0, the same version as " \
        "firmware/ here" % here
    assert deploy.describe(survey(["main.py"], firmware="0.1.0", runs="frozen"), here) == \
        "Barragoon firmware 0.1.0 (frozen) on MicroPython v1.28.0"
    assert deploy.describe(survey(["main.py", "lib", "secrets.py"], "1.22.2"), here) == \
        "another project's main.py and 2 other files on MicroPython v1.22.2"
    assert deploy.describe(survey(["main.py"]), here) == \
        "another project's main.py on MicroPython v1.28.0"
    assert deploy.describe(survey(["blink.py"]), here) == \
        "MicroPython v1.28.0 with 1 file of another project (no main.py)"
    assert deploy.describe(survey(["boot.py"]), here) == \
        "an empty board: MicroPython v1.28.0, no program on it"


class Terminal:
    """A user at a terminal who answers once."""

    def __init__(self, answer):
        self.answer = answer

    def isatty(self):
        return True

    def readline(self):
        return self.answer


class Pipe(Terminal):
    def isatty(self):
        return False


def board_with(tmp_path, files):
    board = tmp_path / "board"
    board.mkdir()
    for name, text in files.items():
        (board / name).parent.mkdir(parents=True, exist_ok=True)
        (board / name).write_text(text)
    return board


def log_of(board):
    with open(str(board.parent / "mpremote.log")) as f:
        return [json.loads(line) for line in f]


@pytest.fixture
def attached(monkeypatch, tmp_path):
    """A board on /dev/ttyACM0 (host_tests/fake_mpremote.py on a folder); the tool start.py
    would run is recorded, not run."""
    ran = []
    monkeypatch.setattr(start, "find_uf2", lambda: None)
    monkeypatch.setattr(pico_usb, "find_serial_board", lambda: "/dev/ttyACM0")
    monkeypatch.setattr(pico_usb, "find_bootsel", lambda: None)
    monkeypatch.setattr(start, "run_child", lambda cmd, argv=(): ran.append(tool(cmd)) or 0)

    def use(board):
        monkeypatch.setenv("MPREMOTE", shlex.join([sys.executable, FAKE_MPREMOTE, "--board",
                                                   str(board)]))
        return ran
    return use


ANOTHER = {"main.py": "import blink\nblink.run()\n", "blink.py": "def run(): pass\n"}


@needs_micropython
@pytest.mark.parametrize("answer", ["\n", "n\n", "no\n", ""])
def test_another_projects_board_is_named_and_kept_unless_the_user_says_yes(
        tmp_path, monkeypatch, capsys, attached, answer):
    board = board_with(tmp_path, ANOTHER)
    ran = attached(board)
    monkeypatch.setattr(sys, "stdin", Terminal(answer))
    assert start.main([]) == 1
    out = capsys.readouterr().out
    assert "found on /dev/ttyACM0: another project's main.py and 1 other file on " \
           "MicroPython v" in out
    assert "Replace it? [y/N] " in out and "nothing on the board was changed" in out
    assert ran == []
    assert {p.name: p.read_text() for p in board.iterdir()} == ANOTHER
    assert log_of(board)[-1] == ["connect", "/dev/ttyACM0", "reset"]   # it runs again


@needs_micropython
def test_yes_replaces_it(tmp_path, monkeypatch, capsys, attached):
    ran = attached(board_with(tmp_path, ANOTHER))
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    assert start.main([]) == 0
    assert ran == [["deploy.py", "--port", "/dev/ttyACM0"]]
    monkeypatch.setattr(sys, "stdin", Pipe(""))
    assert start.main(["--yes"]) == 0
    out = capsys.readouterr().out
    assert ran[-1] == ["deploy.py", "--port", "/dev/ttyACM0"]
    assert out.count("Replace it?") == 1 and out.count("found on /dev/ttyACM0") == 2


@needs_micropython
def test_a_barragoon_board_of_the_same_version_is_named_and_may_be_flashed_again(
        tmp_path, monkeypatch, capsys, attached):
    import deploy
    version = deploy.firmware_version()
    ran = attached(board_with(tmp_path, {
        "main.py": "import app\n", "barragoon/__init__.py": "",
        "version.py": 'VERSION = "%s"\nRUNS = "files"\n' % version}))
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    assert start.main([]) == 0 and ran
    assert "found on /dev/ttyACM0: Barragoon firmware %s (files) on MicroPython v" % version \
        in capsys.readouterr().out


@needs_micropython
def test_without_a_terminal_and_without_yes_nothing_is_replaced(tmp_path, monkeypatch, capsys,
                                                               attached):
    board = board_with(tmp_path, ANOTHER)
    ran = attached(board)
    monkeypatch.setattr(sys, "stdin", Pipe("y\n"))        # a pipe's answer is not the user's
    assert start.main([]) == 1 and ran == []
    out = capsys.readouterr().out
    assert "Replace it?" not in out and "not replaced: no terminal to ask" in out
    assert "--yes" in out
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        assert '| "not replaced: no terminal to ask" |' in f.read()   # Troubleshooting


@needs_micropython
def test_start_with_no_one_to_ask_does_not_hang(tmp_path):
    board = board_with(tmp_path, ANOTHER)
    env = dict(os.environ, MPREMOTE=shlex.join([sys.executable, FAKE_MPREMOTE, "--board",
                                                str(board)]))
    p = subprocess.run([sys.executable, START, "--serial", "/dev/ttyACM0"], env=env,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "another project's main.py" in p.stdout and "--yes" in p.stdout
    assert {q.name for q in board.iterdir()} == set(ANOTHER)


def test_a_board_that_cannot_be_asked_is_one_line(monkeypatch, capsys, attached, tmp_path):
    attached(tmp_path / "board")
    monkeypatch.setenv("MPREMOTE", shlex.join([sys.executable, "-c", (
        "import sys; sys.stderr.write('mpremote: failed to access /dev/ttyACM0 (it may be in "
        "use by another program)\\n'); sys.exit(1)")]))
    import deploy
    monkeypatch.setattr(deploy, "open_port", lambda port: None)   # free again: it was busy
    assert start.main([]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "start: error: /dev/ttyACM0 is busy: another program holds it (close Thonny, screen, "
        "a serial monitor or another mpremote), then run this again"]


def test_which_asks_nothing(monkeypatch, capsys):
    monkeypatch.setattr(start, "find_uf2", lambda: None)
    monkeypatch.setattr(pico_usb, "find_serial_board", lambda: "/dev/ttyACM0")
    import deploy
    monkeypatch.setattr(deploy, "survey", lambda port: pytest.fail("looked at the board"))
    assert start.main(["--which"]) == 0
    assert "would run: python tools/deploy.py --port /dev/ttyACM0" in capsys.readouterr().out


def test_watch_runs_watch_py_on_the_board_or_the_simulator():
    cmd, why, status = plan(["--watch"], board="/dev/ttyACM0")
    assert tool(cmd) == ["watch.py", "--port", "/dev/ttyACM0"] and "watching" in why
    cmd, why, status = plan(["--watch", "--no-browser"])
    assert tool(cmd) == ["watch.py", "--port", "socket://127.0.0.1:8766", "--no-browser"]
    assert "simulator" in why
