# The emulated Pico, seen from Python: starts tools/rp2040/emulator.js (Node + rp2040js), talks
# to it one JSON line per command, and keeps what came back: USB serial output, LED frames
# (decoded through config.py's chain order), the SSD1306's display RAM (tools/vboard/decode.Oled),
# flash operations, resets. Time is the emulator's simulated time in ms.
#
#   pico = Pico(flash=image_bytes)        power on with this littlefs image in the storage area
#   pico.run_for(500)                     let 500 simulated ms pass
#   pico.set_squares(occ); pico.button("ok", True)
#   pico.leds  -> 63 (r, g, b) in square order;  pico.screen_lines() -> text on the OLED
#   pico.exec("print(1)") -> "1\r\n"       raw REPL (interrupts main.py first)
#   pico.files() -> {"saved/game.txt": b"...", ...}   the board's littlefs, read on the host
#   Pico(xip_miss_cycles=56)              model the XIP flash cache (56 cycles per miss)
#   BootselDrive(pico, folder)            the boot ROM's USB drive, for tools/deploy.py --uf2
import binascii
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
ROOT = os.path.dirname(TOOLS)
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)

from rp2040 import flashfs  # noqa: E402
from vboard import decode  # noqa: E402

SHARED = os.path.join(ROOT, "..", "shared", "rp2")
DEFAULT_UF2 = os.path.join(SHARED, "micropython-v1.28.0-RPI_PICO.uf2")
DEFAULT_ROM = os.path.join(SHARED, "rp2040-bootrom-b1.bin")
ENV_UF2 = "BARRAGOON_PICO_UF2"          # an official MicroPython v1.28 download for RPI_PICO
ENV_ROM = "BARRAGOON_PICO_BOOTROM"      # the RP2040 boot ROM (B1)
# Revision B1 of the boot ROM: the emulator patches two of its flash routines at fixed addresses
# (tools/rp2040/emulator.js), so another revision would not run the firmware.
ROM_SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
WHERE_FROM = 'where to get it: tools/README.md, "The two files the emulated Pico needs"'
# A cache miss refills an 8-byte line over QSPI: in the continuous-read mode the Pico's boot2
# sets up (W25Q quad I/O, SCK = clk_sys / 2), 6 address + 2 mode + 4 dummy + 16 data SCK
# cycles, 56 clk_sys cycles.
XIP_MISS_CYCLES = 56
EMULATOR = os.path.join(HERE, "emulator.js")
BUTTONS = ("up", "down", "ok")


class PicoError(Exception):
    """The emulator is missing, refused a command or died; the message says which."""


def firmware_path(path=None):
    return os.path.abspath(path or os.environ.get(ENV_UF2) or DEFAULT_UF2)


def firmware_kind(path=None):
    """"frozen" for the board's own MicroPython (tools/build_firmware.py: the firmware is in
    it), "stock" for MicroPython alone."""
    from toolkit import uf2
    return uf2.kind(firmware_path(path))


def rom_path(path=None):
    return os.path.abspath(path or os.environ.get(ENV_ROM) or DEFAULT_ROM)


def missing(firmware=None, rom=None):
    """Why the emulated Pico cannot run here (one line), or None when it can."""
    # The files first: a path the user gave that does not exist is their mistake to fix,
    # whatever else this computer lacks.
    fw = firmware_path(firmware)
    if not os.path.exists(fw):
        given = firmware or os.environ.get(ENV_UF2)
        return ("%s (give --firmware PATH or set $%s; %s)"
                % ("MicroPython UF2 not found at %s" % fw if given else
                   "no MicroPython v1.28 UF2 for the Pico here", ENV_UF2, WHERE_FROM))
    rom = rom_path(rom)
    if not os.path.exists(rom):
        given = rom != os.path.abspath(DEFAULT_ROM)
        return "%s (set $%s; %s)" % ("RP2040 boot ROM not found at %s" % rom if given else
                                     "no RP2040 boot ROM here", ENV_ROM, WHERE_FROM)
    why = rom_mismatch(rom)
    if why:
        return why
    if shutil.which("node") is None:
        return "node not found (install Node.js 18+ to run the emulated Pico)"
    if not os.path.isdir(os.path.join(HERE, "node_modules", "rp2040js")):
        return "rp2040js not installed: run `npm ci` in tools/rp2040"
    if flashfs.littlefs is None:
        return "littlefs-python not installed (pip install -r requirements-dev.txt)"
    return None


