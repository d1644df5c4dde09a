# The documentation a newcomer follows: each doc stays within its size (a reference, not a
# diary), every relative link in the project's Markdown leads to a file (and a heading) that
# exists, every command line a doc shows can be run as written (its tool exists, answers
# --help and has the options shown), a measured figure is stated in one place only, no user doc
# speaks of issue numbers, and the doc sections the tools' messages point to exist.
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
        "tools/bench/README.md", "host_tests/README.md", "hardware/README.md",
        "hardware/build-guide.md", "firmware/barragoon/RULES.md"]
# The reference docs' sizes in bytes, at most: what does not fit is history (the CHANGELOG) or
# belongs beside the code it describes.
SIZE_CAPS = {"README.md": 15000, "firmware/README.md": 25000, "tools/README.md": 15000,
             "hardware/README.md": 12000}
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


@pytest.mark.parametrize("doc", sorted(SIZE_CAPS))
def test_each_reference_doc_stays_within_its_size(doc):
    size = os.path.getsize(os.path.join(ROOT, doc))
    assert size <= SIZE_CAPS[doc], "%s is %d bytes, at most %d: history belongs in the " \
        "CHANGELOG, figures in tools/bench/README.md" % (doc, size, SIZE_CAPS[doc])


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


def block_commands(doc):
    """The commands of a doc's indented code blocks, without comments and prompts."""
    out = []
    for line in text(doc).splitlines():
        if line.startswith("    ") and not line.startswith("     "):
            cmd = line.strip().split("  #")[0].strip()
            for part in re.split(r"\s*(?:&&|;)\s*", cmd):
                if part:
                    out.append(part)
    return out


def doc_commands(doc):
    """Every command line a doc suggests: its code blocks and its `python ...` inline code."""
    inline = re.findall(r"`(python (?:tools|-m pytest)[^`]*)`", " ".join(text(doc).split()))
    return block_commands(doc) + inline


def readme_commands():
    return block_commands("README.md")


def tool_commands():
    """{tool path: [(doc, command)]} for every `python tools/...` line of every doc."""
    tools = {}
    for doc in DOCS:
        for cmd in doc_commands(doc):
            words = cmd.replace("\\", "/").split()    # the Windows lines name the same tools
            if len(words) > 1 and words[0] == "python" and words[1].startswith("tools/"):
                tools.setdefault(words[1], []).append((doc, words))
    return tools


def test_the_readme_shows_the_setup_the_tests_and_the_main_tool():
    cmds = readme_commands()
    assert "python -m pip install -r requirements-dev.txt" in cmds
    assert "python tools/start.py" in cmds
    assert "python -m pytest host_tests -q" in cmds


def option_words(words):
    """The options a command line uses: --x of "--x", "[--x N]", "--x=N", "--a|--b"."""
    out = []
    for w in words:
        for part in re.split(r"[|\[\]]", w):
            if part.startswith("--"):
                out.append(part.split("=")[0])
    return out


def offered_options(help_text):
    """The text a tool's options are looked up in. With argparse's help, its usage block and
    the names in its list of options only: the prose may name another tool's option ("the
    simulator's web port (sim.py --port)"), which this tool rejects. A help written by hand is
    taken whole."""
    if help_text.startswith("usage:") and re.search(r"^(options|optional arguments):$",
                                                    help_text, re.M):
        names = re.findall(r"^  (-\S.*?)(?:  |$)", help_text, re.M)
        return "\n".join([help_text.split("\n\n")[0]] + names)
    return help_text


