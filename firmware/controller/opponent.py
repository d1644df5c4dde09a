# Playing against the board: the engine (barragoon/engine.py) plays one side of the game.
#
# Its search runs in slices inside the loop step (Opponent.tick, called from Controller.tick
# after the events), and between loop steps while nothing else waits (think_more, from
# app.py through Controller.think): the scan keeps its period (a timer), an event ends the
# slice at once, and the buttons, the menu and take-back stay live while it thinks. One
# Engine serves a game against the board or a hint: made at the first use, and dropped with
# its modules (release(), from Controller._tidy) once no game in play and no hint needs it,
# so a two-player game never pays its heap. This module itself is loaded by the controller
# only for a game against the board or a hint (controller/lazy.py).
#
# The board's turn, as the player sees it (the play screen is VsPlay, a Play):
#   thinking       the screen says so; none of the board's tiles may move (a lifted one gets
#                  "can't move: put it back")
#   its move       the screen shows it in notation and says what to do; the LEDs light the
#                  tile to lift (blinking, like a touch-move duty) and, for a capture, the
#                  victim to take off first. The judge checks it: in the board's turn only this
#                  move can commit (Judge.allow); another one is a wrong move and gets the
#                  usual fix-the-board guidance
#   its placement  the LEDs light the square, the screen the face and its heading (the face
#                  picker's icon); the player sets the Barragoon down so and confirms with OK
#                  (BoardPlace: a set-down elsewhere is refused)
# After the board captures a tile the player places first; the board then thinks again for
# its own placement (the engine predicted the player's, but the player chose).
#
# Hint (game menu, on a player's own move or placement): the engine thinks briefly and the
# move it would play lights in the hint colour until the next touch or button press, or for a
# placement the square lights and the screen shows the face; nothing is played.
#
# With a game clock the board's clock runs while it thinks, as anybody's: it thinks for its
# strength's time or a twentieth of what is left on its clock, whichever is less (it always
# completes its first look at every move, so a nearly empty clock can still fall), and the
# clock stays on the screen during its turn and its placements.
#
# The board offers a draw itself, once its turn is done: the repetition draw when its turn
# completes a repeated sequence and its search does not see it clearly ahead (Turn.draw_ok;
# where it is, it varies instead of repeating), and an agreed draw when
# it is behind in a position its search sees as dead (no capture anywhere in a search two turns
# deep: Turn.offer_draw); declined, it waits OFFER_AGAIN turns before it offers again.
#
# The opponent belongs to the saved game: the tag line [Opponent "Brown 2"] before the record
# (the board plays Brown at strength 2) is kept on the Game as game.opponent (storage.py), so
# a power cut resumes the same opponent.
from barragoon.core import RulesError
from barragoon.game import side_name, action_move
from barragoon.notation import square_name, format_move
from controller import colours as C
from controller import lazy
from controller import modes as M
from controller import screens
from controller.i18n import t as _t
from drivers.buttons_const import BTN_OK, BTN_BACK
from controller.ticks import ticks_diff, ticks_ms

STEP_END_MS = 3            # think until this long after the loop step began (the scan, the
                           # events and the tick come first; the LEDs and the screen follow
                           # within the period); at least one engine step (1-4 ms) a loop step
SLICE_MS = None            # a fixed slice instead (tests: 0, one engine step per loop step)
STRENGTHS = 3              # levels 1-3: engine.LEVELS[1..3] (their work; about 4.5 s, 30 s
                           # and 3 min a turn on the emulated Pico)
HINT_MS = 1000             # thinking time of a hint
CLOCK_SHARE = 20           # with a clock: at most this fraction of the board's time left
OFFER_AGAIN = 20           # turns the board waits after a declined draw offer
LIMIT = None               # (budget_ms, steps) for every search instead: tests use steps,
                           # the same work on every machine

ENGINE = ("barragoon.engine", "barragoon.evaluation")

_engine = None
_NOTHING = ()                  # Opponent.plan when the engine found nothing to decide


def engine():
    global _engine
    if _engine is None:
        _engine = lazy.load(ENGINE[0]).Engine()
    return _engine


def release():
    """Drop the engine and its modules (the next engine() makes a new one)."""
    global _engine
    if _engine is not None:
        _engine.stop()
        _engine = None
    lazy.drop(*ENGINE)


