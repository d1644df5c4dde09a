# LED colours at full scale (the LED driver applies brightness and the current limit).
# Chosen to stay apart on a WS2812 under a diffuser: hue, not brightness, carries meaning.
OFF = b"\x00\x00\x00"
ORIGIN = b"\x00\x00\xff"          # blue: the lifted tile's square
MOVE = b"\x00\xff\x00"            # green: a square the tile may move to
CAPTURE_TILE = b"\xff\x50\x00"    # orange: capturing an opponent tile
CAPTURE_BARRAGOON = b"\xff\xd0\x00"  # yellow: capturing a Barragoon
CAPTURER = b"\x00\xa0\xff"        # sky blue: own tiles that can capture the lifted piece
ERROR = b"\xff\x00\x00"           # red (flashing): illegal set-down, forbidden lift
TO_EMPTY = b"\xff\x00\xff"        # magenta: take the piece off this square
TO_FILL = b"\x00\xff\xff"         # cyan: put a piece on this square
PLACE = b"\xff\xff\xff"           # white: a Barragoon being placed / the next set-up square
HINT = b"\x00\x30\x30"            # dim cyan: other set-up squares still to fill
WIN = b"\x00\xff\x00"             # game over: the winner's tiles
LOSE = b"\xff\x00\x00"            # ... the loser's tiles
DRAW = b"\xff\x90\x00"            # ... every tile after a draw
SENSED = b"\xff\xff\xff"          # sensor test: an occupied square

# Kind of target (barragoon.core T_MOVE / T_CAPTURE_TILE / T_CAPTURE_BARRAGOON) -> colour.
TARGET = (OFF, MOVE, CAPTURE_TILE, CAPTURE_BARRAGOON)

PALETTE = (OFF, ORIGIN, MOVE, CAPTURE_TILE, CAPTURE_BARRAGOON, CAPTURER, ERROR, TO_EMPTY,
           TO_FILL, PLACE, HINT, WIN, LOSE, DRAW, SENSED)

# LED test: the colours it cycles through.
TEST_CYCLE = (b"\xff\x00\x00", b"\x00\xff\x00", b"\x00\x00\xff", b"\xff\xff\xff")
