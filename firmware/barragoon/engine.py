# The board's opponent: iterative-deepening alpha-beta over whole turns (a move and the
# placements it calls for), run in slices so the board's main loop keeps scanning.
#
# Using it from the board's main loop (one Engine for the whole session, made at boot so its
# buffers are allocated once):
#
#     eng = Engine()
#     ...
#     # The board's turn has come (game.turn is the board's side, the game is not over and
#     # no draw offer waits for an answer), or the player asked for a hint:
#     eng.start(game, *LEVELS[level])   # plays for game.turn (time limit, work)
#     # Every pass of the main loop, after the scan and the events (and longer between
#     # passes while nothing else waits: an event waiting in wake ends a slice early):
#     if not eng.done and eng.think(3, wake):       # ~3 ms, plus at most one step
#         ...                                       # (a step: 0.2-4 ms on the RP2040)
#         turn = eng.best()
#         # turn.move: (frm, to) or None; turn.places: [(side, square, face code)];
#         # turn.text: 'd2xd6 e6=X b3=RN'; turn.score: the board's view, 100 = a 2-tile.
#         # Show and have carried out the first turn.now actions (the move, and the
#         # placement that follows at once when the board took a Barragoon). After a tile
#         # capture the player places first: once they have, game.turn is the board's again
#         # and start() is called again to choose the board's placement for the real board.
#     # Take-back, new game, menu: eng.stop() (or just start() again later).
#
# The search is an explicit stack (no recursion), so think() can stop after any step and go
# on later. The engine searches its own copy of the position (evaluation.Evaluator, loaded
# once per start()), making and unmaking moves and placements on it; the live game may
# change under it. After construction nothing is allocated per node: all per-level state
# lives in bytearrays and arrays, and the work per node is done by the viper kernels of
# evaluation.py. The search steps are native code (@micropython.native): a bytecode function
# with as many locals as they have gets its frame from the heap at every call, which is slow
# on the board's busy heap (firmware/README.md, The engine). The frozen firmware runs them
# so from flash; the .mpy build compiles them as bytecode (tools/deploy.py, BYTECODE): there
# native code would take heap. Both search alike, node for node.
#
# The rules the root must obey come from the Game's public API: game.legal_moves() (the
# must-deviate rule after a declined repetition), game.pending / placing(), game.stages
# (express rule), game.over. Inside the tree the engine applies the rules of RULES.md
# itself: turn order of placements, supply shortfall, the last tile, no move, express
# stages. Repetitions inside the tree and the no-capture draw are not looked for.
#
# The tree. A turn node (the side to move picks a move) has, below a capture, placement nodes:
#   Barragoon captured -> the mover places it -> next turn
#   tile captured      -> the captured side places -> the capturer places -> next turn
#                         (one Barragoon left in the supply: only the captured side places;
#                         none: nobody; the last tile captured: the game is won at once)
# Every node is negamax from the view of the side acting there; a child acting for the same
# side keeps the window, a child of the other side gets it negated. Depth counts turns:
# placements belong to their turn and do not use depth. At depth 0 the static evaluation
# decides: a quiet move into depth 0 is scored in its parent's loop from the parent's
# records (only the tiles within reach of the move are generated again), and the
# placements just before depth 0 are scored directly (no extra level).
#
# Every level completes the first iteration, depth 1, before it may stop: every legal move,
# and for the engine's own placements in that turn every empty square with every face
# (evaluation.scan). Candidate placements elsewhere: evaluation.candidates.
#
# Move ordering: the previous iteration's best first at the root; tile captures by victim,
# the killer move, Barragoon captures, then quiet moves by a history of cut-offs.
from array import array

from barragoon.core import EMPTY, TILE, MAX_BARRAGOON, SQ2MB
from barragoon import evaluation as E
from barragoon.evaluation import Evaluator, WIN, VALUE, NO_SQ, PL, PN, RBC, RVM, STAGE, WN
from barragoon import notation as N   # (module globals take heap on the board: few names)

try:
    import micropython
    from micropython import const, heap_lock, heap_unlock
    from time import ticks_ms, ticks_diff
except ImportError:  # CPython
    from barragoon.hostshim import (micropython, const, ptr16, ticks_ms, ticks_diff,
                                    heap_lock, heap_unlock)

_TURN = const(0)
_PLACE = const(1)
_NONE = const(0xFFFF)          # no action
_NOBODY = const(255)           # no further placer
_INF = const(32000)
_DECIDED = const(29000)        # |score| above this: a won or lost game was found
_BEHIND = const(-40)           # a dead position scored below this: the engine offers a draw
_AHEAD = const(40)             # a position scored above this is remembered ...
_REPEAT = const(50)            # ... and playing the same move there again costs this much

