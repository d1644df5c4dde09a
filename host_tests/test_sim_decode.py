# The simulator's translation between the firmware and the page (tools/vboard/decode.py,
# tools/simulator/device.py, tools/sim.py): LED buffers decoded for every chain layout, OLED I2C
# writes decoded to the framebuffer, occupancy and buttons reaching the firmware's drivers
# through the sim's fakes, the firmware process talking over stdin/stdout, the physical model
# and the replay. CPython only (tools/sim.py is a host tool); the device side also runs on the
# MicroPython unix port in test_device_process_*.
import json
import os
import random
import subprocess
import sys
import time

import pytest

import vboard

machine = vboard.install()

import config as cfg  # noqa: E402
from vboard import neopixel as fake_neopixel  # noqa: E402
from drivers import leds as fw_leds  # noqa: E402
from drivers.ssd1306 import SSD1306  # noqa: E402
from drivers.matrix import Matrix  # noqa: E402
from drivers.inputs import Inputs  # noqa: E402
from drivers.buttons_const import BTN_UP, BTN_DOWN, BTN_OK, BTN_BACK, BTN_OK_DOWN  # noqa: E402
from barragoon.game import start_position  # noqa: E402
from barragoon.record import parse_record, format_record  # noqa: E402
from barragoon.notation import parse_square, format_position  # noqa: E402
import micropython_env  # noqa: E402
from oled_text import Picture  # noqa: E402

TOOLS = os.path.join(micropython_env.ROOT, "tools")
sys.path.insert(0, TOOLS)
from vboard import decode  # noqa: E402
from simulator import device as sim_device  # noqa: E402
import sim as simtool  # noqa: E402
from storage import GAME  # noqa: E402


def _save(folder, text):
    """A saved game in the simulated board's folder, where the firmware keeps it."""
    path = folder / GAME
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)

WIRINGS = [(w, s, r) for w in fw_leds.WIRINGS for s in fw_leds.STARTS for r in fw_leds.RUNS]


def setup_function(_):
    vboard.reset()


# --- LEDs -------------------------------------------------------------------------------------
def test_every_wiring_option_is_one_of_sixteen():
    assert len(WIRINGS) == 16
    assert set(decode.WIRINGS) == set(fw_leds.WIRINGS)
    assert set(decode.STARTS) == set(fw_leds.STARTS)
    assert set(decode.RUNS) == set(fw_leds.RUNS)


