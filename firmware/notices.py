# What the board says when one of its files failed (a storage note, files.py) or config.py
# did not load: the line for the serial console and error.log, and the screen shown at
# power-on. app.py imports this module only then, and drops it again.
import files
from controller.i18n import t as _t

# What the board does instead (a note's outcome), for error.log
OUTCOMES = {"defaults": "the defaults used", "copy": "its copy resumed",
            "new game": "a new game", "new log": "a new log begun",
            "new records": "new records begun", "played": "the game played from it"}


def log_text(note):
    """'settings.txt damaged: UnicodeError; kept as settings.bad; the defaults used'"""
    name, kind, problem, kept, outcome = note
    return "%s %s%s%s%s" % (name, kind, ": " + problem if problem else "",
                            "; kept as " + kept if kept else "",
                            "; " + OUTCOMES.get(outcome, outcome) if outcome else "")


def screen(note):
    """The note's screen: the file, what became of it, what the board does instead."""
    name, kind, problem, kept, outcome = note
    title = _t("Saved game") if name.startswith("saved/") or name == "game.txt" else name
    if kind == files.EMPTY:
        what = (_t("empty"), "")
    elif kind == files.NOT_REMOVED:
        what = (_t("not removed"), "")
    elif kind == files.NOT_MOVED:
        what = (_t("storage full") if outcome else _t("not set aside"), "")
    elif kept:
        what = (_t("damaged: kept"), _t("as %s") % kept[kept.rfind("/") + 1:])
    else:
        what = (_t("unreadable"), _t("not set aside"))
    if outcome == "defaults":
        then = _t("defaults used")
    elif outcome == "copy":
        then = _t("copy resumed")
    elif outcome == "new game":
        then = _t("a new game")
    elif outcome == "new log":
        then = _t("a new log")
    elif outcome == "new records":
        then = _t("new records")
    else:
        then = ""
    return title, what[0], what[1], then


def load_problem(e, trace):
    """Why config.py did not load, with its line: "config.py line 12: SyntaxError ...";
    trace(e) gives the traceback's text. Never raises: a byte of config.py that is not UTF-8
    can be in the message."""
    try:
        text = trace(e)
    except Exception:                      # noqa: BLE001 - (that byte, printed)
        text = ""
    at = text.rfind('config.py", line ')
    line = ""
    if at >= 0:
        at += 17
        end = at
        while end < len(text) and text[end].isdigit():
            end += 1
        line = " line " + text[at:end]
    return ("config.py%s: %s %s" % (line, type(e).__name__, printable(e))).strip()


def printable(x):
    """str(x) with anything but printable ASCII as "?" (for the OLED and error.log)."""
    try:
        b = str(x).encode()
    except Exception:                      # noqa: BLE001
        return "?"
    return bytes(c if 32 <= c < 127 else 63 for c in b).decode()


class DefaultOled:
    # The OLED's wiring in the default config.py (hardware/pinmap.csv): where a message goes
    # when config.py does not load.
    I2C_ID = 0
    I2C_SDA_PIN = 0
    I2C_SCL_PIN = 1
    I2C_FREQ = 400000
    OLED_ADDR = 0x3C
    OLED_FLIP = False
