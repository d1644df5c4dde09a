# The saved game, finished-game records and the flight recorder's file on the board's flash,
# and the save sequence that the board runs after every committed action. The policy for
# files that cannot be read, the seal that tells a damaged or older copy, settings.txt and
# error.log: files.py.
#
# The game in progress is saved after every committed action as its game record (the rules
# core's notation; its turn lines kept formatted between saves, so a save formats only the
# new turn), sealed (files.py: its save count and CRC), in two copies: saved/game.txt in the
# step that commits the action, then saved/copy.txt, the same text, in the next step of the
# save sequence. Each is written whole (files.write_parts), so a power cut at any instant
# leaves the previous save or the new one (at most the action in progress is lost); a copy
# that is damaged later is told by its seal, and the other copy resumes the game. At power-on
# the newer good copy (the greater save count) is the game.
# The saved game has a directory of its own, saved/: littlefs commits every create, close and
# rename to the metadata of the file's directory, and when that fills up it copies the whole
# directory (compaction); the root holds every firmware file. Firmware before saved/ kept
# game.txt at the root; the first boot moves it (_migrate).
#
# Tag lines before the record, which barragoon.record.parse_record ignores as unknown tags:
# the seal, [Save "12 1c291ca3"] (files.py); a touch-move duty of the turn in progress,
# [TouchMove "d2 d5"] (move d2, capture d5; see controller/judge.py); the game clock,
# [Clock "300000 280000 5000 w"] (controller/clock.py: White's and Brown's remaining ms, the
# increment, whose clock runs), in game.txt and in records.txt; in a game against the board
# [Opponent "Brown 2"] (the board's side and strength; controller/opponent.py), kept on the
# Game as game.opponent; and while a finished game is being appended to records.txt,
# [Recorded "n"] (see finish_game).
#
# The save sequence has one owner, this module: save() writes game.txt in the step that
# commits the action; work() then does one part per loop step of what follows: copy.txt,
# then the flight recorder's events (recorder.py) to log/events.txt, also atomically
# (written a few lines per step to log/events.txt.tmp, renamed when complete). The board's
# app.py only calls save(), work() and finish_game().
#
# Files (read them with `mpremote fs cat :records.txt`):
#   saved/game.txt  the game in progress        saved/copy.txt  its copy
#   saved/game.tmp  a save being written (see files.write_parts)
#   saved/game.bad  a saved game that could not be loaded (or whose clock or opponent tag
#                   could not be read), kept for a person to look at; saved/copy.bad the same
#   records.txt   finished games, appended       records.old  the records before them
#   settings.txt  brightness, LED palette, language   error.log  the last unexpected errors
#   log/events.txt  the last sensor/button events (the flight recorder; log/events.txt.tmp
#                 while it is being written; older firmware kept it at the root)
#   any name .bad  a file the board could not read, set aside (files.py)
#
# The file system can fill up (the flash holds 1.4 MB): records.txt is rotated to records.old
# when it passes RECORDS_MAX, so records never fill it; if it is full all the same, a save
# fails cleanly (`full` is set, the previous save stays, the game goes on in memory) instead
# of raising in the middle of play, and a finished game that could not be recorded stays in
# game.txt until it is (see finish_game).
import files
from barragoon.core import RulesError
from barragoon.record import write_record, parse_record, RecordText
from files import Files, _Parts, bad_name, crc_of, unseal, why, is_full, errno_of
from files import ENOENT, ENOSPC, ENOTDIR
from files import SETTINGS, ERRORS, ERROR_LOG_MAX  # noqa: F401 (the board's files, one place)

