# The engine on the emulated Pico (tools/rp2040), from the .mpy build the board runs, in the raw
# REPL (no main.py): its heap stays within the 24 KB the issue allows, a search allocates
# nothing per step, and it plays a game against itself without MemoryError. Times are printed
# (pytest -s), not asserted. BARRAGOON_RP2040_LONG=1 plays 150 turns at the highest level (its
# work, about a minute a turn with the CPU to itself: hours of emulation); the default is a few
# turns at level 1.
import pytest

import pico_bench
from rp2040 import flashfs, pico

pico_bench.require()

HEAP_LIMIT = 24 * 1024
TURNS, LEVEL = (150, 3) if pico_bench.LONG else (4, 1)
MIDDLE = "2d1dv1/2z[X]3/2[X]4/v[X]D[X]1z1/[X]1[X]3[X]/5[X]1/V2V3/1Z[X][X]Z2/2D1D2 w 22"


@pytest.fixture(scope="module")
def board():
    files = flashfs.read_files(flashfs.build_image(pico_bench.build()))
    files.pop("main.py")
    p = pico.Pico(flash=flashfs.build_image(None, files))
    p.run_for(500)
    yield p
    p.close()


def test_engine_heap_within_24_kb(board):
    out = board.exec(
        "import gc\n"
        "from barragoon.game import Game\n"
        "gc.collect()\n"
        "h = gc.mem_alloc()\n"
        "from barragoon.engine import Engine\n"
        "eng = Engine()\n"
        "gc.collect()\n"
        "print(gc.mem_alloc() - h)\n")
    heap = int(out)
    print("engine modules + Engine(): %d B" % heap)
    assert 0 < heap <= HEAP_LIMIT


def test_search_allocates_nothing_per_step(board):
    # In a function: assignments at the REPL's top level go to a dict that may grow.
    out = board.exec(
        "import gc\n"
        "from barragoon.game import Game\n"
        "from barragoon.engine import Engine\n"
        "def run():\n"
        "    eng = Engine()\n"
        "    eng.start(Game(%r), steps=100000)\n"
        "    for i in range(50):\n"
        "        eng.think(0)\n"
        "    gc.collect()\n"
        "    a = gc.mem_alloc()\n"
        "    for i in range(1000):\n"
        "        eng.think(0)\n"
        "    print(gc.mem_alloc() - a, eng.done)\n"
        "run()\n" % MIDDLE, timeout_ms=600000)
    grown, done = out.split()
    assert done == "False" and int(grown) == 0, out


def test_plays_a_game_against_itself(board):
    out = board.exec(
        "import gc, time\n"
        "from barragoon.game import Game\n"
        "from barragoon.engine import Engine, LEVELS\n"
        "eng = Engine()\n"
        "g = Game()\n"
        "turns = 0\n"
        "late = 0\n"
        "worst = 0\n"
        "budget, work = LEVELS[%d]\n"
        "while not g.over and turns < %d:\n"
        "    t0 = time.ticks_ms()\n"
        "    eng.start(g, budget, work)\n"
        "    while True:\n"
        "        t1 = time.ticks_us()\n"
        "        done = eng.think(3)\n"
        "        worst = max(worst, time.ticks_diff(time.ticks_us(), t1))\n"
        "        if done:\n"
        "            break\n"
        "    late = max(late, time.ticks_diff(time.ticks_ms(), t0) - budget)\n"
        "    t = eng.best()\n"
        "    n = t.now\n"
        "    if t.move is not None:\n"
        "        g.move(t.move[0], t.move[1])\n"
        "        n -= 1\n"
        "        turns += 1\n"
        "    for p in t.places[:n]:\n"
        "        g.place(p[1], p[2])\n"
        "    gc.collect()\n"
        "print(turns, late, worst, g.reason or 'unfinished')\n" % (LEVEL, TURNS),
        timeout_ms=TURNS * 4 * 30000 + 600000)
    words = out.split()
    print("%s turns at level %d: answers at most %s ms past the budget, longest think(3) "
          "%.1f ms; %s" % (words[0], LEVEL, words[1], int(words[2]) / 1000.0,
                           " ".join(words[3:])))
    assert int(words[0]) > 0
