#!/usr/bin/env python3
"""Power cuts on the emulated Pico, many of them: nothing lost, nothing twice.

    python tools/soak_rp2040.py [--turns 150] [--cuts 200] [--seed 1] [--full 95] [--json]

The firmware as deployed runs on the emulated Pico (tools/rp2040) with its flash --full %
used. A game of --turns turns is played by hands on the squares (quiet moves, a set-down
every second or so), then drawn by agreement through the menu and left for a new game (the
finished game goes to records.txt). Every turn, and now and then while the board recovers,
the power is cut as a flash erase or program chosen at random begins (half of them among the
first operations after the set-down: the save of the move), until --cuts cuts have been made.
After each cut the power comes back, the pieces where the hands left them, and the hands do
what a player would: "Resume game", pieces back where the board asks, the turn again. Checked
after every cut: the resumed game holds every turn game.txt held when the power went (turns
lost), and those are the turns the hands played; at the end: records.txt holds the finished
game once (games recorded twice), error.log stays within its bound, the board never reset.
Prints these figures; exit 1 when one is wrong, 2 when the emulated Pico cannot run here.
"""
import argparse
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "firmware"))

from rp2040 import board, flashfs, pico  # noqa: E402
from bench.bench_rp2040 import quiet_turns  # noqa: E402

CARRY_MS = 150              # a piece in the hand (shorter than the adjust time: no touch)
REST_MS = 600               # after a set-down: the settle time (300 ms), the save, events.txt
LOOK_MS = 400               # while the board recovers: a player looks again
HOLD_MS = 900               # OK held: the menu, or a draw accepted (config LONG_PRESS_MS 700)
FIRST_OPS = 4               # "the save of the move": the first flash operations after it
SPREAD_OPS = 20             # a turn's flash operations, most of them (the save, events.txt)
ERROR_LOG_MAX = 4096
PLAYING = ("White to move", "Brown to move")


class SoakError(Exception):
    """The board did something a player would call a failure; the message says what."""


