# The documentation a newcomer follows: the README stays a short first page, every relative link
# in the project's Markdown leads to a file (and a heading) that exists, and every command the
# README shows can be run as written: its tool exists and answers --help, its files exist.
# CPython test (pytest).
import os
import re
import shlex
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
DOCS = ["README.md", "CHANGELOG.md", "firmware/README.md", "tools/README.md",
        "host_tests/README.md", "hardware/README.md", "hardware/build-guide.md",
        "firmware/barragoon/RULES.md"]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def text(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def anchors(rel):
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text(rel), re.M)}


def test_readme_is_a_short_first_page():
    size = os.path.getsize(README)
    assert size < 15000, "README.md is %d bytes: reference material belongs beside what it " \
                         "describes" % size


@pytest.mark.parametrize("doc", DOCS)
def test_every_relative_link_leads_somewhere(doc):
    broken = []
    for target in LINK.findall(text(doc)):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
        full = os.path.join(ROOT, dest)
        if not os.path.exists(full):
            broken.append("%s (no such file)" % target)
        elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
            broken.append("%s (no such heading in %s)" % (target, dest))
    assert not broken, "%s: %s" % (doc, ", ".join(broken))


def readme_commands():
    """The commands of the README's indented code blocks, without comments and prompts."""
    out = []
    for line in text("README.md").splitlines():
        if line.startswith("    ") and not line.startswith("     "):
            cmd = line.strip().split("  #")[0].strip()
            for part in re.split(r"\s*(?:&&|;)\s*", cmd):
                if part:
                    out.append(part)
    return out


def test_the_readme_shows_the_setup_the_tests_and_the_main_tool():
    cmds = readme_commands()
    assert "python -m pip install -r requirements-dev.txt" in cmds
    assert "python tools/start.py" in cmds
    assert "python -m pytest host_tests -q" in cmds


@pytest.mark.parametrize("cmd", [c for c in readme_commands() if c.startswith("python tools")])
def test_every_tool_the_readme_names_answers_help(cmd):
    words = cmd.replace("\\", "/").split()      # the Windows lines name the same tools
    tool = os.path.join(ROOT, words[1])
    assert os.path.isfile(tool), cmd
    proc = subprocess.run([sys.executable, tool, "--help"], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0 and "usage" in proc.stdout.lower(), (cmd, proc.stderr[-500:])
    for w in words[2:]:
        if w.startswith("--"):
            assert w.split("=")[0] in proc.stdout, "%s: %s is not an option of %s" % (
                cmd, w, words[1])


def test_the_readme_test_commands_name_real_things():
    for cmd in readme_commands():
        words = shlex.split(cmd)
        if words[:3] == ["python", "-m", "pytest"]:
            assert os.path.isdir(os.path.join(ROOT, words[3])), cmd
            if "-m" in words[3:]:
                assert "slow" in text("host_tests/conftest.py"), "no 'slow' marker: " + cmd
        if "-r" in words:
            assert os.path.isfile(os.path.join(ROOT, words[words.index("-r") + 1])), cmd


def test_the_rules_have_a_players_section_in_each_language_at_a_stable_anchor():
    # The simulator links these anchors (tools/sim/text.json, checked in test_sim_text.py); a
    # heading used twice would get a numbered anchor on GitHub and move the later one.
    rules = "firmware/barragoon/RULES.md"
    heads = [slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text(rules), re.M)]
    assert len(heads) == len(set(heads)), sorted(h for h in heads if heads.count(h) > 1)
    top = text(rules).split("\n## ", 1)[0]
    for anchor in ("deutsch-so-spielt-man", "english-how-to-play", "italiano-come-si-gioca",
                   "español-cómo-se-juega"):
        assert anchor in heads, anchor
        assert "(#%s)" % anchor in top, "%s: not in the table at the top" % anchor
        section = [part for part in text(rules).split("\n## ")
                   if slug(part.split("\n", 1)[0]) == anchor]
        # each: a short how-to-play and how the board behaves, as two subsections
        assert len(section) == 1 and len(re.findall(r"^### ", section[0], re.M)) == 2, anchor
