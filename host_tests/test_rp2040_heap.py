# The heap a game leaves free, on the emulated Pico (tools/rp2040) with the real firmware as
# deployed: what a game does not need is not loaded, and what a hint or a game against the board
# loaded is dropped again when they are done (controller/lazy.py). A two-player game on a fresh
# board, with the menu opened and left, never loads the engine, the opponent, the menus, the
# clock nor the USB protocol; a hint works right after a boot and its engine is gone once the hint is cleared; a game
# against the board resumed at boot plays its move, and a new two-player game started from the
# menu drops the engine again. Each check stops main.py (Ctrl-C) and reads sys.modules in the
# REPL, so each test boots its own board; so does the check that the boot leaves the free heap
# in one piece. The hint's first-use time and the heap then in use
# (the modules stay loaded, the stopped App's objects are garbage) are printed (pytest -s).
import re

import pico_bench
from bench.bench_rp2040 import quiet_turns
from rp2040 import board
from toolkit.event_script import square_number as S

pico_bench.require()

LAZY = ("barragoon.engine", "barragoon.evaluation", "controller.opponent", "controller.menus",
        "controller.clock", "controller.protocol", "controller.remote")   # (the last two: only
#                                    once a computer speaks on USB, controller/protocol.py)
LARGEST_FREE = 32 * 1024           # B: more than the engine loaded takes in all (28 KB)
HOLD_MS = 900                      # a long press of OK: the menu (config LONG_PRESS_MS 700)


def loaded(b):
    """(the LAZY modules loaded now, heap in use after gc.collect()), read in the REPL
    once main.py has stopped."""
    out = b.pico.exec("import sys, gc\ngc.collect()\nprint(gc.mem_alloc())\n"
                      "print(' '.join(m for m in %r if m in sys.modules))\n" % (LAZY,))
    heap, names = out.split("\r\n")[:2]
    return names.split(), int(heap)


def hold_ok(b):
    b.press("ok")
    b.wait(HOLD_MS)
    b.release("ok")
    b.wait(300)


def resumed(files=None):
    """A board that boots into the saved game (its pieces standing), at its main loop."""
    image = board.firmware_image(pico_bench.build(), game=True, files=files)
    return pico_bench.start(image, occupied=board.occupancy())


def test_the_modules_loaded_at_boot_leave_the_free_heap_in_one_piece():
    # Each .mpy import opens its file with a 1 KB read buffer, garbage once the module is
    # loaded. Collected only when the heap ran full, one such hole stayed between every two
    # modules: 60 KB free after boot, but in 1.1 KB pieces, and the engine's 2.4 KB blocks
    # found no room (a restart at every power-on of a game against the board). Read once the
    # App is stopped: its objects are then free too, the modules' layout is the boot's.
    b = resumed()
    try:
        out = b.pico.exec("import gc, micropython\ngc.collect()\nmicropython.mem_info()\n")
        largest = 16 * int(re.search(r"max free sz: (\d+)", out).group(1))
        free = int(re.search(r"free: (\d+)", out).group(1))
        print("\nafter boot, stopped: %d B free, the largest free block %d B" % (free, largest))
        assert largest >= LARGEST_FREE, (largest, free)
    finally:
        b.close()


def test_a_two_player_game_never_loads_the_engine_the_menus_or_the_clock():
    # A fresh board with the pieces standing: the set-up sees them and the game starts.
    b = pico_bench.start(board.firmware_image(pico_bench.build()), occupied=board.occupancy())
    try:
        assert b.wait_for(lambda b: b.screen()[:1] == ["White to move"], 3000), b.screen()
        for frm, to in quiet_turns(2):
            b.move(frm, to)
        hold_ok(b)
        assert b.screen()[0] == "Menu" and "Resume" in b.screen()
        b.tap("ok")                                   # Resume
        b.wait(300)
        assert b.screen()[0] == "White to move"
        names, heap = loaded(b)
        print("\ntwo-player game, 2 turns and the menu; stopped: heap in use %d B" % heap)
        assert names == []
    finally:
        b.close()


def test_hint_works_after_boot_and_its_engine_is_dropped_when_cleared():
    b = resumed()
    try:
        hold_ok(b)
        b.tap("up")                                   # from Resume up to the last item: Hint
        assert "Hint" in b.screen()
        t = b.pico.t
        b.tap("ok")
        assert b.wait_for(lambda b: "White could play" in b.screen(), 6000, 20), b.screen()
        shown_ms = b.pico.t - t
        assert len(b.lit()) == 2                      # the hinted move: its tile and target
        b.tap("down")                                 # any button clears it
        b.wait(300)
        assert b.screen()[0] == "White to move" and not b.lit()
        names, heap = loaded(b)
        print("\nhint shown %.0f ms after OK (engine loaded and made, 1 s of thinking); "
              "after it, stopped: heap in use %d B" % (shown_ms, heap))
        assert names == []
    finally:
        b.close()


def test_the_engine_goes_with_the_game_against_the_board():
    b = resumed({board.GAME: ('[Opponent "Brown 1"]\n' + board.game_record()).encode()})
    try:
        assert b.screen()[0] == "White to move"
        b.move(S("d2"), S("d5"), settle_ms=300)
        assert b.wait_for(lambda b: "".join(b.screen()[1:2]).startswith("plays "), 6000), \
            b.screen()
        hold_ok(b)
        b.tap("up")                                   # the last item: New game
        assert "New game" in b.screen()
        b.tap("ok")
        assert b.screen()[0] == "New game" and "Against: player" in b.screen()
        b.tap("ok")                                   # Set up new game: two players
        assert "End and record" in b.screen()         # (the game in progress: asked first)
        b.tap("down")
        b.tap("ok")
        b.wait(200)
        b.set_board(board.occupancy())                # the pieces back at the start
        assert b.wait_for(lambda b: b.screen()[:1] == ["White to move"], 3000), b.screen()
        names, heap = loaded(b)
        print("\nafter a game against the board, a new two-player game; stopped: heap in "
              "use %d B" % heap)
        assert names == []
    finally:
        b.close()
