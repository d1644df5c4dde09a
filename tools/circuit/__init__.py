# The board's circuit as data: parts (parts.py), a netlist (netlist.py), the design for every
# build option (design.py), the electrical rules check (erc.py), and what is generated from it:
# the pin map and BOM (outputs.py) and a one-page schematic (schematic.py). Standard library
# only; tools/hardware.py is the command line.
