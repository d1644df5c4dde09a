# Game records (firmware/barragoon/record.py): the text format_record writes, and parse_record
# replaying it through Game with every action checked. Runs on CPython and on the MicroPython
# unix port (no pytest here).
from checks import raises
from barragoon.core import RulesError, WHITE, BROWN, EMPTY
from barragoon.notation import format_position, parse_square
from barragoon.game import Game, START, CLOSED, OPEN, DRAW
from barragoon.record import format_record, parse_record, play_token, turn_label, write_record

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_a_save_of_a_long_game_allocates_no_more_than_one_of_a_short_game",)

CLOSED_START = START.format("X")
OPEN_START = START.format("A")


def play(game, turns):
    """Play turn texts ('d2xc4 e3=RN e7=2H', '(offer)') through the record's tokens."""
    for turn in turns:
        for token in turn.split():
            play_token(game, token)
    return game


def same_game(a, b):
    assert format_position(a.pos) == format_position(b.pos)
    assert format_position(a.start) == format_position(b.start)
    assert a.actions == b.actions
    assert a.turn_texts() == b.turn_texts()
    assert (a.winner, a.reason, a.variant, a.stages) == (b.winner, b.reason, b.variant, b.stages)
    assert a.placing() == b.placing()


def round_trip(game):
    text = format_record(game)
    again = parse_record(text)
    same_game(game, again)
    assert format_record(again) == text
    return text


# A closed-start game: a Barragoon capture with its placement, then a tile capture with both
# placements, the captured side (Brown) first.
TURNS = ["c2-c3", "e8-e6", "c3xb4 b3=LE", "d8-d6", "b1-a3", "d6-c4", "d2xc4 e3=RN e7=2H"]
RECORD = """[Variant "closed"]
[Express "0 0"]
[Result "*"]

1. c2-c3 e8-e6
2. c3xb4 b3=LE d8-d6
3. b1-a3 d6-c4
4. d2xc4 e3=RN e7=2H
"""
FINAL = "1vd1dv1/2z4/4[2H]2/1[X]2z[X]1/[X]1[X]1[X]1[X]/1ZD2[X]1/V[LE]2[RN]2/4Z2/2D1DV1 b 22"


def test_played_game_formats_and_replays():
    game = Game()
    play(game, TURNS[:2])
    play(game, ["c3xb4"])
    assert game.placing() == WHITE            # the mover re-places the captured Barragoon
    play(game, ["b3=LE"])
    assert game.placing() == -1 and game.pos.side == BROWN and game.pos.supply == 24
    play(game, TURNS[3:6])
    play(game, ["d2xc4"])
    assert game.pos.supply == 22              # two Barragoons taken from the supply
    assert game.placing() == BROWN            # the captured side places first ...
    play(game, ["e3=RN"])
    assert game.placing() == WHITE            # ... then the capturer
    play(game, ["e7=2H"])
    assert game.placing() == -1 and game.pos.side == BROWN
    assert game.turn_texts() == TURNS
    assert format_position(game.pos) == FINAL
    text = round_trip(game)
    assert text == RECORD
    replayed = parse_record(RECORD)
    assert format_position(replayed.pos) == FINAL
    assert format_record(replayed) == RECORD


def test_record_layout_is_forgiving():
    # Extra blank lines, indentation, turns split over lines and move numbers left out all
    # replay to the same game; a trailing result token is allowed.
    loose = ('\n  [Variant "closed"]\n[Express "0 0"]\n\n\n'
             "1. c2-c3\n e8-e6 2. c3xb4\nb3=LE d8-d6 b1-a3 d6-c4\n4. d2xc4 e3=RN e7=2H *\n")
    same_game(parse_record(loose), parse_record(RECORD))
    same_game(parse_record("\n".join(TURNS)), parse_record(RECORD))


def test_record_with_a_placement_pending():
    game = play(Game(), TURNS[:6] + ["d2xc4 e3=RN"])
    assert game.placing() == WHITE
    text = round_trip(game)
    assert text.endswith("4. d2xc4 e3=RN\n")
    assert parse_record(text).placing() == WHITE


