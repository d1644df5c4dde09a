# Saved game, finished-game records, settings and the error log on the board's flash.
#
# The game in progress is saved after every committed action as its game record (the rules
# core's notation), written to a temporary file, closed, then renamed over the old one. On
# LittleFS (the Pico's filesystem) the rename is atomic, so a power cut at any instant leaves
# either the previous save or the new one: at most the action in progress is lost.
#
# A touch-move duty of the turn in progress is part of the save: an extra tag line before the
# record, [TouchMove "d2 d5"] (move d2, capture d5; see controller/judge.py), which
# barragoon.record.parse_record ignores as an unknown tag. With every save the flight
# recorder's events go to events.txt (recorder.py), also written atomically.
#
# Files at the board's root (read them with `mpremote fs cat :records.txt`):
#   game.txt      the game in progress          game.tmp   a save being written
#   records.txt   every finished game, appended  settings.txt  brightness, colour palette
#   events.txt    the last sensor/button events  error.log  the last unexpected errors
import os

from barragoon.core import RulesError
from barragoon.record import write_record, parse_record

GAME = "game.txt"
TMP = "game.tmp"
RECORDS = "records.txt"
SETTINGS = "settings.txt"
EVENTS = "events.txt"
TOUCH_TAG = "[TouchMove "
ERRORS = "error.log"
ERROR_LOG_MAX = 4096


class Storage:
    def __init__(self, root="", fs=None):
        # fs: an object with open/rename/remove/stat like the os module and builtin open;
        # tests pass one that fails on purpose to simulate a power cut.
        self.root = root
        self.fs = fs if fs is not None else _Fs()
        self.problem = ""                  # why the saved game could not be loaded, if so
        self.duties = ""                   # the loaded game's touch-move duties

    def _path(self, name):
        return self.root + name

    def _write_atomic(self, name, text, writer=None):
        # Write a temporary file, close it, rename it over the old one (atomic on LittleFS).
        # writer(write) writes the content line by line (no large string in the heap).
        fs = self.fs
        tmp = self._path(TMP if name == GAME else name + ".tmp")
        f = fs.open(tmp, "w")
        try:
            if writer is not None:
                writer(f.write)
            else:
                f.write(text)
        finally:
            f.close()
        fs.rename(tmp, self._path(name))

    def _read(self, name):
        try:
            f = self.fs.open(self._path(name), "r")
        except OSError:
            return None
        try:
            return f.read()
        finally:
            f.close()

    # --- the game in progress ------------------------------------------------------------
    def save_game(self, game, duties=""):
        """Save the game in progress with its touch-move duties (judge.duty_text())."""
        self._write_atomic(GAME, None, lambda write: game_text(game, duties, write))

    def load_game(self):
        """The saved game, or None (its duties in self.duties). A damaged file is kept aside
        as game.bad, never lost."""
        self.problem = ""
        self.duties = ""
        text = self._read(GAME)
        if not text:
            return None
        try:
            game = parse_record(text)
            self.duties = duties_of(text)
            return game
        except RulesError as e:
            self.problem = str(e)
            try:
                self.fs.rename(self._path(GAME), self._path("game.bad"))
            except OSError:
                pass
            return None

    def clear_game(self):
        try:
            self.fs.remove(self._path(GAME))
        except OSError:
            pass

    def finish_game(self, game):
        """Append the finished game to the records, then forget it as the game in progress."""
        f = self.fs.open(self._path(RECORDS), "a")
        try:
            write_record(game, f.write)
            f.write("\n")
        finally:
            f.close()
        self.clear_game()

    # --- the flight recorder --------------------------------------------------------------
    def save_events(self, recorder, now):
        self._write_atomic(EVENTS, None, lambda write: recorder.write(write, now))

    # --- settings ------------------------------------------------------------------------
    def _setting(self, key, lo, hi, default):
        text = self._read(SETTINGS)
        if text:
            for line in text.split("\n"):
                if line.startswith(key + "="):
                    v = line[len(key) + 1:].strip()
                    if v.isdigit() and lo <= int(v) <= hi:
                        return int(v)
        return default

    def load_brightness(self, default):
        return self._setting("brightness", 5, 100, default)

    def load_palette(self, default=0):
        return self._setting("palette", 0, 1, default)

    def save_settings(self, brightness, palette=0):
        self._write_atomic(SETTINGS, "brightness=%d\npalette=%d\n" % (brightness, palette))

    def save_brightness(self, value):
        self.save_settings(value, self.load_palette())

    # --- errors --------------------------------------------------------------------------
    def log_error(self, text):
        """Append to error.log, keeping only the newest part when it grows too long."""
        old = self._read(ERRORS) or ""
        new = (old + text)[-ERROR_LOG_MAX:]
        self._write_atomic(ERRORS, new)


def game_text(game, duties, write):
    """What game.txt holds: the duties tag (if any), then the game record."""
    if duties:
        write('%s"%s"]\n' % (TOUCH_TAG, duties))
    write_record(game, write)


def duties_of(text):
    i = text.find(TOUCH_TAG)
    if i < 0:
        return ""
    j = text.find('"', i)
    k = text.find('"', j + 1)
    return text[j + 1:k] if 0 <= j < k else ""


class _Fs:
    # The real filesystem: builtin open plus os.rename/remove.
    def open(self, path, mode):
        return open(path, mode)

    def rename(self, a, b):
        os.rename(a, b)

    def remove(self, path):
        os.remove(path)
