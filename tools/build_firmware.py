#!/usr/bin/env python3
"""Build the board's own MicroPython: stock MicroPython v1.28.0 for the Pico with the whole
firmware frozen in, as one UF2 file to flash.

    python tools/build_firmware.py [--micropython DIR|TARBALL] [--board RPI_PICO] [--jobs N]
                                   [--clean] [--check]

Writes build/barragoon-<version>-<board>.uf2. Flash it with `python tools/deploy.py --uf2
FILE` (or hold BOOTSEL while plugging the Pico in and copy the file onto the RPI-RP2 drive);
main.py and config.py stay files on the board, everything else runs from flash: no .mpy files
to load at boot, and far more heap for the game (tools/bench/README.md has the figures).

MicroPython's source (v1.28.0 with the rp2 port's submodules) comes from, in this order:
--micropython (a source tree, the source tarball, or a folder holding that tarball),
$BARRAGOON_MICROPYTHON (the same), or a folder shared/micropython/ beside the repository's.
A tarball is unpacked once into build/micropython/. picotool (which pico-sdk runs while building) is
built once from picotool's source found beside MicroPython's (or --picotool); without one,
pico-sdk downloads it.

Needs the ARM toolchain (arm-none-eabi-gcc with newlib), cmake, make and a host C/C++
compiler; when one is missing it says what to install on Debian/Ubuntu, macOS and Windows.

Every configuration (board, source, toolchain, manifest) builds in a folder of its own under
build/micropython/, so a build can never come out of a folder configured for something else
(MicroPython's own Makefile silently ignores a new FROZEN_MANIFEST in an existing folder); the
UF2 is checked for the build mark of this tree's sources before it is copied out. A second run
with nothing changed only lets make confirm that (seconds). --clean starts this
configuration's folder afresh. The whole output of each step goes to build.log in that folder;
a failure prints its last lines and what to do.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import deploy  # noqa: E402
from toolkit import uf2  # noqa: E402

FIRMWARE = os.path.join(ROOT, "firmware")
BUILD = os.path.join(ROOT, "build")
WORK = os.path.join(BUILD, "micropython")
SHARED = os.path.join(ROOT, "..", "shared", "micropython")
ENV_SOURCE = "BARRAGOON_MICROPYTHON"
ENV_PICOTOOL = "BARRAGOON_PICOTOOL"
MP_VERSION = (1, 28, 0)
MP_TAG = "v%d.%d.%d" % MP_VERSION
TARBALL_GLOB = "micropython-%s*.tar*" % MP_TAG
PICOTOOL_GLOB = "picotool-*src*.tar*"
# The rp2 port's submodules that a Pico build reads (checked before anything is built).
SUBMODULES = ("lib/pico-sdk/README.md", "lib/tinyusb/src/tusb.h",
              "lib/micropython-lib/README.md")
LOG_TAIL = 25
# A sitecustomize.py for the build's Python scripts: word-aligns the frozen native code (the
# RP2040 faults on the word MicroPython reads at its start; see that file).
FREEZE_FIX = os.path.join(HERE, "boards", "freeze")


class Board:
    """One build target. Pico W and Pico 2 are later work: each needs its own entry (and a
    manifest that includes its board's own manifest, for the network stack)."""

    def __init__(self, name, port, chip, storage_offset):
        self.name = name                  # MicroPython's board name (ports/<port>/boards/)
        self.port = port
        self.chip = chip
        self.storage_offset = storage_offset   # where the littlefs area starts in flash
        self.manifest = os.path.join(HERE, "boards", name, "manifest.py")


BOARDS = {"RPI_PICO": Board("RPI_PICO", "rp2", "RP2040", 0xA0000)}

GET_SOURCE = """\
MicroPython %(tag)s's source was not found (tried: %(tried)s). Get it once (about 400 MB):
  git clone --depth 1 --branch %(tag)s https://github.com/micropython/micropython.git
  git -C micropython submodule update --init --depth 1 lib/pico-sdk lib/tinyusb lib/micropython-lib lib/mbedtls
then run: python tools/build_firmware.py --micropython micropython
(or set $%(env)s to that folder, or to a source tarball).""" % {
    "tag": MP_TAG, "env": ENV_SOURCE, "tried": "%s"}

INSTALL_TOOLCHAIN = (
    "  Debian/Ubuntu: sudo apt install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake "
    "build-essential",
    "  macOS:         xcode-select --install; brew install cmake; "
    "brew install --cask gcc-arm-embedded",
    "  Windows:       build inside WSL (wsl --install -d Ubuntu), with the Debian/Ubuntu line",
)


class BuildError(Exception):
    """Stops the build: printed as it is (no traceback), exit status 1 (2 for usage)."""

    def __init__(self, message, status=1):
        Exception.__init__(self, message)
        self.status = status


# --- what is needed and where it is --------------------------------------------------------------

def missing_tools(which=shutil.which, run=subprocess.run):
    """Names of the build tools this computer lacks (empty: all there)."""
    missing = []
    gcc = which("arm-none-eabi-gcc")
    if gcc is None:
        missing.append("arm-none-eabi-gcc")
    else:
        # Without newlib the compiler answers with the bare name: nothing to link against.
        try:
            libc = run([gcc, "-print-file-name=libc.a"], capture_output=True, text=True,
                       timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            libc = ""
        if not os.path.isabs(libc) or not os.path.exists(libc):
            missing.append("newlib for arm-none-eabi")
    for tool, name in (("cmake", "cmake"), ("make", "make")):
        if which(tool) is None:
            missing.append(name)
    if which("cc") is None and which("gcc") is None and which("clang") is None:
        missing.append("a C compiler for this computer")
    if which("c++") is None and which("g++") is None and which("clang++") is None:
        missing.append("a C++ compiler for this computer")
    return missing


def toolchain_problem(missing):
    return ("missing: %s. Install, then run this again:\n%s"
            % (", ".join(missing), "\n".join(INSTALL_TOOLCHAIN)))


def is_tree(path):
    return (os.path.isfile(os.path.join(path, "py", "mpconfig.h"))
            and os.path.isdir(os.path.join(path, "ports")))


def locate_source(given=None, environ=os.environ, shared=SHARED):
    """("tree" | "tarball", path): MicroPython's source, from --micropython, $ENV_SOURCE or the
    shared folder, in that order. A folder may be a source tree, hold one as micropython/, or
    hold the tarball."""
    tried = []
    for origin, path in (("--micropython", given), ("$" + ENV_SOURCE, environ.get(ENV_SOURCE)),
                         ("", shared)):
        if not path:
            continue
        path = os.path.abspath(os.path.expanduser(path))
        explicit = bool(origin)
        if os.path.isfile(path):
            if not re.search(r"\.tar(\.\w+)?$", path):
                raise BuildError("%s %s is a file but not a source tarball (.tar.xz, .tar.gz)"
                                 % (origin, path), 2)
            return "tarball", path
        if os.path.isdir(path):
            if is_tree(path):
                return "tree", path
            if is_tree(os.path.join(path, "micropython")):
                return "tree", os.path.join(path, "micropython")
            found = sorted(glob.glob(os.path.join(path, TARBALL_GLOB)))
            if found:
                return "tarball", found[-1]
            if explicit:
                raise BuildError("%s %s holds neither MicroPython's source nor its %s tarball"
                                 % (origin, path, MP_TAG), 2)
        elif explicit:
            raise BuildError("%s %s: no such file or folder" % (origin, path), 2)
        tried.append(path)
    raise BuildError(GET_SOURCE % (", ".join(tried) or "nothing given"))


def locate_picotool(given, source_path, environ=os.environ):
    """picotool's source (a tree or a tarball) or None: --picotool, $ENV_PICOTOOL, or beside
    MicroPython's source (its tarball's folder, or the tree's parent)."""
    for path in (given, environ.get(ENV_PICOTOOL)):
        if path:
            path = os.path.abspath(os.path.expanduser(path))
            if not os.path.exists(path):
                raise BuildError("picotool source %s: no such file or folder" % path, 2)
            return path
    near = os.path.dirname(source_path)
    found = sorted(glob.glob(os.path.join(near, PICOTOOL_GLOB)))
    if found:
        return found[-1]
    tree = os.path.join(near, "picotool")
    return tree if os.path.isfile(os.path.join(tree, "CMakeLists.txt")) else None


def source_version(tree):
    """(major, minor, micro) of a MicroPython source tree (py/mpconfig.h)."""
    with open(os.path.join(tree, "py", "mpconfig.h")) as f:
        text = f.read()
    parts = []
    for name in ("MAJOR", "MINOR", "MICRO"):
        m = re.search(r"#define MICROPY_VERSION_%s \(?(\d+)\)?" % name, text)
        if m is None:
            raise BuildError("%s does not say its MicroPython version (py/mpconfig.h)" % tree)
        parts.append(int(m.group(1)))
    return tuple(parts)


def check_tree(tree, board):
    version = source_version(tree)
    if version != MP_VERSION:
        raise BuildError("%s is MicroPython v%d.%d.%d; the board's firmware is built on %s "
                         "(its .mpy format and the tests are for it): check out that tag"
                         % ((tree,) + version + (MP_TAG,)))
    if not os.path.isdir(os.path.join(tree, "ports", board.port, "boards", board.name)):
        raise BuildError("%s has no board %s in ports/%s" % (tree, board.name, board.port))
    absent = [s.split("/")[1] for s in SUBMODULES if not os.path.exists(os.path.join(tree, s))]
    if absent:
        raise BuildError("%s lacks the submodules %s. Fetch them: git -C %s submodule update "
                         "--init --depth 1 %s" % (tree, ", ".join(absent), tree,
                                                 " ".join("lib/" + a for a in absent)))


def file_id(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:12]


def short_hash(obj):
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:10]


# --- steps -------------------------------------------------------------------------------------

class Log:
    """build.log of one configuration: every step's command and whole output."""

    def __init__(self, path):
        self.path = path
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.f = open(path, "w")

    def close(self):
        self.f.close()


def say(text):
    print(text, flush=True)


def run_step(log, title, cmd, advice, cwd=None, env=None, progress=None):
    """Run one command, its output into the log; progress(line) sees each line. A failure
    raises BuildError with the output's last lines and the advice."""
    log.f.write("\n$ %s\n" % " ".join(cmd))
    log.f.flush()
    tail = []
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, errors="replace")
    except OSError as e:
        raise BuildError("%s: cannot run %s: %s" % (title, cmd[0], e.strerror or e))
    for line in proc.stdout:
        log.f.write(line)
        tail.append(line.rstrip("\n"))
        del tail[:-LOG_TAIL]
        if progress is not None:
            progress(line)
    rc = proc.wait()
    log.f.flush()
    if rc != 0:
        raise BuildError("%s failed (exit %d). Its last lines:\n%s\n%s (the whole output: %s)"
                         % (title, rc, "\n".join("  " + t for t in tail), advice,
                            deploy.nice(log.path)))