def test_non_standard_start():
    start = "1vd1dv1/2z4/7/1[X]3[X]1/[X]1[X]1[X]1[X]/1[X]3[X]1/7/2Z4/1VD1DV1 w 20"
    game = play(Game(start), ["c2-c3", "c8-c7"])
    text = round_trip(game)
    assert '[Start "%s"]' % start in text
    # the standard start of the variant is not written out
    assert "Start" not in format_record(play(Game(), ["c2-c3"]))
    assert "Start" not in format_record(play(Game(variant=OPEN), ["c2-c3"]))
    assert "Start" not in format_record(play(Game(OPEN_START, OPEN), ["c2-c3"]))   # given
    # the closed start in an open game is not the open game's standard start
    game = play(Game(CLOSED_START, OPEN), ["c2-c3"])
    text = round_trip(game)
    assert '[Variant "open"]' in text and '[Start "%s"]' % CLOSED_START in text
    game = play(Game(variant=OPEN), ["c2-c3"])
    text = round_trip(game)
    assert '[Variant "open"]' in text
    assert format_position(parse_record(text).start) == OPEN_START


def test_game_over_records():
    # White takes Brown's last tile: the game ends at once, no placements.
    start = "7/7/7/7/7/2z4/7/7/2D4 w 0"
    game = play(Game(start), ["c1xc4"])
    assert game.winner == WHITE
    text = round_trip(game)
    assert '[Result "1-0"]' in text and '[Termination "no tiles left"]' in text
    assert text.endswith("\n1. c1xc4\n")
    # Brown wins: White is left without a legal move.
    start = "7/7/7/7/7/7/1z5/[X]6/Z6 b 0"
    game = play(Game(start), ["b3-b1"])
    assert game.winner == BROWN
    text = round_trip(game)
    assert '[Result "0-1"]' in text
    # An agreed draw.
    game = play(Game(), ["c2-c3", "c8-c7 (agree)"])
    assert game.winner == DRAW
    text = round_trip(game)
    assert '[Result "1/2-1/2"]' in text and "1. c2-c3 c8-c7 (agree)" in text
    # Nothing can be played after the end.
    msg = raises(RulesError, parse_record, text + "2. d2-d4\n")
    assert "d2-d4" in msg and "over" in msg


def test_express_stages():
    game = play(Game(stages=(1, 2)), ["c2-c3", "c8-c7"])
    text = round_trip(game)
    assert '[Express "1 2"]' in text
    assert parse_record(text).stages == (1, 2)
    # Brown at stage 1 with a single tile that can move loses before moving.
    start = "z6/7/7/7/7/7/7/7/2D4 w 0"
    game = play(Game(start, CLOSED, (0, 1)), ["c1-c4"])
    assert game.winner == WHITE and game.reason == "express rule"
    text = round_trip(game)
    assert '[Express "0 1"]' in text and '[Termination "express rule"]' in text
    # The same game at stage 0 goes on.
    game = play(Game(start), ["c1-c4"])
    assert not game.over
    for bad in ('[Express "3 0"]', '[Express "0"]', '[Express "a b"]', '[Express "0 0 0"]',
                '[Express "\u00b2 0"]'):
        msg = raises(RulesError, parse_record, bad + "\n1. c2-c3\n")
        assert "xpress" in msg, msg


def test_brown_to_move_at_the_start():
    start = CLOSED_START.replace(" w ", " b ")
    game = play(Game(start), ["d8-d6", "c2-c3", "c8-c7"])
    text = round_trip(game)
    assert '[Start "%s"]' % start in text
    assert text.endswith("\n1... d8-d6\n2. c2-c3 c8-c7\n")
    game = play(Game(start), ["d8-d6"])
    assert round_trip(game).endswith("\n1... d8-d6\n")


SHUFFLE = ["c2-c3", "c8-c7", "c3-c2", "c7-c8"]


def test_repetition_offer_and_decline_in_a_record():
    game = play(Game(), SHUFFLE * 3 + ["(offer)", "(decline)", "d2-d4"])
    text = round_trip(game)
    assert "6. c3-c2 c7-c8 (offer) (decline)\n7. d2-d4\n" in text
    # After declining, White must deviate: repeating c2-c3 is refused.
    bad = text.replace("7. d2-d4", "7. c2-c3")
    msg = raises(RulesError, parse_record, bad)
    assert msg.startswith("turn 7. c2-c3: ") and "White must deviate" in msg, msg
    # An offer one copy early is refused, named by its turn.
    msg = raises(RulesError, parse_record, "1. c2-c3 c8-c7 2. c3-c2 c7-c8 3. c2-c3 c8-c7 "
                 "4. c3-c2 c7-c8 (offer)\n")
    assert msg.startswith("turn 4... (offer): "), msg


