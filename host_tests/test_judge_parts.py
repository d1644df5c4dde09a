# The judge's parts, each alone (controller/stories.py, touchmove.py, view.py): a Turn set up by
# hand from a position, then the pool of stories, the touch-move duties or the LED view, without
# the judge that normally drives them; and the judge's decision on a pool of stories.
from barragoon.game import Game, action_move
from barragoon.notation import parse_square
from controller import colours as C
from controller.stories import Turn, Stories, tables, elapsed, NEW, AIRN
from controller.touchmove import TouchMove
from controller.judge import Judge
from controller.view import View, N_CAPTURE

RUNTIMES = ("cpython", "micropython")

CAP = "6z/7/7/7/3z3/7/7/[X]2D3/7 w 24"    # d2 can take z on d5 and X on a2
ONE = "6z/7/7/7/7/7/7/3D3/7 w 24"               # one tile each


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


def captured(t_victim, t_land):
    """CAP with d2 lifted at 1000, the victim on d5 lifted at t_victim and a piece set on d5 at
    t_land: (turn, game, pool)."""
    tn, g = turn_of(CAP)
    pool = Stories(tn)
    pool.reset(tn.b0)
    lift(tn, pool, "d2", 1000)
    lift(tn, pool, "d5", t_victim)
    drop(tn, pool, "d5", t_land)
    return tn, g, pool


def view_of(position):
    """A turn of position with its touch-move duties, LED view, stories and sensors at rest."""
    tn, g = turn_of(position)
    tm = TouchMove(tn, 250)
    tm.begin("")
    pool = Stories(tn)
    pool.reset(tn.b0)
    return tn, g, tm, View(tn, tm), pool, bytearray(1 if c else 0 for c in tn.b0)

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
    tn, g, pool = captured(1300, 1320)
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
    tn, g, tm, view, pool, sensed = view_of(CAP)
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


def test_kinds_a_capture_with_its_barragoon_standing_is_a_move_and_a_touched_tile_binds():
    from controller.kinds import Kinds
    from controller.stories import K_MOVE, K_DUTY, K_OPEN
    tn, g, pool = captured(1400, 1450)               # d2xd5, z in the hand (d2 can take a2 too)
    tm = TouchMove(tn, 0)
    kinds = Kinds(tn, tm)
    h = pool.hs[0]
    kinds.classify(h, -1, 0)
    assert (h.kind, h.a, h.b, h.p0) == (K_MOVE, sq("d2"), sq("d5"), 0xFF)
    drop(tn, pool, "c3", 2500)                        # a Barragoon for its placement (the
    #                                                   captured one: likeliest)
    kinds.classify(pool.hs[0], -1, 0)
    assert pool.hs[0].kind == K_MOVE and pool.hs[0].p0 == sq("c3")
    tm.begin("")
    tm.touch(sq("d2"), 900, True)                     # touch-move: d2 touched, then a2:
    tm.touch(sq("a2"), 950, True)                     # d2 must take a2
    kinds.classify(pool.hs[0], -1, 0)
    assert pool.hs[0].kind == K_DUTY
    kinds.classify(pool.hs[0], (sq("d2") << 6) + sq("d5"), 0)
    assert pool.hs[0].kind == K_MOVE                  # (unless the board made it already)
    lift(tn, pool, "d5", 3000)                        # the tile in a hand again: open
    kinds.classify(pool.hs[0], -1, 0)
    assert pool.hs[0].kind == K_OPEN


def test_question_puts_the_move_the_board_shows_first_among_equals_and_labels_it():
    from controller.question import Question
    from controller.stories import Story, K_MOVE, K_NONE
    a, b = Story(), Story()
    a.cost = b.cost = 2
    q = Question()
    q.add(K_NONE, 0, 0, 1)
    q.add(K_MOVE, sq("d2"), sq("d4"), 0)
    b0 = bytearray(63)
    q.order([a, b], (sq("d2") << 6) + sq("d4"))
    assert q.kind[0] == K_MOVE and q.even
    assert q.label(0, [a, b], b0, -1, False) == "d2-d4"
    assert q.label(1, [a, b], b0, -1, False) == "Nothing moved"
    b.cost = 1                                        # "nothing" likelier: first, not even
    q.order([a, b], (sq("d2") << 6) + sq("d4"))
    assert q.kind[0] == K_NONE and not q.even
    b.cost = 2                                        # the next question has one option:
    q.n = 0                                           # the last one's second stays behind
    q.add(K_MOVE, sq("d2"), sq("d4"), 0)              # in the arrays, and is no option
    q.order([a, b], -1)
    assert q.n == 1 and not q.even


