# Finding processes that a test started and must have stopped again (Linux /proc), and
# stopping one.
import os
import subprocess


def running_with(text):
    """Pids of running processes whose command line contains text."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if text.encode() in f.read():
                    pids.append(int(pid))
        except OSError:
            pass
    return pids


def stop(proc, timeout=10):
    """Stop a process a test started: SIGTERM, then SIGKILL if it does not go."""
    proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
