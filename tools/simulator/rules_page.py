"""firmware/barragoon/RULES.md as a web page for the simulator (GET /rules).

RULES.md uses a small part of Markdown: headings, paragraphs, lists (nested by two spaces),
fenced and indented code blocks, tables, `code`, **bold**, *emphasis* and [links](...). This
module renders exactly that part to HTML, without a Markdown package. Headings get the ids
GitHub gives them, so the document's own contents links (#the-board) work on the page too.
Links to files of the project become links to the simulator's copy of them when it serves
the file (the example games), and plain text otherwise.
"""
import html
import os
import re

_FENCE = re.compile(r"^\s*```")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^( *)([-*+]|\d+[.)])\s+(.*)$")
_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|"
                     r"\[([^\]]+)\]\(([^)\s]+)\)")


def slug(text):
    """The anchor GitHub makes of a heading: lower case, punctuation dropped, spaces to -."""
    plain = re.sub(r"[`*_]", "", re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)).lower()
    return re.sub(r"[^\w\- ]", "", plain).replace(" ", "-")


class Renderer:
    """link(target) -> href or None (then the link's text is shown without a link)."""

    def __init__(self, link=None):
        self.link = link or (lambda target: target if target.startswith("#") else None)
        self.ids = {}

    # --- inline -----------------------------------------------------------------------------
    def inline(self, text):
        out = []
        pos = 0
        for m in _INLINE.finditer(text):
            out.append(html.escape(text[pos:m.start()], quote=False))
            code, strong, em, label, target = m.groups()
            if code is not None:
                out.append("<code>%s</code>" % html.escape(code, quote=False))
            elif strong is not None:
                out.append("<strong>%s</strong>" % self.inline(strong))
            elif em is not None:
                out.append("<em>%s</em>" % self.inline(em))
            else:
                href = self.link(target)
                inner = self.inline(label)
                if href is None:
                    out.append('<span class="file" title="%s">%s</span>'
                               % (html.escape(target), inner))
                else:
                    away = "" if href.startswith("#") else ' target="_blank" rel="noopener"'
                    out.append('<a href="%s"%s>%s</a>' % (html.escape(href), away, inner))
            pos = m.end()
        out.append(html.escape(text[pos:], quote=False))
        return "".join(out)

    def _id(self, text):
        base = slug(text)
        n = self.ids.get(base, 0)
        self.ids[base] = n + 1
        return base if n == 0 else "%s-%d" % (base, n)

    # --- blocks -----------------------------------------------------------------------------
    def blocks(self, lines):
        out = []
        i = 0
        n = len(lines)
        while i < n:
            line = lines[i]
            if not line.strip():
                i += 1
            elif _FENCE.match(line):
                j = i + 1
                while j < n and not _FENCE.match(lines[j]):
                    j += 1
                out.append(self._pre(lines[i + 1:j]))
                i = j + 1
            elif _HEADING.match(line):
                hashes, text = _HEADING.match(line).groups()
                out.append('<h%d id="%s">%s</h%d>' % (len(hashes), self._id(text),
                                                      self.inline(text), len(hashes)))
                i += 1
            elif line.startswith("    "):
                j = i
                while j < n and (lines[j].startswith("    ") or not lines[j].strip()):
                    j += 1
                while not lines[j - 1].strip():
                    j -= 1
                out.append(self._pre([x[4:] for x in lines[i:j]]))
                i = j
            elif line.lstrip().startswith("|"):
                j = i
                while j < n and lines[j].lstrip().startswith("|"):
                    j += 1
                out.append(self._table(lines[i:j]))
                i = j
            elif _ITEM.match(line):
                i = self._list(lines, i, out)
            else:
                j = i
                while j < n and lines[j].strip() and not self._starts_block(lines[j]):
                    j += 1
                out.append("<p>%s</p>" % self.inline(" ".join(x.strip() for x in lines[i:j])))
                i = j
        return "\n".join(out)

    @staticmethod
    def _starts_block(line):
        return bool(_FENCE.match(line) or _HEADING.match(line) or _ITEM.match(line)
                    or line.lstrip().startswith("|"))

    @staticmethod
    def _pre(lines):
        return "<pre>%s</pre>" % html.escape("\n".join(lines), quote=False)

    def _table(self, rows):
        cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
        if len(cells) > 1 and all(re.match(r"^:?-+:?$", c) for c in cells[1]):
            head, body = cells[0], cells[2:]
        else:
            head, body = None, cells
        out = ["<table>"]
        if head:
            out.append("<thead><tr>%s</tr></thead>" % "".join(
                "<th>%s</th>" % self.inline(c) for c in head))
        out.append("<tbody>")
        for r in body:
            out.append("<tr>%s</tr>" % "".join("<td>%s</td>" % self.inline(c) for c in r))
        out.append("</tbody></table>")
        return "".join(out)

    def _list(self, lines, i, out):
        """A list starting at lines[i]; its items' lines (continuations, nested lists, code
        indented below them) are rendered as blocks of their own. Returns the next line."""
        first = _ITEM.match(lines[i])
        indent = len(first.group(1))
        tag = "ol" if first.group(2)[0].isdigit() else "ul"
        items = []
        n = len(lines)
        while i < n:
            m = _ITEM.match(lines[i])
            if not m or len(m.group(1)) != indent:
                break
            body_indent = indent + len(m.group(2)) + 1
            body = [m.group(3)]
            i += 1
            while i < n:
                line = lines[i]
                if not line.strip():
                    # A blank line: the item goes on only if indented text follows.
                    j = i
                    while j < n and not lines[j].strip():
                        j += 1
                    if j < n and _indent(lines[j]) >= body_indent:
                        body.extend([""] * (j - i))
                        i = j
                        continue
                    break
                if _indent(line) >= body_indent:
                    body.append(line[body_indent:])
                elif _indent(line) > indent and not _ITEM.match(line):
                    body.append(line.strip())           # a lazy continuation line
                elif _ITEM.match(line) or self._starts_block(line):
                    break
                else:
                    body.append(line.strip())
                i += 1
            items.append(body)
        out.append("<%s>" % tag)
        for body in items:
            # A plain item (one paragraph, perhaps a nested list) shows without <p>.
            head = []
            while body and body[0].strip() and \
                    not self._starts_block(body[0]) and not body[0].startswith("    "):
                head.append(body.pop(0).strip())
            inner = self.inline(" ".join(head)) if head else ""
            rest = self.blocks(body) if body else ""
            out.append("<li>%s%s</li>" % (inner, ("\n" + rest) if rest else ""))
        out.append("</%s>" % tag)
        return i


