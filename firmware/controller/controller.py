# The board controller: sensor and button events in, an LED frame and OLED screens out.
# Hardware-free: app.py (device) and the simulator feed it events and show its output.
#
#   ctl = Controller(fb, settle_ms, brightness, adjust_ms, reopen_ms, palette)
#   ctl.start(occupied, saved_game, duties, clock)  first scan; the saved game (or None), its
#                                         touch-move duties (Storage.duties) and its clock
#                                         (Storage.clock: the tag text, "" for none); a
#                                         clock or opponent tag it cannot read: ctl.damaged
#   ctl.on_square(sq, present, t_ms)      raw sensor event (no debounce needed)
#   ctl.on_button(code, t_ms)             BTN_UP / BTN_DOWN / BTN_OK / BTN_BACK (and
#                                         BTN_OK_DOWN: what a confirmation begun now confirms)
#   ctl.tick(t_ms)                        timers: settle, touches, reopen window, patterns
#   ctl.think(ms)                         between ticks, when nothing else waits: the engine's
#                                         search (if one is under way) for up to ms more
#   if ctl.render(t_ms, 1): leds.show(ctl.frame)    LEDs first (lift-to-light)
#   if ctl.render(t_ms, 2): oled.show()
# Callbacks (set by the owner, each optional):
#   on_save(game, duties)        the game or its touch-move duties changed: save both
#   on_finish(game)              a finished game is left: append it to the records (once)
#                                (both saves carry clock_tag(), the game clock's tag text)
#   on_settings(brightness, palette, language)   a setting changed (brightness: when its
#                                screen closes, however it closes; language: a code of
#                                controller/i18n.py, chosen with set_language())
#   on_checkpoint(game, before_event)  a turn starts with the board matching the game (the
#                                flight recorder can replay from here); before_event: the
#                                event being handled already belongs to the new turn
# and, for the engine's slices: wake (its pending() is true when an event waits: the slice
# ends) and probe (a pin, high while the engine runs: for measuring).
#
# Modes (controller/modes.py) live on one stack; the judge (controller/judge.py) decides what
# happened on the board; colours.py turns LED meanings into colours; clock.py is the optional
# game clock (ctl.clock, None when the game has none).
#
# Heap: the menus (menus.py), the game clock, the opponent and its engine are loaded only while
# needed (controller/lazy.py): _tidy() drops them, at the next tick after the mode stack
# changed, when no menu is open, the game has no clock, and no game against the board is in
# play (nor a hint shown). A two-player game without a clock never loads any of them.
from barragoon.core import RulesError, ZEROS
from barragoon.game import Game, CLOSED
from controller import colours as C
from controller import font
from controller import judge as J
from controller import i18n
from controller import lazy
from controller import modes as M

from drivers.buttons_const import BTN_UP, BTN_DOWN, BTN_OK, BTN_BACK, BTN_OK_DOWN  # noqa: F401
from controller.ticks import ticks_diff, ticks_ms

DECIDE_MS = 3       # rule 6b's decision (game.decide): work this long per loop step at most

MENUS = "controller.menus"
CLOCK = "controller.clock"
OPPONENT = "controller.opponent"


def _menus():
    return lazy.load(MENUS)


def _clocks():
    return lazy.load(CLOCK)


def _opponents():
    return lazy.load(OPPONENT)


