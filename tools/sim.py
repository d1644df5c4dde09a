#!/usr/bin/env python3
"""Play Barragoon without a board: a browser simulator that runs the real firmware.

    python tools/sim.py [--port 8765] [--no-browser] [--dir build/sim] [--fresh]
                        [--replay FILE] [--rp2040 [--firmware UF2]] [--lang de|en|it|es]
                        [--usb-port 8766]

Serves a page on http://127.0.0.1:PORT/ with the virtual board: the 7x9 squares and their
pieces, each square's NeoPixel colour, the OLED pixel for pixel, the buttons (UP, DOWN, OK;
holding OK for 0.7 s is BACK), the Barragoon supply, the captured tiles and each player's hand.
Pick a piece up (it goes to a hand and the square's sensor opens), put it down, press the
buttons: the firmware does the rest, exactly as on the board.

How: this process (CPython) starts the MicroPython unix port running tools/simulator/device.py,
which runs firmware/app.py unchanged on the virtual hardware of tools/vboard. They talk JSON
lines over stdin/stdout: occupancy and button levels go in; the raw NeoPixel buffer and the raw
I2C writes come out and are decoded here (tools/vboard/decode.py) through config.py's LED chain
order and the SSD1306 page layout. The firmware keeps its files (game.txt, records.txt, settings.txt,
error.log) in the sim directory, so a game survives a restart like on the board.

This process keeps the physical pieces: which piece stands where, what each hand holds, the
supply. Sensors only see presence, so the faces of the Barragoons come from the firmware's saved
game: after every change of game.txt it is parsed with the rules core, and every Barragoon
standing where the saved game has one shows that face. A Barragoon just put down shows "?"
until its face is confirmed with OK.

--rp2040 runs the board on the emulated Pico instead (tools/simulator/pico_device.py):
MicroPython's own RP2040 port in rp2040js, the .mpy build that tools/deploy.py flashes, its files on littlefs in
emulated flash (copied to the sim directory after each save). It runs at 0.6 to 1.0 times real
time, so the board answers a little slower than a real one.

The page also explains itself: a legend of the LED colours (from the firmware's colour table,
in the palette chosen in the board's menu, read from its settings.txt) and of the 16 Barragoon
faces, and the rules (firmware/barragoon/RULES.md) on /rules.

Language: the page and the board speak German, English, Italian or Spanish (a choice in the
page's top right corner; tools/sim/text.json holds the page's texts). The page starts in the
language --lang names, else the board's saved one, else the one last chosen in this browser,
else the browser's own if it is one of the four, else English; its Rules link opens the
player's section of RULES.md in that language.

The board's USB console (its line protocol, controller/protocol.py) is a TCP port on 127.0.0.1
(--usb-port, default 8766): tools/watch.py --port socket://127.0.0.1:8766 watches the
simulated board, or lets a friend play one side of it, exactly as it does a real board.

Replay: --replay FILE (a game record, or records.txt with several games, e.g. read off the
board with `mpremote fs cp :records.txt .`) or a file uploaded on the page; step through it
forwards and backwards. Positions come from the rules core (barragoon.record.parse_record).
"""
import argparse
import html
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import threading
import time
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "tools", "sim")
FIRMWARE = os.path.join(ROOT, "firmware")
TOOLS = os.path.join(ROOT, "tools")
DEVICE = os.path.join(ROOT, "tools", "simulator", "device.py")
for _p in (TOOLS, FIRMWARE):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import config as fw  # noqa: E402  firmware/config.py (plain assignments)
from vboard import decode  # noqa: E402  tools/vboard/decode.py
import micropython_env  # noqa: E402
from simulator import rules_page  # noqa: E402
import storage as fw_storage  # noqa: E402  firmware/storage.py (reads settings.txt)
import files as fw_files  # noqa: E402  firmware/files.py
from barragoon.core import TILE, BROWN_BIT, FACES, RulesError  # noqa: E402
from barragoon.game import start_position, OPEN, CLOSED, VARIANTS  # noqa: E402
from barragoon.notation import square_name  # noqa: E402
from barragoon.record import parse_record, RESULTS  # noqa: E402
from toolkit.record_file import split_records  # noqa: E402  tools/toolkit/record_file.py
from toolkit import cli  # noqa: E402
from storage import GAME as SAVED_GAME  # noqa: E402  where the firmware saves the game
from controller.i18n import LANGUAGES  # noqa: E402  the board's languages

DEFAULT_PORT = 8765
DEFAULT_USB_PORT = 8766    # the board's USB console as a TCP port (--usb-port)
MIN_PRESS_MS = 80          # a click shorter than this is held this long (debounce is 20 ms)
STEP_MS = 40               # between pieces during "set up start position"
HEAP = 4 * 1024 * 1024     # MicroPython heap of the device process
MAX_RESETS = 5             # firmware restarts within RESET_WINDOW_S before giving up
RESET_WINDOW_S = 30
# What the firmware keeps on its flash (storage.py, app.py); --fresh removes only these.
BOARD_FILES = ("saved/game.txt", "saved/game.tmp", "saved/game.bad", "saved/copy.txt",
               "saved/copy.txt.tmp", "saved/copy.bad", "game.txt", "game.tmp",
               "game.bad", "records.txt", "settings.txt",
               "settings.txt.tmp", "error.log", "error.log.tmp", "resume.flag", "events.txt",
               "events.txt.tmp", "log/events.txt", "log/events.txt.tmp")
RULES = os.path.join(FIRMWARE, "barragoon", "RULES.md")


class _Looking(fw_files.HostFs):
    """The board's files as the page reads them: it only looks (a file the firmware would set
    aside is left where it is, for the firmware)."""

    def rename(self, a, b):
        raise OSError(1, "the page only reads the board's files")

    def remove(self, path):
        raise OSError(1, "the page only reads the board's files")


GAMES = os.path.join(TOOLS, "games")
STATIC = {"index.html": "text/html; charset=utf-8", "sim.js": "text/javascript; charset=utf-8",
          "watch.js": "text/javascript; charset=utf-8",
          "sim.css": "text/css; charset=utf-8", "screenshot.png": "image/png",
          "text.json": "application/json; charset=utf-8"}