def test_repetition_offer_accepted_and_agreed_draw_in_a_record():
    game = play(Game(), SHUFFLE * 3 + ["(offer)", "(accept)"])
    text = round_trip(game)
    assert '[Result "1/2-1/2"]' in text and '[Termination "repetition draw accepted"]' in text
    assert text.endswith("6. c3-c2 c7-c8 (offer) (accept)\n")
    # White offers after the 13th turn (a rotation of the block), Brown declines and must
    # deviate at once.
    game = play(Game(), SHUFFLE * 3 + ["c2-c3 (offer)", "(decline)", "c8-c6"])
    text = round_trip(game)
    assert text.endswith("7. c2-c3 (offer) (decline) c8-c6\n")
    msg = raises(RulesError, parse_record, text.replace("c8-c6", "c8-c7"))
    assert msg.startswith("turn 7... c8-c7: ") and "Brown must deviate" in msg, msg


def test_loss_on_time_in_a_record():
    # Brown's clock runs out before Brown moves: White wins, "(time)" follows White's turn.
    game = play(Game(), ["c2-c3", "(time)"])
    assert game.over and game.winner == WHITE and game.reason == "time ran out"
    text = round_trip(game)
    assert '[Result "1-0"]' in text and '[Termination "time ran out"]' in text
    assert text.endswith("1. c2-c3 (time)\n")
    # Mid-turn: White captured a tile, Brown placed, White's own placement is still due
    # when White's time runs out (the turn, placements included, is White's).
    game = play(Game(), TURNS[:6] + ["d2xc4 e3=RN", "(time)"])
    assert game.winner == BROWN and game.placing() < 0
    assert round_trip(game).endswith("4. d2xc4 e3=RN (time)\n")
    # After a tile capture the captured side places first: Brown's placement is awaited.
    placer = play(Game(), TURNS[:6] + ["d2xc4", "(time)"])
    assert placer.winner == WHITE and round_trip(placer).endswith("4. d2xc4 (time)\n")
    # White runs out before the first move.
    assert round_trip(play(Game(), ["(time)"])).endswith("\n(time)\n")
    # A finished game takes no more actions; take-back removes the loss with the turn.
    raises(RulesError, game.lose_on_time)
    game.undo()
    assert not game.over and game.placing() == WHITE


# --- refused records ------------------------------------------------------------------------
def test_a_record_that_is_not_text_is_refused_by_name():
    # Issue 24: RulesError naming the value, not a TypeError from deep inside.
    for bad in (None, b"1. c2-c3\n", 12, ["1. c2-c3"]):
        msg = raises(RulesError, parse_record, bad)
        assert "record must be text" in msg and repr(bad)[:20] in msg, msg
    msg = raises(RulesError, parse_record, RECORD.encode())
    assert len(msg) < 80 and msg.endswith("...'"), msg


def test_placements_after_the_last_tile_are_accepted():
    # Issue 24: printed rule 4.4 has no exception for the last tile, so a record may write
    # the two placements after it (captured side first). They are checked like any placement
    # and the result stays the same; the board itself never asks for them.
    start = "7/7/7/7/7/2z4/7/7/2D4 w 24"
    plain = play(Game(start), ["c1xc4"])
    game = play(Game(start), ["c1xc4 a1=X b1=RN"])
    assert (game.winner, game.reason) == (plain.winner, plain.reason) == (WHITE, "no tiles left")
    text = round_trip(game)
    assert text.endswith("\n1. c1xc4 a1=X b1=RN\n") and '[Result "1-0"]' in text
    assert game.pos.supply == 22 and plain.pos.supply == 24
    assert parse_record(text.replace(" b1=RN", "")).pos.supply == 23      # one of them only
    for bad, why in (("c1xc4 c4=X", "not empty"), ("c1xc4 a1=Q", "unknown face"),
                     ("c1xc4 a1=X b1=X c1=X", "over"), ("c1xc4 a1=X a1=X", "not empty")):
        msg = raises(RulesError, parse_record, "[Start \"%s\"]\n\n1. %s\n" % (start, bad))
        assert msg.startswith("turn 1. ") and why in msg, msg
    # With no Barragoon left in the supply there is nothing to place.
    msg = raises(RulesError, parse_record,
                 "[Start \"%s\"]\n\n1. c1xc4 a1=X\n" % start.replace(" 24", " 0"))
    assert "over" in msg, msg


