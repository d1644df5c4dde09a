# OLED screens of the board controller: each function draws one whole screen on a 128x64
# MONO_VLSB framebuf.FrameBuffer (or a subclass such as the SSD1306 driver) and returns None;
# the caller shows it. No hardware access here.
#
# Text goes through font.text (framebuf's built-in 8x8 font for ASCII, the project's glyphs for
# accented letters and the like): 16 characters a line, 8 lines. Longer text is cut
# (or wrapped where a screen says so), never drawn off the screen. Drawing allocates almost
# nothing: constant strings, and slices only where text is cut or wrapped.
#
# Face icons (face_icon) are drawn from geometry, not stored as bitmaps: an arrow is a stack
# of filled rectangles in the icon's own frame, turned a quarter turn per heading step (and
# mirrored for left turns), so 1E is exactly 1N turned 90 degrees clockwise and LN is exactly
# RN mirrored left-right. Sizes 16 and 24 are the designed ones; any even size from 12 works.
from barragoon.core import FACES
from controller import font
from controller.i18n import t as _t

W = 128
H = 64
COLS = 16   # characters per line

FACE_NAMES = ("No Entry", "One Way N", "One Way E", "One Way S", "One Way W",
              "Two Ways V", "Two Ways H",
              "Right Turn N", "Right Turn E", "Right Turn S", "Right Turn W",
              "Left Turn N", "Left Turn E", "Left Turn S", "Left Turn W", "All Turns")

_SIDES = ("White", "Brown")      # English keys: _t() gives the chosen language's word


# --- text helpers ------------------------------------------------------------------------------
# cut counts the texts the helpers had to cut (or break inside a word) since it was last set to
# 0: tools/render_screens.py and the tests read it to find texts too long for their place in a
# language. (A small int: counting allocates nothing.)
cut = 0


def _text(fb, s, x, y, c=1):
    """Text cut to what fits between x and the right edge."""
    global cut
    n = (W - x) >> 3
    if len(s) > n:
        s = s[:n]
        cut += 1
    font.text(fb, s, x, y, c)


def _field(fb, s, x, y, n, c=1):
    """Text in a field of n characters at x, y (cut to it: it must not run into the next)."""
    global cut
    if len(s) > n:
        s = s[:n]
        cut += 1
    _text(fb, s, x, y, c)


def _centre(fb, s, y, c=1):
    global cut
    if len(s) > COLS:
        s = s[:COLS]
        cut += 1
    font.text(fb, s, (W - 8 * len(s)) >> 1, y, c)


centre = _centre       # (for app.py's "storage full" line)


def _more(fb, x, y, c=1):
    """A small three-dot mark in the character cell at x, y: text was cut here."""
    fb.pixel(x + 1, y + 6, c)
    fb.pixel(x + 3, y + 6, c)
    fb.pixel(x + 5, y + 6, c)


def _wrap(fb, s, x, y, lines, dy=9, c=1, hang=False):
    """Text from x over at most `lines` lines, broken at spaces; the last line is cut with a
    three-dot mark when the text does not fit. hang: the lines after the first start at the
    left edge (under a label)."""
    global cut
    cols = (W - x) >> 3
    i = 0
    n = len(s)
    while lines > 0 and i < n:
        if n - i <= cols:
            font.text(fb, s[i:] if i else s, x, y, c)
            return
        if lines == 1:
            font.text(fb, s[i:i + cols - 1], x, y, c)
            _more(fb, x + 8 * (cols - 1), y, c)
            cut += 1
            return
        j = s.rfind(" ", i, i + cols + 1)
        if j <= i:
            j = i + cols            # no space: hard break
            cut += 1
        font.text(fb, s[i:j], x, y, c)
        i = j
        while i < n and s[i] == " ":
            i += 1
        y += dy
        lines -= 1
        if hang:
            x = 0
            cols = COLS


def _bar(fb, title):
    """Inverted title bar: rows 0..9, text centred."""
    fb.fill_rect(0, 0, W, 10, 1)
    _centre(fb, title, 1, 0)


