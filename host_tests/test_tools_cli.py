# Every tool in tools/ explains itself with --help (and does nothing else), and answers a user's
# mistake (an unknown option, a file or folder that cannot be used) with one line naming the
# problem and exit status 2, never a traceback. A new tool must be added to TOOLS; a module
# without a command line goes into a package (tools/toolkit/ for the shared ones). CPython only
# (pytest); the tools that also run under micropython are tried there too.
import os
import re
import subprocess
import sys

import pytest

import micropython_env

TOOLS_DIR = micropython_env.TOOLS

# tool: (a bad argument, words its error line must contain)
TOOLS = {
    "bench/bench_controller.py": (["--turns", "3"], "takes no arguments"),
    "board_events.py": (["tools/sim/screenshot.png"], "not a text file"),
    "bench/bench_drivers.py": (["fast"], "takes no arguments"),
    "bench/bench_firmware.py": (["--build", "/nonexistent/build"], "no compiled firmware there"),
    "bench/bench_rules.py": (["-v"], "takes no arguments"),
    "bench/bench_rp2040.py": (["--lifts", "0"], "must be at least 1"),
    "bench/bench_deadlock.py": (["--top", "0"], "at least 1"),
    "bench/bench_font.py": (["--turns", "3"], "unrecognized arguments"),
    "build_firmware.py": (["--micropython", "/nonexistent/mp"], "no such file or folder"),
    "bench/profile_steps.py": (["--lifts", "0"], "must be at least 1"),
    "deploy.py": (["--build-only", "--out", "README.md"], "is a file, not a folder"),
    "bench/bench_engine.py": (["--games", "0"], "must be at least 1"),
    "bench/bench_handling.py": (["--profile", "careful", "--games", "0"], "must be at least 1"),
    "engine.py": (["--depth", "x"], "needs a number"),
    "face_art.py": (["--size", "8"], "takes no arguments"),
    "glyphs.py": (["--check", "--write"], "not allowed with argument"),
    "hardware.py": (["--erc", "--variant", "supply=moon"], "supply=moon is not an option"),
    "legal_moves.py": (["--moves"], "unknown option --moves"),
    "micropython_env.py": (["--path"], "takes no arguments"),
    "mutants.py": (["firmware/storage.py"], "name the test modules to run"),
    "pico_usb.py": (["--list"], "takes no arguments"),
    "render_screens.py": (["README.md"], "is a file, not a folder"),
    "replay.py": (["tools/sim/screenshot.png"], "not a text file"),
    "run_rp2040.py": (["tools/sim/screenshot.png"], "not a text file"),
    "sim.py": (["--replay", "tools/sim/screenshot.png"], "not a text file"),
    "soak_rp2040.py": (["--turns", "0"], "--turns at least 1"),
    "start.py": (["--sim", "--serial", "COM3"], "--serial is for flashing"),
    "watch.py": (["--record", "tools"], "a folder, not a file"),
    "wiring_svg.py": (["--bogus"], "unrecognized arguments"),
}
# The modules that tools and tests import live in packages (tools/toolkit/ and the others
# test_tools_layout.py knows); run by mistake, a toolkit module says so in one line.
TOOLKIT = os.path.join(TOOLS_DIR, "toolkit")
# Also run by micropython (the unix port has no argparse: tools/toolkit/cli.py instead).
ON_MICROPYTHON = ("bench/bench_controller.py", "bench/bench_drivers.py", "bench/bench_rules.py",
                  "engine.py", "legal_moves.py", "replay.py")


def run(argv, exe=None, timeout=120):
    return subprocess.run([exe or sys.executable] + argv, capture_output=True, text=True,
                          timeout=timeout, cwd=micropython_env.ROOT, stdin=subprocess.DEVNULL)


def present(tools):
    """The tools of this checkout (a branch may not have them all yet)."""
    return sorted(t for t in tools if os.path.exists(os.path.join(TOOLS_DIR, t)))


def test_every_tool_is_listed():
    found = {n for n in os.listdir(TOOLS_DIR) if n.endswith(".py")}
    found |= {"bench/" + n for n in os.listdir(os.path.join(TOOLS_DIR, "bench"))
              if n.endswith(".py") and n != "__init__.py"}
    assert found <= set(TOOLS), "add new tools to TOOLS in this test (modules go in a package)"
    assert len(present(TOOLS)) >= 13


@pytest.mark.parametrize("tool", present(TOOLS))
def test_help_explains_and_does_nothing_else(tool, tmp_path):
    p = subprocess.run([sys.executable, os.path.join(TOOLS_DIR, tool), "--help"],
                       capture_output=True, text=True, timeout=120, cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stdout + p.stderr
    assert len(p.stdout.strip().splitlines()) >= 2, p.stdout
    assert os.listdir(str(tmp_path)) == [], "--help made files"        # it ran nothing
    for sign in ("heap B", "RP2040 estimate (x", "PNG files in", "files into", "simulator: http",
                 "micropython: /", "no Pico found"):
        assert sign not in p.stdout, (tool, sign, p.stdout)
    # help for users: no issue numbers, no folders only the project's build machines have
    if tool != "hardware.py":          # (its help is rewritten with the hardware rework)
        assert not re.search(r"(?i)\bissue \d|issue's|\.\./shared", p.stdout), (tool, p.stdout)


@pytest.mark.parametrize("tool", present(TOOLS))
def test_a_mistake_is_one_line_and_exit_2(tool):
    argv, words = TOOLS[tool]
    p = run([os.path.join(TOOLS_DIR, tool)] + argv)
    assert p.returncode == 2, (p.returncode, p.stdout[-500:], p.stderr[-500:])
    assert "Traceback" not in p.stdout + p.stderr
    # One line; argparse's tools put their usage line (and its continuation) before it.
    lines = [line for line in p.stderr.strip().splitlines() if not line.startswith(" ")]
    assert len(lines) == 1 or len(lines) == 2 and lines[0].startswith("usage:"), p.stderr
    assert words in lines[-1], p.stderr


@pytest.mark.parametrize("tool", ON_MICROPYTHON)
def test_help_and_mistakes_on_micropython(tool):
    mp = micropython_env.find_micropython()
    if mp is None:
        pytest.skip(micropython_env.missing_reason())
    path = os.path.join(TOOLS_DIR, tool)
    p = run([path, "--help"], exe=mp)
    assert p.returncode == 0 and p.stdout.strip() and "Traceback" not in p.stdout + p.stderr
    argv, words = TOOLS[tool]
    p = run([path] + argv, exe=mp)
    assert p.returncode == 2 and words in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("module", sorted(n for n in os.listdir(TOOLKIT)
                                          if n.endswith(".py") and n != "__init__.py"))
def test_a_toolkit_module_run_by_mistake_says_so(module, tmp_path):
    p = subprocess.run([sys.executable, os.path.join(TOOLKIT, module), "--help"],
                       capture_output=True, text=True, timeout=60, cwd=str(tmp_path))
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stdout, p.stderr)
    assert p.stderr.splitlines() == ["tools/toolkit/%s is a module the tools import, not a "
                                     "tool (tools/README.md lists the tools)" % module]
    assert os.listdir(str(tmp_path)) == []


def test_the_simulators_device_process_refuses_a_wrong_command_line():
    # tools/sim.py starts it; run by hand with the wrong arguments it gives its usage line
    p = run([os.path.join(TOOLS_DIR, "simulator", "device.py"), "firmware"])
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.splitlines() == [
        "usage: micropython tools/simulator/device.py FIRMWARE_DIR TOOLS_DIR SIM_DIR "
        "(tools/sim.py runs it)"]
