# Rule 6b (firmware/barragoon/deadlock.py, issue 24) against an independent brute force.
#
# The brute force answers the rule's question by playing every game from a position: both sides
# alternate, every legal move (from host_tests/reference_moves.py, which shares nothing with the
# core: dict boards, paths walked step by step) is tried, positions already seen (tiles and side
# to move) are skipped, and a side that loses at its turn (no move, or no more movable tiles
# than its express stage) ends that line. A capture is reachable when some position reached
# lets the side to move capture. No flood, no numbering of positions, no bitmaps.
#
# The positions are random small pens (tools/toolkit/deadlock_pens.py): tiles walled in by
# Barragoons, where whether tiles ever meet depends on whose turn it is. Every position the decision
# answers must get the brute force's answer, both ways, and the game must draw exactly when the
# brute force says both sides can move and no capture is reachable. UNDECIDED (a bound hit) is
# allowed, counted, and the game then plays on. Fixed boxed-in positions (deadlock_pens.BOXED,
# SHAPES) must be decided, each as the brute force says.
#
# CPython only: the brute force is slow on purpose (MicroPython runs the decision's code in
# test_rules_game.py and on the emulated Pico in tools/bench/bench_deadlock.py).
# BARRAGOON_FUZZ=N sets the number of positions (default 3000), BARRAGOON_FUZZ_SEED the seed;
# BARRAGOON_FUZZ_REPORT=1 prints the figures.
import os

from toolkit import deadlock_pens
from barragoon.deadlock import (
    Decision, no_capture_possible, ALIVE, DEAD, UNDECIDED, MAX_STATES, MAX_HASHED)
from barragoon.game import Game, R_DEAD, DRAW
from barragoon.notation import parse_position, parse_move
from barragoon.core import RulesError
from reference_moves import read_position, tile_moves, is_tile, owner, value, FILES

FUZZ = int(os.environ.get("BARRAGOON_FUZZ", "0") or 0)
SEED = int(os.environ.get("BARRAGOON_FUZZ_SEED", "20240624"))
POSITIONS = FUZZ or 3000
REPORT = os.environ.get("BARRAGOON_FUZZ_REPORT", "") not in ("", "0")
BRUTE_LIMIT = 400000        # positions the brute force may visit before it gives up

ISSUE_24 = "1[A]Z[A]1[A][A]/1[A][A]1[A]1[A]/2[A]z[A]2/2[A][A][A]2/2[A][A]3/[A][A]2[A]1[A]/" \
           "[A]6/[A][A][A][A][A][A]1/[A][A][A][A][A][A]1 w 0"
ISSUE_24_MIRROR = "5[A]z/5[A][1S]/5[RW]1/6[1W]/7/7/7/4[A][A][A]/4[A]1Z b 20"


# --- the brute force ----------------------------------------------------------------------------
def _side_moves(here, tiles, side, cache=None):
    # (moves of side, how many of its tiles can move). cache: a dict for one search (the
    # Barragoons never change in it), so a tile's moves are walked once for each arrangement
    # of the tiles close enough to matter (a path of v steps stays within v squares).
    moves = []
    movable = 0
    for sq, p in tiles:
        if owner(p) == side:
            if cache is None:
                m = tile_moves(here, sq)
            else:
                f, r, v = FILES.index(sq[0]), int(sq[1]), value(p)
                key = (sq, p) + tuple(t for t in tiles if t[0] != sq and abs(
                    FILES.index(t[0][0]) - f) + abs(int(t[0][1]) - r) <= v)
                m = cache.get(key)
                if m is None:
                    m = cache[key] = tile_moves(here, sq)
            movable += 1 if m else 0
            moves.extend(m)
    return moves, movable


def capture_reachable(text, stages=(0, 0), refused=None):
    """True when some sequence of legal non-capturing turns from the position reaches one in
    which the side to move may capture (and does not lose first); None if the search is too
    large. refused: a move ('c9-d8') the side to move may not play at the start (the
    repetition duty), allowed when the start position comes back later."""
    board, side, _ = read_position(text)
    fixed = {sq: p for sq, p in board.items() if not is_tile(p)}
    start = (tuple(sorted((sq, p) for sq, p in board.items() if is_tile(p))), side)
    seen = set() if refused else {start}
    todo = [(start, refused)]
    cache = {}
    while todo:
        if len(seen) > BRUTE_LIMIT:
            return None
        (tiles, side), skip = todo.pop()
        here = dict(fixed)
        here.update(tiles)
        moves, movable = _side_moves(here, tiles, side, cache)
        if movable <= stages[0 if side == "w" else 1]:
            continue                          # the side to move loses: the line ends
        if any(m[2] == "x" for m in moves):
            return True
        other = "b" if side == "w" else "w"
        for m in moves:
            if m == skip:
                continue
            frm, to = m[:2], m[3:]
            after = [(sq, p) for sq, p in tiles if sq != frm] + [(to, here[frm])]
            state = (tuple(sorted(after)), other)
            if state not in seen:
                seen.add(state)
                todo.append((state, None))
    return False


