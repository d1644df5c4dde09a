# Finding processes that a test started and must have stopped again (Linux /proc).
import os


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
