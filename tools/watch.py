#!/usr/bin/env python3
"""Watch the board's game on a computer, keep its record, and let a friend play one side.

    python tools/watch.py [--port PORT] [--record FILE] [--http-port 8767] [--no-browser]
                          [--share] [--remote [white|brown]]

Finds the board on USB (as tools/start.py does; --port names it: /dev/ttyACM0, COM3, or the
simulator's socket://127.0.0.1:8766) and speaks its line protocol
(firmware/controller/protocol.py) over the console that mpremote uses. Shows the board live in
the simulator's page, read-only: the pieces as its sensors see them, its lights, its screen,
the record and the clock. Writes every game's record to --record as it grows (the format of
the board's records.txt, which tools/replay.py checks).

--share serves the page to the other computers of the network as well (spectators, read-only).

--remote brown (or white; brown without a word) lets a friend play that side from a browser:
the board asks its player to agree (hold OK), then shows each of the friend's actions with its
lights for its player to carry out, as it does its own engine's. The page is served to the
network; the friend opens the address printed here, with the game's access code in it (or
types the code). Without the code a page sees nothing. Every message is checked here and again
on the board: only a legal action of that side in its turn, never a stale or replayed one.
A new game gets a new code. Ctrl-C stops watching (the game goes on on the board).
"""
import argparse
import hmac
import json
import os
import re
import secrets
import sys
import threading
import time
from http.server import ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _p in (HERE, os.path.join(ROOT, "firmware")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import sim  # noqa: E402  the page, its texts and its HTTP handler
from sim import UserError  # noqa: E402
import pico_usb  # noqa: E402
from toolkit.board_link import Mirror, BANNER, PROTOCOL  # noqa: E402
from barragoon.core import TILE, BROWN_BIT, FACES  # noqa: E402
from barragoon.notation import square_name  # noqa: E402

DEFAULT_HTTP_PORT = 8767
HELLO_S = 10.0             # hello again this often (the board forgets a silent listener)
STATE_GAP_S = 1.0          # a full state asked for at most this often
RETRY_S = 1.0              # a lost connection is tried again this often
REPLY_S = 5.0              # a command's answer from the board
CODE_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"     # no 0/o, 1/l/i: read off a terminal
CODE_LEN = 6
TOKEN = re.compile(r"^[a-g][1-9][-x][a-g][1-9]$|^[a-g][1-9]=(%s)$" % "|".join(FACES))
REMOTE_OPS = ("play", "takeback", "draw", "answer", "resign")


# --- the board on USB ---------------------------------------------------------------------------
class Link:
    """The serial connection: lines in (to the Watch), commands out; a lost connection is opened
    again, and the board is greeted again (a restarted board forgets its listener)."""

    def __init__(self, url, watch):
        self.url = url
        self.watch = watch
        self.ser = None
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.connected = False
        self.said_hello = 0.0
        self.asked_state = 0.0
        self.error = ""

    def start(self):
        threading.Thread(target=self._run, daemon=True).start()

    def _open(self):
        import serial
        ser = serial.serial_for_url(self.url, baudrate=115200, timeout=0.2)
        try:
            ser.dtr = True                 # a listener is there (TinyUSB: "connected")
        except (OSError, ValueError, serial.SerialException, AttributeError):
            pass
        return ser

    def send(self, line):
        """Send one command line; False when not connected."""
        with self.lock:
            ser = self.ser
            if ser is None:
                return False
            try:
                ser.write((line + "\n").encode())
                return True
            except Exception:          # noqa: BLE001 - any failure: the port is gone
                return False

    def hello(self):
        self.said_hello = time.monotonic()
        self.send("hello %d" % PROTOCOL)

    def want_state(self):
        now = time.monotonic()
        if now - self.asked_state >= STATE_GAP_S:
            self.asked_state = now
            self.send("state")

    def _run(self):
        import serial
        while not self.stop.is_set():
            try:
                ser = self._open()
            except (serial.SerialException, OSError, ValueError) as e:
                self._lost(str(e))
                self.stop.wait(RETRY_S)
                continue
            with self.lock:
                self.ser = ser
            self.connected = True
            self.error = ""
            self.watch.link_changed()
            self.hello()
            buf = bytearray()
            try:
                while not self.stop.is_set():
                    data = ser.read(4096)
                    if data:
                        buf += data
                        while b"\n" in buf:
                            line, _, rest = bytes(buf).partition(b"\n")
                            buf = bytearray(rest)
                            self._line(line.decode("utf-8", "replace"))
                    if time.monotonic() - self.said_hello >= HELLO_S:
                        self.hello()
            except (serial.SerialException, OSError) as e:
                self._lost(str(e))
            finally:
                with self.lock:
                    self.ser = None
                try:
                    ser.close()
                except Exception:      # noqa: BLE001
                    pass
            self.stop.wait(RETRY_S)

    def _lost(self, why):
        if self.connected or not self.error:
            self.error = why
            self.connected = False
            self.watch.link_changed()

    def _line(self, text):
        if BANNER in text:                 # the board restarted: greet it again
            self.watch.console(text.strip())
            self.hello()
            return
        if self.watch.line(text) == "state":
            self.want_state()


# --- the game as watched ------------------------------------------------------------------------
class Watch:
    """The mirror, the record file, the remote player's access, and the page's model."""

    def __init__(self, record_path, remote_side=-1, shared=False, say=print):
        self.mirror = Mirror()
        self.link = None
        self.record_path = record_path
        self.finished = []             # records of the games that ended while watched
        self.written = None
        self.remote = remote_side      # the side a friend plays (-1: nobody)
        self.shared = shared
        self.say = say
        self.code = ""
        self.code_game = -1            # mirror.games when the code was made
        self.last_seq = {}             # code -> the last message number taken
        self.asked_remote = -1         # mirror.games when `remote` was sent
        self.seen_games = 0            # mirror.games when the record file last changed game
        self.reply = ""                # the last answer to the remote player
        self.lock = threading.RLock()
        self.cond = threading.Condition(self.lock)
        self.version = 0
        self._stop = threading.Event()
        self.replay = {"name": "", "games": [], "version": 0}
        self.log = []
        self.wait_reply = None
        self.faces = None

    # --- from the board --------------------------------------------------------------------
    def changed(self):
        with self.cond:
            self.version += 1
            self.cond.notify_all()

    def console(self, text):
        with self.lock:
            self.log.append(text)
            del self.log[:-200]
        self.changed()

    def link_changed(self):
        link = self.link
        if link is not None and not link.connected and link.error:
            self.console("[watch] no board on %s: %s" % (link.url, link.error))
        self.changed()

    def line(self, text):
        with self.lock:
            m = self.mirror
            n = len(m.console)
            answer = m.line(text)
            if m.replies and self.wait_reply is not None:
                self.wait_reply.set()
            if len(m.console) != n:
                self.log.append(m.console[-1])
                del self.log[:-200]
            self._after()
        self.changed()
        return answer

    def _after(self):
        m = self.mirror
        g = m.game
        if g is None or not m.complete:
            return
        if m.games != self.seen_games:
            self.seen_games = m.games
            if self.written and self.written_over:     # the last game stays in the file
                self.finished.append(self.written)
            self.written = None
            self.written_over = False
            if self.remote >= 0:
                self._new_code()
        self._write_record()
        if self.remote >= 0 and not g.over and m.remote_side() < 0 and \
                self.asked_remote != m.games and self.link is not None:
            self.asked_remote = m.games
            self.link.send("remote %s" % "wb"[self.remote])

    written_over = False

    def _write_record(self):
        m = self.mirror
        text = m.record_text() if m.game.actions else ""     # (a game not begun: no record)
        if text == self.written or not self.record_path:
            return
        self.written = text
        self.written_over = m.game.over
        if not self.finished and not text and not os.path.exists(self.record_path):
            return
        tmp = self.record_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("".join(self.finished) + text)
        os.replace(tmp, self.record_path)

    def _new_code(self):
        self.code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LEN))
        self.code_game = self.mirror.games
        self.last_seq = {}
        self.say("Access code for this game: %s" % self.code)
        url = getattr(self, "url", "")
        if url:
            self.say("The friend opens: %s?code=%s" % (url, self.code))

    # --- the remote player's messages ------------------------------------------------------
    def allowed(self, code):
        """Whether a page with this code may see the game (remote mode: only with the code)."""
        if self.remote < 0:
            return True
        return bool(self.code) and hmac.compare_digest(str(code or ""), self.code)

    def act(self, op, body, code=""):
        """A message from the page: '' when the board took it, else why not."""
        if self.remote < 0 or op not in REMOTE_OPS:
            return "this page only watches the board (read-only)"
        if not self.allowed(code):
            return "no access: the game's code is needed"
        seq = body.get("seq")
        k = body.get("k")
        if not isinstance(seq, int) or not isinstance(k, int):
            return "a message needs its number (seq) and the actions you hold (k)"
        with self.lock:
            if seq <= self.last_seq.get(self.code, -1):
                return "refused: a message that was sent before (replayed)"
            self.last_seq[self.code] = seq
            m = self.mirror
            g = m.game
            if g is None or not m.complete or self.link is None or not self.link.connected:
                return "the board is not connected"
            if m.remote_side() != self.remote:
                return "the board's player has not let this side be played here (yet)"
            if g.over:
                return "the game is over"
            if k != len(g.actions):
                return "out of date: the game has %d actions, not %d" % (len(g.actions), k)
            line = self._command(op, body, g)
            if line.startswith("!"):
                return line[1:]
            self.wait_reply = ev = threading.Event()
            m.replies.clear()
        if not self.link.send(line):
            return "the board is not connected"
        ev.wait(REPLY_S)
        with self.lock:
            self.wait_reply = None
            replies = list(self.mirror.replies)
        if not replies:
            return "the board did not answer"
        kind, word, text = replies[-1]
        self.reply = "" if kind == "ok" else text
        return "" if kind == "ok" else "the board refused it: %s" % text

    def _command(self, op, body, g):
        # The command line for the board, made here from checked values only: nothing the
        # page sent reaches the board as it came ("!reason": refused).
        k = len(g.actions)
        if op == "play":
            tok = body.get("token")
            if not isinstance(tok, str) or not TOKEN.match(tok):
                return "!not a move or placement: %r" % (tok,)
            if g.turn != self.remote:
                return "!not your turn"
            if self.mirror.plan:
                return "!the board's player is carrying out your last action"
            if not legal(g, tok):
                return "!%s is not legal now" % tok
            return "play %d %s" % (k, tok)
        if op == "answer":
            a = body.get("answer")
            if a not in ("yes", "no"):
                return "!answer yes or no"
            return "answer %d %s" % (k, a)
        if op == "resign" and g.turn != self.remote:
            return "!resign in your own turn"
        return "%s %d" % (op, k)

    # --- the page's model --------------------------------------------------------------------
    def state(self, role="spectator"):
        with self.lock:
            return page_model(self, role)


