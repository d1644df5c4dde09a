# Shared by the emulated-Pico tests (test_rp2040_*.py): skip with the reason when the bench
# cannot run here, build the firmware once per test session, one emulator per test module.
import os

import pytest

from rp2040 import board, pico

LONG = os.environ.get("BARRAGOON_RP2040_LONG", "") not in ("", "0")
_built = []


def require():
    """Skip the calling test module (with the reason) unless the emulated Pico can run."""
    why = pico.missing()
    if why:
        pytest.skip("emulated Pico: " + why, allow_module_level=True)


def build():
    if not _built:
        _built.append(board.build_firmware())
    return _built[0]


def start(image=None, occupied=None, boot=True, **kw):
    """An EmulatedBoard on `image` (default: the firmware, no game), booted to its main loop."""
    b = board.EmulatedBoard(image if image is not None else board.firmware_image(build()), **kw)
    if boot:
        b.boot(occupied)
    return b
