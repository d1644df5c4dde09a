# What the LEDs mean, and how each meaning looks.
#
# The controller decides a meaning per square (ORIGIN, MOVE, ...); a palette turns meanings
# into colours and a time pattern into light. Meaning never rests on hue alone: captures pulse
# slowly, touch-move duties blink, errors flash fast, everything else is steady, and within one
# pattern the colours of meanings that can be lit together differ clearly for normal vision and
# for protanopia, deuteranopia and tritanopia (host_tests/test_colours.py computes it with the
# Machado 2009 simulation and CIEDE2000). The second palette is designed for red-green colour
# blindness: there moves, the two kinds of capture and the lifted tile differ by colour too.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# Meanings (one byte per square in Controller.meaning).
OFF = const(0)
ORIGIN = const(1)          # the square the lifted tile came from
MOVE = const(2)            # a square the lifted tile may move to
TAKE_TILE = const(3)       # ... capturing an opponent tile
TAKE_BARRAGOON = const(4)  # ... capturing a Barragoon
CAPTURER = const(5)        # own tiles that can capture the lifted piece
ERROR = const(6)           # a piece resting where it cannot go
TO_EMPTY = const(7)        # take the piece off this square
TO_FILL = const(8)         # put a piece (back) on this square
PLACE = const(9)           # the Barragoon being placed; the next square to set up
HINT = const(10)           # set-up: other squares still to fill
DUTY = const(11)           # touch-move: this tile must move
DUTY_TAKE = const(12)      # touch-move: this piece must be captured
WIN = const(13)            # game over: the winner's tiles
LOSE = const(14)           # ... the loser's tiles
DRAW = const(15)           # ... every tile after a draw
SUGGEST = const(16)        # hint: the tile the engine would move
SUGGEST_TO = const(17)     # ... and where to (pulsing)
SENSED = const(18)         # sensor test: a piece stands here
TEST_R = const(19)         # LED test: full red, green, blue, white (the same in every palette)
TEST_G = const(20)
TEST_B = const(21)
TEST_W = const(22)
COUNT = const(23)

_NAMES = ("off,origin,move,capture tile,capture barragoon,capturer,error,take off,put back,"
          "place,set up,must move,must capture,winner,loser,draw,hint,hint to,sensed,test red,"
          "test green,test blue,test white")


def name(m):
    """The meaning's name (for tools and tests)."""
    return _NAMES.split(",")[m]


# Time patterns.
STEADY = const(0)
PULSE = const(1)           # 800 ms: full, then a quarter (stays visible, clearly breathing)
BLINK = const(2)           # 500 ms: on, off
FLASH = const(3)           # 200 ms: on, off
PATTERN = bytes((STEADY, STEADY, STEADY, PULSE, PULSE, STEADY, FLASH, STEADY, STEADY, STEADY,
                 STEADY, BLINK, BLINK, STEADY, STEADY, STEADY, STEADY, PULSE, STEADY, STEADY,
                 STEADY, STEADY, STEADY))

