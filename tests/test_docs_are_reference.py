"""The README and the pages under docs/ say what is, not how it got there: the README stays a
newcomer's page (at most 250 lines), and no page dates its prose or cites a commit (history is
git's and CHANGELOG.md's). Code is left alone (a command may take a date: ``--date
2026-11-26``); docs/figures.md is generated, with each run's date and commit by design."""

import re

import pytest
from conftest import ROOT

from xobo_host.bench import figures

README_MOST_LINES = 250

# Pages written before this check, and how many dates and commit hashes each still has in its
# prose: their owners rewrite them; a count may only go down, and the list ends empty.
NOT_YET_REFERENCE = {
}

FENCED = re.compile(r"^```.*?^```", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")
DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")
HASH = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")


def history_marks(text):
    """(line number, the date or commit hash) of a Markdown text's prose."""
    text = FENCED.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        prose = INLINE_CODE.sub("", line)
        found += [(number, m.group(0)) for m in DATE.finditer(prose)]
        found += [(number, m.group(0)) for m in HASH.finditer(prose)]
    return found


def name(path):
    return str(path.relative_to(ROOT))


def test_the_readme_is_a_newcomer_s_page_of_at_most_250_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MOST_LINES, (
        "README.md has %d lines: say the rest on the page of docs/ it belongs to" % lines)


@pytest.mark.parametrize("page", figures.doc_pages(ROOT), ids=name)
def test_a_page_dates_nothing_and_cites_no_commit(page):
    marks = history_marks(page.read_text(encoding="utf-8"))
    allowed = NOT_YET_REFERENCE.get(name(page))
    if allowed is not None:
        assert marks, "%s has no date or commit now: remove it from NOT_YET_REFERENCE" % name(
            page)
        assert len(marks) <= allowed, "%s: %d dates or commits, more than its %d" % (
            name(page), len(marks), allowed)
        return
    assert not marks, "%s: history belongs in git and CHANGELOG.md: %s" % (name(page), marks)


def test_dates_and_commits_in_prose_are_found_and_code_is_not():
    text = ("Measured on 2026-11-27 at main 4441bad.\n"
            "`xobo games list --date 2026-11-26` and the colour `56B4E9`, cafe 1234567.\n"
            "```\ngit show 03a201f\n```\n")
    assert history_marks(text) == [(1, "2026-11-27"), (1, "4441bad")]
