# The rules core's refusals in the chosen language. The rules core (barragoon/) speaks English
# only (its texts also go to logs and tests); when it refuses what a player did, the board
# shows its text read against these templates (the core's own English texts; "%s" stands for a
# square, a move, a side or a reason) and translated (controller/i18n.py). A text not listed
# is shown as the core gives it. Loaded only when a refusal is shown in another language
# than English (modes.rules_text).
from controller import i18n
from controller.i18n import t as _t


def _from(s):
    # The English texts from s's place in lang_en.T to its end (only these kept): from the
    # module where it can be imported, else from lang_en.bin (the .mpy build, controller/i18n.py).
    en = i18n._module("en")
    if en is not None:
        return en[en.index(s):]
    f = i18n._file("en")
    try:
        return tuple(f.item(i) for i in range(f.find(i18n._key(s)), f.n))
    finally:
        f.close()


# The templates are the last texts of the English table (controller/lang_en.py), from this one.
RULES_TEXTS = _from("%s-%s repeats the sequence: %s must deviate")


def _match(tmpl, msg, args):
    # msg read as tmpl with its "%s" filled in: the values into args; False if it is not.
    i = 0
    parts = tmpl.split("%s")
    if not msg.startswith(parts[0]):
        return False
    i = len(parts[0])
    for k in range(1, len(parts)):
        p = parts[k]
        if k == len(parts) - 1:
            if not msg.endswith(p) or len(msg) - len(p) < i:
                return False
            j = len(msg) - len(p)
        else:
            j = msg.find(p, i) if p else i
            if j < 0:
                return False
        a = msg[i:j]
        args.append(_t(a) if a in ("White", "Brown") else a)
        i = j + len(p)
    return i == len(msg)


def text(e):
    """The rules core's refusal (a RulesError or its text) in the chosen language."""
    msg = str(e)
    for tmpl in RULES_TEXTS:
        args = []
        if _match(tmpl, msg, args):
            if tmpl == "the game is over: %s":
                args[0] = _t(args[0])          # the reason (game.TERMINATIONS)
            return _t(tmpl) % tuple(args)
    return msg
