# Model of an SSD1306 128x64 panel on the fake I2C bus: interprets the bytes the firmware sends
# (control byte, commands with their argument counts, data in horizontal addressing mode) into
# GDDRAM and the display settings, and renders what a viewer sees.
# Attach with machine.i2c_devices[0x3C] = Panel().

# Commands followed by argument bytes (datasheet command table); all others take none.
ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
        0xDB: 1, 0x8D: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}


class Panel:
    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.ram = bytearray(width * height // 8)   # by segment (SEG0..127) and page
        self.on = False
        self.contrast = 0x7F
        self.inverse = False
        self.seg_remap = False
        self.com_reverse = False
        self.charge_pump = False
        self.mux = 63
        self.addr_mode = 2        # reset value: page addressing
        self.col = [0, width - 1]
        self.page = [0, height // 8 - 1]
        self._x = 0
        self._p = 0
        self.commands = []        # every command with its arguments, as tuples
        self.data_bytes = 0       # display data bytes received
        self.errors = []

    def write(self, data):
        i = 0
        while i < len(data):
            ctrl = data[i]
            i += 1
            co, dc = ctrl & 0x80, ctrl & 0x40
            if ctrl & 0x3F:
                self.errors.append("bad control byte 0x%02x" % ctrl)
                return
            if co:                # one byte, then another control byte
                if i < len(data):
                    if dc:
                        self._data(data[i])
                    else:
                        i = self._command(data, i)
                        continue
                    i += 1
                continue
            if dc:
                for b in data[i:]:
                    self._data(b)
                return
            while i < len(data):
                i = self._command(data, i)
            return

    def _command(self, data, i):
        c = data[i]
        n = ARGS.get(c, 0)
        args = tuple(data[i + 1:i + 1 + n])
        if len(args) != n:
            self.errors.append("command 0x%02x lacks arguments" % c)
        self.commands.append((c,) + args)
        if c in (0xAE, 0xAF):
            self.on = c == 0xAF
        elif c == 0x81:
            self.contrast = args[0]
        elif c in (0xA6, 0xA7):
            self.inverse = c == 0xA7
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xC0, 0xC8):
            self.com_reverse = c == 0xC8
        elif c == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        elif c == 0xA8:
            self.mux = args[0]
        elif c == 0x20:
            self.addr_mode = args[0]
        elif c == 0x21:
            self.col = list(args)
            self._x = args[0]
        elif c == 0x22:
            self.page = list(args)
            self._p = args[0]
        return i + 1 + n

    def _data(self, b):
        self.data_bytes += 1
        # Segment remap is applied as data arrives (datasheet: it only affects later writes).
        seg = self.width - 1 - self._x if self.seg_remap else self._x
        self.ram[self._p * self.width + seg] = b
        if self.addr_mode != 0:
            self.errors.append("data written in addressing mode %d" % self.addr_mode)
        self._x += 1
        if self._x > self.col[1]:
            self._x = self.col[0]
            self._p += 1
            if self._p > self.page[1]:
                self._p = self.page[0]

    def seg_pixel(self, seg, y):
        return self.ram[(y // 8) * self.width + seg] >> (y % 8) & 1

    def seen(self, x, y):
        """Pixel a viewer sees at (x, y) from the top-left of a module mounted the usual way
        (SEG127 on the left, COM63 at the top: upright when the firmware remaps segments and
        reverses the COM scan, as on most modules)."""
        if not self.on:
            return 0
        row = self.height - 1 - y       # COM line at this height
        line = self.height - 1 - row if self.com_reverse else row
        return self.seg_pixel(self.width - 1 - x, line) ^ (1 if self.inverse else 0)
