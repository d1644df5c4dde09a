# tools/engine.py run as a script with CPython and with the MicroPython unix port: the turn it
# prints is legal, both interpreters print the same turn and evaluation for the same work, and
# mistakes get one line and exit status 2. CPython test (pytest).
import os
import subprocess
import sys

import pytest

import micropython_env
from barragoon.game import Game, START
from barragoon.notation import parse_move, parse_placement

TOOL = os.path.join(micropython_env.ROOT, "tools", "engine.py")
START_CLOSED = START.format("X")
MIDDLE = "2d1dv1/2z[X]3/2[X]4/v[X]D[X]1z1/[X]1[X]3[X]/5[X]1/V2V3/1Z[X][X]Z2/2D1D2 w 22"


def run(interp, *args):
    if interp == "micropython":
        mp = micropython_env.find_micropython()
        if mp is None:
            pytest.skip(micropython_env.missing_reason())
        cmd = [mp]
    else:
        cmd = [sys.executable]
    proc = subprocess.run(cmd + [TOOL] + list(args), capture_output=True, text=True,
                          timeout=300, cwd=micropython_env.ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def play(position, text):
    """Play the printed turn on a Game: RulesError if any part is illegal."""
    g = Game(position)
    words = text.split()
    frm, to, capture = parse_move(words[0])
    g.move(frm, to)
    for w in words[1:]:
        sq, face = parse_placement(w)
        g.place(sq, face)
    assert g.placing() == -1, "%s: a placement is missing" % text
    return g


@pytest.mark.parametrize("interp", ["python", "micropython"])
def test_prints_a_legal_turn_and_its_evaluation(interp):
    code, out, err = run(interp, MIDDLE, "--steps", "800")
    assert code == 0, err
    turn, evaluation = out.splitlines()
    play(MIDDLE, turn)
    assert evaluation.startswith("evaluation: ") and "for White" in evaluation


CROWDED = ("v[RN]d[X]d[A]v/1z[2H]z[1S]2/[LE]1d[A]1[1W]1/1[X]2[RS]1[2V]/[A]1[X]1[1N]2/"
           "1[RE]1D1[X]1/[1E]1Z[A]Z1[LS]/2[2H]D3/1VD2V1 w 12")


@pytest.mark.parametrize("position", [MIDDLE, CROWDED])
def test_same_turn_evaluation_and_work_on_both_interpreters(position):
    # The engine's viper kernels are machine code on MicroPython and plain Python on CPython:
    # the same turn, score, depth and nodes for the same work (all but the time).
    outs = [run(i, position, "--steps", "6000")[1].rsplit(",", 1)[0]
            for i in ("python", "micropython")]
    assert outs[0] == outs[1] and "nodes" in outs[0], outs


def test_depth_time_and_express_options():
    code, out, err = run("python", START_CLOSED, "--depth", "2", "--stages", "1,0")
    assert code == 0 and "depth 2" in out, err
    code, out, err = run("python", START_CLOSED, "--time", "0.2")
    assert code == 0, err
    play(START_CLOSED, out.splitlines()[0])


def test_help():
    code, out, err = run("python", "--help")
    assert code == 0 and "--depth" in out and "--time" in out


@pytest.mark.parametrize("args,message", [
    (("7/7 w 0",), "9 ranks"),
    ((START_CLOSED, "--depth"), "needs a value"),
    ((START_CLOSED, "--depth", "x"), "needs a number"),
    ((START_CLOSED, "--time", "1", "--depth", "2"), "one of"),
    ((START_CLOSED, "--stages", "3,0"), "between 0 and 2"),
    ((START_CLOSED, "--fast"), "unknown option"),
    ((), "no position"),
    (("6z/7/7/7/7/7/7/[X]6/Z[X]5 w 0",), "game is over"),
    (("7/7/7/7/7/7/7/7/Z6 b 0",), "no tiles"),
])
def test_mistakes_get_one_line_and_status_2(args, message):
    code, out, err = run("python", *args)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and message in err, err
