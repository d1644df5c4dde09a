#!/usr/bin/env python3
"""The firmware's speed and memory, measured on the emulated Pico (tools/rp2040).

    python tools/bench/bench_rp2040.py [--json] [--turns N] [--lifts N] [--firmware UF2]
                                 [--xip-miss CYCLES] [--no-xip] [--only PARTS] [--lang CODE]

Everything runs in rp2040js in simulated time at 125 MHz: by default on the stock MicroPython
v1.28 UF2, from the .mpy files that tools/deploy.py builds ("firmware": "stock"); given the
board's own build (--firmware build/barragoon-...uf2 from tools/build_firmware.py) with the
firmware frozen into it and only main.py and config.py on littlefs ("firmware": "frozen").

The flash cache: rp2040js reads flash as fast as SRAM; a real RP2040 runs code (and frozen
bytecode, which the VM reads as data) from flash through a 16 KB XIP cache. The timed parts
(rules, drivers, play) run twice: without a cache model (a real board is no faster than this,
for code in flash) and with the emulator's model of the cache (--xip-miss cycles per miss,
default 56: a board whose flash is that slow to refill a line); the second run's keys end in
_xip (xip_miss_rate: the share of flash reads that missed in the play part). --no-xip skips it.

  rules      one tile's targets (worst tile of the start and of a crowded position) and all legal
             moves, timed on the Pico with time.ticks_us
  drivers    one matrix scan, one LED frame (the time show() takes with the wire idle: the
             CPU's part; and the frame's time on the wire, decoded from the LED pin), one whole
             OLED frame (400 kHz I2C) and the longest OLED update of one loop step while a new
             screen goes out
  i18n       (only with --only i18n) t() of controller/i18n.py in German, Italian, Spanish:
             a text from its cache, and a search of the English table for its first and its
             last text, in us a call
  think      (only with --only think: it takes long) the board thinking in its real loop (the
             real main.py), a game against the board at each of --strengths resumed at the
             start and the player's d2-d5: the seconds a move (from "Thinking..." on the screen
             to the board's move there; nobody touching), the engine's units a ms over that
             time (engine.LEVELS), and where the CPU went meanwhile: interrupts (the matrix
             scan's timer), the engine (GP26, raised by the firmware while it searches), the
             rest of the loop steps (GP25), the loop waiting for its period; then at the
             second strength --think-lifts lifts of one of the board's tiles while it thinks,
             spread over the scan period: lift-to-light and the longest time without a scan
  opponent   (only with --only opponent: it takes long) --turns turns against the board at
             --strength (3 by default; a game that ends is followed by a new one), a random
             player, a hint every 10 turns, on the booted App:
             the heap peak, the smallest "largest free block" (micropython.mem_info) and
             whether a MemoryError came; --opponent-steps caps the engine's steps per search
             (default: the strength's own)
  heap       gc.mem_alloc() after gc.collect() once the App is built and booted (in a fresh
             interpreter, as after power-on), and the peak (after collect, every action) over
             a game of --turns turns played through the board controller with saves to littlefs
  modules    where the heap after boot goes: every module main.py imports at boot, imported
             one at a time in dependency order (each one's code, constants and tables), the
             modules loaded only when used (engine, opponent, menus, ...), then the objects
             the App builds (drivers' buffers, the flight recorder's ring, the controller),
             what boot() adds (the saved game, the first mode), the engine loaded and what it
             leaves once dropped; printed per line, with each module's import time; then the
             heap after boot by kind of object (micropython.mem_info(1): functions, arrays,
             dicts, ...; heap_kind_bytes_<c>, heap_kind_objects_<c> by its character there)
  play       the real main.py on a modelled board: --lifts turns played by lifting and setting
             down pieces, the lifts spread evenly over the scan period; lift-to-light is from
             the sensor's change to the first LED bit; the longest time between two matrix
             scans (the board scans from a timer, so this is
             the scan's own regularity: screen updates, LED frames and the loop's work
             included), the loop step that commits a move (from the firmware's busy signal on
             GP25) and the longest other step, each without the flash write of its save, and
             that flash write (erase/program times as a W25Q16 takes them)
  listener   play's figures (at most 20 lifts) with a computer listening on USB after a hello
             (controller/protocol.py: a line per change), and with one that stopped reading
             (its USB transfers never complete, the board's USB buffer is full); the lines
             each sent (protocol_lines_*). The protocol's heap is in modules (its module) and
             in the App's objects (protocol_console: its Console after a full state)
  garbage    heap allocated (garbage included: collection off while measured) by a committed
             turn (a quiet move: lift, set-down, the commit with its save of game.txt), at 20
             and at 200 actions of a game played through the App's controller and storage; by
             the rest of that save (the flight recorder's events.txt, a part per loop step);
             and by a menu refresh (the game menu opened and drawn, then a step through it)
             at the end of that game, a draw agreed
--json prints one JSON object with these figures (keys as in the table; modules as
heap_module_<name> and heap_object_<what>; boot_to_leds_ms: power-on to the first LED frame of
a board resuming its game; firmware: "stock" or "frozen"); --only rules,heap (for example)
runs only those parts.
"""
import argparse
import ast
import json
import os
import re
import statistics
import sys

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # tools/bench/..
sys.path.insert(0, TOOLS)
sys.path.insert(0, os.path.join(os.path.dirname(TOOLS), "firmware"))

from rp2040 import board, flashfs, pico  # noqa: E402

CROWDED = ("v[RN]d[X]d[A]v/1z[2H]z[1S]2/[LE]1d[A]1[1W]1/1[X]2[RS]1[2V]/[A]1[X]1[1N]2/"
           "1[RE]1D1[X]1/[1E]1Z[A]Z1[LS]/2[2H]D3/1VD2V1 w 12")

RULES = """
import time, gc
from barragoon.notation import parse_position
from barragoon.game import start_position
def per_call(fn, arg, n):
    fn(arg)
    t = time.ticks_us()
    for i in range(n):
        fn(arg)
    return time.ticks_diff(time.ticks_us(), t) / n / 1000
for name, pos in (('start', start_position()), ('crowded', parse_position(%r))):
    tiles = [sq for sq in range(63) if pos.get(sq) & 0x20 and (pos.get(sq) >> 4) & 1 == pos.side]
    ms = [per_call(pos.targets, sq, 5) for sq in tiles]
    print(name, max(ms), sum(ms) / len(ms), per_call(lambda p: p.legal_moves(), pos, 3))
""" % CROWDED