# What a level does next (Engine.pc).
_T_GEN = const(1)              # the moves (the root: its records); depth 1: all records
_T_LOOP = const(2)             # make the next move, descend (depth 1: score a quiet move)
_T_RET = const(3)              # a child returned: unmake, update the window
_P_REC = const(4)              # placement: records (all, or the touched ones), candidates
_P_SCAN = const(5)             # every square and face: one square a step
_P_DEL = const(6)              # score the candidates, one a step
_P_LOOP = const(7)
_P_RET = const(8)

# Candidate placements. The engine's own placements in the turn it chooses are scored on every
# empty square with every face: at the root (then the best face of the _ROOT_KEEP best
# squares are searched), and below a root move in the first iteration (the best counts, and
# it stays a candidate in the deeper iterations). Elsewhere by where the placement node
# stands: the squares that get X, the first of them A too (evaluation.candidates), and how many of
# the best are searched.
_ROOT_KEEP = const(10)
_FIRST_SQ = const(6)          # placements of the turn being chosen
_FIRST_A = const(2)
_FIRST_N = const(4)
_INNER_SQ = const(4)          # deeper in the tree
_INNER_N = const(2)
_HORIZON_SQ = const(4)        # the opponent's placement after a tile capture at the root in
_HORIZON_N = const(2)         # the first iteration (the engine's own: every square and face)
_PLACEMENT = const(20)        # what a placement is worth to the placer at the horizon
# The deepest level (its budget: LEVELS[3]) searches with more: the quiet moves after the
# first _LATE of a node 3 turns or more from the horizon a turn less deep (and again in full
# if one does better than the best so far); iterations _MORE turns deeper than the levels
# would allow otherwise (the deepest lines of captures end at the last levels); and every
# square and face scored for the opponent's placements in the turn it chooses (after a tile
# capture of its own, the captured side places first), the _SCAN_KEEP best searched.
_LATE = const(3)
_MORE = const(2)
_SCAN_KEEP = const(4)
_ROOM = const(96)             # a turn node needs this much room in mv, else it is scored as
                              # a leaf (moves beyond the end, far more than a side ever has
                              # among the Barragoons, would be left out)
# The stack: levels 1 and 2 search within its first _BASE_LEVELS levels and _BASE_BUFFER
# actions (the stack they were measured with); level 3 uses it all. With the smaller stack a
# line of captures (a capture and its placements take up to three levels) often ended at the
# last level or the buffer's end and was scored there (the matches with and without it:
# firmware/README.md, The opponent).
_BASE_LEVELS = const(11)
_BASE_BUFFER = const(256)

# Work units: host matches count work instead of time, so they give the same answer on every
# machine. A unit is about one tile's move generation; every search step costs STEP_UNITS
# more (the search's own bytecode, _STEP_UNITS). LEVELS[1..3]: (the longest the board may
# think in ms, the level's work in units). The board searches a level's work, as its matches
# were measured with, so it plays as strong as they say on any board; the time that takes
# depends on how much of the CPU the board's loop leaves the engine (firmware/README.md, The
# opponent: about 3.4 units a ms on the emulated Pico while the matrix is scanned), and the
# time limit only ends a search that would take far longer. LEVELS[0]: (ms a unit of a search
# with the CPU to itself, 1), to turn a hint's time into units (bench_rp2040.py).
_STEP_UNITS = const(2)
LEVELS = ((0.098, 1), (12000, 15300), (80000, 102000), (480000, 612000))



class Turn:
    """The engine's answer: the whole turn it expects (its move and every placement that
    follows, the opponent's included), its score and how it was found.

    now: how many leading actions are the engine's own, to carry out now: the move, and the
    placement right after it if the engine places next (a captured Barragoon). After those
    the opponent acts (it places first after a tile capture); then start() again."""

    def __init__(self, side, move, capture, places, score, depth, nodes, steps, dead):
        self.side = side            # the side the engine played for (game.turn at start)
        self.move = move            # (frm, to), or None when the turn starts with a placement
        self.capture = capture      # the move captures
        self.places = places        # [(side, sq, face code)] in the order they are made
        self.score = score          # from self.side's view; 100 = a 2-tile
        self.decided = 1 if score > _DECIDED else -1 if score < -_DECIDED else 0
        self.depth = depth          # turns searched ahead (the last complete iteration)
        self.nodes = nodes
        self.steps = steps          # work units (see LEVELS)
        # Behind in a position the search sees as dead (no capture anywhere in its last
        # complete iteration, two turns deep or more): the board offers a draw.
        self.offer_draw = dead and depth >= 2 and score < _BEHIND
        # Not ahead by more than _AHEAD: about even or behind, the engine would take a draw
        # (and it varies instead of repeating only where it is ahead by more).
        self.draw_ok = score <= _AHEAD
        words = []                  # e.g. 'd2xd6 e6=X b3=RN' (predicted actions too)
        n = 0
        if move is not None:
            words.append(N.format_move(move[0], move[1], capture))
            n = 1
        for p in places:
            words.append(N.format_placement(p[1], p[2]))
            if p[0] == side and n == len(words) - 1:
                n += 1
        self.text = " ".join(words)
        self.now = n


