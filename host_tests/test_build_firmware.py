# tools/build_firmware.py (the board's own MicroPython with the firmware frozen in) and
# tools/toolkit/uf2.py (reading a UF2 and its build mark), without compiling anything: where the
# source is found and what the user is told when it is not, the toolchain check with one install
# line per system, a build folder per configuration, and the build mark a UF2 carries. The build
# itself runs in .ci/run (minutes); when its UF2 is here, a second run must change nothing.
import os
import shutil
import struct
import subprocess
import sys
import tarfile

import pytest

import micropython_env

sys.path.insert(0, micropython_env.TOOLS)
import build_firmware as bf  # noqa: E402
import deploy  # noqa: E402
from toolkit import uf2  # noqa: E402

ROOT = micropython_env.ROOT
SCRIPT = os.path.join(ROOT, "tools", "build_firmware.py")
STOCK_UF2 = os.path.join(ROOT, "..", "shared", "rp2", "micropython-v1.28.0-RPI_PICO.uf2")


def fake_tree(path, version=(1, 28, 0), submodules=True):
    """A folder that looks like MicroPython's source to the checks (no code in it)."""
    os.makedirs(os.path.join(path, "py"))
    with open(os.path.join(path, "py", "mpconfig.h"), "w") as f:
        f.write("#define MICROPY_VERSION_MAJOR %d\n#define MICROPY_VERSION_MINOR %d\n"
                "#define MICROPY_VERSION_MICRO %d\n" % version)
    os.makedirs(os.path.join(path, "ports", "rp2", "boards", "RPI_PICO"))
    if submodules:
        for s in bf.SUBMODULES:
            os.makedirs(os.path.dirname(os.path.join(path, s)), exist_ok=True)
            open(os.path.join(path, s), "w").close()
    return str(path)


def run(args, env=None, timeout=120):
    e = dict(os.environ)
    e.pop(bf.ENV_SOURCE, None)
    e.update(env or {})
    return subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=e, stdin=subprocess.DEVNULL)


# --- the source ---------------------------------------------------------------------------------
def test_the_source_is_taken_from_the_option_then_the_environment_then_the_shared_folder(
        tmp_path):
    a = fake_tree(tmp_path / "a")
    b = fake_tree(tmp_path / "b" / "micropython")          # a folder holding the tree
    shared = tmp_path / "shared"
    shared.mkdir()
    tarball = shared / "micropython-v1.28.0-rp2-src.tar.xz"
    tarball.write_bytes(b"")
    env = {bf.ENV_SOURCE: str(tmp_path / "b")}
    assert bf.locate_source(a, env, str(shared)) == ("tree", a)
    assert bf.locate_source(None, env, str(shared)) == ("tree", b)
    assert bf.locate_source(None, {}, str(shared)) == ("tarball", str(tarball))
    assert bf.locate_source(str(tarball), {}, None) == ("tarball", str(tarball))


def test_without_a_source_it_says_exactly_how_to_get_one(tmp_path):
    with pytest.raises(bf.BuildError) as e:
        bf.locate_source(None, {}, str(tmp_path / "nowhere"))
    text = str(e.value)
    assert "git clone --depth 1 --branch v1.28.0 https://github.com/micropython/micropython" \
        in text
    for sub in ("lib/pico-sdk", "lib/tinyusb", "lib/micropython-lib"):
        assert sub in text
    assert "--micropython" in text and bf.ENV_SOURCE in text


@pytest.mark.parametrize("make,words", [
    (lambda p: p.mkdir(), "holds neither MicroPython's source nor its v1.28.0 tarball"),
    (lambda p: p.write_text("x"), "is a file but not a source tarball"),
    (lambda p: None, "no such file or folder"),
])
def test_a_wrong_source_option_is_one_clear_line(tmp_path, make, words):
    path = tmp_path / "src"
    make(path)
    p = run(["--micropython", str(path), "--check"])
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert words in p.stderr.strip().splitlines()[-1], p.stderr


def test_another_micropython_version_or_missing_submodules_are_refused(tmp_path):
    with pytest.raises(bf.BuildError) as e:
        bf.check_tree(fake_tree(tmp_path / "old", (1, 27, 0)), bf.BOARDS["RPI_PICO"])
    assert "v1.27.0" in str(e.value) and "v1.28.0" in str(e.value)
    with pytest.raises(bf.BuildError) as e:
        bf.check_tree(fake_tree(tmp_path / "bare", submodules=False), bf.BOARDS["RPI_PICO"])
    assert "pico-sdk" in str(e.value) and "submodule update --init" in str(e.value)
    bf.check_tree(fake_tree(tmp_path / "good"), bf.BOARDS["RPI_PICO"])