def test_illegal_move_names_turn_and_token():
    bad = RECORD.replace("3. b1-a3", "3. b1-b5")
    msg = raises(RulesError, parse_record, bad)
    assert msg.startswith("turn 3. b1-b5: ") and "illegal" in msg, msg
    msg = raises(RulesError, parse_record, RECORD.replace("e8-e6", "e8-e4"))
    assert msg.startswith("turn 1... e8-e4: ") and "illegal" in msg, msg
    msg = raises(RulesError, parse_record, "1. c2-c3 c2-c4\n")
    assert msg.startswith("turn 1... c2-c4: ") and "no tile" in msg, msg
    msg = raises(RulesError, parse_record, "1. c8-c7\n")
    assert msg.startswith("turn 1. c8-c7: ") and "not White's" in msg, msg
    msg = raises(RulesError, parse_record, "1. c2c3\n")
    assert msg.startswith("turn 1. c2c3: "), msg
    msg = raises(RulesError, parse_record, "1. c2-c3 e8-e6 2. c3xb4 d8-d6\n")
    assert msg.startswith("turn 2... d8-d6: ") and "place" in msg, msg


def test_bad_placement_names_its_turn():
    # A placement belongs to the turn of the capture it follows.
    msg = raises(RulesError, parse_record, RECORD.replace("b3=LE", "b3=QQ"))
    assert msg.startswith("turn 2. b3=QQ: ") and "'QQ'" in msg, msg
    msg = raises(RulesError, parse_record, RECORD.replace("e7=2H", "e6=2H"))
    assert msg.startswith("turn 4. e6=2H: ") and "not empty" in msg, msg
    msg = raises(RulesError, parse_record, RECORD.replace("e3=RN", "e3=RN e5=X"))
    assert msg.startswith("turn 4. e5=X: "), msg
    msg = raises(RulesError, parse_record, "1. c2-c3 d3=X\n")
    assert msg.startswith("turn 1. d3=X: ") and "no Barragoon to place" in msg, msg
    # so do a draw offer and its answer
    msg = raises(RulesError, parse_record, "1. c2-c3 c8-c7 (offer)\n")
    assert msg.startswith("turn 1... (offer): ") and "repeated" in msg, msg
    msg = raises(RulesError, parse_record, "1. c2-c3 (decline)\n")
    assert msg.startswith("turn 1. (decline): ") and "no draw offer" in msg, msg
    msg = raises(RulesError, parse_record, "(accept)\n")
    assert msg.startswith("turn 1. (accept): "), msg


def test_wrong_capture_flag_is_refused():
    msg = raises(RulesError, parse_record, RECORD.replace("c3xb4", "c3-b4"))
    assert msg.startswith("turn 2. c3-b4: ") and "c3xb4" in msg, msg
    msg = raises(RulesError, parse_record, RECORD.replace("d2xc4", "d2-c4"))
    assert msg.startswith("turn 4. d2-c4: ") and "d2xc4" in msg, msg
    msg = raises(RulesError, parse_record, RECORD.replace("c2-c3", "c2xc3"))
    assert msg.startswith("turn 1. c2xc3: ") and "c2-c3" in msg, msg


def test_wrong_result_is_refused():
    for result in ("1-0", "0-1", "1/2-1/2"):
        bad = RECORD.replace('[Result "*"]', '[Result "%s"]' % result)
        msg = raises(RulesError, parse_record, bad)
        assert result in msg and "*" in msg, msg
    over = format_record(play(Game("7/7/7/7/7/2z4/7/7/2D4 w 0"), ["c1xc4"]))
    for result in ("0-1", "1/2-1/2"):
        msg = raises(RulesError, parse_record, over.replace('"1-0"', '"%s"' % result))
        assert result in msg and "1-0" in msg, msg
    # a result token in the moves counts when there is no Result tag
    msg = raises(RulesError, parse_record, "1. c2-c3 c8-c7 1-0\n")
    assert "1-0" in msg, msg


def test_bad_tags_are_refused():
    assert "variant" in raises(RulesError, parse_record, '[Variant "wide"]\n1. c2-c3\n')
    assert "tag" in raises(RulesError, parse_record, '[Variant closed]\n1. c2-c3\n')
    assert "tag" in raises(RulesError, parse_record, '[Variant "closed"\n1. c2-c3\n')
    msg = raises(RulesError, parse_record, '[Start "7/7/7/7/3[9Q]3/7/7/7/7 w 0"]\n')
    assert "9Q" in msg, msg


