# A new game never throws a game in progress away unasked: New game, Set up new game with a
# turn played asks first ("Keep playing" preselected); keeping it goes back to the game
# untouched, ending it puts the game into records.txt as unfinished (result *, Termination
# "unfinished"), once, also when the power goes off in between; the game waiting at power-on
# is asked about the same way. And a language chosen while a menu is open redraws the menu's
# items, not only its title. Through the board controller with the real storage on a scratch
# folder. Runs on CPython and on the MicroPython unix port (no pytest here).
from checks import scratch_dir
from test_controller import choose
from toolkit.ctl_script import Rig
from barragoon.game import Game
from barragoon.notation import parse_square
from barragoon.record import parse_record
from controller import font, i18n
from controller import modes as M
import storage as S

RUNTIMES = ("cpython", "micropython")


def board(folder):
    """A rig whose controller saves and records through the board's storage, as app.py does."""
    rig = Rig()
    st = S.Storage(folder)
    rig.ctl.on_save = lambda game, duties: st.save_game(game, duties)
    rig.ctl.on_finish = lambda game: st.finish_game(game)
    rig.storage = st
    return rig


def read(folder, name):
    try:
        with open(folder + name) as f:
            return f.read()
    except OSError:
        return ""


def screen(rig):
    """The texts of the screen on top, as drawn now."""
    shown = []
    real = font.text
    font.text = lambda fb, s, x, y, c=1: shown.append(s)
    try:
        rig.ctl.screen_dirty = True
        rig.ctl.render(rig.t, 2)
    finally:
        font.text = real
    return " | ".join(shown)


def played(folder):
    rig = board(folder)
    rig.start_game()
    rig.run("lift d2; drop d5; wait 400; lift d8; drop d6; wait 400")
    assert rig.ctl.game.turn_texts() == ["d2-d5", "d8-d6"]
    return rig


def test_new_game_with_a_game_in_progress_asks_and_keeping_it_changes_nothing():
    d = scratch_dir("newgame_keep")
    rig = played(d)
    game = rig.ctl.game
    rig.run("hold")
    choose(rig, "New game")
    choose(rig, "Set up new game")
    text = screen(rig)
    assert "Game not over" in text and "Keep playing" in text and "End and record" in text
    rig.run("press ok")                              # "Keep playing" is preselected
    assert isinstance(rig.ctl.top, M.Play) and rig.ctl.game is game
    assert game.turn_texts() == ["d2-d5", "d8-d6"] and read(d, "records.txt") == ""
    rig.run("hold")                                  # BACK on the question: the menu again
    choose(rig, "New game")
    choose(rig, "Set up new game")
    rig.run("hold")
    assert isinstance(rig.ctl.top, M.Menu) and rig.ctl.game is game


def test_ending_the_game_in_progress_records_it_as_unfinished():
    d = scratch_dir("newgame_end")
    rig = played(d)
    rig.run("hold")
    choose(rig, "New game")
    choose(rig, "Set up new game")
    rig.run("press down; press ok")                  # "End and record"
    assert isinstance(rig.ctl.top, M.Setup) and not rig.ctl.game.turn_texts()
    records = read(d, "records.txt")
    assert '[Result "*"]\n[Termination "unfinished"]' in records and "1. d2-d5 d8-d6" in records
    again = parse_record(records)
    assert again.unfinished and not again.over and again.turn_texts() == ["d2-d5", "d8-d6"]
    assert rig.storage.load_game() is None           # no game in progress any more
    rig.run("hold")                                  # a new game before a turn: not asked
    choose(rig, "New game")
    choose(rig, "Set up new game")
    assert isinstance(rig.ctl.top, M.Setup) and records == read(d, "records.txt")


def test_the_game_waiting_at_power_on_is_asked_about_and_recorded_unfinished():
    d = scratch_dir("newgame_saved")
    g = Game()
    g.move(parse_square("d2"), parse_square("d5"))
    S.Storage(d).save_game(g)
    rig = board(d)
    saved = rig.storage.load_game()
    occ = bytearray(1 if saved.pos.get(s) else 0 for s in range(63))
    rig.board[:] = occ
    rig.ctl.start(occ, saved)
    assert rig.ctl.top.items[0] == "Resume game"
    choose(rig, "New game")
    choose(rig, "Set up new game")
    assert "Game not over" in screen(rig)
    rig.run("press down; press ok")
    records = read(d, "records.txt")
    assert records.count('[Termination "unfinished"]') == 1 and "1. d2-d5" in records
    assert isinstance(rig.ctl.top, M.Setup)


def test_an_unfinished_game_is_recorded_once_whatever_the_power_does():
    # The power goes off after the game was marked for the records ([Recorded "0"] in
    # game.txt) but before records.txt got it: the next power-on records it, once.
    d = scratch_dir("newgame_cut")
    g = Game()
    g.move(parse_square("d2"), parse_square("d5"))
    g.unfinished = True
    S.Storage(d).save_game(g, "", "", 0)
    rig = board(d)
    saved = rig.storage.load_game()
    assert saved is not None and saved.unfinished
    rig.ctl.start(bytearray(63), saved)
    assert read(d, "records.txt").count('[Termination "unfinished"]') == 1
    assert isinstance(rig.ctl.top, M.Setup)
    again = board(d)
    assert again.storage.load_game() is None
    again.ctl.start(bytearray(63), None)
    assert read(d, "records.txt").count("1. d2-d5") == 1


def test_a_language_chosen_with_a_menu_open_redraws_its_items():
    d = scratch_dir("newgame_lang")
    rig = played(d)
    rig.run("hold")
    assert "Take back turn" in screen(rig)
    try:
        rig.ctl.set_language("de")                   # (as the simulator's page sets it)
        text = screen(rig)
        assert "Menü" in text and "Zug zurück" in text and "Take back turn" not in text
        choose(rig, "Neues Spiel")
        rig.ctl.set_language("it")
        text = screen(rig)
        assert "Nuova partita" in text and "Neues Spiel" not in text
    finally:
        i18n.set_language("en")
