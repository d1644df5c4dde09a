# Host side of the simulator: turn what the firmware drove into pictures.
#
#   decode_leds(buf, wiring, start, runs)  the raw NeoPixel buffer (bytes as written to the
#       strip, GRB per LED, in chain order) -> 63 (r, g, b) in square order a1, b1, ..., g9,
#       through the configured chain order (config LED_WIRING / LED_START / LED_RUNS). Nothing
#       else is undone: brightness and the current cap stay in the values, as the LEDs get them.
#   Oled()  fed with every raw I2C write to the SSD1306 (control byte, then commands or display
#       data), it keeps the display RAM in column-address order, which is exactly the driver's
#       MONO_VLSB framebuffer (byte = page * 128 + x, bit = y % 8), and the display flags
#       (on/off, inverse, contrast, all pixels on). image() gives the picture as drawn.
#   FaceReader(icons, x, y).read(oled)  the face the firmware's face picker shows: the picker
#       draws the face being chosen as an icon at a fixed place (controller.screens.PICKER_ICON);
#       the icon found there, pixel for pixel, names the face (None: no picker on the screen).
#       The sensors cannot see a face, so this is how the simulator shows the face being chosen
#       on the piece itself, without asking the firmware anything.
#
# Plain Python, no firmware imports. The LED chain is derived here differently from the
# firmware on purpose: chain_order() walks the strip over the board as a maker lays it (from
# the start corner along the first line, then over to the next line), while the firmware's
# drivers.leds.chain_index computes each position arithmetically. host_tests/test_sim_decode.py
# checks that the two agree for all 16 layouts, and both against chains written out by hand.

GRB = (1, 0, 2)          # byte offset of R, G and B inside one WS2812 pixel

WIRINGS = ("rows", "serpentine")
STARTS = ("a1", "g1", "a9", "g9")
RUNS = ("ranks", "files")


def chain_order(wiring="serpentine", start="a1", runs="ranks"):
    """The 63 squares (0 = a1, 6 = g1, 7 = a2, ... 62 = g9) in the order the LED strip passes
    them: it starts on corner `start` and runs along a rank ("ranks": lines of 7) or a file
    ("files": lines of 9); at the end of a line it goes over to the next line and comes back
    ("serpentine") or returns to that line's first square ("rows")."""
    f, r = "abcdefg".index(start[0]), int(start[1]) - 1
    step_f = 1 if f == 0 else -1                  # away from the start corner
    step_r = 1 if r == 0 else -1
    along, over = ((step_f, 0), (0, step_r)) if runs == "ranks" else ((0, step_r), (step_f, 0))
    order = []
    line_start = (f, r)
    while 0 <= f < 7 and 0 <= r < 9:
        while 0 <= f < 7 and 0 <= r < 9:          # one line, to the edge of the board
            order.append(r * 7 + f)
            f, r = f + along[0], r + along[1]
        if wiring == "serpentine":                # back onto the board, one line over
            f, r = f - along[0] + over[0], r - along[1] + over[1]
            along = (-along[0], -along[1])
        else:                                     # to the same side as the line before
            f, r = line_start[0] + over[0], line_start[1] + over[1]
        line_start = (f, r)
    return order


_positions = {}


def chain_index(sq, wiring="serpentine", start="a1", runs="ranks"):
    """Position along the LED chain of square sq."""
    key = (wiring, start, runs)
    if key not in _positions:
        _positions[key] = {s: i for i, s in enumerate(chain_order(wiring, start, runs))}
    return _positions[key][sq]


def decode_leds(buf, wiring="serpentine", start="a1", runs="ranks", order=GRB, bpp=3):
    """Raw strip buffer -> list of 63 (r, g, b) tuples in square order."""
    if wiring not in WIRINGS or start not in STARTS or runs not in RUNS:
        raise ValueError("unknown LED wiring %r %r %r" % (wiring, start, runs))
    out = []
    for sq in range(63):
        o = chain_index(sq, wiring, start, runs) * bpp
        if o + bpp > len(buf):
            out.append((0, 0, 0))
            continue
        out.append((buf[o + order[0]], buf[o + order[1]], buf[o + order[2]]))
    return out


# SSD1306 commands followed by argument bytes (datasheet command table); others take none.
_ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
         0xDB: 1, 0x8D: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}


