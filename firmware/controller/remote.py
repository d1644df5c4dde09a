# One side of the game played on a computer (controller/protocol.py's commands): the board shows
# each of that side's actions with its lights, as it shows its own engine's (controller/
# opponent.py), and its player carries them out; nothing moves on the board by itself.
#
# The board's player lets a side be played remotely: the command `remote b` asks on the screen
# (hold OK accepts), and the game then carries the tag [Opponent "Brown remote"] (saved: a
# power cut resumes it). The game menu's "<side>: play here" takes the side back; so does the
# command `remote -`.
#
# Every command is checked here against the game in play, and refused with its reason (for
# the listener, in English): only the remote side's own legal action in its own turn, with the
# number of actions the listener holds (a stale number means a replayed or crossed message).
from barragoon.core import RulesError
from barragoon.notation import parse_move, parse_placement
from controller import modes as M
from controller import opponent as O
from controller import screens
from controller.i18n import t as _t
from drivers.buttons_const import BTN_BACK

SIDES = ("w", "b")
TAG = "remote"                 # the level word of the opponent tag: [Opponent "Brown remote"]
TAKEBACK = 2                   # protocol.ASKS: a take-back request
CONSENT = 3                    # ... a side to be played remotely


def tag(side):
    return "%s %s" % ("Brown" if side else "White", TAG)


class Plan:
    """The remote side's action, as the engine's Turn shows one (controller/opponent.py)."""

    def __init__(self, side, move, capture, place, text):
        self.side = side
        self.move = move               # (frm, to) or None
        self.capture = capture
        self.places = [place] if place is not None else []   # [(side, sq, face)]
        self.now = 1
        self.text = text
        self.draw_ok = False
        self.offer_draw = False


class Remote(O.Opponent):
    remote = True

    def __init__(self, side):
        O.Opponent.__init__(self, side, 0)
        self.serial = 0                # one more for every action submitted (protocol: plan)
        self.offer = -1                # the board's player offered a draw: 0, repetition 1
        self.offer_n = 0               # ... when the record had this many actions

    def tick(self, ctl, t):
        # No thinking: the board waits for the command. An offer of the board's player lapses
        # with the next action (a repetition offer is answered in the game itself).
        g = ctl.game
        if self.offer == 0 and (g is None or g.over or len(g.actions) != self.offer_n):
            self.offer = -1
        elif self.offer == 1 and (g is None or not g.offered):
            self.offer = -1

    def stop(self):
        pass

    def shown(self, ctl):
        """The serial of the action the board shows its player, or -1."""
        g = ctl.game
        if g is None or not self.due(ctl) or self.step(g) < 0:
            return -1
        return self.serial

    def submit(self, ctl, move, capture, place, text, t):
        g = ctl.game
        self.plan = Plan(self.side, move, capture, place, text)
        self.base = len(g.actions)
        self.last = g.actions[self.base - 1] if self.base else -1
        self.serial += 1
        ctl.flags(ctl.judge.relimit(), t)
        ctl.dirty()

    def answer(self, ctl, repetition):
        """The board's player offers a draw: the computer's player answers (`answer`)."""
        self.offer = 1 if repetition else 0
        self.offer_n = len(ctl.game.actions)
        ctl.hint = _t("Offer sent")
        ctl.dirty()

    def name(self):
        return _t("Remote: %s") % screens.side_word(self.side)

    def _waiting(self):
        return _t("Waiting for"), _t("its turn")


class Question(M.Mode):
    """A request from the computer: hold OK accepts, a short press declines."""
    ask = -1

    def __init__(self, kind, side):
        self.kind = kind
        self.side = side
        self.ask = kind << 2 | side

    def on_button(self, ctl, code, t):
        ctl.pop(self)
        if code != BTN_BACK:
            ctl.hint = _t("Declined")
            return
        g = ctl.game
        if g is None or g.over or not ctl.playing():
            return
        if self.kind == CONSENT:
            if ctl.opponent is None:
                g.opponent = tag(self.side)
                ctl.set_opponent(Remote(self.side))
                ctl.save()
        else:
            op = ctl.opponent
            if op is not None and getattr(op, "remote", False) and _has_turn(g, op.side):
                ctl.take_back(op.side)

    def screen(self, ctl, fb):
        side = screens.side_word(self.side)
        if self.kind == CONSENT:
            screens.message(fb, _t("Remote play"), _t("Play %s on") % side,
                            _t("a computer?"), _t("hold OK: accept"), _t("press OK: no"))
        else:
            screens.message(fb, _t("Take back"), _t("%s asks") % side,
                            _t("to take back."), _t("hold OK: accept"), _t("press OK: no"))


