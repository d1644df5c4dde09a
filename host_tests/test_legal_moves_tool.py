# tools/legal_moves.py, run as a script with CPython and with the MicroPython unix port: both
# must print exactly the same, and what they print must be the moves of the independent
# reference generator (host_tests/reference_moves.py). CPython test (pytest); MicroPython is
# started once per mode, not once per position.
import os
import random
import subprocess
import sys

import pytest

import micropython_env
from barragoon.core import EMPTY
from barragoon.game import Game, START, CLOSED, OPEN
from barragoon.notation import format_position
from reference_moves import reference_moves

TOOL = os.path.join(micropython_env.ROOT, "tools", "legal_moves.py")

NO_MOVES = "7/7/7/7/7/7/7/[X]6/Z[X]5 w 0"       # a boxed-in 2-tile
NO_TILES = "7/7/7/7/7/7/7/7/7 b 0"
CROWDED = ("[X][1N][1E][1S][1W][2V][2H]/[RN][RE][RS][RW][LN][LE][LS]/[LW][A]ZZDDD/"
           "VVzzddd/vv5/1[2V]1[RS]1[A]1/6[X]/[2H]6/7 b 11")


def interpreters():
    """{name: command} of the interpreters to run the tool with (None: not installed)."""
    mp = micropython_env.find_micropython()
    return {"python": [sys.executable], "micropython": [mp] if mp else None}


