# The board controller: sensor and button events in, an LED frame and OLED screens out.
# Hardware-free: main.py (device) and the simulator feed it events and show its output.
#
#   ctl = Controller(fb)                 fb: a 128x64 MONO_VLSB framebuf.FrameBuffer
#   ctl.start(occupied, saved_game)      first scan; a saved game (or None) to offer
#   ctl.on_square(sq, present, t_ms)     sensor event (debounced by the driver)
#   ctl.on_button(code, t_ms)            BTN_UP / BTN_DOWN / BTN_OK / BTN_BACK
#   ctl.tick(t_ms)                       timers: settle time, flashing, LED test
#   if ctl.render(t_ms, 1): leds.show(ctl.frame, ctl.brightness)   LEDs first
#   if ctl.render(t_ms, 2): oled.show()
# ctl.on_commit(game) is called after every committed action (to save the game),
# ctl.on_finish(game) once when a game ends (to append its record).
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x
from barragoon.core import TILE, BROWN_BIT, EMPTY
from barragoon.notation import square_name, face_name
from barragoon.game import Game, CLOSED, DRAW, side_name, start_position
from controller import colours as C
from controller import screens
from controller.play import PlayState, NONE
from drivers.ticks import ticks_add, ticks_diff

from drivers.buttons_const import BTN_UP, BTN_DOWN, BTN_OK, BTN_BACK  # noqa: F401

# Modes.
M_MENU = const(0)
M_SETUP = const(1)
M_PLAY = const(2)
M_PICK = const(3)
M_OVER = const(4)
M_SENSORS = const(5)
M_LEDTEST = const(6)
M_BRIGHT = const(7)
M_ASK = const(8)

# Menu actions.
A_RESUME = 0
A_NEW = 1
A_TAKEBACK = 2
A_DRAW = 3
A_REPEAT = 4
A_BRIGHT = 5
A_SENSORS = 6
A_LEDTEST = 7
A_CONTINUE = 8
A_VARIANT = 9
A_STAGE_W = 10
A_STAGE_B = 11

# Questions (M_ASK).
Q_DRAW = 0
Q_REPEAT = 1

_DARK = bytes(189)
TILE_NAMES = ("2-tile", "3-tile", "4-tile")
FLASH_MS = const(250)
ERROR_MS = const(2000)


def piece_text(code):
    if code & TILE:
        return side_name(1 if code & BROWN_BIT else 0) + " " + TILE_NAMES[(code & 7) - 2]
    return "Barragoon " + face_name(code)


