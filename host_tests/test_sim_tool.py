# tools/sim.py as a newcomer meets it: on a computer without the MicroPython unix port it runs
# the firmware on CPython and says so once in the terminal and on the page; it stops cleanly on
# Ctrl-C and SIGTERM (no traceback, no firmware process left behind); a user's mistake on the
# command line is one line and exit status 2. And the page's physical model: a lifted tile goes
# into its owner's hand, and the face being chosen on the OLED shows on the Barragoon.
# CPython only (pytest).
import html
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

import micropython_env
from barragoon.notation import parse_square
from cdp_browser import Browser, find_chromium
from processes import running_with

ROOT = micropython_env.ROOT
SIM = os.path.join(ROOT, "tools", "sim.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from vboard import decode  # noqa: E402
import sim as simtool  # noqa: E402


# --- the command line ---------------------------------------------------------------------------
def run_sim(*args, env=None, timeout=60):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, SIM] + list(args), capture_output=True, text=True,
                          timeout=timeout, env=e, cwd=ROOT)


def one_line_error(proc, *words):
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 or lines[0].startswith("usage:"), proc.stderr
    for w in words:
        assert w in proc.stderr, (w, proc.stderr)


def test_replay_of_a_binary_file_is_refused_in_one_line(tmp_path):
    f = tmp_path / "game.bin"
    f.write_bytes(bytes(range(256)) * 4)
    one_line_error(run_sim("--replay", str(f), "--no-browser", "--dir", str(tmp_path)),
                   "game.bin", "not a text file")


def test_replay_of_a_missing_or_meaningless_file_is_refused(tmp_path):
    one_line_error(run_sim("--replay", str(tmp_path / "nope.txt"), "--dir", str(tmp_path)),
                   "nope.txt")
    f = tmp_path / "notes.txt"
    f.write_text("shopping list: milk, eggs\n")
    one_line_error(run_sim("--replay", str(f), "--dir", str(tmp_path)), "notes.txt")


def test_a_bad_micropython_is_named_not_used(tmp_path):
    one_line_error(run_sim("--micropython", "/bad/path", "--dir", str(tmp_path)),
                   "--micropython /bad/path", "not an executable")
    one_line_error(run_sim("--dir", str(tmp_path), env={"MICROPYTHON": "/bad/mp"}),
                   "MICROPYTHON=/bad/mp", "unset it")


def test_bad_port_and_dir_are_refused(tmp_path):
    one_line_error(run_sim("--port", "http"), "--port", "not a port number")
    one_line_error(run_sim("--port", "70000"), "not a port number")
    f = tmp_path / "file"
    f.write_text("")
    one_line_error(run_sim("--dir", str(f)), "not a directory")


def test_an_unknown_language_is_refused_in_one_line(tmp_path):
    proc = run_sim("--lang", "fr", "--no-browser", "--dir", str(tmp_path))
    one_line_error(proc, "--lang fr", "de, en, es, it")
    assert not proc.stderr.startswith("usage:")
    assert "--lang" in run_sim("--help").stdout


def test_the_language_is_the_boards_and_the_pages(tmp_path):
    s = simtool.Sim(str(tmp_path), None, firmware=False)
    assert s.state()["lang"] == ""                        # none chosen: the page picks one
    for code in ("de", "it", "es", "en"):
        assert s.act("language", {"code": code}) == "" and s.state()["lang"] == code
    assert "not a language" in s.act("language", {"code": "fr"})
    assert s.state()["lang"] == "en"
    # the board's own choice (its menu), as it saves it: the page follows
    (tmp_path / "settings.txt").write_text("brightness=40\npalette=0\nlanguage=it\n")
    assert s._load_settings() and s.state()["lang"] == "it"
    assert s.power_on_message()["lang"] == "it"
    (tmp_path / "settings.txt").write_text("brightness=45\npalette=0\nlanguage=xx\n")
    s._load_settings()
    assert s.state()["lang"] == "it"                      # no language it knows: unchanged


