# The controller's modes: one small object each, kept on one stack (Controller.stack). The
# bottom is Play, Setup or Over (or the saved-game menu at power-on); menus, questions and test
# screens go on top and, when left, uncover exactly what was there.
#
# Each mode answers on_button / on_square / tick and draws its LEDs (meanings) and its screen.
# The modes only a menu opens (brightness, sensor and LED tests) live in menus.py, which is
# loaded only while a menu is open.
#   judged:  sensor events go to the judge while it is on top (False: the mode takes them)
#   decides: the judge may decide at rest (commit, ask, place) while it is on top
#   layer:   it draws the LED meanings itself; other modes show the layer below them
#   thinks:  it uses the engine (the controller keeps the engine loaded while it is stacked)
from barragoon.core import TILE, BROWN_BIT, RulesError
from barragoon.notation import square_name, face_name
from barragoon.game import side_name, DRAW
from controller import colours as C
from controller import screens
from controller.i18n import t as _t, language
from controller import judge as J
from controller import view as V
from drivers.buttons_const import BTN_UP, BTN_DOWN, BTN_OK, BTN_BACK
from controller.ticks import ticks_diff

_FACES = 16
READ_MS = 30            # UP or DOWN this soon after a question came up was pressed before it
# The tiles' names, English keys: White's 2-, 3- and 4-tile, then Brown's.
PIECE_NAMES = ("White 2-tile", "White 3-tile", "White 4-tile",
               "Brown 2-tile", "Brown 3-tile", "Brown 4-tile")


def piece_text(code):
    if code & TILE:
        return _t(PIECE_NAMES[(3 if code & BROWN_BIT else 0) + (code & 7) - 2])
    return _t("Barragoon %s") % face_name(code)


def rules_text(e):
    """The rules core's refusal (a RulesError or its text) in the chosen language."""
    if language() == "en":
        return str(e)
    from controller import refusals            # (only for a refusal in another language)
    return refusals.text(e)


class Mode:
    judged = True
    decides = False
    layer = False
    thinks = False

    def on_button(self, ctl, code, t):
        pass

    def on_square(self, ctl, sq, present, t):
        pass

    def tick(self, ctl, t):
        pass

    def leds(self, ctl, mean):
        pass

    def screen(self, ctl, fb):
        pass


# --- playing -----------------------------------------------------------------------------------
class Play(Mode):
    decides = True
    layer = True

    def on_button(self, ctl, code, t):
        if code == BTN_BACK:
            ctl.open_menu()
        elif (ctl.game.placing() >= 0 or ctl.opponent is None and
              ctl.judge.placement_coming()) and \
                ctl.judge.active and not ctl.judge.repair and \
                (ctl.opponent is None or ctl.game.placing() != ctl.opponent.side):
            face_button(ctl, None, code, t)    # the picker is coming: the buttons count
        elif code == BTN_OK and ctl.clock is not None and not ctl.clock.running:
            ctl.pause_clock(False)
        elif code == BTN_OK:
            ctl.hint = _t("Hold OK for menu")

    def leds(self, ctl, mean):
        mean[:] = ctl.judge.mean

    def screen(self, ctl, fb):
        g = ctl.game
        note = ctl.hint or note_text(ctl)
        placer = g.placing()
        if ctl.judge.repair:
            screens.message(fb, _t("Fix the board"), *fix_lines(ctl))
            return
        if placer >= 0:
            screens.placement(fb, _t("%s: put one") % screens.side_word(placer),
                              note if note != _t("Place the Barragoon first") else "")
            clock_bar(ctl, fb)
            return
        ck = ctl.clock
        if not note and ck is not None and not ck.running:
            note = _t("Power was off: OK starts clock") if ck.state == 2 else \
                _t("Clock paused: OK starts it")
        if not note and g.repetition and not g.pending:
            note = _t("%s: draw? menu") % screens.side_word(1 - g.pos.side)
        if not note and g.unproven and not g.pending:
            note = _t("No capture left? Draw: menu")   # rule 6b: the board cannot tell
        screens.play(fb, side_name(g.pos.side), g.stages, g.pos.supply, g.last_turn_text(),
                     note)
        clock_bar(ctl, fb)


