#!/usr/bin/env python3
"""Rebuild the OLED glyph bytes of firmware/controller/font.py from the pixel art in its
comments, and its table from code point to glyph from EXTRA (or check that they agree).

    python tools/glyphs.py --check     exit 1 if _GLYPHS or _MAP differ from the art and EXTRA
    python tools/glyphs.py --write     rewrite the _GLYPHS and _MAP constants

The art is the source: bands of up to 8 glyphs, each 8 columns by 8 rows ('#' lit, '.' dark),
under a line naming them, in the order of font.EXTRA and then BOX (the replacement box).
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONT_PY = os.path.join(ROOT, "firmware", "controller", "font.py")
START = "# Glyphs, in the order of EXTRA"


class ArtError(ValueError):
    pass


def parse_art(source):
    """[(name, [8 row strings of 8 '#'/'.'])] from the comment block of font.py's source."""
    lines = source.split("\n")
    try:
        i = next(k for k, line in enumerate(lines) if line.startswith(START)) + 1
    except StopIteration:
        raise ArtError("no line starting %r in font.py" % START)
    block = []
    while i < len(lines) and lines[i].startswith("#"):
        block.append(lines[i][2:].rstrip())
        i += 1
    if len(block) % 9:
        raise ArtError("the art has %d lines, not bands of 9 (a name line and 8 rows)"
                       % len(block))
    out = []
    for b in range(0, len(block), 9):
        names = block[b].split()
        rows = block[b + 1:b + 9]
        for k, name in enumerate(names):
            cells = [r[9 * k:9 * k + 8] for r in rows]
            if any(len(c) != 8 or set(c) - set(".#") for c in cells):
                raise ArtError("glyph %s (band %d): every row must be 8 of '.' and '#'"
                               % (name, b // 9 + 1))
            out.append((name, cells))
    return out


def glyph_bytes(rows):
    """8 column bytes, bit k = row k (MONO_VLSB)."""
    return bytes(sum(1 << y for y in range(8) if rows[y][x] == "#") for x in range(8))


def art_bytes(source, extra):
    glyphs = parse_art(source)
    names = [n for n, _ in glyphs]
    want = list(extra) + ["BOX"]
    if names != want:
        raise ArtError("the art names %s, EXTRA and BOX need %s" % ("".join(names),
                                                                   "".join(want)))
    return b"".join(glyph_bytes(rows) for _, rows in glyphs)


def literal(data, indent="    ", width=96):
    """The bytes as a parenthesised run of b"\\x.." lines."""
    per = (width - len(indent) - 3) // 4
    per -= per % 8
    return "\n".join('%sb"%s"' % (indent, "".join("\\x%02x" % v for v in data[i:i + per]))
                     for i in range(0, len(data), per))


RANGES = ((0xA0, 0x100), (0x2010, 0x2030))     # the code points _MAP covers, in its order
NONE = 255


def code_map(extra):
    """_MAP: for each code point of RANGES, its glyph's index in EXTRA, or NONE."""
    out = bytearray([NONE]) * sum(b - a for a, b in RANGES)
    for i, ch in enumerate(extra):
        base = 0
        for a, b in RANGES:
            if a <= ord(ch) < b:
                out[base + ord(ch) - a] = i
                break
            base += b - a
        else:
            raise ArtError("%s (U+%04X) is outside the code points font.py's _MAP covers "
                           "(U+00A0..U+00FF, U+2010..U+202F): widen RANGES here and the "
                           "look-up in font.glyph_index" % (ch, ord(ch)))
    return bytes(out)


def replace_constant(source, name, data):
    head, sep, rest = source.partition("\n%s = (\n" % name)
    if not sep:
        raise ArtError("no '%s = (' line in font.py" % name)
    body, sep, tail = ("\n" + rest).partition("\n)")
    if not sep:
        raise ArtError("%s is not closed by a ')' line in font.py" % name)
    return head + "\n%s = (\n" % name + literal(data) + "\n)" + tail


def extra_of(source):
    for line in source.split("\n"):
        if line.startswith("EXTRA = "):
            return eval(line[8:], {})       # a str literal
    raise ArtError("no EXTRA = line in font.py")


def rebuilt(source):
    """font.py's source with _GLYPHS made from the art and _MAP from EXTRA."""
    extra = extra_of(source)
    source = replace_constant(source, "_GLYPHS", art_bytes(source, extra))
    return replace_constant(source, "_MAP", code_map(extra))


def main(argv):
    ap = argparse.ArgumentParser(prog="glyphs.py", description=__doc__.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--check", action="store_true", help="exit 1 if the bytes and art differ")
    g.add_argument("--write", action="store_true", help="rewrite _GLYPHS from the art")
    ap.add_argument("--font", default=FONT_PY, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    try:
        with open(args.font, encoding="utf-8") as f:
            source = f.read()
        new = rebuilt(source)
    except (OSError, ArtError) as e:
        print("glyphs.py: %s" % e, file=sys.stderr)
        return 2
    if args.check:
        if new != source:
            print("glyphs.py: _GLYPHS or _MAP in %s differs from the art or EXTRA: run "
                  "tools/glyphs.py --write"
                  % os.path.relpath(args.font), file=sys.stderr)
            return 1
        print("font.py: glyph bytes match the art, _MAP matches EXTRA")
        return 0
    if new != source:
        with open(args.font, "w", encoding="utf-8") as f:
            f.write(new)
        print("font.py: _GLYPHS and _MAP rewritten")
    else:
        print("font.py: already up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
