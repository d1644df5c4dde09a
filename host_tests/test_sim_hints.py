# The simulator's page follows the board in every mode: the line under the board says what the
# board waits for and the SUPPLY panel counts the Barragoons as the board does (its OLED, its
# saved game), in headless Chromium with the real firmware on the MicroPython unix port.
#
# One game against the board, from a saved game the board resumes at power-on: the player
# captures one of its tiles (the supply is the board's 22 at once, before a Barragoon is taken),
# the board places first (where, with which face), its Barragoon is confirmed, the player
# places, the board moves (carried out for it); then the board's menu, the question before a
# game in progress is ended, the set-up of the new game; and "Set up start position" on the
# page asks before it ends a game in progress, which goes to records.txt as unfinished. A
# second test gives the page's hint the board's state of every other mode (thinking, a
# question, a draw offer, the tests, a hint, game over, a repair) and reads the line.
import os
import shutil
import sys
import time

import pytest

import micropython_env
from cdp_browser import Browser, find_chromium
from processes import stop
from test_sim_e2e import Page, start_sim   # (the page, clicked as a user would)

ROOT = micropython_env.ROOT
ART = os.path.join(ROOT, "host_tests", "artifacts", "sim_hints")
sys.path.insert(0, micropython_env.FIRMWARE)

pytestmark = [
    pytest.mark.skipif(find_chromium() is None,
                       reason="no chromium (apt-get install chromium, or set $CHROMIUM)"),
    pytest.mark.skipif(micropython_env.find_micropython() is None,
                       reason=micropython_env.missing_reason()),
]

# White (the player) takes Brown's d5 with d2; the board plays Brown: it places first.
WHITE_CAPTURES = "6z/7/7/7/3z3/7/7/[X]2D3/7 w 24"


@pytest.fixture
def board_page(tmp_path, request):
    """The simulator with a saved game against the board (Brown, strength 1), and its page."""
    import storage
    from barragoon.game import Game
    sim_dir = str(tmp_path / "board")
    os.makedirs(sim_dir)
    g = Game(WHITE_CAPTURES)
    g.opponent = "Brown 1"
    storage.Storage(sim_dir + "/").save_game(g)
    proc, url = start_sim(sim_dir, ["--lang", "en"])
    art = os.path.join(ART, request.node.name.replace("test_", "", 1))
    shutil.rmtree(art, ignore_errors=True)
    b = Browser(width=1400, height=900)
    try:
        b.goto(url)
        b.wait("window.sim && window.sim.ready && window.sim.model.device.status === 'running'"
               " && window.sim.model.ctl", timeout=60, what="the page and the firmware")
        p = Page(b, sim_dir, art)
        p.texts = b.eval("window.sim.text")
        yield p
        assert not [c for c in b.console if c.startswith("exception")], b.console
    finally:
        b.close()
        stop(proc)


def said(p, key, **values):
    s = p.texts[key]
    for k, v in values.items():
        s = s.replace("{%s}" % k, str(v))
    return s


def set_language(p, code):
    """The page's language choice, as a player makes it."""
    p.b.eval("(function(){var s=document.getElementById('lang'); s.value='%s'; "
             "s.dispatchEvent(new Event('change'));})()" % code)
    p.texts = p.b.eval("window.sim.text")


def supply_shown(p):
    return int(p.b.eval("document.getElementById('supply-count').textContent"))


def own(p):
    return p.model(".ctl.own") or {}