def _indent(line):
    return len(line) - len(line.lstrip(" "))


PAGE = """<!doctype html>
<html lang="%(lang)s">
<head>
<meta charset="utf-8">
<title>%(title)s</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { margin: 0; background: #15171c; color: #e6e8ec;
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 860px; margin: 0 auto; padding: 12px 24px 60px; }
.top { color: #8d94a1; font-size: 13px; border-bottom: 1px solid #2c313b; padding: 10px 0; }
a { color: #5fb3ff; }
h1, h2, h3 { line-height: 1.25; }
h2 { margin-top: 2em; padding-bottom: .2em; border-bottom: 1px solid #2c313b; }
code { background: #23272f; padding: 1px 5px; border-radius: 4px;
  font: 13px ui-monospace, Menlo, Consolas, monospace; }
pre { background: #101216; border: 1px solid #2c313b; border-radius: 8px; padding: 10px 14px;
  overflow-x: auto; font: 13px/1.25 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #2c313b; padding: 5px 10px; text-align: left; vertical-align: top; }
th { background: #1f232b; }
.file { font-style: italic; }
</style>
</head>
<body>
<main>
<div class="top">%(top)s</div>
%(body)s
</main>
</body>
</html>
"""


def render(text, link=None):
    """The Markdown text as an HTML fragment."""
    return Renderer(link).blocks(text.replace("\r\n", "\n").split("\n"))


def page(text, top="", link=None, lang="en"):
    """A whole HTML page: the rendered text under a line of navigation (top, HTML, in the
    language lang)."""
    m = re.search(r"^#\s+(.*)$", text, re.M)
    title = m.group(1).strip() if m else "Rules"
    return PAGE % {"title": html.escape(title), "top": top, "body": render(text, link),
                   "lang": html.escape(lang)}


def file_link(doc_dir, root, served):
    """A link(target) for a document in doc_dir: a relative link to a file in served (a
    {repository path: URL} map) goes to its URL; other files are shown as text."""
    def link(target):
        if target.startswith("#") or re.match(r"^[a-z]+://", target):
            return target
        path = os.path.relpath(os.path.normpath(os.path.join(doc_dir, target.split("#")[0])),
                               root).replace(os.sep, "/")
        return served.get(path)
    return link
