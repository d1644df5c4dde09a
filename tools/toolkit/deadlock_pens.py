"""Random small pens for rule 6b: the positions that test and measure the exact decision.

A module, not a tool: host_tests/test_rules_deadlock.py checks the decision on these positions
against its brute force, and tools/bench/bench_deadlock.py times the hardest of them on the emulated
Pico. Positions are texts in the notation of RULES.md, generated from a seed (CPython's random,
so the test and the benchmark see the same ones).

Five kinds, where rule 6b is hard to decide: tiles that can move but may never meet in the
right order.
  corner   a corner of 3x3 to 5x5 squares fenced by All Turns Barragoons, 2-4 tiles inside,
           more Barragoons (mostly All Turns) in between;
  pens     one to three small pens anywhere on the board, fenced by Barragoons of mixed faces
           (some let tiles out one way), one or two tiles in each, a few Barragoons inside;
  walls    a board two-thirds full of Barragoons of random faces, 2-5 tiles among them;
  maze     a corner of up to 7x6 squares, half or more of it All Turns Barragoons (which
           2-tiles cannot take but may turn on), 2-4 tiles, mostly 2-tiles;
  boxed    a full rank of All Turns Barragoons across the board; below it a corner box where
           tiles wall each other in, among more Barragoons, and a free tile or two; above it
           one to three free tiles.
A side to move and, in three positions in ten, express stages are drawn too. Four positions in
five are kept only if both sides can move and the side to move cannot capture at once.

Fixed positions too: BOXED (the tiles walled in by each other of a bug report) and SHAPES
(boxed-in shapes of other kinds), each checked against the brute force by the test.
"""
if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/deadlock_pens.py is a module the tools import, not a tool "
                     "(tools/README.md lists the tools)\n")
    sys.exit(2)

import random

FILES = "abcdefg"
FACES = ("X", "1N", "1E", "1S", "1W", "2V", "2H",
         "RN", "RE", "RS", "RW", "LN", "LE", "LS", "LW", "A")
LIMITS = {"Z": 2, "D": 3, "V": 2}     # tiles of each value a side owns


def square(f, r):
    return FILES[f] + str(r + 1)


def text(board, side, supply=0):
    """Position text of board {square: 'Z' / 'd' / face code}."""
    ranks = []
    for r in range(8, -1, -1):
        out, run = "", 0
        for f in range(7):
            p = board.get(square(f, r))
            if p is None:
                run += 1
                continue
            if run:
                out += str(run)
                run = 0
            out += p if p.upper() in LIMITS else "[" + p + "]"
        ranks.append(out + (str(run) if run else ""))
    return "/".join(ranks) + " " + side + " " + str(supply)


def _face(rng, all_turns):
    return "A" if rng.random() < all_turns else rng.choice(FACES)


def _add_tiles(rng, board, squares, count, letters="ZDV"):
    # count tiles on free squares of squares, sides and values drawn (within a set's limits)
    free = [s for s in squares if s not in board]
    rng.shuffle(free)
    placed = 0
    for s in free:
        if placed == count:
            break
        for tries in range(6):
            t = rng.choice(letters)
            t = t if rng.random() < 0.5 else t.lower()
            if sum(1 for p in board.values() if p == t) < LIMITS[t.upper()]:
                board[s] = t
                placed += 1
                break


def _corner(rng):
    w, h = rng.choice((3, 3, 4, 5)), rng.choice((3, 4, 4, 5))
    board = {}
    for f in range(w + 1):
        for r in range(h + 1):
            if f == w or r == h:
                board[square(f, r)] = "A"
    inside = [square(f, r) for f in range(w) for r in range(h)]
    board[inside[rng.randrange(len(inside))]] = "Z"
    board[rng.choice([s for s in inside if s not in board])] = "z"
    _add_tiles(rng, board, inside, rng.choice((0, 1, 2)), rng.choice(("Zz", "ZDV")))
    density = rng.choice((0.2, 0.3, 0.4, 0.5))
    for s in inside:
        if s not in board and rng.random() < density:
            board[s] = _face(rng, 0.9)
    return board


