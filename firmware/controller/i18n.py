# The language of every text a player reads on the board.
#
#   t("Put back %s")     the text in the chosen language (the English text is the key)
#   set_language("de")   choose one of LANGUAGES (ValueError for an unknown code)
#   language()           the code chosen now
#
# The texts live in one module per language, controller/lang_<code>.py, each holding one tuple
# T: lang_xx.T[i] is the translation of lang_en.T[i]. Only the chosen language's module is
# kept; choosing another drops it. The English texts are the keys, but their module is not
# kept: each text's key, a 24-bit hash of its letters (_key), is made once when a language is
# chosen, and t() finds a text by its key (the host tests hold the keys unique). On the
# frozen build these tuples of constant strings stay in flash, so a language costs almost no
# heap; run from .mpy files its strings are on the heap, and the keys take far less than the
# English texts would. English costs nothing at all (t returns its argument). A text
# missing from the English table is a bug the host tests catch (every t("...") in the
# firmware is checked), never an English fallback at run time: t() raises ValueError for it.
#
# Texts with values are % templates ("Put back %s: %s"), so each language orders its words.
import sys

LANGUAGES = ("en", "de", "it", "es")
NAMES = ("English", "Deutsch", "Italiano", "Espa\u00f1ol")   # each in its own language

_code = "en"
_keys = None        # the keys of lang_en.T's texts (_key) while another language is chosen
_tr = None          # the chosen language's T (None: English)
# A small cache of lookups: a text's key is made from every letter, and a screen asks for the
# same texts again and again. Slot hash(s) % 32 holds the last text looked up there (_cs: the
# caller's own string object, so one `is` tells a hit) and its place (_ci).
_ci = None          # array("H") of 32 places, made with the first language but English
_cs = None          # [32 texts]


try:
    import micropython

    @micropython.viper
    def _key(s) -> int:
        p = ptr8(s)                     # noqa: F821 (viper; the texts are ASCII)
        n = int(len(s))
        h = 0
        i = 0
        while i < n:
            h = (h * 33 + p[i]) & 0xFFFFFF
            i += 1
        return h
except (ImportError, AttributeError):   # CPython
    def _key(s):
        h = 0
        for c in s.encode():
            h = (h * 33 + c) & 0xFFFFFF
        return h


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
    global _code, _keys, _tr, _ci, _cs
    if code not in LANGUAGES:
        raise ValueError("unknown language %r (one of %s)" % (code, ", ".join(LANGUAGES)))
    if code == _code:
        return
    old = _code
    _tr = None
    if code == "en":
        _keys = None
    else:
        tr = _table(code)
        if _keys is None:
            _keys = tuple(_key(s) for s in _table("en"))
            _forget("en")
        if len(tr) != len(_keys):
            raise ValueError("lang_%s has %d texts, English %d" % (code, len(tr), len(_keys)))
        if _ci is None:
            from array import array
            _ci = array("H", bytes(64))
            _cs = [None] * 32
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
    if _cs[h] is s:
        return _tr[_ci[h]]
    i = _keys.index(_key(s))
    _cs[h] = s
    _ci[h] = i
    return _tr[i]
