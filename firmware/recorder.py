# The flight recorder: the last raw sensor and button events with their times, in a fixed ring
# (3 bytes per event, nothing allocated per event), written to events.txt with every save so
# that "the board did something wrong" can be replayed: events.txt is an event script for
# tools/board_events.py (format: tools/toolkit/event_script.py). The board writes the file a few
# lines per loop step (open_file, write_some), so the sensors stay scanned meanwhile.
#
# Where the replay starts: the controller marks checkpoints, moments when a turn begins with
# the board showing exactly the game's position (no piece lifted, no placement due, no
# question open). The file starts at the oldest checkpoint still in the ring whose events fit
# the file's bound (else the newest one in the ring): a `position` line with the game's
# position there (left out when it is the standard start of a new game), then every event
# after it, times in ms counted from the checkpoint, then `end`. The replay therefore starts a
# new game at that position (closed variant, express 0 0, no repetition history): what the
# board did from there on is reproduced; what happened before the checkpoint is summarised in
# a comment only.
from array import array

from controller.ticks import ticks_diff

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

PAUSE = const(0xFF)          # a gap longer than 65534 ms: dt holds 65535, no event
BUTTON = const(0x80)         # button codes: 0x80 | button << 1 | pressed (0 up, 1 down, 2 ok)
OFFSET = const(500)          # script time of the checkpoint (the replayed board has booted)
END_PAD = const(1500)        # run the replay this long past the save: decisions at rest done
BUTTON_NAMES = ("up", "down", "ok")
_CHECKPOINTS = const(6)
_FILES = "abcdefg"


