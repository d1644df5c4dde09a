# Saved game, finished-game records, settings and the error log on the board's flash.
#
# The game in progress is saved after every committed action as its game record (the rules
# core's notation), written to a temporary file, closed, then renamed over the old one. On
# LittleFS (the Pico's filesystem) the rename is atomic, so a power cut at any instant leaves
# either the previous save or the new one: at most the action in progress is lost.
#
# Files at the board's root (read them with `mpremote fs cat :records.txt`):
#   game.txt      the game in progress          game.tmp   a save being written
#   records.txt   finished games, appended       records.old  the records before them
#   settings.txt  brightness                     error.log  the last unexpected errors
#   game.bad      a saved game that could not be loaded, kept for a person to look at
#
# The file system can fill up (the flash holds 1.4 MB): records.txt is rotated to records.old
# when it passes RECORDS_MAX, so records never fill it; if it is full all the same, a save
# fails cleanly (`full` is set, the previous save stays, the game goes on in memory) instead
# of raising in the middle of play.
import os

from barragoon.core import RulesError
from barragoon.record import write_record, parse_record

GAME = "game.txt"
TMP = "game.tmp"
RECORDS = "records.txt"
SETTINGS = "settings.txt"
ERRORS = "error.log"
RECORDS_OLD = "records.old"
BAD = "game.bad"
ERROR_LOG_MAX = 4096
RECORDS_MAX = 256 * 1024       # two of these (records.txt + records.old) stay far from full
ENOSPC = 28
# littlefs on a full flash also fails creating a file with LFS_ERR_NAMETOOLONG (36): the
# directory's metadata block has no room for the entry and no free block to grow into.
_FULL = (ENOSPC, 36)


class Storage:
    def __init__(self, root="", fs=None):
        # fs: an object with open/rename/remove/stat like the os module and builtin open;
        # tests pass one that fails on purpose to simulate a power cut.
        self.root = root
        self.fs = fs if fs is not None else _Fs()
        self.problem = ""                  # why the saved game could not be loaded, if so
        self.full = False                  # the last write found the file system full

    def _path(self, name):
        return self.root + name

    def _write_atomic(self, name, text, game=None):
        # Write a temporary file, close it, rename it over the old one (atomic on LittleFS).
        fs = self.fs
        tmp = self._path(TMP if name == GAME else name + ".tmp")
        try:
            f = fs.open(tmp, "w")
            try:
                if game is not None:
                    write_record(game, f.write)
                else:
                    f.write(text)
            finally:
                f.close()
            fs.rename(tmp, self._path(name))
        except OSError as e:
            if not _is_full(e):
                raise
            self.full = True               # the old file is untouched; free the partial one
            self._remove(tmp)
            return False
        self.full = False
        return True

    def _remove(self, name_or_path):
        try:
            self.fs.remove(name_or_path)
        except OSError:
            pass

    def _size(self, name):
        stat = getattr(self.fs, "stat", None)
        try:
            return stat(self._path(name))[6] if stat else 0
        except OSError:
            return 0

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
        """True when saved; False when the file system is full (the previous save stays)."""
        return self._write_atomic(GAME, None, game)

    def load_game(self):
        """The saved game, or None. Whatever goes wrong loading it (bad bytes, not UTF-8, a
        record the rules refuse, too big for the heap), the file is kept aside as game.bad,
        never lost, `problem` says why, and the board starts cleanly."""
        self.problem = ""
        try:
            text = self._read(GAME)
            if not text:
                return None
            return parse_record(text)
        except Exception as e:             # noqa: BLE001 - any failure: keep the file aside
            self.problem = (str(e) if isinstance(e, RulesError) else
                            "%s %s" % (type(e).__name__, e)).strip()
            try:
                self.fs.rename(self._path(GAME), self._path(BAD))   # replaces an older one
            except OSError:
                pass
            return None

    def clear_game(self):
        self._remove(self._path(GAME))

    def finish_game(self, game):
        """Append the finished game to the records, then forget it as the game in progress.
        records.txt becomes records.old (replacing it) once it passes RECORDS_MAX. If the
        file system is full, the finished game stays in game.txt (not lost) and `full` is
        set."""
        if self._size(RECORDS) > RECORDS_MAX:
            self._remove(self._path(RECORDS_OLD))
            self.fs.rename(self._path(RECORDS), self._path(RECORDS_OLD))
        try:
            f = self.fs.open(self._path(RECORDS), "a")
            try:
                write_record(game, f.write)
                f.write("\n")
            finally:
                f.close()
        except OSError as e:
            if not _is_full(e):
                raise
            self.full = True
            return False
        self.clear_game()
        return True

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
        """Append to error.log, keeping only the newest part when it grows too long. Never
        raises: a log that cannot be written must not stop the board."""
        try:
            old = self._read(ERRORS) or ""
            new = (old + text)[-ERROR_LOG_MAX:]
            return self._write_atomic(ERRORS, new)
        except Exception:                  # noqa: BLE001
            return False


def _is_full(e):
    return e.args and e.args[0] in _FULL


class _Fs:
    # The real filesystem: builtin open plus os.rename/remove.
    def open(self, path, mode):
        return open(path, mode)

    def rename(self, a, b):
        os.rename(a, b)

    def remove(self, path):
        os.remove(path)

    def stat(self, path):
        return os.stat(path)
