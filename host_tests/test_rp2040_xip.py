# The emulator's model of the RP2040's XIP flash cache (tools/rp2040/emulator.js, an option of
# the emulated Pico): 16 KB, two-way set associative, 8-byte lines, a configurable number of
# cycles per miss. Code in flash (MicroPython's VM, frozen bytecode) then runs slower than with
# rp2040js's flash-as-fast-as-SRAM, by an amount the miss penalty sets; a loop that fits the
# cache mostly hits, a walk over far more flash than 16 KB misses every line and waits the
# penalty for each. No timing threshold: what is compared is the same code on the same emulator
# with and without the model. One emulator per cache setting, the stock firmware, no main.py. (That
# a flash erase or program flushes the cache is not checked here: any code run after it
# refills the lines, so no figure seen from the REPL tells a flush apart.)
import pytest

import pico_bench
from rp2040 import flashfs
from rp2040.pico import Pico

pico_bench.require()

LOOP = """
import time
def loop(n):
    for i in range(n):
        pass
loop(10)
t = time.ticks_us()
loop(2000)
print(time.ticks_diff(time.ticks_us(), t))
"""
# Reads one word every 32 bytes over 256 KB of the firmware in flash: every line new.
WALK = """
import machine, time
m = machine.mem32
t = time.ticks_us()
s = 0
for a in range(0x10000000, 0x10040000, 32):
    s += m[a]
print(time.ticks_diff(time.ticks_us(), t))
"""


@pytest.fixture(scope="module", params=[None, 0, 56])
def chip(request):
    p = Pico(flash=flashfs.build_image(None, {}), firmware=pico_bench.stock_uf2(),
             xip_miss_cycles=request.param)
    p.run_for(500)
    yield request.param, p
    p.close()


_us = {}


def measure(p, code):
    before = p.xip_stats()
    us = int(p.exec(code).split()[-1])
    after = p.xip_stats()
    return us, after["hits"] - before["hits"], after["misses"] - before["misses"]


def test_code_in_flash_slows_down_by_the_miss_penalty_only_with_the_model(chip):
    miss, p = chip
    us, hits, misses = measure(p, LOOP)
    _us[miss] = us
    if miss is None:
        assert p.xip_stats()["model"] is False and hits == misses == 0
        return
    assert p.xip_stats() ["miss_cycles"] == miss
    assert hits > 50 * misses > 0                  # the interpreter's loop fits the cache
    if miss == 0:
        assert us == pytest.approx(_us[None], rel=0.02)   # free misses: as without a model
    else:
        assert us > _us[0]                         # every miss costs: slower than free misses


def test_a_walk_over_more_flash_than_the_cache_misses_every_line_and_pays_for_each(chip):
    miss, p = chip
    if miss is None:
        pytest.skip("no cache model")
    us, hits, misses = measure(p, WALK)
    assert misses >= 0x40000 // 32                 # each word read is a new line
    _walk[miss] = (us, misses)
    if miss:
        free_us, free_misses = _walk[0]            # the same walk with free misses
        assert abs(misses - free_misses) < 0.02 * misses
        assert us - free_us == pytest.approx(misses * miss / 125, rel=0.1)   # 125 MHz


_walk = {}