def _pens(rng):
    board = {}
    inside = []
    for p in range(rng.choice((1, 2, 2, 3))):
        w, h = rng.randint(1, 3), rng.randint(1, 3)
        f0, r0 = rng.randint(0, 7 - w), rng.randint(0, 9 - h)
        cells = [square(f, r) for f in range(f0, f0 + w) for r in range(r0, r0 + h)]
        for f in range(f0 - 1, f0 + w + 1):
            for r in range(r0 - 1, r0 + h + 1):
                if 0 <= f < 7 and 0 <= r < 9 and square(f, r) not in cells:
                    board[square(f, r)] = _face(rng, rng.choice((0.5, 0.8)))
        for s in cells:
            board.pop(s, None)
        inside.append(cells)
    for cells in inside:
        _add_tiles(rng, board, cells, rng.choice((1, 1, 2)))
    every = [s for cells in inside for s in cells]
    for s in every:
        if s not in board and rng.random() < 0.2:
            board[s] = _face(rng, 0.6)
    return board


def _walls(rng):
    board = {}
    density = rng.choice((0.6, 0.7, 0.8))
    for f in range(7):
        for r in range(9):
            if rng.random() < density:
                board[square(f, r)] = _face(rng, rng.choice((0.3, 0.6)))
    every = [square(f, r) for f in range(7) for r in range(9)]
    for s in rng.sample(every, rng.randint(2, 5)):
        board.pop(s, None)
        _add_tiles(rng, board, [s], 1)
    return board


def _maze(rng):
    # A corner of up to 7x6 squares, half or more of it All Turns Barragoons, which 2-tiles
    # cannot capture but may turn on: tiles that can meet only by the right turns in order.
    board = {}
    w, h = rng.randint(3, 7), rng.randint(3, 6)
    density = rng.choice((0.5, 0.6, 0.7))
    for f in range(min(w + 1, 7)):
        for r in range(min(h + 1, 9)):
            if f == w or r == h:
                board[square(f, r)] = "A"
            elif rng.random() < density:
                board[square(f, r)] = _face(rng, 0.93)
    inside = [square(f, r) for f in range(w) for r in range(h)]
    _add_tiles(rng, board, inside, rng.randint(2, 4), rng.choice(("Zz", "Zz", "ZDV")))
    return board


def _boxed(rng):
    board = {}
    wall = rng.randint(3, 5)
    wall_squares = [square(f, wall) for f in range(7)]
    for s in wall_squares:
        board[s] = "A"
    lower = [square(f, r) for f in range(7) for r in range(wall)]
    upper = [square(f, r) for f in range(7) for r in range(wall + 1, 9)]
    w, h = rng.randint(2, 4), rng.randint(2, 3)
    box = [square(f, r) for f in range(w) for r in range(h)]
    letters = rng.choice(("VZD", "VD", "VZ", "DZ", "vzd", "VZd"))
    for t, s in zip(letters, rng.sample(box, len(letters))):
        board[s] = t
    density = rng.choice((0.3, 0.5, 0.7))
    for s in lower:
        if s not in board and rng.random() < density:
            board[s] = _face(rng, rng.choice((0.8, 1.0)))
    for s in upper:
        if rng.random() < density / 3:
            board[s] = _face(rng, 0.9)
    cubes = [s for s, p in board.items() if p.upper() not in LIMITS and s not in wall_squares]
    rng.shuffle(cubes)
    for s in cubes[32 - 7:]:
        del board[s]                          # (a set has 32: the wall stays whole)
    _add_tiles(rng, board, [s for s in lower if s not in box], rng.randint(1, 2),
               rng.choice(("Zz", "Z", "ZD")))
    _add_tiles(rng, board, upper, rng.randint(1, 3), rng.choice(("Zz", "z", "zd", "ZDV")))
    return board


def _has_both_sides(board):
    tiles = [p for p in board.values() if p.upper() in LIMITS]
    return any(p.isupper() for p in tiles) and any(p.islower() for p in tiles)


def _trim(rng, board):
    # A set has 32 Barragoons: drop random ones beyond that.
    cubes = [s for s, p in board.items() if p.upper() not in LIMITS]
    rng.shuffle(cubes)
    for s in cubes[32:]:
        del board[s]


