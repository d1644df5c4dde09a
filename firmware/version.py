# The firmware's version. main.py prints it on the serial console at power-on and the boot
# screen shows it; tools/deploy.py checks it on the board after copying, and writes it into
# package.json and manifest.py. What changed from one version to the next: CHANGELOG.md.
VERSION = "0.2.0"

# How the board runs the firmware: "frozen" when its modules are compiled into the board's own
# MicroPython (a UF2 from tools/build_firmware.py: they run from flash), "files" when they are
# .mpy (or .py) files on the board's file system (tools/deploy.py; and on a computer). A frozen
# module's __file__ names no file: a file of that name would have been imported instead.
try:
    import os
    os.stat(__file__)
    RUNS = "files"
except OSError:
    RUNS = "frozen"
