# The players' Barragoon placements (tools/toolkit/players.py): where each Barragoon goes and
# with which face, in the rules' order or both at once in either order, the face picker's
# buttons (also pressed before the picker is up), and the next player beginning early: lifting
# a tile while the capturer still places, or the Barragoon just placed, right after OK.
if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/placing.py is a module the tools import, not a tool "
                     "(tools/README.md lists the tools)\n")
    sys.exit(2)

from barragoon.core import TILE, MAX_BARRAGOON
from barragoon.notation import square_name, parse_placement
from toolkit.hands import Stuck, STUCK_MS

REACT_MS = 500          # after a capture the first placer sees it and decides where to place

_ATTACKER = 1
_VICTIM = 2


def placements(pl):
    """The Barragoons the truth game waits for, set down and given their faces."""
    tb, g, rng = pl.tb, pl.tb.truth, pl.rng
    pl.place_boots = tb.boots
    sides = list(g.pending)
    plan = []                                    # (square, face) in the rules' order
    for i in range(len(sides)):
        plan.append(spot(pl, [p[0] for p in plan]))
    race = pl.does("race")
    if len(plan) == 2 and pl.does("together"):
        order = plan if rng.chance(50) else [plan[1], plan[0]]
        pl.pause(max(pl.gap(), REACT_MS - (tb.t - pl.landed)))
        tb.drop(order[0][0], order[0][1])
        pl.pause(rng.between(5, 50))
        tb.drop(order[1][0], order[1][1])
        for i in range(2):
            pl.did[1][plan[i][0]] = sides[i]
        for i in range(2):
            pick_face(pl, plan[i][0], plan[i][1], False, 0 if race and i == 1 else None)
    else:
        for i in range(len(plan)):
            sq, face = plan[i]
            pl.pause(pl.start_gap())
            if i == 0:                             # (the placer sees the capture, decides,
                pl.pause(REACT_MS - (tb.t - pl.landed))   # and after a tile capture takes a
            tb.drop(sq, face)                      # Barragoon from the supply)
            pl.did[1][sq] = sides[i]
            last = i == len(plan) - 1
            pick_face(pl, sq, face, pl.does("face_early"), 0 if race and last else None)
            if not last and pl.next is None and pl.does("early"):
                begin_early(pl, plan[i + 1])
    if race and pl.next is None:
        race_for(pl, plan[-1][0])


def spot(pl, taken):
    """A square and face for the next Barragoon: any empty square (not one taken by the
    placement before it), a face the rules allow there."""
    g, rng = pl.tb.truth, pl.rng
    empty = [sq for sq in range(63) if not pl.tb.pieces[sq] and sq not in taken]
    if not empty:
        raise Stuck("no square to place on")
    i0 = rng.between(0, len(empty) - 1)
    f0 = rng.between(1, MAX_BARRAGOON)
    for i in range(len(empty)):
        sq = empty[(i0 + i) % len(empty)]
        for k in range(MAX_BARRAGOON):
            face = (f0 - 1 + k) % MAX_BARRAGOON + 1
            if taken or g.placement_allowed(sq, face):
                return sq, face
    raise Stuck("no square to place on")


def begin_early(pl, rest):
    """The captured side (who moves next) lifts the tile of its next move while the capturer
    has still to place `rest` (square, face): the move is chosen in the position after it."""
    g = pl.tb.truth
    if not g.placement_allowed(rest[0], rest[1]):
        return
    g.place(rest[0], rest[1])
    moves = g.legal_moves()
    m = pl.choose() if moves else -1
    g.undo()
    if m >= 0:
        pl.pause(pl.rng.between(0, 300))
        pl.lift_next(m, _ATTACKER)


def race_for(pl, sq):
    """The next player lifts the Barragoon just placed on sq 0-20 ms after OK's release, to
    capture it (when one of their moves can)."""
    g = pl.tb.truth
    if g.placing() >= 0 or g.over:
        return
    caps = [m for m in g.legal_moves() if m & 63 == sq]
    if caps:
        pl.pause(pl.rng.between(0, 20))
        pl.lift_next(pl.rng.pick(caps), _VICTIM)


