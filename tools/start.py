"""The main job in one command: flash the board if one is plugged in, else run the simulator.

    python tools/start.py            board found -> tools/deploy.py; none -> tools/sim.py
    python tools/start.py --which    only say which it would run, and why

A board is a USB serial device with the Raspberry Pi vendor id (0x2E8A: Pico, Pico W, Pico 2)
or one that mpremote itself would pick (MicroPython's own USB ids). Any other arguments are
passed on to the chosen tool (e.g. --port, --no-browser).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RASPBERRY_PI_VID = 0x2E8A
MICROPYTHON_VID = 0xF055


def find_board():
    """The serial port of an attached board, or None."""
    try:
        from serial.tools import list_ports
    except ImportError:                    # pyserial comes with mpremote
        return None
    for p in list_ports.comports():
        if p.vid in (RASPBERRY_PI_VID, MICROPYTHON_VID):
            return p.device
    return None


def choose(board):
    if board:
        return "deploy.py", "a board is attached on %s: flashing it" % board
    return "sim.py", "no board attached: starting the simulator"


def main(argv):
    tool, why = choose(find_board())
    print(why)
    if "--which" in argv:
        print(tool)
        return 0
    return subprocess.call([sys.executable, os.path.join(HERE, tool)] + argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