DRIVERS = """
import time, config
from drivers import matrix, leds, ssd1306
def per_call(fn, n):
    fn()
    t = time.ticks_us()
    for i in range(n):
        fn()
    return time.ticks_diff(time.ticks_us(), t) / n / 1000
m = matrix.from_config(config)
l = leds.from_config(config)
frame = bytearray(b'\\x00\\xff\\x00' * 63)
def led_show():
    # One show() with the wire idle (the last frame out and latched): what the loop pays.
    time.sleep_ms(3)
    t = time.ticks_us()
    l.show(frame)
    return time.ticks_diff(time.ticks_us(), t)
o = ssd1306.from_config(config)
def oled_step():
    # The longest update() of the loop's OLED_SEGMENTS while a whole new screen goes out.
    import app
    o.fill(0)
    o.show()
    o.fill(1)
    o.refresh()
    worst = 0
    while o._stale:
        t = time.ticks_us()
        o.update(app.OLED_SEGMENTS)
        worst = max(worst, time.ticks_diff(time.ticks_us(), t))
    return worst / 1000
print(per_call(lambda: m.scan(0), 20), max(led_show() for i in range(5)) / 1000,
      per_call(o.show, 3), oled_step())
"""

# The App on its real drivers; then a game through its controller (events with their times,
# as the loop would feed them), saved to littlefs after every action.
HEAP = """
import gc
gc.collect()
script = gc.mem_alloc()              # the interpreter and this script's own code
import app
from barragoon.game import Game, start_position
from drivers.buttons_const import BTN_OK
gc.collect()
imports = gc.mem_alloc()
a = app.App()
a.boot()
gc.collect()
booted = gc.mem_alloc()
ctl = a.ctl
pos = start_position()
occ = bytearray(1 if pos.get(sq) else 0 for sq in range(63))
ctl.start(occ)
ctl.begin(Game())
g = ctl.game
t = 1000
def ev(sq, p, gap=40):
    global t
    t += gap
    ctl.on_square(sq, p, t)
    ctl.tick(t)
    ctl.render(t, 1)
    ctl.render(t, 2)
def settle():
    global t
    t += 400
    ctl.tick(t)
    ctl.render(t, 1)
    ctl.render(t, 2)
peak = booted
k = 12345
turns = 0
frm = -1
while not g.over and turns < %d:
    if g.placing() >= 0:
        sq = 0
        while occ[sq] or sq == frm:  # (not the capturer's square: the board would ask)
            sq += 1
        occ[sq] = 1
        ev(sq, 1)
        settle()
        ctl.on_button(BTN_OK, t)
    else:
        moves = g.legal_moves()
        k = (k * 1103515245 + 12345) & 0x3FFFFFFF
        mv = moves[k %% len(moves)]
        frm, to = mv // 64, mv %% 64
        occ[frm] = 0
        ev(frm, 0)
        gap = 40
        if occ[to]:
            ev(to, 0)
            gap = 300                # a hand takes longer than the adjust time to swap
        occ[to] = 1
        ev(to, 1, gap)
        settle()
        turns += 1
    gc.collect()
    peak = max(peak, gc.mem_alloc())
print(imports - script, booted - script, peak - script, turns, len(g.actions),
      g.reason or 'unfinished')
"""
# Garbage: what a committed turn allocates as the game grows, and a menu refresh at its end.
# The App is built on its real drivers and littlefs; turns go through its controller as the
# loop feeds it (HEAP above), then the loop's save (App._write) and its later parts
# (App._later) run as the steps after the commit would. Collection is off while a figure is
# taken, so gc.mem_alloc() grows by everything allocated, garbage included.
# The App first, by itself: the stock build's booted App leaves little room, and the long
# script's own code would take part of it while the App's buffers are placed.
GARBAGE_BOOT = """
import gc
import app
gc.collect()
a = app.App()
a.boot()
"""

GARBAGE = """
import gc
from barragoon.game import Game, start_position
from drivers.buttons_const import BTN_OK, BTN_BACK, BTN_DOWN
ctl = a.ctl
st = a.storage
pos = start_position()
occ = bytearray(1 if pos.get(sq) else 0 for sq in range(63))
ctl.start(occ)
ctl.begin(Game())
g = ctl.game
T = [1000]
def busy():
    if hasattr(st, 'busy'):
        return st.busy()
    return a.events_due or st.events_open is not None
def ev(sq, p, gap=40):
    T[0] += gap
    ctl.on_square(sq, p, T[0])
    ctl.tick(T[0])
    ctl.render(T[0], 1)
    ctl.render(T[0], 2)
def settle():
    T[0] += 400
    ctl.tick(T[0])
    ctl.render(T[0], 1)
    if a.unsaved is not None:
        a._write()
    ctl.render(T[0], 2)
def rest():
    while busy():
        T[0] += 4
        a._later(T[0])
    a.collect_due = False
K = [2024]
def rnd(n):
    K[0] = (K[0] * 1103515245 + 12345) & 0x3FFFFFFF
    return (K[0] >> 7) % n
def turn(quiet):
    frm = -1
    if g.placing() >= 0:
        sq = 0
        while occ[sq]:
            sq += 1
        occ[sq] = 1
        ev(sq, 1)
        settle()
        ctl.on_button(BTN_OK, T[0])
        return
    moves = g.legal_moves()
    calm = [m for m in moves if not occ[m % 64]]
    pick = calm if (quiet or rnd(4)) and calm else moves
    mv = pick[rnd(len(pick))]
    frm, to = mv // 64, mv % 64
    occ[frm] = 0
    ev(frm, 0)
    gap = 40
    if occ[to]:
        ev(to, 0)
        gap = 300
    occ[to] = 1
    ev(to, 1, gap)
    settle()
def measured():
    # one quiet turn: (its commit step with the save, the rest of the save)
    rest()
    gc.collect()
    gc.disable()
    h = gc.mem_alloc()
    turn(True)
    c = gc.mem_alloc() - h
    h = gc.mem_alloc()
    rest()
    e = gc.mem_alloc() - h
    gc.enable()
    return c, e
out = []
for mark in (20, 200):
    while len(g.actions) < mark and not g.over:
        turn(False)
        rest()
        gc.collect()
    while g.placing() >= 0:
        turn(False)
    cs = []
    es = []
    for i in range(5):
        c, e = measured()
        cs.append(c)
        es.append(e)
    out.append((mark, len(g.actions), max(cs), sum(cs) // 5, max(es)))
    print('each', mark, *cs)
for o in out:
    print('turn', *o)
def menu_figure(label):
    # opened: the menu opened and drawn, its module loaded with it (controller/lazy.py);
    # refreshed: its items listed again and drawn (after an action, on the way back from a
    # screen); stepped: a press of DOWN and the redraw
    gc.collect()
    gc.disable()
    h = gc.mem_alloc()
    ctl.open_menu()
    ctl.render(T[0], 2)
    opened = gc.mem_alloc() - h
    gc.enable()
    gc.collect()
    gc.disable()
    h = gc.mem_alloc()
    ctl.top.refresh(ctl)
    ctl.dirty()
    ctl.render(T[0], 2)
    refreshed = gc.mem_alloc() - h
    h = gc.mem_alloc()
    ctl.on_button(BTN_DOWN, T[0])
    ctl.render(T[0], 2)
    stepped = gc.mem_alloc() - h
    gc.enable()
    ctl.on_button(BTN_BACK, T[0])
    ctl.tick(T[0])
    print('menu', label, len(g.actions), opened, stepped, refreshed)
menu_figure('playing')
from controller import modes as M
g.agree_draw()
ctl.save()
ctl.set_base(M.Over())
ctl.render(T[0], 2)
menu_figure('over')
"""


