# What the LEDs and the screen show of the live board (used by controller/judge.py): from the
# likeliest story, the tile being moved with its targets, a victim with the tiles that can take
# it, pieces to put back or take off, touch-move duties, an error at rest, and the note for the
# screen (note, note_sq). Allocation-free: only the squares with events this turn are scanned.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from barragoon.core import ZEROS
from controller import colours as C
from controller.stories import NEW, NOHOME, own, is_tile, is_barragoon

# What the screen should say (note, note_sq).
N_NONE = const(0)
N_OUT_OF_TURN = const(1)  # a piece of the side not to move was lifted
N_MUST_MOVE = const(2)
N_MUST_TAKE = const(3)
N_CANT_MOVE = const(4)    # the lifted tile has no legal move: it may go back
N_PUT_BACK = const(5)
N_TAKE_OFF = const(6)
N_WRONG = const(7)        # a wrong piece stands here: lift it
N_NOT_TARGET = const(8)   # the moved tile rests where it cannot go
N_PLACE = const(9)        # a Barragoon placement is due
N_REFUSED = const(10)     # the rules refused (text in refused)
N_CAPTURE = const(11)     # a piece lifted that can be captured: capture it or put it back
N_PLACE_FIRST = const(12) # a tile lifted while a placement is due
N_SETTLING = const(13)    # a move is on the board, waiting for the settle time