def test_a_tarball_is_unpacked_once_and_only_whole(tmp_path):
    tree = fake_tree(tmp_path / "micropython")
    tarball = tmp_path / "mp.tar.gz"
    with tarfile.open(tarball, "w:gz") as t:
        t.add(tree, arcname="micropython")
    into = tmp_path / "work" / "src-1"
    got = bf.unpack(str(tarball), str(into))
    assert got == str(into / "micropython") and bf.is_tree(got)
    marker = os.path.join(got, bf.SUBMODULES[0])
    os.remove(marker)
    assert bf.unpack(str(tarball), str(into)) == got          # done once: not unpacked again
    assert not os.path.exists(marker)
    assert [n for n in os.listdir(tmp_path / "work") if n.startswith(".unpack")] == []


# --- the toolchain ------------------------------------------------------------------------------
def test_missing_tools_are_named_with_one_install_line_per_system():
    def which(name):
        return None if name in ("arm-none-eabi-gcc", "cmake") else "/usr/bin/" + name
    missing = bf.missing_tools(which=which)
    assert missing == ["arm-none-eabi-gcc", "cmake"]
    text = bf.toolchain_problem(missing)
    lines = text.splitlines()
    assert "arm-none-eabi-gcc, cmake" in lines[0]
    assert [line.split(":")[0].strip() for line in lines[1:]] == \
        ["Debian/Ubuntu", "macOS", "Windows"]
    assert "gcc-arm-none-eabi libnewlib-arm-none-eabi cmake" in lines[1]


def test_a_compiler_without_newlib_is_caught(tmp_path):
    class Answer:
        stdout = "libc.a\n"                    # what arm-none-eabi-gcc says without newlib
    missing = bf.missing_tools(which=lambda n: "/usr/bin/" + n,
                               run=lambda *a, **k: Answer())
    assert missing == ["newlib for arm-none-eabi"]


def test_without_the_toolchain_the_script_says_what_to_install(tmp_path):
    bin_dir = tmp_path / "bin"                 # a PATH with Python and nothing else
    bin_dir.mkdir()
    os.symlink(sys.executable, str(bin_dir / "python3"))
    p = run(["--micropython", fake_tree(tmp_path / "mp")], env={"PATH": str(bin_dir)})
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert "arm-none-eabi-gcc" in p.stderr and "sudo apt install" in p.stderr
    assert "brew" in p.stderr and "WSL" in p.stderr


# --- build folders ----------------------------------------------------------------------------
def test_every_configuration_builds_in_a_folder_of_its_own(tmp_path):
    board = bf.BOARDS["RPI_PICO"]
    base = bf.configuration(board, str(tmp_path / "a"), None, "/x/mpy-cross")
    folders = {bf.short_hash(base)}
    for key, value in (("source", str(tmp_path / "b")), ("manifest", "/other/manifest.py"),
                       ("picotool", "/p/picotool"), ("gcc", "/opt/arm/bin/gcc"),
                       ("board", "RPI_PICO_W")):
        folders.add(bf.short_hash(dict(base, **{key: value})))
    assert len(folders) == 6
    assert bf.short_hash(base) == bf.short_hash(dict(base))    # and the same one again


def test_frozen_native_code_is_word_aligned(tmp_path):
    # The RP2040 reads the first word of a frozen native function's code when calling it, and
    # faults when that is not a multiple of 4 bytes (MicroPython's mpy-tool.py aligns it to
    # 2): the build's Python scripts get a sitecustomize.py that raises it to 4 in the C that
    # mpy-tool.py writes, and changes nothing else.
    line = "static const byte fun_data_x[8] %s __attribute__ ((aligned (2))) = {"
    env = dict(os.environ, PYTHONPATH=bf.FREEZE_FIX)
    for name, aligned in (("mpy-tool.py", "aligned (4)"), ("makemanifest.py", "aligned (2)")):
        script = tmp_path / name
        script.write_text("print(%r)\n" % line)
        out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                             env=env, check=True).stdout
        assert out.count("aligned") == 1 and aligned in out, (name, out)
    assert bf.configuration(bf.BOARDS["RPI_PICO"], str(tmp_path), "", "")["freeze_fix"]


def test_the_project_manifest_includes_the_ports_manifest_first():
    with open(bf.BOARDS["RPI_PICO"].manifest) as f:
        calls = [line.split("(")[0] for line in f if line[:1].isalpha()]
    with open(bf.BOARDS["RPI_PICO"].manifest) as f:
        text = f.read()
    assert calls[0] == "include" and '"$(PORT_DIR)/boards/manifest.py"' in \
        text.split("\n" + calls[0], 1)[1].splitlines()[0]
    assert '$(BARRAGOON_FIRMWARE)/manifest.py' in text and "build_info.py" in text


def test_check_says_what_it_would_build():
    if bf.missing_tools():
        pytest.skip("no ARM toolchain here: " + ", ".join(bf.missing_tools()))
    try:
        bf.locate_source(None)
    except bf.BuildError:
        pytest.skip("no MicroPython source here (set $%s)" % bf.ENV_SOURCE)
    p = run(["--check"])
    assert p.returncode == 0, p.stderr
    assert "would build %s" % os.path.relpath(bf.output_path(bf.BOARDS["RPI_PICO"]), ROOT) \
        in p.stdout
    assert deploy.source_id() in p.stdout


