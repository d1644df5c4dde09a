# Putting the board right (controller/judge.py): when the board does not show the game (at
# power-on, after the judge lost track, after pieces were swapped), the players are guided back
# to the game's position square by square. Occupancy is what the sensors see; where a wrong
# piece stands on an occupied square (known from a story or a take-back), restore marks it:
# 1 lift it, 2 lifted (put the right one there). It follows lifts and set-downs, not stories,
# so it always ends.
from barragoon.core import ZEROS
from controller.stories import NEW


def occupied_as(sensed, b0):
    """Is every square occupied exactly where b0 has a piece?"""
    for sq in range(63):
        if sensed[sq] != (1 if b0[sq] else 0):
            return False
    return True


class Repair:
    def __init__(self):
        self.restore = bytearray(63)

    def start(self, b0, phys):
        """b0: the position to show; phys: the piece codes physically on the board, where
        known (None: occupancy only)."""
        r = self.restore
        r[:] = ZEROS
        if phys is not None:
            for sq in range(63):
                if phys[sq] and b0[sq] and phys[sq] != b0[sq] and phys[sq] != NEW:
                    r[sq] = 1

    def event(self, sq, present):
        r = self.restore
        if present and r[sq] == 2:
            r[sq] = 0
        elif not present and r[sq] == 1:
            r[sq] = 2

    def done(self, sensed, b0):
        if not occupied_as(sensed, b0):
            return False
        r = self.restore
        for sq in range(63):
            if r[sq]:
                return False
        return True
