# The board's files on its flash, and one policy for everything the board reads back.
#
# A file the board cannot read or use (any bytes, any length, cut short anywhere, not UTF-8,
# too big for the heap, a directory where a file should be) is set aside under its own name
# with the ending .bad (settings.txt -> settings.bad, saved/game.txt -> saved/game.bad,
# replacing an older one), the board goes on with its defaults or another good copy, and a
# note says what happened (Files.notes: the board shows each note once on its screen and
# writes it to error.log). Nothing here raises because of a file's contents. A rename or a
# remove that fails is never silent either: it becomes a note.
#
# Files the board writes whole carry a seal as their first line, [Save "n crc"]: n counts the
# saves (the newer of two copies has the greater n, whatever their places), crc is the CRC-32
# of n and of everything after the line. One changed byte or a file cut short anywhere no
# longer matches its seal. A game record keeps the seal as a tag its readers ignore. Files
# without a seal (written by older firmware) are read as before, more strictly checked.
#
# Writes replace a file whole (see Files.write_atomic): a power cut or a full flash leaves the
# old contents or the new, never a mix.
import os
from binascii import crc32

ENOENT = 2
ENOTDIR = 20
ENOSPC = 28
# littlefs on a full flash also fails creating a file with LFS_ERR_NAMETOOLONG (36): the
# directory's metadata block has no room for the entry and no free block to grow into.
_FULL = (ENOSPC, 36)
SEAL_TAG = "[Save "
# The kinds of Files.notes
DAMAGED = "damaged"
EMPTY = "empty"
NOT_REMOVED = "not removed"
NOT_MOVED = "not moved"
NOT_WRITTEN = "not written"
SETTINGS = "settings.txt"
ERRORS = "error.log"
ERROR_LOG_MAX = 4096
# settings.txt: one key=value a line; the values each key accepts (numbers: lo, hi)
_SETTINGS = (("brightness", 5, 100), ("palette", 0, 1), ("language", 0, 0))


def bad_name(name):
    """Where a damaged file is set aside: its name with .bad for its ending."""
    dot = name.rfind(".")
    return (name[:dot] if dot > name.rfind("/") else name) + ".bad"


def errno_of(e):
    return e.args[0] if isinstance(e, OSError) and e.args else None


def is_full(e):
    return errno_of(e) in _FULL


def why(e):
    """An exception as a short text for a note."""
    return ("%s %s" % (type(e).__name__, e)).strip()


def crc_of(text, crc=0):
    """CRC-32 of text's UTF-8 bytes, continued from crc (MicroPython reads a str's bytes in
    place; CPython needs them encoded)."""
    try:
        return crc32(text, crc)
    except TypeError:
        return crc32(text.encode(), crc)


def seal_line(seq, crc, root=None):
    # root: the CRC of an older firmware's root game.txt that this game was moved from
    # (storage.py), while that file is still there
    return '%s"%d %08x%s"]\n' % (SEAL_TAG, seq, crc, "" if root is None else " %08x" % root)


def _sealed_fields(seq, root):
    return "%d" % seq if root is None else "%d %08x" % (seq, root)


def seal(items, n, seq, root=None):
    """Fill items[0] (of the n texts of a file) with the seal of items[1:n]."""
    crc = crc_of(_sealed_fields(seq, root))
    for i in range(1, n):
        crc = crc_of(items[i], crc)
    items[0] = seal_line(seq, crc, root)


def unseal(text):
    """(n, root, start) of a file's text: its save count, the root CRC of its seal (or
    None), where the contents after the seal begin. (0, None, 0) for a file without a seal.
    ValueError when the seal does not match the contents."""
    if not text.startswith(SEAL_TAG):
        return 0, None, 0
    end = text.find("\n") + 1
    line = text[:end]
    fields = line[len(SEAL_TAG) + 1:-3].split(" ")
    if not end or not 2 <= len(fields) <= 3 or not fields[0].isdigit():
        raise ValueError("damaged seal")
    seq = int(fields[0])
    root = int(fields[2], 16) if len(fields) == 3 else None
    crc = crc_of(text[end:], crc_of(_sealed_fields(seq, root)))
    if seal_line(seq, crc, root) != line:
        raise ValueError("contents do not match the seal")
    return seq, root, end


