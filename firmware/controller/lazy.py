# Modules imported when first used and dropped again when done.
#
# The stock MicroPython firmware loads every .mpy into the heap (its bytecode and constants),
# so a module costs RAM from its import until nothing refers to it. A plain two-player game
# needs neither the engine (about 22 KB with its evaluation and tables), the opponent, the menus
# nor the game clock: the controller loads them with load() when a game, a menu or a hint
# needs them, and drop()s them when it no longer does (Controller._tidy). A dropped module is
# gone from sys.modules and from its package's attributes, so the garbage collector frees it
# once the last object made from it (a menu, a clock, the engine) is gone.
#
# Only modules that load() imported are ever dropped: one imported by someone else (a test, a
# tool) stays, as its importer holds it and may have changed its settings.
import sys

_ours = set()                  # names of the modules load() imported (with their imports)


def load(name):
    """The module name (e.g. "controller.menus"), imported now unless it is loaded."""
    m = sys.modules.get(name)
    if m is None:
        before = set(sys.modules)
        try:
            __import__(name)
        finally:                       # (an import that failed half-way: its imports too)
            for n in sys.modules:
                if n not in before:
                    _ours.add(n)
        m = sys.modules[name]
    return m


def loaded(name):
    return name in sys.modules


def drop(*names):
    """Forget these modules (those load() imported; the others stay)."""
    for name in names:
        if name in _ours:
            _ours.discard(name)
            sys.modules.pop(name, None)
            pkg, _, attr = name.rpartition(".")
            p = sys.modules.get(pkg)
            if p is not None and getattr(p, attr, None) is not None:
                delattr(p, attr)