SAVED = "saved"                # the saved game's directory (see the top)
GAME = SAVED + "/game.txt"
COPY = SAVED + "/copy.txt"
TMP = SAVED + "/game.tmp"
BAD = bad_name(GAME)
OLD_GAME = "game.txt"          # where firmware before saved/ kept it
RECORDS = "records.txt"
LOG_DIR = "log"                # the flight recorder's directory (see _open_events)
EVENTS = LOG_DIR + "/events.txt"
TOUCH_TAG = "[TouchMove "
CLOCK_TAG = "[Clock "
OPPONENT_TAG = "[Opponent "     # the board plays a side: [Opponent "Brown 2"] (side, strength)
RECORDED_TAG = "[Recorded "     # the finished game goes to records.txt at this size of it
RECORDS_OLD = "records.old"
RECORDS_MAX = 256 * 1024       # two of these (records.txt + records.old) stay far from full
EMPTY = "empty file"           # Storage.problem of an empty game.txt (nothing to keep)
OLD_EVENTS = "events.txt"      # where firmware before log/ kept it


class EventsFile(Files):
    """The flight recorder's log/events.txt (recorder: the Recorder), written a few lines
    at a time. It is for a person looking into what the board did: a failure writing it (a
    full flash, a file or folder in the way) gives that file up, never the game; other
    failures than a full flash are noted once a boot."""

    def __init__(self, root="", fs=None, recorder=None):
        Files.__init__(self, root, fs)
        self.recorder = recorder
        self.events_open = None            # events.txt.tmp while it is being written
        self.events_done = False           # ... all written: to close and rename
        self.events_told = False           # a failure of events.txt was noted (once a boot)

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
            self._events_failed(e)
            return
        self.recorder.open_file(now)

    def _open_events(self):
        # events.txt lives in a directory of its own (see saved/ at the top).
        tmp = self._path(EVENTS + ".tmp")
        try:
            return self.fs.open(tmp, "w")
        except OSError as e:
            if errno_of(e) == ENOTDIR and self.set_aside(LOG_DIR, why(e), ""):
                return self._open_events()     # (a file named log: set aside)
            if errno_of(e) != ENOENT:
                raise
        # The first time: firmware before log/ kept events.txt at the root; dropped first
        # (a cut before mkdir: done again next time), it is the flight recorder, not a game.
        self.remove(OLD_EVENTS)
        self.remove(OLD_EVENTS + ".tmp")
        self.fs.mkdir(self._path(LOG_DIR))
        return self.fs.open(tmp, "w")

    def write_events(self, lines):
        """Write up to `lines` more events; True when events.txt is complete (or given up).
        The call after the last lines closes and renames it (a few ms of littlefs of its
        own)."""
        f = self.events_open
        if f is None:
            return True
        if self.events_done:
            return self._end_events(True)
        try:
            self.events_done = self.recorder.write_some(f.write, lines)
        except OSError as e:
            self._events_failed(e)
            self._end_events(False)
            return True
        return False

    def _end_events(self, keep):
        # Close events.txt.tmp; keep: rename it over events.txt (it is complete; whatever is
        # in the way is set aside), else drop it (abandoned: the good events.txt stays).
        f = self.events_open
        if f is None:
            return True
        self.events_open = None
        self.events_done = False
        tmp = self._path(EVENTS + ".tmp")
        try:
            f.close()
            if keep:
                try:
                    self.fs.rename(tmp, self._path(EVENTS))
                except OSError as e:
                    if is_full(e) or not self.set_aside(EVENTS, why(e), ""):
                        raise
                    self.fs.rename(tmp, self._path(EVENTS))
                return True
        except OSError as e:
            self._events_failed(e)
        try:
            self.fs.remove(tmp)
        except OSError:                    # (a temporary file: the next one replaces it)
            pass
        return True

    def _events_failed(self, e):
        if is_full(e):
            self.full = True
        elif not self.events_told:
            self.events_told = True
            self.note(EVENTS, files.NOT_WRITTEN, why(e))