def clock_bar(ctl, fb):
    """The game clock over the title bar of a play, placement or board's-turn screen."""
    ck = ctl.clock
    if ck is not None:
        screens.clocks(fb, ck.ms(0), ck.ms(1), ck.side, ck.running)


def note_text(ctl):
    j = ctl.judge
    n, sq = j.view.note, j.view.note_sq
    name = square_name(sq) if sq >= 0 else ""
    if n == V.N_OUT_OF_TURN:
        c = j.b0[sq] or j.hs[0].board[sq]
        return _t("%s: not your turn") % screens.side_word(1 if c & BROWN_BIT else 0)
    if n == V.N_MUST_MOVE or n == V.N_MUST_TAKE:
        return duty_text(j)
    if n == V.N_CANT_MOVE:
        return _t("%s can't move: put it back") % name
    if n == V.N_PUT_BACK:
        return _t("Put back %s: %s") % (name, piece_text(j.b0[sq]))
    if n == V.N_TAKE_OFF:
        return _t("Take the piece off %s") % name
    if n == V.N_WRONG:
        return _t("Wrong piece on %s: lift it") % name
    if n == V.N_NOT_TARGET:
        return _t("%s: not a target") % name
    if n == V.N_REFUSED:
        return rules_text(j.view.refused)
    if n == V.N_CAPTURE:
        return _t("Capture %s or put it back") % name
    if n == V.N_PLACE_FIRST:
        return _t("Place the Barragoon first")
    return ""


def duty_text(j):
    mover = -1
    for sq in range(63):
        if j.duty[sq]:
            mover = sq if mover == -1 else -2      # -2: one of several
    take = j.tm.take
    if take >= 0 and mover >= 0:
        return _t("Touch-move: %s takes %s") % (square_name(mover), square_name(take))
    if take >= 0:
        return _t("Touch-move: capture %s") % square_name(take)
    if mover >= 0:
        return _t("Touch-move: move %s") % square_name(mover)
    return _t("Touch-move: move a lifted tile")


def fix_lines(ctl):
    j = ctl.judge
    sq = j.view.note_sq
    if sq < 0:
        return (_t("Wait..."), "", "", "")
    if j.view.note == V.N_PUT_BACK:
        return (_t("Put back on %s:") % square_name(sq), piece_text(j.b0[sq]), "", "")
    if j.view.note == V.N_WRONG:
        return (_t("Wrong piece on"), _t("%s: lift it") % square_name(sq), _t("then put back"),
                piece_text(j.b0[sq]))
    return (_t("Take the piece"), _t("off %s") % square_name(sq), "", "")


def face_button(ctl, mode, code, t):
    """UP/DOWN choose the face of the Barragoon to place, OK confirms it (mode: the face
    picker, or None while the play screen waits for it). OK counts whenever it is pressed:
    with a Barragoon standing the board judges at once, without waiting to be still; a
    Barragoon that stood when OK went down counts even if it was lifted before the release
    (the next player starting to capture it). Where the board offers "no capture" in the
    picker (Judge.no_capture), it is face 0, one UP from the first face."""
    j = ctl.judge
    if code == BTN_UP:
        ctl.face = ctl.face - 1 if ctl.face > 1 else \
            0 if ctl.face == 1 and mode is not None and j.alt >= 0 else _FACES
    elif code == BTN_DOWN:
        ctl.face = ctl.face + 1 if ctl.face < _FACES else 1
    elif code == BTN_OK and ctl.face == 0:
        ctl.face = 1
        ctl.ok_sq = -1
        if j.alt >= 0:
            ctl.flags(j.no_capture(t), t)
    elif code == BTN_OK:
        armed = ctl.ok_sq >= 0 and ctl.ok_sq == j.places.sq and not j.repair
        ctl.ok_sq = -1
        if not armed and not j.placement_ready():
            ctl.flags(j.decide_now(t), t)
            if ctl.top is not mode and isinstance(ctl.top, Place):
                mode = ctl.top             # the picker came up now
        if not armed and not j.placement_ready():
            ctl.hint = _t("Place it first")
            return
        try:
            ctl.game.place(j.places.sq, ctl.face)
        except RulesError as e:
            ctl.hint = rules_text(e)
            ctl.alert = 1
            return
        ctl.face = 1
        if mode is not None:
            ctl.pop(mode)
        ctl.flags(j.placed(t), t)


