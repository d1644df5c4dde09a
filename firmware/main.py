# Boot file: MicroPython runs main.py at power-on. It stays tiny and uncompiled (a file on the
# board even when the rest is frozen into the firmware); everything it starts is either frozen
# (tools/build_firmware.py) or deployed as compiled .mpy files (tools/deploy.py).
import gc
import sys

from version import VERSION, RUNS

print("Barragoon board firmware", VERSION, "(%s)" % RUNS)
# config.py is checked before the App's modules load. The checker is dropped again at once,
# so the holes its code leaves in the heap lie below those modules, which fill them; checked
# after them, its holes would split the free heap the engine and the menus load into later.
import drivers.config_check  # noqa: E402
checked = drivers.config_check.passes()
del sys.modules["drivers.config_check"], sys.modules["drivers"].config_check
# Importing a .mpy file opens it with a 1 KB buffer that stays on the heap until the next
# collection: left to pile up, one is stranded between every two modules, and the free heap
# ends up in 1.1 KB holes the engine's 2.4 KB blocks do not fit. Collected every 16 KB while
# loading, the modules lie packed and the free heap stays whole. `low` keeps 4 KB at the
# bottom of the heap free for the loop (app.main lets it go after boot), frozen or not: every
# Python call takes its frame from the lowest free room, and with nothing free below what
# boot leaves each call would search past all of it (lifts light later, steps take longer).
often = RUNS == "files" and hasattr(gc, "threshold")   # (CPython: no threshold)
low = [bytearray(4096)] if hasattr(gc, "threshold") else []
if often:
    gc.threshold(16384)
import app  # noqa: E402
if often:
    gc.threshold(-1)

app.main(checked=checked, low=low)