def run(cmd, args=(), stdin="", cwd=None):
    if cmd is None:
        pytest.skip(micropython_env.missing_reason())
    proc = subprocess.run(cmd + [TOOL] + list(args), input=stdin, capture_output=True,
                          text=True, timeout=300, cwd=cwd or micropython_env.ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def random_positions(count, seed=5):
    """Positions met in random play from both starts (fixed seed), a few mid-placement."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game(variant=rng.choice((CLOSED, OPEN)))
        for _ in range(rng.randint(1, 120)):
            if game.over:
                break
            if game.placing() >= 0:
                empty = [sq for sq in range(63) if game.pos.get(sq) == EMPTY]
                game.place(rng.choice(empty), rng.randint(1, 16))
                continue
            moves = game.legal_moves()
            if not moves:
                break
            m = rng.choice(moves)
            game.move(m // 64, m % 64)
        out.append(format_position(game.pos))
    return out


POSITIONS = ([START.format("X"), START.format("A"), START.format("X").replace(" w ", " b "),
              CROWDED, NO_MOVES, NO_TILES] + random_positions(60))


def expected_line(text):
    return " ".join(sorted(reference_moves(text)))


def test_positions_cover_the_interesting_cases():
    assert expected_line(NO_MOVES) == "" and expected_line(NO_TILES) == ""
    assert any("x" in expected_line(p) for p in POSITIONS)
    assert any(" b " in p for p in POSITIONS) and any(" w " in p for p in POSITIONS)
    assert len(set(POSITIONS)) > 50


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """Every run both interpreters make, once: {(interpreter, mode): (rc, out, err)}.
    They run in an empty directory: the tool finds firmware/ from its own path."""
    cwd = str(tmp_path_factory.mktemp("cwd"))
    stdin_text = "".join(p + "\n" for p in POSITIONS)
    bad_stdin = POSITIONS[0] + "\n" + POSITIONS[1] + "\n7/7/7/7/3[9Q]3/7/7/7/7 w 0\n" + \
        POSITIONS[2] + "\n"
    results = {}
    for name, cmd in interpreters().items():
        if cmd is None:
            continue
        results[name, "argument"] = run(cmd, [CROWDED], cwd=cwd)
        results[name, "bad argument"] = run(cmd, ["7/7/7/7/7/7/7/7/7/7 w 0"], cwd=cwd)
        results[name, "stdin"] = run(cmd, stdin=stdin_text, cwd=cwd)
        results[name, "bad stdin"] = run(cmd, stdin=bad_stdin, cwd=cwd)
    return results


def result(outputs, interpreter, mode):
    if (interpreter, mode) not in outputs:
        pytest.skip(micropython_env.missing_reason())
    return outputs[interpreter, mode]


INTERPRETERS = ("python", "micropython")


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_argument_mode_prints_sorted_moves_one_per_line(outputs, interpreter):
    rc, out, err = result(outputs, interpreter, "argument")
    assert (rc, err) == (0, "")
    lines = out.splitlines()
    assert lines == sorted(reference_moves(CROWDED))
    assert lines == sorted(lines) and len(lines) == len(set(lines)) and lines
    assert out.endswith("\n")


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_stdin_mode_prints_one_line_per_position(outputs, interpreter):
    rc, out, err = result(outputs, interpreter, "stdin")
    assert (rc, err) == (0, "")
    lines = out.split("\n")
    assert lines[-1] == ""                    # every line ends with a newline
    lines = lines[:-1]
    assert len(lines) == len(POSITIONS)
    for text, line in zip(POSITIONS, lines):
        assert line == expected_line(text), text
        assert line.split() == sorted(line.split())
    assert lines[POSITIONS.index(NO_MOVES)] == "" and lines[POSITIONS.index(NO_TILES)] == ""


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_bad_input_is_named_on_stderr_with_status_2(outputs, interpreter):
    rc, out, err = result(outputs, interpreter, "bad argument")
    assert rc == 2 and out == ""
    assert err.startswith("legal_moves: ") and "9 ranks" in err and "got 10" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    rc, out, err = result(outputs, interpreter, "bad stdin")
    assert rc == 2
    assert out.splitlines() == [expected_line(POSITIONS[0]), expected_line(POSITIONS[1])]
    assert "line 3" in err and "9Q" in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_both_interpreters_print_the_same(outputs):
    for mode in ("argument", "bad argument", "stdin", "bad stdin"):
        if ("micropython", mode) not in outputs:
            pytest.skip(micropython_env.missing_reason())
        assert outputs["python", mode] == outputs["micropython", mode], mode


def test_more_ways_to_call_it():
    # CPython only: these pin down the interface, the cross-runtime runs above cover the rest.
    py = [sys.executable]
    # the position may come as separate arguments
    rc, out, err = run(py, CROWDED.split())
    assert (rc, err) == (0, "") and out.splitlines() == sorted(reference_moves(CROWDED))
    # a position without legal moves prints nothing
    assert run(py, [NO_MOVES]) == (0, "", "")
    # no input, no output
    assert run(py, stdin="") == (0, "", "")
    # surrounding blanks are ignored
    assert run(py, stdin="  " + NO_TILES + "  \n" + NO_MOVES + "\n") == (0, "\n\n", "")
    # a blank line (a file's last line, a gap between groups) answers with a blank line
    rc, out, err = run(py, stdin="\n" + NO_TILES + "\n\n  \n" + CROWDED + "\n")
    assert (rc, err) == (0, "") and out.split("\n")[:4] == ["", "", "", ""]
    assert out.split("\n")[4] == expected_line(CROWDED)
    # --help explains instead of being read as a position; unknown options are refused
    rc, out, err = run(py, ["--help"])
    assert rc == 0 and "standard input" in out and err == ""
    rc, out, err = run(py, ["-n", CROWDED])
    assert rc == 2 and out == "" and err == "legal_moves: unknown option -n (see --help)\n"
    for bad, words in (("7/7/7/7/3q3/7/7/7/7 w 0", ("unknown piece", "'q'")),
                       ("7/7/7/7/7/7/7/7/7 x 0", ("side to move", "'x'")),
                       ("7/7/7/7/7/7/7/7/7 w 33", ("33 Barragoons",)),
                       ("VVV4/7/7/7/7/7/7/7/7 w 0", ("3 4-tiles",))):
        rc, out, err = run(py, [bad])
        assert rc == 2 and out == "", bad
        for w in words:
            assert w in err, (bad, err)
