"""Every link of the README and of the pages under docs/ lands in the repository: the file or
folder it names exists, and the heading its ``#fragment`` names is on the page it names (the
ids GitHub gives headings, as the simulator renders them: ``xobo_host.sim.docs.render``).
tests/sim/test_docs_links.py follows the same links in the simulator's served pages."""

from urllib.parse import unquote, urldefrag, urlparse

import pytest
from conftest import ROOT
from linkkit import Links

from xobo_host.sim import docs

PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"] + sorted(
    (ROOT / "docs").rglob("*.md"))


def parsed(path):
    p = Links()
    p.feed(docs.render(path.read_text(encoding="utf-8")))
    return p


def name(path):
    return str(path.relative_to(ROOT))


def broken_links(page, root=ROOT):
    """What is wrong with each link of ``page`` (a Markdown file under ``root``)."""
    root = root.resolve()
    broken = []
    for link in parsed(page).links:
        url = urlparse(link)
        if url.scheme in ("http", "https", "mailto"):
            if not (url.netloc or url.scheme == "mailto"):
                broken.append("%s: an address without a host" % link)
            continue
        target, fragment = urldefrag(link)
        path = (page.parent / unquote(target)).resolve() if target else page.resolve()
        if root not in path.parents and path != root:
            broken.append("%s: leaves the repository" % link)
            continue
        if not path.exists():
            broken.append("%s: no such file or folder" % link)
            continue
        if fragment:
            if path.suffix != ".md":
                broken.append("%s: a #fragment of a file that is no page" % link)
            elif unquote(fragment) not in parsed(path).ids:
                broken.append("%s: no heading #%s on %s" % (link, fragment, path.name))
    return broken


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_every_link_of_the_page_lands_in_the_repository(page):
    broken = broken_links(page)
    assert not broken, "%s:\n%s" % (name(page), "\n".join(broken))


def test_the_check_finds_a_missing_file_a_missing_heading_and_a_way_out(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## The board's cycle\n")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "# Page\n\n## Here\n\n"
        "[fine](other.md#the-boards-cycle) [fine too](#here) ![pic](other.md) "
        "[gone](missing.md) [no heading](other.md#nothing) [out](../../etc/passwd) "
        "[elsewhere](https://example.org/x)\n")
    assert broken_links(page, tmp_path) == [
        "missing.md: no such file or folder",
        "other.md#nothing: no heading #nothing on other.md",
        "../../etc/passwd: leaves the repository",
    ]