def legal(g, tok):
    """Whether record token tok is a legal action of the game now (tried on a copy)."""
    from barragoon.core import RulesError
    from barragoon.record import format_record, parse_record, play_token
    try:
        play_token(parse_record(format_record(g)), tok)
        return True
    except RulesError:
        return False


def legal_tokens(g):
    """The remote side's possible actions now, as record tokens (moves; placements: squares)."""
    if g.over or g.offered:
        return [], []
    if g.placing() >= 0:
        return [], [square_name(sq) for sq in range(63) if g.pos.get(sq) == 0]
    out = []
    for m in g.legal_moves():
        frm, to = m >> 6, m & 63
        out.append("%s%s%s" % (square_name(frm), "x" if g.pos.get(to) else "-",
                               square_name(to)))
    return out, []


def piece(c):
    if c & TILE:
        return {"kind": "tile", "side": 1 if c & BROWN_BIT else 0, "value": c & 7}
    return {"kind": "barragoon", "face": FACES[c - 1], "confirmed": True}


def led_colours(meanings, palette):
    """The squares' colours as the board shows them (its colour table, at LED_BRIGHTNESS)."""
    from controller import colours as C
    import config as fw
    scale = getattr(fw, "LED_BRIGHTNESS", 40) / 100.0
    ph = C.phase(int(time.monotonic() * 1000) & 0x3FFFFFFF)
    p = C.Painter(palette)
    frame = bytearray(189)
    p.paint(bytes(meanings), frame, ph)
    return [[int(frame[3 * sq + i] * scale) for i in range(3)] for sq in range(63)]


