# Is the LED rail on the external supply? The power switch SW69 (hardware/power.md) puts the
# LED rail on USB or on the external 5 V, and its second pole feeds the external 5 V to a
# 22k / 33k divider on POWER_SENSE_PIN only while the rail is on EXT: the pin reads 0.6 x the
# supply then, and 0 V with the switch on USB or the supply unplugged. The LED driver asks
# before every frame and caps the LEDs at the USB budget whenever the answer is no, so a
# budget meant for the external supply is never drawn from USB.
from machine import ADC, Pin

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# 4.3 V on the divider (0.6 x 4.3 = 2.58 V of the ADC's 3.3 V): a 5 V supply reads about
# 3.0 V even at full load, an absent one 0 V.
PRESENT_U16 = const(51236)


class PowerSense:
    def __init__(self, pin):
        self._adc = ADC(Pin(pin))

    def external(self):
        """True while the external supply feeds the LED rail. Allocation-free."""
        return self._adc.read_u16() >= PRESENT_U16


def from_config(cfg):
    """The sense for POWER_SUPPLY = "external" (None otherwise: USB needs no sense)."""
    pin = getattr(cfg, "POWER_SENSE_PIN", None)
    if getattr(cfg, "POWER_SUPPLY", "usb") != "external" or pin is None:
        return None
    return PowerSense(pin)