class Controller:
    def __init__(self, fb, settle_ms=300, brightness=40):
        self.fb = fb
        self.settle_ms = settle_ms
        self.brightness = brightness
        self.frame = bytearray(189)
        self.sensed = bytearray(63)
        self.game = None
        self.play = None
        self.saved = None
        self.mode = M_MENU
        self.menu_title = ""
        self.menu_items = ()
        self.menu_actions = ()
        self.menu_sel = 0
        self.question = Q_DRAW
        self.face = 1
        self.variant = CLOSED
        self.stages = [0, 0]
        self.led_test = 0                  # LED test: 0-3 solid colours, 4 = walk
        self.led_t0 = 0
        self.led_walk = 0
        self.led_dirty = True
        self.screen_dirty = True
        self.phase = 0
        self.error_until = 0
        self.alert = 0                     # 1: something was refused (the buzzer beeps)
        self.on_commit = None
        self.on_finish = None
        self._finished = False

    # --- life cycle ------------------------------------------------------------------------
    def start(self, occupied=None, saved=None):
        if occupied is not None:
            self.sensed[:] = occupied
        self.saved = saved
        if saved is not None and not saved.over:
            self._menu("Saved game", ("Resume game", "New game"), (A_RESUME, A_NEW))
        else:
            self._new_game_menu()

    def _new_game_menu(self):
        self._menu("New game", ("Variant: " + ("open" if self.variant else "closed"),
                                "White express %d" % self.stages[0],
                                "Brown express %d" % self.stages[1],
                                "Set up board"),
                   (A_VARIANT, A_STAGE_W, A_STAGE_B, A_CONTINUE))

    def begin(self, game):
        self.game = game
        self.play = PlayState(game, self.sensed, self.settle_ms)
        self._finished = game.over
        self.mode = M_SETUP if not game.actions else M_PLAY
        if self.mode == M_SETUP:
            self._check_setup()
        self._dirty()

    # --- events ----------------------------------------------------------------------------
    def on_square(self, sq, present, t):
        if not 0 <= sq < 63:
            return
        present = 1 if present else 0
        if self.sensed[sq] == present:
            return                                 # repeated report: nothing changed
        self.sensed[sq] = present
        self._dirty()
        if self.mode == M_SETUP:
            self._check_setup()
        elif (self.mode == M_PLAY or self.mode == M_PICK) and self.play is not None:
            if present:
                self.play.drop(sq, t)
            else:
                self.play.lift(sq, t)
                if self.mode == M_PICK and self.play.place_sq < 0:
                    self.mode = M_PLAY             # the Barragoon was picked up again
            if self.play.error_sq >= 0:
                self.error_until = ticks_add(t, ERROR_MS)
            if self.play.warn:
                self.play.warn = 0
                self.alert = 1

    def on_button(self, code, t):
        self._dirty()
        mode = self.mode
        if mode == M_MENU:
            self._menu_button(code)
        elif mode == M_PICK:
            self._pick_button(code)
        elif mode == M_BRIGHT:
            if code in (BTN_UP, BTN_DOWN):
                b = self.brightness + (5 if code == BTN_UP else -5)
                self.brightness = 5 if b < 5 else (100 if b > 100 else b)
            else:
                self.mode = M_PLAY if self.game else M_MENU
        elif mode == M_ASK:
            self._ask_button(code)
        elif mode in (M_SENSORS, M_LEDTEST):
            if code in (BTN_OK, BTN_BACK):
                self._back_to_game()
            elif mode == M_LEDTEST:
                self._led_phase((self.led_test + (1 if code == BTN_DOWN else 4)) % 5, t)
        elif mode == M_OVER:
            if code == BTN_OK:
                self._new_game_menu()
            elif code == BTN_BACK:
                self._game_menu()
        elif code in (BTN_BACK, BTN_OK) and mode in (M_PLAY, M_SETUP):
            self._game_menu()

    def tick(self, t):
        phase = (t // FLASH_MS) & 1
        if phase != self.phase:
            self.phase = phase
            if self._flashing():
                self.led_dirty = True
        ps = self.play
        if ps is not None and ps.error_sq >= 0 and ticks_diff(t, self.error_until) >= 0 and \
                not self.sensed[ps.error_sq]:
            ps.error_sq = NONE
            self._dirty()
        if self.mode == M_LEDTEST:
            self._led_test_tick(t)
        if self.mode == M_PLAY and ps is not None:
            done = ps.tick(t)
            if done == 1:
                self._committed()
            elif done == 2:
                self.mode = M_PICK
                self.face = 1
                self._dirty()

    def _led_phase(self, phase, t):
        self.led_test = phase
        self.led_t0 = t
        self.led_walk = 0
        self._dirty()

    def _led_test_tick(self, t):
        # Each colour for a second on every LED (a dead channel shows), then one light walks
        # a1, b1, .. g9 in square order (a wrong LED_WIRING / LED_START / LED_RUNS shows).
        if self.led_t0 < 0:
            self.led_t0 = t
        el = ticks_diff(t, self.led_t0)
        if self.led_test < 4:
            if el >= 1000:
                self._led_phase(self.led_test + 1, t)
        elif el // 150 >= 63:
            self._led_phase(0, t)
        elif el // 150 != self.led_walk:
            self.led_walk = el // 150
            self._dirty()

    def _flashing(self):
        ps = self.play
        if self.mode == M_LEDTEST:
            return False
        return ps is not None and (ps.error_sq >= 0 or ps.touched >= 0 or
                                   ps.must_capture >= 0)

    def _dirty(self):
        self.led_dirty = True
        self.screen_dirty = True

    def _committed(self):
        g = self.game
        self._dirty()
        if self.on_commit is not None:
            self.on_commit(g)
        if g.over:
            self.mode = M_OVER
            if not self._finished:
                self._finished = True
                if self.on_finish is not None:
                    self.on_finish(g)
        elif g.offered:
            self._ask(Q_REPEAT)

    # --- menus -----------------------------------------------------------------------------
    def _menu(self, title, items, actions):
        self.mode = M_MENU
        self.menu_title = title
        self.menu_items = items
        self.menu_actions = actions
        self.menu_sel = 0
        self._dirty()

    def _game_menu(self):
        g = self.game
        items = ["Resume"]
        acts = [A_RESUME]
        if g is not None and not g.over:
            if g.actions:
                items.append("Take back turn")
                acts.append(A_TAKEBACK)
            items.append("Offer draw")
            acts.append(A_DRAW)
            if g.repetition and not g.pending:
                items.append("Repetition draw")
                acts.append(A_REPEAT)
        elif g is not None and g.actions:
            items.append("Take back turn")
            acts.append(A_TAKEBACK)
        items += ["Brightness", "Sensor test", "LED test", "New game"]
        acts += [A_BRIGHT, A_SENSORS, A_LEDTEST, A_NEW]
        self._menu("Menu", tuple(items), tuple(acts))

    def _menu_button(self, code):
        n = len(self.menu_items)
        if code == BTN_UP:
            self.menu_sel = (self.menu_sel - 1) % n
        elif code == BTN_DOWN:
            self.menu_sel = (self.menu_sel + 1) % n
        elif code == BTN_BACK:
            if self.game is not None:
                self._back_to_game()
        elif code == BTN_OK:
            self._do(self.menu_actions[self.menu_sel])

    def _do(self, act):
        g = self.game
        if act == A_RESUME:
            if g is None and self.saved is not None:
                self.begin(self.saved)
                self._committed_state()
            else:
                self._back_to_game()
        elif act == A_NEW:
            self._new_game_menu()
        elif act == A_VARIANT:
            self.variant ^= 1
            self._refresh_new_game(0)
        elif act in (A_STAGE_W, A_STAGE_B):
            side = 0 if act == A_STAGE_W else 1
            self.stages[side] = (self.stages[side] + 1) % 3
            self._refresh_new_game(1 + side)
        elif act == A_CONTINUE:
            self.begin(Game(start_position(self.variant), self.variant,
                            (self.stages[0], self.stages[1])))
        elif act == A_TAKEBACK:
            before = g.pos.key()
            g.undo_turn()
            self.play.reset_hands()
            self.play.mark_restore(before)
            self._finished = g.over
            if self.on_commit is not None:
                self.on_commit(g)
            self._back_to_game()
        elif act == A_DRAW:
            self._ask(Q_DRAW)
        elif act == A_REPEAT:
            g.offer_repetition_draw()
            if self.on_commit is not None:
                self.on_commit(g)
            self._ask(Q_REPEAT)
        elif act == A_BRIGHT:
            self.mode = M_BRIGHT
        elif act == A_SENSORS:
            self.mode = M_SENSORS
        elif act == A_LEDTEST:
            self.mode = M_LEDTEST
            self._led_phase(0, -1)             # the clock starts at the next tick

    def _refresh_new_game(self, sel):
        self._new_game_menu()
        self.menu_sel = sel

    def _committed_state(self):
        self._finished = self.game.over
        if self.game.over:
            self.mode = M_OVER
        elif self.game.offered:
            self._ask(Q_REPEAT)

    def _back_to_game(self):
        g = self.game
        if g is None:
            self.start(None, self.saved)
            return
        if g.over:
            self.mode = M_OVER
        elif g.offered:
            self._ask(Q_REPEAT)
        else:
            self.mode = M_PLAY
            if self.play.place_sq >= 0 and self.play.place_ready:
                self.mode = M_PICK
        self.play.refresh()
        self._dirty()

    def _ask(self, q):
        self.question = q
        self.mode = M_ASK
        self._dirty()

    def _ask_button(self, code):
        g = self.game
        if code not in (BTN_OK, BTN_BACK):
            return
        yes = code == BTN_OK
        if self.question == Q_REPEAT:
            g.answer_repetition_draw(yes)
        elif yes:
            g.agree_draw()
        if self.on_commit is not None and (yes or self.question == Q_REPEAT):
            self.on_commit(g)
        self._committed_state()
        if g.over and self.on_finish is not None:
            self.on_finish(g)
        if not g.over:
            self._back_to_game()

    def _pick_button(self, code):
        if code == BTN_UP:
            self.face = self.face - 1 if self.face > 1 else 16
        elif code == BTN_DOWN:
            self.face = self.face + 1 if self.face < 16 else 1
        elif code == BTN_OK:
            self.play.place(self.face)
            self.mode = M_PLAY
            self._committed()
        elif code == BTN_BACK:
            self._game_menu()

    # --- set-up ----------------------------------------------------------------------------
    def _setup_next(self):
        """(square to fix next, squares left). Extra pieces first, then tiles, then
        Barragoons, each in square order, so the players can follow one light."""
        pos = self.game.pos
        s = self.sensed
        first = NONE
        left = 0
        for sq in range(63):
            want = 1 if pos.get(sq) != EMPTY else 0
            if s[sq] != want:
                left += 1
                if s[sq] and first < 0:
                    first = sq
        if first < 0:
            for wanted in (TILE, 1):
                for sq in range(63):
                    c = pos.get(sq)
                    if c != EMPTY and not s[sq] and (c & TILE) == (wanted & TILE):
                        return sq, left
        return first, left

    def _check_setup(self):
        sq, left = self._setup_next()
        if left == 0:
            self.mode = M_PLAY
            self.play.refresh()
        self._dirty()

    # --- output ----------------------------------------------------------------------------
    def render(self, t, what=3):
        """Bring the LED frame (what & 1) and the OLED (what & 2) up to date. Returns 1 if
        the frame changed, 2 if the screen changed (or both). The device renders and writes
        the LEDs first, so lift-to-light does not wait for the screen."""
        out = 0
        if self.led_dirty and what & 1:
            self.led_dirty = False
            self._render_leds()
            out |= 1
        if self.screen_dirty and what & 2:
            self.screen_dirty = False
            self._render_screen()
            out |= 2
        return out

    def _set(self, sq, colour):
        i = sq * 3
        self.frame[i:i + 3] = colour

    def _render_leds(self):
        self.frame[:] = _DARK
        mode = self.mode
        if mode == M_LEDTEST:
            if self.led_test < 4:
                col = C.TEST_CYCLE[self.led_test]
                for sq in range(63):
                    self._set(sq, col)
            else:
                self._set(self.led_walk, C.PLACE)
        elif mode == M_SENSORS:
            for sq in range(63):
                if self.sensed[sq]:
                    self._set(sq, C.SENSED)
        elif self.game is None:
            return
        elif mode == M_SETUP:
            self._leds_setup()
        elif mode == M_OVER:
            self._leds_over()
        else:
            self._leds_play()

    def _leds_setup(self):
        nxt, left = self._setup_next()
        pos = self.game.pos
        for sq in range(63):
            want = 1 if pos.get(sq) != EMPTY else 0
            if self.sensed[sq] != want:
                if self.sensed[sq]:
                    self._set(sq, C.TO_EMPTY)
                else:
                    self._set(sq, C.PLACE if sq == nxt else C.HINT)

    def _leds_over(self):
        g = self.game
        for sq in range(63):
            c = g.pos.get(sq)
            if c & TILE:
                if g.winner == DRAW:
                    self._set(sq, C.DRAW)
                else:
                    side = 1 if c & BROWN_BIT else 0
                    self._set(sq, C.WIN if side == g.winner else C.LOSE)

    def _leds_play(self):
        ps = self.play
        on = self.phase == 0
        if ps.held >= 0:
            self._set(ps.held, C.ORIGIN)
            allowed, frame, target = ps.allowed, self.frame, C.TARGET
            for sq in range(63):
                k = allowed[sq]
                if k:
                    frame[sq * 3:sq * 3 + 3] = target[k]
        elif ps.touched >= 0 and on:
            self._set(ps.touched, C.ORIGIN)
        if ps.victim >= 0:
            self._set(ps.victim, self._capture_colour(ps.victim))
            caps = ps.capturers
            for sq in range(63):
                if caps[sq]:
                    self._set(sq, C.CAPTURER)
        elif ps.must_capture >= 0 and on:
            self._set(ps.must_capture, self._capture_colour(ps.must_capture))
        if ps.drop_sq >= 0:
            self._set(ps.drop_sq, C.TARGET[ps.allowed[ps.drop_sq] or 1])
        if ps.place_sq >= 0:
            self._set(ps.place_sq, C.PLACE)
        s = self.sensed                    # (one name per line: a 4-tuple would allocate)
        e = ps.expect
        r = ps.restore
        frame = self.frame
        err = ps.error_sq
        for sq in range(63):
            if (s[sq] != e[sq] or r[sq]) and sq != err:
                frame[sq * 3:sq * 3 + 3] = C.TO_EMPTY if s[sq] else C.TO_FILL
        if ps.error_sq >= 0:
            self._set(ps.error_sq, C.ERROR if on else C.OFF)

    def _capture_colour(self, sq):
        c = self.game.pos.get(sq)
        return C.CAPTURE_TILE if c & TILE else C.CAPTURE_BARRAGOON

    def _render_screen(self):
        fb = self.fb
        mode = self.mode
        g = self.game
        if mode == M_MENU:
            screens.menu(fb, self.menu_title, self.menu_items, self.menu_sel)
        elif mode == M_SETUP:
            sq, left = self._setup_next()
            if sq >= 0 and self.sensed[sq]:
                screens.setup(fb, "Remove piece", square_name(sq), left)
            elif sq >= 0:
                screens.setup(fb, piece_text(g.pos.get(sq)), square_name(sq), left)
        elif mode == M_PICK:
            screens.face_picker(fb, side_name(g.placing()), square_name(self.play.place_sq),
                                self.face)
        elif mode == M_OVER:
            who = "Draw" if g.winner == DRAW else side_name(g.winner) + " wins"
            screens.game_over(fb, who, g.reason)
        elif mode == M_SENSORS:
            screens.sensor_grid(fb, self.sensed)
        elif mode == M_LEDTEST:
            if self.led_test < 4:
                what = ("Red", "Green", "Blue", "White")[self.led_test] + " on all"
            else:
                what = "Walk: " + square_name(self.led_walk)
            screens.message(fb, "LED test", what, "UP/DN: next", "OK: back")
        elif mode == M_BRIGHT:
            screens.message(fb, "Brightness", "%d %%" % self.brightness, "UP/DN: change",
                            "OK: done")
        elif mode == M_ASK:
            self._screen_ask()
        else:
            self._screen_play()

    def _screen_ask(self):
        g = self.game
        asker = side_name(1 - g.pos.side)
        answerer = side_name(g.pos.side)
        if self.question == Q_REPEAT:
            screens.message(self.fb, "Repetition", asker + " offers", "a draw. " + answerer +
                            ":", "OK accept", "BACK decline")
        else:
            screens.message(self.fb, "Draw offer", "Opponent:", "accept a draw?",
                            "OK yes", "BACK no")

    def _screen_play(self):
        g = self.game
        ps = self.play
        fb = self.fb
        if ps.idle() and ps.mismatches():
            sq = self._first_to_fill()
            if sq >= 0:
                screens.message(fb, "Fix the board", "Put back on " + square_name(sq) + ":",
                                piece_text(g.pos.get(sq)), ps.note)
            else:
                screens.message(fb, "Fix the board", "Take off the", "magenta pieces",
                                ps.note)
            return
        placer = g.placing()
        if placer >= 0 and ps.place_sq < 0:
            screens.message(fb, "Place Barragoon", side_name(placer) + ":",
                            "set it on an", "empty square", ps.note)
            return
        last = g.last_turn_text()
        note = ps.note
        if not note and g.repetition and not g.pending:
            note = "Repeat: menu"
        screens.play(fb, side_name(g.pos.side), g.stages, g.pos.supply, last, note)

    def _first_to_fill(self):
        ps = self.play
        for sq in range(63):
            if (ps.expect[sq] or ps.restore[sq]) and not self.sensed[sq]:
                return sq
        return NONE