@pytest.mark.parametrize("tool", sorted(tool_commands()))
def test_every_tool_a_doc_names_exists_and_has_the_options_shown(tool):
    assert os.path.isfile(os.path.join(ROOT, tool)), "%s: no such tool (%s)" % (
        tool, tool_commands()[tool][0][0])
    proc = subprocess.run([sys.executable, tool, "--help"], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout.strip(), (tool, proc.stderr[-500:])
    usage = offered_options(proc.stdout)
    wrong = []
    for doc, words in tool_commands()[tool]:
        for opt in option_words(words[2:]):
            if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(opt), usage):
                wrong.append("%s: %s is not an option (%s)" % (doc, opt, " ".join(words)))
        for w in words[2:]:
            # a file of this repository a command names must exist (not what a build makes)
            if "/" in w and not re.search(r"^(build|/|~|\$)|[<*\[\]|.]{3}|[<*]", w) \
                    and not w.startswith("-"):
                if not os.path.exists(os.path.join(ROOT, w)):
                    wrong.append("%s: no such file %s (%s)" % (doc, w, " ".join(words)))
    assert not wrong, "\n".join(wrong)


def test_the_test_commands_name_real_things():
    for doc in DOCS:
        for cmd in doc_commands(doc):
            words = cmd.split()
            if words[:3] == ["python", "-m", "pytest"]:
                for w in words[3:]:
                    if w.startswith("host_tests"):
                        assert os.path.exists(os.path.join(ROOT, w)), "%s: %s" % (doc, cmd)
                if "-m" in words[3:]:
                    assert "slow" in text("host_tests/conftest.py"), "no 'slow' marker: " + cmd
            if "-r" in words:
                assert os.path.isfile(os.path.join(ROOT, words[words.index("-r") + 1])), cmd


# A measured figure stated in two docs goes stale in one of them: byte counts ("57,424 B") and
# kilobytes with decimals ("56.1 KB") are figures, and each lives in one doc only. The
# CHANGELOG is history and may repeat one.
FIGURE = re.compile(r"\b\d{1,3}(?:,\d{3})+ B\b|\b\d+\.\d+ KB\b")


def test_each_measured_figure_is_stated_in_one_doc():
    where = {}
    for doc in DOCS:
        if doc != "CHANGELOG.md":
            for fig in set(FIGURE.findall(" ".join(text(doc).split()))):
                where.setdefault(fig, []).append(doc)
    twice = {fig: docs for fig, docs in where.items() if len(docs) > 1}
    assert not twice, "stated in more than one doc (keep it in tools/bench/README.md and " \
                      "link there): %s" % twice


@pytest.mark.parametrize("doc", DOCS)
def test_no_user_doc_speaks_of_issue_numbers(doc):
    found = re.findall(r"(?i)\bissues? #?\d+|(?<![\w(/])#\d+\b", text(doc))
    assert not found, "%s: %s (what changed for users goes into the CHANGELOG, in words)" % (
        doc, found)


def doc_pointers():
    """(file, doc, section title) for every doc section a tool's message, a comment or
    requirements-dev.txt names ('tools/README.md, "The MicroPython unix port"')."""
    paths = [os.path.join(ROOT, "requirements-dev.txt")]
    for folder in ("tools", "host_tests", "firmware"):
        for base, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = [d for d in dirs if d not in ("node_modules", "__pycache__")]
            paths += [os.path.join(base, n) for n in files if n.endswith((".py", ".js"))]
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            src = f.read()
        for m in re.finditer(r'([\w/]+\.md)(?:, \\?"([^"\\]+)\\?"|: ([\w ]+)\))', src):
            out.append((os.path.relpath(path, ROOT), m.group(1), m.group(2) or m.group(3)))
    return out


def resolve_doc(name):
    if os.path.isfile(os.path.join(ROOT, name)):
        return name
    found = [os.path.relpath(os.path.join(b, name), ROOT)
             for b, d, f in os.walk(ROOT) if name in f and "node_modules" not in b]
    return found[0] if len(found) == 1 else None


def test_every_doc_section_a_message_points_to_exists():
    pointers = doc_pointers()
    assert len(pointers) >= 4          # the emulated Pico's files, MicroPython on a new Pico...
    wrong = []
    for src, doc, section in pointers:
        rel = resolve_doc(doc)
        heads = [m.group(1).lower() for m in re.finditer(r"^#+ (.+)$", text(rel), re.M)] \
            if rel else []
        if not any(section.lower() in h for h in heads):
            wrong.append('%s names %s, "%s": no such section' % (src, doc, section))
    assert not wrong, "\n".join(wrong)


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
