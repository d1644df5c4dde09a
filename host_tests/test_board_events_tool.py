# tools/board_events.py as a user runs it: prints game.txt as it would be, the lit LEDs by
# meaning and the OLED text; --help; a script it cannot read is one line on stderr and exit 2;
# without a MicroPython unix port it says so and runs the firmware on CPython, printing the
# same. (The defects of issue 10 as scripts: test_board_events.py.)
import os
import subprocess
import sys

import pytest

import micropython_env

TOOL = os.path.join(micropython_env.ROOT, "tools", "board_events.py")
SCRIPT = ("position 7/7/7/7/3z3/7/7/3D3/6z w 24\n100 lift d2\n200 lift d5\n500 drop d5\n"
          "1200 end\n")


def run(args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    proc = subprocess.run([sys.executable, TOOL] + list(args), capture_output=True, text=True,
                          timeout=300, env=e, cwd=micropython_env.ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def write(tmp_path, text, name="s.txt"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.skipif(micropython_env.find_micropython() is None,
                    reason=micropython_env.missing_reason())
def test_prints_the_record_leds_and_screen_from_the_unix_port(tmp_path):
    code, out, err = run([write(tmp_path, SCRIPT)])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[:4] == ['[Variant "closed"]', '[Express "0 0"]',
                         '[Start "7/7/7/7/3z3/7/7/3D3/6z w 24"]', '[Result "*"]']
    assert "1. d2xd5" in lines
    assert "# oled Place Barragoon" in lines
    assert all(line.startswith("#") for line in lines[lines.index("1. d2xd5") + 1:])


def test_without_micropython_it_says_so_and_prints_the_same(tmp_path):
    path = write(tmp_path, SCRIPT)
    code, out, err = run([path], {"MICROPYTHON": str(tmp_path / "nowhere")})
    assert code == 0 and "running the firmware on CPython" in err and len(err.splitlines()) == 1
    if micropython_env.find_micropython() is not None:
        assert out == run([path])[1]
    assert "1. d2xd5" in out


def test_help(tmp_path):
    code, out, err = run(["--help"])
    assert code == 0 and "SCRIPT" in out and "events.txt" in out


@pytest.mark.parametrize("text,words", [
    ("100 lift d2\n50 drop d5\n", "line 2: time 50 ms is before"),
    ("100 hover d2\n", "line 1: unknown event 'hover'"),
    ("position 9/9 w 24\n100 lift d2\n", "cannot start a game"),
    ("100 drop d2\n", "at 100 ms: drop d2, but a piece stands there"),
    ("100 lift d4\n", "at 100 ms: lift d4, but the square is empty"),
])
def test_a_malformed_script_is_one_line_and_exit_2(tmp_path, text, words):
    code, out, err = run([write(tmp_path, text)], {"MICROPYTHON": str(tmp_path / "none")})
    assert code == 2 and out == "" and words in err and len(err.splitlines()) == 1, err


def test_a_missing_or_binary_file_is_one_line_and_exit_2(tmp_path):
    code, out, err = run([str(tmp_path / "missing.txt")])
    assert code == 2 and "cannot read it" in err and len(err.splitlines()) == 1
    p = tmp_path / "bin.txt"
    p.write_bytes(b"\xff\xfe\x00\x81")
    code, out, err = run([str(p)])
    assert code == 2 and "not a text file" in err and len(err.splitlines()) == 1
    code, out, err = run([])
    assert code == 2 and "SCRIPT" in err


def test_the_firmware_readme_tells_players_the_timings_the_board_uses():
    # "How the board decides" (firmware/README.md) must stay true to config.py and the judge.
    import config
    from controller import timing
    with open(os.path.join(micropython_env.ROOT, "firmware", "README.md"),
              encoding="utf-8") as f:
        text = f.read()
    start = text.index("## How the board decides")
    end = text.find("\n## ", start)
    flat = " ".join(text[start:end if end > 0 else len(text)].split())
    assert config.ADJUST_MS == 250                 # (told as "a quarter of a second")
    for words in ("settle time (%d ms)" % config.SETTLE_MS, "a quarter of a second",
                  "within %d ms of your set-down" % timing.KNOCK_MS,
                  "within %d ms of its piece leaving" % timing.BOUNCE_MS,
                  "until the opponent lifts one of their own tiles",
                  "asks only when it must", "after a power cut"):
        assert words in flat, words
