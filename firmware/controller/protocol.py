# The board's line protocol on its USB serial console (the MicroPython console that mpremote
# talks to): a computer watches the game and may play one side of it. Hardware-free: the lines
# go in and out through a port (drivers/usb.py on the board, a fake in the simulator), and the
# board's state comes from the controller.
#
#   con = Console(ctl, port, version)   port: read(buf, n) / write(buf, n) -> bytes done, never
#                                  waiting (drivers/usb.py); version: the firmware's
#   con.step(t_ms)                 once a loop step, after the LEDs and the screen; costs a poll
#                                  of the port while nobody listens
#
# PROTOCOL, version 1. Text lines, ASCII but for the screen's texts (UTF-8), ending in "\n".
#
# The board writes nothing until a listener says `hello`; then, after its `hello` line and the
# full state, one line per change. Each line is
#
#   @SS WORD FIELDS*CC
#
# SS: a sequence number, 2 hex digits, one more per line (mod 256): a gap means lines were lost.
# CC: 2 hex digits, the XOR of every byte between "@" and "*" (as NMEA 0183 does); a line with
# another is damaged. Bytes between lines ("\r" fills the last USB packet) mean nothing.
#
#   hello 1 VERSION               protocol 1, the firmware's version
#   game N VARIANT EW EB OPP START    the game on the board: N actions in its record, which
#                                 `rec` lines send next; VARIANT closed|open; EW, EB the express
#                                 stages; OPP: - (two players here), w1..w3 / b1..b3 (the board
#                                 plays that side at that strength) or wr / br (that side is
#                                 played remotely, on a computer); START: - for the variant's
#                                 start, else the start position (it has spaces: the rest)
#   opp OPP                       the game's players changed (OPP as in game)
#   rec K TOKEN...                the record's actions K, K+1, ... in record notation (d2-d5,
#                                 d2xd5, e7=X, (offer), (decline), (accept), (agree), (time),
#                                 (resign)); the listener must hold exactly K actions before
#   undo K                        a take-back: the record keeps its first K actions
#   end RESULT REASON             the game is over: 1-0, 0-1 or 1/2-1/2, and why (words)
#   occ HEX                       the squares with a piece: bit sq (a1 = 0 .. g9 = 62), 16 digits
#   leds P MEANINGS               each square's light (63 characters, a1 first: 0-9 then a-z,
#                                 controller/colours.py's meanings), in palette P
#   oled ITEM|ITEM...             the texts on the screen, each Y,X,C,TEXT: where (pixels), C 1
#                                 light on dark, 0 dark on light, K > 1 light, K times as large
#                                 (big letters); "|" in a text is written "/"
#   clock -                       no game clock, or
#   clock WMS BMS INC SIDE STATE  the times left (ms), the increment, whose clock runs (w|b) and
#                                 run|pause|stop (stop: the game is over or a time ran out)
#   ask -                         no question on the board, or
#   ask KIND SIDE                 the board waits for its player's answer: offer (SIDE offers a
#                                 draw), repetition (SIDE offers the repetition draw), takeback
#                                 (SIDE asks to take back its turn), remote (SIDE is to be played
#                                 on a computer), which (which of two readings of the hands)
#   plan -                        nothing for the player to carry out, or
#   plan TOKEN                    the remote side's action, shown on the board for its player
#   ok WORD K                     a command was done (K: the record's actions now)
#   refused WORD REASON           a command was refused, and why (words)
#
# A full state (after hello, on `state`, and by itself after lost lines) is a game line, its rec
# lines, then end, occ, leds, oled, clock, ask and plan as they are. The board never waits for
# the listener: what it cannot write yet waits in a queue of QUEUE bytes; while that is full it
# makes no new lines (a change meanwhile goes out as it then is: the record catches up, the
# lights and the screen as they are now); a line that still does not fit is dropped, and a full
# state follows by itself once the queue has drained.
#
# The listener's commands, one a line, at most CMD_MAX bytes, anything else is refused:
#
#   hello 1                       start (or keep) listening; repeat it within LISTENER_MS
#   state                         the full state again
#   bye                           stop listening
#   remote w|b                    ask the board's player to let that side be played here (the
#                                 board asks on its screen; hold OK accepts)
#   remote -                      that side is played on the board again
#   play K TOKEN                  the remote side's next action; K: the actions the listener
#                                 holds (a stale or replayed K is refused)
#   takeback K                    ask to take back the remote side's last turn
#   draw K                        offer a draw
#   answer K yes|no               answer the board's player's draw offer
#   resign K                      the remote side resigns (in its own turn)
#
# A command can do nothing but what the board's own player could: an action of the remote side
# is only accepted when the game in play has that side remote, it is that side's turn and the
# action is legal; the board then shows it with its lights, and its player carries it out.
from array import array

