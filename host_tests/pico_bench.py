# Shared by the emulated-Pico tests (test_rp2040_*.py): skip with the reason when the bench
# cannot run here, build the firmware once per test session, one emulator per test module.
# They run on the firmware $BARRAGOON_PICO_UF2 names (default: the stock MicroPython of
# ../shared/rp2/, the .mpy files on its littlefs); given the board's own build
# (tools/build_firmware.py), the same tests run on the frozen firmware (.ci/run does so for
# a selection of them).
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
    """The deployed files for this session's tests (a folder of their own). Their main.py
    skips the boot screen's time (app.BOOT_SCREEN_MS = 0): the tests boot the board some fifty
    times, 1.5 s of simulated time each. test_rp2040_frozen boots the main.py that deploy.py
    copies, and checks the boot screen; test_firmware checks its timing."""
    if not _built:
        import tempfile
        out = board.build_firmware(os.path.join(
            tempfile.mkdtemp(prefix="pico-bench-", dir=os.environ.get("BARRAGOON_SCRATCH")),
            "firmware"))
        path = os.path.join(out, "main.py")
        with open(path) as f:
            text = f.read()
        assert text.count("\napp.main(") == 1, "main.py no longer ends with app.main()"
        with open(path, "w") as f:
            f.write(text.replace("\napp.main(", "\napp.BOOT_SCREEN_MS = 0\napp.main("))
        _built.append(out)
    return _built[0]


def start(image=None, occupied=None, boot=True, **kw):
    """An EmulatedBoard on `image` (default: the firmware, no game), booted to its main loop."""
    b = board.EmulatedBoard(image if image is not None else board.firmware_image(build()), **kw)
    if boot:
        b.boot(occupied)
    return b


def stock_uf2():
    """The stock MicroPython UF2: $BARRAGOON_PICO_UF2 when it is one, else ../shared/rp2/."""
    path = pico.firmware_path()
    if os.path.exists(path) and board.firmware_kind(path) == "stock":
        return path
    return pico.DEFAULT_UF2


def frozen_uf2():
    """(the board's own build for this tree, None) or (None, why there is none)."""
    import build_firmware
    import deploy
    from toolkit import uf2
    path = os.environ.get("BARRAGOON_FROZEN_UF2") or \
        build_firmware.output_path(build_firmware.BOARDS["RPI_PICO"])
    if not os.path.exists(path):
        return None, ("no frozen build at %s: python tools/build_firmware.py makes it (ARM "
                      "toolchain and MicroPython's source needed; .ci/run does it)"
                      % os.path.relpath(path))
    found = uf2.read_build(path)
    if found is None:
        return None, "%s carries no build mark (not from tools/build_firmware.py)" % path
    if found["source"] != deploy.source_id():
        return None, ("%s is older than firmware/: rebuild it with python "
                      "tools/build_firmware.py" % os.path.relpath(path))
    return path, None
