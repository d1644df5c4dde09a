# Boot file: MicroPython runs main.py at power-on. It stays tiny and uncompiled; everything it
# starts is deployed as compiled .mpy (see tools/deploy.py).
from version import VERSION

print("Barragoon board firmware", VERSION)
import app  # noqa: E402

app.main()
