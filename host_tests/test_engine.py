# The engine (firmware/barragoon/engine.py): it only ever answers with turns the rules allow
# (placements included), sees a won game and a lost last tile, honours the express rule and
# the must-deviate rule through Game, keeps its budget (with a simulated clock: logic, not
# timing) but always completes its first look at every move and every face of its own
# placements, gives the same answer however its thinking is sliced, scores a changed position
# from the tiles within reach exactly as from scratch (evaluation.py), scores each face class
# once exactly as every face alone, varies where it was ahead before, offers a draw when
# behind in a dead position, and allocates nothing per node on MicroPython.
#
# BARRAGOON_ENGINE_FUZZ=N checks N random positions per runtime instead of the default.
import os
import sys

from rules_helpers import make, sq
from barragoon.core import WHITE, BROWN, TILE, RulesError
from barragoon.game import Game
from barragoon.engine import Engine, LEVELS
from barragoon.notation import format_position, square_name, parse_face
from barragoon import evaluation as E
from bench.bench_engine import Rng, random_action

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_search_allocates_nothing_per_step_on_micropython",
                    "test_search_steps_run_with_the_heap_locked_on_micropython")

MICRO = sys.implementation.name == "micropython"


def _fuzz_count():
    try:
        n = int(os.getenv("BARRAGOON_ENGINE_FUZZ") or 0)
    except (AttributeError, ValueError):
        n = 0
    return n or (1000 if MICRO else 300)   # (the viper kernels run as plain Python on CPython)


def _carry_out(g, turn):
    """Play the engine's own actions (Turn.now), then any predicted actions that are still
    possible, through the public Game API: every one must be accepted."""
    n = turn.now
    assert n >= 1
    acts = []
    if turn.move is not None:
        acts.append((turn.side, -1) + turn.move)
    for side, s, face in turn.places:
        acts.append((side, s, face))
    for i in range(len(acts)):
        a = acts[i]
        if i >= n and (g.over or g.turn != a[0] or g.pos.get(a[1]) != 0):
            break                     # the opponent's part was only a prediction
        assert g.turn == a[0], "%s: acting for the wrong side" % turn.text
        if a[1] == -1:
            g.move(a[2], a[3])
        else:
            assert g.placing() == a[0]
            g.place(a[1], a[2])


def test_only_legal_turns_over_random_positions():
    # Random games, from the start and through random placements of every face, some with
    # express stages; at random moments (moves and pending placements alike) the engine
    # answers with a small budget or a fixed depth, and its turn is played through Game.
    rng = Rng(12345)
    eng = Engine()
    want = _fuzz_count()
    checked = placements = captures = 0
    while checked < want:
        g = Game(stages=((0, 0), (0, 0), (1, 0), (0, 2))[rng.below(4)])
        actions = 0
        while not g.over and checked < want and actions < 400:
            actions += 1
            if rng.below(3):
                random_action(g, rng)
                continue
            budget = rng.below(4)
            turn = eng.run(g, steps=(1, 200, 0, 0)[budget], depth=(0, 0, 1, 2)[budget])
            assert turn is not None and turn.side == g.turn
            if turn.move is not None:
                assert turn.move[0] * 64 + turn.move[1] in g.legal_moves()
                captures += turn.capture
            placements += len(turn.places)
            _carry_out(g, turn)
            checked += 1
    assert placements > want // 20 and captures > want // 20, (placements, captures)


def test_only_legal_turns_at_the_deepest_level():
    # Level 3's budget brings its own search (late quiet moves searched a turn less deep and
    # again in full where they do well, every square and face for the opponent's placements
    # in the turn it chooses): the same check as above at that budget, three and four turns
    # deep.
    rng = Rng(2024)
    eng = Engine()
    want = _fuzz_count() // 30
    checked = 0
    while checked < want:
        g = Game(stages=((0, 0), (1, 0))[rng.below(2)])
        while not g.over and checked < want:
            if rng.below(4):
                random_action(g, rng)
                continue
            turn = eng.run(g, steps=LEVELS[3][1], depth=3 + checked % 2)
            assert turn is not None and turn.side == g.turn
            if turn.move is not None:
                assert turn.move[0] * 64 + turn.move[1] in g.legal_moves()
            _carry_out(g, turn)
            checked += 1
    assert eng.deep