# The state of each search level (Engine.<name>[k], one entry a level):
#   knd  _TURN or _PLACE          side  the side acting at the level
#   mvr  placement levels: the side whose turn it is; nxt: who places after this, or _NOBODY
#   tn   turns from the root (0: the root's turn)     dep  depth left, in turns
#   pc   what the level does next                     vic  the cell code a move captured
#   vix  ... its list index (evaluation.make)         sup  supply before a tile capture
#   rv   1: the level's tile records are saved (Evaluator.lv)
#   tt   the squares changed since the parent's records (a | b << 8), or NO_SQ
#   lo, hi  the level's actions are mv[lo:hi]; it: the next one (placement scan: the next
#           square); lim: see the loops; cur: the action being searched
#   pv0, pv1, pv2  the best action, and the placements after it in its turn
#   kill the level's last quiet move that cut off
#   alp, bet, bst  the window and the best score (signed)


class Engine:
    # (Its attributes are a table on the heap that grows in steps: at most 47 keep it at 47
    # slots, the step before 59. Hence small arrays with named entries, r_act and seen.)
    def __init__(self, levels=15, buffer=384, clock=None):
        self.ev = Evaluator(levels)
        for n in ("knd", "side", "mvr", "nxt", "tn", "dep", "pc", "vic", "vix", "sup", "rv"):
            setattr(self, n, bytearray(levels))
        for n in ("lo", "hi", "it", "lim", "cur", "pv0", "pv1", "pv2", "kill", "tt"):
            setattr(self, n, array("H", bytes(2 * levels)))
        for n in ("alp", "bet", "bst"):
            setattr(self, n, array("h", bytes(2 * levels)))
        self.mv = array("H", bytes(2 * buffer))  # moves (frm * 64 + to) and placements (sq * 32
        self.ov = array("h", bytes(2 * buffer))  # + face); their ordering keys / placement
        #                      scores; at the root: a capture's best placement of iteration 1
        self.hist = bytearray(128)     # quiet-move cut-offs per (side, target square)
        # The best turn found so far: its actions [0:3], the depth of the iteration that found
        # it [3], what its move took [4]; and its score.
        self.r_act = array("H", bytes(10))
        self.r_score = 0
        self.ban = self.ban_move = _NONE   # refused by the duty to deviate (_deviation_ban)
        # Positions the engine was ahead in, and its move there (repetition, see start()):
        # hash << 12 | move; [8]: where the next goes; [9]: the move to avoid in this search.
        self.seen = array("i", bytes(40))
        self.clock = clock
        self.done = True
        self.result = None
        self.k = self.ret = self.steps = self.nodes = 0
        self.max_depth = self.max_steps = self.budget = self.t0 = 0
        self.deep = False              # the deepest level's search (see _LATE)
        self.caps = 0                  # 1: a capture seen in this iteration; 2: at the root;
        #                                4: none anywhere in the last complete iteration

    # --- the API the board uses ------------------------------------------------------------
    def start(self, game, budget_ms=0, steps=0, depth=0):
        """Begin a search for game.turn (the mover, or the side that must place now).
        Limits: budget_ms of thinking time (counted from now), steps of work (units, see
        LEVELS), and depth in turns; 0 = no limit of that kind. The answer is always a whole
        turn, and the first iteration (depth 1: every move, every placement of the engine's
        own with every face) is always completed, even past a tiny budget.
        Returns False (and best() is None) when there is nothing to decide."""
        self.result = None
        self.done = True
        if game.over:
            return False
        ev = self.ev
        ev.load(game.pos, game.stages)
        self.max_steps = steps
        self.budget = budget_ms
        self.deep = deep = steps >= LEVELS[3][1] or budget_ms >= LEVELS[3][0]
        top = self._levels() // 2 + _MORE * deep   # (deeper lines of captures end at the
        #                                              last levels)
        self.max_depth = depth if 0 < depth < top else top
        self.t0 = self._now()
        self.steps = self.nodes = 0
        self.r_act[0] = _NONE
        self.r_score = self.r_act[3] = 0
        self.caps = 0
        for i in range(128):
            self.hist[i] = 0
        for i in range(len(self.pc)):
            self.kill[i] = _NONE
        self._deviation_ban(game)
        self.seen[9] = _NONE
        pend = game.pending
        self.lo[0] = self.tn[0] = self.rv[0] = 0
        self.tt[0] = NO_SQ
        if game.placing() >= 0:
            self.knd[0] = _PLACE
            self.side[0] = pend[0]
            self.nxt[0] = pend[1] if len(pend) > 1 else _NOBODY
            self.mvr[0] = ev.side
            self.pc[0] = _P_REC
        else:
            moves = game.legal_moves()
            if not moves:
                return False
            self.knd[0] = _TURN
            self.side[0] = ev.side
            n = 0
            for m in moves:
                self.mv[n] = m
                c = ev.b[SQ2MB[m % 64]]
                self.ov[n] = (6000 + VALUE[c & 7]) if c & TILE else 4500 if c else 0
                if c:
                    self.caps = 2
                n += 1
            self.hi[0] = n
            for i in range(n):
                _pick(self.mv, self.ov, i, n)  # by key, once; then ov[i]: root move i's best
                self.ov[i] = -1                # placement in the first iteration (_P_SCAN)
            if n == 1 and not ev.b[SQ2MB[moves[0] % 64]]:
                self.max_depth = 1            # one quiet move: nothing to think about
            # A position the engine has been ahead in before: the move it played then gets a
            # penalty, so that it varies instead of repeating what did not win.
            b = ev.b
            h = ev.side
            for i in range(8, 80):
                h = ((h << 5) + b[i] + (h >> 13)) & 0x3FFFF
            seen = self.seen
            for i in range(8):
                if seen[i] >> 12 == h:
                    seen[9] = seen[i] & 0xFFF
            seen[seen[8]] = h << 12 | 0xFFF   # (its move: _finish)
            self.pc[0] = _T_GEN
        self.dep[0] = 1
        self._begin_iteration()
        self.done = False
        return True

    def _deviation_ban(self, game):
        # After a declined repetition draw the game may refuse one placement: the one that
        # would complete the predicted turn (a Barragoon capture; its move stays legal, and
        # game.legal_moves() already leaves out a predicted quiet move). Found through the
        # Game's public API; the search then never picks it (level 0 when the root is that
        # placement, level 1 below the predicted move).
        self.ban = self.ban_move = _NONE
        if getattr(game, "must_deviate", -1) != game.turn:
            return
        words = game.predicted_turn().split()
        if len(words) != 2:
            return
        frm, to, cap = N.parse_move(words[0])
        sq, face = N.parse_placement(words[1])
        if game.placing() >= 0:
            if not game.placement_allowed(sq, face):
                self.ban = sq * 32 + face
        else:
            self.ban = sq * 32 + face
            self.ban_move = frm * 64 + to

    @micropython.native
    def _banned(self, k):
        # The ban applies at level k (0: the root's placement; 1: below the predicted move).
        if k == 0:
            return self.knd[0] == _PLACE
        return k == 1 and self.knd[0] == _TURN and self.cur[0] == self.ban_move

    @micropython.native
    def think(self, slice_ms=5, wake=None):
        """Search for about slice_ms (at least one step). Returns True when the search is
        done (budget, depth or a decided game reached): then best() is ready. wake: None, or
        an object whose pending() is checked between steps (the board's sensor queue): the
        slice ends once it is true, so an event waits one search step at most."""
        if self.done:
            return True
        t = self._now()
        over = False
        # The slice runs with the heap locked: its steps allocate nothing, and every bytecode
        # call in them then takes its frame from the C stack (MicroPython's fallback when the
        # heap refuses) instead of searching the heap for room, which in the board's full and
        # broken-up heap made the search far slower (the stock build's most of all).
        heap_lock()
        try:
            while True:
                self._step()
                if self.done:
                    over = True
                    break
                self.steps += _STEP_UNITS
                now = self._now()
                if self.r_act[3] and ((self.max_steps and self.steps >= self.max_steps) or
                                      (self.budget and ticks_diff(now, self.t0) >= self.budget)):
                    over = True
                    break
                if ticks_diff(now, t) >= slice_ms or wake is not None and wake.pending():
                    break
        finally:
            heap_unlock()
        if over:
            self._finish()                 # (the result: it allocates)
        return over

    def run(self, game, budget_ms=0, steps=0, depth=0):
        """start() and think() to the end in one call (host tools, tests). Returns best()."""
        if self.start(game, budget_ms, steps, depth):
            while not self.think(1000):
                pass
        return self.result

    def stop(self):
        """Abandon the search (take-back, menu). best() keeps what was found so far."""
        if not self.done:
            self._finish()

    def best(self):
        return self.result

    @micropython.native
    def _now(self):
        return self.clock.ticks_ms() if self.clock else ticks_ms()

    @micropython.native
    def _levels(self):
        return len(self.pc) if self.deep else _BASE_LEVELS

    @micropython.native
    def _buffer(self):
        return len(self.mv) if self.deep else _BASE_BUFFER

    # --- iterations and the result ---------------------------------------------------------
    def _begin_iteration(self):
        self.k = 0
        self.alp[0] = self.bst[0] = -_INF
        self.bet[0] = _INF
        self.it[0] = self.lo[0]
        self.lim[0] = self.hi[0]
        if self.dep[0] > 1:                 # iteration 1 starts with the records
            self.pc[0] = _T_LOOP if self.knd[0] == _TURN else _P_LOOP

    def _iteration_done(self, v):
        self.r_act[3] = self.dep[0]
        self.caps = self.caps & 2 | (0 if self.caps & 3 else 4)
        k0 = self.lo[0]
        h = self.hi[0]
        i = k0
        while i < h and self.mv[i] != self.pv0[0]:
            i += 1
        if i < h:                           # the best first next time (swapped)
            mv = self.mv
            ov = self.ov
            mv[i], mv[k0] = mv[k0], mv[i]
            ov[i], ov[k0] = ov[k0], ov[i]
        if (self.dep[0] >= self.max_depth or v > _DECIDED or v < -_DECIDED
                or h - k0 == 1 and self.knd[0] == _TURN):
            self.done = True               # (think() makes the result)
            return
        self.dep[0] += 1
        self._begin_iteration()

    def _finish(self):
        self.done = True
        a = self.r_act
        if a[0] == _NONE:
            return
        me = self.side[0]                  # (game.turn at start())
        places = []
        move = None
        capture = False
        if self.knd[0] == _TURN:
            if self.r_score > _AHEAD:      # remembered (see start())
                i = self.seen[8]
                self.seen[i] = self.seen[i] & ~0xFFF | a[0]
                self.seen[8] = (i + 1) & 7
            frm = a[0] >> 6
            to = a[0] & 63
            move = (frm, to)
            victim = self.r_act[4]
            capture = victim != EMPTY
            placers = (me,) if victim <= MAX_BARRAGOON else (me ^ 1, me)
            for j in range(2):
                if a[1 + j] != _NONE:
                    places.append((placers[j], a[1 + j] >> 5, a[1 + j] & 31))
        else:
            places.append((me, a[0] >> 5, a[0] & 31))
            if self.nxt[0] != _NOBODY and a[1] != _NONE:
                places.append((self.nxt[0], a[1] >> 5, a[1] & 31))
        self.result = Turn(me, move, capture, places, self.r_score, self.r_act[3], self.nodes,
                           self.steps, self.caps > 3)

    # --- the search, one step at a time ----------------------------------------------------
    @micropython.native
    def _step(self):
        k = self.k
        _STEPS[self.pc[k]](self, k)

    @micropython.native
    def _return(self, k, v):
        if k == 0:
            self._iteration_done(v)
        else:
            self.ret = v
            self.k = k - 1

    @micropython.native
    def _child(self, k, kind, actor, dep, a, b):
        """Open level k + 1 below level k for a node of kind acting for actor. a, b: the
        squares changed since level k's position; when level k has its records saved, the
        child only regenerates the tiles those changes can reach (a = NO_SQ: all tiles).
        A turn at depth 0 is scored at once (its value waits in self.ret)."""
        ev = self.ev
        j = k + 1
        self.nodes += 1
        lo = self.hi[k]
        if kind == _TURN and (dep == 0 or j + 4 >= self._levels() or lo + _ROOM > self._buffer()):
            self.steps += ev.record_all()
            v = E.score(ev.b, ev.side, j)
            self.ret = v if actor == self.side[k] else -v
            self.knd[j] = _TURN                 # (read by the parent's return step)
            self.side[j] = self.side[k]
            self.dep[j] = dep                   # (a reduced move's: see _turn_ret)
            return
        self.knd[j] = kind
        self.side[j] = actor
        if actor == self.side[k]:
            self.alp[j] = self.alp[k]
            self.bet[j] = self.bet[k]
        else:
            self.alp[j] = -self.bet[k]
            self.bet[j] = -self.alp[k]
        self.bst[j] = -_INF
        self.dep[j] = dep
        self.pv0[j] = _NONE
        self.rv[j] = 0
        if not self.rv[k]:
            a = NO_SQ
        self.tt[j] = a | b << 8
        self.lo[j] = self.hi[j] = lo
        self.tn[j] = self.tn[k] + (kind == _TURN)
        self.pc[j] = _T_GEN if kind == _TURN else _P_REC
        self.k = j

    @micropython.native
    def _update(self, k, v, placed):
        """A child of level k returned v (k's view). placed: the child was a placement of the
        same turn (its best actions extend k's)."""
        if k == 0 and self.cur[0] == self.seen[9]:
            v -= _REPEAT
        if v > self.bst[k]:
            self.bst[k] = v
            a = self.cur[k]
            self.pv0[k] = a
            self.pv1[k] = self.pv0[k + 1] if placed else _NONE
            self.pv2[k] = self.pv1[k + 1] if placed else _NONE
            if k == 0:
                self.r_act[0] = a
                self.r_act[1] = self.pv1[0]
                self.r_act[2] = self.pv2[0]
                self.r_act[4] = self.vic[0]
                self.r_score = v
            if v > self.alp[k]:
                self.alp[k] = v
                if v >= self.bet[k]:
                    if self.knd[k] == _TURN and self.vic[k] == EMPTY:
                        self.kill[k] = a
                        h = self.side[k] * 64 + (a & 63)
                        if self.hist[h] < 230:
                            self.hist[h] += self.dep[k] * self.dep[k]
                    self._return(k, v)
                    return
        self.it[k] += 1
        self.pc[k] = _T_LOOP if self.knd[k] == _TURN else _P_LOOP

    # --- turn nodes ------------------------------------------------------------------------
    @micropython.native
    def _turn_gen(self, k):
        # The side to move's moves with their ordering keys, and its records (the root: the
        # moves are the game's; every record). Depth 1: the opponent's records too, saved,
        # so the leaves below only regenerate the tiles their move can reach.
        ev = self.ev
        b = ev.b
        stm = ev.side
        ev.owner = 255
        if k == 0:
            self.steps += ev.record_all()
        else:
            h = self.hi[k]
            mv = self.mv
            ov = self.ov
            ts = ev.tsq
            tk = ev.tkind
            k1 = self.kill[k]
            hb = stm * 64
            mobile = 0
            end = self._buffer() - 1
            for s in range(stm * 8, stm * 8 + b[PN + stm]):
                n = E.records(b, ev.stamp, ts, tk, 3, s)
                if b[RBC + s] or b[RVM + s]:
                    self.caps |= 1          # a capture
                if n:
                    mobile += 1
                    frm = b[PL + s]
                    own = b[SQ2MB[frm]] & 7
                    for i in range(n if n < end - h else end - h):   # (room: see _ROOM)
                        to = ts[i]
                        m = frm * 64 + to
                        mv[h] = m
                        kd = tk[i]
                        if kd == 2:
                            ov[h] = 6000 + VALUE[b[SQ2MB[to]] & 7] - own
                        elif m == k1:
                            ov[h] = 5000
                        elif kd == 3:
                            ov[h] = 4500
                        else:
                            ov[h] = self.hist[hb + to]
                        h += 1
            self.steps += 2 * b[PN + stm]
            self.hi[k] = h
            if mobile <= b[STAGE + stm]:
                self._return(k, k - WIN)   # no move, or at the express stage: lost
                return
            if self.dep[k] == 1:
                E.records(b, ev.stamp, ts, tk, 2, stm ^ 1)
                self.steps += b[PN + (stm ^ 1)]
        if self.dep[k] == 1:
            ev.save_level(k)
            self.rv[k] = 1
        self.it[k] = self.lo[k]
        self.lim[k] = self.hi[k]           # moves before lim are picked by key
        self.pc[k] = _T_LOOP

    @micropython.native
    def _turn_loop(self, k):
        i = self.it[k]
        h = self.hi[k]
        if i >= h:
            self._return(k, self.bst[k])
            return
        if k and i < self.lim[k] and _pick(self.mv, self.ov, i, h) <= 0:
            self.lim[k] = i                 # only unordered quiet moves are left
        a = self.mv[i]
        self.cur[k] = a
        ev = self.ev
        b = ev.b
        side = ev.side
        frm = a >> 6
        to = a & 63
        victim = ev.make(frm, to)
        self.vic[k] = victim
        self.vix[k] = ev.vix
        d = self.dep[k]
        self.pc[k] = _T_RET
        if d == 1 and self.rv[k] and (victim == EMPTY or k and b[PN + (side ^ 1)]):
            # A leaf: scored from this level's records, only the tiles within reach of the
            # move generated again (all of them after a tile capture: the tile lists moved).
            # Below the root's turn a capture's placements count as a bonus for the one who
            # took a Barragoon; after a tile capture both place, roughly even.
            if victim & TILE:
                self.steps += ev.record_all()
                v = -E.score(b, side ^ 1, k + 1)
                ev.unmake(frm, to, victim, self.vix[k])
            else:
                if ev.owner != k:
                    ev.load_level(k)
                v = -ev.delta(frm, to, side ^ 1, k + 1)
                if victim:
                    v += _PLACEMENT
                self.steps += b[WN] + 2
                ev.unmake(frm, to, victim, 0)
            self.nodes += 1
            self._update(k, v, False)
            return
        if victim == EMPTY:
            ev.side = side ^ 1
            self._child(k, _TURN, side ^ 1, d - 1 - (self.deep and k and d > 2 and i - self.lo[k]
                                                     >= _LATE and a != self.kill[k]), frm, to)
        elif victim <= MAX_BARRAGOON:
            self.mvr[k + 1] = side
            self.nxt[k + 1] = _NOBODY
            self._child(k, _PLACE, side, d, frm, to)
        elif b[PN + (side ^ 1)] == 0:      # the last tile: won at once, nobody places
            ev.unmake(frm, to, victim, self.vix[k])
            self._update(k, WIN - k - 1, False)
        else:                               # tile lists changed: children redo all records
            s = ev.supply
            self.sup[k] = s
            take = 2 if s >= 2 else s
            ev.supply = s - take
            if take == 0:
                ev.side = side ^ 1
                self._child(k, _TURN, side ^ 1, d - 1, NO_SQ, NO_SQ)
            else:
                self.mvr[k + 1] = side
                self.nxt[k + 1] = side if take == 2 else _NOBODY
                self._child(k, _PLACE, side ^ 1, d, NO_SQ, NO_SQ)

    @micropython.native
    def _turn_ret(self, k):
        v = self.ret
        j = k + 1
        if self.side[j] != self.side[k]:
            v = -v
        ev = self.ev
        a = self.cur[k]
        victim = self.vic[k]
        placed = self.knd[j] == _PLACE
        if not (victim or placed) and self.dep[j] + 2 == self.dep[k] and v > self.alp[k]:
            self._child(k, _TURN, ev.side, self.dep[k] - 1, a >> 6, a & 63)
            return                          # a reduced move did well: searched in full
        if not placed:
            ev.side ^= 1
        if victim & TILE:
            ev.supply = self.sup[k]
        ev.unmake(a >> 6, a & 63, victim, self.vix[k])
        self._update(k, v, placed)

    # --- placement nodes -------------------------------------------------------------------
    @micropython.native
    def _place_records(self, k):
        # The position's records (the tiles the last change can reach, or all), then either
        # the scan of every square and face, or the candidate squares of evaluation.candidates.
        ev = self.ev
        if self.tt[k] & 255 != NO_SQ:
            if ev.owner != k - 1:
                ev.load_level(k - 1)
            E.records(ev.b, ev.stamp, ev.tsq, ev.tkind, 1, self.tt[k])
            self.steps += ev.b[WN]
        else:
            self.steps += ev.record_all()
        ev.save_level(k)
        self.rv[k] = 1
        lo = self.lo[k]
        self.hi[k] = self.it[k] = lo
        own = self.tn[k] == 0 and self.side[k] == self.side[0]   # the turn being chosen: its own
        if k == 0 or own and self.dep[k] <= 1 or self.deep and self.tn[k] == 0 and not own:
            self.it[k] = 0
            self.pc[k] = _P_SCAN
            return
        na = 0
        if self.dep[k] <= 1:
            n = _HORIZON_SQ
            self.lim[k] = _HORIZON_N
        elif self.tn[k] == 0:
            n = _FIRST_SQ
            na = _FIRST_A
            self.lim[k] = _FIRST_N
        else:
            n = _INNER_SQ
            self.lim[k] = _INNER_N
        room = (self._buffer() - lo - 2) // 2
        h = E.candidates(ev, self.side[k], self.mv, lo, n if n < room else room, na)
        if own:
            a = self.ov[self.it[0]]          # the best of the first iteration's scan
            if a > 0 and not ev.b[SQ2MB[a >> 5]]:
                j = lo
                while j < h and self.mv[j] != a:
                    j += 1
                if j == h:
                    self.mv[h] = a
                    h += 1
        self.hi[k] = h
        self.steps += 4
        self.pc[k] = _P_DEL

    @micropython.native
    def _place_scan(self, k):
        # One empty square (its 16 faces) a step; then the best is the level's answer (the
        # engine's own below a root move, where it is also kept in the root's ov for the
        # deeper iterations), or the best few are searched: at the root the ROOT_KEEP best,
        # the opponent's (deepest level) the SCAN_KEEP best.
        ev = self.ev
        b = ev.b
        sq = self.it[k]
        while sq < 63 and b[SQ2MB[sq]]:
            sq += 1
        lo = self.lo[k]
        if sq < 63:
            if ev.owner != k:
                ev.load_level(k)
            nm = self.mvr[k] ^ 1            # moves next, once all placements are made
            r = E.scan(b, ev.stamp, ev.tsq, ev.tkind, sq, nm, k + 1, self.side[k] != nm,
                       self.ban if self._banned(k) else _NONE)
            self.steps += 3 * b[WN]
            self.it[k] = sq + 1
            v = r >> 5                      # keep the best squares, best first
            j = self.hi[k]
            if j - lo == (_ROOT_KEEP if k == 0 else 1 if self.side[k] == self.side[0]
                          else _SCAN_KEEP):
                if v <= self.ov[j - 1]:
                    return
                j -= 1
            else:
                self.hi[k] = j + 1
            while j > lo and self.ov[j - 1] < v:
                self.mv[j] = self.mv[j - 1]
                self.ov[j] = self.ov[j - 1]
                j -= 1
            self.mv[j] = sq * 32 + (r & 31)
            self.ov[j] = v
            if k == 0:
                self.r_act[0] = self.mv[lo]     # an answer already, should time run out
                self.r_act[1] = _NONE
                self.r_score = self.ov[lo]
            return
        h = self.hi[k]
        if k == 0 or self.side[k] != self.side[0]:     # the best few are searched
            self.lim[k] = h
            self.it[k] = lo
            self.pc[k] = _P_LOOP
            return
        a = self.mv[lo]                     # (an empty square is always left)
        self.pv0[k] = a
        self.pv1[k] = self.pv2[k] = _NONE
        self.ov[self.it[0]] = a
        self._return(k, self.ov[lo])

    @micropython.native
    def _place_delta(self, k):
        # One candidate a step: put it down, redo the records of the tiles within reach,
        # score, take it away again.
        i = self.it[k]
        h = self.hi[k]
        ev = self.ev
        if i < h:
            a = self.mv[i]
            if ev.owner != k:
                ev.load_level(k)
            b = ev.b
            m = SQ2MB[a >> 5]
            b[m] = a & 31
            nm = self.mvr[k] ^ 1            # moves next, once all placements are made
            s = ev.delta(a >> 5, NO_SQ, nm, k + 1)
            self.steps += b[WN] + 2
            b[m] = EMPTY
            if self.side[k] != nm:
                s = -s
            if a == self.ban and self._banned(k):
                s = -_INF                    # refused by the duty to deviate
            self.ov[i] = s
            self.it[k] = i + 1
            return
        lo = self.lo[k]
        n = self.lim[k]
        self.lim[k] = lo + n if lo + n < h else h
        self.it[k] = lo
        self.pc[k] = _P_LOOP

    @micropython.native
    def _place_loop(self, k):
        i = self.it[k]
        if i >= self.lim[k]:
            self._return(k, self.bst[k])
            return
        if k:
            _pick(self.mv, self.ov, i, self.hi[k])
        a = self.mv[i]
        if a == self.ban and self._banned(k):
            self.it[k] = i + 1              # refused by the duty to deviate
            return
        self.cur[k] = a
        ev = self.ev
        sq = a >> 5
        ev.b[SQ2MB[sq]] = a & 31
        self.pc[k] = _P_RET
        nx = self.nxt[k]
        if nx != _NOBODY:
            self.mvr[k + 1] = self.mvr[k]
            self.nxt[k + 1] = _NOBODY
            self._child(k, _PLACE, nx, self.dep[k], sq, NO_SQ)
        else:
            side = self.mvr[k] ^ 1
            ev.side = side
            self._child(k, _TURN, side, self.dep[k] - 1, sq, NO_SQ)

    @micropython.native
    def _place_ret(self, k):
        v = self.ret
        j = k + 1
        if self.side[j] != self.side[k]:
            v = -v
        ev = self.ev
        placed = self.knd[j] == _PLACE
        if not placed:
            ev.side = self.mvr[k]
        ev.b[SQ2MB[self.cur[k] >> 5]] = EMPTY
        self._update(k, v, placed)



# What a level does next, by Engine.pc (the _T_ and _P_ constants).
_STEPS = (None, Engine._turn_gen, Engine._turn_loop, Engine._turn_ret, Engine._place_records,
          Engine._place_scan, Engine._place_delta, Engine._place_loop, Engine._place_ret)

@micropython.viper
def _pick(mv, ov, i: int, h: int) -> int:
    # Bring the best-keyed action of mv[i:h] to i (selection: cut-offs often come early).
    # Returns its key. (Keys are signed 16-bit: x ^ 0x8000 orders them as unsigned.)
    m = ptr16(mv)
    o = ptr16(ov)
    b = i
    bv = o[i] ^ 0x8000
    j = i + 1
    while j < h:
        if (o[j] ^ 0x8000) > bv:
            b = j
            bv = o[j] ^ 0x8000
        j += 1
    if b != i:
        t = m[i]
        m[i] = m[b]
        m[b] = t
        o[b] = o[i]
        o[i] = bv ^ 0x8000
    return int(bv) - 0x8000