class View:
    """LED meanings (mean) and the screen's note for the open turn (turn: stories.Turn,
    tm: touchmove.TouchMove)."""

    def __init__(self, turn, tm):
        self.turn = turn
        self.tm = tm
        self.mean = bytearray(63)          # LED meanings of the live board
        self.note = N_NONE
        self.note_sq = -1
        self.refused = ""
        self.tgt = bytearray(63)           # targets of the tile shown as lifted
        self.tgt_sq = bytearray(63)        # ... as a list
        self.tgt_n = 0
        self.tgt_for = -1
        self.caps = bytearray(63)          # own tiles that can capture caps_for
        self.caps_for = -1
        self.mv = -1                       # home square of the tile shown as lifted
        self.mv_at = -1                    # ... and where it stands, if set down in transit
        self.cf = self.ct = -1             # the committed move's squares, as shown
        self._pad0 = self._pad1 = 0        # (room: see Judge's _pad0)

    def forget(self):
        """The turn's moves or duties changed: no cached targets."""
        self.tgt_for = self.caps_for = -1

    def clear(self):
        self.mean[:] = ZEROS
        self.note = N_NONE
        self.note_sq = -1

    def _targets(self, frm):
        # The legal targets of frm (from the turn-start move list: no move generation here)
        # as meanings; cached per square.
        if self.tm.changed:
            self.tm.changed = False
            self.tgt_for = -1
        if self.tgt_for == frm:
            return
        t = self.tgt
        t[:] = ZEROS
        take = self.tm.take
        b0 = self.turn.b0
        moves = self.turn.moves
        n = 0
        i = self.turn.movable[frm]         # (1 + the first of frm's moves: they are sorted)
        i = i - 1 if 0 < i < 255 else 0
        while i < len(moves):
            m = moves[i]
            i += 1
            if m >> 6 != frm:
                if m >> 6 > frm:
                    break
                continue
            to = m & 63
            if take >= 0 and to != take:
                continue
            c = b0[to]
            t[to] = C.MOVE if not c else (C.TAKE_TILE if is_tile(c) else C.TAKE_BARRAGOON)
            self.tgt_sq[n] = to
            n += 1
        self.tgt_n = n
        self.tgt_for = frm

    def _capturers(self, v):
        if self.caps_for == v:
            return
        c = self.caps
        c[:] = ZEROS
        moves = self.turn.moves
        for i in range(len(moves)):
            m = moves[i]
            if m & 63 == v:
                c[m >> 6] = 1
        self.caps_for = v

    def live(self, h, cm, err_sq, sensed, placing, victim=-1, nmoves=None):
        """Meanings for the LEDs and the note for the screen, from story h. cm: the move
        committed in the open turn (-1 none); err_sq: a piece resting on a wrong square (-1);
        placing: a placement is due; victim: cm's tile, lifted again, shown as the opponent's
        victim with the tiles that can take it (nmoves: the opponent's legal moves)."""
        if victim >= 0 and nmoves is not None:
            self._victim(victim, cm, nmoves, sensed)
            return
        self.mean[:] = ZEROS
        self.note = N_NONE if self.note != N_REFUSED else N_REFUSED
        self.note_sq = -1
        cm = self._committed(h, cm)
        self._moving(h, placing, cm)
        self._differences(h, placing, cm, sensed)
        if cm < 0 and not placing and self.tm.bound():
            self._duties(h)
        if err_sq >= 0:
            self._error(err_sq)
        at = self.mv_at
        if placing and self.note == N_NONE:
            self._say(N_PLACE, -1)
        elif self.note == N_NONE and cm < 0 and self.mv >= 0 and at >= 0 and self.tgt[at]:
            self._say(N_SETTLING, at)

    def _committed(self, h, cm):
        """The committed move cm as the board shows it (cf, ct its squares), or -1 when story
        h has its tile lifted again (the move is open again)."""
        self.cf = self.ct = -1
        if cm >= 0:
            cf = cm >> 6
            for k in range(h.n):
                if h.ah[k] == cf and own(h.ac[k], self.turn.side):
                    return -1
            self.cf, self.ct = cf, cm & 63
        return cm

    def _moving(self, h, placing, cm):
        """The tile being moved (mv: its home), in a hand or set down away from its square
        (mv_at: where): its square and targets lit."""
        tn, tm = self.turn, self.tm
        b0, bd = tn.b0, h.board
        side = tn.side
        duties = tm.any
        mv = at = -1
        if not placing and cm < 0:
            for k in range(h.n):
                hm = h.ah[k]
                if hm != NOHOME and own(h.ac[k], side) and (not duties or tm.duty[hm]):
                    mv = hm
            if mv < 0:
                seen = tn.seen_sq
                for i in range(tn.seen_n):
                    sq = seen[i]
                    hm = h.home[sq]
                    if hm != sq and hm != NOHOME and bd[sq] != b0[sq] and \
                            own(bd[sq], side) and (not duties or tm.duty[hm]):
                        mv, at = hm, sq
        self.mv, self.mv_at = mv, at
        if mv < 0:
            return
        m = self.mean
        self._targets(mv)
        t = self.tgt
        ts = self.tgt_sq
        for i in range(self.tgt_n):
            m[ts[i]] = t[ts[i]]
        m[mv] = C.ORIGIN
        if at >= 0 and not t[at]:
            m[at] = C.OFF                # in transit: no alarm until it rests
        if not tn.movable[mv]:
            self._say(N_CANT_MOVE, mv)

    def _differences(self, h, placing, cm, sensed):
        # Every other difference from the position the board should show (only squares
        # with events in this turn can differ).
        tn, m = self.turn, self.mean
        b0, bd = tn.b0, h.board
        cf = self.cf                       # (one at a time: unpacking four builds a tuple)
        ct = self.ct
        mv = self.mv
        at = self.mv_at
        seen = tn.seen_sq
        for i in range(tn.seen_n):
            sq = seen[i]
            want = b0[sq]
            if sq == cf:
                want = 0
            elif sq == ct:
                want = b0[cf]
            have = bd[sq]
            if have == want or sq == at or sq == mv or m[sq]:
                continue
            if have == 0:
                self._missing(sq, want, mv, placing, cm, sensed)
            elif want == 0 and placing and (have == NEW or is_barragoon(have)):
                m[sq] = C.PLACE
            elif want == 0:
                m[sq] = C.TO_EMPTY
                if own(have, 1 - tn.side) and not placing:
                    self._say(N_OUT_OF_TURN, sq)
                else:
                    self._say(N_TAKE_OFF, sq)
            else:
                m[sq] = C.TO_EMPTY
                self._say(N_WRONG, sq)

    def _duties(self, h):
        # Touch-move duties on the board: the tile that must move, the piece it must take.
        tm, m = self.tm, self.mean
        bd, b0 = h.board, self.turn.b0
        for sq in range(63):
            if tm.duty[sq] and bd[sq] == b0[sq] and not m[sq]:
                m[sq] = C.DUTY
                self._say(N_MUST_MOVE, sq)
        v = tm.take
        if v >= 0 and bd[v] == b0[v] and not m[v]:
            m[v] = C.DUTY_TAKE
            self._say(N_MUST_TAKE, v)

    def _error(self, err_sq):
        # A piece resting on a wrong square flashes; the note says why (a duty first).
        tm = self.tm
        mv = self.mv
        self.mean[err_sq] = C.ERROR
        if tm.take >= 0 and err_sq != tm.take:
            self._say(N_MUST_TAKE, tm.take, True)
        elif mv >= 0 and tm.duty[mv] and err_sq != self.mv_at:
            self._say(N_MUST_MOVE, mv, True)
        elif mv < 0 and tm.any:
            # another tile's legal move, refused: the reason is the tile that must move
            for d in range(63):
                if tm.duty[d]:
                    self._say(N_MUST_MOVE, d, True)
                    break
        else:
            self._say(N_NOT_TARGET, err_sq, True)

    def _victim(self, v, cm, nmoves, sensed):
        m = self.mean
        m[:] = ZEROS
        self.note = N_NONE
        self.note_sq = -1
        self.mv = self.mv_at = -1
        m[v] = C.TAKE_TILE if is_tile(self.turn.b0[cm >> 6]) else C.TAKE_BARRAGOON
        for i in range(len(nmoves)):
            o = nmoves[i] >> 6
            if nmoves[i] & 63 == v and not m[o] and sensed[o]:
                m[o] = C.CAPTURER
        self._say(N_CAPTURE, v)

    def _missing(self, sq, want, mv, placing, cm, sensed):
        m = self.mean
        tn, tm = self.turn, self.tm
        side = tn.side
        if not placing and cm < 0 and mv < 0 and not own(want, side) and \
                tm.capturable(sq) and (tm.take < 0 or tm.take == sq):
            # a piece the mover could capture: show it and the tiles that can take it
            self._capturers(sq)
            m[sq] = C.TAKE_TILE if is_tile(want) else C.TAKE_BARRAGOON
            for o in range(63):
                if self.caps[o] and not m[o] and sensed[o]:
                    m[o] = C.CAPTURER
            self._say(N_CAPTURE, sq)
            return
        m[sq] = C.TO_FILL
        if own(want, 1 - side) and not placing:
            self._say(N_OUT_OF_TURN, sq)
        elif placing and is_tile(want) and cm < 0:
            self._say(N_PLACE_FIRST, sq)
        elif own(want, side) and not placing and cm < 0 and mv < 0 and \
                tm.any and not tm.duty[sq]:
            for d in range(63):            # why it must go back: another tile must move
                if tm.duty[d]:
                    self._say(N_MUST_MOVE, d)
                    break
        else:
            self._say(N_PUT_BACK, sq)

    def _say(self, note, sq, force=False):
        # The first (most important) note of a refresh wins unless forced.
        if force or self.note == N_NONE or self.note == N_REFUSED and note != N_NONE:
            self.note = note
            self.note_sq = sq

    def repair(self, restore, sensed):
        """The board is guided back to the turn's start: squares to fill, pieces to lift."""
        m = self.mean
        m[:] = ZEROS
        self.note = N_NONE
        self.note_sq = -1
        b0 = self.turn.b0
        fill = take = -1
        for sq in range(63):
            want = 1 if b0[sq] else 0
            if restore[sq] == 1 or sensed[sq] and not want:
                m[sq] = C.TO_EMPTY
                if take < 0:
                    take = sq
            elif restore[sq] == 2 or want and not sensed[sq]:
                m[sq] = C.TO_FILL
                if fill < 0:
                    fill = sq
        if fill >= 0:
            self._say(N_PUT_BACK, fill, True)
        elif take >= 0:
            self._say(N_WRONG if restore[take] else N_TAKE_OFF, take, True)
