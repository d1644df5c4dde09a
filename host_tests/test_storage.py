# Saved games survive power cuts: a failure injected at every step of every save leaves either
# the previous save or the new one, never a damaged or lost game. Records, settings, error log.
import os

from checks import raises, scratch_dir
from barragoon.game import Game
from barragoon.record import format_record, parse_record
from storage import Storage, GAME, BAD, SAVED, OLD_GAME, RECORDS, RECORDS_OLD, TMP, SETTINGS

RUNTIMES = ("cpython", "micropython")


class PowerCut(Exception):
    pass


def tmpdir(name):
    return scratch_dir("storage_" + name)


class CuttingFs:
    """The real filesystem, but the power fails at operation number `cut` (counting open,
    each write, close and rename). A write that fails writes only its first half."""

    def __init__(self, cut):
        self.cut = cut
        self.ops = 0

    def _tick(self):
        self.ops += 1
        if self.ops == self.cut:
            raise PowerCut()

    def open(self, path, mode):
        self._tick()
        return _File(self, open(path, mode))

    def rename(self, a, b):
        self._tick()
        os.rename(a, b)

    def remove(self, path):
        self._tick()
        os.remove(path)

    def mkdir(self, path):
        self._tick()
        os.mkdir(path)

    def stat(self, path):
        return os.stat(path)                    # (reads nothing from the flash: no step)


