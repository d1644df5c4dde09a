# The LED signals for colour-blind players (controller/colours.py), computed with a published
# model: every pair of meanings that can be lit together differs clearly (CIEDE2000 >= 20) for
# normal vision and for protanopia, deuteranopia and tritanopia (Machado et al. 2009, severity
# 1.0), unless it differs by its time pattern; captures never differ from moves by hue alone;
# the red-green palette keeps moves, both captures and the lifted tile apart by colour too.
import pytest

from colour_vision import VISIONS, ciede2000, difference, lab, simulate
from controller import colours as C

CLEAR = 20.0
PALETTES = (("normal", C.STANDARD), ("red-green", C.RED_GREEN))

# Meanings that one board state can light together (every pair within a group is checked): a
# tile held, a victim lifted (no own tile held), a placement, set-up, end, a hint over the live
# board (a touch clears it). A new meaning goes into each group it can be lit with.
TOGETHER = (
    (C.ORIGIN, C.MOVE, C.TAKE_TILE, C.TAKE_BARRAGOON, C.ERROR, C.TO_EMPTY, C.TO_FILL, C.DUTY,
     C.DUTY_TAKE),
    (C.TAKE_TILE, C.TAKE_BARRAGOON, C.CAPTURER, C.TO_FILL, C.TO_EMPTY, C.ERROR, C.DUTY,
     C.DUTY_TAKE),
    (C.PLACE, C.TO_FILL, C.TO_EMPTY, C.ERROR, C.DUTY),
    (C.PLACE, C.HINT, C.TO_EMPTY),
    (C.WIN, C.LOSE),
    (C.SUGGEST, C.SUGGEST_TO, C.DUTY, C.DUTY_TAKE, C.TO_FILL, C.TO_EMPTY, C.ERROR),
)


def test_ciede2000_matches_the_published_test_pairs():
    # Sharma, Wu & Dalal (2005), table 1: pairs 1, 7, 17, 25 and 34.
    pairs = (((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
             ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
             ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
             ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
             ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082))
    for a, b, want in pairs:
        assert ciede2000(a, b) == pytest.approx(want, abs=1e-4)
        assert ciede2000(b, a) == pytest.approx(want, abs=1e-4)


def test_the_model_reproduces_the_complaint_about_the_old_colours():
    # Issue 10: green (move) and yellow (capture a Barragoon) were 2.1 apart for deuteranopia
    # and 5.6 for protanopia.
    green, yellow = (0, 255, 0), (255, 208, 0)
    assert difference(green, yellow, "deuteranopia") == pytest.approx(2.1, abs=0.05)
    assert difference(green, yellow, "protanopia") == pytest.approx(5.6, abs=0.05)
    assert simulate((255, 255, 255), "deuteranopia") == pytest.approx([1, 1, 1], abs=0.01)
    assert lab([1.0, 1.0, 1.0]) == pytest.approx((100, 0, 0), abs=0.01)


def _pairs():
    for group in TOGETHER:
        for i in range(len(group)):
            for j in range(i + 1, len(group)):
                yield group[i], group[j]


@pytest.mark.parametrize("name,palette", PALETTES)
@pytest.mark.parametrize("vision", VISIONS)
def test_meanings_lit_together_differ_clearly_or_by_time(name, palette, vision):
    weak = []
    for a, b in _pairs():
        if C.PATTERN[a] != C.PATTERN[b]:
            continue
        d = difference(tuple(C.colour(palette, a)), tuple(C.colour(palette, b)), vision)
        if d < CLEAR:
            weak.append("%s/%s %.1f" % (C.name(a), C.name(b), d))
    assert not weak, "%s palette, %s: %s" % (name, vision, weak)


def test_captures_differ_from_moves_by_more_than_hue():
    for m in (C.TAKE_TILE, C.TAKE_BARRAGOON):
        assert C.PATTERN[m] != C.PATTERN[C.MOVE]
        assert C.PATTERN[C.DUTY_TAKE] != C.PATTERN[m]
    assert C.PATTERN[C.ERROR] not in (C.PATTERN[C.MOVE], C.PATTERN[C.TAKE_TILE])


@pytest.mark.parametrize("name,palette", PALETTES)
@pytest.mark.parametrize("vision", VISIONS)
def test_the_pulse_of_a_capture_or_a_hint_is_visible(name, palette, vision):
    dim = C.dimmed(palette)
    for m in (C.TAKE_TILE, C.TAKE_BARRAGOON, C.SUGGEST_TO):
        assert difference(tuple(C.colour(palette, m)), tuple(C.colour(dim, m)), vision) >= CLEAR


@pytest.mark.parametrize("vision", ("normal", "protanopia", "deuteranopia"))
def test_red_green_palette_tells_moves_and_captures_apart_by_colour_alone(vision):
    key = (C.ORIGIN, C.MOVE, C.TAKE_TILE, C.TAKE_BARRAGOON)
    for i in range(len(key)):
        for j in range(i + 1, len(key)):
            a, b = key[i], key[j]
            d = difference(tuple(C.colour(C.RED_GREEN, a)), tuple(C.colour(C.RED_GREEN, b)),
                           vision)
            assert d >= CLEAR, (C.name(a), C.name(b), vision, d)


def test_a_hint_is_checked_against_the_live_board_it_is_shown_over():
    # the engine's suggested move (menu: Hint) lights over the judge's live meanings
    hint = [g for g in TOGETHER if C.SUGGEST in g]
    assert hint and C.SUGGEST_TO in hint[0] and C.DUTY in hint[0] and C.TO_EMPTY in hint[0]


def test_every_meaning_has_a_colour_and_a_pattern_in_each_palette():
    for name, palette in PALETTES:
        assert len(palette) == 3 * C.COUNT and len(C.dimmed(palette)) == 3 * C.COUNT
    assert len(C.PATTERN) == C.COUNT and C.name(C.COUNT - 1) == "test white"