def test_turn_labels_follow_the_record_numbering():
    assert [turn_label(i) for i in range(4)] == ["1.", "1...", "2.", "2..."]
    assert [turn_label(i, BROWN) for i in range(4)] == ["1...", "2.", "2...", "3."]
    start = CLOSED_START.replace(" w ", " b ")
    msg = raises(RulesError, parse_record, '[Start "%s"]\n1... d8-d6 2. c2-c3 c8-c4\n' % start)
    assert msg.startswith("turn 2... c8-c4: illegal"), msg


def test_each_turn_sees_every_turn_once_after_it_is_complete():
    seen = []

    def each_turn(game):
        seen.append((game.last_turn_text(), format_position(game.pos)))
    game = parse_record(RECORD, each_turn)
    assert [t for t, p in seen] == TURNS
    assert seen[-1][1] == FINAL == format_position(game.pos)
    assert seen[2][0] == "c3xb4 b3=LE" and seen[2][1].endswith(" b 24")
    seen[:] = []
    parse_record(format_record(play(Game(), SHUFFLE * 3 + ["(offer)", "(decline)"])), each_turn)
    assert len(seen) == 12 and seen[-1][0] == "c7-c8 (offer) (decline)"
    seen[:] = []
    parse_record("", each_turn)
    assert seen == []


def test_start_without_tiles_is_refused():
    msg = raises(RulesError, parse_record, '[Start "7/7/7/7/7/7/7/7/Z6 w 24"]\n')
    assert "Brown has no tiles" in msg, msg


def test_a_take_back_keeps_the_record_lines_formatted_before_it():
    # The board keeps the turn lines of its saves formatted (RecordText); a take-back of the
    # last turn (the reopen window, the menu) must not send the next save back to the first
    # turn: it formats from the line the take-back reached. Issue 20: undo() replaced the
    # actions array and every reopened move reformatted the whole record.
    from barragoon.record import RecordText
    g = Game()
    k = 99
    while len(g.actions) < 80:
        moves = [m for m in g.legal_moves() if not g.pos.get(m % 64)]
        k = (k * 1103515245 + 12345) & 0x3FFFFFFF
        m = moves[k % len(moves)]
        g.move(m // 64, m % 64)
    lines = RecordText()
    out = []
    lines.write(g, out.append)
    starts = []
    real = g.turns_from

    def watched(i):
        starts.append(i)
        return real(i)
    g.turns_from = watched
    g.undo()
    again = []
    lines.write(g, again.append)
    assert starts and min(starts) > 60, starts
    whole = []
    write_record(g, whole.append)
    assert "".join(whole).endswith("".join(again))
    g.undo_turn()
    g.undo_turn()
    g.undo_turn()                                # back past the open line: those are redone
    g.move(g.legal_moves()[0] // 64, g.legal_moves()[0] % 64)
    again = []
    lines.write(g, again.append)
    whole = []
    write_record(g, whole.append)
    assert "".join(whole).endswith("".join(again))


def test_a_save_of_a_long_game_allocates_no_more_than_one_of_a_short_game():
    # The board's saves keep the complete turn lines (RecordText); a new line is added to a
    # string of at most a few hundred bytes, not to one string of the whole record (which
    # copied the record for every line: 200 KB over a 240-action game).
    import gc
    from barragoon.record import RecordText

    def grown(actions):
        g = Game()
        k = 5
        while len(g.actions) < actions:
            moves = [m for m in g.legal_moves() if not g.pos.get(m % 64)]
            k = (k * 1103515245 + 12345) & 0x3FFFFFFF
            m = moves[k % len(moves)]
            g.move(m // 64, m % 64)
        lines = RecordText()
        out = []
        lines.write(g, out.append)
        worst = 0
        for i in range(4):                      # White's and Brown's moves: two lines done
            m = [m for m in g.legal_moves() if not g.pos.get(m % 64)][0]
            g.move(m // 64, m % 64)
            gc.collect()
            h = gc.mem_alloc()
            lines.write(g, _drop)
            worst = max(worst, gc.mem_alloc() - h)
        return worst
    short, long_ = grown(20), grown(200)
    assert long_ <= short + 64, (short, long_)


def _drop(text):
    pass