def test_repair_ends_only_when_the_wrong_piece_was_lifted_and_a_piece_set_back():
    from controller.repair import Repair
    b0 = bytearray(63)
    b0[sq("d2")] = 5
    sensed = bytearray(63)
    sensed[sq("d2")] = 1
    phys = bytearray(63)
    phys[sq("d2")] = 6                                # another piece stands on d2
    r = Repair()
    r.start(b0, phys)
    assert r.restore[sq("d2")] == 1 and not r.done(sensed, b0)
    r.event(sq("d2"), 0)
    sensed[sq("d2")] = 0
    assert r.restore[sq("d2")] == 2 and not r.done(sensed, b0)
    r.event(sq("d2"), 1)
    sensed[sq("d2")] = 1
    assert r.done(sensed, b0)
    r.start(b0, None)                                 # occupancy only
    assert r.done(sensed, b0)


def test_next_turn_keeps_the_stories_that_show_the_move_and_drops_the_captured_piece():
    from controller.nextturn import NextTurn
    tn, g, pool = captured(1400, 1450)
    g.move(sq("d2"), sq("d5"))
    nt = NextTurn(tn)
    nt.prepare(g, (sq("d2") << 6) + sq("d5"), pool)
    assert nt.agreeing & 1 and nt.moves == g.legal_moves()
    h = pool.hs[0]
    assert h.n == 1                                   # the victim still in a hand ...
    nt.rehome(h)
    assert h.n == 0 and h.home[sq("d5")] == sq("d5")  # ... leaves the game; d5 its home
    moves = nt.position(g, (sq("d2") << 6) + sq("d5"))
    assert nt.ready and moves == g.legal_moves()


def test_placements_ask_whose_barragoon_when_two_land_together_for_two_placements():
    from controller.placements import Placements
    from controller.question import Question
    from controller.stories import K_PLACE
    tn, g = turn_of(CAP)
    pool = Stories(tn)
    pool.reset(tn.b0)
    q = Question()
    pl = Placements(tn, pool, q)
    h = pool.hs[0]
    h.p0, h.p1 = sq("c3"), sq("e3")
    tn.put_t[sq("c3")], tn.put_t[sq("e3")] = 1000, 1020        # 20 ms apart
    assert not pl.choose(h, 2, h.p0)
    assert q.n == 2 and q.kind[0] == K_PLACE and q.a[0] == sq("c3") and q.even
    assert pl.choose(h, 1, h.p0) and pl.sq == sq("c3")          # one placement: no question
    pl.sq = -1
    tn.put_t[sq("e3")] = 2000                                   # a second apart: in order
    assert pl.choose(h, 2, h.p0) and pl.sq == sq("c3")


def test_stories_a_start_square_is_free_for_a_barragoon_only_once_its_tile_stands_elsewhere():
    tn, g = turn_of(CAP)
    pool = Stories(tn)
    pool.reset(tn.b0)
    lift(tn, pool, "d2", 1000)
    h = pool.hs[0]
    assert not pool._free(h, sq("d2"))               # its tile is in the hand: it goes back
    assert pool._free(h, sq("c3"))                   # (empty when the turn began)
    lift(tn, pool, "d5", 1300)
    drop(tn, pool, "d5", 1350)
    assert pool._free(pool.hs[0], sq("d2"))          # landed on d5: d2 is an empty square


def test_touch_move_a_piece_back_that_was_never_lifted_leaves_nothing_pending():
    tn, g = turn_of(CAP)
    tm = TouchMove(tn, 250)
    tm.begin("")
    tm.returned(sq("d2"))                             # (e.g. a lift the judge never saw)
    assert tm.pending == 0
    tm.lifted(sq("d2"))
    tm.returned(sq("d2"))
    tm.returned(sq("d2"))
    assert tm.pending == 0                            # (else every tick would scan)


def _judge_at(position, events, t_rest):
    g = Game(position)
    sensed = bytearray(63)
    for s in range(63):
        sensed[s] = 1 if g.pos.get(s) else 0
    j = Judge(sensed)
    j.begin(g)
    for t, name, present in events:
        sensed[sq(name)] = present
        j.event(sq(name), present, t)
    j.tick(t_rest)
    return j, g, sensed


def _powered_on(g, tile_on):
    # The board at power-on: the saved game's position, but the last move's tile on tile_on
    # (-1: in a hand).
    mv = action_move(g.actions[-1])
    sensed = bytearray(63)
    for s in range(63):
        sensed[s] = 1 if g.pos.get(s) else 0
    sensed[mv & 63] = 0
    if tile_on >= 0:
        sensed[tile_on] = 1
    j = Judge(sensed)
    j.begin(g, "", None, 50000)
    j.tick(52000)
    return j