def _stop_engine():
    if _engine is not None:
        _engine.stop()


def _slice(t):
    # t: when the loop step began (Controller.tick gets it)
    if SLICE_MS is not None:
        return SLICE_MS
    left = STEP_END_MS - ticks_diff(ticks_ms(), t)
    return left if left > 0 else 0


def _think(ctl, ms):
    # Every slice of a search: it ends early when an event waits (ctl.wake), and ctl.probe
    # (a pin, for measuring) is high while the engine runs.
    probe = ctl.probe
    if probe is not None:
        probe(1)
    done = engine().think(ms, ctl.wake)
    if probe is not None:
        probe(0)
    return done


def searching():
    """A search (the board's turn or a hint) is under way."""
    return _engine is not None and not _engine.done


def think_more(ctl, ms):
    """More of the search under way (the board's turn or a hint) for up to ms, between loop
    steps while nothing else waits (Controller.think); False when none is under way. Its
    answer is taken up by the next tick."""
    if _engine is None or _engine.done:
        return False
    _think(ctl, ms)
    return True


def _limits(level, ctl=None, side=0):
    if LIMIT is not None:
        return LIMIT
    if level == 0:
        return HINT_MS, 0
    ms, steps = lazy.load(ENGINE[0]).LEVELS[level]
    ck = ctl.clock if ctl is not None else None
    if ck is not None and ck.ms(side) // CLOCK_SHARE < ms:
        ms = ck.ms(side) // CLOCK_SHARE
    return ms, steps


# --- the saved tag ------------------------------------------------------------------------------
def tag(side, level):
    return "%s %d" % (side_name(side), level)


def parse(text):
    """The Opponent a tag value stands for, or None (none, or a damaged tag: that costs the
    opponent, never the game). "Brown remote": Brown is played on a computer
    (controller/remote.py)."""
    parts = text.split() if text else ()
    if len(parts) != 2 or parts[0] not in ("White", "Brown") or \
            parts[1] not in ("1", "2", "3", "remote"):
        return None
    side = 0 if parts[0] == "White" else 1
    if parts[1] == "remote":
        return lazy.load("controller.remote").Remote(side)
    return Opponent(side, int(parts[1]))


def of_game(game):
    op = parse(getattr(game, "opponent", ""))
    if op is not None and not getattr(op, "remote", False):
        engine()                   # made now, as the game begins (a few hundred ms on the
    return op                      # RP2040), not in the middle of a turn


