# Event scripts: what the hands and fingers did on a board, with times, as text. One format for
# tools/board_events.py (the firmware on the MicroPython unix port), the emulated Pico
# (tools/rp2040) and the board's own flight recorder (events.txt on the board is a valid script).
#
#   # a comment; blank lines are ignored
#   position 7/7/7/7/7/7/7/4[A][A][A]/4[A]1Z w 24   optional, before any event: the physical
#                                  board holds exactly this position and a game starts from it
#   120 lift d2                    times are absolute milliseconds from the start, never
#   480 drop d5                    decreasing; squares a1..g9
#   900 press ok                   buttons: up, down, ok
#   1500 release ok
#   2000 power                     the power is cut and comes back at once: the board starts
#                                  again on the same flash, the pieces where the hands left them
#   3000 end                       run until then and report; nothing may follow it
#
# parse() returns a Script or raises ScriptError with one line naming the line and the fault.
# Runs on CPython and MicroPython (no imports).

if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/event_script.py is a module the tools import, not a tool "
                     "(tools/README.md lists the tools)\n")
    sys.exit(2)

LIFT = "lift"
DROP = "drop"
PRESS = "press"
RELEASE = "release"
POWER = "power"
END = "end"
VERBS = (LIFT, DROP, PRESS, RELEASE, POWER, END)
BUTTONS = ("up", "down", "ok")
FILES = "abcdefg"


class ScriptError(ValueError):
    """A malformed event script; the message names the line and what is wrong."""


class Script:
    """position: the position text or None (standard start, set-up done);
    events: list of (ms, verb, arg) in time order, arg a square number 0..62 (a1 = 0,
    g9 = 62) for lift/drop, a button name for press/release, None for power and end;
    end_ms: the time of the end line (the last event's time when there is none)."""

    def __init__(self, position, events, end_ms):
        self.position = position
        self.events = events
        self.end_ms = end_ms


def square_number(text):
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123456789":
        return -1
    return FILES.index(text[0]) + 7 * (ord(text[1]) - 49)


def square_text(sq):
    return FILES[sq % 7] + "123456789"[sq // 7]


def _fail(n, msg):
    raise ScriptError("line %d: %s" % (n, msg))


def _event(n, words, last):
    if len(words) < 2:
        _fail(n, "expected '<ms> <verb> ...', got %r" % " ".join(words))
    ms_text = words[0]
    if not ms_text or ms_text.strip("0123456789"):
        _fail(n, "time must be whole milliseconds, not %r" % ms_text)
    ms = int(ms_text)
    if ms < last:
        _fail(n, "time %d ms is before the previous event (%d ms)" % (ms, last))
    verb = words[1]
    if verb not in VERBS:
        _fail(n, "unknown event %r (one of %s)" % (verb, ", ".join(VERBS)))
    if verb == END or verb == POWER:
        if len(words) != 2:
            _fail(n, "'%s' takes no argument" % verb)
        return ms, verb, None
    if len(words) != 3:
        _fail(n, "'%s' needs one argument" % verb)
    arg = words[2]
    if verb in (LIFT, DROP):
        sq = square_number(arg)
        if sq < 0:
            _fail(n, "not a square: %r (files a-g, ranks 1-9)" % arg)
        return ms, verb, sq
    if arg not in BUTTONS:
        _fail(n, "unknown button %r (one of %s)" % (arg, ", ".join(BUTTONS)))
    return ms, verb, arg


def parse(text):
    """Parse a whole script (str). Raises ScriptError."""
    position = None
    events = []
    last = 0
    ended = False
    n = 0
    for raw in text.split("\n"):
        n += 1
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ended:
            _fail(n, "nothing may follow 'end'")
        if line.startswith("position"):
            if events or position is not None:
                _fail(n, "'position' must come first, once")
            position = line[8:].strip()
            if not position:
                _fail(n, "'position' needs a position")
            continue
        ev = _event(n, line.split(), last)
        last = ev[0]
        if ev[1] == END:
            ended = True
        events.append(ev)
    return Script(position, events, last)


def format_event(ms, verb, arg):
    """One script line (without newline) for an event as parse() returns it."""
    if verb == END or verb == POWER:
        return "%d %s" % (ms, verb)
    if verb in (LIFT, DROP):
        return "%d %s %s" % (ms, verb, square_text(arg))
    return "%d %s %s" % (ms, verb, arg)