def _square(sq):
    return _FILES[sq % 7] + "123456789"[sq // 7]


def _is_start(pos):
    from barragoon.game import start_position
    start = start_position(0)        # (11 ms on the RP2040: only for a new game's checkpoint)
    return pos.cells == start.cells and pos.side == start.side and pos.supply == start.supply


class Recorder:
    def __init__(self, size=768, file_events=400):
        self.size = size
        self.file_events = file_events
        # range: no temporary list (the values are overwritten before they are read)
        self.dt = array("H", range(size)) if size else None
        self.code = bytearray(size)
        self.n = 0                   # events ever added (ring index = n % size)
        self.last_t = 0
        # Checkpoints: (event index, the position's cells (its text once written), the last
        # turn's text, side, supply): its cells, not a Position with its move buffers.
        self.cps = []
        self._pos = None             # a Position to format a checkpoint's (made when first needed)
        self.w_now = self.w_end = self.w_last_t = self.w_t = 0   # the file being written:
        self.w_i = -1                # its next event (open_file, write_some)

    def ram_bytes(self):
        """The fixed RAM of the ring (the buffers, not counting small objects)."""
        return 3 * self.size

    # --- recording (allocation-free) -------------------------------------------------------
    def _put(self, dt, code):
        i = self.n % self.size
        self.dt[i] = dt
        self.code[i] = code
        self.n += 1
        if self.n >= 0x3FFFFFFF:     # stay a small int; drop the checkpoints (rare: years)
            self.n = self.size
            self.cps = []

    def add(self, t, code):
        if not self.size:
            return
        d = ticks_diff(t, self.last_t) if self.n else 0
        if d < 0:
            d = 0
        while d > 65534:
            self._put(65535, PAUSE)
            d -= 65535
        self._put(d, code)
        self.last_t = t

    def square(self, t, sq, present):
        self.add(t, sq | (64 if present else 0))

    def button(self, t, button, pressed):
        self.add(t, BUTTON | button << 1 | (1 if pressed else 0))

    def checkpoint(self, game, before_event=False):
        """A turn starts with the board matching game (before_event: the event being
        handled already belongs to the new turn). Quick: this may run between a lift and its
        lit targets; the position is written out as text only when the file is."""
        if not self.size:
            return
        idx = self.n - (1 if before_event and self.n else 0)
        if self.cps and self.cps[-1][0] == idx:
            self.cps.pop()
        pos = game.pos
        self.cps.append((idx, bytes(pos.cells), game.last_turn_text(), pos.side, pos.supply))
        if len(self.cps) > _CHECKPOINTS:
            self.cps.pop(0)

    # --- writing events.txt ------------------------------------------------------------------
    def _start(self):
        # the checkpoint to replay from, or None
        n = self.w_end
        oldest = n - self.size
        pick = None
        for cp in self.cps:
            if cp[0] < oldest or cp[0] > n:
                continue
            if n - cp[0] <= self.file_events:
                return cp
            pick = cp                # newest in the ring, if none fits the bound
        return pick

    def write(self, write, now):
        """Write the whole script through write(text) at once (tools and tests; the board
        writes it over several loop steps: open_file, write_some)."""
        self.open_file(now)
        while not self.write_some(write, 64):
            pass

    def open_file(self, now):
        """Begin a file of the events so far (later ones go into the next file)."""
        self.w_now = now
        self.w_end = self.n
        self.w_last_t = self.last_t
        self.w_i = -1                # -1: the head comes first

    def write_some(self, write, lines):
        """Write the next `lines` events through write(text), one line at a time. True when
        the file is complete. A few lines per loop step keep the matrix scanned: formatting
        400 events takes about 150 ms on the RP2040."""
        if self.w_i < 0:
            self._head(write)
            return not self.size
        size, i, t = self.size, self.w_i, self.w_t
        ms = OFFSET + t
        while lines > 0 and i < self.w_end:
            if self.n - i > size:    # overwritten meanwhile (cannot happen at 16 lines a step)
                write("# events lost here\n")
                break
            k = i % size
            t += self.dt[k]
            c = self.code[k]
            ms = OFFSET + t
            if c == PAUSE:
                pass
            elif c & BUTTON:
                write("%d %s %s\n" % (ms, "press" if c & 1 else "release",
                                      BUTTON_NAMES[(c >> 1) & 3]))
            else:
                write("%d %s %s\n" % (ms, "drop" if c & 64 else "lift", _square(c & 63)))
            i += 1
            lines -= 1
        self.w_i, self.w_t = i, t
        if i < self.w_end and self.n - i <= size:
            return False             # more next time
        if self.w_end:
            tail = ticks_diff(self.w_now, self.w_last_t)
            ms += tail if tail > 0 else 0
        write("%d end\n" % (ms + END_PAD))
        return True

    def _head(self, write):
        write("# Barragoon board: the last events (flight recorder); replay with\n"
              "# python tools/board_events.py events.txt\n")
        if not self.size:
            write("# the recorder is off (RECORDER_EVENTS = 0)\n0 end\n")
            return
        cp = self._start()
        if cp is None:
            write("# no checkpoint in the ring: the events below start mid-game and may not "
                  "replay\n")
            self.w_i = max(0, self.w_end - self.size)
        else:
            self.w_i = cp[0]
            if cp[2]:
                write("# before this: ... %s\n" % cp[2])
            text = self._position_text(cp)
            if text:
                write("position %s\n" % text)
        self.w_t = 0                 # ms since the checkpoint

    def _position_text(self, cp):
        # The checkpoint's position as text ('' for the standard start of a new game: it needs
        # no line). Formatted once per checkpoint, about 14 ms on the RP2040: the next files
        # usually start from the same one.
        if isinstance(cp[1], str):
            return cp[1]
        pos = self._pos
        if pos is None:
            from barragoon.core import Position
            pos = self._pos = Position()
        pos.cells[:] = cp[1]
        pos.side = cp[3]
        pos.supply = cp[4]
        if not cp[2] and _is_start(pos):
            text = ""
        else:
            from barragoon.notation import format_position
            text = format_position(pos)
        cps = self.cps
        for i in range(len(cps)):
            if cps[i] is cp:
                cps[i] = (cp[0], text, cp[2], cp[3], cp[4])
        return text
