# Put on PYTHONPATH by tools/build_firmware.py for the MicroPython build it runs, so Python
# loads this at the start of every script of that build; it changes one thing, in one script:
# the C that MicroPython's tools/mpy-tool.py writes for the frozen modules.
#
# Why: MicroPython v1.28's mpy-tool.py gives the machine code of frozen native functions
# (@micropython.native, and viper) a 2-byte alignment for the ARMv6-M/ARMv7-M Thumb code,
# which the instructions need. But calling a native (not viper) function reads the first word
# of that data (py/objfun.h, its prelude index), and the RP2040's Cortex-M0+ cannot read a
# word from an address that is not a multiple of 4: every frozen native function the linker
# happens to place 2 bytes off a word faults (a HardFault on the board; rp2040js stops with
# "not 32 bit aligned", as it did for the engine's search steps). Aligned to 4 bytes, as a
# .mpy's native code is in the heap, each costs at most 2 bytes of flash.
import os
import sys

_THUMB = "__attribute__ ((aligned (2)))"
_WORD = "__attribute__ ((aligned (4)))"


class _WordAligned:
    """sys.stdout, with the frozen machine code's alignment raised to a word."""

    def __init__(self, out):
        self._out = out

    def write(self, text):
        return self._out.write(text.replace(_THUMB, _WORD))

    def __getattr__(self, name):
        return getattr(self._out, name)


if sys.argv and os.path.basename(sys.argv[0]) == "mpy-tool.py":
    sys.stdout = _WordAligned(sys.stdout)
