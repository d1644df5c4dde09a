# Every time the board's judge uses (controller/judge.py and its parts), in one place. None of
# them decides which story of the hands is true: a story the sensors allow stays alive however
# fast or slow the hands were. They say when the board acts on its likeliest story, rank the
# stories, and apply touch-move.
try:
    from micropython import const
except ImportError:  # CPython
    from barragoon.hostshim import const

# The whole board must be this still before the board acts on its likeliest story (makes the
# move, shows the face picker, asks, flashes an error). Acting sooner would show the players
# decisions that the next set-down, a moment later, changes; acting later makes them wait.
# Nothing is lost by waiting: the stories stay, and the opponent's first lift of one of their own
# tiles acts at once. (config.SETTLE_MS overrides it.)
SETTLE_MS = const(300)

# Touch-move (rule 4.6) as the board applies it: a lift shorter than this that ends on the
# piece's own square is straightening, not a touch. Hands that straighten a piece or knock it
# put it back within a quarter of a second; a player who picks a piece up to think holds it
# longer. It never decides which piece came down where. (config.ADJUST_MS overrides it.)
ADJUST_MS = const(250)

# Ranking: a hand rarely sets a different piece on a square within this time of lifting the
# one that stood there; a knock or a bouncing reed brings the same piece back. The capturing
# tile landing on its victim's square is the exception (a push-off lands within 30 ms), and
# the other stories stay alive, only less likely.
BOUNCE_MS = const(80)

# Ranking by physics: a piece carried through the air needs at least this long per square
# beyond the first (a neighbouring square is reached at once: a slide). A story in which a
# piece flew faster ranks last (a victim put back 30 ms after the attacker left a square
# three away is the victim, not the attacker landing).
FLIGHT_MS = const(50)

# Ranking of slides: a magnet between two squares closes both sensors. A piece from outside
# set down beside a piece that leaves within this time is likely that piece, slid; one that
# rested longer between the squares is still a story, less likely.
SLIDE_MS = const(100)

# A piece that reaches the next square less than this after leaving its own slid (or was
# pushed) there: the sensors between two squares open only a moment. Likelier that piece
# than another one set down there.
GAP_MS = const(40)

# Ranking of placements: after a capture the placer sees it and decides where the Barragoon
# goes (after a tile capture the captured side takes one from the supply first). One set down
# sooner than this after the capturing tile landed, exactly where that tile came from, is
# less likely a placement than the tile coming back (a capture given up).
REACT_MS = const(400)

# Two Barragoons of a tile capture set down less than this apart: two hands at once, either
# may be the captured side's. The players are asked whose is whose, the first down (the
# rules' order: the captured side places first) preselected.
TOGETHER_MS = const(150)

# Ranking of what the LEDs show while the players have not decided yet: the mover lifting the
# tile they have just set down is more likely straightening or sliding on within this time,
# the opponent starting a capture of it after. The mover may slide on until the opponent's
# first lift, whatever the time. (config.REOPEN_MS overrides it.)
REOPEN_MS = const(2000)

# Touch-move: the mover's hand is still over the board this long after it set a piece down. A
# tile of the opponent lifted meanwhile (which begins the opponent's turn) may have been knocked
# by it: if it goes back to its square, nobody must move it.
KNOCK_MS = const(300)

# After a power cut in the middle of a turn, the pieces lifted before it are taken as lifted
# this long before the board came back (long enough for any flight and any touch).
RESUME_MS = const(1000)

# After "Not yet" to "Each piece back?" the board asks again once it has been still this long.
ASK_AGAIN_MS = const(2000)