_fb = []


def oled_rows(items):
    """The screen's texts drawn as the board draws them (its font), as the page's rows."""
    import vboard
    vboard.install_framebuf()
    import framebuf
    from controller import font
    if not _fb:
        buf = bytearray(1024)
        _fb.append((buf, framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)))
    buf, fb = _fb[0]
    fb.fill(0)
    for y, x, c, text in items:
        if c == 0:
            fb.fill_rect(0, y - 1, 128, 10, 1)     # a title bar or a chosen item
            font.text(fb, text, x, y, 0)
        elif c > 1:                                 # big letters
            small = framebuf.FrameBuffer(bytearray(8 * 16), 8 * 16, 8, framebuf.MONO_VLSB)
            font.text(small, text, 0, 0, 1)
            for cx in range(8 * len(text)):
                for cy in range(8):
                    if small.pixel(cx, cy):
                        fb.fill_rect(x + cx * c, y + cy * c, c, c, 1)
        else:
            font.text(fb, text, x, y, 1)
    rows = []
    for y in range(64):
        v = 0
        for x in range(128):
            v = v << 1 | (1 if fb.pixel(x, y) else 0)
        rows.append("%032x" % v)
    return rows


def page_model(w, role):
    m = w.mirror
    g = m.game
    link = w.link
    connected = link is not None and link.connected and m.hello is not None
    board = [None] * 63
    hands = [[], []]
    if g is not None:
        for sq in range(63):
            c = g.pos.get(sq)
            if m.occ[sq]:
                board[sq] = piece(c) if c else {"kind": "barragoon", "face": "X",
                                                "confirmed": False}
            elif c:
                p = piece(c)
                p["from"] = sq
                hands[p["side"] if p["kind"] == "tile" else g.turn].append(p)
    else:
        board = [{"kind": "barragoon", "face": "X", "confirmed": False} if v else None
                 for v in m.occ]
    for side in (0, 1):
        for i, p in enumerate(hands[side]):
            p["id"] = 100 + 10 * side + i
    clock = None
    if m.clock is not None:
        clock = {"ms": m.clock_now(), "side": m.clock["side"], "state": m.clock["state"]}
    moves, squares = legal_tokens(g) if g is not None and role == "remote" and \
        g.turn == w.remote and not m.plan and not g.over else ([], [])
    game = {"exists": False, "problem": ""}
    if g is not None:
        game = {"exists": True, "side": g.pos.side, "placing": g.placing(), "over": g.over,
                "winner": g.winner, "reason": g.reason, "last": g.last_turn_text(),
                "supply": g.pos.supply, "turns": g.turn_texts(), "record": m.record_text(),
                "problem": ""}
    return {
        "version": w.version,
        "mirror": {
            "role": role, "remote": w.remote, "remote_on": m.remote_side(),
            "connected": connected, "port": link.url if link is not None else "",
            "error": link.error if link is not None else "", "clock": clock,
            "ask": list(m.ask) if m.ask else None, "plan": m.plan,
            "k": len(g.actions) if g is not None else 0,
            "turn": g.turn if g is not None else -1, "moves": moves, "squares": squares,
            "reply": w.reply, "record_file": w.record_path if role == "owner" else "",
            "version": m.hello[1] if m.hello else "", "shared": w.shared,
        },
        "device": {"status": "running" if connected else "stopped",
                   "text": "", "led_frames": 0, "oled_writes": 0,
                   "runtime": "micropython", "runtime_text": ""},
        "board": board, "leds": led_colours(m.meanings, m.palette),
        "oled": {"on": True, "inverse": False, "contrast": 255, "width": 128, "height": 64,
                 "rows": oled_rows(m.oled)},
        "hands": hands, "selected": -1, "next": -1,
        "active": g.turn if g is not None and not g.over else 0,
        "supply": g.pos.supply if g is not None else 0, "box": [], "buzzer": [0, 0],
        "pins": {}, "busy": "", "game": game, "records": len(w.finished),
        "log": w.log[-60:], "replay_version": 0, "palette": m.palette, "lang": "",
        "config": {"led_wiring": [], "input": "buttons", "long_press_ms": 700},
    }