def test_deepest_level_gives_the_same_answer_however_sliced():
    # (its searches again in full and its scans of the opponent's placements start in the
    # middle of a level: they resume like the rest, and leave the position as they found it)
    g = Game("2d1dv1/2z[X]3/2[X]4/v[X]D[X]1z1/[X]1[X]3[X]/5[X]1/V2V3/1Z[X][X]Z2/2D1D2 w 22")
    whole = Engine().run(g, steps=LEVELS[3][1], depth=4)
    eng = Engine()
    eng.start(g, steps=LEVELS[3][1], depth=4)
    while not eng.think(0):                  # one step per call
        pass
    sliced = eng.best()
    assert whole.depth == 4
    # every move made in its tree was taken back, by the side that made it
    assert eng.ev.side == g.pos.side and bytes(eng.ev.b[:88]) == bytes(g.pos.cells)
    assert (sliced.text, sliced.score, sliced.steps, sliced.nodes) == \
        (whole.text, whole.score, whole.steps, whole.nodes)


def test_deepest_level_sees_the_opponents_placement_of_any_face():
    # Found in a match (level 3 against level 2): c7xe8 takes a tile, and the captured side
    # places first: e9=1W (one-way, not among the X and A candidates of the tree) wins for
    # Brown by force. Three turns deep, only level 3's scan of every face sees it.
    g = Game("5v1/3[1E]d2/1dD1[X]2/3[X]1[X]1/[X]1[X]1[X]1[1S]/1[A]2[X]2/[X]1[X][X]2[X]/"
             "1[X][A]D[X][X]1/2[X]ZD[X]V w 12")
    c7xe8 = (sq("c7"), sq("e8"))
    assert Engine().run(g, steps=LEVELS[3][1] - 1, depth=3).move == c7xe8
    assert Engine().run(g, steps=LEVELS[3][1], depth=3).move != c7xe8


def test_deepest_level_searches_other_trees_than_the_level_below():
    # Its features are its own: below LEVELS[3]'s budget none of them is used.
    g = Game("2d1dv1/2z[X]3/2[X]4/v[X]D[X]1z1/[X]1[X]3[X]/5[X]1/V2V3/1Z[X][X]Z2/2D1D2 w 22")
    eng = Engine()
    deep = eng.run(g, steps=LEVELS[3][1], depth=4)
    assert eng.deep
    plain = eng.run(g, steps=LEVELS[3][1] - 1, depth=4)
    assert not eng.deep
    assert deep.depth == plain.depth == 4 and deep.nodes != plain.nodes


def test_turn_after_a_tile_capture_lists_both_placements_in_order():
    # White takes the Brown 3-tile: Brown places first (predicted), then White.
    g = Game(make("d2:D d5:d a9:z", "w", 24))
    turn = Engine().run(g, depth=2)
    assert turn.text.startswith("d2xd5 ")
    assert [p[0] for p in turn.places] == [BROWN, WHITE]
    assert turn.now == 1                    # only the move: Brown places next
    g.move(sq("d2"), sq("d5"))
    g.place(turn.places[0][1], turn.places[0][2])
    answer = Engine().run(g, depth=2)         # now White's placement, for the real board
    assert answer.move is None and answer.now == 1 and answer.places[0][0] == WHITE
    g.place(answer.places[0][1], answer.places[0][2])
    assert g.pos.side == BROWN and g.placing() == -1


def test_barragoon_capture_is_one_turn_with_its_placement():
    g = Game(make("d2:D d5:[X] a9:z g9:z", "w", 24))
    turn = Engine().run(g, depth=1)
    if turn.capture:
        assert len(turn.places) == 1 and turn.places[0][0] == WHITE and turn.now == 2
    _carry_out(g, turn)
    assert g.pos.side == BROWN and g.placing() == -1


def test_takes_the_last_tile_at_once():
    # Brown's last tile stands on e5, four squares from White's V on a5; the Barragoon
    # captures on offer are worth less than the game.
    pos = make("a5:V e5:z c3:D c6:[X] b3:[X] f3:[X] g7:Z", "w", 24)
    for depth in (1, 2, 3):
        turn = Engine().run(Game(pos), depth=depth)
        assert turn.text == "a5xe5", (depth, turn.text)
        assert turn.decided == 1


