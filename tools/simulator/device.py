# Device side of the board simulator (tools/sim.py starts it): runs the real, unchanged firmware
# on the MicroPython unix port, on the virtual hardware of tools/vboard, and exchanges JSON
# lines with the host over stdin / stdout.
#
#   micropython tools/simulator/device.py FIRMWARE_DIR TOOLS_DIR SIM_DIR
#   python3 -u tools/simulator/device.py FIRMWARE_DIR TOOLS_DIR SIM_DIR  (no micropython around)
#
# On CPython (the firmware is written to run there too) two things of the board's MicroPython
# are provided from outside the firmware: time.ticks_ms / ticks_diff / sleep_ms
# (vboard.clock.HostTime, passed to app.main as its clock) and input read by a thread
# (select.poll does not work on pipes everywhere). The firmware's own file system (files.py)
# renames over an old file there too, as LittleFS does.
#
# The firmware entry point is app.main(Storage(SIM_DIR)), with real time. The fakes stand in
# for the RP2040: vboard.machine models the GPIO levels, vboard.board_wiring.BoardWiring the 9x7
# sensor matrix (the firmware scans it through machine.Pin and mem32 GPIO_IN as on the board),
# vboard.neopixel the LED strip; the OLED is a device on the fake I2C bus that only taps the
# bytes. Nothing of the firmware is patched: the exchange hangs off the watchdog, whose feed()
# the firmware calls once per loop iteration. The one thing the page sets that is no hardware,
# the language, goes to the running board's controller as its menu's choice does
# (Controller.set_language, which saves it): app.App is subclassed only to keep a handle on it.
#
# Host -> device, one JSON object a line, every key optional:
#   {"occ": "0110...0"}          63 characters, a1 .. g9: "1" = a piece stands on the square
#   {"pins": [[18, 0], [20, 1]]} GPIO input levels driven from outside (buttons: 0 = pressed),
#                                null releases a pin to its pull
#   {"usb": "hex"}               bytes to the board's USB console (controller/protocol.py)
#   {"lang": "de"}               the board's language (controller/i18n.py's codes), set between
#                                two loop steps as the menu sets it, and saved; a code the board
#                                has already is left alone (nothing written)
#   {"new_game": "closed"}       the page's "Set up start position" with a game in progress,
#                                confirmed there: the board ends it as its menu does (recorded
#                                as unfinished) and sets up a new game of that variant
#   {"quit": 1}                  exit (so does end of input)
# The first line is read before the firmware starts: the board as it is at power-on.
#
# Device -> host, one JSON object a line; any other line is the firmware's console output:
#   {"run": 1}                   the firmware reached its loop (first watchdog feed)
#   {"leds": "hex"}              the NeoPixel buffer as last written to the strip (GRB, chain
#                                order, brightness and current cap applied)
#   {"i2c": [[addr, "hex"], ..]} every I2C write since the last message, in order
#   {"pwm": [freq, duty_u16]}    the buzzer PWM after it changed
#   {"usb": "hex"}               what the firmware wrote to its USB console
#   {"board": {...}}             what the board is doing, when it changed (for the page's hint
#                                line and supply, never for play): "mode" and "base" (the top
#                                and bottom of the controller's mode stack), "supply",
#                                "placing", "repair", and while the board plays its own turn
#                                "own": {"side", "thinking", "move" or "place", "face" and
#                                "placed"}
#   {"halt": "text"}             app.main() returned (a config error): the board waits
#   {"reset": 1}                 the firmware called machine.reset(): the process exits with
#                                status 3 and the host starts it again, like a reboot
import sys

try:
    import select
except ImportError:  # pragma: no cover
    select = None
import json
from binascii import hexlify

RESET_STATUS = 3
CPYTHON = sys.implementation.name != "micropython"
USAGE = ("usage: micropython tools/simulator/device.py FIRMWARE_DIR TOOLS_DIR SIM_DIR "
         "(tools/sim.py runs it)")


def _hex(b):
    return hexlify(b).decode()


class UsbPort:
    """The board's USB console (drivers/usb.py's interface): the host's bytes come in {"usb"}
    messages, what the firmware writes goes out in them (Link.flush)."""
    HELD = 4096                    # bytes the host has not taken yet: then it "stops reading"

    def __init__(self):
        self.inp = bytearray()
        self.out = bytearray()

    def read(self, buf, n):
        n = min(n, len(self.inp))
        for i in range(n):
            buf[i] = self.inp[i]
        self.inp[:n] = b""
        return n

    def write(self, buf, n):
        if len(self.out) + n > self.HELD:
            return 0
        for i in range(n):
            self.out.append(buf[i])
        return n