# --- running on CPython -------------------------------------------------------------------------
class ToolProcess:
    """A tool in its own session (as a terminal runs it), its output collected; url: the first
    local address it prints."""

    def __init__(self, argv, env=None):
        e = dict(os.environ)
        e.update(env or {})
        self.p = subprocess.Popen([sys.executable] + argv, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, env=e, cwd=ROOT,
                                  start_new_session=True)
        self.lines = []
        self.url = None
        end = time.monotonic() + 60
        while self.url is None and time.monotonic() < end:
            line = self.p.stdout.readline()
            if not line:
                break
            self.lines.append(line)
            m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
            if m:
                self.url = m.group(1)
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()
        if self.url is None:
            self.p.kill()
            raise AssertionError("%s did not start: %s" % (argv[0], "".join(self.lines)))

    def _drain(self):
        for line in self.p.stdout:
            self.lines.append(line)

    def close(self):
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()


class SimProcess(ToolProcess):
    """tools/sim.py in its own session, its output collected."""

    def __init__(self, sim_dir, env=None, extra=(), fresh=True):
        ToolProcess.__init__(self, [SIM, "--port", "0", "--no-browser", "--dir", sim_dir] +
                             (["--fresh"] if fresh else []) + list(extra), env)

    def state(self):
        with urllib.request.urlopen(self.url + "api/state", timeout=10) as r:
            return json.loads(r.read())

    def act(self, op, **args):
        body = json.dumps(dict(op=op, **args)).encode()
        req = urllib.request.Request(self.url + "api/action", data=body, method="POST")
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def wait(self, cond, what, timeout=60):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            v = cond()
            if v:
                return v
            time.sleep(0.05)
        raise AssertionError("timed out waiting for %s; output: %s" % (what, self.lines[-10:]))

    def stop(self, sig):
        # Ctrl-C in a terminal signals the whole foreground process group; SIGTERM (a service
        # manager, `kill`) only the process.
        if sig == signal.SIGINT:
            os.killpg(self.p.pid, sig)
        else:
            self.p.send_signal(sig)
        try:
            return self.p.wait(20)
        finally:
            if self.p.poll() is None:
                self.p.kill()
            self.reader.join(5)


def check_served_files(url):
    """The rules, the example games they link to, the LED table; nothing else of the disk."""
    def get(path):
        try:
            with urllib.request.urlopen(url + path, timeout=10) as r:
                return r.status, r.headers["Content-Type"], r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, "", ""

    code, ctype, text = get("rules")
    assert code == 200 and ctype.startswith("text/html") and "How to play Barragoon" in text
    with open(RULES_MD, encoding="utf-8") as f:
        assert get("rules.md") == (200, "text/plain; charset=utf-8", f.read())
    with open(os.path.join(ROOT, "tools", "games", "short-win.txt"), encoding="utf-8") as f:
        assert get("games/short-win.txt")[::2] == (200, f.read())
    assert len(json.loads(get("api/leds")[2])["palettes"]) == 2
    code, ctype, text = get("text.json")
    assert code == 200 and ctype.startswith("application/json")
    assert list(json.loads(text)) == ["en", "de", "it", "es"]
    for path in ("games/../sim.py", "games/", "games/%2e%2e/sim.py", "rules/../sim.py"):
        assert get(path)[0] == 404, path


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to find left-over processes")
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_without_micropython_the_firmware_runs_on_cpython_and_stops_cleanly(tmp_path, sig):
    sim_dir = str(tmp_path / "board")
    s = SimProcess(sim_dir, env={"MICROPYTHON": "none"})
    try:
        st = s.wait(lambda: (lambda m: m if m["device"]["status"] == "running" else None)(
            s.state()), "the firmware running")
        assert st["device"]["runtime"] == "cpython"
        assert "no MicroPython unix port" in st["device"]["runtime_text"]
        rows = s.wait(lambda: (lambda r: r if any(int(h, 16) for h in r) else None)(
            s.state()["oled"]["rows"]), "the firmware drawing on the OLED")
        # (a fresh board shows the set-up; a short OK there says to hold OK for the menu)
        assert s.act("press", button="ok")["ok"] and s.act("release", button="ok")["ok"]
        s.wait(lambda: s.state()["oled"]["rows"] != rows, "the OLED to answer OK")
        if sig == "SIGTERM":
            check_served_files(s.url)
        if find_chromium() and sig == "SIGINT":
            b = Browser(width=1200, height=800)
            try:
                b.goto(s.url)
                b.wait("window.sim && window.sim.ready", what="the page")
                note = b.eval("document.getElementById('runtime-note').hidden ? '' : "
                              "document.getElementById('runtime-note').textContent")
                # for players, in the page's language; the details (the terminal's words)
                # in its tooltip
                assert note == b.eval("window.sim.text.runtimeCPython") and "CPython" in note
                assert "(" not in note, note
                assert "no MicroPython unix port" in b.eval(
                    "document.getElementById('runtime-note').title")
                assert "on CPython" in b.eval("document.getElementById('status').textContent")
            finally:
                b.close()
    finally:
        code = s.stop(getattr(signal, sig))
    out = "".join(s.lines)
    assert code == 0, out
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out
    assert sum("CPython" in line for line in s.lines) == 1, out      # said once
    assert "Set up start position" in out                             # what to do first
    assert running_with(sim_dir) == [], "a firmware process was left running"


