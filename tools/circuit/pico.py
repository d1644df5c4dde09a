# The Raspberry Pi Pico's 40-pin header (Pico datasheet, "Pinout"), seen from above with USB at
# the top: pins 1-20 down the left side, 21-40 up the right side. This one table is shared by
# the circuit description, tools/wiring_svg.py and the host tests; host_tests/test_hardware.py
# checks it against facts of the pinout it states on its own (where the grounds are, which
# GPIOs exist, the power pins), not against a second copy.
PICO_HEADER = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12",
    17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17", 23: "GND",
    24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22", 30: "RUN",
    31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF", 36: "3V3_OUT",
    37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
# RP2040 GPIOs the Pico uses on the board itself (SMPS mode, VBUS sense, LED, VSYS / 3).
PICO_INTERNAL_GPIOS = (23, 24, 25, 29)
GND_PINS = tuple(p for p in sorted(PICO_HEADER) if PICO_HEADER[p] == "GND")


def pin_of_gpio(gpio):
    """Physical header pin of GPIO gpio, or None if it is not on the header."""
    name = "GP%d" % gpio
    for pin, fn in PICO_HEADER.items():
        if fn == name:
            return pin
    return None


def pin_of(function):
    """Physical header pin of a named pin (VBUS, VSYS, 3V3_OUT, ...); the first GND."""
    for pin in sorted(PICO_HEADER):
        if PICO_HEADER[pin] == function:
            return pin
    return None
