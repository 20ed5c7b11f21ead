"""The rules pages' diagrams (docs/rules/diagrams/*.svg) are the ones the project's own code
draws from the games' lessons today (python -m xobo_host.diagrams), as the hardware outputs are
checked: a lesson or a drawing that changes without them fails here."""

import re

from conftest import ROOT

from xobo_host import diagrams


def test_the_rules_diagrams_are_current():
    made = diagrams.diagrams()
    assert made, "no diagram made"
    stale = []
    for name, text in made.items():
        path = ROOT / "docs" / "rules" / "diagrams" / name
        if not path.exists() or path.read_text() != text:
            stale.append(name)
    assert not stale, "stale or missing (run python -m xobo_host.diagrams): %s" % stale


def test_every_diagram_a_rules_page_shows_exists_and_every_game_shows_its_own():
    pages = (ROOT / "docs" / "rules").glob("*.md")
    shown = set()
    for page in pages:
        for name in re.findall(r"\]\(diagrams/([a-z-]+-\d+\.svg)\)", page.read_text()):
            assert (ROOT / "docs" / "rules" / "diagrams" / name).exists(), (page.name, name)
            assert name.startswith(page.stem + "-"), (page.name, name)
            shown.add(name)
    assert shown == set(diagrams.diagrams()), set(diagrams.diagrams()) ^ shown