class Controller:
    def __init__(self, fb, settle_ms=300, brightness=40, adjust_ms=250, reopen_ms=2000,
                 palette=0):
        self.fb = fb
        self.settle = settle_ms
        self.brightness = brightness
        self.saved_brightness = brightness    # as on_settings last had it
        self.sensed = bytearray(63)
        self.judge = J.Judge(self.sensed, settle_ms, adjust_ms, reopen_ms)
        self.painter = C.Painter(palette)
        self.meaning = bytearray(63)
        self.frame = bytearray(189)
        self.game = None
        self.saved = None
        self.saved_duties = ""
        self.stack = []
        self.variant = CLOSED
        self.stages = [0, 0]
        self.clock = None              # the game clock (controller/clock.py), if the game has one
        self.clock_choice = [0, 0]     # New game: indexes into clock.MINUTES, clock.INCREMENTS
        self.board_plays = -1          # New game: the side the board plays, -1 nobody
        self.strength = 1              # ... and its strength (1-3)
        self.opponent = None           # the game's Opponent (controller/opponent.py) or None
        self.face = 1
        self.hint = ""                 # a short-lived note (until the next event)
        self.alert = 0                 # 1: something was refused (the buzzer beeps)
        self.led_dirty = True
        self.screen_dirty = True
        self.phase = 0
        self.animated = False
        self.recorded = False          # the finished game went to on_finish (the records)
        self.damaged = ""              # the saved game's tags start() could not use: "clock",
        #                                "opponent" or both (the game goes on without them)
        self._in_event = False
        self._q = bytearray(8)         # set-downs of the scan being reported (on_square) ...
        self._qr = bytearray(8)        # ... and the order the judge gave each (_flush)
        self._nq = 0
        self._qt = 0
        self._untidy = False           # the stack changed: _tidy() at the next tick
        self.ok_sq = -1                # the Barragoon standing for its face when OK went down
        self.ok_t = 0                  # when OK last went down ...
        self.ok_held = False           # ... and it has not been released since
        self.now = 0                   # the time of the last event or tick
        self.on_save = None
        self.on_finish = None
        self.on_settings = None
        self.on_checkpoint = None
        self.wake = None
        self.probe = None

    # --- the mode stack ----------------------------------------------------------------------
    @property
    def top(self):
        return self.stack[-1] if self.stack else None

    @property
    def mode(self):
        return self.top

    def set_base(self, mode):
        if self.brightness != self.saved_brightness:
            self.settings_changed()        # the Brightness screen is dropped with the stack
        self.stack = [mode]
        self._entered(mode)

    def push(self, mode):
        self.stack.append(mode)
        self._entered(mode)

    def pop(self, mode):
        if len(self.stack) > 1 and self.stack[-1] is mode:
            self.stack.pop()
            self._entered(self.stack[-1])

    def drop(self, cls):
        """Take every mode of class cls off the stack (not the bottom): a question or a face
        picker that no longer applies, even under a menu."""
        n = len(self.stack)
        self.stack = [self.stack[0]] + [m for m in self.stack[1:] if not isinstance(m, cls)]
        if len(self.stack) != n:
            self._entered(self.stack[-1])

    def _entered(self, mode):
        if isinstance(mode, M.Menu):
            mode.refresh(self)
        self.hint = ""
        self._untidy = True
        self.dirty()

    def _tidy(self):
        """Drop the modules loaded for menus, the clock, the opponent that nothing needs now
        (see the top of this file). At a tick, not within an event: a menu's action may
        leave one stack and build the next."""
        self._untidy = False
        menu = thinks = False
        for m in self.stack:
            menu = menu or isinstance(m, M.Menu)
            thinks = thinks or m.thinks
        g, op = self.game, self.opponent
        if not menu:
            lazy.drop(MENUS)
            if self.clock is None:
                lazy.drop(CLOCK)
        if lazy.loaded(OPPONENT) and not thinks and (op is None or g is None or g.over):
            _opponents().release()         # the engine: no game against the board in play
            if op is None and self.board_plays < 0 and not menu:
                lazy.drop(OPPONENT)

    def _has(self, cls):
        for m in self.stack:
            if isinstance(m, cls):
                return True
        return False

    def open_menu(self):
        self.push(M.Menu("Menu", _menus().GAME))

    def playing(self):
        return bool(self.stack) and isinstance(self.stack[0], M.Play)

    def in_game(self):
        return bool(self.stack) and isinstance(self.stack[0], (M.Play, M.Over))

    def dirty(self):
        self.led_dirty = True
        self.screen_dirty = True

    # --- life cycle --------------------------------------------------------------------------
    def start(self, occupied=None, saved=None, duties="", clock=""):
        """Power-on. A fresh board goes straight to the set-up of a standard game; a game
        without moves is taken up again at once; otherwise the players choose. A saved clock
        comes back paused (the board cannot know how long it was off)."""
        self._nq = 0
        if occupied is not None:
            self.sensed[:] = occupied
        self.damaged = self.unreadable(saved, clock)
        self.clock = _clocks().from_tag(clock) if clock and saved is not None else None
        if self.clock is not None:
            self.clock.sync(saved)
        if "opponent" in self.damaged:
            saved.opponent = ""            # a two-player game from now on (the player is told)
        if saved is not None and (saved.over or saved.unfinished):
            self.game = saved              # (a power cut came before it was recorded)
            self.recorded = False
            self._record()
            saved = None
        self.saved = saved
        self.saved_duties = duties
        if saved is None:
            self.new_game()
        elif not saved.last_turn_text() and not saved.offered:
            self.begin(saved, duties)
        else:
            self.game = None
            self.judge.stop()
            self.set_base(M.Menu("Saved game", _menus().SAVED, True))

    def unreadable(self, saved, clock):
        """The tags of a saved game that cannot be used: "clock", "opponent", both ("clock,
        opponent") or "". The game goes on without them (start())."""
        if saved is None:
            return ""
        bad = "clock" if clock and _clocks().from_tag(clock) is None else ""
        if getattr(saved, "opponent", "") and _opponents().parse(saved.opponent) is None:
            bad = bad + ", opponent" if bad else "opponent"
        return bad

    def resume_saved(self):
        self.begin(self.saved, self.saved_duties)

    def begin(self, game, duties="", phys=None):
        """Play game from now on (the board is guided back to it if it differs)."""
        game.stepwise = True               # rule 6b in loop steps: see _decide()
        self.game = game
        self.recorded = False
        self.face = 1
        if self.opponent is not None:
            self.opponent.stop()
        self.opponent = _opponents().of_game(game) if getattr(game, "opponent", "") else None
        self.judge.allow = self.opponent.allow if self.opponent is not None else None
        if game.over:
            self.judge.stop()
            self.set_base(M.Over())
            return
        if not game.last_turn_text() and phys is None and not game.offered and \
                not duties and not self._matches(game):
            # (a game with a touch-move duty has begun: the board is guided back, duty kept)
            self.judge.stop()
            self.set_base(M.Setup(game))
            return
        self.set_base(M.Play() if self.opponent is None else _opponents().VsPlay())
        f = self.judge.begin(game, duties, phys, self.now)
        if game.offered:
            self.push(M.Offer(True))
        if not self.judge.repair:
            f |= J.F_TURN
        self.flags(f, 0)

    def _matches(self, game):
        for sq in range(63):
            if self.sensed[sq] != (1 if game.pos.get(sq) else 0):
                return False
        return True

    def set_opponent(self, op):
        """The game in play gets this Opponent from now on (None: both sides play here).
        The caller sets the game's opponent tag to match and saves."""
        if self.opponent is not None:
            self.opponent.stop()
        self.opponent = op
        self.judge.allow = op.allow if op is not None else None
        if self.playing():
            self.stack[0] = M.Play() if op is None else _opponents().VsPlay()
        self.flags(self.judge.relimit(), 0)
        self.dirty()

    def unfinished(self):
        """The game a new one would leave without a result: one with a turn played, in play
        or waiting at power-on; else None (the menu asks before ending it)."""
        g = self.game if self.in_game() else self.saved
        if g is None or g.over or not g.last_turn_text():
            return None
        return g

    def end_unfinished(self):
        """The players leave the game in progress for a new one: it goes to the records as
        unfinished, then a new game is set up."""
        g = self.unfinished()
        if g is not None:
            g.unfinished = True
            self.game = g
            self.recorded = False
            self._record()
        self.saved = None
        self.new_game()

    def new_game(self):
        """Leave the current game (a finished one goes to the records) and set up a new one
        with the chosen variant and express stages."""
        self._record()
        g = self._fresh_game()
        self.game = g
        self.recorded = False
        self._new_clock(g)
        if self.opponent is not None:      # the last game's: the new one gets its own when
            self.opponent.stop()           # play begins
            self.opponent = None
            self.judge.allow = None
        self.judge.stop()
        self.set_base(M.Setup(g))

    def _new_clock(self, game):
        # runs as soon as play begins (the set-up is done)
        c = self.clock_choice              # (minutes 0: no clock, nothing to load)
        self.clock = _clocks().from_choice(c[0], c[1]) if c[0] else None
        if self.clock is not None:
            self.clock.sync(game)

    def options_changed(self):
        if self.stack and isinstance(self.stack[0], M.Setup):
            g = self._fresh_game()
            self.game = g
            self._new_clock(g)
            self.stack[0] = M.Setup(g)

    def _fresh_game(self):
        g = Game(None, self.variant, (self.stages[0], self.stages[1]))   # (None: standard)
        if self.board_plays >= 0:
            g.opponent = _opponents().tag(self.board_plays, self.strength)   # saved with the game
        return g

    def start_game(self, game, t):
        """Set-up done: the board matches the new game's start."""
        self.begin(game)
        self.save()

    def _record(self):
        g = self.game
        if g is not None and (g.over or g.unfinished) and not self.recorded:
            self.recorded = True
            if self.on_finish is not None:
                self.on_finish(g)

    def save(self):
        if self.clock is not None and self.game is not None:
            self.clock.follow(self.game)   # a committed turn switches the clock first
        if self.on_save is not None and self.game is not None:
            self.judge.duties_saved()
            self.on_save(self.game, self.judge.duty_text())

    def clock_tag(self):
        """The game clock as its save tag's text, "" without a clock."""
        return self.clock.tag() if self.clock is not None else ""

    def pause_clock(self, pause):
        ck = self.clock
        if pause:
            ck.pause()
            self.save()                    # the paused times survive a power cut
        else:
            ck.resume()
        self.dirty()

    def _clock_tick(self, t):
        # The clock runs in play (menus on top included), not while paused or the game is over.
        ck, g = self.clock, self.game
        if g is None:                      # the saved-game question at power-on
            return
        live = not g.over and self.playing()
        if ck.tick(t, g, live) and isinstance(self.top, M.Play):
            self.screen_dirty = True
        if ck.flag >= 0 and live:
            g.decide()                     # (a draw by rule 6b came first)
            if not g.over:
                g.lose_on_time()
            self.judge.stop()
            self.save()
            self.set_base(M.Over())

    def settings_changed(self):
        self.saved_brightness = self.brightness
        if self.on_settings is not None:
            self.on_settings(self.brightness, self.painter.palette, i18n.language())

    def set_language(self, code):
        """Show every text in the language with this code (i18n.LANGUAGES) from now on, and
        save the choice (on_settings). ValueError for an unknown code."""
        i18n.set_language(code)
        for m in self.stack:
            if isinstance(m, M.Menu):
                m.refresh(self)            # its items were translated when it was built
        self.hint = ""                     # (a note in the language before)
        self.dirty()
        self.settings_changed()

    def set_palette(self, palette):
        self.painter.set_palette(palette)
        self.dirty()

    # --- actions from the menus ---------------------------------------------------------------
    def take_back(self, side=-1):
        """Take back the last turn (or only the agreed draw), then guide the board back. With
        side: take back turns until that side is to move, its own last turn taken back (a
        player on a computer asked for it, controller/remote.py)."""
        g = self.game
        phys = bytearray(63)
        hyp = self.judge.hs[0] if self.judge.active and not self.judge.repair else None
        for sq in range(63):
            c = hyp.board[sq] if hyp is not None else g.pos.get(sq)
            phys[sq] = c if self.sensed[sq] and c != J.NEW else 0
        try:
            if _menus()._agreed(g):
                g.undo()
                if g.offered:
                    g.undo()                 # the accepted offer goes with its acceptance
            else:
                g.undo_turn()
                op = self.opponent
                if side >= 0:
                    if g.turn != side and g.last_turn_text():
                        g.undo_turn()
                elif op is not None and g.turn == op.side and g.last_turn_text():
                    g.undo_turn()            # against the board: back to the player's turn
        except RulesError as e:
            self.hint = M.rules_text(e)
            return
        if self.clock is not None:
            self.clock.take_back(g)
        self.begin(g, "", phys)
        self.save()

    def offer_repetition(self):
        self.judge.close_turn()            # the offer follows the turn: it stands
        try:
            self.game.offer_repetition_draw()
        except RulesError as e:
            self.hint = M.rules_text(e)
            return
        self.save()
        op = self.opponent
        if op is not None and self.game.pos.side == op.side:
            op.answer(self, True)            # offered to the board: it answers for itself
        else:
            self.push(M.Offer(True))

    # --- events ------------------------------------------------------------------------------
    def on_square(self, sq, present, t):
        if not 0 <= sq < 63:
            return
        self.now = t
        present = 1 if present else 0
        q = self._q
        for i in range(self._nq):
            if q[i] == sq:                         # set down, not yet judged
                if not present:                    # ... and lifted again: nothing changed
                    self._nq -= 1
                    q[i] = q[self._nq]
                return
        if self.sensed[sq] == present:
            return                                 # repeated report: nothing changed
        # One matrix scan reports its changes in square order, all with the same time: a
        # piece lifted and another set down within one scan period come in either order. A
        # hand lifts before it sets down, so set-downs wait until the scan's lifts are in (a
        # lift goes through at once: lift to light).
        if present:
            if self._nq and (self._qt != t or self._nq == len(q)):
                self._flush()
            q[self._nq] = sq
            self._nq += 1
            self._qt = t
            return
        if self._nq and self._qt != t:
            self._flush()
        self._square(sq, 0, t)

    def _flush(self):
        # Of set-downs at the same moment, the judge says which to take first (a capture
        # lands before a Barragoon is set down for it: Judge.order). The order is taken
        # before any goes in: the first may close the turn, and the next turn's order would
        # skip a set-down ranked before the one being taken.
        n = self._nq
        self._nq = 0
        q, r, judge = self._q, self._qr, self.judge   # (no bound method kept: it allocates)
        for i in range(n):
            r[i] = judge.order(q[i])
        for rank in range(3):
            for i in range(n):
                if r[i] == rank:
                    self._square(q[i], 1, self._qt)

    def _square(self, sq, present, t):
        if self.sensed[sq] == present:
            return
        self.sensed[sq] = present
        self.hint = ""
        self.dirty()
        top = self.top
        if top is None:
            return
        self._in_event = True
        try:
            if top.judged:
                self.flags(self.judge.event(sq, present, t), t)
                if self.face == 0 and self.judge.alt < 0:
                    self.face = 1          # the board changed: "no capture" is gone
            else:
                top.on_square(self, sq, present, t)
        finally:
            self._in_event = False

    def on_button(self, code, t):
        self.now = t
        if self._nq:
            self._flush()
        if code == BTN_OK_DOWN:            # a confirmation begins: it counts for what stands
            j = self.judge                 # now (modes see only its release, BTN_OK)
            self.ok_sq = j.places.sq if j.placement_ready() else -1
            self.ok_t = t
            self.ok_held = True
            return
        top = self.top
        if top is not None:
            self.hint = ""
            self.dirty()
            top.on_button(self, code, t)
        if code == BTN_OK or code == BTN_BACK:
            self.ok_held = False           # (the mode saw when it went down: ok_t)

    def tick(self, t):
        self.now = t
        if self._nq:
            self._flush()
        if self.game is not None and self.playing():
            self._decide()
        top = self.top
        if top is None:
            return
        if top.judged:
            self.flags(self.judge.tick(t, top.decides), t)
        if self._untidy:
            self._tidy()
        if self.clock is not None:
            self._clock_tick(t)
        if self.opponent is not None:
            self.opponent.tick(self, t)    # the board's own turn: thinks in slices
        top = self.top
        top.tick(self, t)
        if self.animated:
            ph = C.phase(t)
            if ph != self.phase:
                self.phase = ph
                self.led_dirty = True

    def think(self, ms):
        """The engine's search, if one is under way (the board's turn, a hint), for up to
        ms more; False when none is. Between ticks, when no event waits and nothing else is
        due (app.py): its answer is taken up by the next tick."""
        return lazy.loaded(OPPONENT) and _opponents().think_more(self, ms)

    def searching(self):
        """The engine is searching (the board's turn, a hint)."""
        return lazy.loaded(OPPONENT) and _opponents().searching()

    def _decide(self):
        # Rule 6b's decision for the turn that began (barragoon/deadlock.py) runs in slices of
        # the loop steps, so the scan and the LEDs never wait for it; an action made meanwhile
        # finishes it first. A draw it finds (or an action met) ends the game here.
        g = self.game
        if g.deciding:
            t0 = ticks_ms()
            while not g.decide(1) and ticks_diff(ticks_ms(), t0) < DECIDE_MS:
                pass
        if g.over:
            self.judge.stop()
            self.save()
            self.set_base(M.Over())

    def flags(self, f, t):
        """React to what the judge reports."""
        if not f:
            return
        self.dirty()
        if f & J.F_UNASK:
            self.drop(M.Ask)
        if f & J.F_SAVE:
            self.save()
        if f & J.F_OVER:
            self.set_base(M.Over())
            return
        if f & J.F_TURN and self.on_checkpoint is not None:
            g = self.game
            if g.placing() < 0 and not g.offered and not self.judge.repair:
                self.on_checkpoint(g, self._in_event)
        if f & J.F_UNPLACE:
            self.drop(M.Place)
        if f & J.F_PLACE and not self._has(M.Place):
            op = self.opponent
            self.push(op.place_mode() if op is not None and self.game.placing() == op.side
                      else M.Place())
        if f & J.F_ASK and not self._has(M.Ask):
            self.push(M.Ask(t))
        if f & J.F_BEEP:
            self.alert = 1

    # --- output ------------------------------------------------------------------------------
    def render(self, t, what=3):
        """Bring the LED frame (what & 1) and the OLED (what & 2) up to date. Returns 1 if
        the frame changed, 2 if the screen changed (or both). The device renders and writes
        the LEDs first, so lift-to-light does not wait for the screen."""
        if self._nq:
            self._flush()
        out = 0
        if self.led_dirty and what & 1:
            self.led_dirty = False
            self._render_leds(t)
            out |= 1
        if self.screen_dirty and what & 2:
            self.screen_dirty = False
            top = self.top
            if top is not None:
                font.begin()               # (its texts, for a computer watching)
                top.screen(self, self.fb)
            out |= 2
        return out

    def _render_leds(self, t):
        mean = self.meaning
        layer = None
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].layer:
                layer = self.stack[i]
                break
        if layer is None:
            mean[:] = ZEROS
        else:
            layer.leds(self, mean)
        self.phase = C.phase(t)
        self.animated = self.painter.paint(mean, self.frame, self.phase)
