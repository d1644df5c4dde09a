# The language of every text a player reads on the board.
#
#   t("Put back %s")     the text in the chosen language (the English text is the key)
#   set_language("de")   choose one of LANGUAGES (ValueError for an unknown code)
#   language()           the code chosen now
#
# The texts live in one module per language, controller/lang_<code>.py, each holding one tuple
# T: lang_xx.T[i] is the translation of lang_en.T[i]. Only the chosen language's module is
# imported (and the English one, for the keys); choosing another drops it. On the frozen build
# these tuples of constant strings stay in flash, so a language costs almost no heap; English
# costs nothing at all (t returns its argument). A text missing from the English table is a
# bug the host tests catch (every t("...") in the firmware is checked), never an English
# fallback at run time: t() raises ValueError for it.
#
# Texts with values are % templates ("Put back %s: %s"), so each language orders its words.
import sys

LANGUAGES = ("en", "de", "it", "es")
NAMES = ("English", "Deutsch", "Italiano", "Espa\u00f1ol")   # each in its own language

_code = "en"
_en = None          # lang_en.T while another language is chosen (the keys)
_tr = None          # the chosen language's T (None: English)
# A small cache of lookups: searching lang_en.T takes up to about 0.2 ms on the RP2040, and a
# screen asks for the same texts again and again. Slot hash(s) % 32 holds the place of the
# last text looked up there (one comparison tells whether it is this one).
_ci = None          # array("H") of 32 places, made with the first language but English


def _table(code):
    name = "controller.lang_" + code
    __import__(name)
    return sys.modules[name].T


def _forget(code):
    # Drop a language module, so that its texts can be freed (stock build: they are on the heap).
    name = "controller.lang_" + code
    sys.modules.pop(name, None)
    pkg = sys.modules.get("controller")
    if pkg is not None and getattr(pkg, "lang_" + code, None) is not None:
        delattr(pkg, "lang_" + code)


def set_language(code):
    """Choose the language by its code (one of LANGUAGES)."""
    global _code, _en, _tr, _ci
    if code not in LANGUAGES:
        raise ValueError("unknown language %r (one of %s)" % (code, ", ".join(LANGUAGES)))
    if code == _code:
        return
    old = _code
    _tr = None
    if code == "en":
        _en = None
        _forget("en")
    else:
        tr = _table(code)
        if _en is None:
            _en = _table("en")
        if len(tr) != len(_en):
            raise ValueError("lang_%s has %d texts, English %d" % (code, len(tr), len(_en)))
        if _ci is None:
            from array import array
            _ci = array("H", bytes(64))
        _tr = tr
    if old != "en":
        _forget(old)
    _code = code


def language():
    """The code of the chosen language ("en", "de", ...)."""
    return _code


def name(code):
    """A language's own name for itself ("Deutsch" for "de")."""
    return NAMES[LANGUAGES.index(code)]


def t(s):
    """s (an English text of lang_en.T) in the chosen language. No allocation."""
    if _tr is None:
        return s
    h = hash(s) & 31
    i = _ci[h]
    if _en[i] == s:
        return _tr[i]
    i = _en.index(s)
    _ci[h] = i
    return _tr[i]
