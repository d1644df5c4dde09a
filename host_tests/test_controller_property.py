# Property test: long random streams of sensor and button events never break the controller,
# its game stays one reachable by legal play, every LED frame holds 63 valid colours, and
# once the physical board matches what the controller expects, normal play resumes.
import os

from hypothesis import given, settings, strategies as st, HealthCheck

from ctl_script import Rig
from barragoon.notation import format_position
from controller import colours as C
from controller.controller import M_PLAY, M_PICK, M_OVER

EXAMPLES = int(os.environ.get("BARRAGOON_FUZZ_EXAMPLES", "100"))
VALID = set(C.PALETTE) | set(C.TEST_CYCLE)



def check_frame(rig):
    f = rig.ctl.frame
    assert len(f) == 189
    for sq in range(63):
        assert bytes(f[sq * 3:sq * 3 + 3]) in VALID


def check_reachable(game):
    # Replaying through the public, validating API proves every action was legal.
    from barragoon.record import format_record, parse_record
    again = parse_record(format_record(game))
    assert format_position(again.pos) == format_position(game.pos)
    assert again.winner == game.winner


def settle_to_play(rig):
    ctl = rig.ctl
    for i in range(6):                      # leave menus, prompts and test views
        if ctl.mode in (M_PLAY, M_PICK, M_OVER):
            break
        rig.run("press back")
    ps = ctl.play
    for sq in range(63):                    # make the board match, swapping restored pieces
        if ps.restore[sq]:
            if rig.board[sq]:
                rig.run("lift " + name(sq))
            rig.run("drop " + name(sq))
    for sq in range(63):
        if rig.board[sq] != ps.expect[sq]:
            rig.run(("drop " if ps.expect[sq] else "lift ") + name(sq))
    rig.advance(400)


def name(sq):
    from barragoon.notation import square_name
    return square_name(sq)


def play_a_turn(rig, data):
    """A legal step as players would make it: a move (lift, victim, set down, rest) or a
    Barragoon placement with a face."""
    g = rig.ctl.game
    if g is None or g.over:
        return
    if g.placing() >= 0:
        empty = [sq for sq in range(63) if not rig.board[sq]]
        sq = data.draw(st.sampled_from(empty))
        downs = data.draw(st.integers(0, 15))
        rig.run("drop %s; wait 350" % name(sq) + "; press down" * downs + "; press ok")
        return
    moves = g.legal_moves()
    if not moves:
        return
    m = data.draw(st.sampled_from(moves))
    frm, to = m // 64, m % 64
    rig.run("lift " + name(frm))
    if rig.board[to]:
        rig.run("lift " + name(to))
    rig.run("drop %s; wait 350" % name(to))


STEPS = st.one_of(
    st.tuples(st.just("toggle"), st.integers(0, 62)),
    st.tuples(st.just("press"), st.integers(1, 4)),
    st.tuples(st.just("wait"), st.integers(0, 600)),
    st.tuples(st.just("turn"), st.just(0)),
    st.tuples(st.just("turn"), st.just(0)),
    st.tuples(st.just("turn"), st.just(0)),
)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.sampled_from([None, "7/7/7/7/3z3/7/7/3D1Z1/6z w 24",
                                   "7/7/7/7/3[A]3/7/7/3D3/6z w 2"]))
def test_random_events_keep_controller_sound(data, start):
    rig = Rig()
    rig.start_game(start)
    n = data.draw(st.integers(1, 80))
    for i in range(n):
        verb, arg = data.draw(STEPS)
        if verb == "toggle":
            rig.board[arg] ^= 1
            rig.ctl.on_square(arg, rig.board[arg], rig.t)
            rig.advance(30)
        elif verb == "press":
            rig.ctl.on_button(arg, rig.t)
            rig.advance(30)
        elif verb == "turn":
            play_a_turn(rig, data)
        else:
            rig.advance(arg)
        check_frame(rig)
    if rig.ctl.game is None:
        return
    check_reachable(rig.ctl.game)
    settle_to_play(rig)
    ctl, ps, g = rig.ctl, rig.ctl.play, rig.ctl.game
    assert ps.mismatches() == 0 or ctl.mode not in (M_PLAY, M_PICK)
    if ctl.mode != M_PLAY or g.over:
        return
    # Normal play resumes: finish what the hands hold, then a legal turn goes through.
    if ps.held >= 0:
        rig.run("drop " + name(ps.held))
    if ps.victim >= 0:
        rig.run("drop " + name(ps.victim))
    rig.advance(400)
    if g.placing() >= 0:
        for k in range(2):                  # after a tile capture both sides place
            if g.placing() < 0:
                break
            for sq in range(63):
                if not rig.board[sq]:
                    rig.run("drop %s; wait 400; press ok" % name(sq))
                    break
        assert g.placing() < 0 or g.over
        return
    moves = [m for m in g.legal_moves()
             if (ps.touched < 0 or m // 64 == ps.touched)
             and (ps.must_capture < 0 or m % 64 == ps.must_capture)]
    assert moves, "no move satisfies the touch-move obligations"
    m = moves[0]
    before = len(g.actions)
    rig.run("lift " + name(m // 64))
    if rig.board[m % 64]:
        rig.run("lift " + name(m % 64))
    rig.run("drop %s; wait 400" % name(m % 64))
    assert len(g.actions) == before + 1
    check_reachable(g)
