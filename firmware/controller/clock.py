# The game clock (optional per game): time per player with an increment, like a chess clock.
# Pure: it is told the loop's ticks (wrapping ms, compared with ticks_diff) and looks at the
# game; the controller draws it, saves it and ends the game when a time runs out.
#
#   ck = Clock(minutes * 60000, increment_ms)   both players start with the same time
#   ck.sync(game)              follow this game from its present turn on (new game, resume)
#   ck.tick(t, game, live)     every loop step: follow the game, charge the running side's
#                              time while live (in play) and not paused; True when what the
#                              screen shows changed. Allocation-free.
#   ck.ms(side)                remaining ms of White (0) or Brown (1)
#   ck.flag                    side whose time ran out, or -1
#   ck.pause(why) / ck.resume()    PAUSED by the players, POWER after a power cut
#   ck.take_back(game)         after a take-back: the times at the start of that turn
#   ck.tag() / from_tag(text)  the save: "<white ms> <brown ms> <increment ms> <w|b>"
#
# Whose clock runs: the side whose action is awaited (game.turn). That is the side to move for
# its whole turn, its own placement after a capture included, so the clock passes to the
# opponent when the turn is committed: a plain move as soon as the judge commits it, a capture
# once its last placement is confirmed. The mover then gets the increment. The one exception:
# after a tile capture the captured side places a Barragoon first, a decision of its own, so
# its clock runs meanwhile (it would otherwise spend the capturer's time), then the mover's
# again for the mover's placement. If the judge takes the move back (the mover lifts the piece
# again within the reopen window), the switch is undone and the mover is charged for the time
# the opponent's clock ran meanwhile: reopening a move gains no time.
#
# Times are small ints (30 minutes = 1.8e6 ms, far below 2**30) in a list, so charging time
# allocates nothing, and a step that changes nothing on the screen does no more than compare
# its ticks with the next display change. hist keeps, per turn since the clock began following,
# the mover's time at the start of that turn (4 bytes a turn), so a take-back gives both
# players their times back.
from array import array

from barragoon.game import action_move
from controller.ticks import ticks_diff

MINUTES = (0, 5, 10, 15, 30)       # the New game choices; 0: no clock
INCREMENTS = (0, 2, 5, 10)         # seconds added to the mover after each turn

RUNNING = 0
PAUSED = 1                         # the players paused it (menu)
POWER = 2                          # resumed after the board was off: it cannot know how long


def turns_done(game):
    """Completed turns of game: its moves, less the one whose placements are still due."""
    n = 0
    for a in game.actions:
        if action_move(a) >= 0:
            n += 1
    return n - 1 if game.pending else n


