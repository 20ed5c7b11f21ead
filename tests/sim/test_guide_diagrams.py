"""How to play draws each lesson with the rules pages' own SVG (xobo_host.sim.diagrams), whatever
board the simulator is: every piece in its cell, X's hexagons in their three colours, on the
9 x 9 board and on the 15 x 15 (no browser: the guide the page asks for)."""

import pytest
from diagramkit import problems

from xobo_host.sim import diagrams
from xobo_host.sim.backend import SimBackend, make_virtual_board


@pytest.mark.parametrize("board", ["pico_gpio", "pico_15x15"])
def test_how_to_play_shows_the_rules_pages_diagram_of_every_lesson_on_each_board(tmp_path,
                                                                                 board):
    backend = SimBackend(make_virtual_board(flash_dir=str(tmp_path), board=board))
    games = [g["name"] for g in backend.menu]
    assert {"xobo", "x", "chain-reaction", "tiny"} <= set(games)
    assert ("brochs" in games) == (board == "pico_15x15")
    for name in games:
        backend.action({"action": "game", "name": name})
        guide = backend.action({"action": "guide"})["guide"]
        made = diagrams.lesson_diagrams(name)
        assert len(guide["steps"]) == len(made) > 0, name
        for k, (step, (lesson, text)) in enumerate(zip(guide["steps"], made, strict=True), 1):
            assert step["svg"] == text, (name, k)
            assert not problems(name, lesson, step["svg"]), (name, k, board)
        for k, (_lesson, text) in enumerate(made[:diagrams.DIAGRAMS_PER_GAME], 1):
            # the first lessons' diagrams are the rules page's files
            path = diagrams.OUT_DIR + "/%s-%d.svg" % (name, k)
            with open(path) as f:
                assert f.read() == text, path
