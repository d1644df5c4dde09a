# Locating the MicroPython unix port and running code on it from the host (tests and tools).
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
TOOLS = os.path.join(ROOT, "tools")


def find_micropython():
    """Path of a `micropython` executable: $MICROPYTHON, next to this Python, or on PATH."""
    env = os.environ.get("MICROPYTHON")
    if env:
        return env
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    return shutil.which("micropython")


def run(args, heap=None, stdin=None, timeout=600):
    """Run micropython with args; returns CompletedProcess (text)."""
    mp = find_micropython()
    if mp is None:
        raise RuntimeError("no micropython executable found")
    cmd = [mp]
    if heap:
        cmd += ["-X", "heapsize=%d" % heap]
    return subprocess.run(cmd + list(args), input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)
