# The judge's parts, each alone (controller/stories.py, touchmove.py, view.py): a Turn set up by
# hand from a position, then the pool of stories, the touch-move duties or the LED view, without
# the judge that normally drives them; and the judge's decision on a pool of stories.
from barragoon.game import Game
from barragoon.notation import parse_square
from controller import colours as C
from controller.stories import Turn, Stories, tables, elapsed, NEW
from controller.touchmove import TouchMove
from controller.judge import Judge
from controller.view import View, N_CAPTURE

RUNTIMES = ("cpython", "micropython")

CAP = "6z/7/7/7/3z3/7/7/[X]2D3/7 w 24"    # d2 can take z on d5 and X on a2


def sq(name):
    return parse_square(name)


def turn_of(position):
    g = Game(position)
    tn = Turn()
    for s in range(63):
        tn.b0[s] = g.pos.get(s)
    tn.side = g.pos.side
    tn.set_moves(g.legal_moves())
    return tn, g


def lift(tn, pool, name, t):
    s = sq(name)
    tn.vac_t[s] = t
    tn.see(s)
    pool.lift(s, t)


def drop(tn, pool, name, t):
    s = sq(name)
    tn.put_t[s] = t
    tn.see(s)
    pool.drop(s, t)


def test_turn_tables_count_the_moves_ending_on_each_square():
    tn, g = turn_of(CAP)
    moves = g.legal_moves()
    assert tn.legal(sq("d2"), sq("d5")) and not tn.legal(sq("d2"), sq("g9"))
    assert tn.dest[sq("d5")] == sum(1 for m in moves if m & 63 == sq("d5"))
    first = tn.movable[sq("d2")] - 1                  # the first of d2's moves (sorted)
    assert moves[first] >> 6 == sq("d2") and (first == 0 or moves[first - 1] >> 6 != sq("d2"))
    dest, movable = bytearray(63), bytearray(63)
    tables(moves, dest, movable)
    assert dest == tn.dest and movable == tn.movable
    from drivers.ticks import ticks_add
    assert elapsed(5, ticks_add(0, -2)) == 7          # across the port's ticks wrap


def test_stories_rank_a_capture_first_however_fast():
    # d2 lifted, the victim on d5 lifted, a piece set on d5 20 ms later: the attacker landing
    # is the likeliest story, the victim put back (while d2 is held) stays alive, less likely.
    tn, g = turn_of(CAP)
    pool = Stories(tn)
    pool.reset(tn.b0)
    lift(tn, pool, "d2", 1000)
    lift(tn, pool, "d5", 1300)
    drop(tn, pool, "d5", 1320)
    h = pool.first()
    assert h.board[sq("d5")] == tn.b0[sq("d2")] and h.n == 1 and h.ac[0] == tn.b0[sq("d5")]
    back = [pool.hs[i] for i in range(pool.nh)
            if pool.hs[i].board[sq("d5")] == tn.b0[sq("d5")]]
    assert back and back[0].cost > h.cost


def test_stories_take_a_piece_set_back_on_its_own_square_for_the_same_piece():
    # A knocked Barragoon put back 40 ms later: the same piece; a piece from outside there
    # (the Barragoon still in a hand) is a less likely story.
    tn, g = turn_of(CAP)
    pool = Stories(tn)
    pool.reset(tn.b0)
    lift(tn, pool, "a2", 1000)
    drop(tn, pool, "a2", 1040)
    h = pool.first()
    assert h.board == tn.b0 and h.n == 0 and h.cost == 0
    others = [pool.hs[i] for i in range(1, pool.nh)]
    assert all(o.cost > 0 for o in others)
    assert any(o.board[sq("a2")] == NEW for o in others)


def test_judge_acts_on_a_board_at_rest_as_a_legal_turn_left_it_with_every_hand_empty():
    # d2-b1, then a spare set on a1, carried to c1 (a target of d2) and taken away. The story
    # of d2's tile still in a hand with the spare standing on b1 ranks first (the spare's
    # move costs it a second stray), but the sensors cannot tell it from d2-b1 with every
    # hand empty: the judge makes d2-b1 at rest and shows no tile in a hand.
    g = Game("7/7/7/7/3z3/7/7/3D1Z1/6z w 24")
    sensed = bytearray(63)
    for s in range(63):
        sensed[s] = 1 if g.pos.get(s) else 0
    j = Judge(sensed)
    j.begin(g)
    for t, name, present in ((1000, "d2", 0), (1300, "b1", 1), (1700, "a1", 1),
                             (1730, "a1", 0), (1790, "c1", 1), (1820, "c1", 0)):
        sensed[sq(name)] = present
        j.event(sq(name), present, t)
    assert j.hs[0].n and j.hs[0].board[sq("b1")] == NEW      # likeliest: the phantom
    j.tick(2160)
    assert j.committed == (sq("d2") << 6) + sq("b1") and j.hs[0].n == 0
    assert j.mean[sq("d2")] == C.OFF and j.err_sq < 0