def piece_of_code(c):
    """Rules-core cell code -> piece description (without id)."""
    if c & TILE:
        return {"kind": "tile", "side": 1 if c & BROWN_BIT else 0, "value": c & 7}
    return {"kind": "barragoon", "face": FACES[c - 1]}


# --- physical pieces ----------------------------------------------------------------------------
class Piece:
    def __init__(self, pid, kind, side=-1, value=0, face="X"):
        self.id = pid
        self.kind = kind
        self.side = side
        self.value = value
        self.face = face
        self.confirmed = True      # Barragoon: face known to match the firmware's game
        self.choosing = False      # Barragoon: its face is being chosen on the OLED
        self.origin = -1           # in a hand: the square it was lifted from (else -1)

    def json(self):
        d = {"id": self.id, "kind": self.kind}
        if self.kind == "tile":
            d["side"] = self.side
            d["value"] = self.value
        else:
            d["face"] = self.face
            d["confirmed"] = self.confirmed
            if self.choosing:
                d["choosing"] = True
        if self.origin >= 0:
            d["from"] = self.origin
        return d

    def matches(self, code):
        if self.kind == "tile":
            return bool(code & TILE) and (1 if code & BROWN_BIT else 0) == self.side \
                and code & 7 == self.value
        return 0 < code <= 16


class Physical:
    """Where every piece of one Barragoon set is: on a square, in a hand, in the box of
    captured tiles, or in the supply of Barragoons."""

    def __init__(self):
        self.board = [None] * 63
        self.hands = [[], []]
        self.box = []              # tiles out of play
        self.supply = []           # Barragoons beside the board
        self.selected = -1         # id of the hand piece to put down next
        self.last_put = -1         # id of the Barragoon put on the board last
        n = 0
        for side in (0, 1):
            for value, count in ((4, 2), (3, 3), (2, 2)):
                for _ in range(count):
                    self.box.append(Piece(n, "tile", side, value))
                    n += 1
        for _ in range(32):
            self.supply.append(Piece(n, "barragoon"))
            n += 1

    def on_board(self, pid):
        for p in self.board:
            if p is not None and p.id == pid:
                return p
        return None

    def occupancy(self):
        return "".join("0" if p is None else "1" for p in self.board)

    def find_hand(self, pid):
        for side in (0, 1):
            for p in self.hands[side]:
                if p.id == pid:
                    return side, p
        return -1, None

    def take_tile(self, side, value):
        for p in self.box:
            if p.side == side and p.value == value:
                self.box.remove(p)
                return p
        for h in self.hands:
            for p in h:
                if p.kind == "tile" and p.side == side and p.value == value:
                    h.remove(p)
                    return p
        return None

    def take_barragoon(self):
        if self.supply:
            return self.supply.pop()
        for h in self.hands:
            for p in h:
                if p.kind == "barragoon":
                    h.remove(p)
                    return p
        return None

    def put_away(self, p):
        p.origin = -1
        if p.kind == "tile":
            self.box.append(p)
        else:
            p.face = "X"
            p.confirmed = True
            p.choosing = False
            self.supply.append(p)

    def clear(self):
        for sq in range(63):
            if self.board[sq] is not None:
                self.put_away(self.board[sq])
                self.board[sq] = None
        for h in self.hands:
            while h:
                self.put_away(h.pop())
        self.selected = -1

    def arrange(self, pos, pending=()):
        """Pieces as in a rules-core position; Barragoons still to place go to the hands."""
        self.clear()
        for sq in range(63):
            c = pos.get(sq)
            if not c:
                continue
            if c & TILE:
                p = self.take_tile(1 if c & BROWN_BIT else 0, c & 7)
            else:
                p = self.take_barragoon()
                if p is not None:
                    p.face = FACES[c - 1]
            if p is not None:
                self.board[sq] = p
        for side in pending:
            p = self.take_barragoon()
            if p is not None:
                self.hands[side].append(p)


# --- replay -------------------------------------------------------------------------------------
def action_tokens(text):
    out = []
    for raw in text.split("\n"):
        line = raw.strip()
        if not line or line.startswith("["):
            continue
        for t in line.split():
            if t in RESULTS or t == "*" or (t[0].isdigit() and t.endswith(".")):
                continue
            out.append(t)
    return out


def snapshot(g):
    board = []
    for sq in range(63):
        c = g.pos.get(sq)
        board.append(piece_of_code(c) if c else None)
    return {"board": board, "side": g.pos.side, "supply": g.pos.supply,
            "placing": g.placing(), "over": g.over, "winner": g.winner, "reason": g.reason}


def replay_game(text):
    """Every position of one record: {"tags", "steps": [{label, squares, number, side,
    ...position}]} (step 0 = the start), or {"error"}."""
    tags = {}
    for raw in text.split("\n"):
        line = raw.strip()
        if line.startswith("[") and '"' in line:
            name = line[1:].split(" ", 1)[0]
            tags[name] = line.split('"', 1)[1].rsplit('"', 1)[0]
    tokens = action_tokens(text)
    error = ""
    try:
        g = parse_record(text)
    except RulesError as e:
        # Replay what is sound: the longest prefix of the actions that the rules accept
        # (without the Result tag, which only the whole game can satisfy).
        error = str(e)
        head = "\n".join(line for line in text.split("\n") if line.strip().startswith("[")
                         and not line.strip().startswith("[Result"))

        def prefix(k):
            try:
                return parse_record(head + "\n\n" + " ".join(tokens[:k]) + "\n")
            except RulesError:
                return None

        if prefix(0) is None:
            return {"tags": tags, "error": error, "steps": []}
        lo, hi = 0, len(tokens)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if prefix(mid) is not None:
                lo = mid
            else:
                hi = mid - 1
        tokens = tokens[:lo]
        g = prefix(lo)
    n = len(g.actions)
    if len(tokens) != n:
        tokens = ["action %d" % (i + 1) for i in range(n)]
    snaps = [None] * (n + 1)
    snaps[n] = snapshot(g)
    for i in range(n - 1, -1, -1):
        g.undo()
        snaps[i] = snapshot(g)
    side = g.start.side
    number = 1
    snaps[0].update({"label": "start", "squares": [], "number": 0, "mover": -1,
                     "starts_turn": False})
    for i, t in enumerate(tokens):
        s = snaps[i + 1]
        squares = []
        starts = False
        if "=" in t:
            squares = [t[:2]]
        elif t[0] != "(" and len(t) == 5:
            squares = [t[:2], t[3:]]
            starts = True
        if starts and i > 0:
            side ^= 1
            if side == g.start.side:
                number += 1
        s.update({"label": t, "squares": squares, "number": number, "mover": side,
                  "starts_turn": starts})
    result = snaps[n]
    return {"tags": tags, "steps": snaps, "error": error,
            "result": RESULTS[result["winner"]] if result["over"] else "*"}


