# Saved game, finished-game records, settings, the flight recorder's file and the error log on
# the board's flash; and the save sequence that the board runs after every committed action.
#
# The game in progress is saved after every committed action as its game record (the rules
# core's notation; its turn lines kept formatted between saves, so a save formats only the
# new turn). The text is made first, then written so that a power cut at any instant leaves
# either the previous save or the new one (at most the action in progress is lost):
#   - on LittleFS (the Pico's file system) straight over the old file: littlefs is
#     copy-on-write, and opening an existing file for writing truncates it only in RAM; the
#     new contents replace the old ones whole when the file is closed, and a write that
#     failed (a full flash) is never committed. One metadata commit instead of three: a
#     save takes about 3 ms of littlefs instead of 13 on the RP2040. Only the first save of
#     a game creates the file: that one goes to a temporary file renamed into place, since
#     littlefs commits a created file at once, empty;
#   - elsewhere (the unix port, CPython: a file is cut short as it is opened) to a temporary
#     file, closed, then renamed over the old one.
# game.txt has a directory of its own, saved/: littlefs commits every create, close and
# rename to the metadata of the file's directory, and when that fills up it copies the whole
# directory (compaction). The root holds every firmware file: a compaction there took the
# step that commits a move from 25 to 50 ms on the RP2040. Firmware before saved/ kept
# game.txt at the root; the first boot moves it (_migrate: one rename, atomic on littlefs).
#
# Tag lines before the record, which barragoon.record.parse_record ignores as unknown tags:
# a touch-move duty of the turn in progress, [TouchMove "d2 d5"] (move d2, capture d5; see
# controller/judge.py); the game clock, [Clock "300000 280000 5000 w"] (controller/clock.py:
# White's and Brown's remaining ms, the increment, whose clock runs), in game.txt and in
# records.txt; in a game against the board [Opponent "Brown 2"] (the board's side and strength;
# controller/opponent.py), kept on the Game as game.opponent; and while a finished game is
# being appended to records.txt, [Recorded "n"] (see finish_game).
#
# The save sequence has one owner, this module: save() writes game.txt in the step that
# commits the action; work() then does one part per loop step of what follows: the flight
# recorder's events (recorder.py) go to log/events.txt, also atomically (written a few lines
# per step to log/events.txt.tmp, renamed when complete). The board's app.py only calls
# save(), work() and finish_game().
#
# Files (read them with `mpremote fs cat :records.txt`):
#   saved/game.txt  the game in progress        saved/game.tmp  a save being written (see above)
#   saved/game.bad  a saved game that could not be loaded (or whose clock or opponent tag
#                   could not be read), kept for a person to look at
#   records.txt   finished games, appended       records.old  the records before them
#   settings.txt  brightness, LED palette, language   error.log  the last unexpected errors
#   log/events.txt  the last sensor/button events (the flight recorder; log/events.txt.tmp
#                 while it is being written; older firmware kept it at the root)
#
# The file system can fill up (the flash holds 1.4 MB): records.txt is rotated to records.old
# when it passes RECORDS_MAX, so records never fill it; if it is full all the same, a save
# fails cleanly (`full` is set, the previous save stays, the game goes on in memory) instead
# of raising in the middle of play, and a finished game that could not be recorded stays in
# game.txt until it is (see finish_game).
import os

from barragoon.core import RulesError
from barragoon.record import write_record, parse_record, RecordText

SAVED = "saved"                # the saved game's directory (see the top)
GAME = SAVED + "/game.txt"
TMP = SAVED + "/game.tmp"
BAD = SAVED + "/game.bad"
OLD_GAME = "game.txt"          # where firmware before saved/ kept it
RECORDS = "records.txt"
SETTINGS = "settings.txt"
LOG_DIR = "log"                # the flight recorder's directory (see _open_events)
EVENTS = LOG_DIR + "/events.txt"
TOUCH_TAG = "[TouchMove "
CLOCK_TAG = "[Clock "
OPPONENT_TAG = "[Opponent "     # the board plays a side: [Opponent "Brown 2"] (side, strength)
RECORDED_TAG = "[Recorded "     # the finished game goes to records.txt at this size of it
ERRORS = "error.log"
RECORDS_OLD = "records.old"
ERROR_LOG_MAX = 4096
RECORDS_MAX = 256 * 1024       # two of these (records.txt + records.old) stay far from full
EMPTY = "empty file"           # Storage.problem of an empty game.txt (nothing to keep)
ENOSPC = 28
ENOENT = 2
OLD_EVENTS = "events.txt"      # where firmware before log/ kept it
# littlefs on a full flash also fails creating a file with LFS_ERR_NAMETOOLONG (36): the
# directory's metadata block has no room for the entry and no free block to grow into.
_FULL = (ENOSPC, 36)


