# Boot file: MicroPython runs main.py at power-on. It stays tiny and uncompiled; everything it
# starts is deployed as compiled .mpy (see tools/deploy.py).
import app

app.main()
