# Optional passive piezo on a PWM pin. beep(kind, now_ms) starts a short tone pattern and
# returns at once; update(now_ms), called from the main loop, steps through it and silences the
# pin at the end. With pin None (no buzzer fitted) every call does nothing.
from machine import Pin, PWM

from drivers.ticks import ticks_diff

# (frequency Hz, duration ms) pairs; frequency 0 = pause. A small piezo is loud only near its
# resonance (the BOM's TDK PS1240P02BT: 4 kHz) and nearly silent far below it, so both sounds stay
# within 1.5-4 kHz: "ok" a short click at resonance, "error" two longer beeps an octave lower.
PATTERNS = {
    "ok": (4000, 40),
    "error": (2000, 120, 0, 60, 2000, 120),
}
_DUTY = 32768               # 50 % square wave: loudest for a piezo


class Buzzer:
    def __init__(self, pin=None):
        self._pwm = None if pin is None else PWM(Pin(pin))
        self.enabled = True         # sound on/off (menu setting)
        self._pat = None
        self._i = 0
        self._start = 0
        self._silence()

    def _silence(self):
        if self._pwm is not None:
            self._pwm.duty_u16(0)

    def _step(self, now):
        f = self._pat[self._i]
        if f and self._pwm is not None:
            self._pwm.freq(f)
            self._pwm.duty_u16(_DUTY)
        else:
            self._silence()
        self._start = now

    def beep(self, kind, now):
        """Start pattern "ok" or "error" (replacing one still playing)."""
        pat = PATTERNS[kind]
        if self._pwm is None or not self.enabled:
            return
        self._pat = pat
        self._i = 0
        self._step(now)

    def update(self, now):
        if self._pat is None or ticks_diff(now, self._start) < self._pat[self._i + 1]:
            return
        self._i += 2
        if self._i >= len(self._pat):
            self._pat = None
            self._silence()
        else:
            self._step(now)

    @property
    def busy(self):
        return self._pat is not None


def from_config(cfg):
    return Buzzer(cfg.BUZZER_PIN)