def rom_mismatch(path):
    """One line when the file at path is not the RP2040 boot ROM B1, else None."""
    try:
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        return "cannot read the RP2040 boot ROM %s: %s" % (path, e.strerror or e)
    if digest == ROM_SHA256:
        return None
    return ("%s is not the RP2040 boot ROM B1 (sha256 %s..., expected %s...; %s)"
            % (path, digest[:12], ROM_SHA256[:12], WHERE_FROM))


def load_config(path):
    """config.py as a dict of its UPPERCASE settings (it is plain assignments)."""
    env = {}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), env)
    return {k: v for k, v in env.items() if k.isupper()}


def board_wiring(cfg):
    """What the emulator needs to know of the wiring, from config.py."""
    enc = cfg["INPUT_TYPE"] == "encoder"
    return {
        "rows": list(cfg["MATRIX_ROW_PINS"]),
        "cols": list(cfg["MATRIX_COL_PINS"]),
        "row_on": 0 if cfg["DIODE_DIRECTION"] == "row_cathode" else 1,
        "active_level": cfg["SENSOR_ACTIVE_LEVEL"],
        "led": cfg["LED_PIN"],
        "i2c_id": cfg["I2C_ID"],
        "oled_addr": cfg["OLED_ADDR"],
        "buttons": list(cfg["ENCODER_PINS"] if enc else cfg["BUTTON_PINS"]),
    }


class LedFrame:
    """One WS2812 frame as it went over the wire: t_first = first bit (ms), colours by square."""

    def __init__(self, t_first, t_end, raw, cfg):
        self.t_first = t_first
        self.t_end = t_end
        self.raw = raw
        self.squares = decode.decode_leds(raw, cfg["LED_WIRING"], cfg["LED_START"],
                                          cfg["LED_RUNS"])


