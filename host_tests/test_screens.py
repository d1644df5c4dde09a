# OLED screens (firmware/controller/screens.py), checked by reading pixels back from the
# framebuffer: face icons (distinct, rotations, mirror images, which edges each arrow touches),
# title bar, cutting of long text, menu selection and scrolling, sensor grid orientation, and
# that no screen draws outside 128x64. Runs on CPython (framebuf stand-in of tools/vboard)
# and on the MicroPython unix port (its real framebuf).
import sys

if sys.implementation.name != "micropython":
    import vboard
    vboard.install_framebuf()   # CPython: the stand-in

import framebuf  # noqa: E402
from barragoon.core import FACES  # noqa: E402
from controller import screens  # noqa: E402

RUNTIMES = ("cpython", "micropython")

N, E, S, WEST = 0, 1, 2, 3
MENU_ITEMS = ("New game (closed)", "New game (open)", "Express stages", "Take back",
              "Offer a draw", "Sensor test", "LED test", "Brightness", "Resume game")


def new_fb(w=128, h=64):
    return framebuf.FrameBuffer(bytearray(w * ((h + 7) // 8)), w, h, framebuf.MONO_VLSB)


def region(fb, x, y, w, h):
    """Pixels of a rectangle, row by row, as a bytearray of 0/1."""
    out = bytearray(w * h)
    i = 0
    for yy in range(y, y + h):
        for xx in range(x, x + w):
            out[i] = fb.pixel(xx, yy)
            i += 1
    return out


def screen(fb):
    return region(fb, 0, 0, 128, 64)


def lit(fb, x, y, w, h):
    return sum(region(fb, x, y, w, h))


def code(face):
    return FACES.index(face) + 1


def icon(face, size):
    fb = new_fb(size + 8, size + 8)
    fb.fill(1)                      # face_icon must clear its square itself
    screens.face_icon(fb, 4, 4, code(face) if isinstance(face, str) else face, size)
    # nothing outside the square: the frame around it keeps the 1s of fill(1)
    assert lit(fb, 0, 0, size + 8, 4) == (size + 8) * 4
    assert lit(fb, 0, size + 4, size + 8, 4) == (size + 8) * 4
    assert lit(fb, 0, 4, 4, size) == 4 * size
    assert lit(fb, size + 4, 4, 4, size) == 4 * size
    return region(fb, 4, 4, size, size)


def rot_cw(b, s):
    out = bytearray(s * s)
    for y in range(s):
        for x in range(s):
            out[y * s + x] = b[(s - 1 - x) * s + y]
    return out


def mirror_lr(b, s):
    out = bytearray(s * s)
    for y in range(s):
        for x in range(s):
            out[y * s + x] = b[y * s + s - 1 - x]
    return out


def mirror_tb(b, s):
    out = bytearray(s * s)
    for y in range(s):
        out[y * s:(y + 1) * s] = b[(s - 1 - y) * s:(s - y) * s]
    return out


def edges(b, s):
    """Set of headings whose edge of the icon has a lit pixel."""
    out = set()
    if sum(b[0:s]):
        out.add(N)
    if sum(b[(s - 1) * s:]):
        out.add(S)
    if sum(b[y * s] for y in range(s)):
        out.add(WEST)
    if sum(b[y * s + s - 1] for y in range(s)):
        out.add(E)
    return out


# --- face icons ----------------------------------------------------------------------------------
def test_sixteen_icons_pairwise_different():
    for size in (16, 24):
        seen = {}
        for face in FACES:
            b = bytes(icon(face, size))
            assert b not in seen, "%s looks like %s at %d px" % (face, seen.get(b), size)
            seen[b] = face
            n = sum(b)
            assert size * size // 12 < n < size * size // 2, (face, size, n)
        assert len(seen) == 16


def test_icon_accepts_face_text_and_cell_code():
    for face in ("X", "RN", "A"):
        assert icon(face, 16) == icon(code(face), 16)


def test_headings_are_quarter_turns_clockwise():
    for size in (16, 24):
        for base in ("1", "R", "L"):
            b = icon(base + "N", size)
            for h in "ESW":
                b = rot_cw(b, size)
                assert icon(base + h, size) == b, (base + h, size)
        assert icon("2H", size) == rot_cw(icon("2V", size), size)


def test_left_turn_is_mirror_image_of_right_turn():
    for size in (16, 24):
        for h in "NS":      # mirrored across the vertical axis (the heading's axis)
            assert icon("L" + h, size) == mirror_lr(icon("R" + h, size), size)
            assert icon("L" + h, size) != icon("R" + h, size)
        for h in "EW":      # mirrored across the horizontal axis
            assert icon("L" + h, size) == mirror_tb(icon("R" + h, size), size)


def test_arrows_touch_the_edges_they_cross():
    # A tile crosses a Barragoon's square from one edge to another: the icon's arrow reaches
    # exactly those edges (tip = the heading it leaves with, tail = the side it comes from).
    for size in (16, 24):
        for d, h in enumerate("NESW"):
            assert edges(icon("1" + h, size), size) == {d, (d + 2) % 4}
            # right turn: entered heading d - 1, i.e. from the side d + 1
            assert edges(icon("R" + h, size), size) == {d, (d + 1) % 4}, ("R" + h, size)
            # left turn: entered heading d + 1, i.e. from the side d - 1
            assert edges(icon("L" + h, size), size) == {d, (d + 3) % 4}, ("L" + h, size)
        assert edges(icon("2V", size), size) == {N, S}
        assert edges(icon("2H", size), size) == {E, WEST}
        assert edges(icon("A", size), size) == {N, E, S, WEST}
        assert edges(icon("X", size), size) == set()


def test_one_way_arrowhead_at_its_heading():
    s = 24
    b = icon("1N", s)
    widths = [sum(b[y * s:(y + 1) * s]) for y in range(s)]
    assert widths[0] < widths[4] and max(widths[:s // 2]) > 2 * max(widths[s // 2:])
    # the right turn examples of RULES.md: RE is entered heading N (from the bottom edge),
    # LE is entered heading S (from the top edge); both leave through the east edge.
    assert S in edges(icon("RE", s), s) and N not in edges(icon("RE", s), s)
    assert N in edges(icon("LE", s), s) and S not in edges(icon("LE", s), s)


# --- framebuf text clipping (the same on both runtimes) ---------------------------------------
def test_framebuf_text_clips_at_the_edges():
    fb = new_fb()
    fb.text("WWWWWWWW", 120, 60, 1)
    assert lit(fb, 120, 60, 8, 4) > 0
    assert lit(fb, 0, 0, 120, 64) == 0 and lit(fb, 0, 0, 128, 60) == 0
    fb = new_fb()
    fb.text("MMMM", -4, -3, 1)
    assert lit(fb, 0, 0, 28, 5) > 0 and lit(fb, 0, 5, 128, 59) == 0


# --- screens ------------------------------------------------------------------------------------
def every_screen(fb):
    occ = bytearray(63)
    for i in range(0, 63, 3):
        occ[i] = 1
    long = "a very long text that is much wider than the screen " * 2
    yield screens.message(fb, long, long, long, long, long)
    yield screens.play(fb, "White", (2, 1), 24, long, long)
    yield screens.play(fb, "Brown", (0, 0), 7, "d2xd6 e6=X b3=RN", long)
    yield screens.face_picker(fb, "Brown", "g9", 16)
    yield screens.menu(fb, long, (long, long, "x", long, long, long, long, long), 7)
    yield screens.game_over(fb, "Brown wins", long)
    yield screens.game_over(fb, "Draw", long)
    yield screens.sensor_grid(fb, occ)
    yield screens.sensor_grid(fb, bytearray(b"\x01" * 63))
    yield screens.setup(fb, long, "e5", 123)


def test_no_screen_draws_outside_128x64():
    fb = new_fb(144, 80)
    n = 0
    for _ in every_screen(fb):
        assert lit(fb, 128, 0, 16, 80) == 0 and lit(fb, 0, 64, 144, 16) == 0
        assert lit(fb, 0, 0, 128, 64) > 100
        n += 1
    assert n == 10


def test_screens_return_nothing():
    for r in every_screen(new_fb()):
        assert r is None


def test_title_bar_inverted():
    fb = new_fb()
    screens.message(fb, "Fix the board", "line one")
    assert lit(fb, 0, 0, 128, 1) == 128          # top row fully lit
    assert lit(fb, 0, 0, 128, 10) > 128 * 10 * 6 // 10
    assert lit(fb, 0, 10, 128, 2) == 0           # dark gap under the bar
    # the title is dark text inside the bar: some pixels of rows 1..8 are off
    assert lit(fb, 0, 1, 128, 8) < 128 * 8


def test_long_text_is_cut_not_wrapped():
    long = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    fb1 = new_fb()
    screens.message(fb1, long, long, long, long, long)
    fb2 = new_fb()
    cut = long[:16]
    screens.message(fb2, cut, cut, cut, cut, cut)
    assert screen(fb1) == screen(fb2)
    # the lines below the title are 8 pixels high with blank rows between them
    for y in (10, 22, 34, 46, 58):
        assert lit(fb1, 0, y, 128, 4) == 0, y
    # a short line leaves the rest of its row dark
    fb = new_fb()
    screens.message(fb, "T", "ab")
    assert lit(fb, 0, 14, 16, 8) > 0 and lit(fb, 16, 12, 112, 52) == 0


def menu_rows(fb):
    """Indices of the menu rows (0..5) drawn inverted (lit at their left edge, full height)."""
    return [r for r in range(6) if lit(fb, 0, 10 + 9 * r, 1, 9) == 9]


def row_text_matches(fb, r, text, inverted, cols=15):
    """Row r shows `text` (inverted or not) at x = 0 or 1; longer than cols: its first
    cols - 1 characters."""
    if len(text) > cols:
        text = text[:cols - 1]
    y = 10 + 9 * r
    got = region(fb, 0, y + 1, 8 * len(text) + 1, 8)
    if inverted:
        got = bytearray(1 - v for v in got)
    for x in (0, 1):
        ref = new_fb(136, 8)
        ref.text(text, x, 0, 1)
        if region(ref, 0, 0, 8 * len(text) + 1, 8) == got:
            return True
    return False


def test_menu_selection_inverted_and_visible_while_scrolling():
    items = MENU_ITEMS
    first_seen = []
    for sel in range(len(items)):
        fb = new_fb()
        screens.menu(fb, "Menu", items, sel)
        rows = menu_rows(fb)
        assert len(rows) == 1, (sel, rows)
        r = rows[0]
        first = sel - r
        first_seen.append(first)
        assert 0 <= first <= len(items) - 6
        assert row_text_matches(fb, r, items[sel], True), sel
        for k in range(6):              # the other rows show the neighbouring items
            if k != r:
                assert row_text_matches(fb, k, items[first + k], False), (sel, k)
    # scrolling moves one step at a time and reaches both ends
    assert first_seen[0] == 0 and first_seen[-1] == len(items) - 6
    for a, b in zip(first_seen, first_seen[1:]):
        assert b - a in (0, 1)
    # a scroll bar at the right edge when the list is longer than the screen
    fb = new_fb()
    screens.menu(fb, "Menu", items, 0)
    assert lit(fb, 124, 10, 4, 54) > 54


def test_short_menu_has_no_scroll_bar():
    fb = new_fb()
    screens.menu(fb, "Variant", ("Closed", "Open"), 1)
    assert menu_rows(fb) == [1]
    assert row_text_matches(fb, 0, "Closed", False) and row_text_matches(fb, 1, "Open", True)
    assert lit(fb, 0, 28, 128, 36) == 0


def cell_box(fb):
    """Bounding box (x0, y0, x1, y1) of the lit pixels of the grid part (x < 70)."""
    x0 = y0 = 999
    x1 = y1 = -1
    for y in range(64):
        for x in range(70):
            if fb.pixel(x, y):
                x0 = min(x0, x)
                y0 = min(y0, y)
                x1 = max(x1, x)
                y1 = max(y1, y)
    return x0, y0, x1, y1


def diff_box(a, b):
    x0 = y0 = 999
    x1 = y1 = -1
    for y in range(64):
        for x in range(70):
            if a.pixel(x, y) != b.pixel(x, y):
                x0 = min(x0, x)
                y0 = min(y0, y)
                x1 = max(x1, x)
                y1 = max(y1, y)
    return x0, y0, x1, y1


def test_sensor_grid_a1_bottom_left_filled_iff_occupied():
    empty = new_fb()
    screens.sensor_grid(empty, bytearray(63))
    boxes = {}
    for sq in (0, 6, 56, 62, 31):           # a1, g1, a9, g9, d5
        occ = bytearray(63)
        occ[sq] = 1
        fb = new_fb()
        screens.sensor_grid(fb, occ)
        x0, y0, x1, y1 = diff_box(empty, fb)
        assert x1 >= x0 and y1 >= y0, sq
        # the cell's inside got filled: every pixel of the box is lit now
        assert lit(fb, x0, y0, x1 - x0 + 1, y1 - y0 + 1) == (x1 - x0 + 1) * (y1 - y0 + 1)
        boxes[sq] = (x0, y0, x1, y1)
    a1, g1, a9, g9 = boxes[0], boxes[6], boxes[56], boxes[62]
    assert a1[0] < g1[0] and a1[1] > a9[1]                 # a1 left of g1, below a9
    assert a1[0] == min(b[0] for b in boxes.values())      # leftmost
    assert a1[3] == max(b[3] for b in boxes.values())      # lowest
    assert g9[0] == max(b[0] for b in boxes.values()) and g9[1] == min(b[1] for b in boxes.values())
    # the grid of the empty board spans the other cells too
    gx0, gy0, gx1, gy1 = cell_box(empty)
    assert gx0 <= a1[0] and gy1 >= a1[3]
    # the count differs
    fb0 = new_fb()
    screens.sensor_grid(fb0, bytearray(63))
    fb22 = new_fb()
    occ = bytearray(63)
    for i in range(22):
        occ[i] = 1
    screens.sensor_grid(fb22, occ)
    assert region(fb0, 70, 0, 58, 56) != region(fb22, 70, 0, 58, 56)


def test_sensor_grid_every_square_its_own_cell():
    empty = new_fb()
    screens.sensor_grid(empty, bytearray(63))
    prev = None
    for sq in range(63):
        occ = bytearray(63)
        occ[sq] = 1
        fb = new_fb()
        screens.sensor_grid(fb, occ)
        box = diff_box(empty, fb)
        f, r = sq % 7, sq // 7
        if f and prev is not None:
            assert box[0] > prev[0] and box[1] == prev[1], sq     # east of the previous file
        if f == 0 and prev is not None:
            assert box[1] < prev[1], sq                          # a rank higher = further up
        prev = box


def test_game_over_winners_differ():
    shots = []
    for w in ("White wins", "Brown wins", "Draw"):
        fb = new_fb()
        screens.game_over(fb, w, "no legal move")
        shots.append(screen(fb))
    assert shots[0] != shots[1] and shots[1] != shots[2] and shots[0] != shots[2]
    for i, w in enumerate((0, 1, 2)):
        fb = new_fb()
        screens.game_over(fb, w, "no legal move")
        assert screen(fb) == shots[i]
    fb = new_fb()
    screens.game_over(fb, "White", "no legal move")
    assert screen(fb) == shots[0]
    fb2 = new_fb()
    screens.game_over(fb2, "White wins", "express rule")
    assert screen(fb2) != shots[0]


def test_face_picker_shows_the_face_icon():
    x, y, size = screens.PICKER_ICON
    assert size >= 24
    shots = set()
    for c in range(1, 17):
        fb = new_fb()
        screens.face_picker(fb, "White", "e5", c)
        ref = new_fb()
        screens.face_icon(ref, x, y, c, size)
        assert region(fb, x, y, size, size) == region(ref, x, y, size, size), FACES[c - 1]
        shots.add(bytes(screen(fb)))
        assert lit(fb, 0, 0, 128, 1) == 128                # title bar
    assert len(shots) == 16
    a = new_fb()
    screens.face_picker(a, "White", "e5", 8)
    b = new_fb()
    screens.face_picker(b, "Brown", "e5", 8)
    c = new_fb()
    screens.face_picker(c, "White", "e6", 8)
    assert screen(a) != screen(b) and screen(a) != screen(c)


def test_play_screen_lines():
    fb = new_fb()
    screens.play(fb, "White", (0, 0), 24, "d2-d4", "")
    short = screen(fb)
    assert lit(fb, 0, 0, 128, 1) == 128
    assert lit(fb, 0, 22, 128, 8) == 0                      # one line of last turn
    assert lit(fb, 0, 42, 128, 22) == 0                     # no express line, no note
    fb = new_fb()
    screens.play(fb, "White", (0, 0), 24, "c1xc4 e6=RN b3=LW", "")
    assert lit(fb, 0, 22, 128, 8) > 0                       # wrapped onto a second line
    fb = new_fb()
    screens.play(fb, "White", (1, 0), 24, "d2-d4", "Must move c2")
    assert lit(fb, 0, 42, 128, 8) > 0                       # express stages shown
    assert lit(fb, 0, 55, 128, 9) > 0                       # note
    fb = new_fb()
    screens.play(fb, "Brown", (0, 0), 24, "d2-d4", "")
    assert screen(fb) != short
    assert region(fb, 0, 10, 128, 54) == short[128 * 10:]   # only the title differs
    fb = new_fb()
    screens.play(fb, 0, (0, 0), 24, "d2-d4", "")
    assert screen(fb) == short
    fb = new_fb()
    screens.play(fb, "White", (0, 0), 23, "d2-d4", "")
    assert screen(fb) != short


def test_setup_screen():
    fb1 = new_fb()
    screens.setup(fb1, "White 4-tile", "b1", 23)
    fb2 = new_fb()
    screens.setup(fb2, "White 4-tile", "f1", 23)
    fb3 = new_fb()
    screens.setup(fb3, "White 4-tile", "b1", 22)
    fb4 = new_fb()
    screens.setup(fb4, "Remove piece", "b1", 23)
    assert screen(fb1) != screen(fb2) and screen(fb1) != screen(fb3) and screen(fb1) != screen(fb4)
    assert lit(fb1, 0, 0, 128, 1) == 128


def test_face_names():
    assert len(screens.FACE_NAMES) == 16
    assert len(set(screens.FACE_NAMES)) == 16
    for name in screens.FACE_NAMES:
        assert 0 < len(name) <= 16
    assert screens.FACE_NAMES[0] == "No Entry" and screens.FACE_NAMES[15] == "All Turns"
    assert screens.FACE_NAMES[code("RN") - 1] == "Right Turn N"
    assert screens.FACE_NAMES[code("LW") - 1] == "Left Turn W"


def test_clocks_over_the_play_screen():
    from oled_text import Picture
    fb = new_fb()
    screens.play(fb, 1, (0, 0), 22, "c8-c6", "")
    screens.clocks(fb, 281000, 9400, 1, True)
    img = Picture.from_fb(fb)
    assert img.find("4:41") == (20, 1, False)      # White's half, not running
    assert img.find("9.4") == (84, 1, True)        # Brown's runs: inverted, tenths below 10 s
    assert img.has("B", True) and not img.has("to move")
    fb = new_fb()
    screens.clocks(fb, 1800000, 605000, 0, False)  # paused: the mover's half only framed
    img = Picture.from_fb(fb)
    assert img.find("30:00") == (20, 1, False) and img.find("10:05") == (84, 1, False)
    assert fb.pixel(0, 0) and fb.pixel(63, 9) and not fb.pixel(64, 0) and not fb.pixel(1, 8)
