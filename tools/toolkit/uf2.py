"""UF2 firmware files (what a Pico in BOOTSEL mode takes) read on the host, and the build mark
that tools/build_firmware.py freezes into the board's own MicroPython.

A UF2 file is a run of 512-byte blocks, each carrying up to 476 bytes for one flash address
(magic numbers at 0, 4 and 508; flags at 8, address at 12, size at 16, block number and count
at 20 and 24, the chip family at 28 when flag 0x2000 is set). The payloads put side by side are
the flash image; a string frozen into the firmware is found there as its bytes.

The build mark: build_firmware.py freezes a module build_info.py whose BUILD string reads
"barragoon-build VERSION BOARD SOURCE": the firmware version, the MicroPython board it was
built for and the id of the firmware sources frozen in (tools/deploy.py's source_id()). A UF2
without it is a stock MicroPython (or someone else's build).
"""
if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/uf2.py is a module the tools import, not a tool "
                     "(tools/README.md lists the tools)\n")
    sys.exit(2)

import re
import struct

BLOCK = 512
MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
FLAG_NOT_MAIN_FLASH = 0x1
FLAG_FAMILY = 0x2000
FAMILY_RP2040 = 0xE48BFF56
FLASH_BASE = 0x10000000
MARK_PREFIX = "barragoon-build"
_MARK = re.compile(rb"barragoon-build ([0-9A-Za-z.+-]+) ([0-9A-Za-z_]+) ([0-9a-f]{12})")


class Uf2Error(Exception):
    """Not a UF2 file a Pico can take; the message says why."""


def blocks(data):
    """[(address, payload, family or None, block count)] of every block, in file order."""
    if not data or len(data) % BLOCK:
        raise Uf2Error("not a UF2 file (its size is not a multiple of 512 bytes)")
    out = []
    for off in range(0, len(data), BLOCK):
        m0, m1, flags, addr, size, _, count, family = struct.unpack_from("<8I", data, off)
        (m2,) = struct.unpack_from("<I", data, off + BLOCK - 4)
        if (m0, m1, m2) != MAGIC or size > 476:
            raise Uf2Error("not a UF2 file (block %d is damaged)" % (off // BLOCK))
        if flags & FLAG_NOT_MAIN_FLASH:
            continue
        out.append((addr, data[off + 32:off + 32 + size],
                    family if flags & FLAG_FAMILY else None, count))
    if not out:
        raise Uf2Error("not a UF2 file (no flash blocks in it)")
    return out


def image(data):
    """The flash image the blocks make, from FLASH_BASE (gaps filled with 0xFF)."""
    bl = blocks(data)
    end = max(a + len(p) for a, p, _, _ in bl) - FLASH_BASE
    out = bytearray(b"\xff" * end)
    for addr, payload, _, _ in bl:
        if addr < FLASH_BASE:
            raise Uf2Error("not a Pico firmware (a block for address 0x%08x)" % addr)
        out[addr - FLASH_BASE:addr - FLASH_BASE + len(payload)] = payload
    return bytes(out)


def check_rp2040(data):
    """Refuse a UF2 that is not for an RP2040 (a Pico 2 firmware, say); return its image."""
    families = {f for _, _, f, _ in blocks(data)}
    if families - {FAMILY_RP2040, None}:
        raise Uf2Error("a UF2 for another chip (family 0x%08x), not the Pico's RP2040"
                       % min(families - {FAMILY_RP2040, None}))
    return image(data)


def mark(version, board, source):
    """The build mark string frozen into a build."""
    return "%s %s %s %s" % (MARK_PREFIX, version, board, source)


def parse_mark(text):
    """{"version", "board", "source"} of a build mark string, or None."""
    m = _MARK.search(text.encode() if isinstance(text, str) else text)
    if m is None:
        return None
    return {"version": m.group(1).decode(), "board": m.group(2).decode(),
            "source": m.group(3).decode()}


def read_build(path):
    """The build mark of a UF2 file ({"version", "board", "source", "size"}), or None for a
    UF2 without one (a stock MicroPython). Raises Uf2Error for a file that is no UF2, OSError
    when it cannot be read."""
    with open(path, "rb") as f:
        data = f.read()
    flash = check_rp2040(data)
    found = parse_mark(flash)
    if found is not None:
        found["size"] = len(flash)
    return found


def kind(path):
    """"frozen" for the board's own build (it carries the build mark), "stock" otherwise."""
    return "frozen" if read_build(path) else "stock"
