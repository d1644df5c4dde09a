# The simulator's board on the emulated Pico (python tools/sim.py --rp2040): the same firmware
# build that tools/deploy.py puts on a board (.mpy files for armv6m, main.py, config.py) runs on
# MicroPython's own RP2040 port inside rp2040js (tools/rp2040), in place of the unix port.
#
# PicoDevice has the interface of sim.Device (start, send, stop) and speaks to the Sim in the
# same messages, so the page does not know the difference:
#   - inputs from the page: {"occ": "0110..."} sets the reed contacts, {"pins": [[pin, level]]}
#     drives a button or encoder contact (0 = closed);
#   - outputs: every new WS2812 frame decoded from the LED pin's edges ({"leds": hex}), every I2C
#     write to the display ({"i2c": [[addr, hex]]}), the USB serial console line by line (and
#     as bytes, {"usb": hex}, for a computer watching: sim.py --usb-port);
#   - the board's files live on littlefs in emulated flash: they start from the --dir folder and
#     are copied back to it after every flash write, so the page's record, faces and records
#     follow the board as they do with the unix port.
#   - the language ({"lang": code}) reaches the emulated board only at power-on, in its saved
#     settings (sim.py --lang); a language chosen on the page meanwhile changes the page, and
#     the console says so (the board's menu changes both, as with the unix port).
#
# Time: the emulator runs the Pico at 0.6 to 1.0 times real time on a desktop. The device thread
# runs it in short slices and waits when it is ahead of the wall clock; when it falls behind it
# does not try to catch up (the board's own time simply runs slower), and the page's status
# says how fast it runs.
import os
import queue
import threading
import time

from rp2040 import board, flashfs, pico

SLICE_MS = 20              # simulated time per slice: inputs reach the board within this
MIRROR_AFTER_S = 0.3       # flash quiet this long: the files are copied to the folder
FILES = ("saved/game.txt", "saved/copy.txt", "saved/game.bad", "records.txt", "records.old",
         "settings.txt", "error.log", "log/events.txt", "resume.flag")


