# A file of game records, as the board's records.txt holds them: one record after another,
# each its tag lines, then its turns. Runs on CPython and MicroPython (tools/replay.py).
if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/record_file.py is a module the tools import, not a tool "
                     "(tools/README.md lists the tools)\n")
    sys.exit(2)


def split_records(text):
    """The record texts in text. A record ends where a tag line follows its turns, or where a
    tag it already has comes again (records written without turns)."""
    games = []
    lines = []
    names = []
    has_turns = False
    for raw in text.split("\n"):
        line = raw.strip()
        if line.startswith("["):
            name = line[1:].split(" ", 1)[0]
            if has_turns or name in names:
                games.append("\n".join(lines))
                lines, names, has_turns = [], [], False
            names.append(name)
        elif line:
            has_turns = True
        lines.append(raw)
    games.append("\n".join(lines))
    return [g for g in games if g.strip()]
