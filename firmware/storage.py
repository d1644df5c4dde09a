# Saved game, finished-game records, settings and the error log on the board's flash.
#
# The game in progress is saved after every committed action as its game record (the rules
# core's notation), written to a temporary file, closed, then renamed over the old one. On
# LittleFS (the Pico's filesystem) the rename is atomic, so a power cut at any instant leaves
# either the previous save or the new one: at most the action in progress is lost.
#
# Files at the board's root (read them with `mpremote fs cat :records.txt`):
#   game.txt      the game in progress          game.tmp   a save being written
#   records.txt   every finished game, appended  settings.txt  brightness
#   error.log     the last unexpected errors (kept short)
import os

from barragoon.core import RulesError
from barragoon.record import write_record, parse_record

GAME = "game.txt"
TMP = "game.tmp"
RECORDS = "records.txt"
SETTINGS = "settings.txt"
ERRORS = "error.log"
ERROR_LOG_MAX = 4096


class Storage:
    def __init__(self, root="", fs=None):
        # fs: an object with open/rename/remove/stat like the os module and builtin open;
        # tests pass one that fails on purpose to simulate a power cut.
        self.root = root
        self.fs = fs if fs is not None else _Fs()
        self.problem = ""                  # why the saved game could not be loaded, if so

    def _path(self, name):
        return self.root + name

    def _write_atomic(self, name, text, game=None):
        # Write a temporary file, close it, rename it over the old one (atomic on LittleFS).
        fs = self.fs
        tmp = self._path(TMP if name == GAME else name + ".tmp")
        f = fs.open(tmp, "w")
        try:
            if game is not None:
                write_record(game, f.write)
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
    def save_game(self, game):
        self._write_atomic(GAME, None, game)

    def load_game(self):
        """The saved game, or None. A damaged file is kept aside as game.bad, never lost."""
        self.problem = ""
        text = self._read(GAME)
        if not text:
            return None
        try:
            return parse_record(text)
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

    # --- settings ------------------------------------------------------------------------
    def load_brightness(self, default):
        text = self._read(SETTINGS)
        if text:
            for line in text.split("\n"):
                if line.startswith("brightness="):
                    v = line[11:].strip()
                    if v.isdigit() and 5 <= int(v) <= 100:
                        return int(v)
        return default

    def save_brightness(self, value):
        self._write_atomic(SETTINGS, "brightness=%d\n" % value)

    # --- errors --------------------------------------------------------------------------
    def log_error(self, text):
        """Append to error.log, keeping only the newest part when it grows too long."""
        old = self._read(ERRORS) or ""
        new = (old + text)[-ERROR_LOG_MAX:]
        self._write_atomic(ERRORS, new)


class _Fs:
    # The real filesystem: builtin open plus os.rename/remove.
    def open(self, path, mode):
        return open(path, mode)

    def rename(self, a, b):
        os.rename(a, b)

    def remove(self, path):
        os.remove(path)