class Link:
    """The exchange: inputs from the host into the fakes, outputs of the fakes to the host."""

    def __init__(self, machine, wiring, neopixel, inp=None, out=None):
        self.machine = machine
        self.wiring = wiring
        self.neopixel = neopixel
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self.i2c = []              # (addr, bytes) tapped since the last flush
        self.buses = []            # every I2C object the firmware made
        self.strip_sent = None
        self.pwm_sent = {}
        self.running = False
        self.quit = False
        self.app = None            # the running firmware/app.py App (run() keeps it here)
        self.usb = UsbPort()
        self.lang = None           # a language the host asked for, not yet set
        self.new_game = None       # a new game the page asked for, not yet set up
        self.state_sent = None
        self._poll = None
        self._lines = None
        if CPYTHON:
            if self._has_fileno():
                self._start_reader()
        elif select is not None and hasattr(self.inp, "fileno"):
            try:
                self._poll = select.poll()
                self._poll.register(self.inp, select.POLLIN)
            except (OSError, AttributeError, TypeError):
                self._poll = None

    # --- host -> device --------------------------------------------------------------------
    def apply(self, msg):
        """Apply one message (a dict) to the fake hardware."""
        occ = msg.get("occ")
        if occ is not None:
            if len(occ) != 63:
                raise ValueError("occ needs 63 characters")
            w = self.wiring
            for sq in range(63):
                v = 1 if occ[sq] == "1" else 0
                if w.field[sq] != v:
                    w.place(sq, v)
        pins = msg.get("pins")
        if pins:
            for pin, level in pins:
                self.machine.set_input(pin, level)
        if msg.get("usb"):
            from binascii import unhexlify
            self.usb.inp.extend(unhexlify(msg["usb"]))
        if msg.get("lang"):
            self.lang = msg["lang"]
            self.set_language()
        if msg.get("new_game"):
            self.new_game = msg["new_game"]
            self.start_new_game()
        if msg.get("quit"):
            self.quit = True

    def set_language(self):
        """The language the host asked for, as the board's menu sets it (once the App runs)."""
        if self.lang is None or self.app is None:
            return
        code, self.lang = self.lang, None
        from controller import i18n
        if code == i18n.language():
            return
        try:
            self.app.ctl.set_language(code)
        except ValueError as e:           # not one of the board's languages: said, not fatal
            print("sim: language %s: %s" % (code, e))

    def start_new_game(self):
        """The page's new game: the game in progress ended as the menu ends it."""
        if self.new_game is None or self.app is None:
            return
        variant, self.new_game = self.new_game, None
        ctl = self.app.ctl
        ctl.variant = 1 if variant == "open" else 0
        ctl.end_unfinished()

    def board_state(self):
        """What the board is doing (see the top), from its controller."""
        ctl = self.app.ctl
        g = ctl.game
        st = {"mode": type(ctl.top).__name__ if ctl.stack else "",
              "base": type(ctl.stack[0]).__name__ if ctl.stack else "",
              "supply": g.pos.supply if g is not None else -1,
              "placing": g.placing() if g is not None else -1,
              "repair": bool(ctl.judge.repair)}
        op = ctl.opponent
        if op is not None and op.due(ctl):
            from barragoon.notation import square_name, format_move
            from barragoon.core import FACES
            i = op.step(g)
            own = {"side": op.side, "thinking": i < 0}
            if i == 0 and op.plan.move is not None:
                frm, to = op.plan.move
                own["move"] = format_move(frm, to, op.plan.capture)
            elif i >= 0:
                side, sq, face = op.placement(i)
                own["place"] = square_name(sq)
                own["face"] = FACES[face - 1]
                own["placed"] = ctl.judge.places.sq == sq     # it stands there: OK confirms
            st["own"] = own
        return st

    def apply_line(self, line):
        line = line.strip()
        if line:
            self.apply(json.loads(line))

    def _has_fileno(self):
        try:
            self.inp.fileno()
            return True
        except (AttributeError, OSError, ValueError):   # io.UnsupportedOperation is an OSError
            return False

    def _start_reader(self):
        # CPython: a thread blocks on readline and queues the lines (None = end of input).
        import queue
        import threading
        self._lines = queue.Queue()

        def reader():
            for line in iter(self.inp.readline, ""):
                self._lines.put(line)
            self._lines.put(None)
        threading.Thread(target=reader, daemon=True).start()

    def _poll_queue(self):
        import queue
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.quit = True
                return
            self.apply_line(line)

    def read_blocking(self):
        """The first message: the board at power-on."""
        line = self._lines.get() if self._lines is not None else self.inp.readline()
        if not line:
            self.quit = True
            return
        self.apply_line(line)

    def poll_input(self):
        """Apply every complete line waiting on stdin, without blocking."""
        if self._lines is not None:
            return self._poll_queue()
        p = self._poll
        if p is None:
            return
        while True:
            ev = p.poll(0)
            if not ev:
                return
            flags = ev[0][1]
            if not flags & select.POLLIN:
                self.quit = True           # host gone (POLLHUP / POLLERR)
                return
            line = self.inp.readline()
            if not line:
                self.quit = True
                return
            self.apply_line(line)

    # --- device -> host --------------------------------------------------------------------
    def send(self, obj):
        self.out.write(json.dumps(obj) + "\n")
        try:
            self.out.flush()
        except AttributeError:
            pass

    def tap(self, addr):
        """An I2C device model for vboard.machine.i2c_devices: records what the firmware sends."""
        link = self

        class Tap:
            def write(self, data):
                link.i2c.append((addr, data))
        return Tap()

    def flush(self):
        """Send what the firmware drove since the last flush; forget the fakes' logs."""
        m = self.machine
        if self.usb.out:
            self.send({"usb": _hex(self.usb.out)})
            self.usb.out = bytearray()
        if self.i2c:
            self.send({"i2c": [[a, _hex(d)] for a, d in self.i2c]})
            self.i2c = []
        strips = self.neopixel.instances
        if strips:
            s = strips[-1]
            if s.frames:
                last = s.frames[-1]
                if last != self.strip_sent:
                    self.strip_sent = last
                    self.send({"leds": _hex(last)})
            for s in strips:
                s.frames.clear()
        for pwm in m.pwms:
            now = (pwm._freq, pwm._duty)
            if self.pwm_sent.get(id(pwm)) != now:
                self.pwm_sent[id(pwm)] = now
                self.send({"pwm": [now[0], now[1]]})
            pwm.history.clear()
        # The fakes log every pin write and bus transfer for tests; keep memory flat.
        m.trace.clear()
        m.i2c_log.clear()
        for bus in self.buses:
            bus.writes.clear()
        if self.wiring.read_rows:
            self.wiring.read_rows.clear()

    def exchange(self):
        """Once per loop iteration (from the watchdog feed)."""
        if not self.running:
            self.running = True
            self.send({"run": 1})
            self.set_language()            # one asked for at power-on
        self.flush()
        if self.app is not None:
            st = self.board_state()
            if st != self.state_sent:
                self.state_sent = st
                self.send({"board": st})
        self.poll_input()
        if self.quit:
            raise SystemExit(0)