def unpack(tarball, into):
    """The tarball unpacked once into `into` (a complete unpack only: made beside it and
    renamed); returns the source tree in it."""
    done = os.path.join(into, ".unpacked")
    if not os.path.exists(done):
        say("unpacking %s into %s (once)" % (os.path.basename(tarball), deploy.nice(into)))
        if os.path.exists(into):
            shutil.rmtree(into)
        os.makedirs(os.path.dirname(into), exist_ok=True)
        for old in glob.glob(os.path.join(os.path.dirname(into), ".unpack-*")):
            shutil.rmtree(old, ignore_errors=True)     # an unpack that was interrupted
        tmp = tempfile.mkdtemp(prefix=".unpack-", dir=os.path.dirname(into))
        try:
            with tarfile.open(tarball) as t:
                try:
                    t.extractall(tmp, filter="tar")
                except TypeError:            # Python before 3.12: no filter argument
                    t.extractall(tmp)
        except (OSError, tarfile.TarError, EOFError) as e:
            shutil.rmtree(tmp, ignore_errors=True)
            raise BuildError("cannot unpack %s: %s" % (tarball, e))
        os.rename(tmp, into)
        open(done, "w").close()
    entries = [e for e in sorted(os.listdir(into)) if not e.startswith(".")]
    for e in entries:
        top = os.path.join(into, e)
        if is_tree(top) or os.path.isfile(os.path.join(top, "CMakeLists.txt")):
            return top
    raise BuildError("%s does not unpack to a source folder" % tarball)