def test_judge_at_power_on_a_saved_move_slid_on_to_another_target_is_that_move():
    # d2-d4 saved; the tile slid on to another square d2 may go to before the board saved it
    # again, then the power failed: the move in progress is the one the board shows.
    g = Game(ONE)
    targets = [m & 63 for m in g.legal_moves() if m >> 6 == sq("d2")]
    assert sq("d4") in targets and len(targets) > 1
    other = [t for t in targets if t != sq("d4")][0]
    g.move(sq("d2"), sq("d4"))
    j = _powered_on(g, other)
    assert not j.repair and action_move(g.actions[-1]) == (sq("d2") << 6) + other
    g = Game(ONE)                                     # a square d2 cannot reach: put right,
    g.move(sq("d2"), sq("d4"))                        # the saved move stands
    j = _powered_on(g, [s for s in range(63) if s not in targets and not g.pos.get(s) and
                        s != sq("d2") and s != sq("d4")][0])
    assert j.repair and action_move(g.actions[-1]) == (sq("d2") << 6) + sq("d4")


def test_judge_at_power_on_a_move_slid_on_stands_though_the_next_player_has_begun():
    # As above, and Brown has lifted g9 (the next turn begun) before the power failed: the
    # move in progress is still the one the board shows, g9 Brown's in the hand.
    g = Game(ONE)
    targets = [m & 63 for m in g.legal_moves() if m >> 6 == sq("d2")]
    other = [t for t in targets if t != sq("d4")][0]
    g.move(sq("d2"), sq("d4"))
    mv = action_move(g.actions[-1])
    sensed = bytearray(63)
    for s in range(63):
        sensed[s] = 1 if g.pos.get(s) else 0
    sensed[mv & 63], sensed[other], sensed[sq("g9")] = 0, 1, 0
    j = Judge(sensed)
    j.begin(g, "", None, 50000)
    j.tick(52000)
    assert not j.repair and action_move(g.actions[-1]) == (sq("d2") << 6) + other


def test_judge_at_power_on_a_saved_move_whose_tile_is_in_the_hand_is_open_again():
    # d2-d4 saved, then White lifted the tile again to move on and the power failed: the move
    # is open again (the tile in the hand, lifted from d4, d2 its start), as the board would
    # have had it live.
    g = Game(ONE)
    g.move(sq("d2"), sq("d4"))
    assert not any(m & 63 == sq("d4") for m in g.legal_moves())
    j = _powered_on(g, -1)
    h = j.hs[0]
    assert not j.repair and not g.actions and h.n == 1 and h.af[0] == sq("d4") and \
        h.ah[0] == sq("d2")


def test_judge_at_power_on_a_lifted_tile_brown_could_take_is_either_story_as_live():
    # Brown's c3 can take on d4: Brown may have taken the tile up as its victim. The move is
    # open again as live; Brown lifting c3 then makes it stand, d4's tile Brown's victim.
    g = Game("7/7/7/7/7/7/2z4/3D3/7 w 24")
    g.move(sq("d2"), sq("d4"))
    assert any(m & 63 == sq("d4") for m in g.legal_moves())
    j = _powered_on(g, -1)
    assert not j.repair and not g.actions
    j.sensed[sq("c3")] = 0
    j.event(sq("c3"), 0, 53000)
    assert g.last_turn_text() == "d2-d4" and g.pos.side == 1
    h = j.hs[0]
    assert sorted(h.af[k] for k in range(h.n)) == sorted((sq("c3"), sq("d4")))


def test_judge_after_a_test_screen_takes_back_a_move_the_board_no_longer_shows():
    moved = ((1000, "d2", 0), (1200, "d4", 1))
    j, g, sensed = _judge_at(ONE, moved, 1600)
    assert g.last_turn_text() == "d2-d4"
    j.stop()                                          # the sensor test: events not judged
    j.resync()
    assert j.committed >= 0 and not j.repair          # the board still shows the move
    j.stop()
    sensed[sq("d4")], sensed[sq("d3")] = 0, 1         # the tile moved on during the test
    j.resync()
    assert j.committed < 0 and j.repair and g.last_turn_text() == ""


def test_judge_at_power_on_resumes_a_tile_in_the_hand_but_puts_right_a_row_of_missing_pieces():
    g = Game()
    sensed = bytearray(63)
    for s in range(63):
        sensed[s] = 1 if g.pos.get(s) else 0
    sensed[sq("d2")] = 0                              # the power went with d2 in the hand
    j = Judge(sensed)
    j.begin(g, "", None, 5000)
    assert not j.repair and j.hs[0].n == 1            # the turn goes on
    for name in ("b1", "f1", "c2"):                  # three more missing (a broken row?)
        sensed[sq(name)] = 0
    j = Judge(sensed)
    j.begin(Game(), "", None, 5000)
    assert j.repair                                   # no turn in progress: put right


