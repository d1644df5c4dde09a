# The modules the tools and the host tests share; none of them is a tool (the tools are the
# scripts at the top of tools/). Several run on the MicroPython unix port too:
#   cli.py               --help and one-line mistakes for the tools that run on MicroPython
#   event_script.py      what the hands did on a board, with times, as text (also events.txt)
#   ctl_script.py        drive the board controller with a script of physical actions
#   hands.py             synthetic players for the handling fuzz and bench/bench_handling.py
#   record_file.py       split a file of game records (records.txt) into games
#   reference_player.py  the fixed 2-ply opponent the engine's levels are measured against
#   deadlock_pens.py     random small positions for rule 6b (test and benchmark)
#   uf2.py               UF2 firmware files and the build mark