class Clock:
    def __init__(self, ms, increment_ms):
        self.rem = [ms, ms]            # remaining ms of White and Brown, as of t
        self.inc = increment_ms
        self.state = RUNNING
        self.flag = -1
        self.t = -1                    # ticks up to which rem is charged (-1: none yet)
        self.now = -1                  # ticks of the last step
        self.live = False              # in play (the controller says, every step)
        self.on = False                # time is being charged: live, RUNNING, no flag
        self.due = 0                   # ticks of the next display change (when charging)
        self.redraw = True             # what the screen shows changed
        self.side = 0                  # whose clock runs (when it runs): game.turn
        self.mover = 0                 # the side to move: game.pos.side
        self.nact = 0                  # len(game.actions) when last followed
        self.base = 0                  # the turn hist[0] belongs to
        self.hist = array("i")
        self.sw = False                # the last switch can be undone (see follow)
        self.sw_x = self.sw_y = 0      # ... the times before it (no increment) of the side
        self.sw_hist = False           # whose clock ran and the other; it completed a turn

    def sync(self, game):
        self.side = game.turn
        self.mover = game.pos.side
        self.nact = len(game.actions)
        self.base = turns_done(game)
        self.hist = array("i", (self.rem[self.mover],))
        self.sw = False
        self.flag = -1
        self.redraw = True
        self._switch()

    @property
    def running(self):
        return self.state == RUNNING

    def _switch(self):
        # (after live, state or flag changed; charge up to now before changing them)
        self.on = self.live and self.state == RUNNING and self.flag < 0

    def ms(self, side):
        """Remaining ms of side (0 White, 1 Brown) as of the last step."""
        r = self.rem[side]
        if side == self.side and self.t >= 0 and self.on:
            r -= ticks_diff(self.now, self.t)
        return r if r > 0 else 0

    def set_ms(self, side, ms):
        """Set a remaining time (tests, tools)."""
        self._charge()
        self.rem[side] = ms
        self._plan()
        self.redraw = True

    def pause(self, why=PAUSED):
        self._charge()
        self.state = why
        self._switch()
        self.redraw = True

    def resume(self):
        """Run again from the last step on (the paused time is nobody's)."""
        self._charge()
        self.state = RUNNING
        self._switch()
        self._plan()
        self.redraw = True

    # --- time --------------------------------------------------------------------------------
    # Time is charged lazily: rem holds the times as of self.t; a step only compares its ticks
    # with `due`, the moment the running side's display next changes (a second, a tenth below
    # 10 s, or zero), and charges then, and before anything that changes the clock.
    def _charge(self):
        now = self.now
        if self.t >= 0 and self.on:
            el = ticks_diff(now, self.t)
            if el > 0:
                s = self.side
                r = self.rem[s] - el
                self.rem[s] = r if r > 0 else 0
        self.t = now

    def _plan(self):
        r = self.rem[self.side]
        self.due = self.t + (r % 100 + 1 if r < 10000 else r % 1000 + 1)

    def tick(self, t, game, live):
        """Every loop step: follow the game (a committed turn switches the clock), charge the
        time while live (in play) and not paused. True when the screen should be redrawn."""
        self.now = t
        if len(game.actions) != self.nact:     # (the side to move changes only with them)
            self.follow(game)
        if live != self.live:
            self._charge()             # (up to now with the old state)
            self.live = live
            self._switch()
            self._plan()
        if self.on and ticks_diff(t, self.due) >= 0:
            self._charge()
            if self.rem[self.side] == 0 and not game.over:
                self.flag = self.side
                self._switch()
            else:
                self._plan()
            self.redraw = True
        if self.redraw:
            self.redraw = False
            return True
        return False

    def follow(self, game):
        """Follow the game: the clock of the side whose action is awaited runs; a completed
        turn (the side to move changed, with more actions) gives the mover the increment; an
        action taken back by the judge (fewer actions) undoes the last switch."""
        n = len(game.actions)
        more = n > self.nact
        self.nact = n
        s = game.turn
        m = game.pos.side
        if s == self.side and m == self.mover:
            return
        self._charge()
        x = self.side                  # whose clock ran
        rem = self.rem
        if more:
            self.sw = s != x
            self.sw_x = rem[x]
            self.sw_y = rem[s]
            self.sw_hist = m != self.mover
            if m != self.mover:        # the turn is complete, placements included
                rem[self.mover] += self.inc
                self.hist.append(rem[m])
        elif self.sw and s != x:
            # The judge took the action back (the mover reopened the move): the other side
            # gets back what ran on their clock since the switch, and the mover is charged
            # for it (without the increment).
            used = self.sw_y - rem[x]
            rem[x] = self.sw_y
            r = self.sw_x - used
            rem[s] = r if r > 0 else 0
            self.sw = False
            if self.sw_hist and len(self.hist) > 1:
                self.hist = self.hist[:-1]
        self.side = s
        self.mover = m
        self._plan()
        self.redraw = True

    def take_back(self, game):
        """The players took back to the start of a turn: both get the times they had then
        (kept since the clock began following this game; before that, the times stay)."""
        i = turns_done(game) - self.base
        h = self.hist
        s = game.pos.side
        if 0 <= i < len(h):
            self.rem[s] = h[i]
            if i + 1 < len(h):
                self.rem[1 - s] = h[i + 1]
                self.hist = h[:i + 1]
        self.side = game.turn
        self.mover = s
        self.nact = len(game.actions)
        self.sw = False
        self.flag = -1
        self.t = self.now
        self._plan()
        self.redraw = True
        if self.rem[s] == 0:
            self.state = PAUSED        # no time to give back: the players decide
        self._switch()

    # --- the save -----------------------------------------------------------------------------
    def tag(self):
        self._charge()
        return "%d %d %d %s" % (self.rem[0], self.rem[1], self.inc, "wb"[self.side])


def from_tag(text):
    """The clock saved as tag() text, paused (POWER): the board cannot know how long it was
    off. None if the text is not a clock."""
    f = text.split()
    if len(f) != 4 or f[3] not in ("w", "b"):
        return None
    for v in f[:3]:
        if not v.isdigit() or len(v) > 8:
            return None
    ck = Clock(0, int(f[2]))
    ck.rem[0] = int(f[0])
    ck.rem[1] = int(f[1])
    ck.side = 0 if f[3] == "w" else 1
    ck.state = POWER
    return ck


def from_choice(minutes, increment):
    """A new game's clock from indexes into MINUTES and INCREMENTS, or None (no clock)."""
    m = MINUTES[minutes % len(MINUTES)]
    if not m:
        return None
    return Clock(m * 60000, INCREMENTS[increment % len(INCREMENTS)] * 1000)


def minutes_text(minutes):
    """'off' or '10 min' for the New game menu (minutes: an index into MINUTES)."""
    m = MINUTES[minutes % len(MINUTES)]
    return "%d min" % m if m else "off"


def time_text(ms):
    """'12:05', '0:59', '9.4' (tenths below 10 s): what the play screen shows."""
    if ms < 10000:
        return "%d.%d" % (ms // 1000, ms // 100 % 10)
    s = ms // 1000
    return "%d:%02d" % (s // 60, s % 60)
