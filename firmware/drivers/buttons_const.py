# Input event codes returned by drivers.inputs.Inputs.pop(). This module imports nothing, so the
# hardware-free controller (and host tests) can use the codes without pulling in `machine`.
BTN_UP = 1      # up button, or encoder turned counter-clockwise
BTN_DOWN = 2    # down button, or encoder turned clockwise
BTN_OK = 3      # short press of ok / encoder push (sent on release)
BTN_BACK = 4    # long press of ok / encoder push (sent once LONG_PRESS_MS is reached)
BTN_OK_DOWN = 5  # ok / encoder push went down (debounced): what OK will confirm is noted then,
#                  so a piece lifted before its release does not undo it (no mode sees it)
