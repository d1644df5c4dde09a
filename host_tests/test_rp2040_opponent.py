# Against the board on the emulated Pico (tools/rp2040), the real firmware as deployed: a saved
# game against the board (Brown, strength 1: 15,300 units of work) resumes after a restart;
# the player moves; the board thinks in slices while the loop scans on (a Brown tile lifted
# meanwhile is lit at once and may not move), then shows its move; the player carries it out
# and it is saved. The figures (printed, never asserted: the emulator's time is the judge): how
# long the board took for its level's work (units a ms: engine.LEVELS) and, while it thought,
# the longest gap between two scans, the loop steps (from the firmware's busy signal on GP25)
# and lift-to-light.
import pico_bench
from rp2040 import board
from toolkit.event_script import square_number as S, square_text

pico_bench.require()

from barragoon.engine import LEVELS  # noqa: E402

BUDGET_MS, UNITS = LEVELS[1]        # strength 1


def _move_shown(line):
    # "plays d8xd5" complete on the screen
    w = line.split()
    return len(w) == 2 and w[0] == "plays" and len(w[1]) == 5 and w[1][2] in "-x" and \
        w[1][4].isdigit()


def test_the_board_plays_its_move_while_the_loop_keeps_scanning():
    game = ('[Opponent "Brown 1"]\n' + board.game_record()).encode()
    image = board.firmware_image(pico_bench.build(), files={board.GAME: game,
                                                            "resume.flag": b""})
    b = pico_bench.start(image, occupied=board.occupancy())
    try:
        assert b.screen()[0] == "White to move"
        b.lift(S("d2"))
        b.wait(250)
        b.drop(S("d5"))
        assert b.wait_for(lambda b: b.screen()[:2] == ["Board: Brown", "Thinking..."],
                          2000, 5), b.screen()
        t_start = b.pico.t
        b.pico.scan_starts(clear=True)
        b.pico.loop_steps(clear=True)
        b.wait(400)
        n = len(b.lifts)
        b.lift(S("c8"))                           # a brown tile while it thinks
        b.wait(200)
        assert S("c8") in [S(k) for k in b.lit()], b.lit()     # lit at once: the scan runs
        assert b.screen()[1] == "Thinking..."
        b.drop(S("c8"))
        gaps = b.report()["loop_gap_ms_max"]
        assert b.wait_for(lambda b: _move_shown(b.screen()[1]), 2 * BUDGET_MS, 5), \
            b.screen()                            # (the OLED is sent a few segments a step)
        answer_ms = b.pico.t - t_start
        steps = sorted(e - a for a, e in b.pico.loop_steps())
        lift_ms = b.lift_to_light()[n:]
        move = b.screen()[1].split()[1]           # e.g. d8xd5
        frm, to = S(move[:2]), S(move[3:])
        if move[2] == "x":
            b.lift(to)
            b.wait(300)
        b.move(frm, to)
        b.wait(300)
        assert b.files()[board.GAME].decode().endswith("1. d2-d5 " + move + "\n") or \
            ("1. d2-d5 " + move) in b.files()[board.GAME].decode()
        print("\nboard's move %s after %.0f ms (%d units, %.1f a ms; time limit %d ms); while "
              "it thought: longest time between scans %.1f ms, loop steps median %.1f / 99th %% "
              "%.1f / max %.1f ms, lift-to-light %s ms"
              % (move, answer_ms, UNITS, UNITS / answer_ms, BUDGET_MS, gaps,
                 steps[len(steps) // 2], steps[len(steps) * 99 // 100], steps[-1], lift_ms))
        assert square_text(frm) == move[:2]
    finally:
        b.close()
