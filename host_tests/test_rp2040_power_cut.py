# Power cuts on the emulated Pico: the firmware saves the game to real littlefs on emulated
# flash, and every flash erase and program goes through one hook in the emulator. A short game
# is played once while the emulator journals each operation; then, for every operation of the
# saves, the flash as it was when that operation started (the power failed there) is booted:
# the board must come up with the game before that save or the one after it, never a damaged
# or lost game. One cut is also made live, to check the journal tells the truth.
import pytest

import pico_bench
from rp2040 import board
from toolkit.event_script import square_number as S
from files import unseal

pico_bench.require()

MOVES = (("b1", "a3"), ("d8", "d5"))
GAP_MS = 250                      # flash operations further apart than this: another save


def play(b):
    """b1-a3 d8-d5 d2xd5 e7=X d3=1N on a board booted into the start position: five saves."""
    for a, c in MOVES:
        b.move(S(a), S(c))
    b.lift(S("d2"))
    b.wait(100)
    b.lift(S("d5"))
    b.wait(280)                   # off longer than the adjust time, shorter than the settle
    b.drop(S("d5"))
    b.wait(700)
    b.drop(S("e7"))
    b.wait(500)
    b.tap("ok")
    b.wait(300)
    b.drop(S("d3"))
    b.wait(500)
    b.tap("down")
    b.tap("ok")
    b.wait(400)


@pytest.fixture(scope="module")
def game():
    image = board.firmware_image(pico_bench.build(), game=True)
    b = pico_bench.start(image, board.occupancy())
    k0 = len(b.pico.flash_ops())              # booting wrote nothing but resume.flag's removal
    texts = [b.files()[board.GAME].decode()]
    play(b)
    ops = b.pico.flash_ops()
    saves = bursts(ops, k0)
    for end in [s[1] for s in saves]:
        texts.append(board.flashfs.read_files(b.pico.storage(end))[board.GAME].decode())
    # The flash as it was at the start of every operation of the saves (power cut there), and
    # in the long run also with that operation half done. Taken now: a reboot replaces it.
    cuts = {(k, partial): b.pico.storage(k, partial=partial)
            for partial in ((False, True) if pico_bench.LONG else (False,))
            for s in saves for k in range(*s)}
    yield b, image, ops, saves, texts, cuts
    b.close()


def bursts(ops, k0):
    """[(first op, op after the last)] of each save: operations close together in time."""
    out = []
    for k in range(k0, len(ops)):
        prev_end = ops[k - 1]["t"] + board.flash_op_ms(ops[k - 1])
        if out and ops[k]["t"] - prev_end < GAP_MS:
            out[-1][1] = k + 1
        else:
            out.append([k, k + 1])
    return [tuple(s) for s in out]


def test_the_game_saved_five_times_with_erases_and_programs(game):
    b, _, ops, saves, texts, _ = game
    assert len(saves) == 5, saves
    assert texts[-1].endswith("1. b1-a3 d8-d5\n2. d2xd5 e7=X d3=1N\n"), texts[-1]
    assert len(set(texts)) == 6                  # each save changed the game
    kinds = {ops[k]["op"] for s in saves for k in range(*s)}
    assert kinds == {"erase", "program"}
    assert all(0xA0000 <= ops[k]["addr"] < 0xA0000 + 352 * 4096 for s in saves for k in range(*s))


def test_a_power_cut_at_any_flash_operation_of_a_save_keeps_the_old_or_the_new_game(game):
    b, _, ops, saves, texts, cuts = game
    save_of = {k: i for i, s in enumerate(saves) for k in range(*s)}
    pos = board.occupancy()
    checked = 0
    # Every other cut by default (the erases and programs alternate, so both kinds and every
    # save are still cut); every one with BARRAGOON_RP2040_LONG=1.
    chosen = sorted(cuts.items())
    if not pico_bench.LONG:
        chosen = chosen[::2]
    for (k, partial), image in chosen:
        i = save_of[k]
        b.reboot(image, occupied=pos)
        where = "save %d, op %d (%s at 0x%x)%s" % (i, k, ops[k]["op"], ops[k]["addr"],
                                                   " half done" if partial else "")
        files = b.files()
        assert board.BAD not in files, where
        text = files.get(board.GAME, b"lost").decode()
        assert text in (texts[i], texts[i + 1]), where
        # a saved game with moves is offered; one without any goes straight on
        resumed = ["Saved game", "Resume game"] if "1. " in text else ["White to move", "Last -"]
        assert b.screen()[:2] == resumed, (where, b.screen())
        assert "damaged" not in b.console() and "not " not in b.console(), where
        checked += 1
    assert checked == len(chosen) and len(cuts) >= 15
    assert {save_of[k] for (k, _), _ in chosen} == set(range(len(saves)))


def test_a_live_power_cut_leaves_what_the_journal_says(game):
    _, image, ops, saves, _, cuts = game
    k = saves[2][0] + (saves[2][1] - saves[2][0]) // 2       # the middle of the capture's save
    b = pico_bench.start(image, board.occupancy())
    try:
        b.pico.cut_at(k)
        play(b)
        assert len(b.pico.cuts) == 1 and b.pico.cuts[0]["k"] == k
        assert not b.pico.powered
        cut_image = b.pico.storage()
        assert cut_image == cuts[(k, False)]
        b.reboot(occupied=board.occupancy())
        assert b.screen()[:2] == ["Saved game", "Resume game"]
    finally:
        b.close()


def body(data):
    """A saved game's text without its seal (files.py)."""
    text = data.decode()
    return text[unseal(text)[2]:]


def test_a_game_saved_at_the_root_moves_into_saved_through_a_cut_at_any_step(game):
    # Firmware before saved/ kept game.txt at the root, where each save made littlefs compact
    # the root's metadata (every firmware file). The first boot of this firmware moves it:
    # a power cut at any flash operation of that (or halfway through one, in the long run)
    # leaves a board that boots into the same game, at the root or in saved/, never a
    # damaged or lost one, and the next boot finishes the move. (A rename between the two
    # directories failed this: cut between its two commits, littlefs could not find main.py
    # until the next write, and the board stayed at the REPL.)
    b = game[0]
    text = board.game_record() + "1. d2-d5 d8-d6\n"
    old = board.flashfs.build_image(pico_bench.build(), {"game.txt": text.encode()})
    pos = board.occupancy()
    for a, c in (("d2", "d5"), ("d8", "d6")):
        pos[S(a)], pos[S(c)] = 0, 1
    n0 = len(b.pico.flash_ops())
    b.reboot(old, occupied=pos)
    ops = b.pico.flash_ops()
    moved = range(n0, len(ops))
    assert len(moved) >= 2 and {ops[k]["op"] for k in moved} <= {"erase", "program"}
    files = b.files()
    assert body(files[board.GAME]) == text and "game.txt" not in files
    cuts = [(k, partial, b.pico.storage(k, partial=partial))
            for partial in ((False, True) if pico_bench.LONG else (False,)) for k in moved]
    for k, partial, image in cuts:
        where = "op %d (%s)%s" % (k, ops[k]["op"], " half done" if partial else "")
        before = board.flashfs.read_files(image)
        assert body(before.get("game.txt") or before.get(board.GAME)) == text, where
        b.reboot(image, occupied=pos)
        files = b.files()
        assert body(files.get(board.GAME, b"")) == text, where
        assert "game.txt" not in files and board.BAD not in files, where
        assert b.screen()[:2] == ["Saved game", "Resume game"], (where, b.screen())
        assert "damaged" not in b.console() and "not " not in b.console(), where