class _File:
    def __init__(self, fs, f):
        self.fs, self.f = fs, f

    def write(self, text):
        try:
            self.fs._tick()
        except PowerCut:
            self.f.write(text[:len(text) // 2])
            self.f.close()
            raise
        self.f.write(text)

    def read(self):
        return self.f.read()

    def close(self):
        self.fs._tick()
        self.f.close()


def _play(game, step):
    # A short game with a Barragoon capture and a tile capture (placements included).
    script = [("m", 10, 31), ("m", 52, 38), ("m", 31, 22), ("p", 24, 1),
              ("m", 38, 59)]
    kind, a, b = script[step]
    if kind == "m":
        game.move(a, b)
    else:
        game.place(a, b)


def test_power_cut_at_every_step_of_every_save_loses_at_most_one_action():
    d = tmpdir("cut")
    game = Game()
    Storage(d).save_game(game)
    checked = 0
    total = 0
    for step in range(5):
        before = format_record(game)
        _play(game, step)
        after = format_record(game)
        counter = CuttingFs(0)
        _write(d, before)
        Storage(d, counter).save_game(game)      # count the operations of one save
        total += counter.ops
        for cut in range(1, counter.ops + 1):
            _write(d, before)
            s = Storage(d, CuttingFs(cut))
            try:
                s.save_game(game)
                finished = True
            except PowerCut:
                finished = False
            loaded = Storage(d).load_game()
            assert loaded is not None, "game lost at step %d, cut %d" % (step, cut)
            text = format_record(loaded)
            assert text in (before, after), "damaged save at step %d, cut %d" % (step, cut)
            if finished:
                assert text == after
            checked += 1
        _write(d, after)
    assert checked == total and total >= 5 * 4    # every open, write, close, rename
    assert game.turn_texts() == ["d2-d5", "d8-d6", "d5xb4 d4=X", "d6-d9"]


def _write(d, text, name=GAME):
    if SAVED not in os.listdir(d[:-1]):
        os.mkdir(d + SAVED)
    f = open(d + name, "w")
    f.write(text)
    f.close()


def _read(d, name=GAME):
    # the file's text without its seal (which must match it)
    f = open(d + name)
    text = f.read()
    f.close()
    return _body(text)


def _body(text):
    from files import unseal
    return text[unseal(text)[2]:]


def _full_text(game, duties="", clock=""):
    # game.txt as a save formats it from scratch (no turn lines kept from earlier saves)
    import storage
    out = []
    storage.game_text(game, duties, out.append, clock)
    return "".join(out)


def _random_action(game, k):
    """One random action on game: a move, a placement, and now and then a take-back of an
    action or a whole turn (the board's judge and the menu do both), an offer or an answer."""
    k = (k * 1103515245 + 12345) & 0x3FFFFFFF
    r = k % 100
    if game.actions and r < 6:
        game.undo()
    elif game.actions and r < 9 and game.last_turn_text():
        game.undo_turn()
    elif game.offered:
        game.answer_repetition_draw(r < 50)
    elif game.repetition and r < 60:
        game.offer_repetition_draw()
    elif game.placing() >= 0:
        ok = [(sq, f) for sq in range(63) for f in range(1, 17)
              if not game.pos.get(sq) and game.placement_allowed(sq, f)]
        sq, f = ok[k % len(ok)]
        game.place(sq, f)
    else:
        moves = game.legal_moves()
        m = moves[(k >> 7) % len(moves)]
        game.move(m // 64, m % 64)
    return k


def test_saves_of_a_long_game_read_back_as_a_whole_record_would():
    # The board keeps the turn lines formatted from one save to the next (each save formats
    # only what is new); whatever happened meanwhile (placements, take-backs of an action or
    # of a turn, offers, another game), game.txt is exactly the record formatted from scratch.
    d = tmpdir("lines")
    s = Storage(d)
    starts = (None, "v[RN]d[X]d[A]v/1z[2H]z[1S]2/[LE]1d[A]1[1W]1/1[X]2[RS]1[2V]/"
              "[A]1[X]1[1N]2/1[RE]1D1[X]1/[1E]1Z[A]Z1[LS]/2[2H]D3/1VD2V1 b 12")   # (Brown first)
    actions = placements = undos = 0
    for start in starts:
        for seed in (1, 2):
            game = Game(start)
            k = seed
            while not game.over and len(game.actions) < 160:
                n = len(game.actions)
                k = _random_action(game, k)
                undos += len(game.actions) < n
                placements += game.actions[-1] & 3 == 1 if len(game.actions) > n else 0
                duties = "d2 d5" if k % 3 == 0 else ""
                s.save_game(game, duties, "300000 280000 5000 w" if k % 2 else "")
                text = _read(d)
                assert text == _full_text(game, duties, "300000 280000 5000 w" if k % 2
                                          else ""), "save %d differs" % len(game.actions)
                actions += 1
            s2 = Storage(d)                      # a power-on: loaded, then played on
            again = s2.load_game()
            assert again.actions == game.actions and again.turn_texts() == game.turn_texts()
            for i in range(6):
                if again.over:
                    break
                k = _random_action(again, k)
                s2.save_game(again)
                assert _read(d) == _full_text(again)
    assert actions > 400 and placements >= 5 and undos >= 10


class LittleFs:
    """A file system that behaves as littlefs does (on the board saves go straight over the
    old file, in_place): a file opened for writing (or appending) keeps its old contents
    until it is closed, then has the new ones whole; a write that failed (a full flash) is
    never committed; only creating a file is committed at once (empty); a rename is atomic,
    also between directories. files: {path: text, or None for a directory}. The power fails
    at operation number `cut` (open, each write, close, rename, remove, mkdir), or the flash
    is full from operation `full` on (creating a file, a write or a mkdir fails then; a
    rename only rewrites metadata)."""
    in_place = True

    def __init__(self, files=None, cut=0, full=0):
        self.files = files if files is not None else {}
        self.cut, self.full, self.ops = cut, full, 0

    def _tick(self):
        self.ops += 1
        if self.cut and self.ops >= self.cut:      # (and nothing happens after the cut)
            raise PowerCut()

    def _is_full(self):
        return self.full and self.ops >= self.full

    def _parent(self, path):
        if "/" in path and self.files.get(path.rsplit("/", 1)[0], "") is not None:
            raise OSError(2)

    def open(self, path, mode):
        self._tick()
        if "w" in mode or "a" in mode:
            self._parent(path)
            if path not in self.files and self._is_full():
                raise OSError(28)
            self.files.setdefault(path, "")
            return _LfsFile(self, path, self.files[path] if "a" in mode else "")
        if path not in self.files:
            raise OSError(2)
        return _LfsReader(self.files[path])

    def rename(self, a, b):
        self._tick()
        if a not in self.files:
            raise OSError(2)
        self._parent(b)
        self.files[b] = self.files.pop(a)

    def remove(self, path):
        self._tick()
        if path not in self.files:
            raise OSError(2)
        del self.files[path]

    def mkdir(self, path):
        self._tick()
        if path in self.files:
            raise OSError(17)
        if self._is_full():
            raise OSError(28)
        self.files[path] = None

    def stat(self, path):
        if path not in self.files:
            raise OSError(2)
        return (0, 0, 0, 0, 0, 0, len(self.files[path] or ""))


class _LfsFile:
    def __init__(self, fs, path, old):
        self.fs, self.path, self.parts, self.erred = fs, path, [old], False

    def write(self, text):
        self.fs._tick()
        if self.fs._is_full():
            self.erred = True
            raise OSError(28)
        self.parts.append(text)

    def close(self):
        self.fs._tick()
        if not self.erred:
            self.fs.files[self.path] = "".join(self.parts)


class _LfsReader:
    def __init__(self, text):
        self.text = text

    def read(self):
        return self.text

    def close(self):
        pass


def test_on_littlefs_settings_and_the_error_log_are_written_over_the_old_file():
    # One metadata commit a write (littlefs keeps the old contents until close), not three
    # through a temporary file and a rename.
    fs = LittleFs()
    st = Storage("", fs)
    assert st.save_settings(40) and st.log_error("one\n")
    renames = []
    fs.rename = lambda a, b: renames.append((a, b))
    assert st.save_settings(60) and st.log_error("two\n")
    assert renames == []
    assert "brightness=60" in fs.files["settings.txt"]
    assert fs.files["error.log"].endswith("one\ntwo\n")


def test_on_littlefs_a_save_goes_over_the_old_file_and_a_cut_anywhere_loses_nothing():
    game = Game()
    fs = LittleFs()
    st = Storage("", fs)                         # one storage: its turn lines kept warm
    st.save_game(game)
    cuts = 0
    k = 7
    while len(game.actions) < 60:
        before = _body(fs.files[GAME])
        k = _random_action(game, k)
        after = _full_text(game)
        ops = LittleFs(dict(fs.files))
        Storage("", ops).save_game(game)
        for cut in range(1, ops.ops + 1):
            trial = LittleFs(dict(fs.files), cut)
            st.fs = trial
            try:
                st.save_game(game)
            except PowerCut:
                pass
            text = _body(trial.files[GAME])
            assert text in (before, after), "damaged at action %d, cut %d" % (
                len(game.actions), cut)
            cuts += 1
        st.fs = fs
        assert st.save_game(game) and _body(fs.files[GAME]) == after
        assert format_record(Storage("", fs).load_game()) == format_record(game)
    assert cuts >= 60 * 3 and set(fs.files) == {SAVED, GAME}   # no temporary file
    # a full flash: the save fails, the old one stays, the board knows
    fs.full = fs.ops + 2
    before = fs.files[GAME]
    game.undo()
    assert not st.save_game(game) and st.full and fs.files[GAME] == before
    # a failure making the text (out of memory) happens before the file is opened
    opened = fs.ops

    def broken(game, write, lines=None):
        write("[Variant ")
        raise MemoryError("memory allocation failed")
    import barragoon.record
    real = barragoon.record.write_record
    import storage
    storage.write_record = broken
    try:
        raises(MemoryError, st.save_game, game)
    finally:
        storage.write_record = real
    assert fs.ops == opened and fs.files[GAME] == before


def test_damaged_save_is_kept_aside_not_lost():
    d = tmpdir("bad")
    _write(d, "[Variant \"closed\"]\n\n1. d2-d9\n")
    s = Storage(d)
    assert s.load_game() is None
    assert "d2" in s.problem or "illegal" in s.problem
    assert "game.bad" in os.listdir(d + SAVED)


def test_finished_games_are_appended_to_records():
    d = tmpdir("rec")
    s = Storage(d)
    for i in range(2):
        g = Game("7/7/7/7/3z3/7/7/3D3/7 w 24")
        g.move(10, 31)
        assert g.over
        s.save_game(g)
        s.finish_game(g)
    f = open(d + "records.txt")
    text = f.read()
    f.close()
    assert text.count('[Result "1-0"]') == 2 and text.count("1. d2xd5") == 2
    assert s.load_game() is None


def test_a_game_against_the_board_says_so_in_the_records():
    d = tmpdir("recopp")
    s = Storage(d)
    g = Game("7/7/7/7/3z3/7/7/3D3/7 w 24")
    g.opponent = "Brown 2"                     # the board played Brown at strength 2
    g.move(10, 31)
    s.finish_game(g)
    f = open(d + "records.txt")
    text = f.read()
    f.close()
    assert '[Opponent "Brown 2"]' in text
    assert parse_record(text).turn_texts() == ["d2xd5"]


def test_brightness_setting_round_trip_and_bad_values():
    d = tmpdir("set")
    s = Storage(d)
    assert s.load_brightness(40) == 40
    s.save_settings(65)
    assert Storage(d).load_brightness(40) == 65
    f = open(d + "settings.txt", "w")
    f.write("brightness=900\n")
    f.close()
    assert s.load_brightness(40) == 40


def test_power_on_reads_all_settings_from_one_read_of_the_file():
    d = tmpdir("settings_once")
    s = Storage(d)
    known = ("en", "de", "it", "es")
    assert s.load_settings(40, 0, "en", known) == (40, 0, "en")         # nothing saved
    s.save_settings(65, 1, "it")
    reads = []
    s2 = Storage(d)
    read = s2.read
    s2.read = lambda name: reads.append(name) or read(name)
    assert s2.load_settings(40, 0, "en", known) == (65, 1, "it")
    assert reads == [SETTINGS]
    f = open(d + SETTINGS, "w")
    f.write("brightness=900\npalette=7\nlanguage=fr\n")
    f.close()
    assert Storage(d).load_settings(40, 0, "de", known) == (40, 0, "de")   # bad: defaults


def test_error_log_keeps_newest_part():
    d = tmpdir("err")
    s = Storage(d)
    for i in range(300):
        s.log_error("error number %d\n" % i)
    f = open(d + "error.log")
    text = f.read()
    f.close()
    assert len(text) <= 4096 and "error number 299" in text and "error number 0\n" not in text
    raises(OSError, Storage(d + "missing/").save_game, Game())


def test_touch_move_duties_are_saved_with_the_game_and_survive_every_cut():
    # The duty is a tag line in the same file: atomic together with the game.
    from storage import duties_of
    d = tmpdir("duty")
    game = Game()
    Storage(d).save_game(game, "d2 -")
    s = Storage(d)
    assert s.load_game() is not None and s.duties == "d2 -"
    counter = CuttingFs(0)
    Storage(d, counter).save_game(game, "c2,e2 d5")
    for cut in range(1, counter.ops + 1):
        Storage(d).save_game(game, "d2 -")
        try:
            Storage(d, CuttingFs(cut)).save_game(game, "c2,e2 d5")
        except PowerCut:
            pass
        s = Storage(d)
        assert s.load_game() is not None, cut
        assert s.duties in ("d2 -", "c2,e2 d5"), (cut, s.duties)
    Storage(d).save_game(game)                   # no duty: no tag
    text = _read(d)
    assert "TouchMove" not in text and duties_of(text) == ""
    s = Storage(d)
    s.load_game()
    assert s.duties == ""


def test_events_are_written_atomically_next_to_the_game():
    from recorder import Recorder
    d = tmpdir("events")
    rec = Recorder(64, 64)
    rec.square(1000, 10, 0)
    rec.square(1300, 31, 1)
    Storage(d, recorder=rec).save_events(1700)
    f = open(d + "log/events.txt")
    first = f.read()
    f.close()
    assert "lift d2" in first and "drop d5" in first and first.rstrip().endswith("end")
    rec.square(2000, 52, 0)
    counter = CuttingFs(0)
    Storage(d, counter, rec).save_events(2100)
    for cut in range(1, counter.ops + 1):
        Storage(d, recorder=Recorder(64, 64)).save_events(0)
        Storage(d, recorder=rec).save_events(2100)
        before = open(d + "log/events.txt").read()
        try:
            Storage(d, CuttingFs(cut), Recorder(64, 64)).save_events(0)
        except PowerCut:
            pass
        now = open(d + "log/events.txt").read()
        assert now == before or "lift" not in now, cut   # old file, or the new one whole


def test_events_written_step_by_step_replace_the_old_file_only_when_complete():
    from recorder import Recorder
    d = tmpdir("events_steps")
    rec = Recorder(64, 64)
    st = Storage(d, recorder=rec)
    rec.square(1000, 10, 0)
    st.save_events(1100)
    old = open(d + "log/events.txt").read()
    for i in range(30):
        rec.square(1200 + 50 * i, 31, 1 - i % 2)
    st.begin_events(3000)
    steps = 0
    while not st.write_events(4):
        steps += 1
        assert open(d + "log/events.txt").read() == old     # a cut now keeps the last file
    assert steps > 5 and st.events_open is None
    new = open(d + "log/events.txt").read()
    assert new.count("d5") == 30 and new.rstrip().endswith("end")
    st.begin_events(3000)                              # a save before the file is done:
    st.write_events(4)                                 # that one is given up, the new one
    st.begin_events(3100)                              # written whole
    while not st.write_events(4):
        pass
    assert open(d + "log/events.txt").read().count("d5") == 30
    assert os.listdir(d) == ["log"] and os.listdir(d + "log") == ["events.txt"]


def test_the_events_before_a_power_cut_stay_until_the_first_save_after_it():
    # After a crash or a power cut, events.txt tells what the hands did before it: the board's
    # loop steps at power-on (work() while busy()) leave it alone until a save is made.
    from recorder import Recorder
    d = tmpdir("events_kept")
    rec = Recorder(64, 64)
    rec.square(1000, 10, 0)
    Storage(d, recorder=rec).save_events(1100)
    old = open(d + "log/events.txt").read()
    g = _short_game()
    rec = Recorder(64, 64)
    st = Storage(d, recorder=rec)
    rec.square(50, 31, 1)
    for t in range(100, 600, 100):
        if st.busy():
            st.work(t, 4)
    assert open(d + "log/events.txt").read() == old
    st.save(g)
    while st.busy():
        st.work(700, 4)
    assert "lift d2" not in open(d + "log/events.txt").read()


def test_palette_setting_and_brightness_in_one_settings_file():
    d = tmpdir("pal")
    s = Storage(d)
    assert s.load_palette() == 0
    s.save_settings(55, 1)
    s2 = Storage(d)
    assert s2.load_palette() == 1 and s2.load_brightness(40) == 55
    s2.save_settings(70, s2.load_palette())      # keeps the palette
    assert Storage(d).load_palette() == 1 and Storage(d).load_brightness(40) == 70


def _write_bytes(d, name, data):
    f = open(d + name, "wb")
    f.write(data)
    f.close()


def test_any_failure_to_load_keeps_the_file_aside_and_starts_cleanly():
    good = format_record(_short_game())
    cases = (
        ("bad bytes", b"\x00\xff\xfe garbage \x80\x81"),
        ("truncated", good.encode()[:len(good) * 2 // 3]),
        ("not UTF-8", good.encode().replace(b"d2-d5", b"d2\xe9d5")),
        ("binary", bytes(range(256)) * 4),
    )
    for what, data in cases:
        d = tmpdir("load_" + what.replace(" ", "_"))
        os.mkdir(d + SAVED)
        _write_bytes(d, GAME, data)
        s = Storage(d)
        loaded = s.load_game()
        if loaded is not None:                  # a cut at a turn boundary is still a game
            assert what == "truncated" and good.startswith(format_record(loaded)[:20]), what
            continue
        assert s.problem, what
        names = os.listdir(d + SAVED)
        assert "game.bad" in names and "game.txt" not in names, (what, names)
        f = open(d + BAD, "rb")
        assert f.read() == data, what           # kept byte for byte: nothing lost
        f.close()
        assert Storage(d).load_game() is None   # the next boot starts cleanly


def test_a_load_that_runs_out_of_memory_is_kept_aside_too():
    d = tmpdir("load_mem")
    _write(d, format_record(_short_game()))

    class Fs(Storage(d).fs.__class__):
        def open(self, path, mode):
            if path.endswith(GAME):
                raise MemoryError("memory allocation failed")
            return open(path, mode)

    s = Storage(d, Fs())
    assert s.load_game() is None
    assert "MemoryError" in s.problem
    assert "game.bad" in os.listdir(d + SAVED)


def _short_game():
    g = Game()
    for step in range(5):
        _play(g, step)
    return g


class FullFs:
    """The real filesystem, full: creating or growing a file fails with ENOSPC (or, as
    littlefs does when the directory has no room left, with errno 36)."""

    def __init__(self, errno=28):
        self.errno = errno

    def open(self, path, mode):
        if "w" in mode or "a" in mode:
            raise OSError(self.errno)
        return open(path, mode)

    def rename(self, a, b):
        os.rename(a, b)

    def remove(self, path):
        os.remove(path)

    def mkdir(self, path):
        raise OSError(self.errno)

    def stat(self, path):
        return os.stat(path)


def test_a_full_file_system_pauses_saves_and_loses_nothing():
    d = tmpdir("full")
    g = _short_game()
    Storage(d).save_game(g)
    before = format_record(g)
    s = Storage(d, FullFs())
    m = g.legal_moves()[0]
    g.move(m >> 6, m & 63)                         # the game goes on in memory
    assert s.save_game(g) is False and s.full
    assert format_record(Storage(d).load_game()) == before   # the last save is intact
    assert s.finish_game(g) is False and s.full
    assert Storage(d).load_game() is not None   # a finished game that cannot be recorded stays
    assert s.log_error("x\n") is False          # never raises
    assert Storage(d, FullFs(36)).save_game(g) is False
    raises(OSError, Storage(d, FullFs(5)).save_game, g)   # an I/O error is not "full"
    s.fs = Storage(d).fs                         # space again
    assert s.save_game(g) is True and not s.full


def test_records_are_rotated_so_they_never_fill_the_flash():
    import storage
    d = tmpdir("rotate")
    s = Storage(d)
    old_max = storage.RECORDS_MAX
    storage.RECORDS_MAX = 600
    try:
        for i in range(12):
            g = Game("7/7/7/7/3z3/7/7/3D3/7 w 24")
            g.move(10, 31)
            s.finish_game(g)
    finally:
        storage.RECORDS_MAX = old_max
    sizes = [os.stat(d + n)[6] for n in ("records.txt", "records.old")]
    assert all(0 < n <= 600 + 200 for n in sizes), sizes
    f = open(d + "records.txt")
    assert f.read().count('[Result "1-0"]') >= 1
    f.close()


def test_events_written_at_the_root_by_older_firmware_make_way_for_log_and_the_game_stays():
    # Older firmware kept events.txt at the root. The first events.txt written now goes into
    # log/ and the old one is removed; a power cut at any step of that leaves the saved game
    # as it was, and the next save finishes the move.
    from recorder import Recorder
    d = tmpdir("events_move")
    game = Game()
    _play(game, 0)
    rec = Recorder(64, 64)
    rec.square(1000, 10, 0)

    def old_board():
        scratch_dir("storage_events_move")
        Storage(d).save_game(game)
        for name in ("events.txt", "events.txt.tmp"):
            f = open(d + name, "w")
            f.write("0 end\n")
            f.close()

    old_board()
    counter = CuttingFs(0)
    Storage(d, counter, rec).save_events(1100)
    assert sorted(os.listdir(d)) == ["log", SAVED]
    assert "lift d2" in open(d + "log/events.txt").read()
    for cut in range(1, counter.ops + 1):
        old_board()
        try:
            Storage(d, CuttingFs(cut), rec).save_events(1100)
        except PowerCut:
            pass
        assert format_record(Storage(d).load_game()) == format_record(game), cut
        Storage(d, recorder=rec).save_events(1100)
        assert sorted(os.listdir(d)) == ["log", SAVED], cut
        assert "lift d2" in open(d + "log/events.txt").read(), cut


# --- nothing lost, nothing twice: finished games, a full flash, migration --------------------
def _finished_game():
    g = Game("7/7/7/7/3z3/7/7/3D3/7 w 24")
    g.move(10, 31)
    assert g.over
    return g


def _boot_and_record(fs):
    """What the board does at power-on with a finished saved game: load it, record it."""
    s = Storage("", fs)
    g = s.load_game()
    if g is not None and g.over:
        s.finish_game(g, s.clock)
    return s


def test_a_finished_game_is_recorded_exactly_once_whatever_power_cut_comes():
    # The finish appends the game to records.txt and removes game.txt: a cut between the
    # two used to leave the game in game.txt, and the next boot recorded it again.
    old = "[Result \"1-0\"]\n\nan older game\n\n"
    g = _finished_game()
    base = LittleFs({RECORDS: old})
    Storage("", base).save_game(g, "", "300000 299000 0 b")
    counter = LittleFs(dict(base.files))
    assert Storage("", counter).finish_game(g, "300000 299000 0 b")
    assert counter.files[RECORDS].count("d2xd5") == 1 and GAME not in counter.files
    for cut in range(1, counter.ops + 1):
        fs = LittleFs(dict(base.files), cut)
        try:
            Storage("", fs).finish_game(g, "300000 299000 0 b")
        except PowerCut:
            pass
        after = LittleFs(dict(fs.files))
        s = _boot_and_record(after)              # the next power-on, maybe the one after
        _boot_and_record(after)
        assert not s.problem, (cut, s.problem)
        text = after.files[RECORDS]
        assert text.startswith(old) and text.count("1. d2xd5") == 1, (cut, text)
        assert '[Clock "300000 299000 0 b"]' in text and "Recorded" not in text, cut
        assert GAME not in after.files, cut
        assert parse_record(text[len(old):]).turn_texts() == ["d2xd5"]


def test_a_full_flash_while_records_are_rotated_keeps_the_game_and_does_not_raise():
    # records.txt past RECORDS_MAX is renamed to records.old first; on a full flash that
    # rename failed with ENOSPC outside the try: the board reset, and every boot again.
    import storage

    class Full(LittleFs):                        # (a rename that needs a new metadata block)
        def rename(self, a, b):
            if self._is_full():
                self._tick()
                raise OSError(28)
            LittleFs.rename(self, a, b)
    g = _finished_game()
    fs = Full({RECORDS: "x" * 700, RECORDS_OLD: "older"})
    s = Storage("", fs)
    s.save_game(g)
    fs.full = fs.ops                             # nothing more fits
    old_max = storage.RECORDS_MAX
    storage.RECORDS_MAX = 600
    try:
        assert s.finish_game(g) is False and s.full
        assert _boot_and_record(Full(dict(fs.files), full=1)).full
    finally:
        storage.RECORDS_MAX = old_max
    assert format_record(Storage("", fs).load_game()) == format_record(g)    # not lost
    assert fs.files[RECORDS] == "x" * 700 and fs.files[RECORDS_OLD] == "older"


def test_a_finished_game_that_could_not_be_recorded_waits_for_room_and_is_not_overwritten():
    g = _finished_game()
    fs = LittleFs()
    s = Storage("", fs)
    s.save_game(g)
    fs.full = fs.ops + 1                         # full: the record fails
    assert s.finish_game(g) is False and s.full
    new = Game()
    new.move(10, 31)
    for i in range(3):                           # the next game's saves: refused, game.txt kept
        assert s.save_game(new) is False and s.full
        assert Storage("", LittleFs(dict(fs.files))).load_game().over
    fs.full = 0                                  # room again: recorded first, then saved
    assert s.save_game(new) is True and not s.full
    assert fs.files[RECORDS].count("1. d2xd5") == 1
    assert not Storage("", fs).load_game().over
    assert s.save_game(new) and fs.files[RECORDS].count("1. d2xd5") == 1    # once


def test_an_empty_or_unreadable_saved_game_is_reported_and_kept():
    # An empty game.txt: nothing to keep, but the player is told (problem); one that cannot
    # be read at all (an I/O error opening it) is kept aside as game.bad like a damaged one.
    fs = LittleFs({SAVED: None, GAME: ""})
    s = Storage("", fs)
    assert s.load_game() is None and s.problem and s.notes[0][1:4] == ("empty", "", "")
    assert GAME not in fs.files

    class Unreadable(LittleFs):
        def open(self, path, mode):
            if path == GAME and "r" in mode:
                raise OSError(5)
            return LittleFs.open(self, path, mode)
    fs = Unreadable({SAVED: None, GAME: format_record(_short_game())})
    s = Storage("", fs)
    assert s.load_game() is None and "OSError" in s.problem and s.notes[0][3] == BAD
    assert fs.files[BAD] == format_record(_short_game()) and GAME not in fs.files
    from storage import COPY
    fs = LittleFs()
    _saved_twice(fs, _short_game())
    del fs.files[GAME]                           # only the copy left, and it is damaged:
    text = fs.files[COPY]                        # the simulator's page says why
    fs.files[COPY] = text[:40] + ("x" if text[40] != "x" else "y") + text[41:]
    s = Storage("", fs)
    assert s.load_game() is None and "seal" in s.problem, s.problem


def test_the_first_save_of_a_game_never_leaves_an_empty_file():
    # littlefs commits a created file at once, empty: the first save of a game goes to a
    # temporary file renamed into place, so a cut anywhere leaves no game or the whole one.
    g = Game()
    counter = LittleFs()
    Storage("", counter).save_game(g)
    for cut in range(1, counter.ops + 1):
        fs = LittleFs(cut=cut)
        try:
            Storage("", fs).save_game(g)
        except PowerCut:
            pass
        assert fs.files.get(GAME) in (None, format_record(g)), cut


def test_the_game_saved_at_the_root_by_older_firmware_moves_to_saved_through_any_cut():
    # Older firmware kept game.txt at the root, where every save made littlefs compact the
    # root's metadata (every firmware file): it moves to saved/ once, at the next boot (a
    # copy, then the root's removed: see storage._migrate; the emulated Pico checks the same
    # on real littlefs, test_rp2040_power_cut.py).
    g = _short_game()
    text = _full_text(g, "d2 -", "300000 290000 0 w")
    base = {OLD_GAME: text, RECORDS: "older\n"}
    counter = LittleFs(dict(base))
    moved = Storage("", counter)
    assert format_record(moved.load_game()) == format_record(g)
    assert set(counter.files) == {SAVED, GAME, RECORDS} and _body(counter.files[GAME]) == text
    assert moved.notes == []                     # moved: nothing to tell
    for cut in range(1, counter.ops + 1):
        fs = LittleFs(dict(base), cut)
        try:
            Storage("", fs).load_game()
        except PowerCut:
            pass
        again = LittleFs(dict(fs.files))
        s = Storage("", again)
        assert format_record(s.load_game()) == format_record(g), cut
        assert s.duties == "d2 -" and s.clock == "300000 290000 0 w", cut
        assert set(again.files) - {TMP} == {SAVED, GAME, RECORDS}, (cut, again.files)
        m = g.legal_moves()[0]
        g.move(m // 64, m % 64)
        assert s.save_game(g) and _body(again.files[GAME]) == _full_text(g), cut
        g.undo()


def test_a_game_at_the_root_that_differs_from_the_one_in_saved_is_the_newer_one():
    # Firmware before saved/ put back on the board, played, then this firmware again: the
    # root's game is the newer one; the one in saved/ is kept aside, not lost.
    older, newer = _full_text(Game()), _full_text(_short_game())
    fs = LittleFs({SAVED: None, GAME: older, OLD_GAME: newer})
    s = Storage("", fs)
    assert format_record(s.load_game()) == format_record(_short_game())
    assert _body(fs.files[GAME]) == newer and fs.files[BAD] == older and OLD_GAME not in fs.files


def test_an_abandoned_events_file_never_replaces_the_good_one():
    from recorder import Recorder
    rec = Recorder(64, 64)
    for i in range(20):
        rec.square(1000 + 100 * i, 10, i & 1)
    fs = LittleFs()
    st = Storage("", fs, rec)
    assert st.save_events(3000)
    good = fs.files["log/events.txt"]
    rec.square(5000, 52, 0)
    st.begin_events(5100)
    st.write_events(4)                           # a few lines of the next file, then a save:
    fs.full = fs.ops + 1                         # that file is given up, and the flash is
    st.begin_events(5200)                        # full: the next one cannot even start
    assert st.events_open is None and st.full and fs.files["log/events.txt"] == good
    assert "log/events.txt.tmp" not in fs.files


def test_the_language_is_saved_with_the_settings_and_a_power_cut_never_loses_it():
    known = ("en", "de", "it", "es")
    d = tmpdir("lang")
    s = Storage(d)
    assert s.load_language("en", known) == "en"               # nothing saved: the default
    s.save_settings(55, 1, "de")
    s2 = Storage(d)
    assert s2.load_language("en", known) == "de" and s2.load_brightness(40) == 55
    s2.save_settings(70, 1)                                   # no language given: kept
    assert Storage(d).load_language("en", known) == "de"
    _write_bytes(d, SETTINGS, b"brightness=40\npalette=0\nlanguage=fr\n")
    assert Storage(d).load_language("it", known) == "it"      # not a language of the board
    # a power cut at every step of a save: the old or the new choice, never none
    Storage(d).save_settings(40, 0, "de")
    counter = CuttingFs(0)
    Storage(d, counter).save_settings(40, 0, "es")
    assert counter.ops >= 4
    for cut in range(1, counter.ops + 1):
        Storage(d).save_settings(40, 0, "de")
        try:
            Storage(d, CuttingFs(cut)).save_settings(45, 0, "es")
        except PowerCut:
            pass
        s = Storage(d)
        got = (s.load_language("en", known), s.load_brightness(5))
        assert got in (("de", 40), ("es", 45)), (cut, got)


# --- one policy for every file the board reads back (files.py) ------------------------------
KNOWN = ("en", "de", "it", "es")


class StrictFull(LittleFs):
    """LittleFs where, once the flash is full, a rename or a remove fails too (littlefs
    commits both to the directory's metadata, which may need a new block), and a remove can
    be made to fail on its own (`stuck`)."""
    stuck = False

    def rename(self, a, b):
        if self._is_full():
            self._tick()
            raise OSError(28)
        LittleFs.rename(self, a, b)

    def remove(self, path):
        if self._is_full() or self.stuck:
            self._tick()
            raise OSError(28)
        LittleFs.remove(self, path)


def _names(notes):
    return [n[0] for n in notes]


def test_a_settings_file_that_is_not_utf8_gives_the_defaults_at_every_boot_and_is_set_aside():
    # It used to raise UnicodeError out of the App at every power-on: the board reset for ever.
    d = tmpdir("settings_utf8")
    data = b"brightness=65\npalette=1\nlanguage=d\xe9\n"
    _write_bytes(d, SETTINGS, data)
    s = Storage(d)
    assert s.load_settings(40, 0, "en", KNOWN) == (40, 0, "en")
    f = open(d + "settings.bad", "rb")
    assert f.read() == data                      # kept byte for byte
    f.close()
    assert SETTINGS not in os.listdir(d)
    assert s.notes == [(SETTINGS, "damaged", s.notes[0][2], "settings.bad", "defaults")]
    again = Storage(d)                           # said once: the next boot has nothing to say
    assert again.load_settings(40, 0, "en", KNOWN) == (40, 0, "en") and again.notes == []
    assert again.save_settings(70, 1, "de")
    assert Storage(d).load_settings(40, 0, "en", KNOWN) == (70, 1, "de")


def test_a_damaged_error_log_is_set_aside_and_every_later_error_is_logged():
    # A log that could not be read used to drop every later error, for ever.
    d = tmpdir("errlog_bad")
    data = b"an old error \xff\xfe\n"
    _write_bytes(d, "error.log", data)
    s = Storage(d)
    assert s.log_error("sensor bus glitch\n") is True
    assert s.log_error("second error\n") is True
    f = open(d + "error.log")
    text = f.read()
    f.close()
    assert text == "sensor bus glitch\nsecond error\n"
    f = open(d + "error.bad", "rb")
    assert f.read() == data
    f.close()
    assert _names(s.notes) == ["error.log"] and s.notes[0][3:] == ("error.bad", "new log")


def test_a_root_game_that_could_not_be_removed_never_replaces_the_game_played_since():
    # Older firmware's game.txt at the root is copied into saved/, then removed; when that
    # remove failed, the next boot took the root's for the newer game and resumed an older
    # position. The copy now names the root's file by its CRC in its seal.
    g = _short_game()
    fs = StrictFull({OLD_GAME: _full_text(g), RECORDS: "older\n"})
    fs.stuck = True                              # (every remove fails)
    s = Storage("", fs)
    assert format_record(s.load_game()) == format_record(g)
    for boot in range(3):
        m = g.legal_moves()[0]
        g.move(m // 64, m % 64)                  # played on, saved
        assert s.save_game(g)
        s = Storage("", fs)                      # the next power-on, the root's still there
        assert format_record(s.load_game()) == format_record(g), boot
        assert OLD_GAME in fs.files and _names(s.notes) == [OLD_GAME], (boot, s.notes)
        assert s.notes[0][1] == "not removed"    # said at every boot while it stays
    fs.stuck = False
    s = Storage("", fs)
    assert format_record(s.load_game()) == format_record(g) and s.notes == []
    assert OLD_GAME not in fs.files and BAD not in fs.files
    assert s.save_game(g) and "[Save " in fs.files[GAME] and s.root_crc is None


def test_a_full_flash_at_the_move_into_saved_resumes_the_game_and_loses_nothing():
    # A full flash from any operation of the first boot after the update on: the game at
    # the root is still resumed (it used to start a new game as if none was saved), and the
    # boots after it find the game played since. A flash full for new files may still let
    # one be removed (LittleFs) or not (StrictFull).
    g = _short_game()
    text = _full_text(g, "d2 -", "300000 290000 0 w")
    counter = StrictFull({OLD_GAME: text})
    Storage("", counter).load_game()
    for kind, full in [(k, n) for k in (StrictFull, LittleFs) for n in range(1, counter.ops + 2)]:
        fs = kind({OLD_GAME: text}, full=full)
        s = Storage("", fs)
        got = s.load_game()
        assert got is not None and format_record(got) == format_record(g), full
        assert s.duties == "d2 -" and s.clock == "300000 290000 0 w", full
        cut = Storage("", kind(dict(fs.files), full=1)).load_game()  # a power cut now
        assert cut is not None and format_record(cut) == format_record(g), (kind, full)
        played = Game()
        for step in range(5):
            _play(played, step)
        m = played.legal_moves()[0]
        played.move(m // 64, m % 64)
        s.save_game(played)                      # full: refused, or saved
        fs.full = 0                              # room again
        assert s.save_game(played), full
        s2 = Storage("", fs)
        assert format_record(s2.load_game()) == format_record(played), (full, fs.files)
        assert set(fs.files) == {SAVED, GAME}, (full, sorted(fs.files))


def _saved_twice(fs, game):
    s = Storage("", fs)
    assert s.save_game(game) and s.write_copy()
    return s


def test_a_damaged_game_txt_resumes_from_its_copy_and_is_kept():
    from storage import COPY
    g = _short_game()
    fs = LittleFs()
    _saved_twice(fs, g)
    assert fs.files[COPY] == fs.files[GAME]
    good = fs.files[GAME]
    for i in range(0, len(good), 7):             # (every byte: test_damaged_files.py)
        fs.files[GAME] = good[:i] + chr(ord(good[i]) ^ 1) + good[i + 1:]
        damaged = fs.files[GAME]
        s = Storage("", fs)
        assert format_record(s.load_game()) == format_record(g), i
        if GAME in fs.files:                     # the seal's tag name hit: an older game.txt
            assert fs.files[GAME] == damaged and not s.notes and i < 6, i
            continue
        assert fs.files[BAD] == damaged, i
        assert [n[1:] for n in s.notes if n[0] == GAME] == [
            ("damaged", s.notes[0][2], BAD, "copy")], (i, s.notes)
        assert s.save_game(g) and s.write_copy() and _body(fs.files[GAME]) == _body(good)


def test_the_newer_copy_is_told_by_its_seal_not_by_its_place():
    from storage import COPY
    older, newer = Game(), _short_game()
    fs = LittleFs()
    s = _saved_twice(fs, older)
    for step in range(5):                        # (the same game played on: the same Storage)
        _play(older, step)
    assert s.save_game(older)                    # game.txt newer than copy.txt (a cut came)
    assert format_record(Storage("", LittleFs(dict(fs.files))).load_game()) == \
        format_record(newer)
    swapped = dict(fs.files)
    swapped[GAME], swapped[COPY] = fs.files[COPY], fs.files[GAME]
    assert format_record(Storage("", LittleFs(swapped)).load_game()) == format_record(newer)


def test_a_power_cut_anywhere_in_a_save_and_its_copy_resumes_the_game_before_or_after():
    # From the first save of a game (both files created: never left empty) on.
    g = Game()
    fs = LittleFs()
    for step in range(-1, 3):
        before = format_record(g) if step >= 0 else None
        if step >= 0:
            _play(g, step)
        after = format_record(g)
        counter = LittleFs(dict(fs.files))
        _saved_twice(counter, g)
        for cut in range(1, counter.ops + 1):
            trial = LittleFs(dict(fs.files), cut)
            try:
                _saved_twice(trial, g)
            except PowerCut:
                pass
            s = Storage("", LittleFs(dict(trial.files)))
            got = s.load_game()
            assert (got and format_record(got)) in (before, after), (step, cut)
            assert s.notes == [], (step, cut, s.notes)
        _saved_twice(fs, g)


def test_a_finished_game_is_recorded_once_even_when_its_copy_cannot_be_removed():
    from storage import COPY
    g = _finished_game()
    fs = StrictFull()
    _saved_twice(fs, g)
    fs.stuck = True                              # copy.txt stays: game.txt must stay too
    s = Storage("", fs)
    assert s.finish_game(s.load_game()) and COPY in fs.files and GAME in fs.files
    assert (COPY, "not removed") in [n[:2] for n in s.notes]
    fs.stuck = False
    for boot in range(2):
        _boot_and_record(fs)
    assert fs.files[RECORDS].count("1. d2xd5") == 1 and set(fs.files) == {SAVED, RECORDS}


def test_a_directory_where_a_file_should_be_is_set_aside_and_the_board_goes_on():
    from recorder import Recorder
    d = tmpdir("dirs")
    for name in (SETTINGS, "error.log", RECORDS, SAVED + "/game.txt", "log/events.txt"):
        if "/" in name and name.split("/")[0] not in os.listdir(d):
            os.mkdir(d + name.split("/")[0])
        os.mkdir(d + name)
    rec = Recorder(64, 64)
    rec.square(1000, 10, 0)
    s = Storage(d, recorder=rec)
    assert s.load_settings(40, 0, "en", KNOWN) == (40, 0, "en")
    assert s.load_game() is None
    assert s.log_error("x\n")
    assert s.finish_game(_finished_game())
    assert s.save_events(2000)
    assert sorted(n[0] for n in s.notes) == sorted(
        ["error.log", "log/events.txt", RECORDS, GAME, SETTINGS]), s.notes
    for name in ("settings.bad", "error.bad", "records.bad", "saved/game.bad", "log/events.bad"):
        assert os.stat(d + name)[0] & 0x4000, name   # each one kept, as it was
    f = open(d + RECORDS)
    assert f.read().count("1. d2xd5") == 1
    f.close()
    d = tmpdir("dirs_log")                       # a file where the log/ folder should be
    _write_bytes(d, "log", b"not a folder")
    s = Storage(d, recorder=rec)
    assert s.save_events(2000) and s.notes[0][:4] == ("log", "damaged", s.notes[0][2], "log.bad")
    f = open(d + "log/events.txt")
    assert "lift d2" in f.read()
    f.close()


def test_on_littlefs_only_the_first_save_of_a_game_and_its_copy_are_renamed_into_place():
    # littlefs commits a created file at once, empty: the first save of each file goes to a
    # temporary file renamed into place; every later one straight over the old file (one
    # metadata commit instead of three).
    renames = []

    class Counting(LittleFs):
        def rename(self, a, b):
            renames.append(b)
            LittleFs.rename(self, a, b)
    g = Game()
    s = Storage("", Counting())
    for step in range(5):
        _play(g, step)
        assert s.save(g) and s.write_copy()
    from storage import COPY
    assert renames == [GAME, COPY], renames


def test_a_game_resumed_from_its_copy_keeps_that_copy_when_a_tag_cannot_be_used():
    from storage import COPY
    g = _short_game()
    fs = LittleFs()
    s = Storage("", fs)
    assert s.save_game(g, "", "300000 ten w") and s.write_copy()
    fs.files[GAME] = fs.files[GAME][:40]                # damaged: the copy resumes
    s = Storage("", fs)
    assert format_record(s.load_game()) == format_record(g) and s.clock == "300000 ten w"
    assert s.keep_aside() and fs.files[BAD] == fs.files[COPY]   # (app.py: the tag unreadable)


def test_events_that_fill_the_flash_half_written_never_replace_the_good_ones():
    from recorder import Recorder
    rec = Recorder(64, 64)
    for i in range(30):
        rec.square(1000 + 100 * i, 10, i & 1)
    fs = LittleFs()
    st = Storage("", fs, rec)
    assert st.save_events(4000)
    good = fs.files["log/events.txt"]
    rec.square(5000, 52, 0)
    st.begin_events(5100)
    st.write_events(4)
    fs.full = fs.ops + 1                         # full while its lines are written
    while not st.write_events(4):                # (the failing write is the last part of
        assert st.events_open is not None        # the work: no idle call after it)
    assert st.full and fs.files["log/events.txt"] == good
    assert "log/events.txt.tmp" not in fs.files


def test_a_setting_out_of_its_range_is_damage_and_the_edges_are_kept():
    d = tmpdir("set_edges")
    for text, want in (("brightness=5\npalette=0\n", (5, 0)), ("brightness=100\npalette=1\n",
                       (100, 1)), ("brightness=4\npalette=0\n", (40, 0)),
                       ("brightness=101\npalette=0\n", (40, 0)),
                       ("brightness=50\npalette=2\n", (40, 0))):
        _write_bytes(d, SETTINGS, text.encode())
        s = Storage(d)
        assert s.load_settings(40, 0, "en", KNOWN)[:2] == want, text
        assert bool(s.notes) == (want == (40, 0)), (text, s.notes)
