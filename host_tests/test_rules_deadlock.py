# Rule 6b's verdict "no capture possible any more" (firmware/barragoon/deadlock.py) against an
# independent brute force (issue 9, point 7).
#
# The oracle plays every game from a position exhaustively: both sides alternate, every legal
# move (from host_tests/reference_moves.py, which shares nothing with the core) is tried,
# positions already seen are skipped, and a side without a move ends that line. A capture is
# reachable when some reachable position lets the side to move capture. The core's verdict is
# allowed to miss a draw (it over-approximates where tiles can go) but must never declare one
# while the oracle still finds a capture.
#
# To keep the search exhaustive the positions are small: 2-4 tiles (mostly 2-tiles, which
# cannot take an All Turns Barragoon) in a corner of 3x3 to 5x5 squares fenced by All Turns
# Barragoons, with more of them (and a few other faces) inside. That is where the verdict is
# hard: tiles that reach a square only by turning on an All Turns Barragoon, i.e. only with a
# full move.
#
# CPython only: the oracle is slow on purpose and MicroPython would add minutes, not coverage
# (the verdict's code is the same on both, and test_rules_game.py runs its draws on both).
# BARRAGOON_FUZZ=N scales the number of positions (default 20000), BARRAGOON_FUZZ_SEED varies
# them.
import os
import random

from barragoon.deadlock import no_capture_possible
from barragoon.notation import parse_position
from reference_moves import FILES, tile_moves, is_tile, owner

FUZZ = int(os.environ.get("BARRAGOON_FUZZ", "0") or 0)
SEED = int(os.environ.get("BARRAGOON_FUZZ_SEED", "20240611"))
POSITIONS = max(FUZZ // 5, 20000)
OTHER_FACES = ("2V", "2H", "1N", "1E", "1S", "1W", "RN", "LW", "X")


def capture_reachable(board, side):
    """Whether some capture can happen in a game from board (dict square -> piece text) with
    side ('w'/'b') to move, by exhaustive search of both sides' moves."""
    fixed = {sq: p for sq, p in board.items() if not is_tile(p)}   # no capture: Barragoons stay
    start = (tuple(sorted((sq, p) for sq, p in board.items() if is_tile(p))), side)
    seen = {start}
    todo = [start]
    while todo:
        tiles, side = todo.pop()
        here = dict(fixed)
        here.update(tiles)
        moves = set()
        for sq, p in tiles:
            if owner(p) == side:
                moves |= tile_moves(here, sq)
        if any(m[2] == "x" for m in moves):
            return True
        other = "b" if side == "w" else "w"
        for m in moves:
            frm, to = m[:2], m[3:]
            after = [(sq, p) for sq, p in tiles if sq != frm] + [(to, here[frm])]
            state = (tuple(sorted(after)), other)
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return False


def position_text(board, side="w"):
    ranks = []
    for rank in range(9, 0, -1):
        out, run = "", 0
        for f in FILES:
            p = board.get(f + str(rank))
            if p is None:
                run += 1
                continue
            if run:
                out += str(run)
                run = 0
            out += p if is_tile(p) else "[" + p + "]"
        ranks.append(out + (str(run) if run else ""))
    return "/".join(ranks) + " " + side + " 0"


def small_board(rng):
    """A corner of width x height squares fenced by All Turns Barragoons, a few tiles inside."""
    width, height = rng.choice((3, 3, 4, 5)), rng.choice((3, 4, 4, 5))
    board = {}
    for f in range(width + 1):
        for r in range(height + 1):
            if f == width or r == height:
                board[FILES[f] + str(r + 1)] = "A"
    inside = [FILES[f] + str(r + 1) for f in range(width) for r in range(height)]
    rng.shuffle(inside)
    tiles = ["Z", "z", rng.choice("Zz"), rng.choice(("Z", "z", "D", "d", "V", "v"))]
    tiles = tiles[:rng.choice((2, 3, 4))]
    if tiles.count("Z") > 2 or tiles.count("z") > 2:
        tiles = tiles[:3]
    for sq, tile in zip(inside, tiles):
        board[sq] = tile
    density = rng.choice((0.2, 0.3, 0.4, 0.5))
    for sq in inside[len(tiles):]:
        if rng.random() < density:
            board[sq] = "A" if rng.random() < 0.9 else rng.choice(OTHER_FACES)
    return board


def verdict(board):
    return no_capture_possible(parse_position(position_text(board)))


def test_dead_verdict_never_hides_a_reachable_capture():
    rng = random.Random(SEED)
    dead = 0
    wrong = []
    for i in range(POSITIONS):
        board = small_board(rng)
        if verdict(board):
            dead += 1
            for side in ("w", "b"):
                if capture_reachable(board, side):
                    wrong.append("%s: a capture is reachable" % position_text(board, side))
    assert not wrong, "%d false draws, e.g.\n%s" % (len(wrong), "\n".join(wrong[:5]))
    assert dead >= POSITIONS // 100, "only %d dead verdicts: the test proves little" % dead


def test_dead_verdict_finds_most_true_draws():
    # The verdict may miss draws, but not most of them: 6b has to end real games.
    rng = random.Random(SEED + 1)
    truly_dead = found = 0
    for i in range(POSITIONS // 4):
        board = small_board(rng)
        if not capture_reachable(board, "w") and not capture_reachable(board, "b"):
            truly_dead += 1
            found += verdict(board)
    assert truly_dead >= 50
    assert found * 10 >= truly_dead * 7, "%d of %d draws found" % (found, truly_dead)


# Positions where a capture is reachable only with a full move: a tile gets next to the
# target square only by turning on an All Turns Barragoon (the full-move distance check that
# deadlock.py makes is what finds them).
FULL_MOVE_ONLY = (
    "7/7/7/7/7/[A][A][A][A]3/1[A]z[A]3/[A]1[A][A]3/[A][A]Z[A]3 w 0",
    "7/7/7/7/[A][A][A][A]3/Z1[A][A]3/[A][A][A][A]3/[A]1[A][A]3/z[LW]Z[A]3 w 0",
    "7/7/7/7/[A][A][A][A]3/[A]z[A][A]3/1[A]1[A]3/[A]1[A][A]3/Z[2H]1[A]3 w 0",
    "7/7/7/7/[A][A][A][A][A]2/[A][A]2[A]2/z[A][A][A][A]2/[A]1[A]Z[A]2/1[A]Z[2V][A]2 w 0",
)


def test_captures_reachable_only_by_a_full_move_are_seen():
    from reference_moves import read_position
    for text in FULL_MOVE_ONLY:
        board = read_position(text)[0]
        assert capture_reachable(board, "w") or capture_reachable(board, "b"), text
        assert not no_capture_possible(parse_position(text)), text
