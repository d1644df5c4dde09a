#!/usr/bin/env python3
"""The main job in one command: flash the board if one is plugged in, else start the simulator.

    python tools/start.py              a board running MicroPython -> tools/deploy.py
                                       a Pico in BOOTSEL mode     -> how to install MicroPython
                                       nothing attached           -> tools/sim.py
    python tools/start.py --which      only say what it would do, and why
    python tools/start.py --watch      watch the attached board's game (tools/watch.py), or
                                       the simulator's when no board is attached

Before it replaces anything on a board running MicroPython, it says in one line what it found
there (a Barragoon firmware of which version, an empty board, another project's main.py) and
asks "Replace it? [y/N]"; --yes answers yes. Without a terminal to ask (and no --yes) nothing
is replaced, and the exit status is 1.

When build/ holds the board's own MicroPython (a UF2 from tools/build_firmware.py) built from
the firmware/ of this tree, flashing uses it: tools/deploy.py --uf2, onto a running board or a
Pico waiting in BOOTSEL mode. A UF2 built from older sources is not used, and that is said in
one line (rebuild it, or flash it on purpose with tools/deploy.py --uf2).

--board / --sim choose without looking. The options below are passed to the tool they belong
to (--serial to deploy.py as --port; --http-port, --no-browser and --dir to sim.py); for
everything else run the tool itself (python tools/deploy.py --help, python tools/sim.py --help).
Ctrl-C or SIGTERM stop the tool and this command together.
"""
import argparse
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pico_usb  # noqa: E402
import deploy  # noqa: E402
from toolkit import cli  # noqa: E402

# start.py's names for the options of the tools it runs (what their messages then suggest)
NAMES = {"sim.py": {"--port": "--http-port"}, "deploy.py": {"--port": "--serial"}}

FORWARD_AFTER_S = 1.0     # a Ctrl-C the child did not get itself is passed on after this
SIM_USB_PORT = 8766       # the simulator's USB console (sim.py --usb-port's default)


class Usage(Exception):
    """A mistake on the command line: one line, exit status 2."""


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="start.py", description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 2)[2].strip())
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--board", action="store_true",
                       help="flash the board (tools/deploy.py) even if none is detected")
    which.add_argument("--sim", action="store_true",
                       help="start the simulator (tools/sim.py) even if a board is attached")
    which.add_argument("--watch", action="store_true",
                       help="watch the attached board's game in the browser (tools/watch.py; "
                            "its --remote and --share: run it yourself)")
    ap.add_argument("--which", action="store_true", help="say what would run, run nothing")
    ap.add_argument("--yes", action="store_true",
                    help="replace what is on the board without asking")
    ap.add_argument("--serial", metavar="PORT",
                    help="the board's serial port, e.g. /dev/ttyACM0 or COM3 (deploy.py --port)")
    ap.add_argument("--http-port", metavar="N", type=int,
                    help="the simulator's web port (sim.py --port)")
    ap.add_argument("--no-browser", action="store_true",
                    help="the simulator opens no browser (sim.py --no-browser)")
    ap.add_argument("--dir", metavar="DIR",
                    help="the simulated board's files (sim.py --dir)")
    args = ap.parse_args(argv)
    sim_opts = [o for o, v in (("--http-port", args.http_port is not None),
                               ("--no-browser", args.no_browser), ("--dir", args.dir)) if v]
    if args.serial and (args.sim or sim_opts):
        ap.error("--serial is for flashing a board; %s %s for the simulator"
                 % (" ".join(sim_opts) or "--sim", "is" if len(sim_opts) < 2 else "are"))
    if args.board and sim_opts:
        ap.error("%s: only for the simulator, not with --board" % " ".join(sim_opts))
    if args.watch and (args.dir or args.yes):
        ap.error("--watch watches a board: %s is not for it"
                 % ("--dir" if args.dir else "--yes"))
    return args


def find_uf2(folder=None):
    """(path, mismatch) of the board's own MicroPython in build/ (or folder): mismatch is None
    when it was built from this tree's firmware, else one line saying it is older. None
    without one."""
    path = deploy.newest_uf2(folder) if folder else deploy.newest_uf2()
    if path is None:
        return None
    try:
        build = deploy.read_uf2(path)
    except deploy.DeployError as e:
        return path, "%s (not used)" % e
    if build is None:                  # a stock MicroPython someone put there
        return None
    if build["source"] == deploy.source_id():
        return path, None
    return path, ("%s is older than firmware/ (rebuild it: python tools/build_firmware.py)"
                  % deploy.nice(path))