class Pico:
    def __init__(self, flash=None, config=None, firmware=None, rom=None, oled=True,
                 xip_miss_cycles=None):
        why = missing(firmware, rom)
        if why:
            raise PicoError(why)
        self.cfg = load_config(config or os.path.join(ROOT, "firmware", "config.py"))
        self.tmp = tempfile.mkdtemp(prefix="pico-")
        self.serial = bytearray()            # everything the board wrote to USB serial
        self.frames = []                     # LedFrame, in order
        self.oled = decode.Oled()
        self.oled_writes = []                # (t, bytes) of every I2C write to the display
        self.resets = []                     # (t, "watchdog" | "reset")
        self.cuts = []
        self.usb_connects = []
        self.bootsel = False                 # waiting in BOOTSEL mode (machine.bootloader())
        self.powered = True
        self.t = 0.0
        self.occ = bytearray(63)
        self.proc = subprocess.Popen(["node", EMULATOR], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=HERE, text=True, bufsize=1)
        args = {"rom": rom_path(rom), "firmware": firmware_path(firmware),
                "board": board_wiring(self.cfg)}
        if flash is not None:
            args["flash"] = self._write_tmp("boot.img", flash)
        if xip_miss_cycles is not None:
            args["xip_miss_cycles"] = xip_miss_cycles
        self.command("init", **args)
        if not oled:
            self.set_oled(False)

    # --- protocol ----------------------------------------------------------------------------
    def _write_tmp(self, name, data):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def command(self, cmd, **args):
        args["cmd"] = cmd
        try:
            self.proc.stdin.write(json.dumps(args) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise PicoError("emulator died: " + self._stderr())
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise PicoError("emulator died: " + self._stderr())
            msg = json.loads(line)
            if "ev" in msg:
                self._event(msg)
                continue
            if "t" in msg:
                self.t = msg["t"]
            if not msg.get("ok"):
                raise PicoError("emulator: %s failed: %s" % (cmd, msg.get("error")))
            return msg

    def _stderr(self):
        try:
            self.proc.wait(timeout=5)
            return self.proc.stderr.read()[-2000:]
        except Exception:
            return "(no output)"

    def _event(self, msg):
        ev = msg["ev"]
        if ev == "serial":
            self.serial += binascii.unhexlify(msg["hex"])
        elif ev == "leds":
            self.frames.append(LedFrame(msg["t_first"], msg["t_end"],
                                        binascii.unhexlify(msg["hex"]), self.cfg))
        elif ev == "i2c":
            data = binascii.unhexlify(msg["hex"])
            self.oled.write(data)
            self.oled_writes.append((msg["t"], data))
        elif ev == "reset":
            self.resets.append((msg["t"], msg["why"]))
        elif ev == "cut":
            self.cuts.append(msg)
        elif ev == "usb":
            self.usb_connects.append(msg["t"])
        elif ev == "bootsel":
            self.bootsel = True

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for s in (self.proc.stdout, self.proc.stderr):
            s.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- time --------------------------------------------------------------------------------
    def run_until(self, t_ms, stop_on=None):
        """Run to simulated time t_ms, or until the serial output (from now on) contains
        stop_on (bytes); returns whether that text was seen."""
        args = {"until_ms": t_ms}
        if stop_on is not None:
            args["stop_on"] = binascii.hexlify(stop_on).decode()
        start = len(self.serial)
        reply = self.command("run", **args)
        self.powered = reply["powered"]
        self.bootsel = reply["bootsel"]
        return stop_on is not None and stop_on in self.serial[start:]

    def run_for(self, ms, stop_on=None):
        return self.run_until(self.t + ms, stop_on)

    # --- the physical board ----------------------------------------------------------------------
    def set_squares(self, occ):
        self.occ = bytearray(occ)
        self.command("squares", occ="".join("1" if v else "0" for v in occ))

    def set_square(self, sq, present):
        occ = bytearray(self.occ)
        occ[sq] = 1 if present else 0
        self.set_squares(occ)

    def button(self, name, down):
        self.command("button", index=BUTTONS.index(name), down=bool(down))

    def turn(self, detents, ms_per_detent=50):
        """Turn the encoder (config INPUT_TYPE = "encoder"); returns how long it takes (ms)."""
        return self.command("encoder", detents=detents, ms_per_detent=ms_per_detent)["ms"]

    def set_oled(self, present, fail_after=-1):
        """present=False: nothing answers at the display's address; fail_after=N: it answers
        N more transactions, then stops answering."""
        self.command("oled", present=bool(present), fail_after=fail_after)

    def stick_rows(self, mask):
        """Rows (bit r = rank r + 1) whose wire is broken: they never pull a column."""
        self.command("stuck_rows", mask=mask)

    # --- power, flash ---------------------------------------------------------------------------
    def power_off(self):
        self.command("power", on=False)

    def power_on(self):
        self.oled = decode.Oled()            # the display lost power too
        self.command("power", on=True)
        self.powered, self.bootsel = True, False

    def load_uf2(self, path):
        """Write a UF2 into the flash as the boot ROM's drive does (the littlefs area is kept);
        the chip must be off or in BOOTSEL mode. power_on() then runs it."""
        self.command("firmware", path=os.path.abspath(path))

    def xip_stats(self):
        """{"model", "miss_cycles", "hits", "misses"} of the XIP cache model since power-on."""
        return self.command("xip")

    def cut_at(self, k, partial=False):
        """Cut the power as flash operation number k starts (k counts from power-on of the
        bench); partial: half of that operation got done."""
        self.command("cut", at=k, partial=partial)

    def flash_ops(self, start=0):
        return self.command("flash_ops", **{"from": start})["ops"]

    def storage(self, k=None, partial=False):
        """The littlefs area as bytes: now, or as it was when flash operation k started."""
        path = os.path.join(self.tmp, "storage.img")
        args = {"path": path, "partial": partial}
        if k is not None:
            args["k"] = k
        self.command("flash_save", **args)
        with open(path, "rb") as f:
            return f.read()

    def load_storage(self, image):
        self.command("flash_load", path=self._write_tmp("load.img", image))

    def files(self, k=None):
        """The board's files read back from its flash (littlefs-python on the host)."""
        return flashfs.read_files(self.storage(k))

    def scan_starts(self, clear=False):
        return self.command("scans", clear=clear)["starts"]

    def loop_steps(self, clear=False):
        """[(start, end)] ms of every loop step (the firmware's busy signal on GP25)."""
        return [tuple(s) for s in self.command("busy", clear=clear)["steps"]]

    def engine_slices(self, clear=False):
        """[(start, end)] ms of every slice of the engine's search (GP26 high: app.main(think_pin=26),
        which tools/bench/bench_rp2040.py sets)."""
        return [tuple(s) for s in self.command("probe", clear=clear)["slices"]]

    def cpu(self, clear=False):
        """Where the core's time went since the last clear, in ms: "irq" (interrupt
        handlers: the matrix scan's timer, USB), "engine" (GP26 high: app.main(think_pin=26)),
        "step" (the rest of the loop steps: GP25 high), "other" (the rest of thread mode:
        the loop waiting for its period) and "sleep" (WFI/WFE)."""
        msg = self.command("cpu", clear=clear)
        return {k: msg[k] / 1e6 for k in ("irq", "engine", "step", "other", "sleep")}

    # --- outputs ---------------------------------------------------------------------------------
    @property
    def leds(self):
        return self.frames[-1].squares if self.frames else [(0, 0, 0)] * 63

    def screen_lines(self):
        from rp2040 import screen
        return screen.text_lines(self.oled)

    def screen_png(self, path):
        from rp2040 import screen
        with open(path, "wb") as f:
            f.write(screen.png(self.oled))

    def console(self):
        return self.serial.decode("utf-8", "replace")

    # --- USB serial and the raw REPL -----------------------------------------------------------
    def write(self, data):
        self.command("serial", hex=binascii.hexlify(bytes(data)).decode())

    def host_reads(self, reading):
        """reading=False: the host stops reading the board's USB serial (its transfers are not
        completed, so the board's TX buffer fills up); True: it reads again, the held bytes
        first."""
        self.command("usb_host", reading=bool(reading))

    def interrupt(self, timeout_ms=3000):
        """Ctrl-C until the friendly REPL prompt shows (stops main.py)."""
        for _ in range(5):
            self.write(b"\r\x03\x03")
            if self.run_for(timeout_ms / 5, stop_on=b">>> "):
                return
        raise PicoError("no REPL prompt after Ctrl-C: " + self.console()[-300:])

    def exec(self, code, timeout_ms=60000):
        """Run code in the raw REPL; returns its output (text). Raises PicoError on an
        exception on the board, with the board's traceback."""
        self.interrupt()
        self.write(b"\x01")
        if not self.run_for(2000, stop_on=b"raw REPL; CTRL-B to exit\r\n>"):
            raise PicoError("no raw REPL: " + self.console()[-300:])
        start = len(self.serial)
        data = code.encode()
        for i in range(0, len(data), 256):
            self.write(data[i:i + 256])
            self.run_for(5)
        self.write(b"\x04")
        if not self.run_for(timeout_ms, stop_on=b"\x04>"):
            raise PicoError("code did not finish in %d ms: %s" % (timeout_ms,
                                                                    self.console()[-500:]))
        reply = bytes(self.serial[start:])
        self.write(b"\x02")                  # back to the friendly REPL
        self.run_for(20)
        if not reply.startswith(b"OK"):
            raise PicoError("raw REPL refused the code: %r" % reply[:200])
        body = reply[2:reply.rindex(b"\x04>")]
        outp, _, err = body.partition(b"\x04")
        err = err.rstrip(b"\x04")
        if err:
            raise PicoError("on the board: " + err.decode("utf-8", "replace"))
        return outp.decode("utf-8", "replace")


class BootselDrive:
    """The boot ROM's USB drive (RPI-RP2) as a folder: when the emulated Pico enters BOOTSEL
    mode (machine.bootloader(), as `mpremote bootloader` calls it) INFO_UF2.TXT appears in
    it; a whole UF2 file copied in is written into the flash (the littlefs area kept), the
    drive empties and the Pico restarts into the new firmware, as a real Pico does. poll()
    does the drive's part; SerialBridge(pico, drive=...) calls it while a tool runs."""

    INFO = "UF2 Bootloader v3.0\r\nModel: Raspberry Pi RP2\r\nBoard-ID: RPI-RP2\r\n"

    def __init__(self, pico, folder):
        self.pico = pico
        self.folder = folder
        self.flashed = []                    # (simulated ms, UF2 name) of every UF2 taken
        os.makedirs(folder, exist_ok=True)

    def _info(self):
        return os.path.join(self.folder, "INFO_UF2.TXT")

    def poll(self):
        p = self.pico
        if not p.bootsel:
            return
        if not os.path.exists(self._info()):
            with open(self._info(), "w") as f:
                f.write(self.INFO)
        for name in sorted(os.listdir(self.folder)):
            path = os.path.join(self.folder, name)
            if not name.lower().endswith(".uf2") or not _whole_uf2(path):
                continue
            p.load_uf2(path)
            self.flashed.append((p.t, name))
            for n in os.listdir(self.folder):
                os.remove(os.path.join(self.folder, n))
            p.power_on()
            return


def _whole_uf2(path):
    """Whether the UF2 file has all its blocks yet (a copy may be under way)."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
            size = os.fstat(f.fileno()).st_size
    except OSError:
        return False
    if len(head) < 32:
        return False
    count = int.from_bytes(head[24:28], "little")
    return size >= count * 512


class SerialBridge:
    """The board's USB serial as a pseudo-terminal, for host tools (mpremote, deploy.py):

        with SerialBridge(pico) as port:      # e.g. "/dev/pts/5"
            subprocess.run(["mpremote", "connect", port, "ls"])

    While it is open a thread owns the Pico: it copies bytes both ways and runs the emulator
    paced to real time (never ahead of it), as a board on a USB cable would run. call(fn)
    runs fn(pico) in that thread (hands on the board while a tool is attached) and returns
    its value."""

    def __init__(self, pico, speed=1.0, drive=None):
        import tty
        self.pico = pico
        self.speed = speed
        self.drive = drive                   # a BootselDrive, polled while the tool runs
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
        self.error = None
        self._stop = False
        self._thread = None
        self._calls = []

    def call(self, fn, timeout=60):
        import threading
        import time
        done = threading.Event()
        box = []
        self._calls.append((fn, box, done))
        end = time.monotonic() + timeout
        while not done.wait(0.5):
            if self.error is not None or not self._thread.is_alive():
                raise PicoError("serial bridge stopped: %r" % (self.error,))
            if time.monotonic() > end:
                raise PicoError("serial bridge: a call did not run within %d s" % timeout)
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]

    def __enter__(self):
        import threading
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self.port

    def __exit__(self, *exc):
        self._stop = True
        self._thread.join()
        try:                                     # what the tool sent last (say, a reset)
            data = os.read(self.master, 4096)
        except OSError:
            data = b""
        if data:
            self.pico.write(data)
        self.pico.run_for(300)
        os.close(self.master)
        os.close(self.slave)
        if self.error is not None and exc[0] is None:
            raise PicoError("serial bridge: %s" % self.error)

    def _run(self):
        import select
        import time
        p = self.pico
        sent = len(p.serial)
        blocked = None                       # since when the port takes no more bytes
        wall0, sim0 = time.monotonic(), p.t
        try:
            while not self._stop:
                if not p.powered:            # off, or in BOOTSEL mode: nothing runs
                    if self.drive is not None:
                        self.drive.poll()
                    if not p.powered:
                        time.sleep(0.01)
                        wall0, sim0 = time.monotonic(), p.t
                        continue
                while self._calls:
                    fn, box, done = self._calls.pop(0)
                    try:
                        box.append(fn(p))
                    except Exception as e:  # noqa: BLE001 - raised in the caller
                        box.append(e)
                    done.set()
                    wall0, sim0 = time.monotonic(), p.t   # (the call's own simulated time)
                ready = select.select([self.master], [], [], 0)[0]
                if ready:
                    try:
                        data = os.read(self.master, 4096)
                    except (BlockingIOError, OSError):
                        data = b""
                    if data:
                        p.write(data)
                target = sim0 + (time.monotonic() - wall0) * 1000 * self.speed
                if p.t < target:
                    p.run_until(min(target, p.t + 20))
                else:
                    time.sleep(0.002)
                if len(p.serial) > sent:
                    try:
                        sent += os.write(self.master, bytes(p.serial[sent:]))
                        blocked = None
                    except BlockingIOError:
                        # The tool has not read the port yet (a loaded machine): try again;
                        # after a second nobody reads it, and the bytes are lost.
                        blocked = blocked or time.monotonic()
                        if time.monotonic() - blocked > 1.0:
                            sent, blocked = len(p.serial), None
        except Exception as e:  # noqa: BLE001 - reported by __exit__
            self.error = e
