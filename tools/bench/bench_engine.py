"""Engine matches and speed: win/draw/loss counts, nodes per second, heap.

    python tools/bench/bench_engine.py               the target matches (10 games each) + speed
    python tools/bench/bench_engine.py --games 100   the strength targets (long: use nice)
    python tools/bench/bench_engine.py --match L2:L1 --games 40 --openings random   (no speed run)
    ... --match L3:L2 --games 100 --progress      a line with the running score after every
                                               game (stop a hopeless attempt early)
    ... --match L3:L2 --games 70 --first 31       games 31-100 of the series only (the same
                                               openings and colours; the players start fresh)
    python tools/bench/bench_engine.py --speed       speed and heap only
    python tools/bench/bench_engine.py --rp2040      speed, level budgets and heap on the
                                               emulated Pico (the figures that count)
    python tools/bench/bench_engine.py --rp2040 --profile  where a search's time goes there
    micropython tools/bench/bench_engine.py --speed  MicroPython figures only

Players: random (random move, random placements), greedy (the most valuable capture, else a
random move; random placements), ref2 (the 2-ply reference, tools/toolkit/reference_player.py),
L1 L2 L3 (the engine's levels, as work budgets: a unit is about one tile's move generation,
the same work on every machine, so results are reproducible; engine.LEVELS holds each
strength's work, which the board searches as it is), sN (N units), dN (depth N).

Matches run on the MicroPython unix port when there is one (the engine's and the rules core's
viper code is machine code there: many times faster than CPython, and the same games; --runtime
cpython to use CPython). Openings: "start" games begin at the standard start position. Two
engines would play the same game every time from there, so between two deterministic players
every pair of games starts with one random turn per side ("start" then means: the standard
start, one random turn each). "random" games begin after 4 to 8 random turns of each side,
placements included. Each opening is played twice, colours swapped. A game still running
after --max-turns turns (default 300) is a draw and counted as "capped".

Draws in matches: a player whose turn completes a repeated sequence (rule 6c) offers the draw
when it does not see itself clearly ahead (the engine: Turn.draw_ok, ahead by at most 0.4 of a
2-tile; the reference: the same margin on its evaluation), and the player offered accepts on
the same terms (a declined offer makes the decliner deviate, as the rules say). An engine player also
offers a draw when it is behind in a position its search sees as dead (Turn.dead), as the
board does; the other player answers the same way.
"""
import sys
import gc