def test_judge_more_pieces_in_the_hands_than_it_can_follow_is_put_right_not_guessed():
    # Nine pieces lifted one by one in a single turn: more than a story carries in its hands
    # (AIRN), so the judge has lost track of which is which and guides the board back.
    g = Game()
    sensed = bytearray(63)
    for s in range(63):
        sensed[s] = 1 if g.pos.get(s) else 0
    j = Judge(sensed)
    j.begin(g)
    held = [s for s in range(63) if sensed[s]][:AIRN + 1]
    for k, s in enumerate(held):
        assert not j.repair
        sensed[s] = 0
        j.event(s, 0, 1000 + 300 * k)
    assert j.repair and g.last_turn_text() == ""


def test_touch_move_a_touched_victim_in_the_corner_a1_binds_like_any_other():
    # (square a1 is index 0: a duty to take there must still count as one)
    tn, g = turn_of("6z/7/7/7/7/D6/7/7/z6 w 24")     # a4 can take z on a1
    tm = TouchMove(tn, 250)
    tm.begin("")
    others = [m & 63 for m in g.legal_moves() if m >> 6 == sq("a4") and m & 63 != sq("a1")]
    assert others and tm.touch(sq("a4"), 1000, True) and tm.touch(sq("a1"), 1400, True)
    assert tm.take == sq("a1") and tm.allowed(sq("a4"), sq("a1"))
    assert not any(tm.allowed(sq("a4"), to) for to in others)


def test_touch_move_a_touch_counted_before_the_board_saw_the_move_made_is_freed():
    # White's a4 landed at 1000 (a slide the board saw complete only later); White's a1,
    # knocked at 1000 too and counted as a touch first, binds nobody once the move is known
    # made. A touch from before the landing still binds.
    tn, g = turn_of("7/7/7/7/7/D6/7/7/D5z w 24")
    tm = TouchMove(tn, 250)
    tm.begin("")
    assert tm.touch(sq("a1"), 1000, True) and tm.duty[sq("a1")]
    assert tm.made_at(1000) and not tm.duty[sq("a1")] and not tm.any
    assert not tm.made_at(900)                        # (nothing bound is left to free)
    tm.begin("")
    assert tm.touch(sq("a1"), 800, True) and not tm.made_at(1000)
    assert tm.duty[sq("a1")]


def test_view_with_a1_to_take_a_lifted_other_victim_goes_back_not_lit_to_take():
    # Touched a4 then a1 (square 0): a1 must be taken. Lifting a7, another piece a4 could
    # take, asks for it back (TO_FILL), not to be captured.
    tn, g, tm, view, pool, sensed = view_of("7/7/z6/7/7/D6/7/7/z6 w 24")
    assert tn.legal(sq("a4"), sq("a1")) and tn.legal(sq("a4"), sq("a7"))
    assert tm.touch(sq("a4"), 1000, True) and tm.touch(sq("a1"), 1400, True)
    lift(tn, pool, "a7", 2000)
    sensed[sq("a7")] = 0
    view.live(pool.first(), -1, -1, sensed, False)
    assert view.mean[sq("a7")] == C.TO_FILL


def test_view_of_a_quiet_board_has_no_note_however_often_it_is_refreshed():
    # Nothing lifted, nothing wrong: the screen says nothing, refresh after refresh (the note
    # of a refusal is the only one a refresh keeps).
    from controller.view import N_NONE
    tn, g, tm, view, pool, sensed = view_of(CAP)
    for _ in range(3):
        view.live(pool.first(), -1, -1, sensed, False)
        assert view.note == N_NONE and not any(view.mean)


# MicroPython's attribute-table sizes (py/map.c): a table grows to the next size only when full.
_MAP_SIZES = (0, 2, 4, 6, 8, 10, 12, 17, 23, 29, 37, 47, 59, 73, 97, 127)


def test_the_judges_objects_keep_room_in_their_attribute_tables_for_fast_method_calls():
    # Every method called on an object first searches its attribute table up to an empty
    # slot, and MicroPython grows the table only when it is full: one filled to the brim is
    # searched end to end on every call (a lift took longer to light). The judge and the
    # parts it calls for every event keep at least 15 % of their tables free.
    j = Judge(bytearray(63))
    for name, obj in (("judge", j), ("turn", j.turn), ("stories", j.pool),
                      ("story", j.pool.hs[0]), ("view", j.view), ("next turn", j.nt),
                      ("placements", j.places)):
        n = len(obj.__dict__)
        size = min(s for s in _MAP_SIZES if s >= n)
        assert n <= 0.85 * size, (name, n, size)