class Place(Mode):
    """Choose the face of the Barragoon standing on judge.places.sq."""
    decides = True

    def on_button(self, ctl, code, t):
        if code == BTN_BACK:
            ctl.open_menu()
        else:
            face_button(ctl, self, code, t)

    def screen(self, ctl, fb):
        j = ctl.judge
        g = ctl.game
        sq = j.places.sq
        if ctl.face == 0:
            screens.message(fb, _t("Which is it?"), _t("No capture"), "", _t("OK=set"))
            return
        if ctl.hint or not j.placement_ready():
            face = _t("%s: face %s") % (screens.side_word(g.placing()), face_name(ctl.face))
            if ctl.hint:
                screens.message_note(fb, _t("Place Barragoon"), face, "", ctl.hint)
            else:
                screens.message(fb, _t("Place Barragoon"), face, _t("Set it down on"),
                                _t("an empty square"))
            return
        screens.face_picker(fb, side_name(g.placing()), square_name(sq) if sq >= 0 else "?",
                            ctl.face, _t("UP: no capture") if j.alt >= 0 else None)
        clock_bar(ctl, fb)


class Ask(Mode):
    """The sensors cannot tell two histories apart: the players say which. A button pressed
    before the question came up belongs to what the players were doing (a face chosen
    without looking): it does not answer it (OK counts from when it went down; UP and DOWN
    arrive within the debounce time of their press)."""

    def __init__(self, t=0):
        self.sel = 0
        self.t0 = t

    def on_button(self, ctl, code, t):
        n = ctl.judge.q.n
        if n == 0:
            ctl.pop(self)
            return
        if code == BTN_OK and ctl.ok_held and ticks_diff(ctl.ok_t, self.t0) < 0 or \
                code != BTN_OK and code != BTN_BACK and ticks_diff(t, self.t0) < READ_MS:
            return
        if code == BTN_UP:
            self.sel = (self.sel - 1) % n
        elif code == BTN_DOWN:
            self.sel = (self.sel + 1) % n
        elif code == BTN_OK:
            ctl.pop(self)
            ctl.flags(ctl.judge.resolve(self.sel, t), t)
        elif code == BTN_BACK:
            ctl.open_menu()

    def screen(self, ctl, fb):
        j = ctl.judge
        items = [j.ask_label(i) for i in range(j.q.n)]
        screens.question(fb, _t("Which is it?"), j.ask_prompt(), items, self.sel)


class Over(Mode):
    judged = False
    layer = True

    def on_button(self, ctl, code, t):
        if code == BTN_OK:
            ctl.new_game()
        elif code == BTN_BACK:
            ctl.open_menu()

    def leds(self, ctl, mean):
        g = ctl.game
        for sq in range(63):
            c = g.pos.get(sq)
            if c & TILE and ctl.sensed[sq]:
                if g.winner == DRAW:
                    mean[sq] = C.DRAW
                else:
                    mean[sq] = C.WIN if (1 if c & BROWN_BIT else 0) == g.winner else C.LOSE
            else:
                mean[sq] = C.OFF

    def screen(self, ctl, fb):
        g = ctl.game
        who = "Draw" if g.winner == DRAW else side_name(g.winner) + " wins"
        screens.game_over(fb, who, _t(g.reason))      # (the record keeps the English reason)