def build_mpy_cross(log, tree, out, jobs, env):
    """MicroPython's own mpy-cross (it compiles the frozen modules), built outside the tree."""
    exe = os.path.join(out, "mpy-cross")
    if os.path.exists(exe):
        return exe
    say("mpy-cross: building it from the source (once)")
    run_step(log, "building mpy-cross", ["make", "-C", os.path.join(tree, "mpy-cross"),
                                          "BUILD=" + out, "-j%d" % jobs], HOST_ADVICE, env=env)
    return exe


def build_picotool(log, src, out, pico_sdk, jobs, env):
    """picotool installed into out (once); returns its cmake package folder."""
    pkg = os.path.join(out, "install", "picotool")
    if os.path.exists(os.path.join(pkg, "picotoolConfig.cmake")):
        return pkg
    say("picotool: building it from %s (once)" % os.path.basename(src))
    if os.path.isfile(src):
        src = unpack(src, os.path.join(out, "src"))
    bdir = os.path.join(out, "build")
    run_step(log, "configuring picotool",
             ["cmake", "-S", src, "-B", bdir, "-DPICO_SDK_PATH=" + pico_sdk,
              "-DPICOTOOL_NO_LIBUSB=1", "-DPICOTOOL_FLAT_INSTALL=1",
              "-DCMAKE_INSTALL_PREFIX=" + os.path.join(out, "install")], HOST_ADVICE, env=env)
    run_step(log, "building picotool", ["cmake", "--build", bdir, "--target", "install", "--",
                                        "-j%d" % jobs], HOST_ADVICE, env=env)
    return pkg


