"""Speed and heap figures of the rules core, on CPython and on the MicroPython unix port.

    python tools/bench/bench_rules.py        CPython figures, then the same run under micropython
    micropython tools/bench/bench_rules.py   MicroPython figures only

Figures: one tile's targets and all legal moves (start and a crowded position); the cost of
one committed action in a long game (the move or placement with everything the rules core
does after it: end-of-game tests, the repetition check the board's menu asks for), in a game
with captures and in one where the same block of turns is shuffled over and over (every turn
then runs the full repetition check); and loading a 400-action record.

Heap bytes are gc.mem_alloc() deltas (MicroPython only; the unix port is 64-bit, so objects
there take up to twice the RAM they take on the RP2040). The RP2040 estimate is unix-port time
x 150 (see README; the emulated RP2040 measured 160 to 280 times the unix port for this code).
"""
import sys
import gc
import time

if __name__ == "__main__":            # (imported as a module on an emulated Pico: no cli)
    _tools = (__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/.."   # tools/bench/..
    sys.path.insert(0, _tools)
    sys.path.insert(0, _tools + "/../firmware")
    from toolkit.cli import no_arguments  # noqa: E402

    no_arguments("bench_rules", globals().get("__doc__"))

from barragoon.notation import parse_position  # noqa: E402
from barragoon.game import start_position  # noqa: E402

MICRO = sys.implementation.name == "micropython"
CROWDED = ("v[RN]d[X]d[A]v/1z[2H]z[1S]2/[LE]1d[A]1[1W]1/1[X]2[RS]1[2V]/[A]1[X]1[1N]2/"
           "1[RE]1D1[X]1/[1E]1Z[A]Z1[LS]/2[2H]D3/1VD2V1 w 12")
RP2040_FACTOR = 150


def now_us():
    if MICRO:
        return time.ticks_us()
    return time.perf_counter() * 1e6


def elapsed(t0):
    if MICRO:
        return time.ticks_diff(time.ticks_us(), t0)
    return now_us() - t0


def heap():
    return gc.mem_alloc() if MICRO else 0


def measure(fn, arg, calls):
    fn(arg)                       # warm up
    gc.collect()
    h0 = heap()
    t0 = now_us()
    for i in range(calls):
        fn(arg)
    us = elapsed(t0) / calls
    return us, (heap() - h0) / calls


def tiles_of(pos):
    return [sq for sq in range(63) if pos.get(sq) & 0x20 and (pos.get(sq) >> 4) & 1 == pos.side]


def report(name, pos, calls):
    tiles = tiles_of(pos)
    worst = (0, 0)
    total = 0
    for sq in tiles:
        us, b = measure(pos.targets, sq, calls)
        total += us
        worst = max(worst, (us, b))
    avg = total / len(tiles)
    mv_us, mv_b = measure(lambda p: p.legal_moves(), pos, calls // 4)
    line = "%-8s %-9s one tile's targets: avg %6.2f us, worst %6.2f us, %4d heap B/call | " \
           "all %2d legal moves: %7.2f us, %4d heap B/call"
    print(line % (sys.implementation.name, name, avg, worst[0], worst[1], len(pos.legal_moves()),
                  mv_us, mv_b))
    if MICRO:
        print("%-8s %-9s RP2040 estimate (x%d): one tile %.2f ms (worst %.2f ms), all moves "
              "%.2f ms" % ("", name, RP2040_FACTOR, avg * RP2040_FACTOR / 1000,
                           worst[0] * RP2040_FACTOR / 1000, mv_us * RP2040_FACTOR / 1000))


# A long game for the commit figures: 200 turns of seeded play from the start, the same on
# every runtime (a linear congruential generator, not random, so MicroPython agrees).
def long_game_actions(actions=400, seed=12345):
    from barragoon.game import Game
    g = Game()
    x = seed
    while len(g.actions) < actions:
        x = (x * 75 + 74) % 65537
        if g.placing() >= 0:
            empty = [sq for sq in range(63) if g.pos.get(sq) == 0]
            g.place(empty[x % len(empty)], 1 + x % 16)
            continue
        moves = g.legal_moves()
        quiet = [m for m in moves if g.pos.get(m % 64) == 0]
        pool = moves if x % 5 == 0 or not quiet else quiet
        for k in range(len(pool)):
            m = pool[(x + k) % len(pool)]
            g.move(m // 64, m % 64)
            if not g.over:
                break
            g.undo()
    return g


def shuffle_actions(turns):
    """The worked example of RULES.md shuffled for `turns` turns: a block of four repeated."""
    from barragoon.game import Game
    from barragoon.notation import parse_square
    g = Game("4v1v/7/7/7/7/7/7/7/V6 w 24")
    block = (("a1", "a4"), ("g9", "g6"), ("a4", "a1"), ("g6", "g9"))
    for i in range(turns):
        a, b = block[i % 4]
        g.move(parse_square(a), parse_square(b))
    return g


def commit_figures(name, game, timed):
    """Replay game's actions; time the last `timed` ones one by one (each followed by the
    repetition query). Prints the average and worst time and heap bytes per action."""
    from barragoon.game import Game
    acts = list(game.actions)
    g = Game(game.start, game.variant, game.stages)
    times = []
    heap_total = 0
    for i, a in enumerate(acts):
        timing = i >= len(acts) - timed
        if timing:
            gc.collect()
            h0 = heap()
            t0 = now_us()
        if a & 3 == 0:
            g.move((a >> 2) & 63, (a >> 8) & 63)
        else:
            g.place((a >> 2) & 63, (a >> 8) & 31)
        g.repetition
        if timing:
            times.append(elapsed(t0))
            heap_total += heap() - h0
    times.sort()
    avg = sum(times) / timed
    median, worst = times[timed // 2], times[-1]
    print("%-8s %-9s one committed action: avg %7.1f us, median %7.1f us, worst %7.1f us, "
          "%4d heap B/action" % (sys.implementation.name, name, avg, median, worst,
                                 heap_total // timed))
    if MICRO and sys.platform != "rp2":
        print("%-8s %-9s RP2040 estimate (x%d): avg %.1f ms, worst %.1f ms"
              % ("", name, RP2040_FACTOR, avg * RP2040_FACTOR / 1000,
                 worst * RP2040_FACTOR / 1000))


def load_figures(game):
    from barragoon.record import format_record, parse_record
    text = format_record(game)
    gc.collect()
    h0 = heap()
    t0 = now_us()
    parse_record(text)
    us = elapsed(t0)
    print("%-8s %-9s load a %d-action record: %.1f ms, %d heap B allocated on the way"
          % (sys.implementation.name, "long", len(game.actions), us / 1000, heap() - h0))


def main():
    calls = 2000
    report("start", start_position(), calls)
    report("crowded", parse_position(CROWDED), calls)
    long = long_game_actions()
    commit_figures("long", long, 100)
    commit_figures("shuffle", shuffle_actions(200), 100)
    load_figures(long)
    if not MICRO:
        import subprocess
        import os
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from micropython_env import find_micropython, locate
        mp = find_micropython()
        if mp is None:
            print("micropython: none, %s" % locate()[1])
        else:
            sys.stdout.flush()
            subprocess.run([mp, os.path.abspath(__file__)])


if __name__ == "__main__":
    main()
