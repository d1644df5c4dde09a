# Faults on the emulated Pico: a missing or failing OLED, a broken sensor row, a damaged
# game.txt, a full file system. The board boots, plays or shows what is wrong on the LEDs, says
# so on the serial console, logs it in error.log, and loses no game. One emulator for the
# module; each case boots a prepared flash image.
import pytest

import pico_bench
from rp2040 import board, flashfs
from toolkit.event_script import square_number as S

pico_bench.require()

START = board.occupancy()


@pytest.fixture(scope="module")
def bench():
    b = pico_bench.start(boot=False, image=board.firmware_image(pico_bench.build()))
    yield b
    b.close()


def game_image(files=None, moves=True):
    """The firmware and a game in progress (d2-d5 d8-d6 played), resumed at boot."""
    text = board.game_record()
    if moves:
        text += "1. d2-d5 d8-d6\n"
    extra = {board.GAME: text.encode(), "resume.flag": b""}
    extra.update(files or {})
    return flashfs.build_image(pico_bench.build(), extra)


def after_moves():
    occ = bytearray(START)
    for a, c in (("d2", "d5"), ("d8", "d6")):
        occ[S(a)], occ[S(c)] = 0, 1
    return occ


def log(b):
    return b.files().get("error.log", b"").decode()


def test_no_oled_answering_the_board_plays_on_with_its_leds_and_says_so(bench):
    b = bench
    b.pico.set_oled(False)
    b.reboot(game_image(), after_moves())       # the watchdog runs from boot on
    b.lift(S("d5"))
    b.wait(100)
    lit = b.lit()
    assert lit["d5"][2] > 0 and len(lit) > 3     # origin and targets light up
    b.drop(S("e4"))
    b.wait(700)
    assert b.files()[board.GAME].decode().endswith("2. d5-e4\n")
    assert "OLED at I2C 0x3c not answering" in b.console()
    assert "OLED at I2C 0x3c not answering" in log(b)
    assert b.screen() == [] and not b.pico.resets
    b.wait(8500)                                 # longer than the watchdog's 8 s
    assert not b.pico.resets


def test_an_oled_that_stops_answering_mid_game_is_logged_and_comes_back(bench):
    b = bench
    b.pico.set_oled(True)
    b.reboot(game_image(), after_moves())
    assert b.screen()[:2] == ["White to move", "Last d8-d6"]
    b.pico.set_oled(False)
    b.move(S("d5"), S("e4"))
    assert b.files()[board.GAME].decode().endswith("2. d5-e4\n")
    assert "not answering" in log(b) and not b.pico.resets
    assert b.screen()[0] == "White to move"      # the display still shows the old screen
    b.pico.set_oled(True)                        # plugged in again: back within 10 s
    b.wait(10500)
    b.move(S("d6"), S("d9"))
    assert b.screen()[:2] == ["White to move", "Last d6-d9"]


def test_a_broken_sensor_row_is_shown_on_the_leds_and_the_game_is_kept(bench):
    b = bench
    b.pico.set_oled(True)
    image = game_image()
    b.pico.stick_rows(1 << 0)                    # rank 1's row wire is broken
    b.reboot(image, after_moves())
    lit = b.lit()
    rank1 = {"b1", "c1", "e1", "f1"}             # where White's back row stands
    assert rank1 <= set(lit), lit                # the board asks for those pieces...
    assert all(lit[sq][0] == lit[sq][1] == lit[sq][2] > 0 for sq in rank1)   # (white)
    assert b.files()[board.GAME] == flashfs.read_files(image)[board.GAME]          # ...kept
    b.pico.stick_rows(0)                         # repaired
    b.wait(500)                                  # (still for the settle time)
    assert b.lit() == {}
    b.move(S("d5"), S("e4"))
    assert b.files()[board.GAME].decode().endswith("2. d5-e4\n")