# --- the page -----------------------------------------------------------------------------------
class Handler(sim.Handler):
    """The simulator's page and API, read-only; in remote mode only with the game's code
    (a cookie the address's ?code= sets), the remote player's messages on /api/action."""
    watch = None

    def _code(self):
        for part in (self.headers.get("Cookie") or "").split(";"):
            k, _, v = part.strip().partition("=")
            if k == "barragoon_code":
                return v
        return ""

    def _role(self):
        w = self.watch
        if w.remote >= 0:
            return "remote" if w.allowed(self._code()) else ""
        return "owner" if self.client_address[0] in ("127.0.0.1", "::1") else "spectator"

    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        w = self.watch
        if "code" in query and w.remote >= 0:
            code = query["code"][0].strip().lower()[:16]
            self.send_response(303)
            self.send_header("Set-Cookie", "barragoon_code=%s; Path=/; HttpOnly; "
                                           "SameSite=Strict" % re.sub(r"[^a-z0-9]", "", code))
            self.send_header("Location", "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        role = self._role()
        if not role and url.path not in ("/", "/index.html", "/sim.css", "/text.json"):
            return self._json({"ok": False, "error": "no access: the game's code is needed"},
                              403)
        if url.path in ("/", "/index.html") and not role:
            return self._send(200, CODE_PAGE, "text/html; charset=utf-8")
        if url.path == "/api/state":
            return self._json(w.state(role))
        if url.path == "/api/events":           # (ends when a new game's code is needed)
            return self._events(lambda: w.state(role), lambda: self._role() == role)
        if url.path == "/api/replay":
            return self._json(w.replay)
        return sim.Handler.do_GET(self)

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n > 4096:
            return self._json({"ok": False, "error": "too long"}, 413)
        try:
            body = json.loads(self.rfile.read(n) or b"{}")
        except ValueError:
            return self._json({"ok": False, "error": "bad JSON"}, 400)
        if self.path.split("?", 1)[0] != "/api/action" or not isinstance(body, dict):
            return self._send(404, "not found", "text/plain")
        op = body.get("op", "")
        if op == "language":
            return self._json({"ok": True, "error": ""})     # the page's own choice
        err = self.watch.act(op, body, self._code())
        self._json({"ok": not err, "error": err}, 403 if err.startswith("no access") else 200)


CODE_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Barragoon</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="sim.css"></head><body><main class="code-page">
<h1>Barragoon</h1><p>This game is played with an access code. Type the code the board's
owner gave you:</p><form method="get" action="/"><input name="code" id="code" size="10"
autocomplete="off" autofocus> <button type="submit">Open</button></form></main></body></html>
"""


# --- the command line ---------------------------------------------------------------------------
def parse_args(argv):
    ap = argparse.ArgumentParser(prog="watch.py", description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 2)[2].strip(),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", metavar="PORT",
                    help="the board's serial port (default: the attached Pico), or "
                         "socket://HOST:PORT (the simulator's, see python tools/sim.py)")
    ap.add_argument("--record", metavar="FILE", default=os.path.join(ROOT, "build", "watch",
                                                                      "records.txt"),
                    help="the games' records, written as they grow (default "
                         "build/watch/records.txt)")
    ap.add_argument("--http-port", metavar="N", type=sim.port_number, default=DEFAULT_HTTP_PORT,
                    help="the page's port (default %d; 0 = any free port)" % DEFAULT_HTTP_PORT)
    ap.add_argument("--no-browser", action="store_true", help="do not open a browser")
    ap.add_argument("--share", action="store_true",
                    help="serve the page to the network too (spectators, read-only)")
    ap.add_argument("--remote", nargs="?", const="brown", choices=("white", "brown"),
                    metavar="SIDE", help="a friend plays SIDE (white or brown; default brown) "
                                         "in a browser, with the game's access code")
    return ap.parse_args(argv)


def find_port(arg):
    if arg:
        return arg
    port = pico_usb.find_serial_board()
    if port:
        return port
    boot = pico_usb.find_bootsel()
    if boot:
        raise UserError("the Pico waits in BOOTSEL mode, no firmware runs: flash it first "
                        "(python tools/start.py)")
    raise UserError("no board found on USB: plug it in (a cable that carries data), or name "
                    "its port with --port (the simulator's: --port socket://127.0.0.1:8766)")


def lan_address():
    """This computer's address on the network (for the address to give a friend)."""
    import socket
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))          # no packet is sent: it picks the interface
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def main(argv=None):
    return sim.run_tool("watch", run, parse_args(argv))