# Each module's heap and import time, imported one at a time after its dependencies (so a
# module's figure is its own code, constants and the tables it builds at import, and its time
# reading the .mpy from littlefs and running its top level). The names come from the host
# (import_order); the results go into preallocated lists, printed at the end. A module's figure
# also holds its names' share of the qstr pool (interned strings, never freed), which grows in
# chunks: the module that starts a new chunk pays for all of it. qstr_info gives the pool.
MODULES = """
import gc, sys, time, micropython
names = %r
cost = [0] * len(names)
us = [0] * len(names)
gc.collect()
for i in range(len(names)):
    gc.collect()
    a = gc.mem_alloc()
    t = time.ticks_us()
    __import__(names[i])
    us[i] = time.ticks_diff(time.ticks_us(), t)
    gc.collect()
    cost[i] = gc.mem_alloc() - a
for i in range(len(names)):
    print(names[i], cost[i], us[i])
micropython.qstr_info()
"""

# What the App allocates beyond its modules' code, piece by piece as App() builds it (the
# modules are all imported first), then App() and boot() as a whole; then the opponent and its
# engine loaded (modules + Engine()) and what is left of them once dropped again.
OBJECTS = """
import gc, sys
import app, config
from drivers import matrix, leds, ssd1306, inputs, buzzer
from storage import Storage
from recorder import Recorder
from controller.controller import Controller
steps = (
    ('oled', 'o = ssd1306.from_config(config)'),
    ('matrix', 'm = matrix.from_config(config)'),
    ('leds', 'l = leds.from_config(config)'),
    ('inputs', 'i = inputs.from_config(config)'),
    ('buzzer', 'b = buzzer.from_config(config)'),
    ('storage', 's = Storage()'),
    ('recorder', 'r = Recorder(config.RECORDER_EVENTS, config.RECORDER_FILE_EVENTS)'),
    ('controller', 'c = Controller(o)'),
)
env = {'ssd1306': ssd1306, 'matrix': matrix, 'leds': leds, 'inputs': inputs,
       'buzzer': buzzer, 'config': config, 'Storage': Storage, 'Recorder': Recorder,
       'Controller': Controller}
out = []
for name, code in steps:
    gc.collect()
    a = gc.mem_alloc()
    exec(code, env)
    gc.collect()
    out.append((name, gc.mem_alloc() - a))
for name, code in steps:
    del env[code[0]]
gc.collect()
a = gc.mem_alloc()
env['A'] = app.App()
gc.collect()
b = gc.mem_alloc()
env['A'].boot()
gc.collect()
out.append(('App()', b - a))
b = gc.mem_alloc()
out.append(('boot()', b - a - out[-1][1]))
# The engine as a game against the board or a hint loads it (controller/lazy.py), and what
# stays once it is released and its modules dropped (their names in the qstr pool).
from controller import lazy
op = lazy.load('controller.opponent')
op.engine()
gc.collect()
out.append(('engine_loaded', gc.mem_alloc() - b))
op.release()
op = None
lazy.drop('controller.opponent')
gc.collect()
out.append(('engine_left_after_release', gc.mem_alloc() - b))
# A computer listening on USB (controller/protocol.py): its module, then its Console after a
# hello and the full state that follows.
gc.collect()
b = gc.mem_alloc()
from controller.protocol import Console
gc.collect()
out.append(('protocol_module', gc.mem_alloc() - b))
class Quiet:
    def read(self, buf, n):
        return 0
    def write(self, buf, n):
        return n
b = gc.mem_alloc()
con = Console(env['A'].ctl, Quiet(), '0')
for c in b'hello 1\\n':
    con.take(c, 0)
for t in range(0, 400, 4):
    con.step(t)
gc.collect()
out.append(('protocol_console', gc.mem_alloc() - b))
for name, n in out:
    print(name, n)
"""

# Games against the board on the booted App, --turns turns in all (a game that ends is followed
# by a new one: the board's engine beats a random player in a few dozen turns): the board's
# turns from the engine as the opponent runs it (controller/opponent.engine(), limited to a
# number of steps), the player's random, a hint (the same engine) every 10 turns on the
# player's move. After each action: the heap in use after a collection and
# micropython.mem_info()'s largest free block (in 16-byte blocks). A MemoryError ends it all
# and is reported.
OPPONENT = """
import gc, micropython
import app
from barragoon.game import Game
from controller import opponent
gc.collect()
script = gc.mem_alloc()
a = app.App()
a.boot()
low.clear()
g = Game()
g.opponent = opponent.tag(%(board)d, %(level)d)
eng = opponent.engine()
k = 12345
turns = hints = 0
games = 1
peak = 0
end = 'unfinished'
def rnd(n):
    global k
    k = (k * 1103515245 + 12345) & 0x3FFFFFFF
    return k %% n
def place():
    # A random allowed placement, counted twice instead of listed: a list of every square
    # and face would be the largest allocation of the game (a player uses the buttons).
    n = 0
    for sq in range(63):
        for f in range(1, 17):
            n += g.placement_allowed(sq, f)
    r = rnd(n)
    for sq in range(63):
        for f in range(1, 17):
            if g.placement_allowed(sq, f):
                if r == 0:
                    g.place(sq, f)
                    return
                r -= 1
def note():
    global peak
    gc.collect()
    peak = max(peak, gc.mem_alloc())
    print('T', turns, gc.mem_alloc() - script)
    micropython.mem_info()
try:
    while turns < %(turns)d:
        if g.over:
            games += 1
            g = Game()
            g.opponent = opponent.tag(%(board)d, %(level)d)
            continue
        side = g.placing()
        actor = side if side >= 0 else g.turn
        if actor == %(board)d:
            t = eng.run(g, steps=%(steps)d)
            if t is None:
                end = 'no answer'
                break
            n = t.now
            if t.move is not None:
                g.move(t.move[0], t.move[1])
                turns += 1
                n -= 1
            for p in t.places[:n]:
                g.place(p[1], p[2])
        elif side >= 0:
            place()
        else:
            if turns %% 10 == 0:
                eng.run(g, steps=%(hint_steps)d)
                hints += 1
            moves = g.legal_moves()
            mv = moves[rnd(len(moves))]
            g.move(mv // 64, mv %% 64)
            turns += 1
        note()
    end = g.reason or end
except MemoryError as e:
    import sys
    sys.print_exception(e)
    end = 'MemoryError'
print('E', turns, hints, peak - script, games, end.replace(' ', '_'))
"""