# --- the board as a player ----------------------------------------------------------------------
class Opponent:
    def __init__(self, side, level):
        self.side = side
        self.level = level
        self.plan = None           # the engine's Turn for the position at base
        self.base = -1             # len(game.actions) it was found for
        self.last = -1             # game.actions[base - 1] then (another history: replan)
        self.thinking = False
        self.t0 = 0
        self.ms = 0                # the last search's time (figures)
        self.draw_ok = False       # its last search would take a draw (Turn.draw_ok)
        self.offer_at = -1         # len(game.actions) when the board last offered a draw
        self.allow = self._allow   # for Judge.allow (one bound method, made once)

    def due(self, ctl):
        """The board must act now (move or place)."""
        g = ctl.game
        return g is not None and not g.over and not g.offered and g.turn == self.side and \
            ctl.playing()

    def step(self, g):
        """Which of the plan's own actions is due now (0: the first), or -1: none (thinking,
        or the game went another way)."""
        p = self.plan
        if not p:
            return -1
        acts = g.actions
        i = len(acts) - self.base
        if i < 0 or i >= p.now or self.base and acts[self.base - 1] != self.last:
            return -1
        if i == 1 and p.move is not None and \
                action_move(acts[self.base]) != p.move[0] * 64 + p.move[1]:
            return -1
        return i

    def placement(self, i):
        """(side, square, face) of the plan's action i, a placement."""
        return self.plan.places[i - (0 if self.plan.move is None else 1)]

    def _allow(self, g):
        # Judge.allow: the move the board's turn may commit (-1 none yet, -2 not its turn).
        if g.pos.side != self.side or g.placing() >= 0:
            return -2
        if self.step(g) == 0 and self.plan.move is not None:
            return (self.plan.move[0] << 6) + self.plan.move[1]
        return -1

    def tick(self, ctl, t):
        if not self.due(ctl):
            if self.thinking:
                self.stop()
            self._offer(ctl)
            return
        g = ctl.game
        if self.thinking and len(g.actions) != self.base:
            self.stop()                    # the game changed under the search
        if not self.thinking:
            if self.step(g) >= 0 or self.plan is _NOTHING and len(g.actions) == self.base:
                return                     # shown: the player carries it out
            self.plan = None
            self.base = len(g.actions)
            self.last = g.actions[self.base - 1] if self.base else -1
            ms, steps = _limits(self.level, ctl, self.side)
            self.t0 = t
            if engine().start(g, ms, steps):
                self.thinking = True
            else:
                self.plan = _NOTHING       # nothing to decide: not again for this position
            ctl.flags(ctl.judge.relimit(), t)  # nothing may move while it thinks
            ctl.dirty()
            return
        eng = engine()
        if _think(ctl, _slice(t)):
            self.thinking = False
            self.plan = eng.best()
            self.ms = ticks_diff(t, self.t0)
            if self.plan is not None:
                self.draw_ok = self.plan.draw_ok
            ctl.flags(ctl.judge.relimit(), t)
            ctl.dirty()

    def stop(self):
        if self.thinking:
            _stop_engine()
            self.thinking = False

    def _offer(self, ctl):
        # After the board's turn, the player to move: a draw offer of the board's (see the top).
        g = ctl.game
        p = self.plan
        n = len(g.actions) if g is not None else 0
        if not p or g.over or g.offered or g.pending or g.pos.side == self.side or \
                n == self.offer_at or not ctl.playing() or ctl.top is not ctl.stack[0]:
            return
        if g.repetition and self.draw_ok:
            self.offer_at = n
            g.offer_repetition_draw()
            ctl.save()
            ctl.push(M.Offer(True))
        elif p.offer_draw and (self.offer_at < 0 or n >= self.offer_at + 2 * OFFER_AGAIN):
            self.offer_at = n
            ctl.push(M.Offer(False, self.side))

    def answer(self, ctl, repetition):
        """A draw offered to the board: it accepts when its last search did not see it clearly
        ahead (Turn.draw_ok)
        (no search yet: it plays on)."""
        accept = self.draw_ok
        M.Offer(repetition).answer(ctl, accept, 0)
        if not ctl.hint:
            ctl.hint = _t("Board: draw agreed") if accept else _t("Board: no draw")

    def place_mode(self):
        return BoardPlace()

    # --- what the player sees -------------------------------------------------------------
    def leds(self, ctl, mean):
        """Over the judge's live meanings: the board's move or placement to carry out."""
        j = ctl.judge
        if j.repair or not self.due(ctl):
            return
        i = self.step(ctl.game)
        if i < 0:
            return
        s = ctl.sensed
        p = self.plan
        if i == 0 and p.move is not None:
            frm, to = p.move
            if s[to] and p.capture and not mean[to]:
                mean[to] = C.TO_EMPTY          # first the victim off
            elif not s[to] and not mean[to]:
                mean[to] = C.MOVE
            if s[frm] and not mean[frm]:
                mean[frm] = C.DUTY             # the tile to lift
            return
        sq = self.placement(i)[1]
        at = j.places.sq
        if at >= 0 and at != sq:
            mean[at] = C.ERROR
            mean[sq] = C.TO_FILL
        else:
            mean[sq] = C.PLACE

    def screen(self, ctl, fb):
        """Draw the board's turn (the game clock over the title); False when it is not the
        board's turn."""
        if ctl.judge.repair or not self.due(ctl):
            return False
        self._screen(ctl, fb)
        M.clock_bar(ctl, fb)
        return True

    def name(self):
        return _t("Board: %s") % screens.side_word(self.side)

    def _waiting(self):
        """The two lines under the name while this side's turn is not known yet."""
        return _t("Thinking..."), _t("Strength %d") % self.level

    def _screen(self, ctl, fb):
        g = ctl.game
        who = self.name()
        note = ctl.hint or M.note_text(ctl)
        i = self.step(g)
        if i < 0:
            line1, line2 = self._waiting()
            if note:
                screens.message_note(fb, who, line1, line2, note)
            else:
                screens.message(fb, who, line1, line2, who if ctl.clock is not None else "")
            return
        p = self.plan
        if i == 0 and p.move is not None:
            frm, to = p.move
            if p.capture and ctl.sensed[to]:
                what = (_t("Take off %s") % square_name(to), _t("then move %s") % square_name(frm))
            else:
                what = (_t("Move %s") % square_name(frm), _t("to %s") % square_name(to))
            plays = _t("plays %s") % format_move(frm, to, p.capture)
            if note:
                screens.message_note(fb, who, plays, what[0], note)
            else:
                screens.message(fb, who, plays, what[0], what[1])
            return
        side, sq, face = self.placement(i)
        j = ctl.judge
        if not note:
            note = _t("Placed? OK") if j.places.sq == sq else _t("Place as shown")
        screens.face_picker(fb, side, square_name(sq), face, note)


