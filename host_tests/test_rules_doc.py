# The rules document (firmware/barragoon/RULES.md) stays true: its face pictures are the
# firmware's own icons, its start position and worked-example diagrams are what the rules core
# computes, its example records replay (through the rules core and the simulator), the README
# links it, and it never goes onto the board. CPython only (it reads files and tools).
import json
import os
import re

import micropython_env
from barragoon.game import START
from barragoon.record import parse_record
from barragoon.core import FACES

ROOT = micropython_env.ROOT
DOC = os.path.join(ROOT, "firmware", "barragoon", "RULES.md")
GAMES = os.path.join(ROOT, "tools", "games")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def code_blocks(text):
    """The fenced ``` blocks of a markdown text, as lists of lines."""
    return [b.split("\n") for b in re.findall(r"```\n(.*?)\n```", text, re.S)]


def diagram(position):
    """A position as RULES.md draws it: ranks 9 to 1, one 5-character column per file."""
    lines = []
    for i, rank in enumerate(position.split()[0].split("/")):
        cells = re.findall(r"\[[^\]]*\]|[1-7]|[ZDVzdv]", rank)
        row = []
        for c in cells:
            row += ["."] * int(c) if c.isdigit() else [c]
        lines.append(("%d " % (9 - i) + "".join("%5s" % c for c in row)).rstrip())
    lines.append("  " + "".join("%5s" % f for f in "abcdefg"))
    return lines


def test_face_pictures_are_the_firmwares_icons():
    import face_art
    blocks = code_blocks(read(DOC))
    assert face_art.art() in blocks
    table = read(DOC).split("| code | name |")[1].split("\n\n")[0]
    for code in FACES:
        assert "`%s`" % code in table, code


def test_start_position_written_out():
    text = read(DOC)
    closed = START.format("X")
    assert "\n    %s\n" % closed in text
    assert diagram(closed) in code_blocks(text)


def test_worked_example_diagrams_are_the_replayed_positions():
    from barragoon.notation import format_position
    text = read(DOC)
    positions = {}

    def each_turn(game):
        positions[game.last_turn_text()] = format_position(game.pos)

    parse_record(read(os.path.join(GAMES, "short-win.txt")), each_turn)
    blocks = code_blocks(text)
    for turn in ("d8-d5", "e3xd5 g1=RE d9=LS", "e8xd9 d1=1N"):
        assert "**" in text and turn in text, turn
        assert diagram(positions[turn]) in blocks, turn


EXAMPLES = {
    "short-win.txt": ("0-1", "no legal move"),
    "placements.txt": ("0-1", "no tiles left"),
    "repetition-draw.txt": ("1/2-1/2", "repetition draw accepted"),
}


def test_example_records_replay_and_are_linked():
    from barragoon.record import result_text
    text = read(DOC)
    assert sorted(f for f in os.listdir(GAMES) if f.endswith(".txt")) == sorted(EXAMPLES)
    for name, (result, reason) in EXAMPLES.items():
        game = parse_record(read(os.path.join(GAMES, name)))
        assert (result_text(game), game.reason) == (result, reason), name
        assert "(../../tools/games/%s)" % name in text, name


def test_placements_example_holds_every_kind_of_placement():
    game = parse_record(read(os.path.join(GAMES, "placements.txt")))
    turns = game.turn_texts()
    kinds = set()
    for t in turns:
        moves = t.split()
        kinds.add((moves[0][2], len([m for m in moves if "=" in m])))
    # a Barragoon captured and placed again, tile captures with 2, 1 and no placements
    assert {("x", 1), ("x", 2), ("x", 0)} <= kinds
    faces = set(m.split("=")[1].rstrip("NESWVH") or m.split("=")[1]
                for t in turns for m in t.split() if "=" in m)
    assert faces == {"X", "1", "2", "R", "L", "A"}, faces
    assert game.start.supply == 3 and game.pos.supply == 0 and game.reason == "no tiles left"


def test_example_records_open_in_the_simulator():
    import sim as simtool
    for name in EXAMPLES:
        s = simtool.Sim.__new__(simtool.Sim)
        s.replay = {"version": 0}
        assert simtool.Sim.load_replay(s, read(os.path.join(GAMES, name)), name) == ""
        game = s.replay["games"][0]
        assert not game.get("error"), (name, game.get("error"))
        assert len(game["steps"]) > 10


def test_readme_links_the_rules_document():
    readme = read(os.path.join(ROOT, "README.md"))
    assert "(firmware/barragoon/RULES.md)" in readme
    assert "shared/RULES.md" not in readme
    tools = read(os.path.join(ROOT, "tools", "README.md"))
    assert "tools/replay.py" in tools and "tools/games/" in tools
    for link in re.findall(r"\]\((\.\./\.\./[^)#]+)\)", read(DOC)):
        assert os.path.exists(os.path.join(os.path.dirname(DOC), link)), link


def test_rules_document_is_not_shipped_to_the_board():
    import deploy
    assert "barragoon/RULES.md" not in deploy.firmware_sources()
    assert all(p.endswith(".py") for p in deploy.firmware_sources())
    # firmware/manifest.py freezes with package("barragoon"): MicroPython's manifest tool takes
    # only the package's .py files; package.json names each file.
    urls = json.loads(read(os.path.join(ROOT, "firmware", "package.json")))["urls"]
    assert all(src.endswith(".py") for src, dst in urls)
    assert "RULES" not in read(os.path.join(ROOT, "firmware", "manifest.py"))


def test_the_6b_example_and_the_search_limits_are_what_the_rules_core_does():
    from barragoon.game import Game, R_DEAD
    from barragoon.deadlock import MAX_EXPANSIONS, MAX_HASHED
    text = read(DOC)
    section = text[text.index("### No capture possible any more"):text.index("### A repeated")]
    position = re.search(r"\n    (\S+ w 0)\n", section).group(1)
    assert Game(position).reason == R_DEAD
    assert not Game(position.replace(" w ", " b ")).over      # "with Brown to move first"
    table = 4
    while table < 2 * MAX_HASHED:
        table *= 2
    assert "(%d KB)" % (4 * (table + MAX_HASHED) // 1000) in section   # hash table and stack
    assert "(%s arrangements)" % format(MAX_EXPANSIONS, ",") in section
