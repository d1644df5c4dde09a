# The simulator's modules (tools/sim.py is the tool; tools/sim/ holds its page: HTML, CSS,
# script, screenshot):
#   device.py       the firmware's process: runs firmware/app.py on the virtual board
#                   (tools/vboard) under the MicroPython unix port (or CPython) and speaks JSON
#                   lines with sim.py; sim.py starts it, a user never does
#   pico_device.py  the same board on the emulated Pico (sim.py --rp2040)
#   rules_page.py   firmware/barragoon/RULES.md as the page's /rules
