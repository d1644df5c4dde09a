#!/usr/bin/env python3
"""Print the 16 Barragoon face icons of the board's OLED as text (the pictures of
firmware/barragoon/RULES.md), drawn by the firmware's own controller/screens.face_icon.

    python tools/face_art.py

Each icon is 16 x 16 pixels; a text line holds two pixel rows (the characters ▀ ▄ █). North
is up. A host test checks that RULES.md shows exactly this.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import vboard  # noqa: E402
from toolkit.cli import no_arguments  # noqa: E402

vboard.install_framebuf()
import framebuf  # noqa: E402
from controller import screens  # noqa: E402

SIZE = 16
ROWS = (("X", "A", "2V", "2H"), ("1N", "1E", "1S", "1W"),
        ("RN", "RE", "RS", "RW"), ("LN", "LE", "LS", "LW"))
HALF = " \u2580\u2584\u2588"      # no pixel, upper, lower, both


def icon_lines(code):
    """The icon of a face code as SIZE // 2 lines of SIZE characters."""
    fb = framebuf.FrameBuffer(bytearray(SIZE * SIZE // 8), SIZE, SIZE, framebuf.MONO_VLSB)
    screens.face_icon(fb, 0, 0, code, SIZE)
    return ["".join(HALF[fb.pixel(x, y) + 2 * fb.pixel(x, y + 1)] for x in range(SIZE))
            for y in range(0, SIZE, 2)]


def art():
    """All 16 icons, four to a row, each framed and named: a list of text lines."""
    out = []
    for row in ROWS:
        icons = [icon_lines(code) for code in row]
        out.append("   ".join(("%-4s" % code).ljust(SIZE + 2) for code in row).rstrip())
        out.append("   ".join("\u250c" + "\u2500" * SIZE + "\u2510" for code in row))
        for i in range(SIZE // 2):
            out.append("   ".join("\u2502" + icon[i] + "\u2502" for icon in icons))
        out.append("   ".join("\u2514" + "\u2500" * SIZE + "\u2518" for code in row))
    return out


if __name__ == "__main__":
    no_arguments("face_art", __doc__)
    print("\n".join(art()))