@pytest.mark.parametrize("what,data", [
    ("bad bytes", b"\x00\x13\xff\xfe\x80 garbage \x01\x02"),
    ("truncated", (board.game_record() + "1. d2-d5 d8-d").encode()),
    ("not UTF-8", (board.game_record() + "1. d2-d5 d8-d6\n").encode().replace(b"d8", b"\xe9\xff")),
    ("too big for the heap", (board.game_record() + "1. d2-d5 d8-d6\n").encode() + b" " * 300000),
])
def test_a_damaged_saved_game_is_kept_aside_and_the_board_starts_cleanly(bench, what, data):
    b = bench
    b.pico.set_oled(True)
    b.pico.serial.clear()
    image = game_image({board.GAME: data})
    b.pico.power_off()
    b.pico.load_storage(image)
    b.pico.power_on()
    assert b.wait_for(lambda b: b.screen()[:3] == ["Saved game", "damaged: kept", "as game.bad"],
                      8000), (what, b.screen(), b.console())    # shown while it boots
    b.boot(START)
    files = b.files()
    assert files[board.BAD] == data, what       # nothing lost; game.txt: at most a new game
    assert b"1." not in files.get(board.GAME, b""), what
    assert "saved game not loaded, kept as game.bad" in b.console(), what
    assert "kept as game.bad" in files["error.log"].decode(), what
    b.wait(1000)                                 # a clean start: a new game, pieces standing
    assert b.screen()[:2] == ["White to move", "Last -"], what
    assert b.files()[board.BAD] == data, what
    assert not b.pico.resets, what


# Every block is taken on the host (flashfs.fill_blocks); small files still fit inside the
# directory's metadata, so the board itself adds them until one does not fit.
FILL = """
n = 0
try:
    while True:
        with open('fill%d' % n, 'wb') as f:
            f.write(b'x' * 64)
        n += 1
except OSError as e:
    assert e.args[0] in (28, 36), e   # ENOSPC, or no room for a name (storage._FULL)
print(n)
"""


def test_a_full_file_system_shows_storage_full_and_the_game_goes_on(bench):
    b = bench
    b.pico.set_oled(True)
    b.reboot(flashfs.fill_blocks(game_image()), after_moves())
    b.pico.exec(FILL, timeout_ms=60000)          # the board's own littlefs fills up
    b.reboot(occupied=after_moves())
    assert b.screen()[:2] == ["Saved game", "Resume game"]
    b.tap("ok")
    saved = b.files()[board.GAME]
    b.move(S("d5"), S("e4"))
    # littlefs works hard before it gives up on a full flash: that step takes about 2 s.
    assert b.wait_for(lambda b: "storage full" in b.screen(), 8000), b.screen()
    assert "storage full" in b.console()
    b.move(S("d6"), S("d9"))                     # play goes on
    assert b.wait_for(lambda b: b.screen()[:2] == ["White to move", "Last d6-d9"], 8000)
    assert "storage full" in b.screen()
    assert not b.pico.resets
    # The last save that fitted is intact: game.txt is small and kept inside saved/'s own
    # metadata, so it may still fit where events.txt did not.
    text = b.files()[board.GAME].decode()
    assert text == saved.decode() or text.endswith("2. d5-e4 d6-d9\n"), text


# Milliseconds after a move's drop. At 290.3 the interrupt lands while the commit's work runs
# in C and the timer's scan is the next Python code to run; before the scan handed it on to the
# loop it was lost there ("Uncaught exception in IRQ callback handler"), main.py went on, and
# mpremote could not flash the board.
CTRL_C_AFTER_DROP_MS = (250.0, 271.7, 284.1, 287.2, 290.3, 293.4, 296.5, 310.0)


def test_one_ctrl_c_stops_the_firmware_at_any_moment_of_a_turn(bench):
    b = bench
    image = game_image(moves=False)
    missed = []
    # Every other moment by default (290.3 ms among them: where the old firmware lost it every
    # time), all eight with BARRAGOON_RP2040_LONG=1.
    for after in CTRL_C_AFTER_DROP_MS if pico_bench.LONG else CTRL_C_AFTER_DROP_MS[::2]:
        b.reboot(image, START)
        b.wait(300)
        b.lift(S("d2"))
        b.wait(120)
        b.drop(S("d5"))
        b.wait(after)
        mark = len(b.pico.serial)
        b.pico.write(b"\r\x03")                 # what mpremote sends, once
        if not b.pico.run_for(600, stop_on=b">>> "):
            missed.append((after, bytes(b.pico.serial[mark:])[-120:]))
    assert missed == []