def _big(fb, s, x, y, k=2):
    """Text scaled k times (8k x 8k per character). Uses rows 56..63 as scratch, so call it
    while those rows are still blank and with y + 8k <= 56."""
    global cut
    n = len(s)
    m = (W - x) // (8 * k)
    if n > m:
        n = m
        cut += 1
    fb.fill_rect(0, 56, 8 * n, 8, 0)
    font.text(fb, s if n == len(s) else s[:n], 0, 56, 1)
    font.scaled(x, y, k)
    for cx in range(8 * n):
        for cy in range(8):
            if fb.pixel(cx, 56 + cy):
                fb.fill_rect(x + cx * k, y + cy * k, k, k, 1)
    fb.fill_rect(0, 56, 8 * n, 8, 0)


# --- face icons ---------------------------------------------------------------------------------
def _rect(fb, x, y, s, rot, mir, rx, ry, rw, rh, c):
    """fill_rect of a rectangle given in the icon's frame (size s, heading N, not mirrored),
    mirrored left-right if mir, then turned rot quarter turns clockwise."""
    if mir:
        rx = s - rx - rw
    while rot:
        t = rx
        rx = s - ry - rh
        ry = t
        t = rw
        rw = rh
        rh = t
        rot -= 1
    fb.fill_rect(x + rx, y + ry, rw, rh, c)