def main_parts(build):
    """main.py as deployed, split before its app.main() call: (the prologue, which loads the
    modules as on the board: config.py checked first, the heap kept in one piece, room left at
    its bottom in `low`; the call)."""
    with open(os.path.join(build, "main.py")) as f:
        text = f.read().rstrip()
    i = text.rindex("app.main(")
    return text[:i], text[i:]


def opponent(p, build, turns, level, steps):
    """Heap figures of a game against the board (the OPPONENT script, after main.py's way
    of loading the modules)."""
    from barragoon import engine as host_engine
    steps = steps or host_engine.LEVELS[level][1]
    base = int(p.exec(BASE))
    from controller import opponent as host_opponent
    hint_steps = int(host_opponent.HINT_MS / host_engine.LEVELS[0][0])   # a hint's 1 s
    out = p.exec(main_parts(build)[0] + OPPONENT % {
        "board": 1, "level": level, "turns": turns, "steps": steps, "hint_steps": hint_steps},
        timeout_ms=24 * 3600 * 1000)
    free = [int(x) for x in re.findall(r"max free sz: (\d+)", out)]
    last = [line for line in out.split("\r\n") if line.startswith("E ")][-1].split()
    return {"opp_turns": int(last[1]), "opp_hints": int(last[2]),
            "opp_heap_peak": base + int(last[3]), "opp_games": int(last[4]),
            "opp_end": last[5].replace("_", " "),
            "opp_largest_free_min": 16 * min(free) if free else None,
            "opp_strength": level, "opp_steps": steps,
            "opp_memory_error": last[5] == "MemoryError"}


# The board thinking in its real loop: main.py as deployed, but with the engine's slices on
# GP26 (App's think_pin; the emulator counts the CPU time spent while it is high). A build
# older than App.think has no such pin: its engine runs inside the loop steps (GP25).
def think_main(build):
    prologue, call = main_parts(build)
    pinned = call[:-1] + ("think_pin=26)" if call.endswith("()") else ", think_pin=26)")
    return (prologue + "if hasattr(app.App, 'think'):\n    " + pinned + "\nelse:\n    " +
            call + "\n").encode()


THINK_POLL_MS = (10, 10, 50, 50)      # how often the screen is read, by strength


def _move_shown(b):
    # "plays d8xd5" complete on the screen (the board's move)
    w = b.screen()[1].split() if len(b.screen()) > 1 else []
    return len(w) == 2 and w[0] == "plays" and len(w[1]) == 5 and w[1][4].isdigit()


def think(build, firmware, level, lifts=0):
    """One search of the board at strength level, from the player's first move d2-d5: its
    seconds, units a ms and CPU shares; with lifts, lift-to-light meanwhile."""
    from barragoon.engine import LEVELS
    from toolkit.event_script import square_number
    game = ('[Opponent "Brown %d"]\n' % level + board.game_record()).encode()
    image = board.firmware_image(build, firmware=firmware, files={
        board.GAME: game, "resume.flag": b"", "main.py": think_main(build)})
    out = {}
    with board.EmulatedBoard(image, firmware=firmware) as b:
        b.boot(board.occupancy())
        b.lift(square_number("d2"))
        b.wait(250)
        b.drop(square_number("d5"))
        if not b.wait_for(lambda b: b.screen()[1:2] == ["Thinking..."], 3000, 5):
            raise pico.PicoError("the board did not start thinking: %r" % b.screen())
        t0 = b.pico.t
        b.pico.cpu(clear=True)
        b.pico.scan_starts(clear=True)
        first_op = len(b.pico.flash_ops())
        n = len(b.lifts)
        period = b.pico.cfg["SCAN_PERIOD_MS"]
        for i in range(lifts):                 # the board's own tile, lifted and put back
            b.lift(square_number("c8"))
            b.wait(150)
            b.drop(square_number("c8"))
            b.wait(250 + period * (i + 0.5) / lifts)
        limit = 3 * LEVELS[level][0]
        if not b.wait_for(_move_shown, limit, THINK_POLL_MS[level]):
            raise pico.PicoError("no move from the board within %d ms: %r" % (limit, b.screen()))
        ms = b.pico.t - t0
        cpu = b.pico.cpu()
        total = sum(cpu.values())
        if lifts:
            l2l = b.lift_to_light()[n:]
            gaps = board.scan_gaps(b.pico.scan_starts(), b.pico.flash_ops()[first_op:])
            out["think_lift_to_light_ms_median"] = statistics.median(l2l)
            out["think_lift_to_light_ms_max"] = max(l2l)
            out["think_lifts"] = len(l2l)
            out["think_loop_block_ms_max"] = max(e - s - f for s, e, f in gaps)
        else:
            out["think_s_%d" % level] = ms / 1000
            out["think_units_a_ms_%d" % level] = LEVELS[level][1] / ms
            for part in ("irq", "engine", "step", "other", "sleep"):
                out["think_cpu_%s_%d" % (part, level)] = 100.0 * cpu[part] / total
    return out


# Modules a plain game does not load at boot: imported after everything main.py imports.
LATER = ("barragoon.engine", "controller.opponent", "controller.menus", "controller.clock",
         "drivers.config_check", "barragoon.capture_search", "controller.protocol",
         "controller.remote", "drivers.usb")

BASE = "import gc\ngc.collect()\nprint(gc.mem_alloc())\n"   # a fresh interpreter's heap


def with_language(config_py, code):
    """config.py's bytes with LANGUAGE = code."""
    text, n = re.subn(r'(?m)^LANGUAGE = "[a-z]*"', 'LANGUAGE = "%s"' % code,
                      config_py.decode())
    if n != 1:
        raise ValueError("config.py has no LANGUAGE line")
    return text.encode()


# t() of controller/i18n.py in each language: a text found in its cache (a screen asks for the
# same texts again and again), and its key made and found among the English texts' keys for
# the first and the last text (the cache emptied first), less the loop's own time (English:
# t() returns its argument).
I18N = """
import time, gc
from controller import i18n
T = %r                 # lang_en.T's first and last texts (the .mpy build has no lang_en)
def per(fn, s, clear):
    t0 = time.ticks_us()
    for i in range(50):
        if clear:
            i18n._cs[hash(s) & 31] = None
        fn(s)
    return time.ticks_diff(time.ticks_us(), t0) / 50
for code in ('en', 'de', 'it', 'es'):
    i18n.set_language(code)
    t = i18n.t
    c = 1 if i18n._cs is not None else 0
    gc.collect()
    a = gc.mem_alloc()
    print(code, per(t, T[0], 0), per(t, T[0], c), per(t, T[-1], c), gc.mem_alloc() - a, %d)
"""


