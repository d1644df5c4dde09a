# The simulator offers the game against the board through the firmware's own menus: tools/sim.py
# (the real firmware, on the MicroPython unix port when there is one), driven over its page's
# HTTP API as the page does: New game -> Against: board, set up, a move, the board thinks (its
# work at strength 1, 15,300 units), shows its move on the OLED and the LEDs, the player
# carries it out, and game.txt holds the move and the opponent. CPython only (pytest).
import time

from barragoon.notation import parse_square, square_name
from oled_text import Picture
from test_sim_tool import SimProcess


def oled(sim):
    return Picture.from_hex(sim.state()["oled"]["rows"])


def shows(sim, text):
    return oled(sim).find(text) is not None


def tap(sim, button):
    sim.act("press", button=button)
    time.sleep(0.12)
    sim.act("release", button=button)
    time.sleep(0.25)


def hold(sim):
    sim.act("back")
    time.sleep(1.2)


def pick(sim, label):
    for _ in range(12):
        found = oled(sim).find(label)
        if found and found[2]:                     # shown inverted: the selected row
            tap(sim, "ok")
            return
        tap(sim, "down")
    raise AssertionError("no menu item %r:\n%s" % (label, oled(sim).ascii()))


def test_the_simulator_plays_against_the_board_through_the_firmware_menus(tmp_path):
    sim = SimProcess(str(tmp_path))
    try:
        sim.wait(lambda: shows(sim, "Set up the board"), "the set-up screen")
        hold(sim)
        pick(sim, "New game")
        pick(sim, "Against: player")
        sim.wait(lambda: shows(sim, "Against: board"), "the option")
        assert shows(sim, "You play White") and shows(sim, "Strength 1")
        hold(sim)
        hold(sim)                                  # back to the set-up
        sim.act("setup")
        sim.wait(lambda: not sim.state()["busy"] and shows(sim, "White to move"), "play")
        sim.act("lift", sq=parse_square("d2"))
        time.sleep(0.2)
        sim.act("put", sq=parse_square("d5"))
        # (Its 15,300 units take well under a second on the unix port: "Thinking..." may be
        # gone before a poll sees it, so the board's turn is what is waited for.)
        sim.wait(lambda: shows(sim, "Board: Brown"), "the board's turn")
        sim.wait(lambda: shows(sim, "Board: Brown") and not shows(sim, "Thinking..."),
                 "the board's move", timeout=90)   # (CPython: the engine without viper)
        st = sim.state()
        move = None
        pic = oled(sim)
        for frm in range(63):
            piece = st["board"][frm]
            if not piece or piece.get("kind") != "tile" or piece.get("side") != 1:
                continue
            for to in range(63):
                for sep in "-x":
                    text = "%s%s%s" % (square_name(frm), sep, square_name(to))
                    if pic.find("plays " + text):
                        move = (frm, to, sep, text)
        assert move is not None, pic.ascii()
        frm, to, sep, text = move
        assert any(st["leds"][to])                 # the victim to take off, or the target
        if sep == "x":
            sim.act("lift", sq=to)
            time.sleep(0.5)
        sim.act("lift", sq=frm)
        time.sleep(0.2)
        sim.act("put", sq=to)
        game = sim.wait(lambda: (sim.state()["game"] or {}).get("record", "")
                        if len(sim.state()["game"].get("turns", [])) == 2 else "",
                        "the board's move committed", timeout=20)
        assert '[Opponent "Brown 1"]' in game and "1. d2-d5 " + text in game
    finally:
        sim.stop(2)

