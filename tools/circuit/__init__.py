# The board's circuit as data: parts (parts.py), a netlist (netlist.py), the design for every
# build option (design.py) and earlier designs (history.py), the electrical rules check (erc.py:
# the graph and its analyses in graph.py, the rules in rules_power.py, rules_signal.py and
# rules_matrix.py), and what is generated from it: the pin map and BOM (outputs.py), a one-page
# schematic (schematic.py) and a KiCad netlist (kicad.py). Standard library only;
# tools/hardware.py is the command line.
