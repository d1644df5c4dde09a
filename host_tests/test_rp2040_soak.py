# The soak of issue 20 on the emulated Pico (tools/soak_rp2040.py): a game played by hands on
# the squares with the flash 95 % full, the power cut as a random flash erase or program
# begins, every turn and now and then while the board recovers. Nothing may be lost and
# nothing recorded twice: every turn game.txt held at a cut is in the resumed game, the
# finished game is in records.txt once, the board never resets, error.log stays bounded.
# Short here (BARRAGOON_SOAK_TURNS, BARRAGOON_SOAK_CUTS); BARRAGOON_RP2040_LONG=1 plays the
# issue's 150 turns with 200 cuts (about an hour on an idle 2-core machine). pytest -s prints
# the figures.
import os

import pico_bench
import soak_rp2040

pico_bench.require()

TURNS = int(os.environ.get("BARRAGOON_SOAK_TURNS", "150" if pico_bench.LONG else "6"))
CUTS = int(os.environ.get("BARRAGOON_SOAK_CUTS", "200" if pico_bench.LONG else "5"))


def test_power_cuts_at_random_flash_operations_lose_nothing_and_record_nothing_twice():
    soak = soak_rp2040.Soak(TURNS, CUTS, 1, 95, build=pico_bench.build())
    try:
        f = soak.run()
    finally:
        soak.close()
    print("\nsoak: %(turns)d turns, %(cuts_survived)d cuts survived, %(turns_lost)d turns "
          "lost, %(games_recorded_twice)d games recorded twice (%(turns_redone)d turns in "
          "progress played again, %(simulated_s)s s simulated)" % f)
    assert soak_rp2040.verdict(f) == "", f
    assert f["cuts"] == CUTS and f["flash_blocks_used_at_start"] >= 0.95 * f["flash_blocks"]