def test_lang_chooses_the_language_at_the_start(tmp_path):
    s = SimProcess(str(tmp_path / "board"), env={"MICROPYTHON": "none"}, extra=["--lang", "it"])
    try:
        assert s.state()["lang"] == "it"
    finally:
        assert s.stop(signal.SIGTERM) == 0


def test_with_micropython_the_terminal_names_it(tmp_path):
    if micropython_env.find_micropython() is None:
        pytest.skip(micropython_env.missing_reason())
    s = SimProcess(str(tmp_path / "board"))
    try:
        s.wait(lambda: s.state()["device"]["status"] == "running", "the firmware running")
        assert s.state()["device"]["runtime"] == "micropython"
    finally:
        assert s.stop(signal.SIGTERM) == 0
    assert any("MicroPython unix port" in line for line in s.lines)
    assert not any("CPython" in line for line in s.lines)


# --- the physical model -------------------------------------------------------------------------
def test_a_lifted_tile_goes_into_its_owners_hand(tmp_path):
    s = simtool.Sim(str(tmp_path), None, firmware=False)
    s.phys.arrange(simtool.start_position(0))
    c8, d2, b4 = (parse_square(n) for n in ("c8", "d2", "b4"))
    assert s.active == 0                               # White's turn
    assert s.act("lift", {"sq": c8}) == ""             # Brown's tile, lifted first
    hands = s.state()["hands"]
    assert hands[0] == [] and hands[1][0]["side"] == 1
    assert s.state()["next"] == hands[1][0]["id"]
    assert s.act("lift", {"sq": d2}) == ""             # then White's own tile
    st = s.state()
    assert st["hands"][0][0]["side"] == 0
    assert st["next"] == st["hands"][0][0]["id"]       # the mover's tile goes down next
    assert s.act("lift", {"sq": b4}) == ""             # a Barragoon: the player at turn
    assert s.state()["hands"][0][-1]["kind"] == "barragoon"
    assert s.state()["next"] == st["hands"][0][0]["id"]   # still the mover's tile


def test_after_a_barragoon_lifted_first_the_movers_tile_goes_down_next(tmp_path):
    s = simtool.Sim(str(tmp_path), None, firmware=False)
    s.phys.arrange(simtool.start_position(0))
    b4, d2 = parse_square("b4"), parse_square("d2")
    assert s.act("lift", {"sq": b4}) == ""             # the Barragoon to capture, first
    barragoon = s.state()["hands"][0][0]
    assert s.state()["next"] == barragoon["id"]        # alone in hand: it would go back
    assert s.act("lift", {"sq": d2}) == ""             # then the tile that captures it
    tile = [p for p in s.state()["hands"][0] if p["kind"] == "tile"][0]
    assert s.state()["next"] == tile["id"]
    assert s.act("put", {"sq": b4}) == ""
    assert s.state()["board"][b4]["kind"] == "tile"


