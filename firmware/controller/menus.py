# The menus as tables of (label, when offered, action). An item is listed only when its action
# can succeed right now; labels that depend on the game are functions of the controller.
# Actions take (controller, menu).
#
# The controller loads this module when a menu opens and drops it when the last menu is left
# (controller/lazy.py); the game clock's module comes only with the New game menu, the
# opponent's only for a hint or a new game against the board.
from barragoon.game import VARIANTS
from barragoon.notation import square_name
from controller import colours as C
from controller import lazy
from controller import modes as M
from controller import screens
from controller import i18n
from controller.i18n import t as _t
from drivers.buttons_const import BTN_UP, BTN_DOWN, BTN_OK, BTN_BACK
from controller.ticks import ticks_diff

OPPONENT = "controller.opponent"
CLOCK = "controller.clock"


def _clocks():
    return lazy.load(CLOCK)


def _always(ctl):
    return True


def _resume(ctl, menu):
    ctl.pop(menu)


# --- the game menu ----------------------------------------------------------------------------
def _playing(ctl):
    g = ctl.game
    return g is not None and not g.over and ctl.playing()


def _agreed(g):
    # the game ended by an agreed or accepted draw: take-back removes only that
    out = g.outcome()
    return out is not None and out.agreed()


def _can_take_back(ctl):
    g = ctl.game
    if g is None or not ctl.in_game():
        return False
    return _agreed(g) or g.last_turn_text() != ""


def _take_back_label(ctl):
    return _t("Take back draw") if _agreed(ctl.game) else _t("Take back turn")


def _take_back(ctl, menu):
    ctl.take_back()


def _can_offer_draw(ctl):
    g = ctl.game
    return _playing(ctl) and not g.offered and g.placing() < 0


def _offer_draw(ctl, menu):
    ctl.pop(menu)
    if ctl.opponent is not None:
        ctl.opponent.answer(ctl, False)      # the board answers for itself
    else:
        ctl.push(M.Offer(False))


def _can_repeat(ctl):
    g = ctl.game
    op = ctl.opponent                    # (the board offers on its own turns: opponent.py)
    return _playing(ctl) and g.repetition and not g.offered and g.placing() < 0 and \
        not ctl.judge.repair and (op is None or op.side == g.pos.side)


def _repeat_label(ctl):
    return _t("%s: draw (rep.)") % screens.side_word(1 - ctl.game.pos.side)


def _offer_repeat(ctl, menu):
    ctl.pop(menu)
    ctl.offer_repetition()


def _has_clock(ctl):
    return ctl.clock is not None and _playing(ctl)


def _clock_label(ctl):
    return _t("Pause clock") if ctl.clock.running else _t("Start clock")


def _pause_clock(ctl, menu):
    ctl.pop(menu)
    ctl.pause_clock(ctl.clock.running)


def _brightness(ctl, menu):
    ctl.push(Brightness(ctl))


def _colours_label(ctl):
    return _t("LEDs: %s") % _t(C.PALETTE_NAMES[ctl.painter.palette])


def _colours(ctl, menu):
    ctl.set_palette((ctl.painter.palette + 1) % len(C.PALETTES))
    ctl.settings_changed()


def _language_label(ctl):
    # the language's own name, so that a player who cannot read the menu finds theirs
    return _t("Lang: %s") % i18n.name(i18n.language())


def _language(ctl, menu):
    # the next language whose texts the board has (one whose file is missing is skipped)
    n = i18n.LANGUAGES
    i = n.index(i18n.language())
    for k in range(1, len(n)):
        try:
            return ctl.set_language(n[(i + k) % len(n)])
        except ValueError:
            pass
    ctl.set_language("en")


def _sensor_test(ctl, menu):
    ctl.judge.active = False                 # pieces lifted for the test are no moves
    ctl.push(Sensors())


def _led_test(ctl, menu):
    ctl.judge.active = False
    ctl.push(LedTest())


def _new_game(ctl, menu):
    ctl.push(M.Menu("New game", NEW_GAME))       # (titles and labels: English keys)