class Storage(EventsFile):
    def __init__(self, root="", fs=None, recorder=None):
        # recorder: the flight recorder whose events follow every save (save(), work()).
        EventsFile.__init__(self, root, fs, recorder)
        self.events_due = False            # a save is done: events.txt to begin (work())
        self.problem = ""                  # why the saved game could not be loaded, if so
        self.duties = ""                   # the loaded game's touch-move duties
        self.clock = ""                    # ... and its game clock's tag text
        self.seq = 0                       # the save count of the newest copy (files.py)
        self.loaded = GAME                 # the copy the game was loaded from
        self.root_crc = None               # an older firmware's game.txt is still at the root
        self.copy_due = False              # a save is done: copy.txt to write next
        self.lines = RecordText()          # the saved game's turn lines, kept formatted
        self.unrecorded = None             # (game, clock) finished, not yet in records.txt
        self.recorded_at = None            # (game, n): its [Recorded "n"] tag is in game.txt
        self._game_file = None             # game.txt exists (None: not known yet)
        self._copy_file = None             # ... copy.txt
        self._game_parts = _Parts()        # the last save's text, until copy.txt has it too

    def tmp_name(self, name):
        return TMP if name == GAME else name + ".tmp"

    # --- the game in progress ------------------------------------------------------------
    def save_game(self, game, duties="", clock="", recorded=-1):
        """Save the game in progress with its touch-move duties (judge.duty_text()) and its
        clock (the tag text, "" for none) to game.txt; write_copy() then writes copy.txt. True
        when saved; False when the file system is full (the previous save stays). While a
        finished game waits to be recorded (see finish_game) another game is saved only once
        it is: game.txt holds it."""
        u = self.unrecorded
        if u is not None and u[0] is not game and not self.finish_game(u[0], u[1]):
            self.full = True
            return False
        if self._game_file is None:
            self._game_file = self.stat(GAME) is not None
        parts = self._game_parts
        self.copy_due = False
        parts.drop()                       # (a copy not written yet: this save's replaces it)
        self.seq += 1
        ok = self.write_atomic(GAME, None,
                               lambda write: game_text(game, duties, write, clock,
                                                       self.lines, recorded),
                               not self._game_file, parts, self.seq, self.root_crc)
        if ok:
            self._game_file = True
        else:
            parts.drop()
        self.copy_due = ok
        return ok

    def write_copy(self):
        """copy.txt after a save (the same text). True when written or nothing was due."""
        if not self.copy_due:
            return True
        self.copy_due = False
        parts = self._game_parts
        try:
            if self._copy_file is None:
                self._copy_file = self.stat(COPY) is not None
            ok = self.write_parts(COPY, parts, not self._copy_file)
        finally:
            parts.drop()
        self._copy_file = self._copy_file or ok
        self.full = not ok
        return ok

    def load_game(self):
        """The saved game, or None (its touch-move duties in `duties`, its clock in `clock`):
        the newer of game.txt and copy.txt that can be loaded. Whatever goes wrong loading a
        copy (unreadable, bad bytes, not UTF-8, a seal that does not match, a record the
        rules refuse, too big for the heap), the file is set aside (saved/game.bad,
        saved/copy.bad: never lost) with a note, and the other copy is tried; `problem` says
        why game.txt could not be loaded and `kept` whether it was set aside when no copy
        could be (the notes say what became of each file); an empty file (nothing to keep) is
        removed. Never raises for a file's contents."""
        self.problem = ""
        self.duties = self.clock = ""
        self.recorded_at = None
        self.copy_due = False
        self._game_file = self._copy_file = None
        self.loaded = GAME
        bad = []
        found = []                         # (seq, name, text, start), good seals
        for name in (GAME, COPY):
            self._candidate(name, found, bad)
        root = self._migrate(found, bad)
        game = None
        while found and game is None:
            best = found[0]
            for c in found:
                if c[0] > best[0]:
                    best = c
            found.remove(best)
            try:
                game = self._parse(best[2], best[3])
                self.loaded = best[1]
            except Exception as e:         # noqa: BLE001 - any failure: that copy set aside
                bad.append((best[1], _problem(e)))
        outcome = "copy" if game is not None else "new game"
        for name, problem in bad:
            if name == GAME or not self.problem:
                self.problem = problem
            if problem == EMPTY:
                self.remove(name)
                self.note(name, files.EMPTY, "", "", outcome)
            elif name == OLD_GAME:         # (only its copy in saved/ failed to load)
                self.note(name, files.DAMAGED, problem, "", outcome)
            else:
                self.set_aside(name, problem, outcome)
        if game is not None and root:
            self.note(OLD_GAME, files.NOT_MOVED, "the flash is full", "", "played")
        if game is not None:
            self.problem = ""
            try:
                # Its turn lines formatted now, at boot: else the first save after a
                # power-on would, in the step that commits a move.
                self.lines.write(game, _drop)
            except MemoryError:            # (that save formats them then)
                pass
        return game

    def _candidate(self, name, found, bad):
        # A copy of the saved game: read and its seal checked, into found or bad.
        try:
            text = self.read(name)
            if text is None:
                return
            if not text:
                raise ValueError(EMPTY)
            seq, root, start = unseal(text)
        except Exception as e:             # noqa: BLE001 - any failure: set aside (files.py)
            bad.append((name, _problem(e)))
            return
        if seq > self.seq:
            self.seq = seq
        if root is not None and self.root_crc is None:
            self.root_crc = root
        found.append((seq, name, text, start))

    def _parse(self, text, start):
        game = parse_record(text)
        body = text[start:]
        self.duties = duties_of(body)
        self.clock = duties_of(body, CLOCK_TAG)
        game.opponent = duties_of(body, OPPONENT_TAG)
        at = duties_of(body, RECORDED_TAG)
        if at:
            if not at.isdigit() or not (game.over or game.unfinished):
                raise RulesError("bad Recorded tag: %r" % at)
            self.recorded_at = (game, int(at))
        return game

    def _migrate(self, found, bad):
        # Firmware before saved/ kept game.txt at the root. The first boot copies it into
        # saved/ (sealed with the root file's CRC, written whole as every save), then removes
        # it from the root: a cut before the copy is complete leaves the root's, one after it
        # the root's and a copy that names it by its CRC (the next boot removes the root's).
        # Not one rename between the two directories: littlefs makes that in two commits, and
        # a cut between them leaves the root's entry after game.txt (main.py) unreadable
        # until the next write, and the board does not start. A root game.txt that no copy
        # names (firmware before saved/ was put back and played: its game is the newer one)
        # replaces the saved game, which is set aside as saved/game.bad. While the root's
        # cannot be removed, every save names it (root_crc). Returns True when the root's
        # game could not be copied (a full flash): it is played from memory, the root's kept.
        try:
            text = self.read(OLD_GAME)
        except Exception as e:             # noqa: BLE001 - unreadable: set aside at the root
            self.set_aside(OLD_GAME, _problem(e), "")
            return False
        if text is None:
            self.root_crc = None
            return False
        rc = crc_of(text)
        for c in found:
            if self.root_crc == rc or c[2][c[3]:] == text:
                self.root_crc = None if self.remove(OLD_GAME) else rc
                return False
        # The root's is the newer game: the saved one goes (game.txt kept aside).
        for name, problem in bad:
            self.set_aside(name, problem, "")
        for c in found:
            if c[1] == GAME:
                self._keep_older()
            else:
                self.remove(c[1])
        del found[:], bad[:]
        self.seq += 1
        self.root_crc = rc
        if self.write_atomic(GAME, text, None, True, None, self.seq, rc):
            self.root_crc = None if self.remove(OLD_GAME) else rc
            found.append((self.seq, GAME, text, 0))
            return False
        found.append((self.seq, OLD_GAME, text, 0))
        return True

    def _keep_older(self):
        # saved/game.txt, older than the root's game.txt, kept as saved/game.bad (no note:
        # nothing is wrong with it, unless it cannot be moved)
        try:
            self.fs.rename(self._path(GAME), self._path(BAD))
        except OSError as e:
            self.note(GAME, files.NOT_MOVED, "older than game.txt at the root, not set aside: "
                      + why(e))

    def keep_aside(self):
        """Keep a copy of the saved game for a person to look at, as saved/game.bad (replacing
        an older one): the game was loaded but a tag of it could not be used. True when
        kept."""
        try:
            text = self.read(self.loaded)
            return text is not None and self.write_atomic(BAD, text)
        except Exception:                  # noqa: BLE001 - (then not kept: the caller says so)
            return False

    def clear_game(self):
        """Forget the saved game: copy.txt first (game.txt stays while copy.txt could not be
        removed: a copy without a finished game's [Recorded] tag must never be the one left).
        True when both are gone; a failure is a note (files.Files.remove)."""
        self.copy_due = False
        self._game_parts.drop()
        self._copy_file = self._game_file = None
        return self.remove(COPY) and self.remove(GAME)

    def finish_game(self, game, clock=""):
        """Append the finished game to the records, then forget it as the game in progress.
        True when done. Never twice: game.txt first gets the tag [Recorded "n"], n the size
        of records.txt before the append (littlefs commits an append whole, at close); a
        game.txt with that tag whose records.txt has grown past n (a power cut came before
        it was removed) is only removed. records.txt becomes records.old (replacing it) once
        it passes RECORDS_MAX. If the file system is full, the finished game stays in
        game.txt (not lost), `full` is set, and it is tried again before any other game is
        saved (save_game). A records.txt that cannot be appended to is set aside
        (records.bad) and a new one begun."""
        self.unrecorded = (game, clock)
        try:
            at = self.recorded_at
            if at is not None and at[0] is game:
                n = at[1]
            else:
                n = self._records_size()
                self.unrecorded = None     # (save_game would wait for it)
                ok = self.save_game(game, "", clock, n)
                self.unrecorded = (game, clock)
                if not ok:
                    return False
                self.recorded_at = (game, n)
            if self.size(RECORDS) <= n:
                self._append_record(game, clock)
        except OSError as e:
            if not is_full(e):
                raise
            self.full = True
            return False
        self.unrecorded = self.recorded_at = None
        self.clear_game()
        return True

    def _records_size(self):
        # records.txt's size, once it is rotated if it passed RECORDS_MAX (a rename replaces
        # records.old)
        if self.size(RECORDS) > RECORDS_MAX:
            try:
                self.fs.rename(self._path(RECORDS), self._path(RECORDS_OLD))
            except OSError as e:
                self._records_failed(e)    # (set aside: nothing left to rotate)
        return self.size(RECORDS)

    def _append_record(self, game, clock):
        for attempt in (0, 1):
            try:
                f = self.fs.open(self._path(RECORDS), "a")
                try:
                    game_text(game, "", f.write, clock)
                    f.write("\n")
                finally:
                    f.close()
                return
            except OSError as e:
                if attempt:
                    raise
                self._records_failed(e)

    def _records_failed(self, e):
        # A records.txt that fails for another reason than a full flash (a directory in its
        # place, an I/O error) is set aside, and a new one begun; if it cannot be, the game
        # waits in game.txt as on a full flash (finish_game).
        if is_full(e):
            raise e
        if not self.set_aside(RECORDS, why(e), "new records"):
            raise OSError(ENOSPC)          # (finish_game: the game waits, as on a full flash)

    # --- the save sequence -----------------------------------------------------------------
    def save(self, game, duties="", clock=""):
        """The board's save after a committed action: game.txt now (save_game), then
        copy.txt and the flight recorder's events.txt, a part at each call of work()."""
        ok = self.save_game(game, duties, clock)
        self.events_due = self.recorder is not None
        return ok

    def busy(self):
        """Parts of the save sequence are still to do (work())."""
        return self.copy_due or self.events_due or self.events_open is not None

    def work(self, t, lines):
        """The next part of what follows a save: write copy.txt, begin events.txt (t: now),
        write `lines` more of its lines, or close and rename it. True when that was the last
        part."""
        if self.copy_due:
            self.write_copy()
            return not self.busy()
        if self.events_due:
            self.events_due = False
            self.begin_events(t)
            return self.events_open is None
        return self.write_events(lines)

def _drop(text):
    pass


def _problem(e):
    return str(e) if isinstance(e, (RulesError, ValueError)) and str(e) else why(e)


def game_text(game, duties, write, clock="", lines=None, recorded=-1):
    """The game record with its tags (duties, clock, opponent, recorded: see the top) when
    they have values (its turn lines from `lines`, a RecordText, when given): game.txt
    without its seal, and an entry of records.txt."""
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