def test_the_face_on_the_picker_shows_on_the_barragoon_being_placed(tmp_path):
    import framebuf
    from controller import screens
    s = simtool.Sim(str(tmp_path), None, firmware=False)
    e5 = parse_square("e5")
    assert s.act("take_supply", {}) == "" and s.act("put", {"sq": e5}) == ""
    assert s.state()["board"][e5]["confirmed"] is False

    def oled_shows(draw):
        # The firmware's screen as it reaches the sim: the framebuffer, page by page.
        buf = bytearray(1024)
        draw(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
        raw = bytes(buf)
        s.on_device({"i2c": [[simtool.fw.OLED_ADDR, (b"\x00\x20\x00\x21\x00\x7f\x22\x00\x07"
                                                     ).hex()],
                             [simtool.fw.OLED_ADDR, (b"\x40" + raw).hex()]]})
        return s.state()["board"][e5]

    for face in ("RN", "2H", "A"):
        p = oled_shows(lambda fb: screens.face_picker(fb, "White", "e5",
                                                      simtool.FACES.index(face) + 1))
        assert p["face"] == face and p["choosing"] and p["confirmed"] is False
    p = oled_shows(lambda fb: screens.play(fb, "White", (0, 0), 23, "", ""))
    assert "choosing" not in p and p["confirmed"] is False   # picker gone: "?" again


def test_face_reader_reads_only_a_face_icon():
    icons = simtool.face_bitmaps(24)["faces"]
    reader = decode.FaceReader(icons, 3, 15)
    oled = decode.Oled()
    assert reader.read(oled) is None                     # a blank screen
    for y, row in enumerate(icons["LW"]):
        for x, px in enumerate(row):
            if px == "1":
                i = ((15 + y) >> 3) * 128 + 3 + x
                oled.ram[i] |= 1 << ((15 + y) & 7)
    assert reader.read(oled) == "LW"
    oled.ram[(20 >> 3) * 128 + 40] ^= 1 << (20 & 7)      # outside the icon: still LW
    assert reader.read(oled) == "LW"
    oled.ram[(27 >> 3) * 128 + 15] ^= 1 << (27 & 7)      # a pixel of the icon changed
    assert reader.read(oled) is None


# --- the legend's data and the rules page -------------------------------------------------------
def test_the_led_legend_is_the_firmwares_colour_table():
    from controller import colours as C
    legend = simtool.led_legend()
    assert [m["key"] for m in legend["meanings"]] == [C.name(m) for m in range(C.COUNT)]
    for i, pal in enumerate(C.PALETTES):
        assert legend["palettes"][i]["name"] == C.PALETTE_NAMES[i]
        assert legend["palettes"][i]["colours"] == [list(pal[3 * m:3 * m + 3])
                                                   for m in range(C.COUNT)]
    assert legend["meanings"][C.TAKE_TILE]["pattern"] == "pulse"
    assert legend["meanings"][C.DUTY]["pattern"] == "blink"
    assert legend["meanings"][C.ERROR]["pattern"] == "flash"
    assert legend["meanings"][C.MOVE]["pattern"] == "steady"
    # the periods of controller/colours.phase: pulse 800 ms, blink 500 ms, flash 200 ms
    assert legend["period_ms"] == {"pulse": 800, "blink": 500, "flash": 200}
    assert 0.2 < legend["pulse_low"] < 0.3                # a pulse's low half: a quarter


def test_the_model_follows_the_palette_the_firmware_saved(tmp_path):
    s = simtool.Sim(str(tmp_path), None, firmware=False)
    assert s.state()["palette"] == 0                      # no settings yet: normal
    (tmp_path / "settings.txt").write_text("brightness=40\npalette=1\n")
    assert s._load_settings() and s.state()["palette"] == 1
    (tmp_path / "settings.txt").write_text("brightness=40\npalette=7\n")   # not a palette
    s._load_settings()
    assert s.state()["palette"] == 0                      # as the firmware reads it


def test_a_lifted_piece_remembers_its_square_until_put_down(tmp_path):
    s = simtool.Sim(str(tmp_path), None, firmware=False)
    s.phys.arrange(simtool.start_position(0))
    b4, d5 = parse_square("b4"), parse_square("d5")
    assert s.act("lift", {"sq": b4}) == ""
    p = s.state()["hands"][0][0]
    assert p["kind"] == "barragoon" and p["from"] == b4
    assert s.act("put", {"sq": d5}) == ""
    assert "from" not in s.state()["board"][d5]
    assert s.act("lift", {"sq": d5}) == ""
    assert s.act("put_away", {"id": p["id"]}) == "" and s.act("take_supply", {}) == ""
    assert "from" not in s.state()["hands"][0][0]         # from the supply: lifted nowhere


RULES_MD = os.path.join(ROOT, "firmware", "barragoon", "RULES.md")


def rules_html():
    import html.parser

    class Page(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.ids, self.hrefs, self.headings, self.stack, self.text = set(), [], [], [], []
            self.pre = []
            self.tables = self.nested_lists = 0

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if "id" in a:
                self.ids.add(a["id"])
            if tag == "a":
                self.hrefs.append(a.get("href"))
            if tag == "table":
                self.tables += 1
            if tag == "ul" and "li" in self.stack:
                self.nested_lists += 1
            self.stack.append(tag)
            if tag in ("h1", "h2", "h3"):
                self.headings.append([tag, ""])
            if tag == "pre":
                self.pre.append("")

        def handle_endtag(self, tag):
            while self.stack and self.stack.pop() != tag:
                pass

        def handle_data(self, data):
            if self.stack and self.stack[-1] in ("h1", "h2", "h3"):
                self.headings[-1][1] += data
            if not {"pre", "code"} & set(self.stack):
                self.text.append(data)
            if "pre" in self.stack:
                self.pre[-1] += data

    page = Page()
    page.feed(simtool.rules_html())
    return page


def test_the_rules_page_shows_all_of_rules_md():
    with open(RULES_MD, encoding="utf-8") as f:
        md = f.read()
    page = rules_html()
    # every heading, in order, with the anchor GitHub gives it (the contents links use them)
    want = [("h%d" % len(m.group(1)), m.group(2).strip())
            for m in re.finditer(r"^(#{1,3}) (.*)$", re.sub(r"```.*?```", "", md, flags=re.S),
                                 re.M)]
    assert [tuple(h) for h in page.headings] == [(tag, text.replace("`", ""))
                                                for tag, text in want]
    assert {"playing-with-a-clock-optional", "no-capture-possible-any-more-rule-6b",
            "the-16-faces-of-a-barragoon"} <= page.ids
    inner = [h[1:] for h in page.hrefs if h.startswith("#")]
    assert len(inner) >= 15 and all(i in page.ids for i in inner), \
        [i for i in inner if i not in page.ids]
    assert "/games/short-win.txt" in page.hrefs and "/rules.md" in page.hrefs
    assert page.tables == len(re.findall(r"^ *\|---", md, re.M))   # some inside list items
    assert page.nested_lists >= 1                          # "Where the walk may end"
    # code blocks, fenced and indented (one inside a list item), keep their lines as written
    assert len(page.pre) == md.count("```") // 2 + 4     # (indented: two positions, a record, a command)
    assert any(p.startswith('[Variant "closed"]                closed or open\n') and
               p.endswith("\n2. c3xb4 b3=LE d8-d6") for p in page.pre), page.pre
    text = "".join(page.text)
    for syntax in ("**", "](", "```", "\n- "):
        assert syntax not in text, syntax                  # no Markdown left unrendered
    assert "opposing tile or on a Barragoon captures it" in text  # joined across lines


def test_the_rules_page_keeps_the_face_pictures_as_drawn():
    import face_art
    html_text = simtool.rules_html()
    for line in face_art.art():
        assert html.escape(line, quote=False) in html_text, line


def test_the_emulated_pico_starts_in_the_language_given(tmp_path):
    # (sim.py --rp2040 --lang de: the Pico's flash image holds the setting; the firmware's
    # own storage.py reads it at power-on like a language chosen before, the others kept)
    from simulator.pico_device import with_setting
    import storage
    for before in (b"", b"brightness=40\npalette=1\nlanguage=it\n"):
        (tmp_path / "settings.txt").write_bytes(with_setting(before, "language", "es"))
        st = storage.Storage(str(tmp_path) + "/")
        assert st.load_language("en", ("en", "de", "it", "es")) == "es"
        assert st.load_palette() == (1 if before else 0)
        assert st.load_brightness(30) == (40 if before else 30)


def test_a_page_that_closes_before_its_answer_is_written_leaves_no_traceback(capsys):
    import socket
    server, client = socket.socketpair()
    client.sendall(b"GET /no-such-page HTTP/1.1\r\nHost: x\r\n\r\n")
    client.close()                          # gone before the 404 is written
    try:
        simtool.Handler(server, ("127.0.0.1", 0), None)   # handles the request at once
    finally:
        server.close()
    assert "Traceback" not in capsys.readouterr().err