def _shaft(s):
    # Icon proportions (functions of the size s only; no tuples, so no allocation):
    # shaft width t (even, so a shaft is centred), its left edge (s - t) >> 1, head height
    # (s * 5) >> 4; an arrowhead widens by one pixel each side per row.
    return 2 if s < 24 else (s // 12) * 2


def _head(fb, x, y, s, rot, mir, c, shift=0):
    """Arrowhead with its tip on the top edge (before turning), shift pixels left of centre."""
    t = _shaft(s)
    a = ((s - t) >> 1) - shift
    for i in range((s * 5) >> 4):
        _rect(fb, x, y, s, rot, mir, a - i, i, t + 2 * i, 1, c)


def _one_way(fb, x, y, s, rot, c):
    t = _shaft(s)
    a = (s - t) >> 1
    hh = (s * 5) >> 4
    _head(fb, x, y, s, rot, 0, c)
    _rect(fb, x, y, s, rot, 0, a, hh, t, s - hh, c)


def _two_ways(fb, x, y, s, rot, c):
    t = _shaft(s)
    a = (s - t) >> 1
    hh = (s * 5) >> 4
    _head(fb, x, y, s, rot, 0, c)
    _head(fb, x, y, s, rot + 2, 0, c)
    _rect(fb, x, y, s, rot, 0, a, hh, t, s - 2 * hh, c)


def _turn(fb, x, y, s, rot, mir, c):
    # Right turn leaving N (rot 0, mir 0), drawn like a road sign: the tail comes in from the
    # east edge low in the square heading W, turns right and goes up to the arrowhead at the
    # top edge. The shaft sits a little left of centre so that the whole sign is centred.
    t = _shaft(s)
    a = ((s - t) >> 1) - (s >> 4)    # column of the up-going arm
    hh = (s * 5) >> 4
    r = s - t - (s >> 3)             # row of the incoming arm
    _head(fb, x, y, s, rot, mir, c, s >> 4)
    _rect(fb, x, y, s, rot, mir, a, hh, t, r + t - hh, c)    # up-going arm
    _rect(fb, x, y, s, rot, mir, a + t, r, s - a - t, t, c)  # incoming arm, to the edge
    _rect(fb, x, y, s, rot, mir, a, r + t - 1, 1, 1, 1 - c)  # rounded outer corner


def _no_entry(fb, x, y, s, c):
    # a bold diagonal cross
    k = s >> 4                     # half thickness: 1 at 16 and 24, 2 at 32
    m = s >> 3                     # margin
    e = s - 1 - m
    for d in range(-k, k + 1):
        fb.line(x + m + max(d, 0), y + m - min(d, 0), x + e - max(-d, 0), y + e + min(-d, 0), c)
        fb.line(x + m + max(d, 0), y + e + min(d, 0), x + e - max(-d, 0), y + m - min(-d, 0), c)


def _all_turns(fb, x, y, s, c):
    # Four quarter circles, one round each corner, each joining the middles of two
    # neighbouring edges: every side leads to both neighbouring sides, none straight across.
    t = _shaft(s)
    lo = (s - t) * (s - t)
    hi = (s + t) * (s + t)
    for py in range(s):
        dy = 2 * min(py, s - 1 - py) + 1
        dy *= dy
        for px in range(s):
            dx = 2 * min(px, s - 1 - px) + 1
            d = dx * dx + dy
            if lo <= d < hi:
                fb.pixel(x + px, y + py, c)


def face_icon(fb, x, y, code, size=16):
    """Draw the face with cell code 1..16 (or its face code text, "RN") in a size x size square
    at x, y (cleared first). N is up on the screen."""
    if isinstance(code, str):
        code = FACES.index(code) + 1
    s = size & ~1
    fb.fill_rect(x, y, size, size, 0)
    i = code - 1
    if i == 0:
        _no_entry(fb, x, y, s, 1)
    elif i <= 4:
        _one_way(fb, x, y, s, i - 1, 1)
    elif i <= 6:
        _two_ways(fb, x, y, s, i - 5, 1)
    elif i <= 10:
        _turn(fb, x, y, s, i - 7, 0, 1)
    elif i <= 14:
        _turn(fb, x, y, s, i - 11, 1, 1)
    elif i == 15:
        _all_turns(fb, x, y, s, 1)
    else:
        raise ValueError("face code 1..16")


# --- screens ------------------------------------------------------------------------------------
def message(fb, title, line1="", line2="", line3="", line4=""):
    """Title in an inverted bar, up to four lines below (each cut to 16 characters)."""
    fb.fill(0)
    _bar(fb, title)
    _text(fb, line1, 0, 14)
    _text(fb, line2, 0, 26)
    _text(fb, line3, 0, 38)
    _text(fb, line4, 0, 50)


def message_note(fb, title, line1, line2, note):
    """A message of up to two lines, then a note (what to do now, why a piece must go back,
    a refusal of the rules) wrapped over the lines left below them."""
    message(fb, title, line1, line2)
    n = 2 if line2 else (1 if line1 else 0)
    _wrap(fb, note, 0, 14 + 12 * n, 4 - n, 12)


def placement(fb, who, note=""):
    """A Barragoon to be placed: who places ("White: put one"), then what to do, or a note
    (why a piece must go back) wrapped over the three lines below."""
    message(fb, _t("Place Barragoon"), who)
    if note:
        _wrap(fb, note, 0, 26, 3, 12)
    else:
        _text(fb, _t("on an empty"), 0, 26)
        _text(fb, _t("square"), 0, 38)


def side_word(side):
    """The name of side 0 (White) or 1 (Brown) in the chosen language."""
    return _t("Brown") if side else _t("White")


def _side_text(side):
    if isinstance(side, int):
        return side_word(side)
    return _t(side)                  # "White" or "Brown": the English key


def play(fb, side_to_move, stages, supply, last, note):
    """Main play screen. side_to_move: "White"/"Brown" (or 0/1); stages: (white, brown)
    express stages; supply: Barragoons left; last: text of the last turn ("" at the start);
    note: a hint for the player ("" for none)."""
    fb.fill(0)
    side = _side_text(side_to_move)
    _bar(fb, _t("%s to move") % side)
    # a label and, one space after it, its value ("Last" up to 5 characters; the turn's
    # second line starts under the label)
    w = _t("Last")
    _field(fb, w, 0, 13, 5)
    x = 8 * len(w) + 8 if len(w) <= 5 else 48
    if last:
        _wrap(fb, last, x, 13, 2, 9, 1, True)
    else:
        font.text(fb, "-", x, 13)
    w = _t("Supply")
    _field(fb, w, 0, 33, 8)
    n = supply
    x = 8 * len(w) + 8 if len(w) <= 8 else 72
    if n >= 10:
        font.text(fb, "0123456789"[n // 10 % 10], x, 33)
        x += 8
    font.text(fb, "0123456789"[n % 10], x, 33)
    exp = stages and (stages[0] or stages[1])
    long_note = len(note) > COLS
    if exp:
        # "Express W 1 B 0": the side letters are the colours' initials in the language; a
        # note of two lines takes that line, and the stages move beside the supply
        x, y = (88, 33) if long_note else (64, 42)
        if not long_note:
            _field(fb, _t("Express"), 0, 42, 7)
        _field(fb, _t("W"), x, y, 1)
        font.text(fb, "0123456789"[stages[0] % 10], x + 8, y)
        _field(fb, _t("B"), x + 24, y, 1)
        font.text(fb, "0123456789"[stages[1] % 10], x + 32, y)
    if note:
        if not long_note:
            fb.hline(0, 53, W, 1)
            _wrap(fb, note, 0, 56, 1)
        else:
            fb.hline(0, 44, W, 1)
            _wrap(fb, note, 0, 47, 2)


def _clock_time(fb, ms, x, y, c):
    # m:ss, or s.t below 10 s, one character at a time (no string is built)
    d = "0123456789"
    if ms < 10000:
        font.text(fb, d[ms // 1000], x, y, c)
        font.text(fb, ".", x + 8, y, c)
        font.text(fb, d[ms // 100 % 10], x + 16, y, c)
        return
    s = ms // 1000
    m = s // 60
    if m >= 10:
        font.text(fb, d[m // 10 % 10], x, y, c)
        x += 8
    font.text(fb, d[m % 10], x, y, c)
    font.text(fb, ":", x + 8, y, c)
    font.text(fb, d[s % 60 // 10], x + 16, y, c)
    font.text(fb, d[s % 10], x + 24, y, c)


def clocks(fb, white_ms, brown_ms, side, running):
    """The game clock over the play screen's title bar: White's time in the left half, Brown's
    in the right, the side to move's half inverted (framed only while the clock is paused),
    e.g. "W 14:59" and "B 9.4"."""
    fb.fill_rect(0, 0, W, 10, 0)
    for s in (0, 1):
        x = 64 * s
        on = s == side
        if on and running:
            fb.fill_rect(x, 0, 64, 10, 1)
        elif on:
            fb.rect(x, 0, 64, 10, 1)
        c = 0 if on and running else 1
        _field(fb, _t("W") if s == 0 else _t("B"), x + 4, 1, 1, c)
        _clock_time(fb, brown_ms if s else white_ms, x + 20, 1, c)


PICKER_ICON = (3, 15, 24)   # x, y, size of the face icon on the picker screen


def face_picker(fb, side, square, code, footer=None):
    """Choosing the face of a Barragoon being placed: side "White"/"Brown" (or 0/1), square
    "e5", code the current cell code 1..16. footer: a line instead of the keys (the board's
    own placement, which the player only carries out)."""
    fb.fill(0)
    side = _side_text(side)
    fb.fill_rect(0, 0, W, 10, 1)
    _text(fb, _t("%s: Barragoon") % side, 0, 1, 0)
    fb.rect(0, 12, 30, 30, 1)
    face_icon(fb, PICKER_ICON[0], PICKER_ICON[1], code, PICKER_ICON[2])
    w = _t("on")
    _field(fb, w, 36, 14, 4)
    _text(fb, square, 44 + 8 * (len(w) if len(w) <= 4 else 4), 14)
    _big(fb, FACES[code - 1], 36, 25)
    if footer is not None and len(footer) > COLS:
        _wrap(fb, footer, 0, 45, 2, 11)       # (a note: in place of the face's name)
        return
    _text(fb, _t(FACE_NAMES[code - 1]), 0, 45)
    if footer is not None:
        _text(fb, footer, 0, 56)
        return
    # "UP/DN face OK=set" is 17 characters: narrow spaces make it fit the 128 pixels.
    font.text(fb, "UP/DN", 0, 56)
    _field(fb, _t("face"), 44, 56, 4)
    _field(fb, _t("OK=set"), 80, 56, 6)


MENU_ROWS = 6


def menu(fb, title, items, selected):
    """Title bar and a scrolling list of up to 6 visible rows; the selected row is inverted.
    The list scrolls so that the selection stays visible (two rows of context when possible).
    Items longer than 16 characters (15 with the scroll bar of lists longer than 6) are cut
    with a three-dot mark."""
    global cut
    fb.fill(0)
    _bar(fb, title)
    n = len(items)
    first = selected - 2
    if first > n - MENU_ROWS:
        first = n - MENU_ROWS
    if first < 0:
        first = 0
    scroll = n > MENU_ROWS
    w = W - 5 if scroll else W
    for r in range(MENU_ROWS):
        i = first + r
        if i >= n:
            break
        y = 10 + 9 * r
        c = 1
        if i == selected:
            fb.fill_rect(0, y, w, 9, 1)
            c = 0
        s = items[i]
        cols = w >> 3
        if len(s) > cols:       # cut, with a three-dot mark in the last cell
            cut += 1
            font.text(fb, s[:cols - 1], 0, y + 1, c)
            _more(fb, 8 * (cols - 1), y + 1, c)
        else:
            font.text(fb, s, 1 if len(s) < cols else 0, y + 1, c)
    if scroll:
        # scroll bar in the 4 rightmost columns: track and thumb
        top = 10
        h = H - top
        fb.vline(W - 2, top, h, 1)
        th = h * MENU_ROWS // n
        if th < 4:
            th = 4
        ty = top + (h - th) * first // (n - MENU_ROWS)
        fb.fill_rect(W - 4, ty, 4, th, 1)


def question(fb, title, prompt, items, selected):
    """A question with up to four answers; the selected one is inverted."""
    fb.fill(0)
    _bar(fb, title)
    _text(fb, prompt, 0, 13)
    for i in range(min(len(items), 4)):
        y = 24 + 10 * i
        c = 1
        if i == selected:
            fb.fill_rect(0, y - 1, W, 10, 1)
            c = 0
        _text(fb, items[i], 1, y, c)
    if len(items) < 4:
        _text(fb, "UP/DN, OK", 0, 56)


def game_over(fb, winner, reason):
    """End of the game. winner: "White wins", "Brown wins", "Draw" (or "White"/"Brown", or
    0/1/2 = White/Brown/draw); reason: the game's reason text."""
    fb.fill(0)
    _bar(fb, _t("Game over"))
    if isinstance(winner, int):
        word = "Draw" if winner == 2 else _SIDES[winner]
    else:
        word = winner
        if word.endswith(" wins"):
            word = word[:-5]
    if word == "Draw":
        word = _t("Draw")
        _big(fb, word, (W - 16 * len(word)) >> 1, 13)
    else:
        side = _t(word)
        wins = _t("wins")
        if 8 + 16 * len(side) + 8 * len(wins) <= W:
            _big(fb, side, 4, 13)
            _text(fb, wins, 8 + 16 * len(side), 21)
        else:                       # (a long name: the words in the language's order)
            _centre(fb, _t("%s wins") % side, 17)
    _wrap(fb, reason, 0, 30, 3)
    _centre(fb, _t("OK: new game"), 56)


def sensor_grid(fb, occupied):
    """Live sensor test: the 7x9 board as seen from White (a1 bottom left), a filled cell per
    occupied square (occupied[(rank - 1) * 7 + file]), file letters, odd rank numbers and the
    number of occupied squares."""
    fb.fill(0)
    gx = 10                 # grid left; cells are 8 wide and 6 high (7x5 plus a gap)
    count = 0
    for sq in range(63):
        f = sq % 7
        r = sq // 7
        x = gx + 8 * f
        y = 6 * (8 - r)
        if occupied[sq]:
            fb.fill_rect(x, y, 7, 5, 1)
            count += 1
        else:
            fb.rect(x, y, 7, 5, 1)
    x = 72
    _field(fb, _t("Sensors"), x, 0, 7)
    # the big count first: _big needs rows 56..63 blank
    if count >= 10:
        _big(fb, "0123456789"[count // 10], x + 8, 16)
        _big(fb, "0123456789"[count % 10], x + 24, 16)
    else:
        _big(fb, "0123456789"[count], x + 16, 16)
    _field(fb, _t("of 63"), x + 8, 38, 6)
    for f in range(7):
        font.text(fb, "abcdefg"[f], gx + 8 * f, 56)
    for r in range(0, 9, 2):
        font.text(fb, "123456789"[r], 0, 6 * (8 - r) - 1)


def setup(fb, piece_text, square, left):
    """Set-up guide: what to put on which square ("White 4-tile", "b1"), and how many squares
    are still to set. A piece_text starting with "Remove" asks to clear the square instead."""
    fb.fill(0)
    _bar(fb, _t("Set up the board"))
    if piece_text.startswith("Remove"):       # (the English key: the caller's own words)
        _text(fb, _t("Remove piece"), 0, 14)
        _text(fb, _t("from"), 0, 30)
    else:
        _text(fb, _t("Place"), 0, 14)
        _text(fb, piece_text, 0, 24)
        _text(fb, _t("on"), 0, 38)
    _big(fb, square, 40, 32)
    w = _t("Left:")
    _field(fb, w, 0, 56, 10)
    _text(fb, str(left), 8 + 8 * (len(w) if len(w) <= 10 else 10), 56)