def _has_turn(g, side):
    # side has made a turn in this game (one it could take back)
    from barragoon.game import action_move
    mover = g.start.side
    for a in g.actions:
        if action_move(a) >= 0:
            if mover == side:
                return True
            mover ^= 1
    return False


def remote_of(ctl):
    op = ctl.opponent
    return op if op is not None and getattr(op, "remote", False) else None


# --- the commands ---------------------------------------------------------------------------------
def command(ctl, words, t):
    """Do a listener's command (protocol.py); '' when done, else why not (English)."""
    w = words[0]
    g = ctl.game
    if w == "remote":
        return _remote(ctl, words)
    if w not in ("play", "takeback", "draw", "answer", "resign"):
        return "unknown command (see controller/protocol.py)"
    need = 3 if w in ("play", "answer") else 2
    if len(words) != need or not words[1].isdigit():
        return "write: %s K%s" % (w, " TOKEN" if w == "play" else " yes|no"
                                  if w == "answer" else "")
    op = remote_of(ctl)
    if op is None:
        return "no side of this game is played remotely"
    if g is None or g.over or not ctl.playing():
        return "no game in play"
    if int(words[1]) != len(g.actions):
        return "out of date: the record has %d actions" % len(g.actions)
    if ctl.judge.repair:
        return "wait: the board is being put right"
    if w == "play":
        return _play(ctl, op, g, words[2], t)
    if w == "answer":
        if op.offer < 0:
            return "no draw offer to answer"
        if words[2] not in ("yes", "no"):
            return "answer yes or no"
        accept = words[2] == "yes"
        rep = op.offer == 1
        op.offer = -1
        if rep or accept:
            M.Offer(rep).answer(ctl, accept, t)
        if not ctl.hint:
            ctl.hint = _t("Remote: draw") if accept else _t("Remote: no draw")
        return ""
    if ctl.top is not ctl.stack[0] and not isinstance(ctl.top, M.Place):
        return "wait: the board's player is busy (a menu or a question)"
    if w == "takeback":
        if not _has_turn(g, op.side):
            return "no turn of yours to take back"
        ctl.push(Question(TAKEBACK, op.side))
        return ""
    if w == "draw":
        if g.offered or g.placing() >= 0:
            return "offer a draw before a move, not during placements or an offer"
        ctl.push(M.Offer(False, op.side))
        return ""
    if g.turn != op.side:                 # resign
        return "resign in your own turn"
    try:
        g.resign()
    except RulesError as e:
        return str(e)
    ctl.judge.stop()
    ctl.save()
    ctl.set_base(M.Over())
    return ""


def _remote(ctl, words):
    g = ctl.game
    if len(words) != 2 or words[1] not in ("w", "b", "-"):
        return "write: remote w, remote b or remote -"
    op = remote_of(ctl)
    if words[1] == "-":
        if op is not None:
            g.opponent = ""
            ctl.set_opponent(None)
            ctl.save()
        return ""
    side = SIDES.index(words[1])
    if op is not None:
        return "" if op.side == side else "the other side is played remotely"
    if ctl.opponent is not None:
        return "the board itself plays this game"
    if g is None or g.over or not ctl.playing() or ctl.top is not ctl.stack[0]:
        return "no game in play (or the board's player is busy)"
    ctl.push(Question(CONSENT, side))
    return ""


def _play(ctl, op, g, text, t):
    if g.turn != op.side:
        return "not your turn"
    if op.shown(ctl) >= 0:
        return "the board's player is carrying out your last action"
    if g.offered:
        return "answer the draw offer first"
    try:
        if "=" in text:
            sq, face = parse_placement(text)
            if g.placing() != op.side:
                return "no placement due now: move"
            if not g.placement_allowed(sq, face):
                return "%s is not allowed" % text
            op.submit(ctl, None, False, (op.side, sq, face), text, t)
            return ""
        frm, to, capture = parse_move(text)
    except RulesError as e:
        return str(e)
    if g.placing() >= 0:
        return "a placement is due: place"
    if frm * 64 + to not in g.legal_moves():
        return "%s is not a legal move" % text
    if capture != (g.pos.get(to) != 0):
        return "write %s%s%s" % (text[:2], "-x"[g.pos.get(to) != 0], text[3:])
    op.submit(ctl, (frm, to), capture, None, text, t)
    return ""