def i18n_part(p):
    out = {}
    from controller import lang_en
    script = I18N % ((lang_en.T[0], lang_en.T[-1]), len(lang_en.T))
    rows = [r.split() for r in p.exec(script, timeout_ms=600000).split("\r\n") if r]
    base = {}
    for code, hit, first, last, grown, n in rows:
        if code == "en":
            base = {"hit": float(hit), "first": float(first), "last": float(last)}
            out["i18n_texts"] = int(n)
            continue
        out["i18n_t_us_cached_" + code] = round(float(hit) - base["hit"], 1)
        out["i18n_t_us_first_" + code] = round(float(first) - base["first"], 1)
        out["i18n_t_us_last_" + code] = round(float(last) - base["last"], 1)
    return out


def rules(p):
    out = {}
    for line in p.exec(RULES, timeout_ms=600000).split("\r\n"):
        if line:
            name, worst, avg, allm = line.split()
            out["targets_worst_ms_" + name] = float(worst)
            out["targets_avg_ms_" + name] = float(avg)
            out["all_moves_ms_" + name] = float(allm)
    out["targets_worst_ms"] = max(out["targets_worst_ms_crowded"], out["targets_worst_ms_start"])
    return out


def drivers(p):
    n = len(p.frames)
    scan, led, oled, step = p.exec(DRIVERS, timeout_ms=60000).split()
    wire = [f.t_end - f.t_first for f in p.frames[n:]]
    return {"scan_ms": float(scan), "led_show_ms": float(led), "led_wire_ms": max(wire),
            "oled_show_ms": float(oled), "oled_step_ms": float(step)}


def heap(p, turns):
    out = {}
    # Heap figures as the board has them after main.py's boot: the interpreter's own heap plus
    # what the firmware allocates (the benchmark script's code is not counted).
    base = int(p.exec(BASE))
    imports, booted, peak, played, actions, reason = \
        p.exec(HEAP % turns, timeout_ms=3600000).split()
    out.update(heap_imports=base + int(imports), heap_after_boot=base + int(booted),
               heap_peak_game=base + int(peak), game_turns=int(played),
               game_actions=int(actions), game_end=reason)
    return out


def garbage(p):
    out = {}
    p.exec(GARBAGE_BOOT, timeout_ms=60000)
    for line in p.exec(GARBAGE, timeout_ms=3600000).split("\r\n"):
        w = line.split()
        if w and w[0] == "turn":
            mark, actions, worst, mean, events = (int(v) for v in w[1:])
            out["garbage_turn_max_b_%d" % mark] = worst
            out["garbage_turn_mean_b_%d" % mark] = mean
            out["garbage_turn_actions_%d" % mark] = actions
            out["garbage_events_b_%d" % mark] = events
        elif w and w[0] == "each":
            out["garbage_turns_b_%s" % w[1]] = [int(v) for v in w[2:]]
        elif w and w[0] == "menu":
            label, actions, opened, stepped, refreshed = w[1], int(w[2]), *map(int, w[3:])
            out["garbage_menu_open_b_" + label] = opened
            out["garbage_menu_step_b_" + label] = stepped
            out["garbage_menu_refresh_b_" + label] = refreshed
            out["garbage_menu_actions_" + label] = actions
    out["garbage_menu_max_b"] = max(v for k, v in out.items()
                                     if k.startswith(("garbage_menu_refresh_b_",
                                                      "garbage_menu_step_b_")))
    return out


def _module_file(name):
    path = os.path.join(os.path.dirname(TOOLS), "firmware", *name.split("."))
    if os.path.isdir(path):
        return os.path.join(path, "__init__.py")
    return path + ".py" if os.path.exists(path + ".py") else None


def _top_imports(path):
    """Firmware modules a source imports when it is imported (not inside functions)."""
    with open(path) as f:
        tree = ast.parse(f.read())
    found = []

    def visit(nodes):
        for n in nodes:
            if isinstance(n, ast.Import):
                found.extend(a.name for a in n.names)
            elif isinstance(n, ast.ImportFrom):
                for a in n.names:       # `from pkg import mod` imports pkg.mod
                    sub = n.module + "." + a.name
                    found.append(sub if _module_file(sub) else n.module)
            elif isinstance(n, ast.Try):
                visit(n.body)
            elif isinstance(n, ast.If):
                visit(n.body)
                visit(n.orelse)
    visit(tree.body)
    return found


def import_order(roots):
    """Firmware modules that importing roots loads, each after its dependencies."""
    seen, out = set(), []

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        path = _module_file(name)
        if path is None:                # machine, micropython, time, ...: the firmware's own
            return
        if "." in name:
            visit(name.rsplit(".", 1)[0])
        for dep in _top_imports(path):
            visit(dep)
        out.append(name)
    for r in roots:
        visit(r)
    return out


def modules(p):
    boot = import_order(["version", "app"])
    later = [m for m in import_order(LATER) if m not in boot]
    out = {}
    for line in p.exec(MODULES % ((tuple(boot + later)),), timeout_ms=600000).split("\r\n"):
        if line.startswith("qstr pool:"):     # ... n_total_bytes=17741
            out["heap_qstr_pool"] = int(line.rsplit("=", 1)[1])
        elif line:
            name, n, us = line.split()
            out["heap_module_" + name] = int(n)
            out["import_ms_" + name] = int(us) / 1000
    out["heap_modules_boot"] = sum(out["heap_module_" + m] for m in boot)
    out["heap_modules_later"] = sum(out["heap_module_" + m] for m in later)
    return out, boot, later


def objects(p, build):
    """Heap of each object the App is made of, after the modules are loaded as main.py loads
    them (loaded from a bare REPL, the stock build's heap is too broken up for the engine)."""
    out = {}
    script = main_parts(build)[0] + "low = None\n" + OBJECTS
    for line in p.exec(script, timeout_ms=600000).split("\r\n"):
        if line and not line.startswith("Barragoon board firmware"):   # main.py's greeting
            name, n = line.split()
            out["heap_object_" + name] = int(n)
    return out


# The heap after boot by kind of object: micropython.mem_info(1) prints the heap a character
# per 16-byte block, the first block of each object by its type ("=" for the blocks after it).
KINDS_SCRIPT = """
import gc, micropython
import app
A = app.App()
A.boot()
gc.collect()
micropython.mem_info(1)
"""
KINDS = (("B", "functions"), ("A", "arrays and bytearrays (their headers)"),
         ("D", "dicts (their headers)"), ("M", "modules"), ("S", "str and bytes"),
         ("T", "tuples"), ("L", "lists (their headers)"),
         ("h", "other: instances, classes, dict and list tables, buffers' bytes"))


