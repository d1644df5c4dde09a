"""Engine matches and speed: win/draw/loss counts, nodes per second, heap.

    python tools/bench_engine.py                     short matches + speed (CPython, then
                                                     the MicroPython unix port)
    python tools/bench_engine.py --games 200         the issue's targets (long: use nice)
    python tools/bench_engine.py --match L2:L1 --games 40 --openings random   (no speed run)
    python tools/bench_engine.py --speed             speed and heap only
    micropython tools/bench_engine.py --speed        MicroPython figures only

Players: random (random move, random placements), greedy (the most valuable capture, else a
random move; random placements), L1 L2 L3 (the engine's levels, as step budgets: a step is
about one tile's move generation, the same work on every machine, so results are
reproducible), sN (N steps), dN (depth N).

Openings: "start" games begin at the standard start position. Two engines would play the same
game every time from there, so between two engines every pair of games starts with one random
turn per side ("start" then means: the standard start, one random turn each). "random" games
begin after 4 to 8 random turns of each side, placements included. Each opening is played
twice, colours swapped. A game still running after --max-turns turns is a draw.
"""
import sys
import gc

sys.path.insert(0, (__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/../firmware")

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

# Positions for the speed figures: the start, a crowded middle game, two games in progress.
SPEED_POSITIONS = (
    ("start", "1vd1dv1/2zdz2/7/1[X]3[X]1/[X]1[X]1[X]1[X]/1[X]3[X]1/7/2ZDZ2/1VD1DV1 w 24"),
    ("crowded", "v[RN]d[X]d[A]v/1z[2H]z[1S]2/[LE]1d[A]1[1W]1/1[X]2[RS]1[2V]/[A]1[X]1[1N]2/"
                "1[RE]1D1[X]1/[1E]1Z[A]Z1[LS]/2[2H]D3/1VD2V1 w 12"),
    ("middle", "2d1dv1/2z[X]3/2[X]4/v[X]D[X]1z1/[X]1[X]3[X]/5[X]1/V2V3/1Z[X][X]Z2/2D1D2 w 22"),
    ("late", "4[X]2/1[X][X]1[X]2/[X][X]2[X]d1/4V1[X]/1[X]D[X]Z1V/[LE]4[X][X]/1[X]1[X]3/2[X]vZ2/"
             "2D[X]D[X]1 w 14"),
)


# The emulated RP2040 ran this project's code 160 to 280 times slower than the unix port
# (../shared/rp2/README.md); until the engine is measured there, its figures are estimated so.
RP2040_LOW = 160
RP2040_HIGH = 280


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


class EnginePlayer:
    def __init__(self, name, steps=0, depth=0):
        self.name = name
        self.steps = steps
        self.depth = depth
        self.engine = Engine()
        self.turns = self.nodes = self.work = 0
        self.ms = 0.0

    def act(self, game):
        t0 = ticks_ms()
        t = self.engine.run(game, steps=self.steps, depth=self.depth)
        self.ms += since(t0)
        self.turns += 1
        self.nodes += t.nodes
        self.work += t.steps
        n = t.now
        if t.move is not None:
            game.move(t.move[0], t.move[1])
            n -= 1
        for side, sq, face in t.places[:n]:
            game.place(sq, face)


def make_player(spec, seed):
    if spec == "random":
        return RandomPlayer(seed)
    if spec == "greedy":
        return GreedyPlayer(seed)
    if len(spec) == 2 and spec[0] == "L" and spec[1] in "123":
        return EnginePlayer(spec, steps=LEVELS[int(spec[1])][1])
    if len(spec) > 1 and spec[0] in "sd" and spec[1:].isdigit():
        n = int(spec[1:])
        return EnginePlayer(spec, steps=n if spec[0] == "s" else 0,
                            depth=n if spec[0] == "d" else 0)
    raise ValueError("unknown player %r (random, greedy, L1-L3, sN, dN)" % spec)


def opening(kind, seed, engines_only=True):
    """The actions of an opening, played by random players: [("m", frm, to) / ("p", sq,
    face)]. "start" against a random or greedy player is the start position itself."""
    if kind == "start" and not engines_only:
        return []
    rng = Rng(seed)
    while True:
        g = Game()
        acts = []
        turns = 2 if kind == "start" else 8 + rng.below(9)
        while not g.over and (len(g.turn_texts()) < turns or g.placing() >= 0):
            acts.append(random_action(g, rng))
        if not g.over:
            return acts


def play(white, black, actions, max_turns):
    g = Game()
    for kind, a, b in actions:
        if kind == "m":
            g.move(a, b)
        else:
            g.place(a, b)
    players = (white, black)
    turns = 0
    while not g.over and turns < max_turns:
        before = g.pos.side if g.placing() < 0 else -1
        players[g.turn].act(g)
        if before >= 0:
            turns += 1
    return g.winner if g.over else DRAW, turns


def match(spec_a, spec_b, games, openings, max_turns, seed=1, out=print):
    a = make_player(spec_a, seed)
    b = make_player(spec_b, seed + 7919)
    wins = draws = losses = 0
    turns_total = 0
    for i in range(games):
        kind = openings if openings != "both" else ("start", "random")[(i // 2) % 2]
        acts = opening(kind, seed * 100003 + i // 2,
                       isinstance(a, EnginePlayer) and isinstance(b, EnginePlayer))
        a_white = i % 2 == 0
        w, t = play(a if a_white else b, b if a_white else a, acts, max_turns)
        turns_total += t
        if w == DRAW:
            draws += 1
        elif (w == WHITE) == a_white:
            wins += 1
        else:
            losses += 1
    decisive = wins + losses
    out("%-6s vs %-6s %4d games (%s openings): won %d, drawn %d, lost %d; %.1f%% of games, "
        "%.1f%% of decisive games; %.0f turns a game"
        % (spec_a, spec_b, games, openings, wins, draws, losses, 100.0 * wins / games,
           100.0 * wins / decisive if decisive else 0.0, turns_total / games))
    for p in (a, b):
        if isinstance(p, EnginePlayer) and p.turns:
            out("    %s: %d turns, %.0f steps and %.0f nodes a turn, %.1f ms a turn, "
                "%.0f nodes/s, %.0f steps/s (%s)"
                % (p.name, p.turns, p.work / p.turns, p.nodes / p.turns, p.ms / p.turns,
                   p.nodes * 1000.0 / p.ms, p.work * 1000.0 / p.ms, sys.implementation.name))
    return wins, draws, losses


TARGETS = (
    ("L1", "random", "win >= 99% of games", lambda w, d, l: w * 100 >= 99 * (w + d + l)),
    ("L1", "greedy", "win >= 90% of games", lambda w, d, l: w * 100 >= 90 * (w + d + l)),
    ("L2", "L1", "win >= 65% of decisive games", lambda w, d, l: w * 100 >= 65 * (w + l)),
    ("L3", "L2", "win >= 65% of decisive games", lambda w, d, l: w * 100 >= 65 * (w + l)),
)


def speed(steps=20000, out=print):
    """Nodes and steps per second and heap, on the running interpreter."""
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
        slices = 0
        while True:
            s0 = ticks_ms()
            done = eng.think(2)
            worst = max(worst, since(s0))
            slices += 1
            if done:
                break
        ms = since(t0)
        heap = (gc.mem_alloc() - h0) if MICRO else 0
        t = eng.best()
        out("%-11s %-8s %5d steps %5d nodes in %7.1f ms: %6.0f nodes/s, %6.0f steps/s, "
            "%5.1f us/step; think(2) took at most %.1f ms; depth %d; heap during search "
            "%d B%s" % (sys.implementation.name, name, t.steps, t.nodes, ms,
                        t.nodes * 1000.0 / ms, t.steps * 1000.0 / ms, ms * 1000.0 / t.steps,
                        worst, t.depth, heap, " (incl. the answer)" if MICRO else ""))
        if MICRO:
            out("%-11s %-8s RP2040 estimate (unix port x %d-%d): %.1f-%.1f ms a step, "
                "%.0f-%.0f nodes/s" % ("", name, RP2040_LOW, RP2040_HIGH,
                                       ms * RP2040_LOW / t.steps, ms * RP2040_HIGH / t.steps,
                                       t.nodes * 1000.0 / ms / RP2040_HIGH,
                                       t.nodes * 1000.0 / ms / RP2040_LOW))


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
for name, text in %(positions)r:
    eng.start(Game(text), steps=%(steps)d)
    gc.collect()
    a = gc.mem_alloc()
    us, worst = think_all(%(slice)d)
    t = eng.best()
    print('speed', name, t.steps, t.nodes, us, worst, gc.mem_alloc() - a, t.depth)
g = Game(%(middle)r)
for budget in %(budgets)r:
    t0 = time.ticks_us()
    eng.start(g, budget_ms=budget)
    st = time.ticks_diff(time.ticks_us(), t0)
    us, worst = think_all(%(slice)d)
    t = eng.best()
    print('budget', budget, us, worst, t.steps, t.nodes, t.depth, st)
g = Game()
peak = 0
turns = 0
t_max = 0
while not g.over and turns < %(turns)d:
    eng.start(g, budget_ms=LEVELS[%(level)d][0])
    us, worst = think_all(%(slice)d)
    t_max = max(t_max, us)
    t = eng.best()
    n = t.now
    if t.move is not None:
        g.move(t.move[0], t.move[1])
        n -= 1
        turns += 1
    for p in t.places[:n]:
        g.place(p[1], p[2])
    gc.collect()
    peak = max(peak, gc.mem_alloc() - h0)
print('game', turns, g.reason or 'unfinished', peak, t_max)
"""


def rp2040(turns, level, out=print):
    """Figures measured on the emulated Pico (rp2040js, the .mpy build)."""
    import os
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from rp2040 import board, flashfs, pico
    why = pico.missing()
    if why:
        out("bench_engine: emulated Pico not available: " + why)
        return 2
    build = board.build_firmware()
    files = flashfs.read_files(flashfs.build_image(build))
    files.pop("main.py")
    slice_ms = 3
    code = RP2040_SCRIPT % {"positions": SPEED_POSITIONS, "steps": 300, "slice": slice_ms,
                            "middle": SPEED_POSITIONS[2][1],
                            "budgets": (LEVELS[1][0], LEVELS[2][0]),
                            "turns": turns, "level": level}
    with pico.Pico(flash=flashfs.build_image(None, files)) as p:
        p.run_for(500)
        base = int(p.exec("import gc\ngc.collect()\nprint(gc.mem_alloc())\n"))
        lines = p.exec(code, timeout_ms=(turns * LEVELS[level][0] * 2 + 600000)).split("\r\n")
    out("Emulated RP2040 (rp2040js, 125 MHz, no flash cache: a real Pico is 10-20 %% slower), "
        "MicroPython v1.28, .mpy build; think(%d) slices" % slice_ms)
    for line in lines:
        w = line.split()
        if not w:
            continue
        if w[0] == "heap":
            out("  heap: rules core (game) %s B, engine modules %s B, Engine() %s B; engine "
                "total %d B (a fresh interpreter holds %d B)"
                % (w[1], w[2], w[3], int(w[2]) + int(w[3]), base))
        elif w[0] == "speed":
            steps, nodes, us, worst = int(w[2]), int(w[3]), int(w[4]), int(w[5])
            out("  %-8s %4d steps %4d nodes in %6.0f ms: %5.2f ms a step, %5.1f nodes/s; "
                "longest think(%d) %.1f ms; heap during search %s B; depth %s"
                % (w[1], steps, nodes, us / 1000.0, us / 1000.0 / steps,
                   nodes * 1e6 / us, slice_ms, worst / 1000.0, w[6], w[7]))
        elif w[0] == "budget":
            out("  budget %5s ms: answer after %.0f ms (%+.1f %%), start() %.1f ms, longest "
                "think(%d) %.1f ms, %s steps, %s nodes, depth %s"
                % (w[1], int(w[2]) / 1000.0, (int(w[2]) / 1000.0 / int(w[1]) - 1) * 100,
                   int(w[7]) / 1000.0, slice_ms, int(w[3]) / 1000.0, w[4], w[5], w[6]))
        elif w[0] == "game":
            out("  self-play at L%d (%d ms a turn): %s turns, %s; heap peak %s B above a fresh "
                "interpreter (game, engine, answers); slowest answer %.0f ms"
                % (level, LEVELS[level][0], w[1], " ".join(w[2:-2]), w[-2],
                   int(w[-1]) / 1000.0))
    return 0


def main(argv):
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):            # one line, not the usage block
            sys.stderr.write("bench_engine: %s (see --help)\n" % message)
            sys.exit(2)

    ap = Parser(description=__doc__.split("\n")[0], usage="%(prog)s [options]",
                formatter_class=argparse.RawDescriptionHelpFormatter,
                epilog="\n".join(__doc__.split("\n")[2:]))
    ap.add_argument("--games", type=int, default=10, help="games per match (default 10)")
    ap.add_argument("--match", action="append", metavar="A:B",
                    help="play A against B (players: random greedy L1 L2 L3 sN dN); "
                         "repeatable; default: the issue's four targets")
    ap.add_argument("--openings", choices=("start", "random", "both"), default="both",
                    help="see below (default both: alternating pairs)")
    ap.add_argument("--max-turns", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--speed", action="store_true", help="speed and heap only")
    ap.add_argument("--no-micropython", action="store_true",
                    help="skip the MicroPython unix port speed run")
    ap.add_argument("--rp2040", action="store_true",
                    help="figures on the emulated Pico (tools/rp2040: speed, budget, heap, "
                         "a self-play game)")
    ap.add_argument("--turns", type=int, default=20,
                    help="--rp2040: turns of the self-play game (default 20)")
    ap.add_argument("--level", type=int, choices=(1, 2, 3), default=1,
                    help="--rp2040: level of the self-play game (default 1)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.max_turns < 1 or args.turns < 1:
        ap.error("--games, --max-turns and --turns must be at least 1")
    if args.rp2040:
        return rp2040(args.turns, args.level)
    if not args.speed:
        specs = []
        for m in args.match or ["%s:%s" % (t[0], t[1]) for t in TARGETS]:
            if m.count(":") != 1:
                ap.error("--match takes A:B, e.g. L1:random")
            a, b = m.split(":")
            try:
                make_player(a, 0)
                make_player(b, 0)
            except ValueError as e:
                ap.error(str(e))
            specs.append((a, b))
        print("Levels (steps per turn; board time at ~%.2f ms a step on a real Pico, from the "
              "emulated RP2040):" % LEVELS[0][0])
        for i in range(1, len(LEVELS)):
            print("  L%d: %d steps ~ %.0f s on the board" % (i, LEVELS[i][1], LEVELS[i][0] / 1000))
        for a, b in specs:
            w, d, l = match(a, b, args.games, args.openings, args.max_turns, args.seed)
            for ta, tb, what, ok in TARGETS:
                if (ta, tb) == (a, b):
                    print("    target %s: %s" % (what, "met" if ok(w, d, l) else "NOT met"))
            sys.stdout.flush()
        if args.match:
            return 0               # matches asked for: no speed figures
    speed()
    if not args.no_micropython:             # the same figures on the unix port
        import os
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import micropython_env
        if micropython_env.find_micropython() is None:
            print("micropython: " + micropython_env.missing_reason())
        else:
            proc = micropython_env.run([os.path.abspath(__file__)])
            sys.stdout.write(proc.stdout + proc.stderr)
    return 0


if __name__ == "__main__":
    if MICRO:
        speed()
    else:
        sys.exit(main(sys.argv[1:]))