def _can_hint(ctl):
    # A move of the player's own, or a placement of theirs (then the turn's move is committed).
    g = ctl.game
    op = ctl.opponent
    return g is not None and ctl.playing() and not g.over and not g.offered and \
        not ctl.judge.repair and (ctl.judge.committed < 0 or g.placing() >= 0) and \
        (op is None or g.turn != op.side)


def _hint(ctl, menu):
    ctl.pop(menu)
    ctl.push(lazy.load(OPPONENT).Hint())


def _remote(ctl):
    op = ctl.opponent
    return op is not None and getattr(op, "remote", False) and _playing(ctl)


def _local_label(ctl):
    return _t("Play %s here") % screens.side_word(ctl.opponent.side)


def _local(ctl, menu):
    # the side played on a computer is played on the board again (controller/remote.py)
    ctl.pop(menu)
    ctl.game.opponent = ""
    ctl.set_opponent(None)
    ctl.save()


GAME = (
    ("Resume", _always, _resume),
    (_take_back_label, _can_take_back, _take_back),
    ("Offer draw", _can_offer_draw, _offer_draw),
    (_repeat_label, _can_repeat, _offer_repeat),
    (_clock_label, _has_clock, _pause_clock),
    ("Brightness", _always, _brightness),
    (_colours_label, _always, _colours),
    ("Sensor test", _always, _sensor_test),
    ("LED test", _always, _led_test),
    (_language_label, _always, _language),
    ("New game", _always, _new_game),
    ("Hint", _can_hint, _hint),              # (last: the items above keep their places)
    (_local_label, _remote, _local),
)


# --- a new game -------------------------------------------------------------------------------
def _start(ctl, menu):
    if ctl.unfinished() is not None:
        ctl.push(EndGame())                  # a game in progress is never dropped unasked
    else:
        ctl.new_game()


def _variant_label(ctl):
    return _t("Variant: %s") % _t(VARIANTS[ctl.variant])


def _variant(ctl, menu):
    ctl.variant ^= 1
    ctl.options_changed()


def _white_label(ctl):
    return _t("White express %d") % ctl.stages[0]


def _brown_label(ctl):
    return _t("Brown express %d") % ctl.stages[1]


def _white(ctl, menu):
    ctl.stages[0] = (ctl.stages[0] + 1) % 3
    ctl.options_changed()


def _brown(ctl, menu):
    ctl.stages[1] = (ctl.stages[1] + 1) % 3
    ctl.options_changed()


def _time_label(ctl):
    m = _clocks().MINUTES[ctl.clock_choice[0]]
    return _t("Clock: %d min") % m if m else _t("Clock: off")


def _time(ctl, menu):
    c = ctl.clock_choice
    c[0] = (c[0] + 1) % len(_clocks().MINUTES)
    ctl.options_changed()


def _timed(ctl):
    return ctl.clock_choice[0] != 0


def _increment_label(ctl):
    return _t("Increment: %d s") % _clocks().INCREMENTS[ctl.clock_choice[1]]


def _increment(ctl, menu):
    c = ctl.clock_choice
    c[1] = (c[1] + 1) % len(_clocks().INCREMENTS)
    ctl.options_changed()


def _against(ctl):
    return ctl.board_plays >= 0


def _against_label(ctl):
    return _t("Against: board") if ctl.board_plays >= 0 else _t("Against: player")


def _toggle(ctl, menu):
    ctl.board_plays = 1 if ctl.board_plays < 0 else -1
    ctl.options_changed()


def _colour_label(ctl):
    return _t("You play %s") % screens.side_word(1 - ctl.board_plays)


def _colour(ctl, menu):
    ctl.board_plays ^= 1
    ctl.options_changed()


def _strength_label(ctl):
    return _t("Strength %d") % ctl.strength


def _strength(ctl, menu):
    ctl.strength = ctl.strength % lazy.load(OPPONENT).STRENGTHS + 1
    ctl.options_changed()


NEW_GAME = (
    ("Set up new game", _always, _start),
    (_variant_label, _always, _variant),
    (_white_label, _always, _white),
    (_brown_label, _always, _brown),
    (_time_label, _always, _time),
    (_increment_label, _timed, _increment),
    (_against_label, _always, _toggle),
    (_colour_label, _against, _colour),
    (_strength_label, _against, _strength),
)


