# Event scripts (tools/toolkit/event_script.py): the one text format for what hands and buttons
# did on a board, shared by tools/board_events.py, the emulated Pico and the board's flight
# recorder.
# Runs on CPython and on the MicroPython unix port (no pytest here).
from checks import raises
from toolkit.event_script import parse, format_event, ScriptError, LIFT, DROP, PRESS, RELEASE, END

RUNTIMES = ("cpython", "micropython")

SCRIPT = """# White moves d2 to d5
position 7/7/7/7/7/7/7/4[A][A][A]/4[A]1Z w 24

100 lift g1     # the 2-tile
 400 drop f1
900 press ok
1500 release ok
3000 end
"""


def test_a_script_parses_into_position_events_and_end_time():
    s = parse(SCRIPT)
    assert s.position == "7/7/7/7/7/7/7/4[A][A][A]/4[A]1Z w 24"
    assert s.events == [(100, LIFT, 6), (400, DROP, 5), (900, PRESS, "ok"),
                        (1500, RELEASE, "ok"), (3000, END, None)]
    assert s.end_ms == 3000


def test_without_position_or_end_the_last_event_ends_it():
    s = parse("0 lift a1\n250 drop g9\n")
    assert s.position is None
    assert s.events == [(0, LIFT, 0), (250, DROP, 62)]
    assert s.end_ms == 250


def test_format_event_round_trips():
    s = parse(SCRIPT)
    text = "\n".join(format_event(*e) for e in s.events)
    assert parse(text).events == s.events


def test_a_power_cut_is_an_event_of_its_own():
    from toolkit.event_script import POWER
    s = parse("100 lift d2\n400 drop d5\n900 power\n1500 press ok\n2000 end\n")
    assert s.events[2] == (900, POWER, None) and s.end_ms == 2000
    assert format_event(*s.events[2]) == "900 power"


def test_faults_name_the_line_and_what_is_wrong():
    cases = (
        ("10 lift h1", "line 1: not a square: 'h1'"),
        ("10 lift d0", "line 1: not a square: 'd0'"),
        ("x lift d2", "line 1: time must be whole milliseconds"),
        ("-5 lift d2", "line 1: time must be whole milliseconds"),
        ("10 hover d2", "line 1: unknown event 'hover'"),
        ("10 press back", "line 1: unknown button 'back'"),
        ("10 lift", "line 1: 'lift' needs one argument"),
        ("10 lift d2 d3", "line 1: 'lift' needs one argument"),
        ("10 end now", "line 1: 'end' takes no argument"),
        ("10 power off", "line 1: 'power' takes no argument"),
        ("20 lift d2\n10 drop d2", "line 2: time 10 ms is before the previous event (20 ms)"),
        ("10 end\n20 lift d2", "line 2: nothing may follow 'end'"),
        ("10 lift d2\nposition 7/7/7/7/7/7/7/7/Z6 w 24", "line 2: 'position' must come first"),
        ("position", "line 1: 'position' needs a position"),
        ("lift", "line 1: expected '<ms> <verb> ...'"),
    )
    for text, want in cases:
        msg = raises(ScriptError, parse, text)
        assert msg.startswith(want), (text, msg)