class PicoDevice:
    def __init__(self, sim, sim_dir, firmware=None):
        self.sim = sim
        self.sim_dir = sim_dir
        self.firmware = firmware
        self.inbox = queue.Queue()
        self.p = None
        self.thread = None
        self.stopping = threading.Event()
        self.speed = 0.0           # simulated ms per wall-clock ms over the last seconds
        self.contacts = []         # button / encoder pins in the emulator's contact order
        self.booted = False        # the power-on inputs are in (a language after it is news)
        self.said_lang = False

    # --- the Device interface ------------------------------------------------------------------
    def start(self):
        self.sim.set_status("booting", "building the firmware and starting the emulated Pico")
        self.thread = threading.Thread(target=self._main, daemon=True)
        self.thread.start()

    def send(self, obj):
        self.inbox.put(obj)

    def stop(self):
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(10)

    # --- the device thread ---------------------------------------------------------------------
    def _main(self):
        try:
            self.p = pico.Pico(flash=self._image(), firmware=self.firmware)
        except (pico.PicoError, OSError) as e:
            self.sim.set_status("stopped", "the emulated Pico did not start: %s" % e)
            return
        try:
            self.contacts = pico.board_wiring(self.p.cfg)["buttons"]
            self.send(self.sim.power_on_message())     # the board as it is at power-on
            self._inputs()
            self.booted = True
            self._run()
            self._mirror()         # the last save reaches the folder
        except pico.PicoError as e:
            if not self.stopping.is_set():
                self.sim.set_status("stopped", str(e))
        finally:
            self.p.close()

    def _image(self):
        files = {}
        for name in FILES:
            path = os.path.join(self.sim_dir, name)
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    files[name] = f.read()
        if self.sim.lang:                  # the language the board starts in (--lang)
            files["settings.txt"] = with_setting(files.get("settings.txt", b""), "language",
                                                 self.sim.lang)
        return board.firmware_image(board.build_firmware(), files=files,
                                    firmware=self.firmware)

    def _run(self):
        p = self.p
        seen = {"frames": 0, "ops": 0, "resets": 0}
        line = bytearray()
        wall0, sim0 = time.monotonic(), p.t
        rate_wall, rate_sim = wall0, p.t
        running = False
        dirty = 0.0                # wall time of a flash write not yet copied to the folder
        while not self.stopping.is_set():
            self._inputs()
            p.run_for(SLICE_MS)
            running = self._outputs(seen, line) or running
            ops = p.flash_ops(seen["ops"])
            if ops:
                seen["ops"] += len(ops)
                dirty = time.monotonic()
            elif dirty and time.monotonic() - dirty > MIRROR_AFTER_S:
                dirty = 0.0        # the saves of this step are done: copy once
                self._mirror()
            if running and self.sim.status != "running":
                self.sim.on_device({"run": 1})
            now = time.monotonic()
            ahead = (p.t - sim0) - (now - wall0) * 1000.0
            if ahead > 0:
                time.sleep(ahead / 1000.0)
            elif ahead < -200:     # behind: the board's time runs slower, no catching up
                wall0, sim0 = now, p.t
            if now - rate_wall >= 2.0:
                self.speed = (p.t - rate_sim) / ((now - rate_wall) * 1000.0)
                rate_wall, rate_sim = now, p.t
                self.sim.runtime["text"] = ("the emulated Pico (MicroPython v1.28, RP2040 port "
                                            "in rp2040js) at %.2f x real time" % self.speed)

    def _inputs(self):
        p = self.p
        while True:
            try:
                msg = self.inbox.get_nowait()
            except queue.Empty:
                return
            if msg.get("quit"):
                self.stopping.set()
                return
            if msg.get("lang") and self.booted and not self.said_lang:
                self.said_lang = True
                self.sim.console("[sim] the emulated Pico takes a language at power-on only "
                                 "(sim.py --lang); its menu sets it meanwhile")
            if msg.get("usb"):
                p.write(bytes.fromhex(msg["usb"]))
            occ = msg.get("occ")
            if occ is not None:
                p.set_squares(bytearray(1 if c == "1" else 0 for c in occ))
            for pin, level in msg.get("pins") or ():
                if pin in self.contacts:   # a released pin floats up to its pull: open
                    p.button(pico.BUTTONS[self.contacts.index(pin)], level == 0)

    def _outputs(self, seen, line):
        """Hand what the board did in the last slice to the Sim; True once the loop runs."""
        p = self.p
        frames = p.frames
        lit = bool(frames)
        if len(frames) > seen["frames"]:
            self.sim.on_device({"leds": frames[-1].raw.hex()})
        del frames[:-1]            # a long session must not keep every frame
        seen["frames"] = len(frames)
        if p.oled_writes:          # every write since the last slice, then forgotten
            addr = p.cfg["OLED_ADDR"]
            self.sim.on_device({"i2c": [[addr, data.hex()] for _, data in p.oled_writes]})
            del p.oled_writes[:]
        if p.serial:
            self.sim.on_device({"usb": bytes(p.serial).hex()})
        self._console(line, bytes(p.serial))
        del p.serial[:]
        for _, why in p.resets[seen["resets"]:]:
            self.sim.console("[board reset (%s): the firmware starts again]" % why)
            self.sim.restarted()
        seen["resets"] = len(p.resets)
        return lit

    def _console(self, line, data):
        for b in data:
            if b == 10:
                text = line.decode("utf-8", "replace").strip("\r")
                if not text.startswith("@"):      # (the protocol's lines: sim.usb_port)
                    self.sim.console(text)
                del line[:]
            else:
                line.append(b)

    def _mirror(self):
        """The board's files as they now are on its flash, copied to the simulator's folder
        (each replaced whole, so the page's file watcher never reads half a file)."""
        try:
            files = self.p.files()
        except Exception as e:     # a littlefs caught mid-write reads back as damaged
            self.sim.console("[could not read the board's flash: %s]" % e)
            return
        for name in FILES:
            path = os.path.join(self.sim_dir, name)
            data = files.get(name)
            if data is None:
                if os.path.exists(path):
                    os.remove(path)
                continue
            try:
                with open(path, "rb") as f:
                    if f.read() == data:
                        continue
            except OSError:
                pass
            os.makedirs(os.path.dirname(path), exist_ok=True)     # log/
            with open(path + ".new", "wb") as f:
                f.write(data)
            os.replace(path + ".new", path)


def with_setting(text, key, value):
    """settings.txt (bytes) with key=value in place of the key's line, sealed as the
    firmware writes it (files.py)."""
    import files
    lines = [ln for ln in text.decode("utf-8", "replace").split("\n")
             if ln and not ln.startswith(key + "=") and not ln.startswith(files.SEAL_TAG)]
    items = ["", "\n".join(lines + ["%s=%s" % (key, value)]) + "\n"]
    files.seal(items, 2, 0)
    return "".join(items).encode()