def pick_face(pl, sq, face, early=False, rest=None):
    """Give the Barragoon on sq its face: UP/DOWN until the face shows, then OK. early: the
    player presses at once after the set-down, counting from the face the picker opens with
    (X), without waiting for the picker; then checks the screen like everyone else."""
    tb, g = pl.tb, pl.tb.truth
    pl.placing_sq = sq
    if early:                                    # (they look up when a question comes,
        pl.pause(pl.rng.between(0, 100))         # and after it watch the screen)
        steps = (face - 1) % 16
        seen = (tb.questions, tb.boots)          # (a question or a power cut: look again)
        for i in range(min(steps, 16 - steps)):
            if tb.top() == "Ask" or (tb.questions, tb.boots) != seen:
                break
            pl.press("down" if steps <= 8 else "up")
        if tb.top() != "Ask" and (tb.questions, tb.boots) == seen:
            pl.press("ok", rest=0)
        if placed(pl, sq):
            done(pl, sq, face)
            return pl.pause(pl.between(pl.k["rest"]) if rest is None else rest)
    waited = 0
    took = (sq, face)
    while not placed(pl, sq):                    # (until the board has taken it: a player
        if tb.top() == "Ask":                    # who pressed OK and sees a question
            pl.answer()                          # answers it and confirms again)
            waited += 1000
            continue
        if tb.top() == "Place" and tb.ctl.judge.places.sq >= 0 and caught_up(pl):
            shown = tb.ctl.judge.places.sq
            real = tb.pieces[shown]              # the players give the face it shows
            if not real or real & TILE:
                real = face
            pl.pause(pl.rng.between(150, 600))
            for i in range(40):
                if tb.ctl.face == real or tb.top() != "Place":
                    break
                pl.press(toward(tb.ctl.face, real))
            if tb.top() == "Place" and tb.ctl.face == real:   # (as the screen shows it)
                took = follow(pl, sq, face, shown, real)
                pl.press("ok", rest=0)
            pl.pause(100)
            waited += 700
        else:
            pl.pause(50)
            waited += 50
        if waited > STUCK_MS:
            raise Stuck("no face picker for " + square_name(sq))
    done(pl, took[0], took[1])
    pl.pause(pl.between(pl.k["rest"]) if rest is None else rest)


def follow(pl, sq, face, shown, real):
    """The Barragoon whose face the players confirm: sq's, or, where the board asks for the
    other one of theirs first after a power cut in the middle of placing both (it cannot know
    which went down first), the one it shows, for the side it names: they go along."""
    if shown != sq and shown in pl.did[1] and pl.tb.boots != pl.place_boots:
        return shown, real
    return sq, face


def toward(shown, face):
    """The button that brings the picker from the face shown nearer to face ("no capture",
    face 0, sits one UP from face 1)."""
    if shown == 0:
        return "down" if face <= 8 else "up"
    return "down" if (face - shown) % 16 <= 8 else "up"


def caught_up(pl):
    """Has the board taken the players' last placement (the screen shows what comes next)?"""
    board = pl.tb.ctl.game
    return board is not None and len(board.actions) >= len(pl.tb.truth.actions)


def placed(pl, sq):
    """Has the board's game as many placements on sq as the truth will have after this?"""
    board = pl.tb.ctl.game
    return board is not None and len(board.actions) > len(pl.tb.truth.actions)


def done(pl, sq, face):
    g = pl.tb.truth
    pl.placing_sq = -1
    if g.placing() >= 0:
        g.place(sq, face)


def finish_picker(pl):
    """The board asks for the face of a Barragoon whose placement the truth has already (a
    power cut came between the set-down and OK): the players give it again."""
    tb, g = pl.tb, pl.tb.truth
    for i in range(4):
        board = tb.ctl.game
        if board is None or tb.top() != "Place" or len(board.actions) >= len(g.actions):
            return
        tokens = " ".join(g.iter_turns()).split()
        have = len(" ".join(board.iter_turns()).split())
        if have >= len(tokens) or "=" not in tokens[have]:
            return
        sq, face = parse_placement(tokens[have])
        if tb.ctl.judge.places.sq != sq:
            return
        pl.pause(pl.rng.between(300, 800))
        for k in range(40):
            if tb.ctl.face == face or tb.top() != "Place":
                break
            pl.press(toward(tb.ctl.face, face))
        pl.press("ok")