HOST_ADVICE = ("The compiler for this computer stopped: check that build-essential (Debian/"
               "Ubuntu) or the Xcode command line tools (macOS) are installed.")
CONFIGURE_ADVICE = ("cmake could not set the build up: the lines above name what it missed "
                    "(a tool, or a submodule of the source); fix that and run this again.")
COMPILE_ADVICE = ("If a firmware .py file is named above, fix it (it is compiled for freezing); "
                  "otherwise start this configuration afresh with --clean.")


class Progress:
    """The compile step's "[ 45%]" lines shown every 10 %."""

    def __init__(self):
        self.shown = -10

    def __call__(self, line):
        m = re.match(r"\[\s*(\d+)%\]", line)
        if m and int(m.group(1)) >= self.shown + 10:
            self.shown = int(m.group(1)) // 10 * 10
            say("  compiling: %3d %%" % self.shown)


def write_if_changed(path, text):
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", newline="\n") as f:
        f.write(text)


def build_info_text(mark):
    return ("# Written by tools/build_firmware.py: what this build froze in (version, board,\n"
            "# id of the firmware sources). tools/deploy.py reads it from the board.\n"
            "BUILD = %r\n" % mark)


def output_path(board, out_dir=BUILD):
    return os.path.join(out_dir, "barragoon-%s-%s.uf2" % (deploy.firmware_version(), board.name))


