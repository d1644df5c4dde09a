# The core's move generator (Position.legal_moves / targets) against the deliberately simple
# reference generator of host_tests/reference_moves.py, move for move, on many positions:
#   - positions reached by random play through Game (random moves, random placements: random
#     empty square, random face of the 16) from the closed and the open start;
#   - positions made directly by scattering random pieces (valid material), with face
#     palettes and crowding chosen to hit odd configurations.
# Both sides' moves are compared in every position, not only the side to move.
#
# CPython only (slow on purpose). Fixed seeds, so a failure is reproducible. The default run
# takes well under a minute; set BARRAGOON_FUZZ=100000 (number of play positions; the scatter
# count scales with it) for a longer run, BARRAGOON_FUZZ_SEED to vary the seed.
import os
import random
import time

from barragoon.core import (
    WHITE, BROWN, EMPTY, MAX_BARRAGOON, T_MOVE, T_CAPTURE_TILE, T_CAPTURE_BARRAGOON,
    Position, tile_code)
from barragoon.game import Game, CLOSED, OPEN
from barragoon.notation import format_position, parse_position, format_move, FACES
from reference_moves import reference_moves

FUZZ = int(os.environ.get("BARRAGOON_FUZZ", "0") or 0)
SEED = int(os.environ.get("BARRAGOON_FUZZ_SEED", "20240611"))
PLAY_POSITIONS = max(FUZZ, 10000)        # per start variant: closed and open
SCATTER_POSITIONS = max(FUZZ // 2, 5000)
MAX_GAME_ACTIONS = 400                   # then start a new game
SIDES = ((WHITE, "w"), (BROWN, "b"))


class Comparison:
    def __init__(self):
        self.positions = 0
        self.moves = 0
        self.captures = 0
        self.failures = []

    def check(self, pos):
        text = format_position(pos)
        self.positions += 1
        for side, letter in SIDES:
            core = [format_move(m // 64, m % 64, pos.get(m % 64) != EMPTY)
                    for m in pos.legal_moves(side)]
            ref = reference_moves(text, letter)
            self.moves += len(ref)
            problems = []
            if set(core) != ref:
                problems.append("missing in core: %s; extra in core: %s"
                                % (" ".join(sorted(ref - set(core))) or "-",
                                   " ".join(sorted(set(core) - ref)) or "-"))
            if len(core) != len(set(core)):
                problems.append("legal_moves lists a move twice: %s" % " ".join(core))
            moves = pos.legal_moves(side)
            if moves != sorted(moves):
                problems.append("legal_moves not sorted")
            problems += self._check_kinds(pos, side)
            starts = set(m[:2] for m in ref)
            captures = [m for m in ref if m[2] == "x"]
            self.captures += len(captures)
            if pos.mobile_tiles(side) != len(starts):
                problems.append("mobile_tiles %d, reference %d"
                                % (pos.mobile_tiles(side), len(starts)))
            if pos.has_capture(side) != bool(captures):
                problems.append("has_capture %s, reference %s"
                                % (pos.has_capture(side), bool(captures)))
            if problems:
                self.failures.append("%s  side %s: %s" % (text, letter, "; ".join(problems)))

    @staticmethod
    def _check_kinds(pos, side):
        # targets() must give each target the kind its content calls for.
        out = []
        for sq in range(63):
            c = pos.get(sq)
            if c <= MAX_BARRAGOON or (c >> 4) & 1 != side:
                continue
            n = pos.targets(sq)
            for i in range(n):
                to, kind = pos.tsq[i], pos.tkind[i]
                t = pos.get(to)
                want = (T_MOVE if t == EMPTY else
                        T_CAPTURE_BARRAGOON if t <= MAX_BARRAGOON else T_CAPTURE_TILE)
                if kind != want:
                    out.append("targets() kind %d for %s, want %d"
                               % (kind, format_move(sq, to, t != EMPTY), want))
        return out

    def report(self, what, seconds):
        print("%s: %d positions, %d moves compared (%d captures), %.1f s"
              % (what, self.positions, self.moves, self.captures, seconds))
        assert not self.failures, ("%d mismatches with the reference, first ones:\n%s"
                                   % (len(self.failures), "\n".join(self.failures[:10])))


def random_placement(game, rng):
    pos = game.pos
    empty = [sq for sq in range(63) if pos.get(sq) == EMPTY]
    game.place(rng.choice(empty), rng.randint(1, 16))


def play_positions(variant, count, rng):
    """Yield count positions (Game.pos, live: use before the next yield) met in random play:
    at every turn start, before every placement, and where games end."""
    made = 0
    while made < count:
        game = Game(variant=variant)
        while made < count:
            yield game.pos
            made += 1
            if game.over or len(game.actions) >= MAX_GAME_ACTIONS:
                break
            if game.placing() >= 0:
                random_placement(game, rng)
                continue
            moves = game.legal_moves()
            if not moves:
                break
            m = rng.choice(moves)
            game.move(m // 64, m % 64)


def run_play(variant, label):
    rng = random.Random(SEED + variant)
    comp = Comparison()
    t0 = time.time()
    for pos in play_positions(variant, PLAY_POSITIONS, rng):
        comp.check(pos)
    comp.report("random play from the %s start" % label, time.time() - t0)


def test_reference_random_play_closed_start():
    run_play(CLOSED, "closed")


def test_reference_random_play_open_start():
    run_play(OPEN, "open")


# --- scattered positions ----------------------------------------------------------------------
TURNING = ("RN", "RE", "RS", "RW", "LN", "LE", "LS", "LW", "A")
STRAIGHT = ("1N", "1E", "1S", "1W", "2V", "2H")
PALETTES = (FACES, FACES, TURNING, STRAIGHT, TURNING + STRAIGHT, ("A",), ("X", "A"))
TILE_SET = ((2, 2), (3, 3), (4, 2))   # (value, how many a side owns)


def scatter(rng):
    """A random position with valid material: some tiles of each side, some Barragoons from a
    random face palette, all inside a random box of the board (small boxes crowd it)."""
    w = rng.choice((7, 7, 5, 4, 3))
    h = rng.choice((9, 9, 6, 5, 4))
    f0 = rng.randint(0, 7 - w)
    r0 = rng.randint(0, 9 - h)
    box = [r * 7 + f for r in range(r0, r0 + h) for f in range(f0, f0 + w)]
    rng.shuffle(box)
    pieces = []
    for side in (WHITE, BROWN):
        for value, owned in TILE_SET:
            pieces += [tile_code(side, value)] * rng.randint(0, owned)
    rng.shuffle(pieces)
    palette = rng.choice(PALETTES)
    barragoons = rng.randint(0, min(32, len(box)))
    pieces = pieces[:len(box)]
    pieces += [1 + FACES.index(rng.choice(palette)) for _ in range(barragoons)]
    pieces = pieces[:len(box)]
    pos = Position()
    for sq, code in zip(box, pieces):
        pos.put(sq, code)
    pos.side = rng.choice((WHITE, BROWN))
    pos.supply = rng.randint(0, 32 - pos.count_barragoons())
    return pos


def test_reference_scattered_positions():
    rng = random.Random(SEED + 7)
    comp = Comparison()
    t0 = time.time()
    for _ in range(SCATTER_POSITIONS):
        pos = scatter(rng)
        text = format_position(pos)
        # The scattered position must be a valid position whose notation round-trips.
        assert format_position(parse_position(text)) == text, text
        comp.check(pos)
    comp.report("scattered positions", time.time() - t0)


def test_reference_agrees_on_hand_made_positions():
    # Positions worked out by hand from RULES.md, so that the reference itself is pinned down
    # and not only compared with the core (which is then compared on them as well).
    def moves(text, tile_square):
        return set(m for m in reference_moves(text) if m.startswith(tile_square))

    # A 4-tile alone on d5: every square at distance 3 or 4 is a target.
    text = "7/7/7/7/3V3/7/7/7/7 w 24"
    assert len(moves(text, "d5")) == len(
        [1 for f in range(7) for r in range(9) if abs(f - 3) + abs(r - 4) in (3, 4)])
    # RE on d5 is entered heading N and left heading E.
    text = "7/7/7/7/3[RE]3/7/3V3/7/7 w 24"
    got = moves(text, "d3")
    assert {"d3-e5", "d3-f5"} <= got and not {"d3-d6", "d3-d7"} & got
    # A 2-tile never captures an A; its other moves are all there.
    text = "7/7/7/7/7/7/2[A]4/7/2Z4 w 24"
    assert moves(text, "c1") == {"c1-b1", "c1-d1", "c1-c2", "c1-a1", "c1-e1",
                                 "c1-b2", "c1-d2"}
    # A 3-tile turns on it (never straight through), and captures it with a full move.
    text = "7/7/7/7/7/7/2[A]4/7/2D4 w 24"
    got = moves(text, "c1")
    assert {"c1-b3", "c1-d3"} <= got and not {"c1-c4", "c1xc3", "c1-c3"} & got
    assert "c1xc4" in moves("7/7/7/7/7/2[A]4/7/7/2D4 w 24", "c1")
    # A short move never captures.
    text = "7/7/7/7/7/7/2[X]4/7/2D4 w 24"
    got = moves(text, "c1")
    assert not {"c1xc3", "c1-c3", "c1xc4", "c1-c4"} & got
    # No second turn: a1 -> b3 only via a3 or b1, both blocked.
    text = "7/7/7/7/7/7/[X]6/7/D[X]5 w 24"
    got = moves(text, "a1")
    assert "a1-b3" not in got and "a1-b2" in got
    # One Way crossed only in the arrow's heading.
    assert not {"c1-c3", "c1-c4"} & moves("7/7/7/7/7/7/7/2[1S]4/2D4 w 24", "c1")
    assert {"c1-c3", "c1-c4"} <= moves("7/7/7/7/7/7/7/2[1N]4/2D4 w 24", "c1")
    # Turn on an empty square (c2), then cross a Two Ways straight (d2): legal ...
    assert "c1-e2" in moves("7/7/7/7/7/7/7/3[2H]3/2D1Z2 w 24", "c1")
    # ... but a Right Turn cannot be crossed straight, and turning on it after turning on d1
    # would be a second turn (e1 holds an own tile, so no other path).
    assert "c1-e2" not in moves("7/7/7/7/7/7/7/3[RE]3/2D1Z2 w 24", "c1")
    # Own tiles are never captured, opponent tiles only by a full move.
    got = moves("7/7/7/7/7/7/7/2z4/2D1Z2 w 24", "c1")
    assert "c1xc2" not in got and "c1-c3" not in got
    got = moves("7/7/7/7/7/7/7/2z4/2Z4 w 24", "c1")
    assert "c1xc2" not in got
    got = moves("7/7/7/7/7/7/2z4/7/2Z4 w 24", "c1")
    assert "c1xc3" in got
    assert "c1xe1" not in moves("7/7/7/7/7/7/7/7/2Z1Z2 w 24", "c1")

    comp = Comparison()
    for text in ("7/7/7/7/3V3/7/7/7/7 w 24", "7/7/7/7/3[RE]3/7/3V3/7/7 w 24",
                 "7/7/7/7/7/7/2[A]4/7/2Z4 w 24", "7/7/7/7/7/7/[X]6/7/D[X]5 w 24",
                 "7/7/7/7/7/7/7/3[2H]3/2D1Z2 w 24", "7/7/7/7/7/7/7/3[RE]3/2D1Z2 w 24"):
        comp.check(parse_position(text))
    comp.report("hand-made positions", 0)