class VsPlay(M.Play):
    """Play with the board as one player: its turns drawn by the Opponent."""

    def leds(self, ctl, mean):
        mean[:] = ctl.judge.mean
        ctl.opponent.leds(ctl, mean)

    def screen(self, ctl, fb):
        if not ctl.opponent.screen(ctl, fb):
            M.Play.screen(self, ctl, fb)


class BoardPlace(M.Place):
    """The board's placement stands on the board: the player confirms it with OK (the face
    is the board's; a Barragoon on another square is refused)."""

    def on_button(self, ctl, code, t):
        if code == BTN_BACK:
            ctl.open_menu()
            return
        if code != BTN_OK:
            ctl.hint = _t("The board chose")
            return
        op, j, g = ctl.opponent, ctl.judge, ctl.game
        i = op.step(g)
        if i < 0:
            ctl.hint = _t("Wait: thinking")
            return
        side, sq, face = op.placement(i)
        if not j.placement_ready():
            ctl.hint = _t("Place it first")
            return
        if j.places.sq != sq:
            ctl.hint = _t("Put it on %s") % square_name(sq)
            ctl.alert = 1
            return
        try:
            g.place(sq, face)
        except RulesError as e:
            ctl.hint = M.rules_text(e)
            ctl.alert = 1
            return
        ctl.pop(self)
        ctl.flags(j.placed(t), t)

    def screen(self, ctl, fb):
        if not ctl.opponent.screen(ctl, fb):
            M.Place.screen(self, ctl, fb)


# --- hint ---------------------------------------------------------------------------------------
class Hint(M.Mode):
    """The engine's move for the player to move, lit in the hint colour; not played. Any
    touch or button press clears it (the touch then counts as usual)."""
    judged = False
    layer = True
    thinks = True                  # the engine stays loaded while it is on the stack

    def __init__(self):
        self.turn = None
        self.started = False

    def tick(self, ctl, t):
        eng = engine()
        if not self.started:
            self.started = True
            ms, steps = _limits(0)
            if not eng.start(ctl.game, ms, steps):
                ctl.pop(self)
            ctl.dirty()
        elif self.turn is None and _think(ctl, _slice(t)):
            self.turn = eng.best()
            ctl.dirty()

    def _leave(self, ctl):
        _stop_engine()
        ctl.pop(self)

    def on_square(self, ctl, sq, present, t):
        self._leave(ctl)
        ctl.flags(ctl.judge.event(sq, present, t), t)

    def on_button(self, ctl, code, t):
        self._leave(ctl)

    def leds(self, ctl, mean):
        mean[:] = ctl.judge.mean
        p = self.turn
        if p is None:
            return
        if p.move is not None:
            mean[p.move[0]] = C.SUGGEST
            mean[p.move[1]] = C.SUGGEST_TO
        elif p.places:
            mean[p.places[0][1]] = C.SUGGEST_TO     # the square for the Barragoon

    def screen(self, ctl, fb):
        p = self.turn
        if p is None:
            screens.message(fb, _t("Hint"), _t("Thinking..."))
        elif p.move is None:                    # a placement: the square and the face
            side, sq, face = p.places[0]
            screens.face_picker(fb, side, square_name(sq), face, _t("Hint: touch ends"))
        else:
            screens.message(fb, _t("Hint"), _t("%s could play") % screens.side_word(
                ctl.game.pos.side), p.text, _t("A touch or key"), _t("ends the hint"))