def test_does_not_leave_its_last_tile_capturable():
    # White's last tile (a 3-tile on d4) is attacked by Brown's 4-tile on d8; it can flee.
    pos = make("d4:D d8:v a9:z c6:[X]", "w", 24)
    for depth in (1, 2):
        g = Game(pos)
        turn = Engine().run(g, depth=depth)
        _carry_out(g, turn)
        for m in g.legal_moves():
            assert not g.pos.get(m % 64) & TILE, \
                "depth %d: %s leaves d4's tile to %s" % (depth, turn.text, square_name(m // 64))


def test_sees_a_lost_last_tile_ahead():
    # Every move of White's 2-tile but one ends where Brown can take it.
    pos = make("a1:Z c3:v g9:z", "w", 24)
    g = Game(pos)
    safe = []
    for m in g.legal_moves():
        g.move(m // 64, m % 64)
        if g.placing() >= 0 or not any(g.pos.get(x % 64) & TILE for x in g.legal_moves()):
            safe.append(m)
        g.undo()
    turn = Engine().run(Game(pos), depth=2)
    m = turn.move[0] * 64 + turn.move[1]
    assert safe and m in safe, (turn.text, safe)


def test_knows_a_lost_last_tile_as_lost():
    # White's last tile, a 2-tile on a1, can only step to a2 or b1 (All Turns around it,
    # which a 2-tile cannot take); Brown's 4-tile on b5 takes it on a2 (turning on b2), the
    # one on c4 takes it on b1 (turning on c1).
    g = Game(make("a1:Z b2:[A] a3:[A] c1:[A] b5:v c4:v g9:z", "w", 24))
    turn = Engine().run(g, depth=1)
    assert turn.decided == -1, (turn.text, turn.score)


def _boxed_brown(stage_brown):
    # Brown's 2-tile on a9 has one way out, over a8; White's 2-tile on c8 can step onto a8
    # (via b8) and close it. Brown's other 2-tile on g9 stays mobile.
    return Game(make("a9:z g9:z b9:[X] b7:[X] a7:[X] c8:Z e2:D g1:[X]", "w", 24),
                stages=(0, stage_brown))


def test_express_stage_wins_by_immobilising():
    g = _boxed_brown(1)
    turn = Engine().run(g, depth=1)
    assert turn.decided == 1, (turn.text, turn.score)
    _carry_out(g, turn)
    assert g.over and g.winner == WHITE
    turn = Engine().run(_boxed_brown(0), depth=1)
    assert turn.decided == 0, turn.text           # normal rule: not a win


def test_express_stage_of_its_own_side_is_respected():
    # Taking the Brown 3-tile on a8 wins material, but then Brown places first (b8) and
    # White's tiles on a8 and a9 are both boxed in: at stage 1 White, with only the 4-tile
    # mobile, loses on its next turn.
    pieces = "a9:Z d8:D a8:d g1:v b9:[X] b7:[X] a7:[X] e2:V"
    take = (sq("d8"), sq("a8"))
    assert Engine().run(Game(make(pieces, "w"), stages=(0, 0)), depth=2).move == take
    g = Game(make(pieces, "w"), stages=(1, 0))
    turn = Engine().run(g, depth=2)
    assert turn.move != take, turn.text
    _carry_out(g, turn)
    assert not g.over


def _repeat_until_offer(g, there, back):
    # White's move `there` and back, Brown's g9-g6 and back, until Brown may offer a
    # repetition draw (game.py decides when); White declines.
    for copies in range(4):
        for frm, to in (there, (sq("g9"), sq("g6")), back, (sq("g6"), sq("g9"))):
            g.move(frm, to)
        try:
            g.offer_repetition_draw()
        except RulesError:
            continue
        g.answer_repetition_draw(False)
        return
    raise AssertionError("no repetition offer after four copies")


def test_must_deviate_after_a_declined_repetition():
    start = make("a1:V g9:v e9:v b1:[X]", "w", 24)
    there = Engine().run(Game(start), depth=2).move   # what it plays without the obligation
    back = (there[1], there[0])
    g = Game(start)
    _repeat_until_offer(g, there, back)
    assert format_position(g.pos) == format_position(start)
    turn = Engine().run(g, depth=2)
    assert turn.move != there, turn.text
    _carry_out(g, turn)


def test_deviates_by_another_placement():
    # A repeated block whose White turns are Barragoon captures: d2xd5 with the placement the
    # engine likes best there (across the Brown 4-tile's way along rank 2 to e2), then d5xd2
    # d5=X. After the declined offer the move d2xd5 stays legal but that placement is
    # refused; the engine must find another one (and still block the threat).
    start = make("d2:D d5:[X] e2:Z a2:v b2:[2H] c2:[2H] g9:v", "w", 20)
    g = Game(start)
    g.move(sq("d2"), sq("d5"))
    liked = Engine().run(g, depth=2).places[0][1:]
    g = Game(start)
    for copies in range(4):
        g.move(sq("d2"), sq("d5"))
        g.place(liked[0], liked[1])
        g.move(sq("g9"), sq("g6"))
        g.move(sq("d5"), sq("d2"))
        g.place(sq("d5"), parse_face("X"))
        g.move(sq("g6"), sq("g9"))
        try:
            g.offer_repetition_draw()
            break
        except RulesError:
            pass
    g.answer_repetition_draw(False)
    assert g.must_deviate == WHITE
    _carry_out(g, Engine().run(g, depth=2))    # a whole turn the game accepts
    g.undo_turn()
    g.move(sq("d2"), sq("d5"))                   # the predicted move: placement only
    turn = Engine().run(g, depth=2)
    assert turn.places[0][1:] != liked, turn.text
    _carry_out(g, turn)
    assert sq("e2") not in [m % 64 for m in g.legal_moves()], turn.text


def test_places_a_barragoon_across_a_threat():
    # White has just taken a Barragoon with d2xd5 and must place it; Brown's 4-tile on a1
    # threatens White's 2-tile on e1 along rank 1. A Barragoon that stops travel east on
    # b1, c1 or d1 saves it.
    pos = make("d2:D d5:[X] a1:v e1:Z g9:z", "w", 24)
    g = Game(pos)
    g.move(sq("d2"), sq("d5"))
    turn = Engine().run(g, depth=2)
    assert turn.move is None and turn.now == 1
    _carry_out(g, turn)
    for m in g.legal_moves():
        assert m % 64 != sq("e1"), "%s leaves e1 to a1" % turn.text


def test_slicing_does_not_change_the_answer():
    g = Game("2d1dv1/2z[X]3/2[X]4/v[X]D[X]1z1/[X]1[X]3[X]/5[X]1/V2V3/1Z[X][X]Z2/2D1D2 w 22")
    whole = Engine().run(g, steps=10000)
    eng = Engine()
    eng.start(g, steps=10000)
    calls = 1
    while not eng.think(0):                  # one step per call
        calls += 1
    sliced = eng.best()
    assert calls >= 1000
    assert (sliced.text, sliced.score, sliced.steps) == (whole.text, whole.score, whole.steps)


class FakeClock:
    """ticks_ms that advances 1 ms per reading (a search step takes one reading)."""

    def __init__(self):
        self.t = 5000

    def ticks_ms(self):
        self.t += 1
        return self.t


def test_budget_stops_the_search():
    clock = FakeClock()
    eng = Engine(clock=clock)
    g = Game()
    eng.start(g, budget_ms=300)
    t0 = clock.t
    slices = 0
    while not eng.think(5):
        slices += 1
    assert 250 <= clock.t - t0 <= 320, clock.t - t0
    assert slices >= 40                      # the loop got control back every ~5 readings
    assert eng.best().move is not None
    # A tiny budget still finishes one complete depth-1 answer.
    eng.start(Game("2d1dv1/2z[X]3/2[X]4/v[X]D[X]1z1/[X]1[X]3[X]/5[X]1/V2V3/1Z[X][X]Z2/2D1D2 "
                   "w 22"), budget_ms=1)
    while not eng.think(5):
        pass
    assert eng.best() is not None and eng.best().depth >= 0


def test_stop_and_restart_on_a_changed_game():
    g = Game(make("d2:D d5:[X] a9:z g9:z", "w", 24))
    eng = Engine()
    eng.start(g, steps=100000)
    eng.think(0)
    g.move(sq("d2"), sq("d5"))                # the live game changes under the search
    eng.stop()
    assert eng.done
    eng.start(g, depth=1)                     # a placement is due now
    while not eng.think(50):
        pass
    t = eng.best()
    assert t.move is None and t.places[0][0] == WHITE
    _carry_out(g, t)


def test_nothing_to_decide():
    g = Game(make("d2:D d5:z", "w", 24))
    g.move(sq("d2"), sq("d5"))
    assert g.over
    eng = Engine()
    assert eng.start(g, depth=1) is False and eng.think(5) and eng.best() is None


ISSUE = "[X]v[X][X]3/1[X]d[X][RN]2/[A]1[X][X]3/z[X]d[X]1Z1/[X]1V2[1E][X]/3V3/1Z2D2/4D2/4D2 w 18"


def test_the_first_look_at_every_move_and_face_completes_whatever_the_budget():
    # The win needs an A on b7 after e3xf5 (an X there loses the point): one unit of work is
    # still a complete first iteration, every move and every face of its own placement.
    for limits in ({"steps": 1}, {"depth": 1}):
        turn = Engine().run(Game(ISSUE), **limits)
        assert turn.text == "e3xf5 b7=A" and turn.depth >= 1 and turn.decided == 1, turn.text
    clock = FakeClock()
    eng = Engine(clock=clock)
    eng.start(Game(ISSUE), budget_ms=1)
    while not eng.think(5):
        pass
    assert eng.best().depth >= 1 and eng.best().text == "e3xf5 b7=A"


def _random_positions(count, seed):
    rng = Rng(seed)
    out = []
    while len(out) < count:
        g = Game()
        for i in range(10 + rng.below(40)):
            if g.over:
                break
            random_action(g, rng)
        if not g.over and g.placing() < 0:
            out.append(g)
    return out


def _full_score(ev, stm, ply):
    ev.save_level(1)
    ev.record_all()
    v = E.score(ev.b, stm, ply)
    ev.load_level(1)                         # (the records of before)
    return v


def test_a_change_scored_from_the_tiles_within_reach_scores_as_from_scratch():
    # evaluation.records mode 1 regenerates only the tiles a change can reach; every quiet
    # move and a Barragoon put on each empty square must score exactly as a full evaluation.
    checked = 0
    for g in _random_positions(6 if MICRO else 3, 77):
        ev = E.Evaluator(2)
        ev.load(g.pos, (0, 0))
        ev.record_all()
        stm = g.pos.side
        for m in g.legal_moves():
            frm, to = m // 64, m % 64
            victim = ev.make(frm, to)
            if not victim:
                assert ev.delta(frm, to, stm ^ 1, 1) == _full_score(ev, stm ^ 1, 1), m
                checked += 1
            ev.unmake(frm, to, victim, ev.vix)
        for s in range(63):
            if not ev.b[E.SQ2MB[s]]:
                c = 1 + (s % 16)
                ev.b[E.SQ2MB[s]] = c
                assert ev.delta(s, E.NO_SQ, stm, 1) == _full_score(ev, stm, 1), (s, c)
                ev.b[E.SQ2MB[s]] = 0
                checked += 1
    assert checked > 100, checked


def test_scan_scores_every_face_exactly_as_that_face_alone():
    # evaluation.scan scores faces that let the same walks through once, and X alone where X
    # changes only enemy tiles; its best must be the best of all 16 faces scored one by one,
    # and the first face with that score: for either side placing, with a refused face too.
    rng = Rng(5)
    checked = 0
    for g in _random_positions(4 if MICRO else 2, 91):
        ev = E.Evaluator(2)
        ev.load(g.pos, (0, 0))
        ev.record_all()
        stm = g.pos.side
        for s in range(63):
            if ev.b[E.SQ2MB[s]]:
                continue
            flip = rng.below(2)
            ban = s * 32 + 1 + rng.below(16) if rng.below(4) == 0 else 0xFFFF
            best = None
            for f in range(1, 17):
                if s * 32 + f == ban:
                    continue
                ev.b[E.SQ2MB[s]] = f
                v = ev.delta(s, E.NO_SQ, stm, 1)
                ev.b[E.SQ2MB[s]] = 0
                if flip:
                    v = -v
                if best is None or v > best[0]:
                    best = (v, f)
            r = E.scan(ev.b, ev.stamp, ev.tsq, ev.tkind, s, stm, 1, flip, ban)
            assert (r >> 5, r & 31) == best, (format_position(g.pos), s, flip, ban, r >> 5,
                                              r & 31, best)
            checked += 1
    assert checked > 40, checked


def test_varies_in_a_position_where_it_was_ahead_before():
    # Two 4-tiles against a 2-tile far away: the engine is ahead; in the same position a second
    # time it plays another move (the first one did not win).
    g = Game("6z/7/7/7/7/7/7/7/VV5 w 24")
    eng = Engine()
    first = eng.run(g, depth=2)
    assert first.score > 40
    second = eng.run(g, depth=2)
    assert second.move != first.move, (first.text, second.text)
    assert Engine().run(g, depth=2).move == first.move      # (a new engine: the same again)


def test_offers_a_draw_when_behind_in_a_dead_position():
    dead = Game("z6/7/7/7/7/7/7/7/4VV1 b 24")       # no Barragoon, the tiles far apart
    assert Engine().run(dead, depth=2).offer_draw
    assert not Engine().run(dead, depth=1).offer_draw       # one turn is not enough to say
    assert not Engine().run(Game("z6/7/7/7/7/7/7/7/4VV1 w 24"), depth=2).offer_draw   # ahead
    assert not Engine().run(Game(), depth=2).offer_draw     # captures to come


def test_levels_grow():
    steps = [lv[1] for lv in LEVELS[1:]]
    times = [lv[0] for lv in LEVELS[1:]]
    assert steps == sorted(steps) and times == sorted(times)


# Captures everywhere: four turns of captures and their placements fill 11 levels.
CROWDED = "2d1dv1/2z[X]3/2[X]4/v[X]D[X]1z1/[X]1[X]3[X]/5[X]1/V2V3/1Z[X][X]Z2/2D1D2 w 22"


def test_levels_1_and_2_search_within_the_stack_they_were_measured_with():
    # Level 3 has more levels and actions for its lines of captures; below its budget the
    # search keeps to the first 11 levels and 256 actions, so levels 1 and 2 play exactly as
    # their matches measured them (firmware/README.md, The opponent).
    rng = Rng(5)
    games = [Game(CROWDED)]
    while len(games) < 4:
        g = Game()
        while not g.over and len(g.turn_texts()) < 16:
            random_action(g, rng)
        if not g.over:
            games.append(g)
    for g in games:
        for steps, depth in ((LEVELS[1][1], 0), (LEVELS[2][1], 4)):
            a = Engine().run(g, steps=steps, depth=depth)
            b = Engine(levels=11, buffer=256).run(g, steps=steps, depth=depth)
            assert (a.text, a.score, a.nodes, a.steps) == (b.text, b.score, b.nodes, b.steps)


def test_level_3_follows_lines_of_captures_beyond_the_smaller_stack():
    # The smaller stack scored such lines where they stood; level 3 follows them on.
    g = Game(CROWDED)
    a = Engine().run(g, steps=LEVELS[3][1], depth=4)
    b = Engine(levels=11, buffer=256).run(g, steps=LEVELS[3][1], depth=4)
    assert a.depth == b.depth == 4
    assert a.nodes > b.nodes


def test_search_steps_run_with_the_heap_locked_on_micropython():
    # Each search step runs with the heap locked, so that a bytecode call in it takes its
    # frame from the C stack instead of searching the heap (engine.py, think): the board's
    # thinking speed. Its result is made after the lock, a whole search stays possible.
    eng = Engine()
    g = Game()
    eng.start(g, steps=3000)
    seen = [0, 0]                          # steps that could allocate, steps that could not

    def step():
        try:
            bytearray(8)
            seen[0] += 1
        except MemoryError:
            seen[1] += 1
        Engine._step(eng)
    eng._step = step
    while not eng.think(20):
        pass
    assert seen[0] == 0 and seen[1] > 100, seen
    assert eng.best() is not None and bytearray(8)


def test_search_allocates_nothing_per_step_on_micropython():
    import gc
    eng = Engine(levels=24, clock=FakeClock())    # (deep enough not to finish)
    for text in ("1vd1dv1/2zdz2/7/1[X]3[X]1/[X]1[X]1[X]1[X]/1[X]3[X]1/7/2ZDZ2/1VD1DV1 w 24",
                 "2d1dv1/2z[X]3/2[X]4/v[X]D[X]1z1/[X]1[X]3[X]/5[X]1/V2V3/1Z[X][X]Z2/2D1D2 w 22"):
        g = Game(text)
        eng.start(g, steps=1000000)           # (level 3's search: see below)
        for i in range(300):                  # warm up
            eng.think(0)
        while eng.dep[0] < 4:                 # on to an iteration that reduces late moves
            eng.think(0)                      # and searches them again
        gc.collect()
        before = gc.mem_alloc()
        for i in range(3000):
            eng.think(0)
        after = gc.mem_alloc()
        assert not eng.done
        assert after == before, "%d bytes in 3000 steps" % (after - before)