def run(args):
    try:
        import serial  # noqa: F401
    except ImportError:
        raise UserError("pyserial is missing: python -m pip install -r requirements-dev.txt")
    record = os.path.abspath(args.record)
    if os.path.isdir(record):
        raise UserError("--record %s: a folder, not a file" % args.record)
    try:
        os.makedirs(os.path.dirname(record), exist_ok=True)
    except OSError as e:
        raise UserError("--record %s: %s" % (args.record, e.strerror or e))
    port = find_port(args.port)
    remote = -1 if args.remote is None else (1 if args.remote == "brown" else 0)
    network = args.share or remote >= 0
    w = Watch(record, remote, args.share, say=lambda s: print(s, flush=True))
    Handler.watch = w
    Handler.sim = w
    Handler.faces = sim.face_bitmaps()
    Handler.leds = sim.led_legend()
    host = "0.0.0.0" if network else "127.0.0.1"
    try:
        server = ThreadingHTTPServer((host, args.http_port), Handler)
    except OSError as e:
        raise UserError("cannot listen on port %d: %s (try --http-port)"
                        % (args.http_port, e.strerror or e))
    server.daemon_threads = True
    n = server.server_address[1]
    local = "http://127.0.0.1:%d/" % n
    w.url = "http://%s:%d/" % (lan_address(), n) if network else local
    link = w.link = Link(port, w)
    link.start()
    print("Watching the board on %s: %s  (Ctrl-C to stop; records in %s)"
          % (port, local, record), flush=True)
    if network:
        print("On the network: %s%s" % (w.url, " (spectators, read-only)" if remote < 0 else
                                        " (with the game's access code)"), flush=True)
    if remote >= 0:
        print("A friend plays %s: the board asks you to agree (hold OK)."
              % ("Brown" if remote else "White"), flush=True)
    if not args.no_browser and remote < 0:
        why = sim.open_browser(local)
        if why:
            print(why, flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        w._stop.set()
        link.stop.set()
        if link.connected:
            link.send("bye")
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