def kinds(p, build):
    """Blocks of the heap after boot by the kind of object they belong to: {kind: (objects,
    bytes)} (the interpreter's own objects and the App's, as main.py boots it)."""
    text = p.exec(main_parts(build)[0] + "low = None\n" + KINDS_SCRIPT, timeout_ms=600000)
    blocks = []
    for line in text.split("\r\n"):
        m = re.match(r"[0-9a-f]{8}: (.*)$", line)
        if m:
            blocks.append(m.group(1))
    out = {}
    kind = None
    for c in "".join(blocks) + ".":
        if c == "=":
            if kind:
                out[kind][1] += 16
            continue
        kind = c if c in "BADMSTLh" else None
        if kind:
            out.setdefault(kind, [0, 0])
            out[kind][0] += 1
            out[kind][1] += 16
    return {"heap_kind_%s_%s" % (("objects", "bytes")[i], k): n[i]
            for k, n in out.items() for i in (0, 1)}


def quiet_turns(n):
    """n legal turns from the start without captures (no placements needed), deterministic."""
    from barragoon.game import Game
    g = Game()
    out = []
    k = 777
    while len(out) < n:
        moves = [m for m in g.legal_moves() if not g.pos.get(m % 64)]
        k = (k * 1103515245 + 12345) & 0x3FFFFFFF
        m = moves[k % len(moves)]
        g.move(m // 64, m % 64)
        out.append((m // 64, m % 64))
    return out


def flash_in(a, e, ops):
    """ms of flash erase/program the core waited for between a and e (ms)."""
    return sum(board.flash_op_ms(op) for op in ops if a <= op["t"] < e)


def play(b, lifts):
    b.pico.scan_starts(clear=True)
    b.pico.loop_steps(clear=True)
    first_op = len(b.pico.flash_ops())
    drops = []
    # A lift waits for the next scan: 0 to one scan period. Turns 1100 ms apart would all
    # fall at one point of the period (1100 is a multiple of 4 and 5), and the figures would
    # depend on where that happens to be; each lift comes a 1/lifts period later instead.
    spread = b.pico.cfg["SCAN_PERIOD_MS"] / lifts
    for frm, to in quiet_turns(lifts):
        b.lift(frm)
        b.wait(200)
        drops.append(b.pico.t)
        b.drop(to)
        b.wait(900 + spread)
    starts = b.pico.scan_starts()
    ops = b.pico.flash_ops()[first_op:]
    gaps = board.scan_gaps(starts, ops)
    # Loop steps from the firmware's busy signal (GP25). The first step after a drop that
    # writes flash committed the move and saved the game; later ones write events.txt.
    steps = [(a, e, flash_in(a, e, ops)) for a, e in b.pico.loop_steps()]
    saves = []
    for td in drops:
        st = next((st for st in steps if st[0] >= td and st[2] > 0), None)
        if st is not None and st not in saves:
            saves.append(st)
    others = [st for st in steps if st[2] > 0 and st not in saves]
    l2l = b.lift_to_light()
    return {
        "lift_to_light_ms_median": statistics.median(l2l),
        "lift_to_light_ms_max": max(l2l),
        "lift_to_light_ms_min": min(l2l),
        "lifts": len(l2l),
        "commit_step_ms": max(e - s - f for s, e, f in saves),
        "commit_step_ms_median": statistics.median(e - s - f for s, e, f in saves),
        "save_flash_ms": max(f for _, _, f in saves),
        "saves": len(saves),
        "loop_step_ms_no_save": max(e - s for s, e, f in steps if not f),
        "events_step_ms": max([e - s - f for s, e, f in others] or [0.0]),
        "loop_block_ms_max": max(e - s - f for s, e, f in gaps),
        "loop_block_ms_no_save": max(e - s for s, e, f in gaps if not f),
        "scan_period_ms_median": statistics.median(e - s for s, e, _ in gaps),
    }


def listener(build, args, xip):
    """play() with a computer listening on USB: reading, and one that stopped reading (its
    USB transfers never completed: the board's USB buffer full)."""
    out = {}
    lifts = min(args.lifts, 20)            # (within the protocol's LISTENER_MS of the hello)
    for name, reads in (("listener", True), ("stalled", False)):
        with board.EmulatedBoard(board.firmware_image(build, game=True, firmware=args.firmware),
                                 firmware=args.firmware, xip_miss_cycles=xip) as b:
            b.boot(board.occupancy())
            b.pico.write(b"hello 1\n")
            b.wait(1000)
            n = len(b.pico.serial)
            if not reads:
                b.pico.host_reads(False)
            got = play(b, lifts)
            b.pico.host_reads(True)
            b.wait(200)
            lines = bytes(b.pico.serial[n:]).count(b"\n@")
            for key in ("lift_to_light_ms_median", "lift_to_light_ms_max",
                        "loop_step_ms_no_save", "commit_step_ms"):
                out["%s_%s" % (key, name)] = got[key]
            out["protocol_lines_" + name] = lines
    return out


ROWS = (
    ("lift_to_light_ms_median", "lift to first LED bit, median (ms)"),
    ("lift_to_light_ms_max", "lift to first LED bit, max (ms)"),
    ("targets_worst_ms_crowded", "one tile's targets, worst, crowded (ms)"),
    ("targets_worst_ms_start", "one tile's targets, worst, start (ms)"),
    ("all_moves_ms_crowded", "all legal moves, crowded (ms)"),
    ("all_moves_ms_start", "all legal moves, start (ms)"),
    ("commit_step_ms", "loop step that commits a move, flash write excluded, max (ms)"),
    ("commit_step_ms_median", "the same, median (ms)"),
    ("save_flash_ms", "flash write of one save (ms)"),
    ("loop_step_ms_no_save", "longest loop step without a flash write (ms)"),
    ("events_step_ms", "longest step writing events.txt, flash excluded (ms)"),
    ("loop_block_ms_max", "longest time without a matrix scan, flash excluded (ms)"),
    ("loop_block_ms_no_save", "longest time without a scan, no flash write in it (ms)"),
    ("boot_to_leds_ms", "power-on to the first LED frame, resuming a game (ms)"),
    ("scan_ms", "one matrix scan (ms)"),
    ("led_show_ms", "one LED frame: show() with the wire idle (ms)"),
    ("led_wire_ms", "one LED frame on the wire (ms)"),
    ("oled_show_ms", "one whole OLED frame, 1 KB at 400 kHz (ms)"),
    ("oled_step_ms", "OLED update in one loop step, longest (ms)"),
    ("lift_to_light_ms_median_listener", "lift to light, median, a computer listening (ms)"),
    ("lift_to_light_ms_max_listener", "the same, max (ms)"),
    ("loop_step_ms_no_save_listener", "longest loop step without a flash write, listening (ms)"),
    ("commit_step_ms_listener", "loop step that commits a move, listening (ms)"),
    ("lift_to_light_ms_max_stalled", "lift to light, max, the computer stopped reading (ms)"),
    ("loop_step_ms_no_save_stalled", "longest loop step without a flash write, stopped (ms)"),
    ("commit_step_ms_stalled", "loop step that commits a move, stopped (ms)"),
    ("protocol_lines_listener", "protocol lines sent to it over those lifts"),
    ("protocol_lines_stalled", "... to the one that stopped, once it read again"),
    ("heap_object_protocol_module", "heap of the protocol's module, once a computer spoke (B)"),
    ("heap_object_protocol_console", "heap of its Console with its buffers (B)"),
    ("heap_imports", "heap after importing app (B)"),
    ("heap_after_boot", "heap after boot (B)"),
    ("heap_peak_game", "heap peak during the game (B)"),
    ("garbage_turn_max_b_20", "garbage per committed turn with its save, at 20 actions (B)"),
    ("garbage_turn_max_b_200", "the same at 200 actions (B)"),
    ("garbage_events_b_20", "garbage of the save's events.txt, at 20 actions (B)"),
    ("garbage_events_b_200", "the same at 200 actions (B)"),
    ("garbage_menu_max_b", "garbage per menu refresh or step, worst (B)"),
    ("garbage_menu_open_b_over", "a menu opened with its module, game over (B)"),
)


PARTS = ("rules", "drivers", "heap", "modules", "play", "garbage", "listener")
EXTRA = ("opponent", "i18n", "think")    # only when named in --only
TIMED = ("rules", "drivers", "play", "listener")    # run again with the XIP cache model


def print_modules(figures, boot, later):
    print("Heap by module (B, imported one at a time after their dependencies; import ms)")
    for title, names in (("at boot", boot), ("loaded when used", later)):
        print("  %s:" % title)
        for name in sorted(names, key=lambda m: -figures["heap_module_" + m]):
            print("    %-40s %8d %8.1f" % (name, figures["heap_module_" + name],
                                          figures["import_ms_" + name]))
    print("  %-42s %8d" % ("modules at boot, total", figures["heap_modules_boot"]))
    print("  %-42s %8d" % ("modules loaded when used, total", figures["heap_modules_later"]))
    print("  %-42s %8d" % ("qstr pool (interned names, in the totals)",
                           figures["heap_qstr_pool"]))
    print("Heap of the App's objects (B)")
    for key in sorted(figures):
        if key.startswith("heap_object_") and "engine" not in key:
            print("    %-40s %8d" % (key[len("heap_object_"):], figures[key]))
    print("  %-42s %8d" % ("engine loaded (modules + Engine())",
                           figures["heap_object_engine_loaded"]))
    print("  %-42s %8d" % ("... left after it is dropped again",
                           figures["heap_object_engine_left_after_release"]))
    print("Heap after boot by kind of object (micropython.mem_info(1), the benchmark "
          "script's own code too; B, objects)")
    for k, what in KINDS:
        if "heap_kind_bytes_" + k in figures:
            print("    %-62s %8d %6d" % (what, figures["heap_kind_bytes_" + k],
                                         figures["heap_kind_objects_" + k]))


def print_think(figures, strengths):
    print("The board thinking (its real loop, nobody touching; its first move after d2-d5):")
    print("  %-10s %8s %11s   CPU: %7s %7s %11s %9s %7s" % (
        "strength", "s a move", "units a ms", "engine", "scan+irq", "rest of step", "waiting",
        "asleep"))
    for level in strengths:
        k = "_%d" % level
        print("  %-10d %8.2f %11.2f        %6.1f%% %7.1f%% %11.1f%% %8.1f%% %6.1f%%" % (
            level, figures["think_s" + k], figures["think_units_a_ms" + k],
            figures["think_cpu_engine" + k], figures["think_cpu_irq" + k],
            figures["think_cpu_step" + k], figures["think_cpu_other" + k],
            figures["think_cpu_sleep" + k]))
    if "think_lifts" in figures:
        print("  %d lifts while it thinks (strength %d): lift to first LED bit median %.1f / "
              "max %.1f ms; longest time without a scan %.1f ms"
              % (figures["think_lifts"], figures["think_lifts_strength"],
                 figures["think_lift_to_light_ms_median"], figures["think_lift_to_light_ms_max"],
                 figures["think_loop_block_ms_max"]))


def timed_parts(args, only, build, files, xip, figures):
    """rules, drivers and play on one emulated Pico each; xip: cycles per cache miss, or None
    for no cache model (then the keys are the plain ones, else they end in _xip)."""
    out = {}
    if only & {"rules", "drivers"}:
        with pico.Pico(flash=flashfs.build_image(None, files), firmware=args.firmware,
                       xip_miss_cycles=xip) as p:
            p.run_for(500)
            if "rules" in only:
                out.update(rules(p))
            if "drivers" in only:
                out.update(drivers(p))
    if "play" in only:
        with board.EmulatedBoard(board.firmware_image(build, game=True,
                                                      firmware=args.firmware),
                                 firmware=args.firmware, xip_miss_cycles=xip) as b:
            out["boot_to_leds_ms"] = b.boot(board.occupancy())
            out.update(play(b, args.lifts))
            if xip is not None:
                st = b.pico.xip_stats()
                out["xip_miss_rate"] = st["misses"] / max(1, st["hits"] + st["misses"])
    if "listener" in only:
        out.update(listener(build, args, xip))
    suffix = "" if xip is None else "_xip"
    figures.update({k if k.startswith("xip_") else k + suffix: v for k, v in out.items()})


def main(argv=None):
    ap = argparse.ArgumentParser(description="Benchmarks on the emulated Pico (rp2040js).")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--turns", type=int, default=150,
                    help="turns of the heap game and of the opponent game (150)")
    ap.add_argument("--lifts", type=int, default=12, help="turns played on the board (12)")
    ap.add_argument("--firmware", help="UF2 for RPI_PICO: MicroPython v1.28 (default: $%s; "
                    "tools/README.md says where to get it), or the board's own build from "
                    "tools/build_firmware.py" % pico.ENV_UF2)
    ap.add_argument("--xip-miss", type=int, default=pico.XIP_MISS_CYCLES, metavar="CYCLES",
                    help="clk_sys cycles a flash cache miss costs in the cache model "
                         "(default %d)" % pico.XIP_MISS_CYCLES)
    ap.add_argument("--no-xip", action="store_true",
                    help="skip the second run of the timed parts with the cache model")
    ap.add_argument("--strength", type=int, default=3, choices=(1, 2, 3),
                    help="the board's strength in the opponent game (3)")
    ap.add_argument("--opponent-steps", type=int, default=0, metavar="N",
                    help="engine steps per search in the opponent game (default: the "
                         "strength's own)")
    ap.add_argument("--strengths", default="1,2,3", metavar="LIST",
                    help="the board's strengths the think part measures (1,2,3)")
    ap.add_argument("--think-lifts", type=int, default=12, metavar="N",
                    help="lifts while the board thinks at the second of --strengths (12; "
                         "0: none)")
    ap.add_argument("--lang", metavar="CODE",
                    help="the board's LANGUAGE in config.py (en, de, it, es; default: as "
                         "firmware/config.py has it)")
    ap.add_argument("--only", metavar="PARTS",
                    help="run only these parts, comma-separated: " + ", ".join(PARTS + EXTRA))
    args = ap.parse_args(argv)
    if args.lifts < 1 or args.turns < 1:
        ap.error("--lifts and --turns must be at least 1")
    if args.xip_miss < 0 or args.opponent_steps < 0:
        ap.error("--xip-miss and --opponent-steps cannot be negative")
    from controller.i18n import LANGUAGES
    if args.lang is not None and args.lang not in LANGUAGES:
        ap.error("--lang %s is not a language of the board (use one of %s)"
                 % (args.lang, ", ".join(LANGUAGES)))
    try:
        strengths = [int(x) for x in args.strengths.split(",")]
    except ValueError:
        strengths = []
    if not strengths or not set(strengths) <= {1, 2, 3} or args.think_lifts < 0:
        ap.error("--strengths takes a comma-separated list of 1, 2, 3; --think-lifts a count")
    only = set(args.only.split(",")) if args.only else set(PARTS)
    if not only <= set(PARTS + EXTRA):
        ap.error("--only takes a comma-separated list of: " + ", ".join(PARTS + EXTRA))
    why = pico.missing(args.firmware)
    if why:
        print("bench_rp2040: " + why, file=sys.stderr)
        return 2
    try:
        kind = board.firmware_kind(args.firmware)
    except (OSError, ValueError) as e:
        print("bench_rp2040: %s: %s" % (args.firmware, e), file=sys.stderr)
        return 2
    build = board.build_firmware()
    figures = {"firmware": kind}
    # The REPL benchmarks: the firmware without main.py, so nothing else runs.
    files = board.deployed_files(build, args.firmware)
    if args.lang is not None:
        files["config.py"] = with_language(files["config.py"], args.lang)
        figures["language"] = args.lang
    files.pop("main.py")
    timed_parts(args, only, build, files, None, figures)
    # The heap parts each in a fresh interpreter, as a board has it after power-on: nothing
    # imported, no names interned, no objects left over from another part.
    if "heap" in only:
        with pico.Pico(flash=flashfs.build_image(None, files), firmware=args.firmware) as p:
            p.run_for(500)
            figures.update(heap(p, args.turns))
    if "garbage" in only:
        with pico.Pico(flash=flashfs.build_image(None, files), firmware=args.firmware) as p:
            p.run_for(500)
            figures.update(garbage(p))
    boot = later = None
    if "modules" in only:
        with pico.Pico(flash=flashfs.build_image(None, files), firmware=args.firmware) as p:
            p.run_for(500)
            figures.update(objects(p, build))
        with pico.Pico(flash=flashfs.build_image(None, files), firmware=args.firmware) as p:
            p.run_for(500)
            figures.update(kinds(p, build))
        with pico.Pico(flash=flashfs.build_image(None, files), firmware=args.firmware) as p:
            p.run_for(500)
            found, boot, later = modules(p)
            figures.update(found)
    if "i18n" in only:
        with pico.Pico(flash=flashfs.build_image(None, files), firmware=args.firmware) as p:
            p.run_for(500)
            figures.update(i18n_part(p))
    if "think" in only:
        for level in strengths:
            figures.update(think(build, args.firmware, level))
        if args.think_lifts:
            level = strengths[1] if len(strengths) > 1 else strengths[0]
            figures.update(think(build, args.firmware, level, args.think_lifts))
            figures["think_lifts_strength"] = level
    if "opponent" in only:
        with pico.Pico(flash=flashfs.build_image(None, files), firmware=args.firmware) as p:
            p.run_for(500)
            figures.update(opponent(p, build, args.turns, args.strength, args.opponent_steps))
    if not args.no_xip and only & set(TIMED):
        figures["xip_miss_cycles"] = args.xip_miss
        timed_parts(args, only, build, files, args.xip_miss, figures)
    figures = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in figures.items()}
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    print("Emulated RP2040 (rp2040js, 125 MHz), MicroPython v1.28, %s%s"
          % ("the firmware frozen into the board's own build" if kind == "frozen" else
             "stock, the .mpy build on littlefs",
             ", LANGUAGE = %r" % args.lang if args.lang else ""))
    xip = "xip_miss_cycles" in figures
    if any(key in figures for key, _ in ROWS):
        print("  %-62s %10s%s" % ("", "no cache", "  %d-cycle miss" % args.xip_miss
                                  if xip else ""))
    for key, label in ROWS:
        if key in figures:
            print("  %-62s %10s%s" % (label, figures[key], "  %10s" % figures[key + "_xip"]
                                      if key + "_xip" in figures else ""))
    if xip and "xip_miss_rate" in figures:
        print("  (XIP cache model: %.2f %% of flash reads missed in the play part)"
              % (100 * figures["xip_miss_rate"]))
    if "play" in only:
        print("  (%d lifts, %d saves)" % (figures["lifts"], figures["saves"]))
    if boot is not None:
        print_modules(figures, boot, later)
    if "heap" in only:
        print("  (heap game: %d turns, %d actions, %s)"
              % (figures["game_turns"], figures["game_actions"], figures["game_end"]))
    if "i18n" in only:
        print("t() in each language (us a call; %d texts): cached, search for the first, for "
              "the last text" % figures["i18n_texts"])
        for code in ("de", "it", "es"):
            print("  %s  %8s %8s %8s" % (code, figures["i18n_t_us_cached_" + code],
                                         figures["i18n_t_us_first_" + code],
                                         figures["i18n_t_us_last_" + code]))
    if "think" in only:
        print_think(figures, strengths)
    if "opponent" in only:
        print("Against the board, strength %d (%d engine steps a search), a hint every 10 turns:"
              % (figures["opp_strength"], figures["opp_steps"]))
        print("  %d turns in %d games, %d hints, last: %s; heap peak %d B; smallest largest "
              "free block %s B%s"
              % (figures["opp_turns"], figures["opp_games"], figures["opp_hints"],
                 figures["opp_end"],
                 figures["opp_heap_peak"], figures["opp_largest_free_min"],
                 "; MemoryError" if figures["opp_memory_error"] else "; no MemoryError"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
