# tools/replay.py, run as a script with CPython and with the MicroPython unix port: a record is
# replayed turn by turn (number, turn, position after it, then the result); a refused record,
# a wrong file or a wrong option gives exit status 2 and one line on stderr, never a traceback;
# both interpreters print exactly the same. CPython test (pytest) that starts the tool.
import os
import subprocess
import sys

import pytest

import micropython_env
from barragoon.game import Game
from barragoon.notation import format_position
from barragoon.record import format_record, parse_record, play_token, result_text, turn_label

TOOL = os.path.join(micropython_env.ROOT, "tools", "replay.py")
GAMES = os.path.join(micropython_env.ROOT, "tools", "games")
EXAMPLES = ("short-win.txt", "placements.txt", "repetition-draw.txt")
WORKED = "4v1v/7/7/7/7/7/7/7/V6 w 24"     # RULES.md: White 4-tile a1, Brown 4-tiles g9, e9
BLOCK = "a1-a4 g9-g6 a4-a1 g6-g9 "


def runtimes():
    mp = micropython_env.find_micropython()
    return [("python", [sys.executable]),
            pytest.param(("micropython", [mp]), marks=pytest.mark.skipif(
                mp is None, reason=micropython_env.missing_reason()))]


@pytest.fixture(params=runtimes(), ids=lambda r: r[0])
def interpreter(request):
    return request.param[1]