# Colours at full scale, 3 bytes per meaning in meaning order (the LED driver applies
# brightness and the current cap). Each palette is one literal (no run-time concatenation), so
# the frozen build keeps it in flash.
STANDARD = (
    b"\x00\x00\x00"    # off
    b"\x00\x00\xff"    # origin: blue
    b"\x00\xff\x00"    # move: green
    b"\xff\x30\x00"    # capture tile: orange-red, pulsing
    b"\xff\xff\x00"    # capture Barragoon: yellow, pulsing
    b"\x00\x00\xff"    # capturer: blue (your tile)
    b"\xff\x00\x00"    # error: red, flashing
    b"\xff\x80\xff"    # take off: pink
    b"\xff\xff\xff"    # put back: white
    b"\x00\xff\x00"    # place / next set-up square: green
    b"\x30\x30\x30"    # other set-up squares: dim white
    b"\x00\x00\xff"    # must move: blue, blinking
    b"\xff\x30\x00"    # must capture: orange-red, blinking
    b"\x00\xff\xc0"    # winner
    b"\xff\x00\x00"    # loser
    b"\xff\xa0\x00"    # draw
    b"\x90\x00\xe0"    # hint: violet
    b"\x90\x00\xe0"    # hint target: violet, pulsing
    b"\xff\xff\xff"    # sensed
    b"\xff\x00\x00\x00\xff\x00\x00\x00\xff\xff\xff\xff"   # LED test: red, green, blue, white
)
RED_GREEN = (
    b"\x00\x00\x00"
    b"\x00\x00\xff"    # origin: blue
    b"\x00\xc0\xff"    # move: sky blue
    b"\xff\x40\x00"    # capture tile: red-orange, pulsing
    b"\xff\xff\xa0"    # capture Barragoon: pale yellow, pulsing
    b"\x00\x00\xff"    # capturer: blue
    b"\xff\x00\x00"    # error: red, flashing
    b"\xff\x80\x00"    # take off: orange
    b"\xff\xff\xff"    # put back: white
    b"\x00\xc0\xff"    # place: sky blue
    b"\x30\x30\x30"
    b"\x00\x00\xff"    # must move: blue, blinking
    b"\xff\x40\x00"    # must capture: blinking
    b"\x00\xc0\xff"    # winner
    b"\xff\x40\x00"    # loser
    b"\xff\xff\xa0"    # draw
    b"\x90\x00\xe0"    # hint: violet
    b"\x90\x00\xe0"    # hint target: violet, pulsing
    b"\xff\xff\xff"
    b"\xff\x00\x00\x00\xff\x00\x00\x00\xff\xff\xff\xff"   # (the same in every palette)
)
PALETTES = (STANDARD, RED_GREEN)
PALETTE_NAMES = ("normal", "red-green")


def colour(palette, m):
    """The 3 bytes of meaning m in a palette (for tools and tests)."""
    return palette[3 * m:3 * m + 3]


def dimmed(palette):
    """The palette at a quarter (the low half of PULSE)."""
    return bytes(c >> 2 for c in palette)


def phase(t):
    """Bits of the time patterns at t ms: 1 pulse low, 2 blink off, 4 flash off."""
    return (((t // 400) & 1) | ((t // 250) & 1) << 1 | ((t // 100) & 1) << 2)


def _paint(meaning, prev, frame, pal, dim, ph):
    # pal, dim: the palette as 3 bytes per meaning. Returns 1 if a pattern is shown.
    pat = PATTERN
    moving = 0
    for sq in range(63):
        m = meaning[sq]
        p = pat[m]
        src = pal
        if p == STEADY:
            if prev[sq] == m:
                continue
            prev[sq] = m
        else:
            prev[sq] = 0xFF
            moving = 1
            if p == PULSE and ph & 1:
                src = dim
            elif (p == BLINK and ph & 2) or (p == FLASH and ph & 4):
                m = OFF
        i = sq * 3
        j = m * 3
        frame[i] = src[j]
        frame[i + 1] = src[j + 1]
        frame[i + 2] = src[j + 2]
    return moving


class Painter:
    """Meanings -> an RGB frame (63 x 3 bytes, square order). Allocation-free; squares whose
    steady meaning did not change since the last paint are skipped (the frame keeps them)."""

    def __init__(self, palette=0):
        self.palette = palette
        self._prev = bytearray(63)
        self.set_palette(palette)

    def set_palette(self, palette):
        self.palette = palette if 0 <= palette < len(PALETTES) else 0
        self._pal = PALETTES[self.palette]
        self._dim = dimmed(self._pal)
        for sq in range(63):
            self._prev[sq] = 0xFF          # everything is painted afresh

    def paint(self, meaning, frame, ph):
        """Fill frame from meaning (bytearray(63)) at pattern phase ph; returns True when
        something on it changes with time (the caller repaints at the next phase)."""
        return _paint(meaning, self._prev, frame, self._pal, self._dim, ph) != 0