from barragoon.game import (
    VARIANTS, META_WORDS, action_move, action_captures, action_place, action_meta)
from barragoon.core import FACES
from controller import font
from controller import lazy
from controller import modes as M

PROTOCOL = 1
QUEUE = 1024               # bytes of output waiting for the port (a full state streams through)
LINE = 200                 # the longest line
CMD_MAX = 80               # the longest command
CHUNK = 64                 # bytes a write: the USB packet (drivers/usb.py says why)
WRITES = 2                 # chunks written per loop step at most
READS = 16                 # bytes read per loop step at most
LINES = 3                  # lines made per loop step at most (each takes 0.1 to 0.5 ms)
LISTENER_MS = 30000        # a listener silent this long is gone: the board stops writing
REC_TOKENS = 16            # actions per rec line of a full state
REMOTE = "controller.remote"

_DIGITS = b"0123456789abcdefghijklmnopqrstuvwxyz"
_SPACE = 32


def _ext(b, s):
    b.extend(s)                    # MicroPython: a str's UTF-8 bytes, copied without allocating


try:
    _ext(bytearray(), "\u00e4")
except TypeError:                  # CPython: extend takes no str
    def _ext(b, s):
        b.extend(s.encode() if isinstance(s, str) else s)


def _hex2(b, v):
    b.append(_DIGITS[(v >> 4) & 15])
    b.append(_DIGITS[v & 15])