def test_stories_merge_equal_histories_and_keep_at_most_twelve():
    tn, g = turn_of(None)
    pool = Stories(tn)
    pool.reset(tn.b0)
    t = 1000
    names = ("c2", "d2", "e2", "c8", "d8", "e8")
    for name in names:
        lift(tn, pool, name, t)
        t += 10
    for name in ("c4", "d4", "e4"):                    # set down on other squares: which?
        drop(tn, pool, name, t)
        t += 300
    assert 1 < pool.nh <= 12
    for i in range(pool.nh):
        for j in range(i + 1, pool.nh):
            assert not pool.hs[i].same(pool.hs[j])


def test_touch_move_the_first_own_tile_touched_must_move_and_its_victim_be_taken():
    tn, g = turn_of(CAP)
    tm = TouchMove(tn, 250)
    tm.begin("")
    assert tm.touch(sq("d2"), 1000, True)
    assert tm.duty[sq("d2")] == 1 and tm.take < 0 and tm.allowed(sq("d2"), sq("d5"))
    assert tm.touch(sq("d5"), 1400, True)             # touched after it, and it can take it
    assert tm.take == sq("d5") and not tm.allowed(sq("d2"), sq("d4"))
    assert tm.text(True) == "d2 d5" and tm.text(False) == ""


def test_touch_move_a_touch_after_the_move_was_made_binds_nobody():
    tn, g = turn_of(CAP)
    tm = TouchMove(tn, 250)
    tm.begin("")
    tm.touch(sq("d2"), 1000, True)
    tm.made_ok = True                                  # d2 stood on a target from 1300 on
    tm.made = 1300
    assert not tm.touch(sq("a2"), 1350, True)         # a knocked Barragoon
    assert tm.take < 0 and tm.text(True) == "d2 -"


def test_touch_move_saved_duties_come_back_and_a_damaged_tag_costs_only_the_duty():
    tn, g = turn_of(CAP)
    tm = TouchMove(tn, 250)
    tm.begin("d2 a2")
    tm.new_turn(True)
    assert tm.duty[sq("d2")] == 1 and tm.take == sq("a2")
    assert not tm.unsaved(True)
    tm.begin("d2 zz")
    tm.new_turn(True)
    assert not tm.bound()


def test_view_lights_the_lifted_tile_its_targets_and_a_lifted_victim_its_capturers():
    tn, g = turn_of(CAP)
    tm = TouchMove(tn, 250)
    tm.begin("")
    view = View(tn, tm)
    pool = Stories(tn)
    pool.reset(tn.b0)
    sensed = bytearray(1 if c else 0 for c in tn.b0)
    lift(tn, pool, "d2", 1000)
    sensed[sq("d2")] = 0
    view.live(pool.first(), -1, -1, sensed, False)
    assert view.mean[sq("d2")] == C.ORIGIN
    assert view.mean[sq("d5")] == C.TAKE_TILE and view.mean[sq("a2")] == C.TAKE_BARRAGOON
    targets = sorted(m & 63 for m in g.legal_moves() if m >> 6 == sq("d2"))
    lit = sorted(s for s in range(63) if view.mean[s] in (C.MOVE, C.TAKE_TILE,
                                                          C.TAKE_BARRAGOON))
    assert lit == targets
    pool.reset(tn.b0)                                  # the victim first instead
    tn.unsee()
    sensed[sq("d2")] = 1
    lift(tn, pool, "d5", 2000)
    sensed[sq("d5")] = 0
    view.live(pool.first(), -1, -1, sensed, False)
    assert view.mean[sq("d5")] == C.TAKE_TILE and view.mean[sq("d2")] == C.CAPTURER
    assert view.note == N_CAPTURE and view.note_sq == sq("d5")