class Oled:
    """SSD1306 decoder. write(data) takes one I2C write (without the address)."""

    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.pages = height // 8
        self.ram = bytearray(width * self.pages)
        self.on = False
        self.inverse = False
        self.all_on = False
        self.contrast = 0x7F
        self.seg_remap = False
        self.com_reverse = False
        self.addr_mode = 2            # reset: page addressing
        self.col = [0, width - 1]
        self.page = [0, self.pages - 1]
        self.x = 0
        self.p = 0
        self.errors = []
        self.writes = 0

    # --- bytes in ---------------------------------------------------------------------------
    def write(self, data):
        self.writes += 1
        i = 0
        n = len(data)
        while i < n:
            ctrl = data[i]
            i += 1
            if ctrl & 0x3F:
                self.errors.append("bad control byte 0x%02x" % ctrl)
                return
            if ctrl & 0x80:           # Co = 1: one byte, then another control byte
                if i >= n:
                    return
                if ctrl & 0x40:
                    self._data(data[i])
                    i += 1
                else:
                    i = self._command(data, i)
                continue
            if ctrl & 0x40:
                for b in data[i:]:
                    self._data(b)
                return
            while i < n:
                i = self._command(data, i)
            return

    def _command(self, data, i):
        c = data[i]
        k = _ARGS.get(c, 0)
        a = data[i + 1:i + 1 + k]
        if len(a) != k:
            self.errors.append("command 0x%02x lacks arguments" % c)
            return len(data)
        if c in (0xAE, 0xAF):
            self.on = c == 0xAF
        elif c in (0xA4, 0xA5):
            self.all_on = c == 0xA5
        elif c in (0xA6, 0xA7):
            self.inverse = c == 0xA7
        elif c == 0x81:
            self.contrast = a[0]
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xC0, 0xC8):
            self.com_reverse = c == 0xC8
        elif c == 0x20:
            self.addr_mode = a[0] & 3
        elif c == 0x21:
            self.col = [a[0] % self.width, a[1] % self.width]
            self.x = self.col[0]
        elif c == 0x22:
            self.page = [a[0] % self.pages, a[1] % self.pages]
            self.p = self.page[0]
        elif self.addr_mode == 2 and 0xB0 <= c <= 0xB7:
            self.p = (c & 7) % self.pages           # page addressing: page start
        elif self.addr_mode == 2 and c <= 0x0F:
            self.x = (self.x & 0xF0) | c            # lower column nibble
        elif self.addr_mode == 2 and 0x10 <= c <= 0x1F:
            self.x = ((c & 0x0F) << 4 | (self.x & 0x0F)) % self.width
        return i + 1 + k

    def _data(self, b):
        self.ram[self.p * self.width + self.x] = b
        if self.addr_mode == 2:                     # page mode: stay on the page
            self.x = (self.x + 1) % self.width
            return
        if self.addr_mode == 1:                     # vertical addressing
            self.p += 1
            if self.p > self.page[1]:
                self.p = self.page[0]
                self.x = self.x + 1 if self.x < self.col[1] else self.col[0]
            return
        self.x += 1                                 # horizontal addressing
        if self.x > self.col[1]:
            self.x = self.col[0]
            self.p = self.p + 1 if self.p < self.page[1] else self.page[0]

    # --- picture out ------------------------------------------------------------------------
    def drawn(self, x, y):
        """Pixel (x, y) of display RAM as the firmware drew it (its framebuffer)."""
        return self.ram[(y >> 3) * self.width + x] >> (y & 7) & 1

    def lit(self, x, y):
        """Whether the panel lights the pixel the firmware drew at (x, y)."""
        if not self.on:
            return 0
        if self.all_on:
            return 1
        return self.drawn(x, y) ^ (1 if self.inverse else 0)

    def rows(self, lit=True):
        """The picture as `height` ints of `width` bits, bit (width - 1 - x) = pixel x."""
        out = []
        get = self.lit if lit else self.drawn
        for y in range(self.height):
            v = 0
            for x in range(self.width):
                v = (v << 1) | get(x, y)
            out.append(v)
        return out

    def rows_hex(self):
        digits = self.width // 4
        return ["%0*x" % (digits, v) for v in self.rows()]


class FaceReader:
    """icons: {face: rows of "0"/"1" strings} as drawn by the firmware at (x, y)."""

    def __init__(self, icons, x, y):
        self.x = x
        self.y = y
        self.size = len(next(iter(icons.values())))
        self.faces = {tuple(rows): face for face, rows in icons.items()}

    def read(self, oled):
        """The face whose icon stands at (x, y) in the OLED's display RAM, or None."""
        n = self.size
        if self.x + n > oled.width or self.y + n > oled.height:
            return None
        rows = tuple("".join("1" if oled.drawn(self.x + i, self.y + j) else "0"
                             for i in range(n)) for j in range(n))
        return self.faces.get(rows)


def rows_from_hex(rows):
    """Inverse of Oled.rows_hex: list of rows, each a list of 0/1 pixels."""
    out = []
    for h in rows:
        v = int(h, 16)
        w = len(h) * 4
        out.append([(v >> (w - 1 - x)) & 1 for x in range(w)])
    return out