# --- power-on with a saved game ---------------------------------------------------------------
def _resume_saved(ctl, menu):
    ctl.resume_saved()


SAVED = (
    ("Resume game", _always, _resume_saved),
    ("New game", _always, _new_game),
)


class EndGame(M.Mode):
    """New game while a game is in progress: keep playing (preselected) or end it; the game
    ended goes to the records as unfinished."""

    def __init__(self):
        self.sel = 0

    def on_button(self, ctl, code, t):
        if code == BTN_UP or code == BTN_DOWN:
            self.sel ^= 1
        elif code == BTN_OK and self.sel:
            ctl.end_unfinished()
        elif code == BTN_OK:
            ctl.pop(self)
            ctl.drop(M.Menu)                 # back to the game (or the power-on question)
        elif code == BTN_BACK:
            ctl.pop(self)

    def screen(self, ctl, fb):
        screens.question(fb, _t("New game"), _t("Game not over"),
                         (_t("Keep playing"), _t("End and record")), self.sel)


# --- the settings and test screens the game menu opens -------------------------------------
class Brightness(M.Mode):
    def __init__(self, ctl):
        self.before = ctl.brightness

    def on_button(self, ctl, code, t):
        if code == BTN_UP or code == BTN_DOWN:
            b = ctl.brightness + (5 if code == BTN_UP else -5)
            ctl.brightness = 5 if b < 5 else (100 if b > 100 else b)
        elif code == BTN_OK or code == BTN_BACK:
            ctl.pop(self)
            if ctl.brightness != self.before:
                ctl.settings_changed()          # written once, when the screen is left

    def screen(self, ctl, fb):
        screens.message(fb, _t("Brightness"), "%d %%" % ctl.brightness, _t("UP/DN: change"),
                        _t("OK: done"))


class Sensors(M.Mode):
    judged = False
    layer = True

    def on_button(self, ctl, code, t):
        if code == BTN_OK or code == BTN_BACK:
            ctl.pop(self)
            ctl.judge.resync()

    def leds(self, ctl, mean):
        for sq in range(63):
            mean[sq] = C.SENSED if ctl.sensed[sq] else C.OFF

    def screen(self, ctl, fb):
        screens.sensor_grid(fb, ctl.sensed)


class LedTest(M.Mode):
    """Each colour for a second on every LED (a dead channel shows), then one light walks
    a1, b1, .. g9 in square order (a wrong LED_WIRING / LED_START / LED_RUNS shows)."""
    judged = False
    layer = True

    def __init__(self):
        self.step = 0                        # 0-3 solid colours, 4 walk
        self.t0 = -1
        self.walk = 0

    def on_button(self, ctl, code, t):
        if code == BTN_OK or code == BTN_BACK:
            ctl.pop(self)
            ctl.judge.resync()
        else:
            self._go((self.step + (1 if code == BTN_DOWN else 4)) % 5, t)

    def _go(self, step, t):
        self.step = step
        self.t0 = t
        self.walk = 0

    def tick(self, ctl, t):
        if self.t0 < 0:
            self.t0 = t
        el = ticks_diff(t, self.t0)
        if self.step < 4:
            if el >= 1000:
                self._go(self.step + 1, t)
                ctl.dirty()
        elif el // 150 >= 63:
            self._go(0, t)
            ctl.dirty()
        elif el // 150 != self.walk:
            self.walk = el // 150
            ctl.dirty()

    def leds(self, ctl, mean):
        for sq in range(63):
            if self.step < 4:
                mean[sq] = C.TEST_R + self.step
            else:
                mean[sq] = C.TEST_W if sq == self.walk else C.OFF

    def screen(self, ctl, fb):
        if self.step < 4:
            s = self.step
            what = _t("Red on all") if s == 0 else _t("Green on all") if s == 1 else \
                _t("Blue on all") if s == 2 else _t("White on all")
        else:
            what = _t("Walk: %s") % square_name(self.walk)
        screens.message(fb, _t("LED test"), what, _t("UP/DN: next"), _t("OK: back"))
