# A command line a tool suggests in a message can be run as written: the simulator on a port
# that is taken names a command with a free port, as the user ran it (tools/sim.py with --port,
# or tools/start.py with its own --http-port when start.py started the simulator), and that
# command starts the simulator; deploy.py, run by start.py, names start.py's --serial for the
# port. CPython test (pytest) that starts the tools.
import os
import re
import shlex
import socket
import subprocess
import sys
import time

import micropython_env
from processes import stop

ROOT = micropython_env.ROOT
TOOLS = os.path.join(ROOT, "tools")
sys.path.insert(0, TOOLS)


def taken_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    return s, s.getsockname()[1]


def suggested(text):
    """The `python tools/...` command line at the end of a message."""
    m = re.search(r"(python tools/\S+\.py.*)$", text.strip().splitlines()[-1])
    assert m, text
    return m.group(1)


def runs(command):
    """Run a suggested command line as written (python: this interpreter) until the
    simulator says where it listens; then stop it."""
    words = shlex.split(command)
    assert words[0] == "python"
    proc = subprocess.Popen([sys.executable] + words[1:], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, MICROPYTHON="none"))
    try:
        end = time.monotonic() + 60
        out = ""
        while time.monotonic() < end:
            line = proc.stdout.readline()
            if not line:
                break
            out += line
            if re.search(r"Barragoon simulator: http://127\.0\.0\.1:\d+/", line):
                return out
        raise AssertionError("%s did not start the simulator:\n%s" % (command, out))
    finally:
        stop(proc)


def test_the_simulator_on_a_taken_port_suggests_a_command_that_starts_it(tmp_path):
    sock, port = taken_port()
    try:
        for first in (["tools/sim.py", "--port", str(port), "--no-browser", "--dir",
                       str(tmp_path / "a")],
                      ["tools/start.py", "--sim", "--http-port", str(port), "--no-browser",
                       "--dir", str(tmp_path / "b")]):
            p = subprocess.run([sys.executable] + first, cwd=ROOT, capture_output=True,
                               text=True, timeout=120, env=dict(os.environ, MICROPYTHON="none"))
            assert p.returncode == 1 and "Traceback" not in p.stderr, p.stderr
            assert "cannot listen on 127.0.0.1:%d" % port in p.stderr
            command = suggested(p.stderr)
            tool = first[0]
            assert command.startswith("python " + tool), (first, command)  # as the user ran it
            if tool == "tools/start.py":
                assert "--http-port 0" in command and " --port" not in command, command
            else:
                assert "--port 0" in command, command
            assert str(port) not in command and "--no-browser" in command
            runs(command)
    finally:
        sock.close()


def test_deploy_run_by_start_names_starts_option_for_the_port(monkeypatch):
    import deploy
    import pico_usb
    import start
    from toolkit import cli
    monkeypatch.setattr(pico_usb, "find_bootsel", lambda: None)
    assert "name its port with --port" in deploy.no_board("/dev/ttyACM7")
    monkeypatch.setattr(os, "environ", dict(os.environ, **cli.run_as_env(
        ["--board"], "deploy.py", start.NAMES["deploy.py"])))
    said = deploy.no_board("/dev/ttyACM7")
    assert "name its port with --serial" in said and "--port" not in said
    assert start.parse_args(["--serial", "/dev/ttyACM7"]).serial == "/dev/ttyACM7"
    # an option start.py does not have: the tool's own command line, which runs as written
    said = deploy.bootsel_line({"chip": "RP2040", "drive": "RPI-RP2"})
    assert "with python tools/deploy.py --uf2 FILE" in said, said
    p = subprocess.run([sys.executable, os.path.join(TOOLS, "deploy.py"), "--uf2", "FILE"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stderr.strip().endswith("--uf2 FILE: no such file"), \
        p.stderr                            # (the option exists: only the file is missing)