def settings_value(key, v):
    """The value of a settings line (an int, or the language code), or None if not valid."""
    for name, lo, hi in _SETTINGS:
        if name == key:
            if hi:
                return int(v) if v.isdigit() and lo <= int(v) <= hi else None
            return v if len(v) == 2 and v.isalpha() and v.islower() else None
    return None


class Files:
    """The board's files under root (a folder path ending in /, or "" for the flash's root),
    through fs (an object with open/rename/remove/mkdir/stat like the os module and builtin
    open; tests pass one that fails on purpose to simulate a power cut or a full flash)."""

    def __init__(self, root="", fs=None):
        self.root = root
        self.fs = fs if fs is not None else HostFs()
        self.full = False                  # the last write found the file system full
        # What went wrong with a file, each (name, kind, problem, kept as, what the board does:
        # see note()): the board shows and logs each once (app.py) and empties the list.
        self.notes = []
        self._parts = _Parts()             # a write's text, made before the file is opened

    def _path(self, name):
        return self.root + name

    def note(self, name, kind, problem="", kept="", outcome=""):
        """kind: DAMAGED, EMPTY, NOT_REMOVED, NOT_MOVED or NOT_WRITTEN; problem: the detail
        for error.log; kept: the .bad name it was set aside as, if so; outcome: what the
        board does instead ("defaults", "copy", "new game", "new log", "new records")."""
        self.notes.append((name, kind, problem, kept, outcome))

    # --- reading ---------------------------------------------------------------------------
    def read(self, name):
        """The file's text, or None when there is no such file (other errors raise)."""
        try:
            f = self.fs.open(self._path(name), "r")
        except OSError as e:
            if errno_of(e) == ENOENT:
                return None
            raise
        try:
            return f.read()
        finally:
            f.close()

    def load(self, name, outcome):
        """The file's text, or None when there is none or it cannot be read: then it is set
        aside (outcome: what the board does instead, for the note)."""
        try:
            return self.read(name)
        except Exception as e:             # noqa: BLE001 - any failure (OSError, UnicodeError,
            self.set_aside(name, why(e), outcome)   # MemoryError): the policy of the top
            return None

    def set_aside(self, name, problem, outcome):
        """Move a damaged file to its .bad name, with a note. True when it was moved."""
        bad = bad_name(name)
        try:
            self.fs.rename(self._path(name), self._path(bad))
        except OSError as e:
            self.note(name, DAMAGED, "%s; not set aside: %s" % (problem, why(e)), "", outcome)
            return False
        self.note(name, DAMAGED, problem, bad, outcome)
        return True

    def remove(self, name):
        """Remove the file; a failure other than its absence becomes a note. True when the
        file is gone."""
        try:
            self.fs.remove(self._path(name))
        except OSError as e:
            if errno_of(e) == ENOENT:
                return True
            self.note(name, NOT_REMOVED, why(e))
            return False
        return True

    def stat(self, name):
        # os.stat of the file, or None when it does not exist (other errors raise)
        try:
            return self.fs.stat(self._path(name))
        except OSError as e:
            if errno_of(e) == ENOENT:
                return None
            raise

    def size(self, name):
        st = self.stat(name)
        return st[6] if st is not None else 0

    # --- writing ---------------------------------------------------------------------------
    def write_atomic(self, name, text, writer=None, create=False, parts=None, seq=-1,
                     root=None):
        """Replace the file whole: True when written, False when the file system is full
        (the old file stays). writer(write) makes the contents in parts (no one large string
        in the heap), all before the file is opened, so that a failure making them
        (MemoryError) cannot leave a file half written. create: the file does not exist yet.
        seq >= 0: sealed with that count (and root, see seal_line). parts: the _Parts to
        collect them in (kept by the caller to write again; else dropped here)."""
        own = parts is None
        if own:
            parts = self._parts
        try:
            if seq >= 0:
                parts.add("")              # (the seal, once the rest is made)
            if writer is None:
                parts.add(text)
            else:
                writer(parts.add)
            if seq >= 0:
                seal(parts.items, parts.n, seq, root)
            ok = self.write_parts(name, parts, create)
        finally:
            if own:
                parts.drop()               # (the texts go with the write)
        self.full = not ok
        return ok

    def write_parts(self, name, parts, create=False):
        # On LittleFS (the Pico's file system, in_place) straight over the old file: littlefs
        # is copy-on-write, and a file opened for writing keeps its old contents until it is
        # closed; the new ones replace them whole at close, and a write that failed (a full
        # flash) is never committed. One metadata commit instead of three. A file being
        # created goes to a temporary file renamed into place, since littlefs commits a
        # created file at once, empty. Elsewhere (the unix port, CPython: a file is cut short
        # as it is opened) always to a temporary file, closed, then renamed over the old one.
        fs = self.fs
        in_place = getattr(fs, "in_place", False) and not create
        tmp = self._path(name if in_place else self.tmp_name(name))
        try:
            try:
                f = fs.open(tmp, "w")
            except OSError as e:
                if errno_of(e) != ENOENT or "/" not in name:
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
            if not is_full(e):
                raise
            if not in_place:               # the old file is untouched; free the partial one
                try:
                    fs.remove(tmp)
                except OSError:            # (a temporary file: the next write replaces it)
                    pass
            return False
        return True

    def tmp_name(self, name):
        return name + ".tmp"

    # --- settings ------------------------------------------------------------------------
    def settings_text(self):
        """settings.txt's lines, checked (see the top), or None."""
        text = self.load(SETTINGS, "defaults")
        if text is None:
            return None
        try:
            start = unseal(text)[2]
            if not start and not text:
                raise ValueError("empty file")
            for line in text[start:].split("\n"):
                k = line.find("=")
                if line and (k < 0 or settings_value(line[:k], line[k + 1:]) is None):
                    raise ValueError("not a setting: %r" % line[:24])
        except ValueError as e:
            self.set_aside(SETTINGS, why(e), "defaults")
            return None
        return text[start:]

    def _saved(self, key, text=0):
        # The text after "key=" in the settings file (or in text, read from it before), or None.
        if text == 0:
            text = self.settings_text()
        if text:
            for line in text.split("\n"):
                if line.startswith(key + "="):
                    return line[len(key) + 1:]
        return None

    def _setting(self, key, default, text=0):
        v = self._saved(key, text)
        return default if v is None else settings_value(key, v)

    def load_brightness(self, default):
        return self._setting("brightness", default)

    def load_palette(self, default=0):
        return self._setting("palette", default)

    def load_language(self, default, known, text=0):
        """The saved language code if it is one of known, else default."""
        v = self._saved("language", text)
        return v if v in known else default

    def load_settings(self, brightness, palette, language, languages):
        """(brightness, palette, language) as saved, each its default where it is not: the
        file read once (power-on reads it before the first LED frame)."""
        text = self.settings_text()
        return (self._setting("brightness", brightness, text),
                self._setting("palette", palette, text),
                self.load_language(language, languages, text))

    def save_settings(self, brightness, palette=0, language=None):
        """Write all settings at once (atomically, sealed). language None keeps the saved one."""
        if language is None:
            language = self._saved("language")
        return self.write_atomic(SETTINGS, "brightness=%d\npalette=%d\n%s"
                                 % (brightness, palette,
                                    "language=%s\n" % language if language else ""), seq=0)

    # --- errors --------------------------------------------------------------------------
    def log_error(self, text):
        """Append to error.log, keeping only the newest part when it grows too long. Never
        raises: a log that cannot be written must not stop the board. A log that cannot be
        read is set aside (error.bad) and a new one begun."""
        try:
            old = self.load(ERRORS, "new log") or ""
            return self.write_atomic(ERRORS, (old + text)[-ERROR_LOG_MAX:])
        except Exception:                  # noqa: BLE001
            return False


class _Parts:
    # The parts of a file's text, collected before it is written, in a list kept from one
    # write to the next (a save allocates no list that grows with the game).
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


# A rename that replaces its target, as littlefs's and POSIX's do (CPython on Windows: only
# os.replace does).
_replace = getattr(os, "replace", os.rename)


class HostFs:
    # The real file system: builtin open plus the os module. in_place: it is littlefs, so a
    # file opened for writing keeps its old contents until it is closed (write_parts).
    def __init__(self):
        self.in_place = _littlefs()

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, a, b):
        _replace(a, b)

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
