# Boot file: MicroPython runs main.py at power-on. It stays tiny and uncompiled (a file on the
# board even when the rest is frozen into the firmware); everything it starts is either frozen
# (tools/build_firmware.py) or deployed as compiled .mpy files (tools/deploy.py).
from version import VERSION, RUNS

print("Barragoon board firmware", VERSION, "(%s)" % RUNS)
import app  # noqa: E402

app.main()
