# The language of every text a player reads on the board.
#
#   t("Put back %s")     the text in the chosen language (the English text is the key)
#   set_language("de")   choose one of LANGUAGES (ValueError for an unknown code)
#   language()           the code chosen now
#
# The texts live in one module per language, controller/lang_<code>.py, each holding one tuple
# T: lang_xx.T[i] is the translation of lang_en.T[i]. Only the chosen language is kept;
# choosing another drops it. The English texts are the keys, but their module is not kept:
# each text's key, a 24-bit hash of its letters (_key), is made once when a language is chosen,
# and t() finds a text by its key (the host tests hold the keys unique). An English text is its
# own translation (t returns its argument). A text missing from the English table is a bug the
# host tests catch (every t("...") in the firmware is checked), never an English fallback at
# run time: t() raises ValueError for it.
#
# Where the texts are kept: on the frozen build a language's tuple of constant strings stays in
# flash, so the module is used as it is. Loaded from a .mpy file every string would be an
# object on the heap (about 48 bytes a text), so the .mpy build carries every language as a
# file instead, controller/lang_<code>.bin, kept open while the language is chosen, and a text
# not in the cache below is read from it (controller/textfile.py). That build also names most
# texts by their place in lang_en.T instead of their English words: tools/deploy.py compiles
# t("Resume game") as t(31), so the English texts are not on the heap either. A text's place
# is found only in a file (t(31) in English reads lang_en.bin); a text by its words in English
# is its own translation, as ever. Places are only good with the English table they were
# counted in: deploy.py writes that table's id into _TABLE below and into every language file,
# and a file of another id is refused (a board left with no English texts says so at power-on:
# at_hand()).
#
# Texts with values are % templates ("Put back %s: %s"), so each language orders its words.
import sys

LANGUAGES = ("en", "de", "it", "es")
NAMES = ("English", "Deutsch", "Italiano", "Espa\u00f1ol")   # each in its own language

_TABLE = 0          # the .mpy build: the id of the English table its places count in (written
#                     by tools/deploy.py); 0: every text is named by its words
_code = "en"
_keys = None        # the keys of lang_en.T's texts (_key), or 0: the chosen language's file
_tr = None          # the chosen language's T, from its module
_f = None           # ... or its file (.mpy build): a TextFile
# A small cache of lookups: a text's key is made from every letter, and a screen asks for the
# same texts again and again. Slot hash(s) % 32 holds the last text looked up there (_cs: the
# caller's own string object, so one `is` tells a hit) and its translation (_cr).
_cs = None          # [32 texts], made with the first language but English
_cr = None          # [32 translations]


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


def _module(code):
    # The language's T where its module can be imported (frozen, or from source), else None.
    name = "controller.lang_" + code
    try:
        __import__(name)
    except ImportError:
        return None
    return sys.modules[name].T


def _forget(code):
    # Drop a language module, so that its texts can be freed (from source: they are on the heap).
    name = "controller.lang_" + code
    sys.modules.pop(name, None)
    pkg = sys.modules.get("controller")
    if pkg is not None and getattr(pkg, "lang_" + code, None) is not None:
        delattr(pkg, "lang_" + code)


def _path(code):
    return __file__.rsplit("/", 1)[0] + "/lang_" + code + ".bin"


def _file(code):
    from controller.textfile import TextFile
    return TextFile(_path(code), _TABLE)


def set_language(code):
    """Choose the language by its code (one of LANGUAGES)."""
    global _code, _keys, _tr, _f, _cs, _cr
    if code not in LANGUAGES:
        raise ValueError("unknown language %r (one of %s)" % (code, ", ".join(LANGUAGES)))
    if code == _code:
        return
    # English first, so that a language that cannot be loaded leaves the board in English.
    old, _code = _code, "en"
    _tr = _keys = _cs = _cr = None
    if _f is not None:
        _f.close()
        _f = None
    if old != "en":
        _forget(old)
    if code == "en":
        return
    _load(code, _module(code))
    _code = code


def _load(code, tr):
    # The language's texts: its module's T (with the English texts' keys), or (tr None) its file.
    global _keys, _tr, _f, _cs, _cr
    if tr is None:
        _f = _file(code)
        keys = 0
    else:
        keys = tuple(_key(s) for s in _module("en"))
        if code != "en":
            _forget("en")
        if len(tr) != len(keys):
            raise ValueError("lang_%s has %d texts, English %d" % (code, len(tr), len(keys)))
    _cs = [None] * 32
    _cr = [None] * 32
    _keys, _tr = keys, tr


def at_hand():
    """Where English is read from a file too (the .mpy build), open it now: the first screen
    would wait for it (t() opens it when first asked for a text by its place). Returns why
    it cannot be read ("" when all is well): the file missing, damaged or from another
    firmware version (a place would name no text, or another one)."""
    if _keys is None and _TABLE:
        try:
            _load("en", None)
        except ValueError as e:
            return str(e)
    return ""


def language():
    """The code of the chosen language ("en", "de", ...)."""
    return _code


def name(code):
    """A language's own name for itself ("Deutsch" for "de")."""
    return NAMES[LANGUAGES.index(code)]


def t(s):
    """s (an English text of lang_en.T, or its place there) in the chosen language. No
    allocation but a text read from a language file that is not in the cache."""
    if _keys is None and type(s) is str:
        return s
    h = hash(s) & 31
    if _cs is not None and _cs[h] is s:
        return _cr[h]
    return _look_up(s, h)


def _look_up(s, h):
    if _keys is None:           # a text's place (the .mpy build) while English is chosen
        _load("en", _module("en"))
    if type(s) is int:
        r = _tr[s] if _tr is not None else _f.item(s)
    elif _code == "en":
        r = s
    else:
        k = _key(s)
        r = _tr[_keys.index(k)] if _tr is not None else _f.item(_f.find(k))
    _cs[h] = s
    _cr[h] = r
    return r
