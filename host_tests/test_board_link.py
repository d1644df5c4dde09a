# The computer's side of the board's line protocol (tools/toolkit/board_link.py): the mirror a
# listener builds from the board's own lines (the real controller and Console) holds the
# board's record, sensors, lights and screen; a damaged line, a gap in the sequence or a line
# the rules refuse is never taken: the mirror asks for the full state instead. CPython (pytest).
from toolkit.board_link import Mirror, checked, LineError
from barragoon.record import format_record
from barragoon.notation import parse_square
from test_protocol import game_rig
import storage as S


def feed(mirror, ls):
    """Every whole line the board wrote since the last call, into the mirror; its requests."""
    asks = []
    for raw in ls.port.received().split(b"\n"):
        if raw.strip(b"\r"):
            asks.append(mirror.line(raw.decode()))
    return [a for a in asks if a]


def test_the_mirror_holds_what_the_board_shows():
    rig, ls = game_rig()
    m = Mirror()
    ls.say("hello 1")
    ls.steps(200)
    assert feed(m, ls) == [] and m.hello == (1, "9.9.9") and m.complete
    rig.run("lift b1; drop a3; wait 400; lift d8; drop d5; wait 400; lift d2")
    ls.steps(100)
    feed(m, ls)
    assert format_record(m.game) == format_record(rig.ctl.game)
    assert m.occ == list(rig.ctl.sensed) and m.meanings == list(rig.ctl.meaning)
    assert any("White to move" in text for _, _, _, text in m.oled)
    out = []
    S.game_text(rig.ctl.game, "", out.append)
    assert m.record_text() == "".join(out) + "\n"          # as records.txt will have it


def test_damaged_gapped_or_impossible_lines_are_not_taken():
    rig, ls = game_rig()
    m = Mirror()
    ls.say("hello 1")
    ls.steps(200)
    feed(m, ls)
    before = format_record(m.game)
    for bad in ("@05 rec 0 d2-d5*00",                       # a wrong checksum
                "@05 rec 0 d2-d5",                          # cut off
                "Barragoon board firmware 0.2.0"):          # not a protocol line: console
        try:
            got = checked(bad)
        except LineError:
            got = "damaged"
        assert got in ("damaged", None)
    assert m.line("@05 rec 0 d2-d5*00") == "state"
    assert format_record(m.game) == before
    line = _line(m.seq + 1, "rec 0 d2-d7")                # checksum right, the move illegal
    assert m.line(line) == "state" and format_record(m.game) == before
    ls.con.reset()                                        # the full state repairs it
    ls.steps(200)
    assert "state" not in feed(m, ls) or m.complete
    rig.run("lift b1; drop a3; wait 400")
    ls.steps(100)
    feed(m, ls)
    assert format_record(m.game) == format_record(rig.ctl.game)
    assert m.line(_line(m.seq + 3, "occ " + "0" * 16)) == "state"   # a gap: lines lost
    assert m.occ[parse_square("a3")] == 1


def _line(seq, body):
    text = "%02x %s" % (seq & 255, body)
    x = 0
    for b in text.encode():
        x ^= b
    return "@%s*%02x" % (text, x)