# --- UF2 files and the build mark -----------------------------------------------------------------
def make_uf2(payload, base=uf2.FLASH_BASE, family=uf2.FAMILY_RP2040):
    chunks = [payload[i:i + 256] for i in range(0, len(payload), 256)]
    out = b""
    for n, c in enumerate(chunks):
        head = struct.pack("<8I", uf2.MAGIC[0], uf2.MAGIC[1], uf2.FLAG_FAMILY, base + 256 * n,
                           len(c), n, len(chunks), family)
        out += head + c.ljust(476, b"\0") + struct.pack("<I", uf2.MAGIC[2])
    return out


def test_the_build_mark_is_read_from_a_uf2_even_across_blocks(tmp_path):
    mark = uf2.mark("0.2.0", "RPI_PICO", "0123456789ab")
    payload = b"\x00" * 240 + mark.encode() + b"\x00" * 300    # split over two blocks
    path = tmp_path / "fw.uf2"
    path.write_bytes(make_uf2(payload))
    found = uf2.read_build(str(path))
    assert found == {"version": "0.2.0", "board": "RPI_PICO", "source": "0123456789ab",
                     "size": len(payload)}
    assert uf2.kind(str(path)) == "frozen"
    path.write_bytes(make_uf2(b"\x00" * 600))
    assert uf2.read_build(str(path)) is None and uf2.kind(str(path)) == "stock"


def test_a_file_that_is_no_pico_uf2_is_refused(tmp_path):
    path = tmp_path / "x.uf2"
    path.write_bytes(b"hello")
    with pytest.raises(uf2.Uf2Error, match="not a UF2 file"):
        uf2.read_build(str(path))
    path.write_bytes(make_uf2(b"\x00" * 600, family=0xE48BFF59))    # an RP2350's
    with pytest.raises(uf2.Uf2Error, match="another chip"):
        uf2.read_build(str(path))


def test_the_stock_micropython_carries_no_build_mark():
    if not os.path.exists(STOCK_UF2):
        pytest.skip("no stock MicroPython UF2 for the Pico here (set $BARRAGOON_PICO_UF2)")
    assert uf2.kind(STOCK_UF2) == "stock"


def test_the_source_id_follows_the_frozen_sources_only(tmp_path):
    fw = tmp_path / "firmware"
    shutil.copytree(micropython_env.FIRMWARE, str(fw))
    first = deploy.source_id(str(fw))
    assert first == deploy.source_id(micropython_env.FIRMWARE)
    (fw / "config.py").write_text("# the maker's own\n")         # stays a file: no matter
    assert deploy.source_id(str(fw)) == first
    data = (fw / "app.py").read_bytes()
    (fw / "app.py").write_bytes(data.replace(b"\n", b"\r\n"))     # a Windows checkout
    assert deploy.source_id(str(fw)) == first
    (fw / "app.py").write_bytes(data + b"# changed\n")
    assert deploy.source_id(str(fw)) != first


# --- the real build, when .ci/run (or the developer) has made it ---------------------------------
def test_a_second_build_with_nothing_changed_leaves_the_uf2_as_it_was():
    out = bf.output_path(bf.BOARDS["RPI_PICO"])
    if not os.path.exists(out) or bf.missing_tools():
        pytest.skip("no frozen build here: python tools/build_firmware.py makes one "
                    "(ARM toolchain and MicroPython's source needed; .ci/run does it)")
    found = uf2.read_build(out)
    if found is None or found["source"] != deploy.source_id():
        pytest.skip("%s is older than firmware/: rebuild it" % out)
    before = open(out, "rb").read()
    p = run([], timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "unpacking" not in p.stdout and "building it" not in p.stdout   # all kept
    assert "configuring" not in p.stdout                    # the folder was set up already
    assert open(out, "rb").read() == before


def test_a_failing_step_ends_with_its_last_lines_and_what_to_do(tmp_path):
    log = bf.Log(str(tmp_path / "build.log"))
    script = "for i in range(40): print('line', i)\nprint('core.py:3: error: boom')\nexit(2)"
    with pytest.raises(bf.BuildError) as e:
        bf.run_step(log, "compiling", [sys.executable, "-c", script], bf.COMPILE_ADVICE)
    log.close()
    text = str(e.value)
    assert text.startswith("compiling failed (exit 2)")
    assert "core.py:3: error: boom" in text and "line 39" in text and "line 5\n" not in text
    assert bf.COMPILE_ADVICE in text and "build.log" in text
    assert "line 0" in open(str(tmp_path / "build.log")).read()     # the whole output kept


def test_progress_is_shown_every_ten_percent(capsys):
    p = bf.Progress()
    for n in (0, 3, 9, 10, 11, 25, 99, 100):
        p("[%3d%%] Building C object CMakeFiles/firmware.dir/x.c.obj\n" % n)
    p("make[2]: Leaving directory\n")
    assert [line.split()[-2] for line in capsys.readouterr().out.splitlines()] == \
        ["0", "10", "20", "90", "100"]