def both_can_move(text, stages):
    # Rule 6b's first condition, with the express stages: each side has more movable tiles
    # than its stage (the side to move: at its turn; the other: were it its turn).
    board, side, _ = read_position(text)
    tiles = [(sq, p) for sq, p in board.items() if is_tile(p)]
    for s, stage in (("w", stages[0]), ("b", stages[1])):
        if _side_moves(board, tiles, s)[1] <= stage:
            return False
    return True


# --- agreement ----------------------------------------------------------------------------------
def _compare(positions):
    counts = {"alive": 0, "dead": 0, "dead_searched": 0, "alive_searched": 0, "undecided": 0,
              "undecided_dead": 0, "brute_gave_up": 0, "draws": 0, "expanded_max": 0,
              "states_max": 0}
    wrong = []
    for text, stages in positions:
        d = Decision(parse_position(text), stages)
        verdict = d.finish()
        truth = capture_reachable(text, stages)
        counts["expanded_max"] = max(counts["expanded_max"], d.expanded)
        counts["states_max"] = max(counts["states_max"], d.states)
        if truth is None:
            counts["brute_gave_up"] += 1
            assert verdict != DEAD or d.states, text   # (only the search proves those)
            continue
        if verdict == UNDECIDED:
            counts["undecided"] += 1
            counts["undecided_dead"] += 0 if truth else 1
        elif (verdict == ALIVE) != truth:
            wrong.append("%s %r: decision %s, brute force %s" % (text, stages, verdict, truth))
        else:
            key = "alive" if truth else "dead"
            counts[key] += 1
            if d.states:
                counts[key + "_searched"] += 1
        # The game: drawn at its start exactly when both can move and nothing is reachable.
        try:
            g = Game(text, stages=stages)
        except RulesError:
            continue                          # (a start position the game refuses)
        drawn = g.over and g.reason == R_DEAD
        counts["draws"] += drawn
        should = both_can_move(text, stages) and truth is False and verdict != UNDECIDED
        if drawn != should:
            wrong.append("%s %r: game %s, brute force %s" % (text, stages, g.reason or "plays on",
                                                             "draw" if should else "no draw"))
    return counts, wrong


def test_decision_agrees_with_the_brute_force_on_random_pens():
    counts, wrong = _compare(deadlock_pens.positions(SEED, POSITIONS))
    if REPORT:
        print("\n%d positions: %r" % (POSITIONS, counts))
    assert not wrong, "%d differences, e.g.\n%s" % (len(wrong), "\n".join(wrong[:5]))
    # Both answers, and the search's own share of them, often enough to prove something.
    assert counts["dead"] >= POSITIONS // 10 and counts["alive"] >= POSITIONS // 10, counts
    assert counts["dead_searched"] >= POSITIONS // 100, counts
    assert counts["alive_searched"] >= POSITIONS // 20, counts
    assert counts["undecided"] <= POSITIONS // 20, counts