def plan(args, board, bootsel, firmware=None):
    """(argv of the tool to run or None, what to say, exit status when nothing runs).
    firmware: find_uf2()'s answer."""
    if args.watch:
        cmd = [os.path.join(HERE, "watch.py")]
        port = args.serial or board
        if port:
            cmd += ["--port", port]
        else:
            cmd += ["--port", "socket://127.0.0.1:%d" % SIM_USB_PORT]
        if args.http_port is not None:
            cmd += ["--http-port", str(args.http_port)]
        if args.no_browser:
            cmd.append("--no-browser")
        return cmd, ("watching the board on %s" % port if port else
                     "no board attached: watching the simulator (python tools/sim.py)"), 0
    flash = args.board or args.serial is not None or (board and not args.sim)
    uf2, stale = firmware or (None, None)
    if flash:
        port = args.serial or board
        if port is None and bootsel and uf2 and not stale:
            return [os.path.join(HERE, "deploy.py"), "--uf2", uf2], \
                "a Pico waits in BOOTSEL mode: flashing %s onto it" % deploy.nice(uf2), 0
        if port is None and bootsel:
            return None, (stale + "\n" if stale else "") + pico_usb.install_steps(bootsel), 1
        if port is None:
            return None, ("no board found: plug in the Pico (with MicroPython on it, see "
                          "README: Troubleshooting) or name its port with --serial"), 1
        cmd = [os.path.join(HERE, "deploy.py"), "--port", port]
        if uf2 and not stale:
            cmd += ["--uf2", uf2]
            return cmd, "flashing the board on %s with %s" % (port, deploy.nice(uf2)), 0
        why = "flashing the board on %s" % port
        if stale:
            why = "%s: %s with the .mpy files instead" % (stale, why)
        return cmd, why, 0
    if bootsel and not args.sim:
        if uf2 and not stale:
            return [os.path.join(HERE, "deploy.py"), "--uf2", uf2], \
                "a Pico waits in BOOTSEL mode: flashing %s onto it" % deploy.nice(uf2), 0
        return None, (stale + "\n" if stale else "") + pico_usb.install_steps(bootsel) + \
            "\n(Or play without a board: python tools/start.py --sim)", 1
    cmd = [os.path.join(HERE, "sim.py")]
    if args.http_port is not None:
        cmd += ["--port", str(args.http_port)]
    if args.no_browser:
        cmd.append("--no-browser")
    if args.dir:
        cmd += ["--dir", args.dir]
    why = "starting the simulator" if args.sim else "no board attached: starting the simulator"
    return cmd, why, 0


def board_port(cmd):
    """The serial port when cmd flashes a running board (deploy.py --port), else None."""
    if cmd and os.path.basename(cmd[0]) == "deploy.py" and "--port" in cmd:
        return cmd[cmd.index("--port") + 1]
    return None


def confirm(port, yes, stdin=None):
    """Say what the board on port holds; True when it may be replaced. Asks on a terminal
    (default no); without one, and without --yes, the answer is no."""
    stdin = stdin or sys.stdin
    found = deploy.survey(port)
    print("found on %s: %s" % (port, deploy.describe(found, deploy.firmware_version())),
          flush=True)
    if yes:
        return True
    if stdin is None or not stdin.isatty():
        print("not replaced: no terminal to ask (run with --yes to replace it)")
        deploy.restart(port)
        return False
    print("Replace it? [y/N] ", end="", flush=True)
    answer = stdin.readline()
    if not answer.endswith("\n"):
        print()
    if answer.strip().lower() in ("y", "yes"):
        return True
    print("not replaced: nothing on the board was changed")
    deploy.restart(port)
    return False


def run_child(cmd, argv=()):
    """Run the tool; pass SIGTERM (and a Ctrl-C it did not get) on; its exit status. argv:
    this command's own arguments, for the command lines the tool suggests."""
    tool = os.path.basename(cmd[0])
    env = dict(os.environ, **cli.run_as_env(argv, tool, NAMES.get(tool, {})))
    proc = subprocess.Popen([sys.executable] + cmd, preexec_fn=_die_with_parent(), env=env)
    interrupted = []

    def on_signal(signum, frame):
        if signum == signal.SIGINT:
            # A terminal's Ctrl-C reaches the tool too (same process group); pass it on
            # only if it was sent to this process alone.
            interrupted.append(time.monotonic())
        else:
            _send(proc, signal.SIGTERM)

    for sig in _signals():
        signal.signal(sig, on_signal)
    while True:
        try:
            rc = proc.wait(0.2)
            break
        except subprocess.TimeoutExpired:
            if interrupted and time.monotonic() - interrupted[0] > FORWARD_AFTER_S:
                _send(proc, signal.SIGINT)
                interrupted[:] = [float("inf")]
    return 128 - rc if rc < 0 else rc


def _send(proc, sig):
    if proc.poll() is None:
        try:
            proc.send_signal(sig)
        except (OSError, ValueError):
            pass


def _signals():
    return [getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)]


def _die_with_parent():
    """Linux: the tool gets SIGTERM if this process dies without cleaning up (kill -9)."""
    if not sys.platform.startswith("linux"):
        return None

    def arm():
        try:
            import ctypes
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)     # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    return arm


def main(argv):
    args = parse_args(argv)
    try:
        board = pico_usb.find_serial_board() if not (args.sim or args.serial) else None
        bootsel = pico_usb.find_bootsel() if not board and not (args.sim or args.watch) \
            else None
        firmware = find_uf2() if not (args.sim or args.watch) and (
            board or bootsel or args.board or args.serial) else None
        cmd, why, status = plan(args, board, bootsel, firmware)
        print(why, flush=True)
        if args.which:
            if cmd:
                print("would run: python tools/%s" % " ".join(
                    [os.path.basename(cmd[0])] + cmd[1:]))
            return 0
        if cmd is None:
            return status
        port = board_port(cmd)
        if port and not confirm(port, args.yes):
            return 1
        return run_child(cmd, argv)
    except deploy.DeployError as e:
        print("start: error: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:              # Ctrl-C before the tool started
        print()
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
