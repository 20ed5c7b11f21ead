"""The project's documentation as pages of the simulator: ``GET /docs/rules/xobo.md`` is the
rules page rendered to HTML (markdown-it-py, CommonMark with tables), its diagrams
(``docs/rules/diagrams/*.svg``) and pictures served beside it, so that the page's How to play
links to the game's rules and every relative link of a page (another rules page,
``../firmware.md``) opens the same way.

Only files under ``docs/`` are served, and only Markdown, SVG and PNG; the Markdown's own HTML
is not passed through (the pages are the project's, but a page is no place for markup that
runs).

Usage (the simulator's server)::

    from xobo_host.sim import docs
    status, body, ctype = docs.page("/docs/rules/x.md")
"""

import html
import os

from xobo_host.sim.legend import ROOT

DOCS = os.path.join(ROOT, "docs")
TYPES = {".svg": "image/svg+xml", ".png": "image/png"}
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


def _markdown():
    """markdown-it-py's CommonMark renderer with tables, no raw HTML; None when absent."""
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        return None
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _file(url_path):
    """The file under docs/ that ``url_path`` (/docs/...) names, or None."""
    rel = url_path[len("/docs/"):]
    path = os.path.normpath(os.path.join(DOCS, rel))
    if not path.startswith(DOCS + os.sep) or not os.path.isfile(path):
        return None
    return path


def page(url_path):
    """(status, body bytes, content type) for ``GET url_path`` (a path under /docs/)."""
    path = _file(url_path)
    ext = os.path.splitext(path or "")[1]
    if path is None or (ext != ".md" and ext not in TYPES):
        return 404, ("no such page: %s (the simulator serves the Markdown, SVG and PNG "
                     "files under docs/)" % url_path).encode("utf-8"), \
            "text/plain; charset=utf-8"
    with open(path, "rb") as f:
        data = f.read()
    if ext != ".md":
        return 200, data, TYPES[ext]
    text = data.decode("utf-8")
    md = _markdown()
    title = next((line.lstrip("# ").strip() for line in text.splitlines()
                  if line.startswith("# ")), os.path.basename(path))
    if md is None:  # the renderer is not installed: the page as it is written
        body = "<pre>%s</pre>" % html.escape(text)
    else:
        body = md.render(text)
    out = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
           "<title>%s</title><style>%s</style></head><body><nav><a href=\"/\">the board"
           "</a> · <code>%s</code></nav><main>%s</main></body></html>"
           % (html.escape(title), STYLE, html.escape(url_path[1:]), body))
    return 200, out.encode("utf-8"), "text/html; charset=utf-8"
