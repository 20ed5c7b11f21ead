"""The project's documentation as pages of the simulator: ``GET /docs/rules/xobo.md`` is the
rules page rendered to HTML (markdown-it-py, CommonMark with tables, each heading with the id
GitHub gives it, so ``#a-heading`` links land), its diagrams (``docs/rules/diagrams/*.svg``) and
pictures served beside it, so that the page's How to play links to the game's rules and every
relative link of a page opens the same way: another page (``../firmware.md``), a heading, or a
file of the project a page cites (``../../tests/test_rules_docs.py``, ``../hardware/out/...``:
its source as text, a folder as the list of its files, a Markdown file rendered).

Only the project's own files are served, read-only: the ``docs/`` folder, the project's
folders of ``PROJECT_DIRS`` and its top-level Markdown (``README.md``, ``CONTRIBUTING.md``),
never a hidden file or folder, nothing built (``__pycache__``, ``*.egg-info``), only the kinds
of ``TEXT`` and ``TYPES``. The Markdown's own HTML is not passed through (the pages are the
project's, but a page is no place for markup that runs).

Usage (the simulator's server)::

    >>> from xobo_host.sim import docs
    >>> docs.serves("/docs/rules/x.md"), docs.serves("/etc/passwd")   # the project's files
    (True, False)
    >>> status, body, ctype = docs.page("/docs/rules/x.md")           # rendered, as served
    >>> status, ctype, b"<title>X</title>" in body
    (200, 'text/html; charset=utf-8', True)
    >>> docs.page("/docs/nosuch.md")[0]
    404
    >>> print(docs.render("## A heading\\n\\nPut a **piece**."))  # headings: GitHub's ids
    <h2 id="a-heading">A heading</h2>
    <p>Put a <strong>piece</strong>.</p>
    <BLANKLINE>
"""

import html
import os
import re
from urllib.parse import quote, unquote

from xobo_host.sim.legend import ROOT

DOCS = os.path.join(ROOT, "docs")
# the folders of the project whose files a page may cite, and its top-level pages
PROJECT_DIRS = ("docs", "firmware", "host_tools", "tests", "hardware", "boards", "tools",
                "bench-results")
TOP_FILES = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md", "Makefile", "pyproject.toml")
TYPES = {".svg": "image/svg+xml", ".png": "image/png"}
# files shown as their text (source, tables, settings)
TEXT = (".py", ".js", ".css", ".html", ".json", ".toml", ".txt", ".csv", ".cfg", ".ini",
        ".sh", ".kicad_sch", ".kicad_pcb", ".net", ".gbr", ".drl", ".yml", ".yaml")
TEXT_NAMES = ("Makefile", "run")
NOT_SERVED = ("__pycache__",)
STYLE = """
body { margin: 0 auto; max-width: 860px; padding: 24px 20px 60px; background: #17110d;
  color: #efe6da; font: 16px/1.55 system-ui, sans-serif; }
a { color: #e0a95b; } h1, h2, h3 { line-height: 1.25; color: #fff4e6; }
code { background: #2a1f16; padding: 0 4px; border-radius: 4px; font-size: 0.92em; }
pre { background: #2a1f16; padding: 10px; overflow-x: auto; border-radius: 6px; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; margin: 12px 0; } th, td { border: 1px solid #4a3a2c;
  padding: 4px 8px; vertical-align: top; } img { max-width: 100%; background: #3a2a1e; }
nav { font-size: 14px; margin-bottom: 16px; }
"""


def slug(title):
    """A heading's id as GitHub makes it (the links of the docs are written for GitHub):
    lower case, spaces to hyphens, every other character but letters, digits, '-' and '_'
    dropped."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def _markdown():
    """markdown-it-py's CommonMark renderer with tables and heading ids, no raw HTML; None
    when absent."""
    try:
        from markdown_it import MarkdownIt
        from mdit_py_plugins.anchors import anchors_plugin
    except ImportError:
        return None
    return MarkdownIt("commonmark", {"html": False}).enable("table").use(
        anchors_plugin, min_level=1, max_level=6, slug_func=slug)


def render(text):
    """The HTML of a Markdown text as the simulator shows it (headings with GitHub's ids), or
    the text in a ``<pre>`` when markdown-it-py is not installed."""
    md = _markdown()
    if md is None:
        return "<pre>%s</pre>" % html.escape(text)
    return md.render(text)


def serves(url_path):
    """True for a path this module answers (a page or file of the project)."""
    first = url_path.lstrip("/").split("/", 1)[0]
    return first in PROJECT_DIRS or first in TOP_FILES


def _file(url_path):
    """The project's file or folder that ``url_path`` names, or None."""
    rel = unquote(url_path).lstrip("/")
    parts = [p for p in rel.split("/") if p]  # '.' and '..' start with '.': refused below
    if not parts or not serves("/" + parts[0]):
        return None
    if any(p.startswith(".") or p in NOT_SERVED or p.endswith(".egg-info") for p in parts):
        return None
    path = os.path.normpath(os.path.join(ROOT, *parts))
    if not path.startswith(ROOT + os.sep) or not os.path.exists(path):
        return None
    return path


def _kind(path):
    """How a file is served: "md", "text", its content type, or None (not served)."""
    name = os.path.basename(path)
    ext = os.path.splitext(name)[1]
    if ext == ".md":
        return "md"
    if ext in TYPES:
        return TYPES[ext]
    if ext in TEXT or name in TEXT_NAMES:
        return "text"
    return None


def _html(title, url_path, body):
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<title>%s</title><style>%s</style></head><body><nav><a href=\"/\">the board"
            "</a> · <code>%s</code></nav><main>%s</main></body></html>"
            % (html.escape(title), STYLE, html.escape(url_path.lstrip("/")), body))


def _folder(path, url_path):
    """A folder of the project: the list of the files it serves, each a link."""
    items = []
    for name in sorted(os.listdir(path)):
        full = os.path.join(path, name)
        if name.startswith(".") or name in NOT_SERVED or name.endswith(".egg-info"):
            continue
        if os.path.isdir(full):
            items.append(name + "/")
        elif _kind(full):
            items.append(name)
    base = url_path.rstrip("/") + "/"
    body = "<h1>%s</h1><ul>%s</ul>" % (html.escape(url_path.strip("/") + "/"), "".join(
        '<li><a href="%s">%s</a></li>' % (html.escape(base + quote(n)), html.escape(n))
        for n in items))
    return _html(url_path.strip("/") + "/", url_path, body)


def page(url_path):
    """(status, body bytes, content type) for ``GET url_path`` (a path ``serves`` names)."""
    path = _file(url_path)
    kind = _kind(path) if path and os.path.isfile(path) else None
    if path and os.path.isdir(path):
        return 200, _folder(path, url_path).encode("utf-8"), "text/html; charset=utf-8"
    if kind is None:
        return 404, ("no such page: %s (the simulator serves the project's docs/, its pages "
                     "and the files they cite)" % url_path).encode("utf-8"), \
            "text/plain; charset=utf-8"
    with open(path, "rb") as f:
        data = f.read()
    if kind == "text":
        return 200, data, "text/plain; charset=utf-8"
    if kind != "md":
        return 200, data, kind
    text = data.decode("utf-8")
    title = next((line.lstrip("# ").strip() for line in text.splitlines()
                  if line.startswith("# ")), os.path.basename(path))
    return 200, _html(title, url_path, render(text)).encode("utf-8"), "text/html; charset=utf-8"