def test_the_refused_root_move_is_left_out_once():
    # After a declined repetition the side to move may not play the predicted move now (but
    # may later, when the position comes back). Every root move of the searched positions is
    # refused in turn; the decision must agree with the brute force each time.
    checked = differ = 0
    for text, stages in deadlock_pens.positions(SEED + 1, POSITIONS // 10):
        pos = parse_position(text)
        d = Decision(pos, stages)
        if d.finish() == UNDECIDED or not d.states:
            continue
        for m in pos.legal_moves():
            frm, to = m // 64, m % 64
            if pos.get(to):
                continue                      # (a capture is never refused)
            move = "%s-%s" % (_name(frm), _name(to))
            truth = capture_reachable(text, stages, move)
            verdict = Decision(pos, stages, m).finish()
            if truth is None or verdict == UNDECIDED:
                continue
            checked += 1
            assert (verdict == ALIVE) == truth, (text, stages, move, verdict, truth)
            differ += (verdict == ALIVE) != (d.result == ALIVE)
    if REPORT:
        print("\nrefused root moves: %d checked, %d change the answer" % (checked, differ))
    assert checked >= 50 and differ >= 1, (checked, differ)


def _name(sq):
    return "abcdefg"[sq % 7] + str(sq // 7 + 1)


def test_decisions_stepped_in_turns_share_buffers_safely():
    # The floods of all decisions share one set of buffers; decisions made a unit at a time
    # in turns (as two games on one board could) must answer as each does alone.
    positions = deadlock_pens.positions(SEED + 3, 400)
    alone = [Decision(parse_position(t), st).finish() for t, st in positions]
    both = 0
    for i in range(0, len(positions) - 1, 2):
        a = Decision(parse_position(positions[i][0]), positions[i][1])
        b = Decision(parse_position(positions[i + 1][0]), positions[i + 1][1])
        done_a = done_b = False
        steps = 0
        while not (done_a and done_b):
            done_a = done_a or a.step(1)
            done_b = done_b or b.step(1)
            steps += 1
            assert steps < 20000, ("no end", positions[i:i + 2])
        both += steps > 3
        assert (a.result, b.result) == (alone[i], alone[i + 1]), positions[i:i + 2]
    assert both >= 50, both


def test_sound_flood_never_declares_a_reachable_capture_dead():
    # The flood (stage 2) alone: it may miss a draw, never invent one.
    missed = proved = 0
    for text, stages in deadlock_pens.positions(SEED + 2, POSITIONS // 2):
        if no_capture_possible(parse_position(text)):
            proved += 1
            assert capture_reachable(text, (0, 0)) is False, text
    assert proved >= POSITIONS // 100, proved


# --- the positions of issue 24 --------------------------------------------------------------------
def test_issue_24_both_positions_are_drawn():
    # White can only play c9-d8 and Brown only d7-d8: after c9-d8 Brown is walled in, and no
    # line of play ever allows a capture. Drawn at the start; the flood alone cannot see it
    # (the tiles could meet on d8 if Brown moved first). Its mirror image is drawn as well.
    for text in (ISSUE_24, ISSUE_24_MIRROR):
        assert capture_reachable(text) is False and both_can_move(text, (0, 0))
        assert Decision(parse_position(text)).finish() == DEAD
        g = Game(text)
        assert g.over and g.winner == DRAW and g.reason == R_DEAD, text
    assert not no_capture_possible(parse_position(ISSUE_24))
    g = Game(ISSUE_24)
    frm, to, _ = parse_move("c9-d8")
    try:
        g.move(frm, to)
    except RulesError as e:
        assert "no capture possible" in str(e)
    else:
        raise AssertionError("c9-d8 was played in a drawn game")


# Positions where a capture is reachable only with a full move: a tile gets next to the
# target square only by turning on an All Turns Barragoon.
FULL_MOVE_ONLY = (
    "7/7/7/7/7/[A][A][A][A]3/1[A]z[A]3/[A]1[A][A]3/[A][A]Z[A]3 w 0",
    "7/7/7/7/[A][A][A][A]3/Z1[A][A]3/[A][A][A][A]3/[A]1[A][A]3/z[LW]Z[A]3 w 0",
    "7/7/7/7/[A][A][A][A]3/[A]z[A][A]3/1[A]1[A]3/[A]1[A][A]3/Z[2H]1[A]3 w 0",
    "7/7/7/7/[A][A][A][A][A]2/[A][A]2[A]2/z[A][A][A][A]2/[A]1[A]Z[A]2/1[A]Z[2V][A]2 w 0",
)


def test_captures_reachable_only_by_a_full_move_are_seen():
    for text in FULL_MOVE_ONLY:
        assert capture_reachable(text) or capture_reachable(text.replace(" w ", " b "))
        assert not no_capture_possible(parse_position(text)), text
        for side in (" w ", " b "):
            t = text.replace(" w ", side)
            assert Decision(parse_position(t)).finish() == (ALIVE if capture_reachable(t)
                                                              else DEAD), t


def test_bounds_give_undecided_never_a_wrong_draw():
    # Too many joint positions to number: the start of a game (no capture for White yet).
    start = Game().pos
    d = Decision(start)
    assert d.finish() == UNDECIDED and d.states == 0
    assert not Game().over
    # A dead position the search must prove: with a bound just below what it needs, undecided.
    text = "7/6z/7/[A][A][A][A][A][A][A]/7/[A][A][A][A]3/z2[A]3/[A][A][A][A]3/VZ1[A]3 w 0"
    assert capture_reachable(text) is False
    d = Decision(parse_position(text))
    assert d.finish() == DEAD and 0 < d.states <= MAX_STATES
    states, expanded = d.states, d.expanded
    d = Decision(parse_position(text))
    d.max_expansions = expanded - 1
    assert d.finish() == UNDECIDED
    # Too many to number in bitmaps: a hash table of the positions seen, and its own bound.
    d = Decision(parse_position(text))
    d.max_states = states - 1
    assert d.finish() == DEAD and d.bytes > 8 * MAX_HASHED
    d = Decision(parse_position(text))
    d.max_states = states - 1
    d.max_hashed = 10
    assert d.finish() == UNDECIDED


def test_an_open_endgame_is_decided_by_the_quick_search():
    # Three 4-tiles on an empty board, nobody able to capture this turn: the quick search
    # (squares numbered as they are, no regions, a small table, depth first) finds a capture
    # after a few positions, with 1.5 KB for its table.
    for text in ("4v1v/7/7/7/7/7/7/7/V6 w 24", "4v1v/7/7/7/7/7/7/7/V6 b 24"):
        assert capture_reachable(text)
        d = Decision(parse_position(text))
        assert d.finish() == ALIVE and d.expanded <= 10 and d.bytes <= 1536, (d.expanded,
                                                                             d.bytes)



def test_a_standard_start_skips_a_decision_that_cannot_end_the_game(monkeypatch):
    # Game() at a standard start does not decide rule 6b (the longest part of making a game, at
    # every power-on and new game on the RP2040). What it skips: in both variants and every
    # express stage, with no capture possible now, the decision gives up without a bound hit
    # (too many tiles to number their positions), so the game plays on and no draw is offered.
    from barragoon import game as game_module
    from barragoon.game import start_position
    for variant in (0, 1):
        for stages in ((w, b) for w in range(3) for b in range(3)):
            pos = start_position(variant)
            assert not pos.has_capture(pos.side)
            d = Decision(pos, stages)
            assert d.finish() == UNDECIDED and not d.exhausted, (variant, stages)

    def refused(*args):
        raise AssertionError("a decision at the standard start")
    monkeypatch.setattr(game_module, "Decision", refused)
    for variant in (0, 1):
        g = Game(variant=variant, stages=(2, 1))
        assert not g.over and not g.deciding and not g.unproven


# --- boxed in for good ----------------------------------------------------------------------------
# deadlock_pens.BOXED: a 4-tile walled in by its own 2- and 3-tile, free 2-tiles kept apart by
# a full rank of All Turns (1,120 reachable arrangements, none with a capture; 15,120 with a
# second 2-tile). The decision once took the walled-in tiles for mobile ones, had too many
# arrangements to keep and never answered: the game went on for ever.
def test_tiles_walled_in_by_each_other_stay_put_and_the_game_is_drawn():
    for text in deadlock_pens.BOXED:
        assert capture_reachable(text) is False and both_can_move(text, (0, 0)), text
        pos = parse_position(text)
        d = Decision(pos)
        assert d.finish() == DEAD and d.states == 0, text      # the flood alone proves it
        assert no_capture_possible(pos)
        g = Game(text)
        assert g.over and g.winner == DRAW and g.reason == R_DEAD, text


def test_boxed_in_shapes_are_decided_as_the_brute_force_says():
    # deadlock_pens.SHAPES: boxed-in shapes of other kinds, most with more arrangements than
    # a search over all tiles at once may keep: only the parts decide them.
    for text, truth in deadlock_pens.SHAPES:
        assert capture_reachable(text) is truth, text
        d = Decision(parse_position(text))
        assert d.finish() == (ALIVE if truth else DEAD), (text, d.result)
        g = Game(text)
        assert (g.reason == R_DEAD) == (not truth), text
        assert not g.unproven


def test_a_decision_that_runs_out_of_work_leaves_the_draw_to_the_players(monkeypatch):
    # The board offers the draw (Game.unproven) only where a search ran to its bounds and
    # found no capture; not where the tiles are too many to search at all (the start).
    import barragoon.deadlock as D
    text = deadlock_pens.SHAPES[4][0]
    assert Game(text).over
    monkeypatch.setattr(D, "MAX_EXPANSIONS", 3)
    g = Game(text)
    assert not g.over and g.unproven
    frm, to, _ = parse_move("a4-a2")
    g.move(frm, to)                           # White is walled in: no question at Brown's turn
    assert not g.unproven and not g.over
    g.undo()
    assert g.unproven                         # (the start's decision again)
    assert not Game().unproven
