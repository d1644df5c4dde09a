# Saved game, finished-game records, settings and the error log on the board's flash.
#
# The game in progress is saved after every committed action as its game record (the rules
# core's notation; its turn lines kept formatted between saves, so a save formats only the
# new turn). The text is made first, then written so that a power cut at any instant leaves
# either the previous save or the new one (at most the action in progress is lost):
#   - on LittleFS (the Pico's file system) straight over the old file: littlefs is
#     copy-on-write, and opening an existing file for writing truncates it only in RAM; the
#     new contents replace the old ones whole when the file is closed, and a write that
#     failed (a full flash) is never committed. One metadata commit instead of three: a
#     save takes about 3 ms of littlefs instead of 13 on the RP2040;
#   - elsewhere (the unix port, CPython: a file is cut short as it is opened) to a temporary
#     file, closed, then renamed over the old one.
#
# A touch-move duty of the turn in progress is part of the save: an extra tag line before the
# record, [TouchMove "d2 d5"] (move d2, capture d5; see controller/judge.py), which
# barragoon.record.parse_record ignores as an unknown tag. So is the game clock's
# [Clock "300000 280000 5000 w"] (controller/clock.py: White's and Brown's remaining ms, the
# increment, whose clock runs), in game.txt and in records.txt, and in a game against the board
# [Opponent "Brown 2"] (the board's side and strength; controller/opponent.py), kept on the
# Game as game.opponent. With every save the flight
# recorder's events go to log/events.txt (recorder.py), also written atomically: the board
# writes it a few lines per loop step (begin_events, write_events) and renames it when
# complete. It has a directory of its own to keep the root's metadata small (_open_events).
#
# Files at the board's root (read them with `mpremote fs cat :records.txt`):
#   game.txt      the game in progress          game.tmp   a save being written (not on
#                                                           littlefs: see above)
#   records.txt   finished games, appended       records.old  the records before them
#   settings.txt  brightness, LED palette        error.log  the last unexpected errors
#   log/events.txt  the last sensor/button events (the flight recorder; log/events.txt.tmp
#                 while it is being written; older firmware kept it at the root)
#   game.bad      a saved game that could not be loaded, kept for a person to look at
#
# The file system can fill up (the flash holds 1.4 MB): records.txt is rotated to records.old
# when it passes RECORDS_MAX, so records never fill it; if it is full all the same, a save
# fails cleanly (`full` is set, the previous save stays, the game goes on in memory) instead
# of raising in the middle of play.
import os

from barragoon.core import RulesError
from barragoon.record import write_record, parse_record, RecordText