def test_the_hint_line_and_supply_follow_the_board_against_it_and_in_its_menus(board_page):
    p = board_page
    p.wait_oled("White to move")
    p.wait_hint(said(p, "hintPickUp"))
    assert supply_shown(p) == 24
    # --- the player takes the board's tile: the board places first ---------------------------
    p.lift("d2")
    p.lift("d5")
    time.sleep(0.3)
    p.put("d5")
    p.wait(lambda: own(p).get("place"), "the board's placement shown")
    place, face = own(p)["place"], own(p)["face"]
    p.wait_hint(said(p, "hintBoardPlace", side="Brown", sq=place, face=face))
    assert supply_shown(p) == 22 == p.model(".ctl.supply")        # as the board counts
    p.wait_oled("Brown: Barragoon")
    p.shot("board_places")
    victim = [x for x in p.hand(1) if x["kind"] == "tile"][0]
    p.b.click("#hand-piece-%d .away" % victim["id"])
    p.b.click("#take-supply")
    p.wait(lambda: any(x["kind"] == "barragoon" for x in p.hand(p.model(".active"))),
           "a Barragoon in hand")
    assert supply_shown(p) == 22                               # the pile's 23 is not the count
    p.put(place)
    p.wait_hint(said(p, "hintBoardPlaced", side="Brown", sq=place))
    p.press("ok")
    p.wait(lambda: p.model(".ctl.placing") == 0, "the player's own placement next")
    p.wait_hint(said(p, "hintTakeBarragoon", side="White"))
    p.b.click("#take-supply")
    p.wait(lambda: len(p.hand(0)) == 1, "a Barragoon in White's hand")
    p.put("a1")
    p.wait_oled("White: Barragoon")
    p.wait_hint(said(p, "hintChooseFace"))
    p.press("ok")
    # --- the board's move (and the placement it calls for), carried out for it ----------------
    p.wait(lambda: own(p).get("move"), "the board's move shown", 60)
    move = own(p)["move"]
    p.wait_hint(said(p, "hintBoardMove", side="Brown", move=move))
    assert supply_shown(p) == 22
    p.shot("board_moves")
    frm, to = move[:2], move[3:5]
    if "x" in move:
        p.lift(to)
        time.sleep(0.3)
    p.lift(frm)
    p.put(to)
    p.wait(lambda: not own(p).get("move"), "the board's move made")
    if own(p).get("place"):                  # it took a Barragoon: it places it again
        place = own(p)["place"]
        p.wait_hint(said(p, "hintBoardPlace", side="Brown", sq=place, face=own(p)["face"]))
        p.put(place)
        p.wait_hint(said(p, "hintBoardPlaced", side="Brown", sq=place))
        p.press("ok")
    p.wait_oled("White to move")
    p.wait_hint(said(p, "hintPickUp"))
    # --- the board's menu, and the question before the game in progress is ended -------------
    p.press("ok", hold=1.0)
    p.wait_oled("Menu")
    p.wait_hint(said(p, "hintMenu"))
    # --- the page's language changed with the menu open: the menu, the line, the buttons -----
    set_language(p, "de")
    p.wait_oled("Menü", "Zug zurück")             # its items too, not only its title
    p.wait_hint(said(p, "hintMenu"))
    assert p.b.eval("[...document.querySelectorAll('.hw small')].map(e => e.textContent)") == \
        ["AUF", "AB", "halten = ZURÜCK", "ZURÜCK"]
    assert p.b.eval("[...document.querySelectorAll('.hand-label')].every(e => "
                    "e.getBoundingClientRect().height < 24)"), "a hand's label wraps"
    p.shot("menu_deutsch")
    set_language(p, "en")
    p.wait_oled("Menu", "Take back turn")
    p.choose("New game")
    p.choose("Set up new game")
    p.wait_oled("Game not over", "Keep playing")
    p.wait_hint(said(p, "hintEndGame"))
    p.press("down")
    p.wait(lambda: p.oled().has("End and record", inverted=True), "End and record chosen")
    p.press("ok")
    p.wait_oled("Set up the board")
    p.wait_hint(said(p, "hintSetUp"))                   # the pieces do not stand right yet
    p.wait(lambda: "unfinished" in read(p, "records.txt"), "the game recorded as unfinished")
    p.shot("set_up")


def test_set_up_on_the_page_asks_before_it_ends_a_game_in_progress(board_page):
    p = board_page
    p.wait_oled("White to move")
    p.move("d2", "g2")
    p.b.click("#setup")
    p.wait(lambda: not p.b.eval("document.getElementById('new-game-ask').hidden"),
           "the page's question")
    assert p.b.eval("document.getElementById('new-game-ask').textContent").strip().startswith(
        said(p, "newGameAsk"))
    p.shot("asked")
    p.b.click("#new-game-no")                            # keep playing: nothing changes
    assert p.b.eval("document.getElementById('new-game-ask').hidden")
    time.sleep(0.5)
    assert p.model(".game.exists") and not p.model(".busy")
    p.b.click("#setup")
    p.b.click("#new-game-yes")
    p.wait(lambda: p.model(".busy"), "the set-up begun")
    p.wait(lambda: not p.model(".busy"), "the set-up done", 60)
    p.wait_oled("White to move", timeout=60)
    records = read(p, "records.txt")
    assert records.count('[Termination "unfinished"]') == 1 and "1. d2-g2" in records


def test_the_hint_line_says_what_the_board_waits_for_in_every_other_mode(board_page):
    # The page's line from the board's state alone, mode by mode (the two-player modes are
    # played through in test_sim_e2e.py).
    p = board_page
    p.wait_oled("White to move")

    def hint_for(ctl):
        return p.b.eval("nextStep(Object.assign({}, window.sim.model, {ctl: Object.assign("
                        "{mode: 'VsPlay', base: 'VsPlay', supply: 24, placing: -1, "
                        "repair: false}, %s)})).text" % ctl)
    cases = [
        ("{own: {side: 1, thinking: true}}", said(p, "hintBoardThinking", side="Brown")),
        ("{mode: 'Ask'}", said(p, "hintQuestion")),
        ("{mode: 'Offer'}", said(p, "hintOffer")),
        ("{mode: 'Sensors'}", said(p, "hintSensors")),
        ("{mode: 'LedTest'}", said(p, "hintLedTest")),
        ("{mode: 'Brightness'}", said(p, "hintMenu")),
        ("{mode: 'Hint'}", said(p, "hintHint")),
        ("{mode: 'Over', base: 'Over'}", said(p, "hintOver")),
        ("{repair: true}", said(p, "hintRepair")),
        ("{mode: 'Menu', base: 'Menu'}", said(p, "hintMenu")),       # the power-on question
    ]
    for ctl, text in cases:
        assert hint_for(ctl) == text, ctl
    # and with no state from the board (the emulated Pico) the page reads its own model
    assert p.b.eval("nextStep(Object.assign({}, window.sim.model, {ctl: null})).text") == \
        said(p, "hintPickUp")


def read(p, name):
    try:
        with open(os.path.join(p.dir, name), encoding="utf-8") as f:
            return f.read()
    except OSError:
        return ""