def names(squares):
    return " ".join("abcdefg"[sq % 7] + str(sq // 7 + 1) for sq in squares)


# Chains as a maker lays them, written out by hand (the first LEDs, and the last one).
CHAINS = {
    ("serpentine", "a1", "ranks"): ("a1 b1 c1 d1 e1 f1 g1 g2 f2 e2 d2 c2 b2 a2 a3 b3", "g9"),
    ("rows", "a1", "ranks"): ("a1 b1 c1 d1 e1 f1 g1 a2 b2 c2 d2 e2 f2 g2 a3", "g9"),
    ("serpentine", "g1", "files"): ("g1 g2 g3 g4 g5 g6 g7 g8 g9 f9 f8 f7 f6", "a9"),
    ("rows", "g9", "files"): ("g9 g8 g7 g6 g5 g4 g3 g2 g1 f9 f8", "a1"),
    ("serpentine", "a9", "ranks"): ("a9 b9 c9 d9 e9 f9 g9 g8 f8 e8", "g1"),
    ("rows", "g1", "ranks"): ("g1 f1 e1 d1 c1 b1 a1 g2 f2", "a9"),
}


@pytest.mark.parametrize("layout", sorted(CHAINS), ids="-".join)
def test_led_chain_follows_the_strip_as_laid(layout):
    first, last = CHAINS[layout]
    order = decode.chain_order(*layout)
    assert names(order).startswith(first) and names(order[-1:]) == last
    assert sorted(order) == list(range(63))


@pytest.mark.parametrize("wiring,start,runs", WIRINGS)
def test_led_chain_is_a_path_over_the_board(wiring, start, runs):
    order = decode.chain_order(wiring, start, runs)
    assert sorted(order) == list(range(63)) and names(order[:1]) == start
    steps = [(b % 7 - a % 7, b // 7 - a // 7) for a, b in zip(order, order[1:])]
    n = 7 if runs == "ranks" else 9
    for i, (df, dr) in enumerate(steps):
        neighbour = abs(df) + abs(dr) == 1
        # Within a line the strip goes to the next square; between lines a serpentine goes
        # to the neighbour, a "rows" strip back across the board.
        assert neighbour == (wiring == "serpentine" or (i + 1) % n != 0), (i, df, dr)
        along = dr == 0 if runs == "ranks" else df == 0
        assert along == ((i + 1) % n != 0), (i, df, dr)


@pytest.mark.parametrize("wiring,start,runs", WIRINGS)
def test_led_buffer_decodes_to_the_frame(wiring, start, runs):
    rnd = random.Random(1000 + WIRINGS.index((wiring, start, runs)))
    frame = bytearray(rnd.randrange(256) for _ in range(189))
    frame[0:3] = b"\x00\x00\xff"                 # a1 blue
    frame[62 * 3:63 * 3] = b"\xff\x00\x00"       # g9 red
    for brightness in (100, 40, 7):
        vboard.reset()
        leds = fw_leds.Leds(cfg.LED_PIN, wiring, start, runs, brightness, budget_ma=100000,
                            ma_per_channel=20)
        leds.show(frame)
        strip = fake_neopixel.instances[-1]
        raw = strip.frames[-1]                   # the bytes the strip received
        got = decode.decode_leds(raw, wiring, start, runs)
        s = leds.last_scale
        want = [tuple(frame[3 * sq + c] * s >> fw_leds.SHIFT for c in range(3))
                for sq in range(63)]
        assert got == want, (wiring, start, runs, brightness)
    # The decoder walks the chain, the firmware computes it: two derivations that agree.
    for sq in range(63):
        assert decode.chain_index(sq, wiring, start, runs) == \
            fw_leds.chain_index(sq, wiring, start, runs)


def test_led_current_cap_is_shown_as_sent():
    vboard.reset()
    leds = fw_leds.Leds(cfg.LED_PIN, "serpentine", "a1", "ranks", 100, budget_ma=350,
                        ma_per_channel=20, idle_ma=1)
    frame = bytearray(b"\xff" * 189)              # all white: far over the cap
    leds.show(frame)
    got = decode.decode_leds(fake_neopixel.instances[-1].frames[-1])
    v = 255 * leds.last_scale >> fw_leds.SHIFT
    assert 0 < v < 255 and got == [(v, v, v)] * 63


def test_led_decoding_rejects_unknown_wiring():
    with pytest.raises(ValueError):
        decode.decode_leds(bytes(189), "zigzag")


# --- OLED -------------------------------------------------------------------------------------
def oled_on_fake_bus(flip=False):
    vboard.reset()
    i2c = machine.I2C(cfg.I2C_ID, sda=machine.Pin(cfg.I2C_SDA_PIN),
                      scl=machine.Pin(cfg.I2C_SCL_PIN), freq=cfg.I2C_FREQ)
    return SSD1306(i2c, cfg.OLED_ADDR, 128, 64, flip), i2c


def decoded(i2c):
    d = decode.Oled()
    for addr, data in i2c.writes:
        assert addr == cfg.OLED_ADDR
        d.write(data)
    assert d.errors == []
    return d


def draw_known(oled):
    oled.fill(0)
    for x, y in ((0, 0), (127, 0), (0, 63), (127, 63), (5, 10), (64, 31), (9, 7), (9, 8)):
        oled.pixel(x, y, 1)
    oled.fill_rect(100, 40, 6, 9, 1)
    oled.line(10, 60, 60, 20, 1)
    oled.text("Barragoon", 20, 2, 1)


@pytest.mark.parametrize("flip", (False, True))
def test_oled_writes_decode_to_the_framebuffer(flip):
    oled, i2c = oled_on_fake_bus(flip)
    draw_known(oled)
    oled.show()
    d = decoded(i2c)
    assert d.on and not d.inverse and d.addr_mode == 0
    assert d.seg_remap == (not flip) and d.com_reverse == (not flip)
    for y in range(64):
        for x in range(128):
            assert d.drawn(x, y) == oled.pixel(x, y), (x, y)
            assert d.lit(x, y) == oled.pixel(x, y), (x, y)
    rows = decode.rows_from_hex(d.rows_hex())
    assert rows == [[oled.pixel(x, y) for x in range(128)] for y in range(64)]
    assert Picture.from_hex(d.rows_hex()).find("Barragoon") == (20, 2, False)


def test_oled_inverse_power_and_partial_updates():
    oled, i2c = oled_on_fake_bus()
    draw_known(oled)
    oled.show()
    oled.invert(True)
    d = decoded(i2c)
    assert d.inverse and d.lit(5, 10) == 0 and d.lit(6, 10) == 1
    oled.invert(False)
    oled.poweroff()
    d = decoded(i2c)
    assert not d.on and not any(d.lit(x, y) for x in range(128) for y in range(64))
    oled.poweron()
    oled.contrast(10)
    d = decoded(i2c)
    assert d.on and d.contrast == 10 and d.lit(5, 10) == 1


def test_oled_decoder_other_addressing():
    d = decode.Oled()
    d.write(bytes((0x00, 0xAF, 0x20, 0x02, 0xB3, 0x05, 0x12)))    # page mode, page 3, col 0x25
    d.write(bytes((0x40, 0xFF, 0x01)))
    assert d.drawn(0x25, 24) == 1 and d.drawn(0x25, 31) == 1 and d.drawn(0x26, 24) == 1
    assert d.drawn(0x26, 25) == 0
    d.write(bytes((0x80, 0xA7, 0xC0, 0xAA)))                       # Co = 1: one byte each
    assert d.inverse
    assert d.drawn(0x27, 25) == 1 and d.drawn(0x27, 24) == 0
    d.write(bytes((0x00, 0x20, 0x01, 0x21, 10, 11, 0x22, 6, 7)))  # vertical window
    d.write(bytes((0x40, 1, 2, 4, 8)))
    assert d.drawn(10, 48) and d.drawn(10, 57) and d.drawn(11, 50) and d.drawn(11, 59)
    d.write(bytes((0x03,)))
    assert d.errors


# --- occupancy and buttons through the sim's fakes ---------------------------------------------
@pytest.fixture
def link():
    fw = micropython_env.FIRMWARE
    ln = sim_device.install(fw, micropython_env.TOOLS)
    yield ln
    ln.uninstall()
    vboard.reset()


def scan_until_settled(m, t0=0, n=8):
    t = t0
    for _ in range(n):
        m.scan(t)
        t += cfg.SCAN_PERIOD_MS
    return t


def test_occupancy_reaches_the_matrix_scan(link):
    m = Matrix(cfg.MATRIX_ROW_PINS, cfg.MATRIX_COL_PINS, cfg.SENSOR_TYPE, cfg.DIODE_DIRECTION,
               cfg.SENSOR_ACTIVE_LEVEL, cfg.DEBOUNCE_MS, 0, 64, cfg.SCAN_PERIOD_MS)
    pos = start_position()
    occ = "".join("1" if pos.get(sq) else "0" for sq in range(63))
    link.apply_line(json.dumps({"occ": occ}))
    t = scan_until_settled(m)
    assert "".join(str(v) for v in m.occupied) == occ
    d2 = parse_square("d2")
    lifted = occ[:d2] + "0" + occ[d2 + 1:]
    link.apply({"occ": lifted})
    scan_until_settled(m, t)
    assert "".join(str(v) for v in m.occupied) == lifted
    codes = []
    c = m.pop()
    while c >= 0:
        codes.append(c)
        c = m.pop()
    assert codes[-1] == d2                        # the lift event: square, present = 0
    with pytest.raises(ValueError):
        link.apply({"occ": "1"})


def test_button_levels_reach_the_inputs(link):
    up, down, ok = cfg.BUTTON_PINS
    inp = Inputs("buttons", cfg.BUTTON_PINS, cfg.BUTTON_DEBOUNCE_MS, cfg.LONG_PRESS_MS)
    events = []

    def run(t0, ms):
        t = t0
        while t < t0 + ms:
            inp.poll(t)
            c = inp.pop()
            while c >= 0:
                events.append(c)
                c = inp.pop()
            t += 5
        return t

    t = run(0, 50)
    link.apply({"pins": [[up, 0]]})
    t = run(t, 60)
    link.apply({"pins": [[up, 1]]})
    t = run(t, 60)
    assert events == [BTN_UP]
    link.apply({"pins": [[ok, 0]]})
    t = run(t, 60)
    link.apply({"pins": [[ok, None]]})            # released to its pull-up
    t = run(t, 60)
    assert events == [BTN_UP, BTN_OK_DOWN, BTN_OK]   # (OK down as it goes down, OK on release)
    link.apply({"pins": [[ok, 0]]})
    t = run(t, cfg.LONG_PRESS_MS + 100)
    link.apply({"pins": [[ok, 1]]})
    run(t, 60)
    assert events == [BTN_UP, BTN_OK_DOWN, BTN_OK, BTN_OK_DOWN, BTN_BACK]


def test_encoder_detents_from_the_up_down_buttons(link):
    # With INPUT_TYPE = "encoder" the page's UP / DOWN turn the knob one detent: the host
    # steps the A/B contacts through the quadrature cycle (tools/sim.py _encoder_detent).
    a, b, push = cfg.ENCODER_PINS
    for steps in (4, 2, 1):
        vboard.reset()
        inp = Inputs("encoder", cfg.ENCODER_PINS, cfg.BUTTON_DEBOUNCE_MS, cfg.LONG_PRESS_MS,
                     steps)
        events = []
        t = [0]

        def send(msg):
            link.apply(msg)
            inp.poll(t[0])                # the firmware polls between two steps
            t[0] += 5
            c = inp.pop()
            while c >= 0:
                events.append(c)
                c = inp.pop()

        s = simtool.Sim.__new__(simtool.Sim)
        s.enc_ab = 3
        s.lock = simtool.threading.RLock()
        s.device = type("Dev", (), {"send": staticmethod(send)})()
        old = getattr(simtool.fw, "ENCODER_DETENT_STEPS", 4)
        simtool.fw.ENCODER_DETENT_STEPS = steps
        try:
            s._encoder_detent(cfg.ENCODER_PINS, True)
            s._encoder_detent(cfg.ENCODER_PINS, True)
            s._encoder_detent(cfg.ENCODER_PINS, False)
        finally:
            simtool.fw.ENCODER_DETENT_STEPS = old
        assert events == [BTN_DOWN, BTN_DOWN, BTN_UP], steps


def test_link_reports_leds_and_oled_writes(link):
    import io
    out = io.StringIO()
    link.out = out
    vboard.reset()
    machine.i2c_devices.clear()
    machine.i2c_devices[cfg.OLED_ADDR] = link.tap(cfg.OLED_ADDR)
    bus = machine.I2C(cfg.I2C_ID)
    assert bus in link.buses
    oled = SSD1306(bus, cfg.OLED_ADDR)
    leds = fw_leds.Leds(cfg.LED_PIN, cfg.LED_WIRING, cfg.LED_START, cfg.LED_RUNS, 100, 100000)
    frame = bytearray(189)
    frame[3 * parse_square("c3") + 1] = 200
    leds.show(frame)
    oled.text("Hi", 0, 0, 1)
    oled.show()
    link.flush()
    msgs = [json.loads(line) for line in out.getvalue().splitlines()]
    led = [m["leds"] for m in msgs if "leds" in m]
    assert len(led) == 1
    colours = decode.decode_leds(bytes.fromhex(led[0]), cfg.LED_WIRING, cfg.LED_START,
                                 cfg.LED_RUNS)
    assert colours[parse_square("c3")] == (0, 200, 0) and colours.count((0, 0, 0)) == 62
    d = decode.Oled()
    for m in msgs:
        for addr, data in m.get("i2c", ()):
            d.write(bytes.fromhex(data))
    assert Picture.from_hex(d.rows_hex()).find("Hi") == (0, 0, False)
    assert machine.trace == [] and bus.writes == []   # the fakes' logs do not pile up


# --- the firmware process ----------------------------------------------------------------------
class DeviceProc:
    """tools/simulator/device.py as tools/sim.py runs it (on the MicroPython unix port, or on
    CPython where there is none), decoded like tools/sim.py does."""

    def __init__(self, sim_dir, occ, interpreter="micropython"):
        import threading
        mp = micropython_env.find_micropython() if interpreter == "micropython" else None
        dev = simtool.Device(None, sim_dir, mp)
        self.p = subprocess.Popen(dev.command(), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.oled = decode.Oled()
        self.leds = [(0, 0, 0)] * 63
        self.lines = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        self.send({"occ": occ})

    def send(self, obj):
        self.p.stdin.write(json.dumps(obj) + "\n")
        self.p.stdin.flush()

    def _read(self):
        for line in self.p.stdout:
            with self.lock:
                self.lines.append(line)
                if not line.startswith("{"):
                    continue
                m = json.loads(line)
                if "leds" in m:
                    self.leds = decode.decode_leds(bytes.fromhex(m["leds"]), cfg.LED_WIRING,
                                                   cfg.LED_START, cfg.LED_RUNS)
                for addr, data in m.get("i2c", ()):
                    self.oled.write(bytes.fromhex(data))

    def wait(self, cond, what, timeout=30):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if cond():
                return
            time.sleep(0.02)
        raise AssertionError("timed out waiting for %s; OLED:\n%s\noutput: %s" % (
            what, Picture.from_hex(self.oled.rows_hex()).ascii(), self.lines[-5:]))

    def shows(self, text):
        with self.lock:
            rows = self.oled.rows_hex()
        return Picture.from_hex(rows).has(text)

    def press(self, pin):
        self.send({"pins": [[pin, 0]]})
        time.sleep(0.08)
        self.send({"pins": [[pin, 1]]})
        time.sleep(0.08)

    def close(self):
        try:
            self.send({"quit": 1})
            self.p.stdin.close()
        except OSError:
            pass
        try:
            return self.p.wait(5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return self.p.wait()


needs_micropython = pytest.mark.skipif(micropython_env.find_micropython() is None,
                                       reason=micropython_env.missing_reason())


@pytest.mark.parametrize("interpreter", [pytest.param("micropython", marks=needs_micropython),
                                         "cpython"])
def test_device_process_runs_the_firmware_over_stdin_stdout(tmp_path, interpreter):
    pos = start_position()
    occ = "".join("1" if pos.get(sq) else "0" for sq in range(63))
    dev = DeviceProc(str(tmp_path), occ, interpreter)
    try:
        dev.wait(lambda: any('"run"' in line for line in dev.lines), "the firmware loop")
        # A fresh board goes straight to the set-up; the pieces stood there at boot, so the
        # game starts once the board has been still for the settle time.
        dev.wait(lambda: dev.shows("White to move"), "play: the pieces stood there at boot")
        d2 = parse_square("d2")
        dev.send({"occ": occ[:d2] + "0" + occ[d2 + 1:]})
        dev.wait(lambda: dev.leds[parse_square("d5")][1] > 0, "targets lit")
        r, g, b = dev.leds[d2]
        assert b > 0 and r == 0 and g == 0                    # origin: blue
        r, g, b = dev.leds[parse_square("d5")]
        assert g > 0 and r == 0 and b == 0                    # target: green
        d5 = parse_square("d5")
        moved = occ[:d2] + "0" + occ[d2 + 1:d5] + "1" + occ[d5 + 1:]
        dev.send({"occ": moved})
        dev.wait(lambda: os.path.exists(tmp_path / GAME), "the saved game")
        dev.wait(lambda: dev.shows("d2-d5"), "the last turn on the OLED")
        assert "1. d2-d5" in (tmp_path / GAME).read_text()
    finally:
        assert dev.close() == 0


@needs_micropython
def test_device_process_exits_with_status_3_when_the_firmware_resets(tmp_path):
    # A crash in the loop: main() logs it, shows it and calls machine.reset(); the device
    # process ends with status 3 so that tools/sim.py starts it again, like a reboot.
    code = ("import sys\n"
            "sys.path.insert(0, %r)\n"
            "from simulator import device as sim_device\n"
            "sys.path.insert(0, %r)\n"
            "sys.path.insert(0, %r)\n"
            "import vboard\n"
            "vboard.install()\n"
            "import app\n"
            "n = [0]\n"
            "real = app.App.step\n"
            "def step(self):\n"
            "    n[0] += 1\n"
            "    if n[0] > 30: raise ValueError('simulated glitch')\n"
            "    real(self)\n"
            "app.App.step = step\n"
            "sys.exit(sim_device.run(%r, %r, %r))\n"
            % (TOOLS, micropython_env.TOOLS, micropython_env.FIRMWARE,
               micropython_env.FIRMWARE, micropython_env.TOOLS, str(tmp_path)))
    p = subprocess.Popen([micropython_env.find_micropython(), "-c", code], text=True,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=str(tmp_path))
    p.stdin.write(json.dumps({"occ": "0" * 63}) + "\n")
    p.stdin.flush()                               # and keep it open: EOF means "quit"
    try:
        p.wait(60)                                # its output is far below a pipe's buffer
    except subprocess.TimeoutExpired:
        p.kill()
    out, err = p.stdout.read(), p.stderr.read()
    p.stdin.close()
    assert p.returncode == sim_device.RESET_STATUS, out[-2000:] + err[-2000:]
    assert '{"reset": 1}' in out
    assert "simulated glitch" in (tmp_path / "error.log").read_text()


# --- the physical model and the saved game ------------------------------------------------------
def wait_for(cond, timeout=20):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return False


def test_set_up_places_the_start_position_and_faces_follow_the_saved_game(tmp_path):
    s = simtool.Sim(str(tmp_path), None, firmware=False)     # the model alone
    s.start()
    try:
        assert s.act("setup", {"variant": "open"}) == ""
        assert wait_for(lambda: not s.busy)
        st = s.state()
        pos = start_position(1)
        for sq in range(63):
            c = pos.get(sq)
            p = st["board"][sq]
            if not c:
                assert p is None
            elif c & 0x20:
                assert p["kind"] == "tile" and p["value"] == c & 7
                assert p["side"] == (1 if c & 0x10 else 0)
            else:
                assert p == {"id": p["id"], "kind": "barragoon", "face": "A",
                             "confirmed": True}
        assert st["supply"] == 24 and st["box"] == [] and st["hands"] == [[], []]
        # Play d2-d5, capture b4 and place it on d4 as the firmware would save it.
        d2, d5, b4, d4 = (parse_square(n) for n in ("d2", "d5", "b4", "d4"))
        assert s.act("lift", {"sq": d2}) == ""
        assert s.act("put", {"sq": d5}) == ""
        assert s.act("lift", {"sq": d5}) == "" and s.act("lift", {"sq": b4}) == ""
        tile = s.state()["hands"][0][0]
        assert tile["kind"] == "tile" and s.state()["selected"] == tile["id"]
        assert s.state()["next"] == tile["id"]                # what the page highlights
        assert s.act("put", {"sq": b4}) == ""                 # the selected tile
        assert s.state()["next"] == s.state()["hands"][0][0]["id"]
        assert s.act("put", {"sq": d4}) == ""                 # the Barragoon left in hand
        assert s.state()["board"][d4]["confirmed"] is False
        assert s.act("put", {"sq": d4}) == "d4 is occupied"
        g = parse_record('[Variant "open"]\n\n1. d2-d5 d8-d6 2. d5xb4 d4=RE\n')
        _save(tmp_path, format_record(g))
        assert wait_for(lambda: s.state()["game"]["exists"])
        st = s.state()
        assert st["board"][d4]["face"] == "RE" and st["board"][d4]["confirmed"]
        assert st["game"]["last"] == "d5xb4 d4=RE" and st["active"] == 1   # Brown's turn
        assert s.act("take_supply", {}) == "" and s.state()["supply"] == 23
        bid = s.state()["hands"][1][0]["id"]
        assert s.act("put_away", {"id": bid}) == "" and s.state()["supply"] == 24
    finally:
        s.stop()


def test_a_saved_game_is_on_the_board_at_start(tmp_path):
    g = parse_record("1. d2-d5 d8-d6 2. d5xb4 d4=1N d6-c7 3. e1-d2 c7-d5 4. d2xd5\n")
    _save(tmp_path, format_record(g))
    s = simtool.Sim(str(tmp_path), None, firmware=False)
    st = s.state()
    assert st["game"]["placing"] == 1 and st["active"] == 1
    assert [len(h) for h in st["hands"]] == [1, 1]         # both Barragoons still to place
    assert st["supply"] == 32 - 8 - 2 and len(st["box"]) == 1
    for sq in range(63):
        c = g.pos.get(sq)
        p = st["board"][sq]
        assert (p is None) == (c == 0)
        if p and p["kind"] == "barragoon":
            assert p["face"] == simtool.FACES[c - 1]


# --- replay -------------------------------------------------------------------------------------
RECORD_1 = '[Variant "closed"]\n[Express "0 0"]\n[Result "*"]\n\n1. d2-d5 d8-d6\n' \
           '2. d5xb4 d4=1N d6-c7\n3. e1-d2 c7-d5\n4. d2xd5 e6=X b3=A\n'


def test_replay_steps_match_the_rules_core():
    r = simtool.replay_game(RECORD_1)
    assert r["error"] == ""
    tokens = "d2-d5 d8-d6 d5xb4 d4=1N d6-c7 e1-d2 c7-d5 d2xd5 e6=X b3=A".split()
    assert [s["label"] for s in r["steps"]] == ["start"] + tokens
    assert [s["number"] for s in r["steps"][1:]] == [1, 1, 2, 2, 2, 3, 3, 4, 4, 4]
    assert [s["mover"] for s in r["steps"][1:]] == [0, 1, 0, 0, 1, 0, 1, 0, 0, 0]
    assert r["steps"][3]["squares"] == ["d5", "b4"] and r["steps"][4]["squares"] == ["d4"]
    for i in range(len(tokens) + 1):
        g = parse_record("\n".join(tokens[:i]))
        s = r["steps"][i]
        for sq in range(63):
            c = g.pos.get(sq)
            assert (s["board"][sq] is None) == (c == 0)
            if c:
                assert s["board"][sq] == simtool.piece_of_code(c)
        assert (s["side"], s["supply"], s["placing"]) == (g.pos.side, g.pos.supply,
                                                         g.placing())
    assert format_position(parse_record(RECORD_1).pos).endswith("b 22")


def test_records_file_splits_into_games_and_bad_records_say_why():
    two = RECORD_1 + "\n" + '[Variant "open"]\n[Express "1 0"]\n[Result "*"]\n\n1. d2-d4\n' \
        + "\n" + '[Variant "closed"]\n[Result "*"]\n\n'
    games = simtool.split_records(two)
    assert len(games) == 3
    assert simtool.replay_game(games[1])["tags"]["Express"] == "1 0"
    assert len(simtool.replay_game(games[2])["steps"]) == 1
    bad = simtool.replay_game("1. d2-d5 d8-d6 2. d5-d9 e8-e6\n")   # d5-d9 is blocked
    assert bad["error"].startswith("turn 2. d5-d9: ")
    assert [s["label"] for s in bad["steps"]] == ["start", "d2-d5", "d8-d6"]
    wrong = simtool.replay_game('[Result "1-0"]\n\n1. d2-d5\n')    # the game goes on
    assert "record says 1-0" in wrong["error"] and len(wrong["steps"]) == 2
    assert simtool.replay_game('[Variant "odd"]\n\n1. d2-d5\n')["steps"] == []
    s = simtool.Sim.__new__(simtool.Sim)
    s.replay = {"version": 0}
    assert simtool.Sim.load_replay(s, "", "x") == "no game record in x"
    assert simtool.Sim.load_replay(s, two, "records.txt") == ""
    assert len(s.replay["games"]) == 3 and s.replay["version"] == 1


def test_face_bitmaps_are_the_firmwares_icons():
    import framebuf
    from controller import screens
    f = simtool.face_bitmaps(24)
    assert f["size"] == 24 and list(f["faces"]) == list(simtool.FACES)
    buf = bytearray(24 * 3)
    fb = framebuf.FrameBuffer(buf, 24, 24, framebuf.MONO_VLSB)
    screens.face_icon(fb, 0, 0, "RE", 24)
    assert f["faces"]["RE"] == ["".join(str(fb.pixel(x, y)) for x in range(24))
                                for y in range(24)]
    assert f["faces"]["X"] != f["faces"]["A"]