GAME = "game.txt"
TMP = "game.tmp"
RECORDS = "records.txt"
SETTINGS = "settings.txt"
LOG_DIR = "log"                # the flight recorder's directory (see _open_events)
EVENTS = LOG_DIR + "/events.txt"
TOUCH_TAG = "[TouchMove "
CLOCK_TAG = "[Clock "
OPPONENT_TAG = "[Opponent "     # the board plays a side: [Opponent "Brown 2"] (side, strength)
ERRORS = "error.log"
RECORDS_OLD = "records.old"
BAD = "game.bad"
ERROR_LOG_MAX = 4096
RECORDS_MAX = 256 * 1024       # two of these (records.txt + records.old) stay far from full
ENOSPC = 28
ENOENT = 2
OLD_EVENTS = "events.txt"      # where firmware before log/ kept it
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
        self.duties = ""                   # the loaded game's touch-move duties
        self.clock = ""                    # ... and its game clock's tag text
        self.full = False                  # the last write found the file system full
        self.events_open = None            # events.txt.tmp while it is being written
        self.events_done = False           # ... all written: to close and rename
        self.lines = RecordText()          # the saved game's turn lines, kept formatted

    def _path(self, name):
        return self.root + name

    def _write_atomic(self, name, text, writer=None):
        # Replace the file whole (see the top). writer(write) makes the content in parts
        # (no one large string in the heap); they are all made before the file is opened, so
        # that a failure making them (MemoryError) cannot leave a file half written.
        fs = self.fs
        parts = [text]
        if writer is not None:
            parts = []
            writer(parts.append)
        in_place = getattr(fs, "in_place", False)
        tmp = self._path(name if in_place else TMP if name == GAME else name + ".tmp")
        try:
            f = fs.open(tmp, "w")
            try:
                for p in parts:
                    f.write(p)
            finally:
                f.close()                  # (littlefs: a failed write is not committed)
            if not in_place:
                fs.rename(tmp, self._path(name))
        except OSError as e:
            if not _is_full(e):
                raise
            self.full = True               # the old file is untouched; free the partial one
            if not in_place:
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
    def save_game(self, game, duties="", clock=""):
        """Save the game in progress with its touch-move duties (judge.duty_text()) and its
        clock (the tag text, "" for none). True when saved; False when the file system is
        full (the previous save stays)."""
        return self._write_atomic(GAME, None,
                                  lambda write: game_text(game, duties, write, clock,
                                                          self.lines))

    def load_game(self):
        """The saved game, or None (its touch-move duties in `duties`). Whatever goes wrong
        loading it (bad bytes, not UTF-8, a record the rules refuse, too big for the heap),
        the file is kept aside as game.bad, never lost, `problem` says why, and the board
        starts cleanly."""
        self.problem = ""
        self.duties = ""
        self.clock = ""
        try:
            text = self._read(GAME)
            if not text:
                return None
            game = parse_record(text)
            self.duties = duties_of(text)
            self.clock = duties_of(text, CLOCK_TAG)
            game.opponent = duties_of(text, OPPONENT_TAG)
        except Exception as e:             # noqa: BLE001 - any failure: keep the file aside
            self.problem = (str(e) if isinstance(e, RulesError) else
                            "%s %s" % (type(e).__name__, e)).strip()
            try:
                self.fs.rename(self._path(GAME), self._path(BAD))   # replaces an older one
            except OSError:
                pass
            return None
        try:
            # Its turn lines formatted now, at boot: else the first save after a power-on
            # would (100 ms at 80 turns on the RP2040), in the step that commits a move.
            self.lines.write(game, _drop)
        except MemoryError:                # (that save formats them then)
            pass
        return game

    def clear_game(self):
        self._remove(self._path(GAME))

    def finish_game(self, game, clock=""):
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
                if clock:
                    f.write('%s"%s"]\n' % (CLOCK_TAG, clock))
                opp = getattr(game, "opponent", "")
                if opp:                    # a game against the board says so in the records
                    f.write('%s"%s"]\n' % (OPPONENT_TAG, opp))
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

    # --- the flight recorder --------------------------------------------------------------
    def save_events(self, recorder, now):
        """events.txt at once (tools, tests)."""
        self.begin_events(recorder, now)
        while self.events_open is not None:
            self.write_events(recorder, 64)
        return not self.full

    def begin_events(self, recorder, now):
        """Start events.txt anew with the events so far; write_events() then adds a few
        lines per loop step and finally closes it and renames it over the old one (atomic
        as every save: until then the previous events.txt stays)."""
        self._end_events(False)            # an unfinished one is replaced
        try:
            self.events_open = self._open_events()
        except OSError as e:
            if not _is_full(e):
                raise
            self.full = True
            return
        recorder.open_file(now)

    def _open_events(self):
        # events.txt lives in a directory of its own: littlefs commits every create, close
        # and rename to the metadata of the file's directory, and when that fills up it
        # copies the whole directory (compaction). The root holds every firmware file, so a
        # compaction there takes ~40 ms of CPU; at the root, events.txt added three root
        # commits to each save's one (game.txt) and its longest step took 50 ms, now 24.
        tmp = self._path(EVENTS + ".tmp")
        try:
            return self.fs.open(tmp, "w")
        except OSError as e:
            if not e.args or e.args[0] != ENOENT:
                raise
        # The first time: firmware before log/ kept events.txt at the root; dropped first
        # (a cut before mkdir: done again next time), it is the flight recorder, not a game.
        self._remove(self._path(OLD_EVENTS))
        self._remove(self._path(OLD_EVENTS + ".tmp"))
        self.fs.mkdir(self._path(LOG_DIR))
        return self.fs.open(tmp, "w")

    def write_events(self, recorder, lines):
        """Write up to `lines` more events; True when events.txt is complete (or given up:
        the file system is full). The call after the last lines closes and renames it (a
        few ms of littlefs of its own)."""
        f = self.events_open
        if f is None:
            return True
        if self.events_done:
            return self._end_events(True)
        try:
            self.events_done = recorder.write_some(f.write, lines)
        except OSError as e:
            if not _is_full(e):
                raise
            self.full = True
            self._end_events(False)
            return True
        return False

    def _end_events(self, keep):
        f = self.events_open
        if f is None:
            return True
        self.events_open = None
        self.events_done = False
        tmp = self._path(EVENTS + ".tmp")
        try:
            f.close()
            if keep:
                self.fs.rename(tmp, self._path(EVENTS))
                return True
        except OSError as e:
            if not _is_full(e):
                raise
            self.full = True
        self._remove(tmp)
        return True

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
        return self._write_atomic(SETTINGS, "brightness=%d\npalette=%d\n"
                                  % (brightness, palette))

    def save_brightness(self, value):
        return self.save_settings(value, self.load_palette())

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


def _drop(text):
    pass


def _is_full(e):
    return e.args and e.args[0] in _FULL


def game_text(game, duties, write, clock="", lines=None):
    """What game.txt holds: the duties and clock tags (if any), then the game record (its
    turn lines from `lines`, a RecordText, when given)."""
    if duties:
        write('%s"%s"]\n' % (TOUCH_TAG, duties))
    if clock:
        write('%s"%s"]\n' % (CLOCK_TAG, clock))
    opp = getattr(game, "opponent", "")
    if opp:
        write('%s"%s"]\n' % (OPPONENT_TAG, opp))
    write_record(game, write, lines)


def duties_of(text, tag=TOUCH_TAG):
    """The value of the tag line (TOUCH_TAG by default) in text, "" if it has none."""
    i = text.find(tag)
    if i < 0:
        return ""
    j = text.find('"', i)
    k = text.find('"', j + 1)
    return text[j + 1:k] if 0 <= j < k else ""


class _Fs:
    # The real filesystem: builtin open plus os.rename/remove. in_place: it is littlefs, so
    # a file opened for writing keeps its old contents until it is closed (see the top).
    def __init__(self):
        self.in_place = _littlefs()

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, a, b):
        os.rename(a, b)

    def remove(self, path):
        os.remove(path)

    def mkdir(self, path):
        os.mkdir(path)

    def stat(self, path):
        return os.stat(path)


def _littlefs():
    try:
        import vfs                         # MicroPython: the file system mounted at /
        for fs, path in vfs.mount():
            if path == "/":
                return type(fs).__name__.startswith("VfsLfs")
    except Exception:                      # noqa: BLE001 - CPython, or no vfs module
        pass
    return False