_TOOLS = (__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/.."   # tools/bench/..
sys.path.insert(0, _TOOLS + "/../firmware")
sys.path.insert(0, _TOOLS)

from barragoon.core import WHITE, TILE, MAX_BARRAGOON  # noqa: E402
from barragoon.game import Game, DRAW  # noqa: E402

MICRO = sys.implementation.name == "micropython"
if MICRO:
    gc.collect()
    HEAP_BEFORE_ENGINE = gc.mem_alloc()
from barragoon.engine import Engine, LEVELS, ticks_ms, ticks_diff  # noqa: E402
from barragoon.evaluation import VALUE  # noqa: E402
if MICRO:
    gc.collect()
    HEAP_ENGINE_CODE = gc.mem_alloc() - HEAP_BEFORE_ENGINE
from toolkit.reference_player import ReferencePlayer  # noqa: E402

# Positions for the speed figures: the start, a middle game, a crowded one, a late one.
SPEED_MS = (2000, 1500, 10000)   # --rp2040: searches of these lengths on each position
BOARD_UNITS_A_MS = 3.4           # the engine in the board's loop on the emulated Pico
#                                  (test_rp2040_opponent.py prints it)
PROFILE_MS = 1500                # --rp2040 --profile: a search of this length on each
SPEED_POSITIONS = (
    ("start", "1vd1dv1/2zdz2/7/1[X]3[X]1/[X]1[X]1[X]1[X]/1[X]3[X]1/7/2ZDZ2/1VD1DV1 w 24"),
    ("middle", "2d1dv1/2z[X]3/2[X]4/v[X]D[X]1z1/[X]1[X]3[X]/5[X]1/V2V3/1Z[X][X]Z2/2D1D2 w 22"),
    ("crowded", "v[RN]d[X]d[A]v/1z[2H]z[1S]2/[LE]1d[A]1[1W]1/1[X]2[RS]1[2V]/[A]1[X]1[1N]2/"
                "1[RE]1D1[X]1/[1E]1Z[A]Z1[LS]/2[2H]D3/1VD2V1 w 12"),
    ("late", "4[X]2/1[X][X]1[X]2/[X][X]2[X]d1/4V1[X]/1[X]D[X]Z1V/[LE]4[X][X]/1[X]1[X]3/2[X]vZ2/"
             "2D[X]D[X]1 w 14"),
)

# Nodes per second before issue 23 (main de99025), measured the same way (--rp2040: each
# position searched for 2 s on the emulated Pico).
BEFORE = {"start": 110, "middle": 80, "crowded": 44}

# The slowest first looks at every move and face (depth 1) found in 800 positions of games
# between engines, and the example (its win needs an A).
FIRST_PLY = (
    "2d2v1/2z1z2/v5[X]/1[X]2dZ1/[X]3[X]1[X]/1[X]D4/Z1[X]d1D1/1[X]1D3/1V3V1 w 24",
    "7/[X]2[X]3/v[X]2[A]1[X]/dd[LS]D2[X]/v[X]1Z1[1S]Z/V3[X]1d/3DD2/2[X]V[X]2/7 w 20",
    "[X]v[X][X]3/1[X]d[X][RN]2/[A]1[X][X]3/z[X]d[X]1Z1/[X]1V2[1E][X]/3V3/1Z2D2/4D2/4D2 w 18",
)

MAX_TURNS = 300


def since(t0):
    return ticks_diff(ticks_ms(), t0)


class Rng:
    """xorshift32: the same sequences on CPython and MicroPython."""

    def __init__(self, seed):
        self.s = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x % n

    def choice(self, seq):
        return seq[self.below(len(seq))]


def random_action(game, rng):
    """Play one random action; returns it as ("m", frm, to) or ("p", sq, face)."""
    if game.placing() >= 0:
        empty = [sq for sq in range(63) if game.pos.get(sq) == 0]
        a = ("p", rng.choice(empty), 1 + rng.below(16))
        game.place(a[1], a[2])
    else:
        m = rng.choice(game.legal_moves())
        a = ("m", m // 64, m % 64)
        game.move(a[1], a[2])
    return a


def capture_value(pos, m):
    c = pos.get(m % 64)
    if c & TILE:
        return VALUE[c & 7]
    return 1 if 0 < c <= MAX_BARRAGOON else 0


class RandomPlayer:
    name = "random"

    def __init__(self, seed):
        self.rng = Rng(seed)

    def act(self, game):
        random_action(game, self.rng)

    def wants_draw(self, game):
        return False

    def offers_draw(self, game):
        return False


class GreedyPlayer(RandomPlayer):
    name = "greedy"

    def act(self, game):
        if game.placing() >= 0:
            random_action(game, self.rng)
            return
        moves = game.legal_moves()
        best = max(capture_value(game.pos, m) for m in moves)
        m = self.rng.choice([m for m in moves if capture_value(game.pos, m) == best])
        game.move(m // 64, m % 64)


class RefPlayer(ReferencePlayer):
    def offers_draw(self, game):
        return False


class EnginePlayer:
    def __init__(self, name, steps=0, depth=0):
        self.name = name
        self.steps = steps
        self.depth = depth
        self.engine = Engine()
        self.turns = self.nodes = self.work = self.depths = 0
        self.ms = 0.0
        self.last = None

    def act(self, game):
        t0 = ticks_ms()
        t = self.engine.run(game, steps=self.steps, depth=self.depth)
        self.ms += since(t0)
        self.turns += 1
        self.nodes += t.nodes
        self.work += t.steps
        self.depths += t.depth
        self.last = t
        n = t.now
        if t.move is not None:
            game.move(t.move[0], t.move[1])
            n -= 1
        for side, sq, face in t.places[:n]:
            game.place(sq, face)

    def wants_draw(self, game):
        return self.last is None or self.last.draw_ok

    def offers_draw(self, game):
        return self.last is not None and getattr(self.last, "offer_draw", False)


def make_player(spec, seed):
    if spec == "random":
        return RandomPlayer(seed)
    if spec == "greedy":
        return GreedyPlayer(seed)
    if spec == "ref2":
        return RefPlayer(seed)
    if len(spec) == 2 and spec[0] == "L" and spec[1] in "123":
        return EnginePlayer(spec, steps=LEVELS[int(spec[1])][1])
    if len(spec) > 1 and spec[0] in "sd" and spec[1:].isdigit():
        n = int(spec[1:])
        return EnginePlayer(spec, steps=n if spec[0] == "s" else 0,
                            depth=n if spec[0] == "d" else 0)
    raise ValueError("unknown player %r (random, greedy, ref2, L1-L3, sN, dN)" % spec)


def deterministic(p):
    return not isinstance(p, RandomPlayer)


def opening(kind, seed, engines_only=True):
    """The actions of an opening, played by random players: [("m", frm, to) / ("p", sq,
    face)]. "start" against a random or greedy player is the start position itself."""
    if kind == "start" and not engines_only:
        return []
    rng = Rng(seed)
    while True:
        g = Game()
        acts = []
        turns = 2 if kind == "start" else 4
        while not g.over and (len(g.turn_texts()) < turns or g.placing() >= 0):
            acts.append(random_action(g, rng))
        if not g.over:
            return acts


def _after_turn(g, players):
    # The player who has just completed a turn may offer a draw (see the top).
    mover = 1 - g.pos.side
    if g.repetition:
        if players[mover].wants_draw(g):
            g.offer_repetition_draw()
    elif players[mover].offers_draw(g) and players[g.pos.side].wants_draw(g):
        g.agree_draw()


def play(white, black, actions, max_turns):
    """(winner or DRAW, turns played, capped) of one game from the opening actions."""
    g = Game()
    for kind, a, b in actions:
        if kind == "m":
            g.move(a, b)
        else:
            g.place(a, b)
    players = (white, black)
    turns = 0
    while not g.over and turns < max_turns:
        if g.offered:
            g.answer_repetition_draw(bool(players[g.turn].wants_draw(g)))
            continue
        before = g.pos.side if g.placing() < 0 else -1
        players[g.turn].act(g)
        if before >= 0:
            turns += 1
        if not g.over and not g.pending:
            _after_turn(g, players)
    return (g.winner if g.over else DRAW), turns, not g.over


def match(spec_a, spec_b, games, openings, max_turns=MAX_TURNS, seed=1, out=print,
          progress=False, first=1):
    """Play games between spec_a and spec_b; returns (won, drawn, lost, capped) for a.
    progress: a line with the running score after every game; first: the number of the
    first game in the series (its opening and colours)."""
    a = make_player(spec_a, seed)
    b = make_player(spec_b, seed + 7919)
    wins = draws = losses = capped = 0
    turns_total = 0
    for i in range(first - 1, first - 1 + games):
        kind = openings if openings != "both" else ("start", "random")[(i // 2) % 2]
        acts = opening(kind, seed * 100003 + i // 2, deterministic(a) and deterministic(b))
        a_white = i % 2 == 0
        w, t, cap = play(a if a_white else b, b if a_white else a, acts, max_turns)
        turns_total += t
        capped += cap
        if w == DRAW:
            draws += 1
        elif (w == WHITE) == a_white:
            wins += 1
        else:
            losses += 1
        if progress:
            out("  game %d (%s white): %s in %d turns; %s so far %d-%d-%d"
                % (i + 1, spec_a if a_white else spec_b,
                   "draw" if w == DRAW else "won" if (w == WHITE) == a_white else "lost",
                   t, spec_a, wins, draws, losses))
    decisive = wins + losses
    out("%-6s vs %-6s %4d games (%s openings): won %d, drawn %d, lost %d; %.1f%% of decisive "
        "games; %.0f turns a game; %d reached %d turns"
        % (spec_a, spec_b, games, openings, wins, draws, losses,
           100.0 * wins / decisive if decisive else 0.0, turns_total / games, capped, max_turns))
    for p in (a, b):
        if isinstance(p, EnginePlayer) and p.turns:
            out("    %s: %d turns, %.0f units, %.0f nodes and depth %.1f a turn, %.1f ms a turn "
                "(%s)" % (p.name, p.turns, p.work / p.turns, p.nodes / p.turns,
                          p.depths / p.turns, p.ms / p.turns, sys.implementation.name))
    out("RESULT %s %s %d %d %d %d" % (spec_a, spec_b, wins, draws, losses, capped))
    return wins, draws, losses, capped


def _decisive(pct):
    return lambda w, d, l: w * 100 >= pct * (w + l)


TARGETS = (
    ("L1", "ref2", "win >= 75% of decisive games", _decisive(75)),
    ("L2", "ref2", "win >= 90% of decisive games", _decisive(90)),
    ("L2", "L1", "win >= 75% of decisive games", _decisive(75)),
    ("L3", "L2", "win >= 75% of decisive games", _decisive(75)),
)
CAPPED_PERCENT = 1             # at most this share of all games may reach MAX_TURNS


def speed(steps=20000, out=print):
    """Nodes and work units per second and heap, on the running interpreter."""
    if MICRO:
        gc.collect()
        heap0 = gc.mem_alloc()
    eng = Engine()
    if MICRO:
        gc.collect()
        out("%s heap (64-bit unix port, source modules): engine modules %d B, Engine() %d B"
            % (sys.implementation.name, HEAP_ENGINE_CODE, gc.mem_alloc() - heap0))
    for name, text in SPEED_POSITIONS:
        g = Game(text)
        eng.start(g, steps=steps)
        eng.think(1)
        if MICRO:
            gc.collect()
            h0 = gc.mem_alloc()
        t0 = ticks_ms()
        worst = 0.0
        while True:
            s0 = ticks_ms()
            done = eng.think(2)
            worst = max(worst, since(s0))
            if done:
                break
        ms = max(1, since(t0))
        heap = (gc.mem_alloc() - h0) if MICRO else 0
        t = eng.best()
        out("%-11s %-8s %6d units %5d nodes in %7.1f ms: %6.0f nodes/s, %7.0f units/s; "
            "think(2) took at most %.1f ms; depth %d; heap during search %d B%s"
            % (sys.implementation.name, name, t.steps, t.nodes, ms, t.nodes * 1000.0 / ms,
               t.steps * 1000.0 / ms, worst, t.depth, heap,
               " (incl. the answer)" if MICRO else ""))


# Run on the emulated Pico (tools/rp2040) from the .mpy build, in the raw REPL without main.py.
RP2040_SCRIPT = """
import gc, time
gc.collect()
h0 = gc.mem_alloc()
from barragoon.game import Game
gc.collect()
h1 = gc.mem_alloc()
from barragoon.engine import Engine, LEVELS
gc.collect()
h2 = gc.mem_alloc()
eng = Engine()
gc.collect()
h3 = gc.mem_alloc()
print('heap', h1 - h0, h2 - h1, h3 - h2)
def think_all(slice_ms):
    worst = 0
    t0 = time.ticks_us()
    while True:
        t = time.ticks_us()
        done = eng.think(slice_ms)
        worst = max(worst, time.ticks_diff(time.ticks_us(), t))
        if done:
            return time.ticks_diff(time.ticks_us(), t0), worst
def search(text, ms, depth=0):
    t0 = time.ticks_us()
    eng.start(Game(text), budget_ms=ms, depth=depth)
    st = time.ticks_diff(time.ticks_us(), t0)
    gc.collect()
    a = gc.mem_alloc()
    us, worst = think_all(%(slice)d)
    return eng.best(), us + st, worst, gc.mem_alloc() - a, st
search(%(positions)r[0][1], 2000)     # (the first search after a collection runs slower in
                                      # the emulator, for reasons not understood: not counted)
for name, text in %(positions)r:
    for ms in %(times)r:
        t, us, worst, heap, st = search(text, ms)
        print('speed', name, ms, t.steps, t.nodes, us, worst, heap, t.depth, st)
for text in %(first)r:
    t, us, worst, heap, st = search(text, 0, 1)
    print('first', us, t.steps, worst, t.text)
g = Game()
peak = 0
turns = 0
t_max = 0
units = 0
ms = 0
while not g.over and turns < %(turns)d:
    eng.start(g, *LEVELS[%(level)d])
    us, worst = think_all(%(slice)d)
    t_max = max(t_max, us)
    t = eng.best()
    units += t.steps
    ms += us // 1000
    n = t.now
    if t.move is not None:
        g.move(t.move[0], t.move[1])
        n -= 1
        turns += 1
    for p in t.places[:n]:
        g.place(p[1], p[2])
    gc.collect()
    peak = max(peak, gc.mem_alloc() - h0)
print('game', turns, units, ms, peak, t_max, g.reason or 'unfinished')
"""


# --rp2040 --profile: where a search's time goes, by what the search step did (Engine.pc).
PROFILE_SCRIPT = """
import time
from barragoon.game import Game
from barragoon.engine import Engine, LEVELS
eng = Engine()
eng.run(Game(), depth=1)
for name, text in %(positions)r:
    us = [0] * 16
    n = [0] * 16
    u = [0] * 16
    eng.start(Game(text), budget_ms=%(ms)d)
    t_end = time.ticks_add(time.ticks_ms(), %(ms)d)
    while not eng.done:
        pc = eng.pc[eng.k]
        s0 = eng.steps
        t = time.ticks_us()
        eng._step()
        us[pc] += time.ticks_diff(time.ticks_us(), t)
        n[pc] += 1
        u[pc] += eng.steps - s0
        eng.steps += 2
        if eng.r_depth and time.ticks_diff(time.ticks_ms(), t_end) >= 0:
            eng.stop()
    for pc in range(16):
        if n[pc]:
            print('prof', name, pc, n[pc], us[pc], u[pc])
"""
STEP_NAMES = {1: "moves (turn node)", 2: "next move / leaf", 3: "child returned (turn)",
              4: "placement: records, candidates", 5: "placement: every face of a square",
              6: "placement: score a candidate", 7: "next placement", 8: "child returned "
              "(placement)"}


def profile(out=print):
    """Time per kind of search step on the emulated Pico (level 1's time per position)."""
    from rp2040 import board, flashfs, pico
    why = pico.missing()
    if why:
        out("bench_engine: emulated Pico not available: " + why)
        return 2
    files = flashfs.read_files(flashfs.build_image(board.build_firmware()))
    files.pop("main.py")
    code = PROFILE_SCRIPT % {"positions": SPEED_POSITIONS, "ms": PROFILE_MS}
    with pico.Pico(flash=flashfs.build_image(None, files)) as p:
        p.run_for(500)
        lines = p.exec(code, timeout_ms=len(SPEED_POSITIONS) * PROFILE_MS * 4 + 300000)
    rows = {}
    for line in lines.split("\r\n"):
        w = line.split()
        if w and w[0] == "prof":
            r = rows.setdefault(int(w[2]), [0, 0, 0])
            for i in range(3):
                r[i] += int(w[3 + i])
    total = sum(r[1] for r in rows.values()) or 1
    out("Where the time goes: %s, %d ms each, emulated Pico (the timing adds to each step)"
        % (", ".join(n for n, _ in SPEED_POSITIONS), PROFILE_MS))
    out("  %-32s %6s %9s %6s %11s" % ("step", "steps", "us a step", "share", "units a step"))
    for pc in sorted(rows):
        n, us, u = rows[pc]
        out("  %-32s %6d %9.0f %5.1f%% %11.1f" % (STEP_NAMES.get(pc, pc), n, us / n,
                                                 100.0 * us / total, u / n))
    return 0


def rp2040(turns, level, out=print):
    """Figures measured on the emulated Pico (rp2040js, the .mpy build)."""
    from rp2040 import board, flashfs, pico
    why = pico.missing()
    if why:
        out("bench_engine: emulated Pico not available: " + why)
        return 2
    build = board.build_firmware()
    files = flashfs.read_files(flashfs.build_image(build))
    files.pop("main.py")
    slice_ms = 3
    times = SPEED_MS
    code = RP2040_SCRIPT % {"positions": SPEED_POSITIONS, "times": times, "slice": slice_ms,
                            "first": FIRST_PLY, "turns": turns, "level": level}
    timeout = (len(SPEED_POSITIONS) * sum(times) * 2 + turns * LEVELS[level][0] * 2 + 900000)
    with pico.Pico(flash=flashfs.build_image(None, files)) as p:
        p.run_for(500)
        base = int(p.exec("import gc\ngc.collect()\nprint(gc.mem_alloc())\n"))
        lines = p.exec(code, timeout_ms=timeout).split("\r\n")
    out("Emulated RP2040 (rp2040js, 125 MHz, no flash cache: a real Pico is 10-20 %% slower), "
        "MicroPython v1.28, .mpy build; think(%d) slices" % slice_ms)
    rates = []
    for line in lines:
        w = line.split()
        if not w:
            continue
        if w[0] == "heap":
            out("  heap: rules core (game) %s B; engine modules %s B + Engine() %s B = %d B "
                "(the limit: 24 KB = 24,576 B; a fresh interpreter holds %d B)"
                % (w[1], w[2], w[3], int(w[2]) + int(w[3]), base))
        elif w[0] == "speed":
            name, ms, units, nodes, us, worst = w[1], int(w[2]), int(w[3]), int(w[4]), \
                int(w[5]), int(w[6])
            rates.append(units * 1000.0 / us)
            before = BEFORE.get(name)
            gain = (" (before the viper kernels: %d nodes/s; x%.1f)"
                    % (before, nodes * 1e6 / us / before) if before and ms == 2000 else "")
            out("  %-8s %5d ms: %6d units, %5d nodes, depth %s; %5.0f nodes/s%s; start() %.1f "
                "ms, longest think(%d) %.1f ms; heap during search %s B"
                % (name, ms, units, nodes, w[8], nodes * 1e6 / us, gain, int(w[9]) / 1000.0,
                   slice_ms, worst / 1000.0, w[7]))
        elif w[0] == "first":
            out("  first look at every move and face (depth 1): %5.0f ms (%s units), longest "
                "think(%d) %.1f ms: %s" % (int(w[1]) / 1000.0, w[2], slice_ms,
                                           int(w[3]) / 1000.0, " ".join(w[4:])))
        elif w[0] == "game":
            out("  self-play at L%d (%d units a turn): %s turns, %s; %.1f units a ms; heap "
                "peak %s B above a fresh interpreter (game, engine, answers); slowest answer "
                "%.0f ms" % (level, LEVELS[level][1], w[1], " ".join(w[6:]),
                   int(w[2]) / max(1.0, int(w[3])), w[4], int(w[5]) / 1000.0))
    if rates:
        rate = sum(rates) / len(rates)
        out("  units a ms over the searches (the CPU to itself; the board's loop leaves the "
            "engine about %.1f: test_rp2040_opponent.py): %.1f (%.1f-%.1f); engine.LEVELS: %s"
            % (BOARD_UNITS_A_MS, rate, min(rates), max(rates), ", ".join(
                "L%d %d units (time limit %d s)" % (i, LEVELS[i][1], LEVELS[i][0] // 1000)
                for i in range(1, len(LEVELS)))))
    return 0


class UsageError(Exception):
    pass


OPTIONS = {"--games": 10, "--match": None, "--openings": "random", "--max-turns": MAX_TURNS,
           "--seed": 1, "--speed": False, "--rp2040": False, "--profile": False, "--turns": 20,
           "--level": 1, "--progress": False, "--first": 1,
           "--runtime": "auto", "--no-micropython": False}


def parse(argv):
    """Options as a dict (no argparse: the match worker runs on MicroPython too)."""
    opts = dict(OPTIONS)
    opts["--match"] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a not in OPTIONS:
            raise UsageError("unknown option %s" % a)
        if isinstance(OPTIONS[a], bool):
            opts[a] = True
            i += 1
            continue
        if i + 1 >= len(argv):
            raise UsageError("%s needs a value" % a)
        v = argv[i + 1]
        i += 2
        if a == "--match":
            if v.count(":") != 1:
                raise UsageError("--match takes A:B, e.g. L1:ref2")
            x, y = v.split(":")
            try:
                make_player(x, 0)
                make_player(y, 0)
            except ValueError as e:
                raise UsageError(str(e))
            opts[a].append((x, y))
        elif isinstance(OPTIONS[a], int):
            try:
                opts[a] = int(v)
            except ValueError:
                raise UsageError("%s needs a number, not %r" % (a, v))
        else:
            opts[a] = v
    if min(opts["--games"], opts["--max-turns"], opts["--turns"], opts["--first"]) < 1:
        raise UsageError("--games, --max-turns, --turns and --first must be at least 1")
    if opts["--openings"] not in ("start", "random", "both"):
        raise UsageError("--openings is start, random or both")
    if opts["--runtime"] not in ("auto", "cpython", "micropython"):
        raise UsageError("--runtime is auto, cpython or micropython")
    if opts["--level"] not in (1, 2, 3):
        raise UsageError("--level is 1, 2 or 3")
    return opts


def _table(results, games, out):
    out("")
    out("| match | won-drawn-lost | decisive games won | reached %d turns | target |" % MAX_TURNS)
    out("|---|---|---|---|---|")
    total = capped_all = 0
    for a, b, w, d, l, capped in results:
        what = ""
        for ta, tb, text, ok in TARGETS:
            if (ta, tb) == (a, b):
                what = "%s: %s" % (text, "met" if ok(w, d, l) else "NOT met")
        out("| %s vs %s | %d-%d-%d | %.0f %% | %d | %s |"
            % (a, b, w, d, l, 100.0 * w / max(1, w + l), capped, what))
        total += w + d + l
        capped_all += capped
    out("")
    out("%d of %d games reached %d turns (%.1f %%; target: at most %d %%)"
        % (capped_all, total, MAX_TURNS, 100.0 * capped_all / max(1, total), CAPPED_PERCENT))
    out("Budgets (engine.LEVELS: the work units a turn the board searches at each strength; "
        "in the board's loop on the emulated Pico about %.1f units a ms, "
        "test_rp2040_opponent.py): " % BOARD_UNITS_A_MS
        + ", ".join("L%d %d units = about %.1f s"
                    % (i, LEVELS[i][1], LEVELS[i][1] / BOARD_UNITS_A_MS / 1000.0)
                    for i in range(1, len(LEVELS))))


def matches(opts, out=print, results=None):
    """Play the matches of opts (default: TARGETS), one at a time; print each and the table.
    results (a list) receives (a, b, won, drawn, lost, capped) per match. Returns 0, or 1/2
    when the MicroPython worker failed or is missing."""
    specs = opts["--match"] or [(t[0], t[1]) for t in TARGETS]
    runtime = opts["--runtime"]
    mp = None
    if not MICRO and runtime != "cpython":
        import micropython_env
        mp = micropython_env.find_micropython()
        if mp is None and runtime == "micropython":
            out("bench_engine: " + micropython_env.missing_reason())
            return 2
    if results is None:
        results = []
    for a, b in specs:
        args = ["--match", "%s:%s" % (a, b), "--games", str(opts["--games"]), "--openings",
                opts["--openings"], "--max-turns", str(opts["--max-turns"]), "--seed",
                str(opts["--seed"]), "--first", str(opts["--first"])] + (
                    ["--progress"] if opts["--progress"] else [])
        if mp is not None:
            import subprocess
            import os
            proc = subprocess.Popen([mp, os.path.abspath(__file__), "--worker"] + args,
                                    stdout=subprocess.PIPE, universal_newlines=True)
            r = None
            for line in proc.stdout:
                if line.startswith("RESULT "):
                    r = line.split()[1:]
                else:
                    out(line.rstrip("\n"))
                    if hasattr(sys.stdout, "flush"):
                        sys.stdout.flush()
            if proc.wait() or r is None:
                out("bench_engine: the MicroPython match worker failed")
                return 1
            results.append((r[0], r[1]) + tuple(int(x) for x in r[2:]))
        else:
            lines = []
            w, d, l, c = match(a, b, opts["--games"], opts["--openings"], opts["--max-turns"],
                               opts["--seed"], out=lines.append, progress=opts["--progress"],
                               first=opts["--first"])
            for line in lines:
                if not line.startswith("RESULT "):
                    out(line)
            results.append((a, b, w, d, l, c))
        if hasattr(sys.stdout, "flush"):
            sys.stdout.flush()
    _table(results, opts["--games"], out)
    return 0


def main(argv):
    if "--help" in argv or "-h" in argv:
        print((globals().get("__doc__") or "see tools/bench/bench_engine.py").strip())
        return 0
    worker = "--worker" in argv
    if worker:
        argv = [a for a in argv if a != "--worker"]
    try:
        opts = parse(argv)
    except UsageError as e:
        sys.stderr.write("bench_engine: %s (see --help)\n" % e)
        return 2
    if worker:
        for a, b in opts["--match"]:
            match(a, b, opts["--games"], opts["--openings"], opts["--max-turns"], opts["--seed"],
                  progress=opts["--progress"], first=opts["--first"])
        return 0
    if opts["--rp2040"]:
        if opts["--profile"]:
            return profile()
        return rp2040(opts["--turns"], opts["--level"])
    if not opts["--speed"]:
        rc = matches(opts)
        if rc or opts["--match"]:
            return rc              # matches asked for: no speed figures
    speed()
    if not MICRO and not opts["--no-micropython"]:      # the same figures on the unix port
        import os
        import micropython_env
        if micropython_env.find_micropython() is None:
            print("micropython: " + micropython_env.missing_reason())
        else:
            proc = micropython_env.run([os.path.abspath(__file__), "--speed"])
            sys.stdout.write(proc.stdout + proc.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
