"""The page speaks the game being played (issue 23): the product's name, pieces rather than
XoBo's cubes, the test game's cells labelled as its words name them, X's corners as its score,
and at 800 px wide the status beside the board."""

import pytest

from sim.simkit import new_context

pytestmark = pytest.mark.browser


def choose_game(pg, name):
    pg.wait_for_selector('[data-role="game"] option[value="%s"]' % name, state="attached")
    pg.select_option('[data-role="game"]', name)
    pg.wait_for_selector('.grid[data-game="%s"]' % name, timeout=30000)


def test_the_test_game_is_labelled_as_its_words_name_its_cells(open_page):
    pg = open_page()
    assert pg.inner_text("h1").startswith("The illuminated game board")
    choose_game(pg, "tiny")
    # its a1 is the board's d4: the labels say a-c and 1-3 on its 3 x 3, nothing elsewhere
    assert pg.inner_text('[data-cell="d4"] .lab.rank') == "1"
    assert pg.inner_text('[data-cell="d4"] .lab.file') == "a"
    assert pg.locator('[data-cell="a1"] .lab').count() == 0
    assert pg.get_attribute('[data-cell="e5"]', "data-game-cell") == "b2"
    assert "a click puts a piece" in pg.inner_text('[data-role="hand-text"]')
    pg.click('[data-cell="e5"]')
    pg.wait_for_function("() => document.querySelector('[data-role=\"record\"]').textContent"
                         ".includes('1. b2')", timeout=30000)


def test_x_shows_the_corners_won_as_its_score(open_page):
    pg = open_page()
    choose_game(pg, "x")
    pg.wait_for_selector('[data-role="score"]:not([hidden])')
    assert pg.inner_text('[data-role="score"]') == "Corners: Red 0 · Yellow 0 · Green 0"
    pg.click('[data-cell="a1"]')  # Red's corner cell: South-West is Red's for now (XS1)
    pg.wait_for_function("() => document.querySelector('[data-role=\"score\"]').textContent"
                         " === 'Corners: Red 1 · Yellow 0 · Green 0'", timeout=30000)


def test_at_800_px_the_status_stays_beside_the_board(browser, tmp_path):
    from sim.simkit import Sim

    sim = Sim(tmp_path / "flash")
    ctx = new_context(browser, viewport={"width": 800, "height": 900})
    try:
        pg = ctx.new_page()
        pg.goto(sim.url)
        pg.wait_for_selector('[data-role="conn"][data-state="live"]', timeout=30000)
        board = pg.locator(".frame").bounding_box()
        status = pg.locator(".card.status").bounding_box()
        assert status["x"] >= board["x"] + board["width"], (board, status)
        assert status["y"] < board["y"] + board["height"], (board, status)
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= 800, "the page scrolls sideways at 800 px (%d px)" % width
    finally:
        ctx.close()
        sim.stop()