class Setup(Mode):
    """Guided set-up of a new game: square by square; the game starts when the board
    matches and has been still for the settle time."""
    judged = False
    layer = True

    def __init__(self, game):
        self.game = game
        self.t_change = 0

    def on_square(self, ctl, sq, present, t):
        self.t_change = t

    def on_button(self, ctl, code, t):
        if code == BTN_BACK:
            ctl.open_menu()
        elif code == BTN_OK:
            ctl.hint = _t("Hold OK for menu")

    def tick(self, ctl, t):
        if ticks_diff(t, self.t_change) >= ctl.settle and self.next(ctl)[1] == 0:
            ctl.start_game(self.game, t)

    def next(self, ctl):
        """(square to fix next, squares left). Extra pieces first, then tiles, then
        Barragoons, each in square order, so the players can follow one light."""
        pos = self.game.pos
        s = ctl.sensed
        first = -1
        left = 0
        for sq in range(63):
            want = 1 if pos.get(sq) else 0
            if s[sq] != want:
                left += 1
                if s[sq] and first < 0:
                    first = sq
        if first < 0:
            for wanted in (TILE, 0):
                for sq in range(63):
                    c = pos.get(sq)
                    if c and not s[sq] and (c & TILE) == wanted:
                        return sq, left
        return first, left

    def leds(self, ctl, mean):
        nxt, left = self.next(ctl)
        pos = self.game.pos
        s = ctl.sensed
        for sq in range(63):
            want = 1 if pos.get(sq) else 0
            if s[sq] == want:
                mean[sq] = C.OFF
            elif s[sq]:
                mean[sq] = C.TO_EMPTY
            else:
                mean[sq] = C.PLACE if sq == nxt else C.HINT

    def screen(self, ctl, fb):
        sq, left = self.next(ctl)
        if ctl.hint:
            screens.message_note(fb, _t("Set up the board"), "", "", ctl.hint)
        elif sq >= 0 and ctl.sensed[sq]:
            screens.setup(fb, "Remove piece", square_name(sq), left)
        elif sq >= 0:
            screens.setup(fb, piece_text(self.game.pos.get(sq)), square_name(sq), left)
        else:
            screens.message(fb, _t("Set up the board"), _t("Hold still..."))


# --- menus and settings -----------------------------------------------------------------------
class Menu(Mode):
    """A list from a table of (label, when offered, action): an item appears only when its
    action can succeed. label is text (English: shown in the chosen language) or a function
    of the controller. The title is English too."""

    def __init__(self, title, table, root=False):
        self.title = title
        self.table = table
        self.root = root                     # nothing below it: BACK does nothing
        self.sel = 0
        self.items = ()
        self.acts = ()

    def refresh(self, ctl):
        items = []
        acts = []
        for label, when, act in self.table:
            if when(ctl):
                items.append(_t(label) if isinstance(label, str) else label(ctl))
                acts.append(act)
        keep = self.items[self.sel] if self.items and self.sel < len(self.items) else None
        self.items = tuple(items)
        self.acts = tuple(acts)
        self.sel = items.index(keep) if keep in items else min(self.sel, len(items) - 1)

    def on_button(self, ctl, code, t):
        n = len(self.items)
        if code == BTN_UP:
            self.sel = (self.sel - 1) % n
        elif code == BTN_DOWN:
            self.sel = (self.sel + 1) % n
        elif code == BTN_BACK:
            if not self.root:
                ctl.pop(self)
        elif code == BTN_OK:
            self.acts[self.sel](ctl, self)
            if ctl.top is self:
                self.refresh(ctl)

    def screen(self, ctl, fb):
        screens.menu(fb, _t(self.title), self.items, self.sel)


class Offer(Mode):
    """A draw offer waiting for the other player: hold OK to accept (a deliberate press
    nobody makes by accident), a short press of OK, UP or DOWN declines."""

    def __init__(self, repetition, offerer=-1):
        self.repetition = repetition
        self.offerer = offerer             # the side offering (-1: the one its kind implies)

    def on_button(self, ctl, code, t):
        ctl.pop(self)
        self.answer(ctl, code == BTN_BACK, t)

    def answer(self, ctl, accept, t):
        g = ctl.game
        try:
            if self.repetition:
                g.answer_repetition_draw(accept)
            elif accept:
                g.agree_draw()
            else:
                return
        except RulesError as e:
            ctl.hint = rules_text(e)
            return
        ctl.save()
        if g.over:
            ctl.judge.stop()
            ctl.flags(J.F_OVER, t)

    def screen(self, ctl, fb):
        g = ctl.game
        offerer = self.offerer
        if offerer < 0:
            offerer = 1 - g.pos.side if self.repetition else g.pos.side
        screens.message(fb, _t("Repetition") if self.repetition else _t("Draw offer"),
                        _t("%s offers") % screens.side_word(offerer),
                        _t("a draw. %s:") % screens.side_word(1 - offerer),
                        _t("hold OK: accept"), _t("press OK: no"))