def install(firmware_dir, tools_dir, inp=None, out=None):
    """Put the fakes in place of machine / neopixel and wire them to a Link. Returns it."""
    sys.path.insert(0, tools_dir)
    sys.path.insert(0, firmware_dir)
    import vboard
    machine = vboard.install()
    vboard.reset()
    import config
    from vboard.board_wiring import BoardWiring
    from vboard import neopixel
    wiring = BoardWiring(config.MATRIX_ROW_PINS, config.MATRIX_COL_PINS, config.SENSOR_TYPE,
                         config.DIODE_DIRECTION, config.SENSOR_ACTIVE_LEVEL)
    link = Link(machine, wiring, neopixel, inp, out)
    machine.i2c_devices.clear()
    machine.i2c_devices[config.OLED_ADDR] = link.tap(config.OLED_ADDR)
    base_i2c = machine.I2C
    base_wdt = machine.WDT

    class I2C(base_i2c):
        def __init__(self, *args, **kw):
            base_i2c.__init__(self, *args, **kw)
            link.buses.append(self)

    class WDT(base_wdt):
        def feed(self):
            base_wdt.feed(self)
            link.exchange()

    saved = (machine.I2C, machine.SoftI2C, machine.WDT)

    def uninstall():
        # For host tests sharing the fake machine module: put the plain fakes back.
        machine.I2C, machine.SoftI2C, machine.WDT = saved
        machine.world = None
        machine.i2c_devices.clear()
        machine.i2c_devices[0x3C] = None

    link.uninstall = uninstall
    machine.I2C = I2C
    machine.SoftI2C = I2C
    machine.WDT = WDT
    return link


def run(firmware_dir, tools_dir, sim_dir):
    link = install(firmware_dir, tools_dir)
    link.read_blocking()
    if link.quit:
        return 0
    machine = link.machine
    import app
    base = app.App

    class App(base):
        # the running board, for what the page sets on it (the language)
        def __init__(self, *args):
            base.__init__(self, *args)
            link.app = self

    app.App = App
    from storage import Storage
    if not sim_dir.endswith("/"):
        sim_dir += "/"
    clock = None
    if CPYTHON:
        from vboard.clock import HostTime
        clock = HostTime()
    try:
        app.main(Storage(sim_dir), clock, port=link.usb)
    except machine.Restarted:
        link.flush()
        link.send({"reset": 1})
        return RESET_STATUS
    except SystemExit:
        return 0
    # main() returned: a config error is on the OLED and the console; the board waits.
    link.flush()
    link.send({"halt": "firmware stopped (see the OLED and the console)"})
    if clock is None:
        import time as clock
    while not link.quit:
        link.poll_input()
        link.flush()
        clock.sleep_ms(20)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(USAGE)
        print("The device side of the browser simulator: it speaks JSON lines on stdin/stdout; "
              "start the simulator with `python tools/sim.py`.")
        sys.exit(0)
    if len(sys.argv) != 4:
        sys.stderr.write(USAGE + "\n")
        sys.exit(2)
    sys.exit(run(sys.argv[1], sys.argv[2], sys.argv[3]))
