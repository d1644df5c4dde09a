# A stand-in for `mpremote` that acts on a directory instead of a board, for
# host_tests/test_deploy.py (no board is attached to any test machine).
#
#   python fake_mpremote.py --board DIR [--corrupt PATH] connect PORT <mpremote commands...>
#
# Understands what tools/deploy.py runs: `connect`, `fs cp LOCAL :REMOTE` (skips identical
# files, as mpremote does without -f), `fs sha256sum :PATH...` (output like mpremote's; a
# missing file stops with exit 1, as mpremote does), `exec CODE` (run by the MicroPython unix
# port with the board directory as working directory) and `reset`, chained with `+`.
# --corrupt PATH writes PATH wrongly (a flipped last byte) to test verification. --busy N: the
# first N invocations fail as mpremote does when the running program ignores its Ctrl-C.
# --micropython X.Y.Z: the board runs that MicroPython (what `exec` prints of
# sys.implementation's version and .mpy version says so). A port not starting with / fails to
# open, in mpremote's words (the busy port itself: test_deploy.py runs the real mpremote on a
# pseudo-terminal). Every invocation is appended, as one JSON line, to DIR/../mpremote.log.
import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tools"))
import micropython_env  # noqa: E402


def fail(msg):
    sys.stdout.flush()
    print("mpremote: " + msg, file=sys.stderr)
    sys.exit(1)


def remote(board, path):
    if not path.startswith(":"):
        fail("expected a remote path: " + path)
    return os.path.join(board, *path[1:].split("/"))


def fs(board, args, corrupt):
    cmd, args = args[0], args[1:]
    if cmd == "cp":
        src, dest = [a for a in args if not a.startswith("-")]
        with open(src, "rb") as f:
            data = f.read()
        target = remote(board, dest)
        if not os.path.isdir(os.path.dirname(target)):
            fail("cp: No such file or directory: " + dest)
        print("cp %s %s" % (src, dest))
        if dest[1:] == corrupt:
            data = data[:-1] + bytes([data[-1] ^ 1])
        if os.path.exists(target) and "-f" not in args:
            with open(target, "rb") as f:
                if f.read() == data:
                    print("Up to date:", dest[1:])
                    return
        with open(target, "wb") as f:
            f.write(data)
    elif cmd == "sha256sum":
        for path in args:
            print("sha256sum " + path)
            try:
                with open(remote(board, path), "rb") as f:
                    print(hashlib.sha256(f.read()).hexdigest())
            except OSError:
                fail("sha256sum: No such file or directory: " + path)
    else:
        fail("fake mpremote has no fs " + cmd)


def as_version(text, micropython):
    """exec's output as a board running that MicroPython would print it (PREPARE's line)."""
    if micropython is None:
        return text
    v = [int(x) for x in micropython.split(".")]
    mpy = 6 if v[:2] >= [1, 19] else 5
    return re.sub(r"board mpy \d+ micropython \([^)]*\)",
                  "board mpy %d micropython (%d, %d, %d, '')" % (mpy, v[0], v[1], v[2]), text)


def run_exec(board, code, micropython=None):
    mp = micropython_env.find_micropython()
    if mp is None:
        fail("exec needs the MicroPython unix port")
    proc = subprocess.run([mp, "-c", code], cwd=board, capture_output=True, text=True,
                          timeout=60)
    sys.stdout.write(as_version(proc.stdout, micropython))
    if proc.returncode != 0:
        fail("exec failed: " + proc.stderr)


def main(argv):
    board, corrupt, busy, micropython = None, None, 0, None
    while argv and argv[0].startswith("--"):
        opt, value, argv = argv[0], argv[1], argv[2:]
        if opt == "--micropython":
            micropython = value
        elif opt == "--board":
            board = value
        elif opt == "--corrupt":
            corrupt = value
        elif opt == "--busy":
            busy = int(value)
    log_path = os.path.join(os.path.dirname(board), "mpremote.log")
    calls = 0
    if os.path.exists(log_path):
        with open(log_path) as log:
            calls = len(log.readlines())
    with open(log_path, "a") as log:
        log.write(json.dumps(argv) + "\n")
    if calls < busy:                       # as mpremote's transport_serial says it
        print("b'Uncaught exception in IRQ callback handler\\r\\nKeyboardInterrupt: \\r\\n'")
        fail("mpremote.transport.TransportError: could not enter raw repl")
    i = 0
    while i < len(argv):
        name = argv[i]
        if name == "+":
            i += 1
        elif name == "connect":
            port = argv[i + 1]
            if port != "auto" and not port.startswith("/"):
                fail("failed to access %s (it may be in use by another program)" % port)
            i += 2
        elif name == "exec":
            run_exec(board, argv[i + 1], micropython)
            i += 2
        elif name == "reset":
            print("(board reset)")
            i += 1
        elif name == "fs":
            end = argv.index("+", i) if "+" in argv[i:] else len(argv)
            fs(board, argv[i + 1:end], corrupt)
            i = end
        else:
            fail("fake mpremote has no command " + name)

if __name__ == "__main__":
    main(sys.argv[1:])
