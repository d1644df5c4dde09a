# The simulator page in four languages: tools/sim/text.json has one table per language, and a
# text missing in any of them (or a {value} it leaves out) is a failure here, not an English word
# on a German page. Every text the page names (index.html's data-t*, sim.js's t("...")) is in the
# tables, each language names itself and the player's section of RULES.md in it, and that section
# exists (the page's Rules link goes there). CPython test (pytest), no browser.
import json
import os
import re

import pytest

import test_docs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "tools", "sim")
RULES = "firmware/barragoon/RULES.md"
LANGUAGES = ("en", "de", "it", "es")
NAMES = {"en": "English", "de": "Deutsch", "it": "Italiano", "es": "Español"}


def read(name):
    with open(os.path.join(WEB, name), encoding="utf-8") as f:
        return f.read()


def tables():
    return json.loads(read("text.json"))


def leaves(value, path=""):
    """{path: text} of every text in a table (nested objects and lists flattened)."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return {path: value}
    out = {}
    for k, v in items:
        out.update(leaves(v, "%s.%s" % (path, k) if path else str(k)))
    return out


def test_the_page_has_exactly_the_four_languages_of_the_board():
    assert tuple(tables()) == LANGUAGES
    js = read("sim.js")
    assert 'const LANGUAGES = ["en", "de", "it", "es"];' in js
    import sim as simtool                      # tools/sim.py: what --lang accepts
    from controller import i18n                # the board's own
    assert simtool.LANGUAGES == i18n.LANGUAGES == LANGUAGES
    for lang, table in tables().items():       # each called as the board's menu calls it
        assert table["langName"] == i18n.name(lang)


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_text_is_in_every_language_with_the_same_values(lang):
    en = leaves(tables()["en"])
    other = leaves(tables()[lang])
    assert sorted(set(en) - set(other)) == [], "missing in %s" % lang
    assert sorted(set(other) - set(en)) == [], "only in %s" % lang
    for key, text in en.items():
        assert isinstance(other[key], str), (lang, key)
        want = sorted(set(re.findall(r"\{(\w+)\}", text)))
        got = sorted(set(re.findall(r"\{(\w+)\}", other[key])))
        assert got == want, "%s %s: values %s, English has %s" % (lang, key, got, want)
        assert other[key].count("<b>") == text.count("<b>"), (lang, key)
        # an empty text only where English has one (the steady LED pattern has no word)
        assert bool(other[key].strip()) == bool(text.strip()), (lang, key)


def test_every_text_the_page_names_is_in_the_tables():
    en = tables()["en"]
    html = read("index.html")
    named = set(re.findall(r'data-t(?:-html|-title)?="(\w+)"', html))
    named |= set(re.findall(r'\bt\("(\w+)"', read("sim.js")))
    named |= set(re.findall(r'\bsay\("(\w+)"', read("sim.js")))
    assert len(named) > 60
    assert sorted(named - set(en)) == []


def test_each_language_names_itself_and_its_section_of_the_rules():
    anchors = test_docs.anchors(RULES)
    md = test_docs.text(RULES)
    for lang, table in tables().items():
        assert table["langName"] == NAMES[lang]
        anchor = table["rulesAnchor"]
        assert anchor in anchors, "%s: #%s is no heading of RULES.md" % (lang, anchor)
        # the section starts with the language's own name and is listed at the top
        assert test_docs.slug(NAMES[lang] + ":") in anchor
        assert "(#%s)" % anchor in md.split("\n## ", 1)[0], "not in the table at the top"


def test_the_rules_page_the_simulator_serves_has_those_anchors():
    import sim as simtool
    for lang, table in tables().items():
        html = simtool.rules_html(lang)
        assert 'id="%s"' % table["rulesAnchor"] in html, lang
        assert '<html lang="%s">' % lang in html and table["rulesOf"] in html, lang
    assert simtool.rules_html("xx") == simtool.rules_html("en")    # a page asking oddly


def test_the_face_names_are_those_of_each_languages_printed_rules():
    # the names a player finds in the rule book of their language (the German original first)
    printed = {"de": ("Kein Weg", "Ein Weg", "Zwei Wege", "Rechtskurve", "Linkskurve",
                      "Alle Kurven"),
               "en": ("No Entry", "One Way", "Two Ways", "Right Turn", "Left Turn", "All Turns"),
               "it": ("Nessuna via", "Una via", "Due vie", "Svolta a destra",
                      "Svolta a sinistra", "Tutte le curve"),
               "es": ("Ninguna dirección", "Una dirección", "Dos direcciones",
                      "Giro a la derecha", "Giro a la izquierda", "Todos los giros")}
    symbol = {"X": 0, "1": 1, "2": 2, "R": 3, "L": 4, "A": 5}
    for lang, table in tables().items():
        for code, (name, does) in table["faces"].items():
            assert name.startswith(printed[lang][symbol[code[0]]]), (lang, code, name)
        section = test_docs.text(RULES).split("\n## %s:" % NAMES[lang], 1)[1]
        for name in printed[lang]:
            assert "| %s |" % name in section, (lang, name)
