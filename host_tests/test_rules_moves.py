# Move generation: crossing every Barragoon face from every side, the one-turn rule, targets
# and captures, and the example figures of section 5 of the printed rules rebuilt as positions.
from checks import raises
from rules_helpers import make, targets_of, kinds_of, move_texts, sq
from barragoon.core import FACES, T_MOVE, T_CAPTURE_TILE, T_CAPTURE_BARRAGOON
from barragoon.notation import square_name

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_targets_allocate_nothing_on_micropython",)   # heap figures: MicroPython only

HEADINGS = "NESW"
STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def _shift(name, heading, k):
    f = ord(name[0]) - 97 + STEP[heading][0] * k
    r = int(name[1]) + STEP[heading][1] * k
    return chr(97 + f) + str(r)


def _may_cross(face, h_in, h_out):
    # The face table of RULES.md, in words.
    turn = (HEADINGS.index(h_out) - HEADINGS.index(h_in)) % 4   # 0 straight, 1 right, 3 left
    if face == "X":
        return False
    if face[0] == "1":
        return turn == 0 and h_out == face[1]
    if face == "2V":
        return turn == 0 and h_out in "NS"
    if face == "2H":
        return turn == 0 and h_out in "EW"
    if face == "A":
        return turn in (1, 3)
    if face[0] == "R":
        return turn == 1 and h_out == face[1]
    return turn == 3 and h_out == face[1]            # L


def test_every_face_crossed_or_blocked_from_every_side():
    # A 3-tile one step before d5 enters the Barragoon on d5 heading h_in and leaves it
    # heading h_out; the target two steps further is legal exactly when the face allows it.
    # The other corner of the L is blocked by a No Entry so only the path over d5 counts.
    wrong = []
    for face in FACES:
        for h_in in HEADINGS:
            start = _shift("d5", h_in, -1)
            for h_out in HEADINGS:
                if (HEADINGS.index(h_out) - HEADINGS.index(h_in)) % 4 == 2:
                    continue
                target = _shift("d5", h_out, 2)
                short = _shift("d5", h_out, 1)
                pieces = "d5:[%s] %s:D" % (face, start)
                if h_out != h_in:
                    pieces += " %s:[X]" % _shift(start, h_out, 1)
                pos = make(pieces)
                got = targets_of(pos, start)
                want = _may_cross(face, h_in, h_out)
                if (target in got) != want or (short in got) != want:
                    wrong.append("%s %s->%s" % (face, h_in, h_out))
    assert not wrong, "wrong crossings: %s" % ", ".join(wrong)


def test_tiles_are_never_crossed():
    for blocker in ("Z", "z"):
        pos = make("d4:V d5:%s" % blocker)
        got = targets_of(pos, "d4")
        assert "d6" not in got and "d7" not in got and "d8" not in got


def test_barragoon_turn_is_the_one_turn():
    # RE on d4: entered heading N, leaves heading E; then no second turn (e5 via e4).
    pos = make("d3:V d4:[RE] e3:[X]")
    got = targets_of(pos, "d3")
    assert "f4" in got and "g4" in got
    assert "e5" not in got and "e6" not in got


def test_turn_on_empty_square_then_barragoons_only_straight():
    # a1 N to a2, turn E: b2, then c2 must be crossed straight.
    assert "d2" in targets_of(make("a1:V c2:[2H]"), "a1")
    assert "d2" in targets_of(make("a1:V c2:[1E] b1:[X]"), "a1")
    assert "d2" not in targets_of(make("a1:V c2:[1W] b1:[X]"), "a1")
    # A turning face would be a second turn after the one on a2.
    assert "c3" not in targets_of(make("a1:V c2:[LN] b1:[X] a3:[X]"), "a1")
    assert "d2" not in targets_of(make("a1:V c2:[A] b1:[X]"), "a1")


def test_all_turns_lets_paths_turn_but_not_go_straight():
    pos = make("d4:D d5:[A]")
    got = targets_of(pos, "d4")
    assert "c6" in got and "e6" in got and "b5" in got and "f5" in got
    assert "d6" not in got and "d7" not in got


def test_one_turn_at_most_and_no_reversal():
    # 4-tile on d1 to e4 needs N N N E or E N N N; both corners blocked leaves only zig-zags.
    pos = make("d1:V d4:[X] e1:[X]")
    assert "e4" not in targets_of(pos, "d1")
    # A 2-tile can never end next to its start by going out and back.
    pos = make("d5:Z")
    assert targets_of(pos, "d5") == sorted(
        ["d6", "d7", "e5", "f5", "d4", "d3", "c5", "b5", "c6", "e6", "c4", "e4"])