# Boxed in for good: White's 4-tile walled in by its own 2- and 3-tile and All Turns (a1, a2,
# b1: none of the three can move while the other two stand), a full rank of All Turns keeping
# the free 2-tiles apart. No capture can ever happen: 1,120 reachable arrangements; 15,120 with
# Brown's second 2-tile; the same turned round, with White's second 2-tile.
BOXED = (
    "7/3z3/7/7/[A][A][A][A][A][A][A]/3Z3/[A][A]5/Z[A][A]4/VD[A]4 w 0",
    "7/3z3/7/1z5/[A][A][A][A][A][A][A]/3Z3/[A][A]5/Z[A][A]4/VD[A]4 w 0",
    "4[A]dv/4[A][A]z/5[A][A]/3z3/[A][A][A][A][A][A][A]/5Z1/7/3Z3/7 b 0",
)

# Boxed-in shapes of other kinds: (position, whether a capture is reachable), with the
# arrangements an exhaustive search visits (to a capture, or all of them).
SHAPES = (
    # the box; Brown's two 2-tiles on its side of the wall, White's free 2-tile beyond (5,304)
    ("7/7/[A]6/2Z4/7/[A][A][A][A][A][A][A]/[A][A]1z2z/Z[A][A]4/VD[A]4 b 0", False),
    # the box in the other corner, Brown's 2-tiles beside it (4,620)
    ("7/7/7/7/4Z2/[A][A][A][A][A][A][A]/z4[A][A]/z3[A][A]Z/2[A]1[A]DV b 0", False),
    # the box, Brown's 2-tiles close enough to reach it (706)
    ("7/[A]5Z/7/5[1E]1/[A]6/[A][A][A][A][A][A][A]/[A][A]5/Z[A][A]3z/VD[A]2z1 b 0", True),
    # a One Way gate beside the box lets a Brown 2-tile through (45)
    ("7/1z5/6[A]/3z3/7/[A][A][A][A][A][A][A]/Z3[1S][A][A]/4[A][A]Z/4[A]DV b 0", True),
    # White's 2-tile on a4 can only go through the One Way to a2, Brown's on a1 only to a2:
    # White moving first locks both in for good (13); Brown moving first is taken
    ("7/2z4/7/7/[A][A][A][A][A][A][A]/Z[A]5/[1S][A]3[A][A]/1[A]2[A][A]Z/z[A]2[A]DV w 0", False),
    ("7/2z4/7/7/[A][A][A][A][A][A][A]/Z[A]5/[1S][A]3[A][A]/1[A]2[A][A]Z/z[A]2[A]DV b 0", True),
    # White's 4-tile behind its own 2-tiles, which must step aside one by one before it can
    # take a Barragoon, while Brown's 2-tiles beyond the wall keep moving (2,508)
    ("7/3[A]z2/7/7/5z1/[A][A][A][A][A][A][A]/2[A]3[A]/[A]Z[A]1[A]2/V1Z[A][A][A][A] w 0", True),
)

KINDS = (_corner, _pens, _pens, _walls, _maze, _maze, _boxed)


def _open_question(t):
    # Both sides can move and the side to move cannot capture now: the positions where rule
    # 6b needs more than a glance (the move generator of the rules core only picks them).
    from barragoon.notation import parse_position
    pos = parse_position(t)
    return (pos.mobile_tiles(0, 1) and pos.mobile_tiles(1, 1)
            and not pos.has_capture(pos.side))


def position(rng):
    """(position text, (White's stage, Brown's stage)) of one random pen position. Four in
    five are open questions: both sides can move, the side to move cannot capture now."""
    hard = rng.random() < 0.8
    while True:
        board = rng.choice(KINDS)(rng)
        _trim(rng, board)
        if not _has_both_sides(board):
            continue
        t = text(board, rng.choice("wb"))
        if not hard or _open_question(t):
            break
    stages = (0, 0)
    if rng.random() < 0.3:
        stages = (rng.randint(0, 2), rng.randint(0, 2))
    return t, stages


def positions(seed, count):
    """count positions from seed: [(text, stages)]."""
    rng = random.Random(seed)
    return [position(rng) for i in range(count)]