class Soak:
    def __init__(self, turns, cuts, seed, full, firmware=None, log=None, build=None):
        self.moves = quiet_turns(turns)
        self.want_cuts = cuts
        self.end_cuts = min(cuts // 5, 20)   # kept for the game's end and its record
        self.limit = cuts - self.end_cuts    # the cuts allowed so far (paced over the turns)
        self.rnd = random.Random(seed)
        self.log = log or (lambda text: None)
        build = build or board.build_firmware()
        image = board.firmware_image(build, game=True)
        leave = flashfs.BLOCK_COUNT - int(flashfs.BLOCK_COUNT * full / 100.0 + 0.999)
        self.image = flashfs.fill_blocks(image, leave=max(leave, 0))
        self.used = flashfs.used_blocks(self.image)
        self.start = board.occupancy()
        self.b = board.EmulatedBoard(self.image, firmware=firmware)
        self.ops = 0                      # flash operations seen so far
        self.pending = None               # the operation a cut is set for
        self.cuts = 0
        self.lost = 0                     # turns game.txt held at a cut, missing after it
        self.redone = 0                   # turns in progress at a cut, played again
        self.actions = 0                  # button presses and pieces moved (players' actions)
        self.records = ""
        self.last_cut = None              # the flash as the last cut left it
        self.unreadable = 0               # cut images whose game.txt the host could not read

    def close(self):
        self.b.close()

    def keep(self, what):
        """Write the flash of the last cut to build/soak_rp2040-<what>.img; its path."""
        path = os.path.join(os.path.dirname(HERE), "build", "soak_rp2040-%s.img" % what)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(self.last_cut)
        return path

    # --- the flash and the power -------------------------------------------------------------
    def _count_ops(self):
        self.ops += len(self.b.pico.flash_ops(self.ops))

    def _arm(self, first):
        """Cut at a random one of the next flash operations (first: among the first few)."""
        if self.pending is not None or self.cuts >= min(self.limit, self.want_cuts):
            return
        self._count_ops()
        span = FIRST_OPS if first else SPREAD_OPS
        self.pending = self.ops + self.rnd.randrange(span)
        self.b.pico.cut_at(self.pending)

    def _powered(self):
        return self.b.pico.powered

    def _file(self, path, image=None):
        """A file of the board's flash (None: there is none). Read while the board runs,
        littlefs may be caught between the operations of a write: read again a moment
        later."""
        for _ in range(10):
            try:
                return flashfs.read_file(image or self.b.pico.storage(), path)
            except Exception:              # noqa: BLE001 - littlefs-python: caught mid-write
                if image is not None:
                    raise
                self.b.wait(100)
        raise SoakError("%s cannot be read back from the flash" % path)

    def _saved(self, image=None):
        """The turns of the game saved on the flash (None: no game), its Game."""
        from barragoon.record import parse_record
        text = self._file(board.GAME, image)
        if text is None:
            return None, None
        game = parse_record(text.decode())
        return game.turn_texts(), game

    # --- hands ---------------------------------------------------------------------------------
    def _wait(self, ms):
        self.b.wait(ms)
        return self._powered()

    def _tap(self, name):
        self.actions += 1
        self.b.tap(name)

    def _hold(self):
        self.actions += 1
        self.b.press("ok")
        self.b.wait(HOLD_MS)
        self.b.release("ok")
        self.b.wait(300)

    def _turn(self, i):
        """The hands play turn i; False when the power went meanwhile."""
        frm, to = self.moves[i]
        n = len(self.moves)
        self.limit = (self.want_cuts - self.end_cuts) * (i + 1) // n   # spread over the game
        self._arm(self.rnd.random() < 0.5)
        self.actions += 1
        self.b.lift(frm)
        if not self._wait(CARRY_MS):
            return False
        self.b.drop(to)
        return self._wait(REST_MS)

    def _expected(self, n):
        """The occupancy after the first n turns."""
        occ = bytearray(self.start)
        for frm, to in self.moves[:n]:
            occ[frm], occ[to] = 0, 1
        return occ

    # --- after a cut -------------------------------------------------------------------------
    def _cut(self):
        """The power went: count it, bring it back, let the hands recover. Returns the
        turns of the game the board plays on."""
        self.cuts += 1
        self.pending = None
        self.log("cut %d (%d flash operations so far)" % (self.cuts, self.ops))
        self._count_ops()
        self.last_cut = self.b.pico.storage()
        try:
            held, _ = self._saved(self.last_cut)
        except Exception as e:             # noqa: BLE001 - the board will say if it can
            held = None                    # read it: keep it for a person to look at
            self.unreadable += 1
            path = self.keep("unreadable-cut%d" % self.cuts)
            self.log("  littlefs-python cannot read game.txt there (%s): %s" % (e, path))
        self.b.pico.power_on()
        self.b.boot(self.b.occ)
        if self.rnd.random() < 0.5:
            self._arm(True)                # and again while it recovers
        return held

    def _recover(self, held, hands):
        """The board is back after a cut: the hands resume the game and put the board to
        the saved game's position. held: the turns game.txt had at the cut; hands: the
        turns the hands had played. Returns the turns the game now has."""
        for _ in range(20):
            if not self._powered():
                held = self._cut()
                continue
            screen = self.b.screen()
            if screen[:1] == ["Saved game"] and "Resume game" in screen:
                self._tap("ok")
                continue
            turns, game = self._saved()
            if turns is None or game.over:
                raise SoakError("after cut %d the game is gone: %s" % (self.cuts, screen))
            if self.b.occ != self._expected(len(turns)):
                self._put_back(len(turns))
                self._wait(LOOK_MS)
                continue
            if screen[:1] and screen[0] in PLAYING:
                break
            if "Yes" in " ".join(screen):  # "all back?"
                self._tap("ok")
                continue
            self._wait(LOOK_MS)
        else:
            raise SoakError("after cut %d the board does not go on: %s" % (
                self.cuts, self.b.screen()))
        turns, _ = self._saved()
        if self.cuts < self.limit - 1:
            self._arm(True)                # behind the pace: another cut soon
        if turns != [self._text(i) for i in range(len(turns))]:
            raise SoakError("after cut %d the game is not the hands': %s" % (self.cuts, turns))
        # Lost: a turn game.txt held at the cut, or one the hands had finished before the
        # turn in progress (its save was done long before), that the game no longer has.
        kept = max(len(held) if held is not None else 0, hands - 1)
        self.lost += max(0, kept - len(turns))
        self.redone += max(0, hands - len(turns))
        return len(turns)

    def _text(self, i):
        from barragoon.notation import format_move
        frm, to = self.moves[i]
        return format_move(frm, to, 0)

    def _put_back(self, n):
        """Pieces back to the position after n turns (a turn in progress, or made and not
        saved, is undone by hand)."""
        want = self._expected(n)
        occ = self.b.occ
        for sq in range(63):
            if occ[sq] and not want[sq]:
                self.actions += 1
                self.b.lift(sq)
                self.b.wait(CARRY_MS)
        for sq in range(63):
            if want[sq] and not self.b.occ[sq]:
                self.actions += 1
                self.b.drop(sq)
                self.b.wait(CARRY_MS)

    # --- the whole soak ------------------------------------------------------------------------
    def run(self):
        t0 = time.time()
        self.b.boot(self.start)
        n = 0
        while n < len(self.moves):
            if self._turn(n):
                n += 1
                continue
            held = self._cut()
            n = self._recover(held, n + 1)
            self.log("  resumed at turn %d" % n)
        self._finish()
        self.b.wait(2000)                  # (the new game's save and events.txt done)
        files = self.b.files()
        self.records = files.get("records.txt", b"").decode()
        return self.figures(files, time.time() - t0)

    def _finish(self):
        """Agree a draw, leave the game for a new one (the record is written), through any
        cuts that come meanwhile."""
        self.limit = self.want_cuts
        for _ in range(40 + 4 * (self.want_cuts - self.cuts)):
            if not self._powered():
                self._cut()
                continue
            screen = self.b.screen()
            turns, game = self._saved()
            records = (self._file("records.txt") or b"").decode()
            if "(agree)" in records and screen[:1] == ["White to move"] and \
                    self.b.occ == self.start:
                return
            # (among the next few operations: the draw's save, the record and the new game's
            # save are all there are, and a cut armed beyond them would never come)
            self._arm(True)
            if screen[:1] == ["Saved game"] and "Resume game" in screen:
                self._tap("ok")
            elif screen[:1] and screen[0] in PLAYING and game is not None and not game.over:
                if self.b.occ != self._expected(len(turns)):
                    self._put_back(len(turns))
                    self._wait(REST_MS)
                    continue
                self._hold()                # the menu
                if self.b.screen()[:1] != ["Menu"]:
                    continue
                self._tap("down")
                self._tap("down")
                if "Offer draw" not in self.b.screen():
                    continue
                self._tap("ok")
                self._hold()                # accepted
            elif screen[:1] == ["Game over"]:
                self._tap("ok")             # a new game: the finished one is recorded
                self.b.wait(REST_MS)
            elif screen[:1] == ["Set up the board"] or self.b.occ != self.start and \
                    (turns is None or game is None or not turns):
                self.b.set_board(self.start)
                self.actions += 1
                self._wait(REST_MS)
            else:
                self._wait(REST_MS)
        raise SoakError("the finished game was not left for a new one: %s" % self.b.screen())

    def figures(self, files, seconds):
        from barragoon.game import Game
        from barragoon.record import parse_record
        from toolkit.record_file import split_records
        g = Game()
        for frm, to in self.moves:
            g.move(frm, to)
        g.agree_draw()
        played = g.turn_texts()
        games = [parse_record(t).turn_texts() for t in split_records(self.records)]
        err = files.get("error.log", b"")
        return {
            "turns": len(self.moves),
            "cuts": self.cuts,
            "cuts_survived": self.cuts,
            "turns_lost": self.lost,
            "turns_redone": self.redone,
            "games_recorded": len(games),
            "games_recorded_twice": sum(1 for i, g in enumerate(games) if g in games[:i]),
            "finished_game_in_records": games.count(played),
            "resets": len(self.b.pico.resets),
            "error_log_bytes": len(err),
            "flash_blocks_used_at_start": self.used,
            "flash_blocks": flashfs.BLOCK_COUNT,
            "storage_full_seen": "storage full" in self.b.console(),
            "not_loaded_seen": "not loaded" in self.b.console(),
            "cut_images_unreadable_on_the_host": self.unreadable,
            "players_actions": self.actions,
            "seconds": round(seconds, 1),
            "simulated_s": round(self.b.pico.t / 1000.0, 1),
        }


def verdict(f):
    """What is wrong with the figures ('' if nothing)."""
    bad = []
    if f["turns_lost"]:
        bad.append("%d turns lost" % f["turns_lost"])
    if f["games_recorded_twice"]:
        bad.append("%d games recorded twice" % f["games_recorded_twice"])
    if f["finished_game_in_records"] != 1 or f["games_recorded"] != 1:
        bad.append("records.txt holds %d games, the finished one %d times"
                   % (f["games_recorded"], f["finished_game_in_records"]))
    if f["resets"]:
        bad.append("%d resets" % f["resets"])
    if f["error_log_bytes"] > ERROR_LOG_MAX:
        bad.append("error.log %d bytes" % f["error_log_bytes"])
    if f["not_loaded_seen"]:
        bad.append("a saved game could not be loaded")
    return ", ".join(bad)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=150, help="turns of the game (150)")
    ap.add_argument("--cuts", type=int, default=200, help="power cuts at most (200)")
    ap.add_argument("--seed", type=int, default=1, help="where the cuts fall (1)")
    ap.add_argument("--full", type=int, default=95, help="percent of the flash in use (95)")
    ap.add_argument("--firmware", help="MicroPython UF2 (default: the stock one, see "
                    "tools/rp2040/pico.py)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("-v", "--verbose", action="store_true", help="say each cut as it comes")
    args = ap.parse_args(argv)
    if args.turns < 1 or args.cuts < 0 or not 0 <= args.full < 100:
        ap.error("--turns at least 1, --cuts at least 0, --full from 0 to 99")
    why = pico.missing(args.firmware)
    if why:
        print("soak_rp2040: " + why, file=sys.stderr)
        return 2
    soak = Soak(args.turns, args.cuts, args.seed, args.full, args.firmware,
                (lambda text: print(text, file=sys.stderr)) if args.verbose else None)
    try:
        f = soak.run()
    except (SoakError, pico.PicoError) as e:
        print("soak_rp2040: " + str(e).split("\n")[0], file=sys.stderr)
        if soak.last_cut is not None:
            print("soak_rp2040: the flash as cut %d left it: %s (boot it: "
                  "tools/rp2040 Pico(flash=...))" % (soak.cuts, soak.keep("last-cut")),
                  file=sys.stderr)
        print(soak.b.console()[-1500:], file=sys.stderr)
        return 1
    finally:
        soak.close()
    wrong = verdict(f)
    if args.json:
        print(json.dumps(f, sort_keys=True))
    else:
        print("%(turns)d turns, flash %(flash_blocks_used_at_start)d of %(flash_blocks)d "
              "blocks in use, %(seconds)s s" % f)
        print("cuts survived: %d" % f["cuts_survived"])
        print("turns lost: %d (turns in progress at a cut, played again: %d)"
              % (f["turns_lost"], f["turns_redone"]))
        print("games recorded twice: %d" % f["games_recorded_twice"])
        print("resets: %d, error.log: %d bytes" % (f["resets"], f["error_log_bytes"]))
        if wrong:
            print("WRONG: " + wrong)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
