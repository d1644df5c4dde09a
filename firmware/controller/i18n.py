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
# and t() finds a text by its key (the host tests hold the keys unique). English costs nothing
# (t returns its argument). A text missing from the English table is a bug the host tests catch
# (every t("...") in the firmware is checked), never an English fallback at run time: t()
# raises ValueError for it.
#
# Where the texts are kept: on the frozen build a language's tuple of constant strings stays in
# flash, so the module is used as it is. Loaded from a .mpy file every string would be an
# object on the heap (about 10 KB a language), so the .mpy build carries each language but
# English as a file instead, controller/lang_<code>.bin (tools/deploy.py writes it), read a
# text at a time while the language is chosen, kept open:
#   b"BGT1", the count n (2 bytes), the n English texts' keys (4 bytes each), n + 1 offsets
#   of the texts in what follows (2 bytes each), then the texts in UTF-8; little-endian.
# A text read from it is a new string, kept in the cache below while its slot holds it.
#
# Texts with values are % templates ("Put back %s: %s"), so each language orders its words.
import sys

LANGUAGES = ("en", "de", "it", "es")
NAMES = ("English", "Deutsch", "Italiano", "Espa\u00f1ol")   # each in its own language

_code = "en"
_keys = None        # the keys of lang_en.T's texts (_key) while another language is chosen
_tr = None          # the chosen language's T, from its module
_f = None           # ... or its file (.mpy build), open, with the texts' offsets (_off) and
_off = None         # where the texts begin in it (_at)
_at = 0
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


def _close():
    global _f, _off
    if _f is not None:
        _f.close()
    _f = _off = None


def _open(code):
    # The language's file (see the top): its keys; its offsets and the file kept in _off, _f.
    global _f, _off, _at
    import struct
    path = __file__.rsplit("/", 1)[0] + "/lang_" + code + ".bin"
    try:
        f = open(path, "rb")
    except OSError:
        raise ValueError("no texts for language %r on this board (%s)" % (code, path))
    head = f.read(6)
    n = head[4] | head[5] << 8 if len(head) == 6 else 0
    keys = f.read(4 * n)
    off = f.read(2 * n + 2)
    if head[:4] != b"BGT1" or len(keys) != 4 * n or len(off) != 2 * n + 2:
        f.close()
        raise ValueError("%s is not a language file of this firmware" % path)
    _f, _off, _at = f, off, 6 + 6 * n + 2
    return struct.unpack("<%dI" % n, keys)


def _read(i):
    j = 2 * i
    a = _off[j] | _off[j + 1] << 8
    _f.seek(_at + a)
    return str(_f.read((_off[j + 2] | _off[j + 3] << 8) - a), "utf-8")


def set_language(code):
    """Choose the language by its code (one of LANGUAGES)."""
    global _code, _keys, _tr, _cs, _cr
    if code not in LANGUAGES:
        raise ValueError("unknown language %r (one of %s)" % (code, ", ".join(LANGUAGES)))
    if code == _code:
        return
    # English first, so that a language that cannot be loaded leaves the board in English.
    old, _code = _code, "en"
    _tr = _keys = _cs = _cr = None
    _close()
    if old != "en":
        _forget(old)
    if code == "en":
        return
    tr = _module(code)
    if tr is None:
        keys = _open(code)
    else:
        keys = tuple(_key(s) for s in _module("en"))
        _forget("en")
        if len(tr) != len(keys):
            raise ValueError("lang_%s has %d texts, English %d" % (code, len(tr), len(keys)))
    _cs = [None] * 32
    _cr = [None] * 32
    _keys, _tr, _code = keys, tr, code


def language():
    """The code of the chosen language ("en", "de", ...)."""
    return _code


def name(code):
    """A language's own name for itself ("Deutsch" for "de")."""
    return NAMES[LANGUAGES.index(code)]


def t(s):
    """s (an English text of lang_en.T) in the chosen language. No allocation but a text read
    from a language file that is not in the cache."""
    if _keys is None:
        return s
    h = hash(s) & 31
    if _cs[h] is s:
        return _cr[h]
    i = _keys.index(_key(s))
    r = _tr[i] if _tr is not None else _read(i)
    _cs[h] = s
    _cr[h] = r
    return r
