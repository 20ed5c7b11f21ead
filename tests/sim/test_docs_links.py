"""Every link of the pages the simulator serves lands: the rules pages How to play opens, every
page of docs/ they lead to, the README and the other top-level pages, each heading a link
names, each picture, and each file of the project a page cites (the rules index's
``../../tests/test_rules_docs.py`` was a 404; tests/test_docs_links.py checks the same links in
the repository itself)."""

from urllib.parse import unquote, urldefrag, urljoin, urlparse

from conftest import ROOT
from linkkit import Links


def fetch(sim, path):
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(sim.url.rstrip("/") + path, timeout=10) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, "", exc.read()


def test_every_link_of_the_served_docs_pages_resolves(sim):
    # the rules page of every game (How to play, Rules) and every page of docs/
    start = ["/docs/rules/%s.md" % g["name"] for g in sim.state()["games"]]
    start += ["/" + str(p.relative_to(ROOT)) for p in sorted((ROOT / "docs").rglob("*.md"))]
    start += ["/README.md", "/CONTRIBUTING.md", "/CHANGELOG.md"]  # and the top-level pages
    todo = list(start)
    pages = {}  # path -> the ids of an HTML page, None for another file
    broken = []
    fragments = []  # (from, path, fragment)
    while todo:
        path = todo.pop()
        if path in pages:
            continue
        status, ctype, body = fetch(sim, path)
        if status != 200:
            broken.append((path, status))
            pages[path] = None
            continue
        if not ctype.startswith("text/html"):
            pages[path] = None
            continue
        parser = Links()
        parser.feed(body.decode("utf-8"))
        pages[path] = parser.ids
        for link in parser.links:
            url = urlparse(link)
            if url.scheme in ("http", "https", "mailto"):
                assert url.netloc, (path, link)  # an address elsewhere: not followed
                continue
            target, fragment = urldefrag(urljoin(path, link))
            target = urlparse(target).path
            if fragment:
                fragments.append((path, target, unquote(fragment)))
            if target not in pages:
                todo.append(target)
    assert not broken, broken
    missing = [(src, dst, frag) for src, dst, frag in fragments
               if pages.get(dst) is None or frag not in pages[dst]]
    assert not missing, missing
    assert "/tests/test_rules_docs.py" in pages  # the rules index cites it
    assert "/bench-results/" in pages  # the README cites the benchmarks' results
    assert len([p for p in pages if p.endswith(".md")]) >= 20


def test_the_simulator_serves_no_file_outside_the_project_s_own(sim):
    for path in ("/docs/../../etc/passwd", "/tests/../.git/config", "/.venv/pyvenv.cfg",
                 "/firmware/xobo/__pycache__/", "/xobo_board.egg-info/PKG-INFO",
                 "/docs/%2e%2e/%2e%2e/etc/passwd", "/boards/.hidden", "/tests/conftest.pyc"):
        status, ctype, body = fetch(sim, path)
        assert status == 404, (path, status)
    status, ctype, body = fetch(sim, "/tests/test_rules_docs.py")
    assert status == 200 and ctype.startswith("text/plain")
    assert b"def test_" in body
