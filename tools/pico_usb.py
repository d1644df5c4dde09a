"""Find a Raspberry Pi Pico on USB: running MicroPython (a serial port), or waiting in BOOTSEL
mode for a firmware (the boot ROM's USB drive, no serial port). Used by tools/start.py,
tools/deploy.py and tools/watch.py.

    python tools/pico_usb.py      say what is attached

A board is a USB serial device with the Raspberry Pi vendor id 0x2E8A (Pico, Pico W, Pico 2,
Pico 2 W running MicroPython) or MicroPython's own 0xF055. In BOOTSEL mode the boot ROM shows
up as USB device 2E8A:0003 (RP2040: Pico, Pico W) or 2E8A:000F (RP2350: Pico 2) and as a drive
named RPI-RP2 or RP2350 holding INFO_UF2.TXT; either sign is enough.
"""
import os
import sys

RASPBERRY_PI_VID = 0x2E8A
MICROPYTHON_VID = 0xF055
BOOTROM_PIDS = {0x0003: "RP2040", 0x000F: "RP2350"}
# INFO_UF2.TXT "Board-ID:" of the boot ROM drives
BOOT_BOARD_IDS = {"RPI-RP2": "RP2040", "RP2350": "RP2350"}
SYSFS_USB = "/sys/bus/usb/devices"

INSTALL_STEPS = """\
Install MicroPython first (once per board; your files on it are kept):
  1. Download MicroPython v1.28 for your board, the .uf2 file:
       Pico   https://micropython.org/download/RPI_PICO/
       Pico W https://micropython.org/download/RPI_PICO_W/
       Pico 2 https://micropython.org/download/RPI_PICO2/
  2. Copy the .uf2 file onto the drive {drive}. The Pico restarts into MicroPython
     and the drive disappears.
  3. Run the same command again: it then finds the board and flashes the game."""
OWN_BUILD = """
Or, for a Pico (not a Pico W), build the board's own MicroPython with the game frozen in
(more memory for the game): python tools/build_firmware.py, then run the same command again."""


def find_serial_board(comports=None):
    """The serial port of an attached board running MicroPython, or None."""
    if comports is None:
        try:
            from serial.tools import list_ports
        except ImportError:                # pyserial comes with mpremote
            return None
        comports = list_ports.comports()
    for p in comports:
        if p.vid in (RASPBERRY_PI_VID, MICROPYTHON_VID):
            return p.device
    return None


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except (OSError, UnicodeDecodeError):
        return ""


def bootrom_on_usb(sysfs=SYSFS_USB):
    """The chip of a boot ROM on the USB bus ("RP2040"/"RP2350"), from Linux sysfs, or None."""
    try:
        names = os.listdir(sysfs)
    except OSError:
        return None
    for name in sorted(names):
        d = os.path.join(sysfs, name)
        try:
            vid = int(_read(os.path.join(d, "idVendor")) or "0", 16)
            pid = int(_read(os.path.join(d, "idProduct")) or "0", 16)
        except ValueError:
            continue
        if vid == RASPBERRY_PI_VID and pid in BOOTROM_PIDS:
            return BOOTROM_PIDS[pid]
    return None


def mount_points():
    """Where removable drives may be mounted on this computer."""
    if sys.platform == "win32":
        try:
            import ctypes
            mask = ctypes.windll.kernel32.GetLogicalDrives()
        except (ImportError, AttributeError, OSError):
            mask = 0
        return ["%s:\\" % chr(65 + i) for i in range(2, 26) if mask >> i & 1]
    if sys.platform == "darwin":
        base = "/Volumes"
        try:
            return [os.path.join(base, n) for n in sorted(os.listdir(base))]
        except OSError:
            return []
    found = []
    for line in _read("/proc/mounts").splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[2] in ("vfat", "msdos", "fat", "exfat", "fuseblk"):
            found.append(parts[1].replace("\\040", " "))
    return found


def boot_drive(candidates=None):
    """(chip, path) of a mounted boot ROM drive, or None."""
    for path in mount_points() if candidates is None else candidates:
        info = _read(os.path.join(path, "INFO_UF2.TXT"))
        for line in info.splitlines():
            if line.startswith("Board-ID:"):
                chip = BOOT_BOARD_IDS.get(line.split(":", 1)[1].strip())
                if chip:
                    return chip, path
    return None


def find_bootsel(sysfs=SYSFS_USB, drives=None):
    """A Pico waiting in BOOTSEL mode: {"chip", "drive" (path or None)}, or None."""
    drive = boot_drive(drives)
    if drive:
        return {"chip": drive[0], "drive": drive[1]}
    chip = bootrom_on_usb(sysfs)
    if chip:
        return {"chip": chip, "drive": None}
    return None


def install_steps(bootsel):
    """What to do about a Pico in BOOTSEL mode, as lines for the terminal."""
    name = "RPI-RP2" if bootsel["chip"] == "RP2040" else "RP2350"
    board = "a Pico or Pico W" if bootsel["chip"] == "RP2040" else "a Pico 2"
    drive = bootsel["drive"] or "%s (it appears when the Pico is in BOOTSEL mode)" % name
    return ("%s (%s) is waiting in BOOTSEL mode: it has no MicroPython yet, or its BOOTSEL "
            "button was held at plug-in.\n" % (board[0].upper() + board[1:], bootsel["chip"])
            + INSTALL_STEPS.format(drive=drive) + (OWN_BUILD if bootsel["chip"] == "RP2040"
                                                   else ""))


def main(argv):
    from toolkit.cli import no_arguments
    no_arguments("pico_usb", __doc__, argv[1:])
    port = find_serial_board()
    if port:
        print("a board running MicroPython on %s (flash it: python tools/start.py; watch its "
              "game: python tools/watch.py)" % port)
        return 0
    boot = find_bootsel()
    if boot:
        print(install_steps(boot))
        return 1
    print("no Pico found on USB")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