def _int(b, v):
    # a non-negative small int in decimal, without making a string
    if v < 0:
        b.append(45)
        v = -v
    d = 1
    while d * 10 <= v:
        d *= 10
    while d:
        b.append(48 + (v // d) % 10)
        d //= 10


def _square(b, sq):
    b.append(97 + sq % 7)
    b.append(49 + sq // 7)


def token(b, a):
    """The record token of action a (an entry of Game.actions) appended to bytearray b."""
    m = action_move(a)
    if m >= 0:
        _square(b, m >> 6)
        b.append(120 if action_captures(a) else 45)       # x or -
        _square(b, m & 63)
        return
    p = action_place(a)
    if p >= 0:
        _square(b, p >> 5)
        b.append(61)                                      # =
        _ext(b, FACES[(p & 31) - 1])
        return
    _ext(b, META_WORDS[action_meta(a)])


try:
    import micropython

    @micropython.viper
    def _xor(b, n: int) -> int:
        p = ptr8(b)                     # noqa: F821 (viper)
        x = 0
        i = 1                           # after "@"
        while i < n:
            x ^= p[i]
            i += 1
        return x
except (ImportError, AttributeError):   # CPython
    def _xor(b, n):
        x = 0
        for i in range(1, n):
            x ^= b[i]
        return x


class Console:
    def __init__(self, ctl, port, version="?"):
        self.ctl = ctl
        self.port = port
        self.version = version
        self.q = bytearray(QUEUE)          # output waiting for the port
        self.q[:] = b""
        self.lb = bytearray(LINE)          # the line being formatted
        self.lb[:] = b""
        self.cb = bytearray(CMD_MAX)       # the command being read
        self.nc = 0
        self.skip = False                  # the command was too long: skip to its end
        self.rb = bytearray(1)
        self.on = False                    # a listener said hello
        self.heard = 0                     # ticks of its last command
        self.seq = 0
        self.lost = False                  # lines were dropped: a full state is due
        self.made = 0                      # lines made in this loop step
        self.tail = array("H", bytes(32))  # the last 16 actions reported, by index % 16
        self.occ = bytearray(63)
        self.mean = bytearray(63)
        self.reset()

    def reset(self):
        """Forget what the listener was told: everything goes out again (a full state)."""
        self.game = None                   # the game reported (its record: n actions)
        self.opp = None                    # its opponent tag reported
        self.n = 0
        self.sync = -1                     # a full state's rec lines: the next action, or -1
        self.over = False
        self.pal = -1
        self.drawn = -1                    # font.drawn when the screen was reported
        self.clk = -2                      # the clock's state reported (-1: none)
        self.ask = -2
        self.plan = -2
        self.occ[0] = 2                    # (no square reads 2: sent again)
        self.mean[0] = 255

    # --- the loop step ---------------------------------------------------------------------------
    def step(self, t):
        self._read(t)
        if not self.on:
            if self.q:
                self._write()              # (the refusal of a hello)
            return
        if _diff(t, self.heard) > LISTENER_MS:
            self.on = False
            self.q[:] = b""
            return
        if self.lost:
            if len(self.q) > QUEUE // 4:
                self._write()
                return
            self.lost = False
            self.reset()
        self.made = 0
        self._report()
        self._write()

    def _write(self):
        port = self.port
        for _ in range(WRITES):
            n = len(self.q)
            if n == 0:
                return
            if n < CHUNK:                  # fill the packet: a short write could make a
                while len(self.q) < CHUNK:  # later one wait (drivers/usb.py)
                    self.q.append(13)
                n = CHUNK
            if not port.write(self.q, CHUNK):
                return                     # the listener does not read: keep it
            self.q[:CHUNK] = b""

    # --- lines ---------------------------------------------------------------------------------
    def _begin(self, word):
        b = self.lb
        b[:] = b""
        b.append(64)                       # @
        _hex2(b, self.seq)
        b.append(_SPACE)
        _ext(b, word)
        return b

    def _end(self):
        b = self.lb
        self.seq = (self.seq + 1) & 255
        n = len(b)
        b.append(42)                       # *
        _hex2(b, _xor(b, n))
        b.append(10)
        if len(self.q) + len(b) > QUEUE:
            self.lost = True               # (the sequence number shows the gap)
            return False
        self.q.extend(b)
        self.made += 1
        return True

    def _room(self):
        return len(self.q) + LINE <= QUEUE and not self.lost and self.made < LINES

    # --- what changed ----------------------------------------------------------------------------
    def _report(self):
        ctl = self.ctl
        g = ctl.game
        if g is not self.game:
            if not self._room():
                return
            self._game(g)
            return                         # (one thing at a time: the queue drains between)
        if g is None:
            return
        acts = g.actions
        if self.sync >= 0:
            if self.sync > len(acts):      # taken back meanwhile: start again
                self.reset()
            elif self._room():
                self._rec(self.sync, REC_TOKENS)
            return
        if self._undone(acts):
            return
        if len(acts) > self.n:
            if self._room():
                self._rec(self.n, REC_TOKENS)
            return
        if g.over != self.over:
            if self._room():
                self._over(g)
            return
        if getattr(g, "opponent", "") is not self.opp and self._room():
            b = self._begin("opp ")
            self._opp(b, g)
            if self._end():
                self.opp = getattr(g, "opponent", "")
        if self.occ != ctl.sensed and self._room():
            self._occ()
        if (self.mean != ctl.meaning or self.pal != ctl.painter.palette) and self._room():
            self._leds()
        if self.drawn != font.drawn and self._room():
            self._oled()
        k = _clock_key(ctl)
        if k != self.clk and self._room():
            self._clock(k)
        k = _ask_key(ctl)
        if k != self.ask and self._room():
            self._ask(k)
        k = _plan_key(ctl)
        if k != self.plan and self._room():
            self._plan(k)

    def _game(self, g):
        self.game = g
        self.n = 0
        self.over = False
        b = self._begin("game")
        b.append(_SPACE)
        if g is None:
            _ext(b, "0 - 0 0 - -")
            self._end()
            return
        _int(b, len(g.actions))
        b.append(_SPACE)
        _ext(b, VARIANTS[g.variant])
        for i in (0, 1):
            b.append(_SPACE)
            _int(b, g.stages[i])
        b.append(_SPACE)
        self._opp(b, g)
        self.opp = getattr(g, "opponent", "")
        b.append(_SPACE)
        start = g.custom_start()               # (only for a custom start: it allocates)
        if start:
            _ext(b, start)
        else:
            b.append(45)
        if self._end():
            self.sync = 0 if g.actions else -1

    def _opp(self, b, g):
        opp = getattr(g, "opponent", "")
        if opp:
            b.append(119 if opp[0] == "W" else 98)     # w / b
            b.append(ord(opp[-1]) if opp[-1] in "123" else 114)   # the strength, or r
        else:
            b.append(45)

    def _rec(self, k, most):
        acts = self.ctl.game.actions
        n = len(acts)
        b = self._begin("rec")
        b.append(_SPACE)
        _int(b, k)
        i = k
        while i < n and i < k + most and len(b) < LINE - 24:
            b.append(_SPACE)
            token(b, acts[i])
            self.tail[i & 15] = acts[i]
            i += 1
        if self._end():
            self.n = i
            if self.sync >= 0:
                self.sync = i if i < n else -1

    def _undone(self, acts):
        # A take-back: the record lost actions at its end (and may have new ones since).
        n = self.n
        m = len(acts)
        k = n if m > n else m
        lo = n - 16 if n > 16 else 0
        i = lo
        while i < k and acts[i] == self.tail[i & 15]:
            i += 1
        if i == n:
            return False                   # all still there
        if i == lo and lo > 0:
            self.lost = True               # more than we remember: a full state
            return True
        if not self._room():
            return True
        b = self._begin("undo")
        b.append(_SPACE)
        _int(b, i)
        if self._end():
            self.n = i
            self.over = self.ctl.game.over and self.over
        return True

    def _over(self, g):
        b = self._begin("end")
        if g.over:
            out = g.outcome()
            b.append(_SPACE)
            _ext(b, out.result())
            b.append(_SPACE)
            _ext(b, out.reason())
        else:
            _ext(b, " *")
        if self._end():
            self.over = g.over

    def _occ(self):
        s = self.ctl.sensed
        b = self._begin("occ ")
        for d in range(15, -1, -1):        # 4 squares a digit, g9 first
            v = 0
            for k in range(3, -1, -1):
                sq = 4 * d + k
                v = v << 1 | (1 if sq < 63 and s[sq] else 0)
            b.append(_DIGITS[v])
        if self._end():
            self.occ[:] = s

    def _leds(self):
        ctl = self.ctl
        m = ctl.meaning
        b = self._begin("leds ")
        _int(b, ctl.painter.palette)
        b.append(_SPACE)
        for sq in range(63):
            b.append(_DIGITS[m[sq]])
        if self._end():
            self.mean[:] = m
            self.pal = ctl.painter.palette

    def _oled(self):
        b = self._begin("oled ")
        d = font.drawn
        n = font.texts_n
        first = True
        for i in range(n):
            s = font.texts[i]
            if len(b) + 12 + 3 * len(s) > LINE - 8:
                break
            if not first:
                b.append(124)              # |
            first = False
            k = 3 * i
            _int(b, font.places[k])
            b.append(44)
            _int(b, font.places[k + 1])
            b.append(44)
            b.append(48 + font.places[k + 2])
            b.append(44)
            j = len(b)
            _ext(b, s)
            while j < len(b):
                if b[j] == 124:
                    b[j] = 47              # | -> /
                elif b[j] < 32:
                    b[j] = 32
                j += 1
        if self._end():
            self.drawn = d

    def _clock(self, k):
        ck = self.ctl.clock
        b = self._begin("clock ")
        if ck is None:
            b.append(45)
        else:
            ck.tag()                       # (charges the running side's time up to now)
            _int(b, ck.rem[0])
            b.append(_SPACE)
            _int(b, ck.rem[1])
            b.append(_SPACE)
            _int(b, ck.inc)
            b.append(_SPACE)
            b.append(98 if ck.side else 119)
            _ext(b, " run" if k & 3 == 1 else " pause" if k & 3 == 2 else " stop")
        if self._end():
            self.clk = k

    def _ask(self, k):
        if self._either("ask ", k, ASKS[k >> 2] if k >= 0 else "", k & 1):
            self.ask = k

    def _plan(self, k):
        if self._either("plan ", k, self.ctl.opponent.plan.text if k >= 0 else "", -1):
            self.plan = k

    def _either(self, word, k, text, side):
        # "WORD -" for k < 0, else "WORD TEXT" and the side's letter (side >= 0)
        b = self._begin(word)
        if k < 0:
            b.append(45)
        else:
            _ext(b, text)
            if side >= 0:
                b.append(_SPACE)
                b.append(98 if side else 119)
        return self._end()

    # --- commands ------------------------------------------------------------------------------
    def _read(self, t):
        p = self.port
        rb = self.rb
        for _ in range(READS):
            if not p.read(rb, 1):
                return
            self.take(rb[0], t)

    def take(self, c, t):
        """One byte from the listener."""
        if c == 10 or c == 13:
            if self.nc and not self.skip:
                self.heard = t
                self._command(t)
            self.nc = 0
            self.skip = False
        elif self.nc < CMD_MAX:
            self.cb[self.nc] = c
            self.nc += 1
        else:
            self.skip = True

    def _command(self, t):
        # Commands are rare (a person's pace): they may allocate, a report may not.
        try:
            words = bytes(self.cb[:self.nc]).decode().split()
        except UnicodeError:
            words = None
        if not words:
            return
        w = words[0]
        if w == "hello":
            if len(words) != 2 or words[1] != "1":
                self._say("refused", w, "this board speaks protocol 1")
                return
            if not self.on:
                self.on = True
                self.q[:] = b""
                self.lost = False
                self.reset()
            self._hello()
            return
        if not self.on:
            return                         # nobody listens: nothing to answer
        if w == "state":
            self.reset()
            self._hello()
        elif w == "bye":
            self.on = False
            self.q[:] = b""
        else:
            why = lazy.load(REMOTE).command(self.ctl, words, t)
            if why:
                self._say("refused", w, why)
            else:
                g = self.ctl.game
                self._say("ok", w, str(len(g.actions)) if g is not None else "0")

    def _hello(self):
        b = self._begin("hello 1 ")
        _ext(b, self.version)
        self._end()

    def _say(self, what, word, text):
        b = self._begin(what)
        b.append(_SPACE)
        _ext(b, word[:16])
        b.append(_SPACE)
        _ext(b, text[:LINE - 40])
        self._end()


ASKS = ("offer", "repetition", "takeback", "remote", "which")


def _diff(a, b):
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def _clock_key(ctl):
    # What of the clock a listener needs to hear about: it counts down itself while it runs.
    ck = ctl.clock
    if ck is None:
        return -1
    g = ctl.game
    state = 3 if ck.flag >= 0 or g is None or g.over else 1 if ck.running else 2
    return (ck.side << 2 | state) + 8 * ck.nact


def _ask_key(ctl):
    op = ctl.opponent
    if op is not None and getattr(op, "offer", -1) >= 0:    # to the computer's player
        return op.offer << 2 | (1 - op.side)
    for m in ctl.stack:
        if isinstance(m, M.Offer):
            g = ctl.game
            side = m.offerer
            if side < 0:
                side = 1 - g.pos.side if m.repetition else g.pos.side
            return (1 if m.repetition else 0) << 2 | side
        if isinstance(m, M.Ask):
            return 4 << 2
        k = getattr(m, "ask", -1)          # controller/remote.py's questions
        if k >= 0:
            return k
    return -1


def _plan_key(ctl):
    op = ctl.opponent
    if op is None or not getattr(op, "remote", False):
        return -1
    return op.shown(ctl)