def configuration(board, tree, picotool_pkg, mpy_cross):
    """What makes a build folder: any change gets a new folder (never a stale build)."""
    return {
        "board": board.name, "source": os.path.realpath(tree),
        "manifest": os.path.realpath(board.manifest), "firmware": os.path.realpath(FIRMWARE),
        "picotool": picotool_pkg or "", "mpy_cross": mpy_cross,
        "gcc": os.path.realpath(shutil.which("arm-none-eabi-gcc") or ""),
        "cmake": os.path.realpath(shutil.which("cmake") or ""),
        "freeze_fix": file_id(os.path.join(FREEZE_FIX, "sitecustomize.py")),
    }


def build(args):
    board = BOARDS[args.board]
    kind, path = locate_source(args.micropython)
    say("MicroPython source: %s" % deploy.nice(path))
    missing = missing_tools()
    if missing:
        raise BuildError(toolchain_problem(missing))
    picotool_src = locate_picotool(args.picotool, path)
    if kind == "tarball":
        src_id = file_id(path)
        tree = os.path.join(WORK, "src-" + src_id)
        if args.check:
            tree = None
        else:
            tree = unpack(path, tree)
    else:
        src_id = short_hash(os.path.realpath(path))
        tree = path
    if tree is not None:
        check_tree(tree, board)
    source = deploy.source_id()
    out = output_path(board, args.out)
    if args.check:
        say("toolchain: complete; picotool: %s" % (
            "from " + deploy.nice(picotool_src) if picotool_src else
            "none here (pico-sdk downloads it)"))
        say("would build %s (firmware sources %s)" % (deploy.nice(out), source))
        return 0
    t0 = time.monotonic()
    env = dict(os.environ)
    env.pop("PICO_SDK_PATH", None)       # the source's own pico-sdk, whatever the shell says
    # MicroPython names its version with `git describe`: keep git from finding the repository
    # around build/ (it would name this project's commit instead of v1.28.0).
    env["GIT_CEILING_DIRECTORIES"] = os.path.dirname(os.path.realpath(tree))
    jobs = max(1, args.jobs)
    os.makedirs(WORK, exist_ok=True)
    mpy_log = Log(os.path.join(WORK, "tools-%s.log" % src_id))
    try:
        mpy_cross = build_mpy_cross(mpy_log, tree, os.path.join(WORK, "mpy-cross-" + src_id),
                                    jobs, env)
        picotool_pkg = None
        if picotool_src:
            pid = file_id(picotool_src) if os.path.isfile(picotool_src) else \
                short_hash(os.path.realpath(picotool_src))
            picotool_pkg = build_picotool(mpy_log, picotool_src,
                                          os.path.join(WORK, "picotool-" + pid),
                                          os.path.join(tree, "lib", "pico-sdk"), jobs, env)
        else:
            say("picotool: no source found beside MicroPython's: pico-sdk downloads and builds "
                "it (needs git and the internet)")
    finally:
        mpy_log.close()
    cfg = configuration(board, tree, picotool_pkg, mpy_cross)
    bdir = os.path.join(WORK, "build-%s-%s" % (board.name, short_hash(cfg)))
    if args.clean and os.path.exists(bdir):
        say("--clean: removing %s" % deploy.nice(bdir))
        shutil.rmtree(bdir)
    os.makedirs(bdir, exist_ok=True)
    write_if_changed(os.path.join(bdir, "configuration.json"), json.dumps(cfg, indent=1) + "\n")
    info_dir = os.path.join(bdir, "info")
    os.makedirs(info_dir, exist_ok=True)
    mark = uf2.mark(deploy.firmware_version(), board.name, source)
    write_if_changed(os.path.join(info_dir, "build_info.py"), build_info_text(mark))
    env["MICROPY_MPYCROSS"] = mpy_cross  # read by cmake and by makemanifest.py
    env["PYTHONPATH"] = os.pathsep.join(p for p in (FREEZE_FIX, env.get("PYTHONPATH")) if p)
    log = Log(os.path.join(bdir, "build.log"))
    try:
        if not os.path.exists(os.path.join(bdir, "Makefile")):
            say("configuring %s in %s" % (board.name, deploy.nice(bdir)))
            cmd = ["cmake", "-S", os.path.join(tree, "ports", board.port), "-B", bdir,
                   "-G", "Unix Makefiles", "-DPICO_BUILD_DOCS=0",
                   "-DMICROPY_BOARD=" + board.name,
                   "-DMICROPY_BOARD_DIR=" + os.path.join(tree, "ports", board.port, "boards",
                                                         board.name),
                   "-DMICROPY_FROZEN_MANIFEST=" + board.manifest,
                   "-DMICROPY_MANIFEST_BARRAGOON_FIRMWARE=" + FIRMWARE,
                   "-DMICROPY_MANIFEST_BARRAGOON_BUILD_INFO=" + info_dir]
            if picotool_pkg:
                cmd.append("-Dpicotool_DIR=" + picotool_pkg)
            run_step(log, "configuring the build (cmake)", cmd, CONFIGURE_ADVICE, env=env)
        say("compiling MicroPython %s for %s with firmware %s frozen in (%d jobs; output in %s)"
            % (MP_TAG, board.name, deploy.firmware_version(), jobs, deploy.nice(log.path)))
        run_step(log, "compiling", ["cmake", "--build", bdir, "--", "-j%d" % jobs],
                 COMPILE_ADVICE, env=env, progress=Progress())
    finally:
        log.close()
    built = os.path.join(bdir, "firmware.uf2")
    try:
        found = uf2.read_build(built)
    except (OSError, uf2.Uf2Error) as e:
        raise BuildError("the build made no usable firmware.uf2 (%s): run again with --clean"
                         % e)
    if found is None or found["source"] != source:
        raise BuildError("%s does not hold this tree's firmware (build mark %s, sources %s): "
                         "run again with --clean" % (built, found and found["source"], source))
    if deploy.source_id() != source:
        raise BuildError("firmware/ changed while it was being built: run this again")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + ".tmp"
    shutil.copyfile(built, tmp)
    os.replace(tmp, out)
    free = board.storage_offset - found["size"]
    say("built %s: MicroPython %s for %s with firmware %s frozen in (sources %s), %d KB of "
        "flash, %d KB left below the board's files; %.0f s"
        % (deploy.nice(out), MP_TAG, board.name, found["version"], source,
           found["size"] // 1024, free // 1024, time.monotonic() - t0))
    say("flash it: python tools/deploy.py --uf2 %s" % deploy.nice(out))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="build_firmware.py", description=__doc__.split("\n\n")[0],
                                 epilog="See the top of tools/build_firmware.py and "
                                        "firmware/README.md.")
    ap.add_argument("--micropython", metavar="DIR|TARBALL",
                    help="MicroPython %s's source: a tree, its tarball, or a folder holding it "
                         "(default: $%s)" % (MP_TAG, ENV_SOURCE))
    ap.add_argument("--picotool", metavar="DIR|TARBALL",
                    help="picotool's source (default: $%s, then beside MicroPython's)"
                         % ENV_PICOTOOL)
    ap.add_argument("--board", default="RPI_PICO", choices=sorted(BOARDS),
                    help="the board to build for (RPI_PICO, the default, is the only one yet)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2,
                    help="compile jobs at once (default: the number of cores)")
    ap.add_argument("--out", default=BUILD, help="folder for the UF2 (default build/)")
    ap.add_argument("--clean", action="store_true",
                    help="build this configuration afresh (its folder is emptied first)")
    ap.add_argument("--check", action="store_true",
                    help="only check the source and the toolchain, and say what would be built")
    args = ap.parse_args(argv)
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        ap.error("--out %s is a file, not a folder" % args.out)
    args.out = os.path.abspath(args.out)
    try:
        return build(args)
    except BuildError as e:
        print("build_firmware: %s" % e, file=sys.stderr)
        return e.status
    except KeyboardInterrupt:
        print("build_firmware: interrupted (run it again: finished steps are kept)",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