# --- face bitmaps (the firmware's own drawing code) --------------------------------------------
def face_bitmaps(size=24):
    import vboard
    vboard.install_framebuf()          # MicroPython's framebuf, or the CPython stand-in
    import framebuf
    from controller import screens
    out = {}
    for i, name in enumerate(FACES):
        buf = bytearray(size * ((size + 7) // 8))
        fb = framebuf.FrameBuffer(buf, size, size, framebuf.MONO_VLSB)
        screens.face_icon(fb, 0, 0, i + 1, size)
        out[name] = ["".join(str(fb.pixel(x, y)) for x in range(size)) for y in range(size)]
    return {"size": size, "faces": out}


# --- the LED colours (the firmware's own table) ------------------------------------------------
PATTERN_NAMES = ("steady", "pulse", "blink", "flash")


def led_legend():
    """Every LED meaning of controller/colours.py with its time pattern, and its colour in
    each palette: what the page's legend shows. A pattern's period comes from colours.phase
    (the bit it toggles), a pulse's low level from colours.dimmed."""
    from controller import colours as C
    periods = {}
    for name, bit in (("pulse", 1), ("blink", 2), ("flash", 4)):
        half = next(t for t in range(1, 10000) if C.phase(t) & bit)
        periods[name] = 2 * half
    full = C.PALETTES[0][3 * C.MOVE:3 * C.MOVE + 3]
    low = C.dimmed(full)
    return {
        "meanings": [{"key": C.name(m), "pattern": PATTERN_NAMES[C.PATTERN[m]]}
                     for m in range(C.COUNT)],
        "palettes": [{"name": C.PALETTE_NAMES[i],
                      "colours": [list(C.colour(pal, m)) for m in range(C.COUNT)]}
                     for i, pal in enumerate(C.PALETTES)],
        "period_ms": periods,
        "pulse_low": max(low) / max(full),
    }


# --- the firmware process ------------------------------------------------------------------------
class Device:
    """The firmware process: tools/simulator/device.py on the MicroPython unix port, or on this
    Python when there is none (micropython=None)."""

    def __init__(self, sim, sim_dir, micropython, enabled=True):
        self.sim = sim
        self.sim_dir = sim_dir
        self.mp = micropython
        self.enabled = enabled
        self.proc = None
        self.wlock = threading.Lock()
        self.stopping = False
        self.resets = []

    def command(self):
        if self.mp is None:
            return [sys.executable, "-u", DEVICE, FIRMWARE, TOOLS, self.sim_dir]
        return [self.mp, "-X", "heapsize=%d" % HEAP, DEVICE, FIRMWARE, TOOLS, self.sim_dir]

    def start(self):
        if not self.enabled:
            self.sim.set_status("stopped", "no firmware process")
            return
        # A session of its own: Ctrl-C in the terminal reaches this process only, which then
        # stops the firmware in order (stop()).
        if os.name == "nt":
            apart = {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
        else:
            apart = {"start_new_session": True}
        self.proc = subprocess.Popen(self.command(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     bufsize=1, cwd=self.sim_dir, **apart)
        self.sim.set_status("booting", "")
        self.send(self.sim.power_on_message())
        threading.Thread(target=self._read, args=(self.proc,), daemon=True).start()
        threading.Thread(target=self._read_err, args=(self.proc,), daemon=True).start()

    def send(self, obj):
        p = self.proc
        if p is None:
            return
        with self.wlock:
            try:
                p.stdin.write(json.dumps(obj) + "\n")
                p.stdin.flush()
            except (BrokenPipeError, ValueError, OSError):
                pass

    def _read_err(self, proc):
        for line in proc.stderr:
            self.sim.console(line.rstrip("\n"))

    def _read(self, proc):
        for line in proc.stdout:
            if line.startswith("{"):
                try:
                    msg = json.loads(line)
                except ValueError:
                    self.sim.console(line.rstrip("\n"))
                    continue
                self.sim.on_device(msg)
            else:
                self.sim.console(line.rstrip("\n"))
        rc = proc.wait()
        if self.stopping or proc is not self.proc:
            return
        if rc == 3:
            now = time.time()
            self.resets = [t for t in self.resets if now - t < RESET_WINDOW_S] + [now]
            if len(self.resets) > MAX_RESETS:
                self.sim.set_status("stopped", "the firmware restarted %d times in %d s: "
                                    "see error.log" % (MAX_RESETS, RESET_WINDOW_S))
                return
            self.sim.console("[board reset: starting the firmware again]")
            self.sim.restarted()
            self.start()
        else:
            self.sim.set_status("stopped", "the firmware process ended (exit status %s)" % rc)

    def stop(self):
        self.stopping = True
        p = self.proc
        if p is None:
            return
        self.send({"quit": 1})
        try:
            p.stdin.close()
        except OSError:
            pass
        try:
            p.wait(3)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


class UsbConsole:
    """The simulated board's USB console as a TCP port on 127.0.0.1 (like a serial port: one
    program at a time). Bytes from it go to the firmware ({"usb": hex}); the firmware's go
    to it. A program that does not read loses bytes after USB_HELD, as on the board."""
    USB_HELD = 1 << 16

    def __init__(self, device, port):
        import socket
        self.device = device
        self.client = None
        self.lock = threading.Lock()
        self.pending = bytearray()
        self.wake = threading.Condition(self.lock)
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", port))
        self.server.listen(2)
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()
        threading.Thread(target=self._send, daemon=True).start()

    def address(self):
        return "socket://127.0.0.1:%d" % self.port

    def _accept(self):
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with self.lock:
                if self.client is not None:       # the port is taken
                    conn.close()
                    continue
                self.client = conn
                self.pending = bytearray()
            threading.Thread(target=self._receive, args=(conn,), daemon=True).start()

    def _receive(self, conn):
        while True:
            try:
                data = conn.recv(4096)
            except OSError:
                data = b""
            if not data:
                break
            self.device.send({"usb": data.hex()})
        with self.lock:
            if self.client is conn:
                self.client = None
        conn.close()

    def from_board(self, data):
        with self.lock:
            if self.client is None:
                return                        # nobody listens: gone, as on the board
            if len(self.pending) + len(data) <= self.USB_HELD:
                self.pending += data
                self.wake.notify()

    def _send(self):
        while True:
            with self.lock:
                while not self.pending or self.client is None:
                    self.wake.wait()
                data, conn = bytes(self.pending), self.client
                self.pending = bytearray()
            try:
                conn.sendall(data)
            except OSError:
                pass

    def close(self):
        try:
            self.server.close()
        except OSError:
            pass


# --- the simulator: physical model + firmware outputs -------------------------------------------
class Sim:
    """micropython: the unix port to run the firmware on, None for CPython; firmware=False
    (tests of the model alone) starts no firmware process."""

    def __init__(self, sim_dir, micropython, firmware=True):
        self.dir = sim_dir
        self.lock = threading.RLock()
        self.cond = threading.Condition(self.lock)
        self.version = 0
        self.phys = Physical()
        self.active = 0
        self.leds = [[0, 0, 0] for _ in range(63)]
        self.led_frames = 0
        self.oled = decode.Oled()
        self.oled_rows = self.oled.rows_hex()
        self.oled_writes = 0
        self.picker = None         # decode.FaceReader for the face picker (made on first use)
        self.buzzer = [0, 0]
        self.status = "stopped"
        self.status_text = ""
        self.log = []
        self.saved = None          # the firmware's saved game (parsed game.txt) or None
        self.saved_text = ""
        self.saved_problem = ""
        self._saved_stat = None
        self.records = 0
        self._records_stat = None
        self.palette = 0           # the LED palette the firmware uses (its settings.txt)
        self._settings_stat = None
        self.busy = ""             # a scripted action in progress ("set up")
        self.board_state = None    # what the board is doing, as its firmware says ({"board"})
        self.lang = ""             # the board's language: saved in its settings.txt, or sent to it
                                   # ("" until the board has one of its own)
        self.replay = {"name": "", "games": [], "version": 0}
        self.input_type = getattr(fw, "INPUT_TYPE", "buttons")
        self.pins = {}             # pin -> level driven from outside
        self.press_t = {}
        self.enc_ab = 3
        self.device = Device(self, sim_dir, micropython, firmware)
        self.usb = None            # UsbConsole: the board's USB console as a TCP port
        # What runs the firmware; main() fills in the words shown on the page.
        self.runtime = {"name": "micropython" if micropython else "cpython", "text": ""}
        self._stop = threading.Event()
        self._load_saved(True)
        self._load_settings()
        if self.saved is not None:
            self.phys.arrange(self.saved.pos, self.saved.pending if not self.saved.over else ())
            self._sync_faces()
            self._auto_active()

    # --- life cycle ------------------------------------------------------------------------
    def start(self):
        self.device.start()
        threading.Thread(target=self._watch_files, daemon=True).start()

    def stop(self):
        self._stop.set()
        self.device.stop()
        if self.usb is not None:
            self.usb.close()

    def changed(self):
        with self.cond:
            self.version += 1
            self.cond.notify_all()

    def power_on_message(self):
        with self.lock:
            pins = [[p, v] for p, v in self.pins.items()]
            msg = {"occ": self.phys.occupancy(), "pins": pins}
            if self.lang:
                msg["lang"] = self.lang        # (the board leaves its own language alone)
            return msg

    def restarted(self):
        with self.lock:
            self.oled = decode.Oled()
            self.oled_rows = self.oled.rows_hex()
        self.changed()

    # --- from the firmware -----------------------------------------------------------------
    def set_status(self, status, text):
        with self.lock:
            self.status = status
            self.status_text = text
        if text:
            self.console("[%s] %s" % (status, text))
        self.changed()

    def console(self, line):
        with self.lock:
            self.log.append(line)
            del self.log[:-200]
        self.changed()

    def on_device(self, msg):
        with self.lock:
            if "leds" in msg:
                raw = bytes.fromhex(msg["leds"])
                self.leds = [list(c) for c in decode.decode_leds(
                    raw, fw.LED_WIRING, fw.LED_START, fw.LED_RUNS)]
                self.led_frames += 1
            if "i2c" in msg:
                for addr, data in msg["i2c"]:
                    if addr == fw.OLED_ADDR:
                        self.oled.write(bytes.fromhex(data))
                        self.oled_writes += 1
                self.oled_rows = self.oled.rows_hex()
                self._show_face_being_chosen()
            if "pwm" in msg:
                self.buzzer = msg["pwm"]
            if "board" in msg:
                self.board_state = msg["board"]
            if "usb" in msg:
                if self.usb is not None:
                    self.usb.from_board(bytes.fromhex(msg["usb"]))
                if len(msg) == 1:
                    return                 # (nothing the page shows changed)
            if "run" in msg:
                self.status = "running"
                self.status_text = ""
            if "halt" in msg:
                self.status = "halted"
                self.status_text = msg["halt"]
            if "reset" in msg:
                self.status = "reset"
        self.changed()

    def _show_face_being_chosen(self):
        """While the OLED shows the face picker, the Barragoon put down last shows the face
        on the picker (sensors see no faces; the OLED says which one the player is at)."""
        if self.picker is None:
            from controller import screens
            x, y, size = screens.PICKER_ICON
            self.picker = decode.FaceReader(face_bitmaps(size)["faces"], x, y)
        face = self.picker.read(self.oled)
        ph = self.phys
        for p in ph.board:
            if p is not None and p.choosing and (face is None or p.id != ph.last_put):
                p.choosing = False
        p = ph.on_board(ph.last_put)
        if face is not None and p is not None and p.kind == "barragoon" and not p.confirmed:
            p.face = face
            p.choosing = True

    # --- the saved game --------------------------------------------------------------------
    def _stat(self, name):
        try:
            st = os.stat(os.path.join(self.dir, name))
            return (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            return None

    def _load_saved(self, force=False):
        st = self._stat(SAVED_GAME)
        if st == self._saved_stat and not force:
            return False
        self._saved_stat = st
        text = ""
        if st is not None:
            try:
                with open(os.path.join(self.dir, SAVED_GAME)) as f:
                    text = f.read()
            except OSError:
                text = ""
        self.saved_text = text
        self.saved = None
        self.saved_problem = ""
        if text.strip():
            try:
                self.saved = parse_record(text)
            except RulesError as e:
                self.saved_problem = str(e)
        return True

    def _watch_files(self):
        while not self._stop.wait(0.1):
            with self.lock:
                if self._load_saved():
                    self._sync_faces()
                    self._auto_active()
                    self.version += 1
                if self._load_settings():
                    self.version += 1
                st = self._stat("records.txt")
                if st != self._records_stat:
                    self._records_stat = st
                    self.records = len(split_records(self._read("records.txt")))
                    self.version += 1
                self.cond.notify_all()

    def _load_settings(self):
        """Follow the palette and the language chosen in the board's menu: the firmware saves
        them in settings.txt at once and reads them from there at power-on. True if one
        changed. (Only a changed file counts: a language the page has just sent stays until
        the board has saved it.)"""
        st = self._stat(fw_storage.SETTINGS)
        if st == self._settings_stat:
            return False
        self._settings_stat = st
        saved = fw_storage.Storage(os.path.join(self.dir, ""), _Looking())
        palette = saved.load_palette()
        lang = saved.load_language("", LANGUAGES) or self.lang
        changed = palette != self.palette or lang != self.lang
        self.palette = palette
        self.lang = lang
        return changed

    def _read(self, name):
        try:
            with open(os.path.join(self.dir, name)) as f:
                return f.read()
        except OSError:
            return ""

    def _sync_faces(self):
        g = self.saved
        if g is None:
            return
        for sq in range(63):
            p = self.phys.board[sq]
            if p is None or p.kind != "barragoon":
                continue
            c = g.pos.get(sq)
            if 0 < c <= 16:
                p.face = FACES[c - 1]
                p.confirmed = True
                p.choosing = False
            else:
                p.confirmed = False

    def _auto_active(self):
        g = self.saved
        if g is not None and not g.over:
            self.active = g.placing() if g.placing() >= 0 else g.pos.side

    def in_progress(self):
        """A game with a turn played and no result is saved: a new one would end it."""
        g = self.saved
        return g is not None and not g.over and not g.unfinished and bool(g.last_turn_text())

    def game_info(self):
        g = self.saved
        if g is None:
            return {"exists": False, "problem": self.saved_problem}
        return {"exists": True, "side": g.pos.side, "placing": g.placing(), "over": g.over,
                "winner": g.winner, "reason": g.reason, "last": g.last_turn_text(),
                "supply": g.pos.supply, "turns": g.turn_texts(), "record": self.saved_text,
                "problem": "", "in_progress": self.in_progress()}

    # --- physical actions (the page's clicks) ------------------------------------------------
    def _occupancy_changed(self):
        self.device.send({"occ": self.phys.occupancy()})
        self._sync_faces()

    def set_language(self, code):
        """The language of the page and the board: an error text or ""."""
        if code not in LANGUAGES:
            return "not a language of the board: %r (%s)" % (code, ", ".join(LANGUAGES))
        with self.lock:
            self.lang = code
        self.device.send({"lang": code})
        self.changed()
        return ""

    def act(self, op, a):
        """One action from the page. Returns an error text or ""."""
        with self.lock:
            if self.busy and op not in ("press", "release", "back", "replay_step", "language"):
                return "wait: " + self.busy
            ph = self.phys
            err = ""
            if op == "lift":
                sq = int(a["sq"])
                p = ph.board[sq]
                if p is None:
                    return "%s is empty" % square_name(sq)
                # A tile goes into its owner's hand (a captured tile too: the captor puts it
                # aside); a Barragoon into the hand of the player at turn.
                side = p.side if p.kind == "tile" else self.active
                side = int(a.get("hand", side))
                ph.board[sq] = None
                p.choosing = False
                p.origin = sq
                ph.hands[side].append(p)
                # The next click puts down the tile of the player at turn, whichever order
                # the pieces of a capture were lifted in (a Barragoon lifted first goes into
                # the same hand: it is not the one to put down).
                sel = ph.find_hand(ph.selected)[1]
                if sel is None or (p.kind == "tile" and p.side == self.active):
                    ph.selected = p.id
                self._occupancy_changed()
            elif op == "put":
                sq = int(a["sq"])
                if ph.board[sq] is not None:
                    return "%s is occupied" % square_name(sq)
                p = self._hand_piece(a.get("id"))
                if p is None:
                    return "no piece in hand"
                side, _ = ph.find_hand(p.id)
                ph.hands[side].remove(p)
                if p.kind == "barragoon":
                    p.confirmed = False
                    ph.last_put = p.id
                p.origin = -1
                ph.board[sq] = p
                ph.selected = -1
                self._occupancy_changed()
            elif op == "language":
                return self.set_language(a.get("code"))
            elif op == "select":
                side, p = ph.find_hand(int(a["id"]))
                if p is None:
                    return "not in a hand"
                ph.selected = p.id
            elif op == "put_away":
                side, p = ph.find_hand(int(a["id"]))
                if p is None:
                    return "not in a hand"
                ph.hands[side].remove(p)
                ph.put_away(p)
                if ph.selected == p.id:
                    ph.selected = -1
            elif op == "take_supply":
                if not ph.supply:
                    return "the supply is empty"
                p = ph.supply.pop()
                p.confirmed = False
                ph.hands[int(a.get("hand", self.active))].append(p)
                ph.selected = p.id
            elif op == "take_box":
                pid = int(a["id"])
                for p in ph.box:
                    if p.id == pid:
                        ph.box.remove(p)
                        ph.hands[int(a.get("hand", self.active))].append(p)
                        ph.selected = p.id
                        break
                else:
                    return "not among the captured tiles"
            elif op == "active":
                self.active = int(a["side"]) & 1
            elif op == "clear":
                ph.clear()
                self._occupancy_changed()
            elif op == "setup":
                variant = OPEN if a.get("variant") == "open" else CLOSED
                if self.in_progress():
                    if not a.get("new_game"):
                        return "a game is in progress: set up a new one from the page's " \
                               "question or the board's menu"
                    if self.runtime["name"] == "rp2040":
                        return "a game is in progress: end it in the board's menu (New game)"
                    self.device.send({"new_game": VARIANTS[variant]})
                self.busy = "setting up"
                threading.Thread(target=self._setup, args=(variant,), daemon=True).start()
            elif op in ("press", "release", "back"):
                err = self._button(op, a.get("button", "ok"))
            elif op == "replay_load":
                err = self.load_replay(a.get("text", ""), a.get("name", "upload"))
            elif op == "replay_current":
                text = self.saved_text or ""
                recs = split_records(self._read("records.txt"))
                if text.strip():
                    err = self.load_replay(text, "game in progress")
                elif recs:
                    err = self.load_replay(recs[-1], "last finished game")
                else:
                    err = "no game played yet"
            else:
                return "unknown action %r" % op
        self.changed()
        return err

    def _hand_piece(self, pid):
        ph = self.phys
        if pid is not None:
            return ph.find_hand(int(pid))[1]
        if ph.selected >= 0:
            p = ph.find_hand(ph.selected)[1]
            if p is not None:
                return p
        for side in (self.active, 1 - self.active):
            if ph.hands[side]:
                return ph.hands[side][0]
        return None

    def _next_id(self):
        """Id of the hand piece a click on an empty square puts down, or -1."""
        p = self._hand_piece(None)
        return -1 if p is None else p.id

    def _setup(self, variant):
        """Clear the board, then set the start pieces one by one, as a player would."""
        try:
            with self.lock:
                ph = self.phys
                for sq in range(63):
                    if ph.board[sq] is not None:
                        ph.put_away(ph.board[sq])
                        ph.board[sq] = None
                self._occupancy_changed()
            self.changed()
            time.sleep(STEP_MS / 1000)
            pos = start_position(variant)
            order = [sq for sq in range(63) if pos.get(sq) & TILE] + \
                    [sq for sq in range(63) if 0 < pos.get(sq) <= 16]
            for sq in order:
                with self.lock:
                    c = pos.get(sq)
                    if c & TILE:
                        p = self.phys.take_tile(1 if c & BROWN_BIT else 0, c & 7)
                    else:
                        p = self.phys.take_barragoon()
                        if p is not None:
                            p.face = FACES[c - 1]
                            p.confirmed = True
                    if p is None or self.phys.board[sq] is not None:
                        continue
                    self.phys.board[sq] = p
                    self.device.send({"occ": self.phys.occupancy()})
                self.changed()
                time.sleep(STEP_MS / 1000)
            with self.lock:
                self.phys.selected = -1
                self.active = 0
        finally:
            with self.lock:
                self.busy = ""
            self.changed()

    # --- buttons ---------------------------------------------------------------------------
    def _set_pin(self, pin, level):
        self.pins[pin] = level
        self.device.send({"pins": [[pin, level]]})

    def _button(self, op, name):
        if name not in ("up", "down", "ok"):
            return "unknown button %r" % name
        enc = self.input_type == "encoder"
        pins = fw.ENCODER_PINS if enc else fw.BUTTON_PINS
        if enc and name != "ok":
            if op == "press":
                threading.Thread(target=self._encoder_detent, args=(pins, name == "down"),
                                 daemon=True).start()
            return ""
        pin = pins[("up", "down", "ok").index(name)]
        if op == "press":
            self.press_t[name] = time.monotonic()
            self._set_pin(pin, 0)
        elif op == "release":
            held = (time.monotonic() - self.press_t.get(name, 0)) * 1000
            if held >= MIN_PRESS_MS:
                self._set_pin(pin, 1)
            else:
                threading.Timer((MIN_PRESS_MS - held) / 1000, self._release_later,
                                args=(pin,)).start()
        else:                       # back: hold OK past the long-press time
            self._set_pin(pin, 0)
            threading.Timer((getattr(fw, "LONG_PRESS_MS", 700) + 150) / 1000,
                            self._release_later, args=(pin,)).start()
        return ""

    def _release_later(self, pin):
        with self.lock:
            self._set_pin(pin, 1)
        self.changed()

    def _encoder_detent(self, pins, clockwise):
        # Quadrature A,B clockwise: 11 -> 01 -> 00 -> 10 -> 11; one detent is
        # ENCODER_DETENT_STEPS steps of that cycle.
        cycle = (3, 1, 0, 2)
        steps = getattr(fw, "ENCODER_DETENT_STEPS", 4)
        for _ in range(steps):
            i = cycle.index(self.enc_ab)
            self.enc_ab = cycle[(i + (1 if clockwise else -1)) % 4]
            with self.lock:
                self.device.send({"pins": [[pins[0], self.enc_ab >> 1],
                                           [pins[1], self.enc_ab & 1]]})
            time.sleep(0.012)

    # --- replay ----------------------------------------------------------------------------
    def load_replay(self, text, name):
        games = [replay_game(t) for t in split_records(text)]
        if not games:
            return "no game record in %s" % name
        self.replay = {"name": name, "games": games, "version": self.replay["version"] + 1}
        return ""

    # --- the page's model ------------------------------------------------------------------
    def state(self):
        with self.lock:
            ph = self.phys
            return {
                "version": self.version,
                "device": {"status": self.status, "text": self.status_text,
                           "led_frames": self.led_frames, "oled_writes": self.oled_writes,
                           "runtime": self.runtime["name"],
                           "runtime_text": self.runtime["text"]},
                "board": [None if p is None else p.json() for p in ph.board],
                "leds": self.leds,
                "oled": {"on": self.oled.on, "inverse": self.oled.inverse,
                         "contrast": self.oled.contrast, "width": self.oled.width,
                         "height": self.oled.height, "rows": self.oled_rows},
                "hands": [[p.json() for p in h] for h in ph.hands],
                "selected": ph.selected,
                "next": self._next_id(),
                "active": self.active,
                "supply": len(ph.supply),
                "box": [p.json() for p in ph.box],
                "buzzer": self.buzzer,
                "pins": {str(k): v for k, v in self.pins.items()},
                "busy": self.busy,
                "ctl": self.board_state,
                "game": self.game_info(),
                "records": self.records,
                "log": self.log[-60:],
                "replay_version": self.replay["version"],
                "palette": self.palette,
                "lang": self.lang,
                "config": {"led_wiring": [fw.LED_WIRING, fw.LED_START, fw.LED_RUNS],
                           "input": self.input_type,
                           "long_press_ms": getattr(fw, "LONG_PRESS_MS", 700)},
            }


# --- HTTP --------------------------------------------------------------------------------------
def page_texts(lang):
    """The page's texts in the language lang (tools/sim/text.json), English for another."""
    with open(os.path.join(WEB, "text.json"), encoding="utf-8") as f:
        texts = json.load(f)
    return texts.get(lang) or texts["en"]


def rules_html(lang="en"):
    """RULES.md as a page, its line on top in the page's language lang; its links to the
    example games go to /games/NAME."""
    with open(RULES, encoding="utf-8") as f:
        text = f.read()
    served = {"tools/games/" + n: "/games/" + n for n in game_files()}
    words = page_texts(lang)
    if lang not in LANGUAGES:
        lang = "en"
    top = ('%s &middot; %s (<code>firmware/barragoon/RULES.md</code>) &middot; '
           '<a href="/rules.md">%s</a>' % tuple(html.escape(words[k]) for k in (
               "pageTitle", "rulesOf", "rulesPlain")))
    return rules_page.page(text, top, rules_page.file_link(os.path.dirname(RULES), ROOT,
                                                           served), lang)


def game_files():
    try:
        return sorted(n for n in os.listdir(GAMES) if n.endswith(".txt"))
    except OSError:
        return []


class Handler(BaseHTTPRequestHandler):
    sim = None
    faces = None
    leds = None
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def handle(self):
        # A page closed or reloaded while its answer is written: nothing to report (the server
        # would print a traceback for it).
        try:
            BaseHTTPRequestHandler.handle(self)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _send(self, code, body, ctype="application/json"):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, obj, code=200):
        self._send(code, json.dumps(obj))

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/":
            path = "/index.html"
        name = path[1:]
        if name in STATIC:
            try:
                with open(os.path.join(WEB, name), "rb") as f:
                    self._send(200, f.read(), STATIC[name])
            except OSError:
                self._send(404, "not found", "text/plain")
        elif path == "/api/state":
            self._json(self.sim.state())
        elif path == "/api/faces":
            self._json(self.faces)
        elif path == "/api/leds":
            self._json(self.leds)
        elif path == "/rules":
            query = parse_qs(self.path.partition("?")[2])
            self._send(200, rules_html(query.get("lang", ["en"])[0]),
                       "text/html; charset=utf-8")
        elif path == "/rules.md":
            with open(RULES, "rb") as f:
                self._send(200, f.read(), "text/plain; charset=utf-8")
        elif path.startswith("/games/") and path[7:] in game_files():
            with open(os.path.join(GAMES, path[7:]), "rb") as f:
                self._send(200, f.read(), "text/plain; charset=utf-8")
        elif path == "/api/replay":
            self._json(self.sim.replay)
        elif path == "/api/events":
            self._events()
        else:
            self._send(404, "not found", "text/plain")

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        n = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(n) or b"{}")
        except ValueError:
            return self._json({"ok": False, "error": "bad JSON"}, 400)
        if path != "/api/action" or not isinstance(body, dict):
            return self._send(404, "not found", "text/plain")
        try:
            err = self.sim.act(body.get("op", ""), body)
        except (KeyError, ValueError, TypeError, IndexError) as e:
            err = "bad action: %s" % e
        self._json({"ok": not err, "error": err})

    def _events(self, model=None, live=None):
        """The model (sim.state(), or model()) as server-sent events whenever it changed, while
        live() holds (tools/watch.py: while the page's access stands)."""
        sim = self.sim
        model = model or sim.state
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        last = -1
        try:
            while not sim._stop.is_set():
                with sim.cond:
                    sim.cond.wait_for(lambda: sim.version != last or sim._stop.is_set(), 15)
                    v = sim.version
                if live is not None and not live():
                    return
                if v == last:
                    self.wfile.write(b": ping\n\n")
                    self.wfile.flush()
                    continue
                last = v
                data = json.dumps(model())
                self.wfile.write(("data: %s\n\n" % data).encode())
                self.wfile.flush()
                time.sleep(0.02)       # at most ~50 updates a second
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass


def port_number(text):
    """argparse type: a TCP port (0 = any free one)."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError("%r is not a port number (0..65535)" % text)
    return n


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="sim.py", description=__doc__.split("\n\n")[0],
        epilog="Without a MicroPython unix port (see python tools/micropython_env.py) the "
               "firmware runs on CPython, and the simulator says so.")
    ap.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                    help="port on 127.0.0.1 (default %d; 0 = any free port)" % DEFAULT_PORT)
    ap.add_argument("--no-browser", action="store_true", help="do not open a browser")
    ap.add_argument("--dir", default=os.path.join(ROOT, "build", "sim"),
                    help="the simulated board's flash: game.txt, records.txt, settings.txt "
                         "(default build/sim)")
    ap.add_argument("--fresh", action="store_true",
                    help="forget the saved game, records and settings in --dir first")
    ap.add_argument("--replay", metavar="FILE",
                    help="a game record or records.txt to step through")
    ap.add_argument("--rp2040", action="store_true",
                    help="run the firmware on the emulated Pico (rp2040js, Node.js) instead "
                         "of the unix port")
    ap.add_argument("--firmware", metavar="UF2",
                    help="with --rp2040: the MicroPython v1.28 UF2 for RPI_PICO (default "
                         "$BARRAGOON_PICO_UF2; tools/README.md says where to get it)")
    ap.add_argument("--lang", metavar="CODE",
                    help="the language of the page and the board's screen: de (Deutsch), en "
                         "(English), it (Italiano) or es (Español); default: the board's saved "
                         "language, else the browser's")
    ap.add_argument("--usb-port", type=port_number, default=DEFAULT_USB_PORT, metavar="N",
                    help="the board's USB console (its line protocol, for tools/watch.py) on "
                         "this TCP port of 127.0.0.1 (default %d; 0 = any free port)"
                    % DEFAULT_USB_PORT)
    ap.add_argument("--micropython", metavar="PATH",
                    help="the MicroPython unix port to run the firmware on (default: "
                         "$MICROPYTHON, the venv's, or micropython on PATH; none: CPython)")
    return ap.parse_args(argv)


class UserError(Exception):
    """A mistake in the command line or its files: one line, exit status 2."""


def choose_micropython(arg):
    """(path or None for CPython, what runs the firmware, in words)."""
    if arg:
        mp = shutil.which(arg)
        if mp is None:
            raise UserError("--micropython %s: not an executable file" % arg)
        return mp, "the MicroPython unix port %s" % mp
    mp, why = micropython_env.locate()
    if mp is None and os.environ.get("MICROPYTHON", "").strip() and not micropython_env.hidden():
        raise UserError(why + " (unset it to run the firmware on CPython)")
    if mp is None:
        return None, ("CPython %s, because there is no MicroPython unix port (%s). Same "
                      "firmware code; timing and memory differ from the board's"
                      % (platform.python_version(), why))
    return mp, "the MicroPython unix port %s" % mp


def board_dir(path, fresh):
    d = os.path.abspath(path)
    if os.path.exists(d) and not os.path.isdir(d):
        raise UserError("--dir %s: not a directory" % path)
    try:
        os.makedirs(d, exist_ok=True)
    except OSError as e:
        raise UserError("--dir %s: %s" % (path, e.strerror or e))
    if fresh:
        for name in BOARD_FILES:
            try:
                os.remove(os.path.join(d, name))
            except OSError:
                pass
    return d


def read_record_file(path):
    """The text of a game record file, or UserError naming what is wrong with it."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise UserError("--replay %s: %s" % (path, e.strerror or e))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError("--replay %s: not a text file (a game record is text: tag lines "
                        "and moves)" % path)


def open_browser(url):
    """Open the page in the user's browser; '' or a sentence saying why not."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd")) and \
            not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        # No desktop: webbrowser would start a text browser in this terminal.
        return "no desktop here to open a browser on: open %s in a browser" % url
    try:
        ok = webbrowser.open(url)
    except webbrowser.Error:
        ok = False
    return "" if ok else "no web browser found: open %s in a browser" % url


def _stop_on_signal(signum, frame):
    # SIGTERM and Ctrl-C end serve_forever the same way; further signals are ignored so
    # that the shutdown (the firmware process, the port) is not cut short.
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    raise KeyboardInterrupt


STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, n))


def main(argv=None):
    return run_tool("sim", serve, parse_args(argv))


def run_tool(prog, body, args):
    """body(args) as a tool runs: Ctrl-C and SIGTERM stop it in order (exit status 0), a
    UserError is one line on stderr (exit status 2). tools/watch.py runs so too."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, _stop_on_signal)
    try:
        return body(args)
    except UserError as e:
        print("%s: %s" % (prog, e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


def emulated_pico(args):
    """Why the emulated Pico cannot run here ('' if it can)."""
    if args.micropython:
        return "--rp2040 and --micropython: choose one"
    from rp2040 import pico
    why = pico.missing(args.firmware)
    if why:
        return why
    if shutil.which("node") is None:
        return "--rp2040 needs Node.js (node on PATH) for the emulator"
    if not os.path.isdir(os.path.join(TOOLS, "rp2040", "node_modules", "rp2040js")):
        return ("--rp2040: the emulator is not installed: run npm ci in tools/rp2040 "
                "(see tools/README.md)")
    return ""


def make_sim(args, sim_dir):
    if args.rp2040:
        from simulator.pico_device import PicoDevice
        sim = Sim(sim_dir, None)
        sim.device = PicoDevice(sim, sim_dir, args.firmware)
        return sim, {"name": "rp2040", "text": "the emulated Pico (MicroPython v1.28, RP2040 "
                                                "port in rp2040js)"}
    mp, runtime = choose_micropython(args.micropython)
    return Sim(sim_dir, mp), {"name": "micropython" if mp else "cpython", "text": runtime}


def serve(args):
    if args.rp2040:                # before --fresh removes anything
        why = emulated_pico(args)
        if why:
            raise UserError(why)
    elif args.firmware:
        raise UserError("--firmware is for --rp2040 (the emulated Pico's MicroPython)")
    if args.lang is not None and args.lang not in LANGUAGES:
        raise UserError("--lang %s: not a language of the board (choose one of %s)"
                        % (args.lang, ", ".join(sorted(LANGUAGES))))
    sim_dir = board_dir(args.dir, args.fresh)
    sim, runtime = make_sim(args, sim_dir)
    if args.lang:
        sim.set_language(args.lang)
    sim.runtime = runtime
    runtime = runtime["text"]
    if args.replay:
        err = sim.load_replay(read_record_file(args.replay), os.path.basename(args.replay))
        games = sim.replay["games"]
        if not err and all(g["error"] and len(g["steps"]) <= 1 for g in games):
            err = "not a game record (%s)" % games[0]["error"]
        if err:
            raise UserError("--replay %s: %s" % (args.replay, err))
    Handler.sim = sim
    Handler.faces = face_bitmaps()
    Handler.leds = led_legend()
    try:
        server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    except OSError as e:
        print("sim: cannot listen on 127.0.0.1:%d: %s (another simulator running?); on any "
              "free port: %s" % (args.port, e.strerror or e,
                                 cli.again(sys.argv[1:], {"--port": 0})), file=sys.stderr)
        return 1
    server.daemon_threads = True
    url = "http://127.0.0.1:%d/" % server.server_address[1]
    try:
        sim.usb = UsbConsole(sim.device, args.usb_port)
        usb_note = ("The board's USB console: %s (python tools/watch.py --port %s)"
                    % (sim.usb.address(), sim.usb.address()))
    except OSError as e:
        usb_note = ("The board's USB console is off: port %d: %s (choose another with "
                    "--usb-port)" % (args.usb_port, e.strerror or e))
    if args.replay:
        url += "#replay"
    try:
        sim.start()
        print("Barragoon simulator: %s  (Ctrl-C to stop; board files in %s)" % (url, sim_dir),
              flush=True)
        print("The firmware runs on %s." % runtime, flush=True)
        print(usb_note, flush=True)
        if not sim.saved_text.strip():
            print("To begin: click \"Set up start position\" on the page.", flush=True)
        if not args.no_browser:
            why = open_browser(url)
            if why:
                print(why, flush=True)
        server.serve_forever(poll_interval=0.2)
    finally:
        sim.stop()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