def test_short_and_full_moves_of_each_value():
    assert targets_of(make("d5:Z"), "d5") == sorted(
        ["d6", "d4", "c5", "e5", "d7", "d3", "b5", "f5", "c6", "e6", "c4", "e4"])
    for letter, value in (("Z", 2), ("D", 3), ("V", 4)):
        got = targets_of(make("d5:" + letter), "d5")
        for name in got:
            dist = abs(ord(name[0]) - ord("d")) + abs(int(name[1]) - 5)
            assert dist in (value - 1, value), (letter, name)


def test_target_kinds():
    pos = make("d2:D d5:z a2:[X] b3:[A] g2:Z")
    kinds = kinds_of(pos, "d2")
    assert kinds["d5"] == T_CAPTURE_TILE
    assert kinds["a2"] == T_CAPTURE_BARRAGOON
    assert kinds["b3"] == T_CAPTURE_BARRAGOON       # 3-tiles may capture All Turns
    assert kinds["d4"] == T_MOVE
    assert "g2" not in kinds                        # own tile


def test_own_tile_never_captured_and_targets_of_non_tile():
    pos = make("d2:V d6:V d5:[X]")
    assert "d6" not in targets_of(pos, "d2")
    assert pos.targets(sq("d5")) == 0 and pos.targets(sq("a9")) == 0


# --- Section 5 of the printed rules: the example figures rebuilt as positions -----------

def test_figure_full_move_of_a_4_tile():
    pos = make("b1:V b4:[X] c3:[X]")
    got = targets_of(pos, "b1")
    assert "d3" in got                               # b2 c2 then... one L: c1 d1 d2 d3
    assert "b5" not in got                           # straight through No Entry


def test_figure_short_move_of_a_3_tile():
    pos = make("c1:D c3:[X]")
    got = targets_of(pos, "c1")
    assert "c2" not in got and "c3" not in got      # a short move may not capture
    assert "b2" in got and "d2" in got and "e1" in got


def test_figure_capture_with_a_3_tile():
    pos = make("d2:D e4:z", "w")
    assert kinds_of(pos, "d2")["e4"] == T_CAPTURE_TILE
    pos = make("d2:D e3:z", "w")                    # two steps away: short move only
    assert "e3" not in targets_of(pos, "d2")


def test_figure_capture_with_a_2_tile():
    pos = make("c2:Z d3:[1N]")
    assert kinds_of(pos, "c2")["d3"] == T_CAPTURE_BARRAGOON
    pos = make("c2:Z c4:d")
    assert kinds_of(pos, "c2")["c4"] == T_CAPTURE_TILE


def test_figure_two_turns_not_allowed():
    # V on a1 to c3 would need N, E, N (two turns) once both L corners are blocked.
    pos = make("a1:V a3:[X] c1:[X]")
    assert "c3" not in targets_of(pos, "a1")
    assert "c3" in targets_of(make("a1:V a3:[X]"), "a1")


def test_figure_no_capture_with_a_short_move():
    pos = make("d1:V d4:z")
    assert "d4" not in targets_of(pos, "d1")
    assert kinds_of(make("d1:V d5:z"), "d1")["d5"] == T_CAPTURE_TILE


def test_figure_all_turns_not_captured_by_2_tiles():
    assert "d3" not in targets_of(make("d1:Z d3:[A]"), "d1")
    assert "d3" in targets_of(make("d1:Z d3:[X]"), "d1")
    assert "d4" in targets_of(make("d1:D d4:[A]"), "d1")


def test_start_position_moves():
    from barragoon.game import start_position, OPEN
    moves = move_texts(start_position())
    assert len(moves) == 28 and "d2-d5" in moves and "c1-c4" not in moves
    assert all("x" not in m for m in moves)
    open_moves = move_texts(start_position(OPEN))
    assert "d2-d5" in open_moves and len(open_moves) > len(moves)


def test_legal_moves_of_either_side():
    pos = make("a1:Z g9:z")
    assert pos.legal_moves(1) == sorted(m for m in pos.legal_moves(1))
    assert all(m // 64 == sq("g9") for m in pos.legal_moves(1))
    assert all(m // 64 == sq("a1") for m in pos.legal_moves(0))


def test_targets_allocate_nothing_on_micropython():
    import gc
    from barragoon.game import start_position
    pos = start_position()
    pos.targets(sq("d2"))
    gc.collect()
    before = gc.mem_alloc()
    for i in range(200):
        pos.targets(sq("d2"))
        pos.targets(sq("b9"))
    after = gc.mem_alloc()
    assert after == before, "targets() allocated %d bytes" % (after - before)


def test_square_names_cover_board():
    assert square_name(0) == "a1" and square_name(62) == "g9" and square_name(7) == "a2"
    raises(ValueError, sq, "h1")