class Storage:
    def __init__(self, root="", fs=None, recorder=None):
        # fs: an object with open/rename/remove/mkdir/stat like the os module and builtin
        # open; tests pass one that fails on purpose to simulate a power cut or a full flash.
        # recorder: the flight recorder whose events follow every save (save(), work()).
        self.root = root
        self.fs = fs if fs is not None else _Fs()
        self.recorder = recorder
        self.problem = ""                  # why the saved game could not be loaded, if so
        self.kept = False                  # ... and whether it was kept aside as saved/game.bad
        self.duties = ""                   # the loaded game's touch-move duties
        self.clock = ""                    # ... and its game clock's tag text
        self.full = False                  # the last write found the file system full
        self.events_due = False            # a save is done: events.txt to begin next
        self.events_open = None            # events.txt.tmp while it is being written
        self.events_done = False           # ... all written: to close and rename
        self.lines = RecordText()          # the saved game's turn lines, kept formatted
        self.unrecorded = None             # (game, clock) finished, not yet in records.txt
        self.recorded_at = None            # (game, n): its [Recorded "n"] tag is in game.txt
        self._game_file = None             # game.txt exists (None: not known yet)
        self._parts = _Parts()             # a save's text, made before the file is opened

    def _path(self, name):
        return self.root + name

    def _write_atomic(self, name, text, writer=None, create=False):
        # Replace the file whole (see the top). writer(write) makes the content in parts
        # (no one large string in the heap); they are all made before the file is opened, so
        # that a failure making them (MemoryError) cannot leave a file half written. create:
        # the file does not exist yet (littlefs would commit it empty at once).
        parts = self._parts
        try:
            if writer is None:
                parts.add(text)
            else:
                writer(parts.add)
            ok = self._write_parts(name, parts, create)
        finally:
            parts.drop()                   # (the texts go with the save)
        self.full = not ok
        return ok

    def _write_parts(self, name, parts, create):
        fs = self.fs
        in_place = getattr(fs, "in_place", False) and not create
        tmp = self._path(name if in_place else TMP if name == GAME else name + ".tmp")
        try:
            try:
                f = fs.open(tmp, "w")
            except OSError as e:
                if not e.args or e.args[0] != ENOENT or "/" not in name:
                    raise
                fs.mkdir(self._path(name[:name.rindex("/")]))   # its directory, once
                f = fs.open(tmp, "w")
            try:
                items = parts.items
                for i in range(parts.n):
                    f.write(items[i])
            finally:
                f.close()                  # (littlefs: a failed write is not committed)
            if not in_place:
                fs.rename(tmp, self._path(name))
        except OSError as e:
            if not _is_full(e):
                raise
            if not in_place:               # the old file is untouched; free the partial one
                self._remove(tmp)
            return False
        return True

    def _remove(self, name_or_path):
        try:
            self.fs.remove(name_or_path)
        except OSError:
            pass

    def _stat(self, name):
        # os.stat of the file, or None when it does not exist (other errors raise)
        try:
            return self.fs.stat(self._path(name))
        except OSError as e:
            if e.args and e.args[0] == ENOENT:
                return None
            raise

    def _size(self, name):
        st = self._stat(name)
        return st[6] if st is not None else 0

    def _read(self, name):
        # The file's text, or None when there is no such file (other errors raise).
        try:
            f = self.fs.open(self._path(name), "r")
        except OSError as e:
            if e.args and e.args[0] == ENOENT:
                return None
            raise
        try:
            return f.read()
        finally:
            f.close()

    # --- the game in progress ------------------------------------------------------------
    def save_game(self, game, duties="", clock="", recorded=-1):
        """Save the game in progress with its touch-move duties (judge.duty_text()) and its
        clock (the tag text, "" for none). True when saved; False when the file system is
        full (the previous save stays). While a finished game waits to be recorded (see
        finish_game) another game is saved only once it is: game.txt holds it."""
        u = self.unrecorded
        if u is not None and u[0] is not game and not self.finish_game(u[0], u[1]):
            self.full = True
            return False
        if self._game_file is None:
            self._game_file = self._stat(GAME) is not None
        ok = self._write_atomic(GAME, None,
                                lambda write: game_text(game, duties, write, clock,
                                                        self.lines, recorded),
                                not self._game_file)
        if ok:
            self._game_file = True
        return ok

    def load_game(self):
        """The saved game, or None (its touch-move duties in `duties`). Whatever goes wrong
        loading it (unreadable, bad bytes, not UTF-8, a record the rules refuse, too big for
        the heap), the file is kept aside as saved/game.bad (`kept`), never lost, `problem`
        says why, and the board starts cleanly; an empty file (nothing to keep) is removed,
        and `problem` says so too."""
        self.problem = ""
        self.kept = False
        self.duties = ""
        self.clock = ""
        self.recorded_at = None
        try:
            self._migrate()
        except Exception as e:             # noqa: BLE001 - it stays at the root, untouched
            self.problem = "game.txt not moved: %s %s" % (type(e).__name__, e)
        try:
            text = self._read(GAME)
            self._game_file = text is not None
            if text is None:
                return None
            if not text:
                self.problem = EMPTY
                self.clear_game()
                return None
            game = parse_record(text)
            self.duties = duties_of(text)
            self.clock = duties_of(text, CLOCK_TAG)
            game.opponent = duties_of(text, OPPONENT_TAG)
            at = duties_of(text, RECORDED_TAG)
            if at:
                if not at.isdigit() or not (game.over or game.unfinished):
                    raise RulesError("bad Recorded tag: %r" % at)
                self.recorded_at = (game, int(at))
        except Exception as e:             # noqa: BLE001 - any failure: keep the file aside
            self.problem = (str(e) if isinstance(e, RulesError) else
                            "%s %s" % (type(e).__name__, e)).strip()
            self.keep_aside(False)
            return None
        try:
            # Its turn lines formatted now, at boot: else the first save after a power-on
            # would (100 ms at 80 turns on the RP2040), in the step that commits a move.
            self.lines.write(game, _drop)
        except MemoryError:                # (that save formats them then)
            pass
        return game

    def keep_aside(self, copy=True):
        """Keep game.txt for a person to look at, as saved/game.bad (replacing an older
        one): moved (a game that could not be loaded), or copied (copy: the game was loaded
        but a tag of it could not be used). True when kept."""
        try:
            if copy:
                text = self._read(GAME)
                self.kept = text is not None and self._write_atomic(BAD, text)
            else:
                self.fs.rename(self._path(GAME), self._path(BAD))
                self._game_file = False
                self.kept = True
        except OSError:
            pass
        return self.kept

    def _migrate(self):
        # Firmware before saved/ kept game.txt at the root: copied into saved/ (written as
        # every first save: complete or not at all), then removed from the root. A power cut
        # before the copy is complete leaves the root's (the next boot copies it again), one
        # after it two equal files (the next boot removes the root's). Not one rename between
        # the two directories: littlefs makes that in two commits, and a cut between them
        # leaves the root's entry after game.txt (main.py) unreadable until the next write,
        # and the board does not start. A saved/game.txt that differs (firmware before
        # saved/ was put back and played meanwhile: its game is the newer one) is kept aside
        # as saved/game.bad.
        text = self._read(OLD_GAME)
        if text is None:
            return
        saved = self._read(GAME)
        if saved != text:
            if saved is not None:
                self.keep_aside(False)
            if not self._write_atomic(GAME, text, None, True):
                return                     # full: the root's stays, tried at the next boot
        self._remove(self._path(OLD_GAME))

    def clear_game(self):
        self._remove(self._path(GAME))
        self._game_file = False

    def finish_game(self, game, clock=""):
        """Append the finished game to the records, then forget it as the game in progress.
        True when done. Never twice: game.txt first gets the tag [Recorded "n"], n the size
        of records.txt before the append (littlefs commits an append whole, at close); a
        game.txt with that tag whose records.txt has grown past n (a power cut came before
        it was removed) is only removed. records.txt becomes records.old (replacing it) once
        it passes RECORDS_MAX. If the file system is full, the finished game stays in
        game.txt (not lost), `full` is set, and it is tried again before any other game is
        saved (save_game)."""
        self.unrecorded = (game, clock)
        try:
            at = self.recorded_at
            if at is not None and at[0] is game:
                n = at[1]
            else:
                if self._size(RECORDS) > RECORDS_MAX:   # (a rename replaces records.old)
                    self.fs.rename(self._path(RECORDS), self._path(RECORDS_OLD))
                n = self._size(RECORDS)
                self.unrecorded = None     # (save_game would wait for it)
                ok = self.save_game(game, "", clock, n)
                self.unrecorded = (game, clock)
                if not ok:
                    return False
                self.recorded_at = (game, n)
            if self._size(RECORDS) <= n:
                f = self.fs.open(self._path(RECORDS), "a")
                try:
                    game_text(game, "", f.write, clock)
                    f.write("\n")
                finally:
                    f.close()
        except OSError as e:
            if not _is_full(e):
                raise
            self.full = True
            return False
        self.unrecorded = self.recorded_at = None
        self.clear_game()
        return True

    # --- the save sequence -----------------------------------------------------------------
    def save(self, game, duties="", clock=""):
        """The board's save after a committed action: game.txt now (save_game), then
        the flight recorder's events.txt, a part at each call of work()."""
        ok = self.save_game(game, duties, clock)
        self.events_due = self.recorder is not None
        return ok

    def busy(self):
        """Parts of the save sequence are still to do (work())."""
        return self.events_due or self.events_open is not None

    def work(self, t, lines):
        """The next part of what follows a save: begin events.txt (t: now), write `lines`
        more of its lines, or close and rename it. True when that was the last part."""
        if self.events_due:
            self.events_due = False
            self.begin_events(t)
            return self.events_open is None
        return self.write_events(lines)

    # --- the flight recorder --------------------------------------------------------------
    def save_events(self, now):
        """events.txt at once (tools, tests)."""
        self.begin_events(now)
        while self.events_open is not None:
            self.write_events(64)
        return not self.full

    def begin_events(self, now):
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
        self.recorder.open_file(now)

    def _open_events(self):
        # events.txt lives in a directory of its own (see saved/ at the top): at the root,
        # events.txt added three root commits to each save's one and its longest step took
        # 50 ms, now 24.
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

    def write_events(self, lines):
        """Write up to `lines` more events; True when events.txt is complete (or given up:
        the file system is full). The call after the last lines closes and renames it (a
        few ms of littlefs of its own)."""
        f = self.events_open
        if f is None:
            return True
        if self.events_done:
            return self._end_events(True)
        try:
            self.events_done = self.recorder.write_some(f.write, lines)
        except OSError as e:
            if not _is_full(e):
                raise
            self.full = True
            self._end_events(False)
            return True
        return False

    def _end_events(self, keep):
        # Close events.txt.tmp; keep: rename it over events.txt (it is complete), else drop
        # it (abandoned: the good events.txt stays).
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
    def _settings_text(self):
        try:
            return self._read(SETTINGS)
        except OSError:                    # unreadable: the defaults (nothing to lose)
            return None

    def _saved(self, key, text=0):
        # The text after "key=" in the settings file (or in text, read from it before), or None.
        if text == 0:
            text = self._settings_text()
        if text:
            for line in text.split("\n"):
                if line.startswith(key + "="):
                    return line[len(key) + 1:].strip()
        return None

    def _setting(self, key, lo, hi, default, text=0):
        v = self._saved(key, text)
        if v is not None and v.isdigit() and lo <= int(v) <= hi:
            return int(v)
        return default

    def load_brightness(self, default):
        return self._setting("brightness", 5, 100, default)

    def load_palette(self, default=0):
        return self._setting("palette", 0, 1, default)

    def load_language(self, default, known, text=0):
        """The saved language code if it is one of known, else default."""
        v = self._saved("language", text)
        return v if v in known else default

    def load_settings(self, brightness, palette, language, languages):
        """(brightness, palette, language) as saved, each its default where it is not: the
        file read once (power-on reads it before the first LED frame)."""
        text = self._settings_text()
        return (self._setting("brightness", 5, 100, brightness, text),
                self._setting("palette", 0, 1, palette, text),
                self.load_language(language, languages, text))

    def save_settings(self, brightness, palette=0, language=None):
        """Write all settings at once (atomically). language None keeps the saved one."""
        if language is None:
            language = self._saved("language")
        return self._write_atomic(SETTINGS, "brightness=%d\npalette=%d\n%s"
                                  % (brightness, palette,
                                     "language=%s\n" % language if language else ""))

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


class _Parts:
    # The parts of a file's text, collected before it is written, in a list kept from one
    # save to the next (a save allocates no list that grows with the game).
    def __init__(self):
        self.items = []
        self.n = 0
        self.add = self._add               # bound once

    def _add(self, text):
        if self.n < len(self.items):
            self.items[self.n] = text
        else:
            self.items.append(text)
        self.n += 1

    def drop(self):
        items = self.items
        for i in range(self.n):
            items[i] = None
        self.n = 0


def _drop(text):
    pass


def _is_full(e):
    return e.args and e.args[0] in _FULL


def game_text(game, duties, write, clock="", lines=None, recorded=-1):
    """What game.txt holds: the tags (duties, clock, opponent, recorded: see the top) when
    they have values, then the game record (its turn lines from `lines`, a RecordText, when
    given)."""
    if duties:
        write('%s"%s"]\n' % (TOUCH_TAG, duties))
    if clock:
        write('%s"%s"]\n' % (CLOCK_TAG, clock))
    opp = getattr(game, "opponent", "")
    if opp:
        write('%s"%s"]\n' % (OPPONENT_TAG, opp))
    if recorded >= 0:
        write('%s"%d"]\n' % (RECORDED_TAG, recorded))
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
