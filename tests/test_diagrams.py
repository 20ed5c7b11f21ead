"""The rules pages' diagrams (docs/rules/diagrams/*.svg) are the ones the project's own code
draws from the games' lessons today (python -m xobo_host.sim.diagrams), as the hardware outputs are
checked: a lesson or a drawing that changes without them fails here."""

import re

from conftest import ROOT

from xobo_host.sim import diagrams


def test_the_rules_diagrams_are_current():
    made = diagrams.diagrams()
    assert made, "no diagram made"
    stale = []
    for name, text in made.items():
        path = ROOT / "docs" / "rules" / "diagrams" / name
        if not path.exists() or path.read_text() != text:
            stale.append(name)
    assert not stale, "stale or missing (run python -m xobo_host.sim.diagrams): %s" % stale


def test_every_diagram_a_rules_page_shows_exists_and_every_game_shows_its_own():
    pages = (ROOT / "docs" / "rules").glob("*.md")
    shown = set()
    for page in pages:
        for name in re.findall(r"\]\(diagrams/([a-z-]+-\d+\.svg)\)", page.read_text()):
            assert (ROOT / "docs" / "rules" / "diagrams" / name).exists(), (page.name, name)
            assert name.startswith(page.stem + "-"), (page.name, name)
            shown.add(name)
    assert shown == set(diagrams.diagrams()), set(diagrams.diagrams()) ^ shown


def _every_lesson_diagram():
    from xobo import games

    for name in games.available():
        for k, (lesson, text) in enumerate(diagrams.lesson_diagrams(name), 1):
            yield name, k, lesson, text


def test_every_piece_of_every_lesson_diagram_sits_in_its_own_cell():
    from diagramkit import problems

    seen = set()
    for name, k, lesson, text in _every_lesson_diagram():
        seen.add(name)
        assert not problems(name, lesson, text), (name, k, problems(name, lesson, text))
    assert seen == {"xobo", "x", "chain-reaction", "brochs", "tiny"}, seen


def test_x_is_drawn_as_hexagons_with_its_pieces_in_their_three_colours():
    from diagramkit import read

    from xobo.games.x import board
    from xobo.runtime import colours

    players = {"%06x" % colours.RGB[c] for c in board.Layers.PLAYER_CODES[:3]}
    assert len(players) == 3, players
    fills = set()
    for name, _k, _lesson, text in _every_lesson_diagram():
        if name != "x":
            continue
        root, cells, pieces, looks = read(text)
        assert root.get("data-shape") == "hex"
        assert len(cells) == 64 and all(len(p) == 6 for p in cells.values())
        fills.update(fill for cell, kind, centre, fill in pieces)
    assert fills == players, (fills, players)


def test_a_tall_stack_is_drawn_inside_its_cell_with_its_height():
    # XoBo's exhaustion lesson: 7 cubes on each corner, drawn as one cube and its number
    from diagramkit import read

    lesson = [les for les, _ in diagrams.lesson_diagrams("xobo") if "7" in les["position"]][0]
    root, cells, pieces, looks = read(diagrams.svg("xobo", lesson))
    corners = [p for p in pieces if p[0] in ("a1", "i1", "a9", "i9")]
    assert len(corners) == 4
    texts = [el.text for el in root.iter() if el.tag.endswith("text")]
    assert texts.count("7") >= 4  # the heights (and rank 7's label)
