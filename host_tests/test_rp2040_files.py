# The two files the emulated Pico needs (MicroPython's UF2, the RP2040 boot ROM B1) are not in
# the repository: tools/README.md says where a user gets them and their sha256, and a missing or
# wrong file is one line that points there. CPython only (pytest); no emulator is started.
import hashlib
import os
import re
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from rp2040 import pico  # noqa: E402

SECTION = "### The two files the emulated Pico needs"


def tools_readme_section():
    with open(os.path.join(ROOT, "tools", "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index(SECTION)
    return text[start:text.find("\n## ", start)]


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_the_tools_readme_says_where_to_get_both_files():
    text = tools_readme_section()
    assert "https://micropython.org/download/RPI_PICO/" in text and "v1.28.0.uf2" in text
    assert "pico-bootrom" in text and "rp2040-bootrom-b1.bin" in text
    assert pico.ROM_SHA256 in text
    for words in (pico.ENV_UF2, pico.ENV_ROM, "../shared/rp2/micropython-v1.28.0-RPI_PICO.uf2",
                  "../shared/rp2/rp2040-bootrom-b1.bin", "--firmware PATH"):
        assert words in text, words
    assert SECTION[4:] in pico.WHERE_FROM          # the tools' one line points at it


def test_the_stated_sums_are_those_of_the_files_the_tests_run(tmp_path):
    text = tools_readme_section()
    if not os.path.exists(pico.DEFAULT_ROM) or not os.path.exists(pico.DEFAULT_UF2):
        pytest.skip("the project's reference copies of the two files are not on this computer")
    assert sha256(pico.DEFAULT_ROM) == pico.ROM_SHA256
    uf2_sum = re.search(r"`([0-9a-f]{64})` is the project's reference copy", text).group(1)
    assert sha256(pico.DEFAULT_UF2) == uf2_sum


def test_a_missing_file_is_one_line_naming_where_to_get_it(tmp_path):
    why = pico.missing(firmware=str(tmp_path / "none.uf2"))
    assert "\n" not in why and "none.uf2" in why and pico.ENV_UF2 in why
    assert pico.WHERE_FROM in why
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(b"\0" * 512)
    why = pico.missing(firmware=str(fw), rom=str(tmp_path / "rom.bin"))
    assert "\n" not in why and "rom.bin" in why and pico.ENV_ROM in why
    assert pico.WHERE_FROM in why


def test_another_boot_rom_is_refused_in_one_line(tmp_path):
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(b"\0" * 512)
    rom = tmp_path / "rp2040-bootrom-b2.bin"
    rom.write_bytes(b"\xff" * 16384)
    why = pico.missing(firmware=str(fw), rom=str(rom))
    assert "\n" not in why and "is not the RP2040 boot ROM B1" in why and pico.WHERE_FROM in why
    assert pico.rom_mismatch(str(rom)) == why