def run(cmd, *args):
    proc = subprocess.run(cmd + [TOOL] + list(args), capture_output=True, text=True,
                          timeout=300, cwd=micropython_env.ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def record_of(turns, start=None):
    game = Game(start)
    for token in turns.split():
        play_token(game, token)
    return game, format_record(game)


def expected_lines(text):
    """What the tool must print for a legal record, computed here through the rules core."""
    lines = []

    def each_turn(game):
        lines.append("%s %s  %s" % (turn_label(len(lines), game.start.side),
                                    game.last_turn_text(), format_position(game.pos)))
    game = parse_record(text, each_turn)
    tail = " (%s)" % game.reason if game.over else ""
    return lines + ["result: %s%s" % (result_text(game), tail)]


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_example_games_replay_turn_by_turn(interpreter):
    for name in EXAMPLES:
        path = os.path.join(GAMES, name)
        rc, out, err = run(interpreter, path)
        assert (rc, err) == (0, ""), (name, err)
        with open(path) as f:
            assert out.splitlines() == expected_lines(f.read()), name
    rc, out, err = run(interpreter, os.path.join(GAMES, "placements.txt"))
    assert out.splitlines()[0].startswith("1. c1xc4 e4=2V  ")
    assert out.splitlines()[-1] == "result: 0-1 (no tiles left)"


def test_offer_decline_and_accept_round_trip(interpreter, tmp_path):
    for turns in (BLOCK * 3 + "(offer) (accept)",
                  BLOCK * 3 + "(offer) (decline) a1-b4",
                  BLOCK * 3 + "a1-a4 (offer) (decline) g9-g5 a4-a1 (agree)",
                  BLOCK * 2 + "a1-a4"):
        game, text = record_of(turns, WORKED)
        rc, out, err = run(interpreter, write(tmp_path, "g.txt", text))
        assert (rc, err) == (0, ""), err
        lines = out.splitlines()
        assert [line.split("  ")[0].split(" ", 1)[1] for line in lines[:-1]] == \
            game.turn_texts()
        assert lines == expected_lines(text)
    assert lines[-1] == "result: *"


def test_help_shows_real_output(interpreter, tmp_path):
    rc, out, err = run(interpreter, "--help")
    assert rc == 0 and out.startswith("usage: python tools/replay.py FILE [--game N]")
    example = [line.strip() for line in out.splitlines() if line.startswith("    1. d2-d5")]
    rc, out, err = run(interpreter, write(tmp_path, "g.txt", "1. d2-d5\n"))
    assert example == [out.splitlines()[0]]


def test_refused_record_names_the_turn(interpreter, tmp_path):
    # White offers after the 13th turn; Brown declines and repeats anyway.
    game, text = record_of(BLOCK * 3 + "a1-a4 (offer) (decline)", WORKED)
    text += "g9-g6\n"
    path = write(tmp_path, "bad.txt", text)
    rc, out, err = run(interpreter, path)
    assert rc == 2
    assert err == ("replay: %s: turn 7... g9-g6: g9-g6 repeats the sequence: Brown must "
                   "deviate\n" % path)
    assert len(out.splitlines()) == 13 and out.splitlines()[-1].startswith("7. a1-a4 (offer)")
    # an illegal move, a bad placement, a false result
    for body, message in (("1. d2-d6\n", "turn 1. d2-d6: illegal move d2-d6"),
                          ("1. d2-d5 d8-d6 2. d5xb4 d4=Q\n", "turn 2. d4=Q: unknown face code"),
                          ('[Result "1-0"]\n\n1. d2-d5\n', "record says 1-0 but the game gives *"),
                          ('[Start "7/7/7/7/7/7/7/7/Z6 w 24"]\n', "Brown has no tiles")):
        rc, out, err = run(interpreter, write(tmp_path, "bad.txt", body))
        assert rc == 2 and err.startswith("replay: %s: %s" % (path, message)), err
        assert len(err.splitlines()) == 1


def test_records_file_chooses_a_game(interpreter, tmp_path):
    texts = []
    for name in EXAMPLES:
        with open(os.path.join(GAMES, name)) as f:
            texts.append(f.read())
    path = write(tmp_path, "records.txt", "\n".join(texts))
    rc, out, err = run(interpreter, path)
    assert rc == 2 and out == ""
    assert err == "replay: %s holds 3 games: choose one with --game N (1-3)\n" % path
    for n in (1, 2, 3):
        for args in (["--game", str(n), path], [path, "--game=%d" % n]):
            rc, out, err = run(interpreter, *args)
            assert (rc, err) == (0, "") and out.splitlines() == expected_lines(texts[n - 1])
    rc, out, err = run(interpreter, path, "--game", "4")
    assert rc == 2 and err == "replay: %s holds 3 games, no game 4\n" % path


def test_user_mistakes_get_one_line_and_status_2(interpreter, tmp_path):
    binary = tmp_path / "game.bin"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"1. d2-d5 \xe9\n")
    good = os.path.join(GAMES, "short-win.txt")
    cases = (
        ((), "which record?"),
        (("--bogus", good), "unknown option --bogus"),
        ((good, good), "one record file at a time"),
        ((good, "--game"), "--game needs a number"),
        ((good, "--game", "x"), "--game needs a number from 1, not 'x'"),
        ((good, "--game", "0"), "--game needs a number from 1, not '0'"),
        ((good, "--game", "2"), "holds 1 game, no game 2"),
        ((str(tmp_path / "missing.txt"),), "missing.txt: no such file"),
        ((str(tmp_path),), ": is a directory"),
        ((str(binary),), "game.bin: not a text file"),
        ((str(latin),), "latin.txt: not UTF-8 text"),
        ((write(tmp_path, "empty.txt", "\n\n"),), "empty.txt: no game record in it"),
    )
    for args, words in cases:
        rc, out, err = run(interpreter, *args)
        assert rc == 2 and out == "", (args, rc, out)
        assert err.startswith("replay: ") and words in err, (args, err)
        assert len(err.splitlines()) == 1 and "Traceback" not in err, err


def test_both_interpreters_print_the_same(tmp_path):
    mp = micropython_env.find_micropython()
    if mp is None:
        pytest.skip(micropython_env.missing_reason())
    game, text = record_of(BLOCK * 3 + "a1-a4 (offer) (decline)", WORKED)
    paths = [os.path.join(GAMES, name) for name in EXAMPLES]
    paths.append(write(tmp_path, "bad.txt", text + "g9-g6\n"))
    for args in [[p] for p in paths] + [["--help"], [], ["--game", "x", paths[0]]]:
        assert run([sys.executable], *args) == run([mp], *args), args
