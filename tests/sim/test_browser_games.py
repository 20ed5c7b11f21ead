"""The page plays any game the board has (issues 10-13): the game menu, the game's area on the
board (the cells outside it dark), its players in their colours, X's hexagons, Chain Reaction's
towers and goal rows, Brochs on the 15 x 15 board with its donjons and quadrants."""

import math

import pytest

from sim.simkit import with_board_layer

pytestmark = pytest.mark.browser


# Chain Reaction after three segments of greedy play: a tower, Dark under Light
TOWER = "..ddd../.ddddd./..[dl]dd../..ll.../...ll../..llll./...ll.. l 3 0 0 18"


def cell(name):
    return '[data-cell="%s"]' % name


def choose_game(pg, name):
    pg.wait_for_selector('[data-role="game"] option[value="%s"]' % name, state="attached")
    pg.select_option('[data-role="game"]', name)
    pg.wait_for_selector('.grid[data-game="%s"]' % name, timeout=30000)
    pg.sim.wait(lambda s: s["state"]["game"] == name, what="game " + name)
    pg.sim.command("set settle 200")  # the settle time is a setting of each game


def centre(pg, name):
    b = pg.locator(cell(name)).bounding_box()
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def test_the_game_menu_switches_to_tiny_and_a_whole_tiny_game_is_won_on_the_page(open_page):
    pg = open_page()
    choose_game(pg, "tiny")
    # the 3 x 3 area sits on d4-f6 of the 9 x 9 board: the other 72 cells are dark
    assert pg.locator(".cell").count() == 81
    assert pg.locator(".cell.inactive").count() == 72
    assert pg.locator(cell("e5") + ".inactive").count() == 0
    assert pg.locator(cell("a1") + ".inactive").count() == 1
    # the players, in their colours, x to move
    pg.wait_for_selector('[data-role="players"] li[data-player="x"].to-move')
    assert pg.locator('[data-role="players"] li').count() == 2
    assert "X to move" in pg.inner_text('[data-role="turn"]')
    # x d4 e4 f4 (a1 b1 c1 of the game) against o d5 e5
    for k, name in enumerate(["d4", "d5", "e4", "e5", "f4"]):
        pg.click(cell(name))
        pg.sim.wait(lambda s, k=k: s["state"]["ply"] == k + 1, what="move %d" % (k + 1))
        # the piece is lit in its owner's colour
        pg.wait_for_function(
            "c => document.querySelector('[data-cell=\"' + c + '\"]').dataset.led !== '000000'",
            arg=name, timeout=30000)
    pg.wait_for_selector('[data-role="result"][data-result="x"]', timeout=30000)
    assert pg.inner_text('[data-role="result"]').startswith("X wins")
    assert pg.inner_text('[data-role="turn"]') == "Game over"
    pg.wait_for_selector('[data-role="players"] li[data-player="x"].winner')
    # the winning line is lit, the cells outside the game stay dark
    for name in ("d4", "e4", "f4"):
        pg.wait_for_function(
            "c => document.querySelector('[data-cell=\"' + c + '\"]').dataset.led !== '000000'",
            arg=name, timeout=30000)
    assert pg.get_attribute(cell("a1"), "data-led") == "000000"


def test_the_game_menu_lists_the_boards_games_and_xobo_comes_back(open_page):
    pg = open_page()
    choose_game(pg, "tiny")
    choose_game(pg, "xobo")
    assert pg.locator(".cell.inactive").count() == 0
    assert "North–South" in pg.inner_text('[data-role="players"]')
    assert pg.is_visible('[data-role="reserves"]')


def test_XB3_x_is_drawn_as_true_hexagons_in_a_rhombus(open_page, monkeypatch):
    with_board_layer(monkeypatch, "x")
    pg = open_page()
    choose_game(pg, "x")
    pg.wait_for_selector('.grid[data-shape="hex"]')
    hexes = pg.locator(".cell.hex")
    assert hexes.count() == 64  # the 8 x 8 rhombus on a1-h8; file i and rank 9 not drawn
    assert pg.locator(".cell.hex:visible").count() == 64
    assert not pg.is_visible(cell("i9"))
    clip = pg.eval_on_selector(cell("d4"), "el => getComputedStyle(el).clipPath")
    assert clip.startswith("polygon("), clip
    # the six XB3 neighbours of d4 = (3, 3) are at one distance; the NE/SW diagonals are not
    x0, y0 = centre(pg, "d4")
    near = []
    for name in ("e4", "c4", "d5", "d3", "e3", "c5"):
        x, y = centre(pg, name)
        near.append(math.hypot(x - x0, y - y0))
    assert max(near) - min(near) < 1.5, near
    for name in ("e5", "c3"):
        x, y = centre(pg, name)
        assert math.hypot(x - x0, y - y0) > 1.5 * min(near)
    # a1 is a sharp corner, bottom left; the rhombus leans East going North
    ax, ay = centre(pg, "a1")
    hx, hy = centre(pg, "a8")
    assert hy < ay and hx > ax
    # three players in their colours; a piece put on a hexagon is red's move
    assert pg.locator('[data-role="players"] li').count() == 3
    pg.click(cell("d4"))
    pg.sim.wait(lambda s: s["state"]["ply"] == 1, what="red's move")
    pg.wait_for_selector('[data-role="players"] li[data-player="yellow"].to-move')


def test_CB4_chain_reaction_draws_its_goal_rows_and_a_tower_in_two_colours(open_page,
                                                                           monkeypatch):
    with_board_layer(monkeypatch, "chain-reaction")
    pg = open_page()
    choose_game(pg, "chain-reaction")
    # the 7 files b-h of the field and its goal rows; files a and i are not played on
    assert pg.locator(".cell:not(.inactive)").count() == 7 * 9
    assert pg.locator(cell("a5") + ".inactive").count() == 1
    assert pg.get_attribute(cell("e1"), "data-mark") == "goal2"
    assert pg.get_attribute(cell("b9"), "data-mark") == "goal"
    # a tower (CB4: heights 2), Dark under Light, in a position of a game (greedy play):
    # faking one by adding a piece made a 12th Dark piece, which the record refuses
    sim = pg.sim
    light, dark = sim.state()["colours"]
    sim.post({"action": "load", "text": TOWER})
    sim.wait(lambda s: s["state"]["position"] == TOWER, what="the tower's position")
    pos = sim.backend.board.app.pos
    tower = [g for g in range(pos.n_cells) if pos.top[g] and pos.bot[g]]
    assert len(tower) == 1
    tower = tower[0]
    name = sim.backend.board.app.topo.cell_name(sim.backend.board.app.place.to_board[tower])
    pg.wait_for_selector(cell(name) + '[data-count="2"] .cube.piece:nth-child(2)',
                         timeout=30000)
    colours = pg.eval_on_selector_all(
        cell(name) + " .cube.piece",
        "els => els.map(e => e.style.getPropertyValue('--piece'))")
    want = {1: light, 2: dark}
    assert colours == ["#" + want[pos.bot[tower]], "#" + want[pos.top[tower]]]


def test_the_15x15_board_draws_225_cells_and_brochs_its_donjons_and_quadrants(open_page,
                                                                              monkeypatch):
    with_board_layer(monkeypatch, "brochs")
    pg = open_page("pico_15x15")
    pg.wait_for_selector('.grid[data-cols="15"][data-rows="15"]', timeout=30000)
    assert pg.locator(".cell").count() == 225
    # XoBo's 9 x 9 sits on d4-l12 of the 15 x 15: the rest is dark
    assert pg.locator(".cell:not(.inactive)").count() == 81
    assert pg.locator(cell("o15")).count() == 1
    choose_game(pg, "brochs")
    assert pg.locator(".cell:not(.inactive)").count() == 225
    donjons = sorted(pg.eval_on_selector_all('[data-mark="donjon"]',
                                             "els => els.map(e => e.dataset.cell)"))
    assert donjons == ["d12", "d4", "l12", "l4"]
    assert pg.get_attribute(cell("a1"), "data-quadrant") == "2"  # SW
    assert pg.get_attribute(cell("o15"), "data-quadrant") == "1"  # NE
    assert pg.get_attribute(cell("h8"), "data-quadrant") is None  # the central cross
    # White's men stand on the board in their colour
    white = pg.locator('.cube.piece[data-kind="white"]')
    assert white.count() == 24
    # typing a two-digit rank moves the cursor there
    pg.keyboard.press("k")
    pg.keyboard.press("1")
    pg.keyboard.press("3")
    assert pg.locator(cell("k13") + ".cursor").count() == 1


def _luminance(hex_rgb):
    v = int(hex_rgb.lstrip("#"), 16)
    return (0.2126 * (v >> 16) + 0.7152 * ((v >> 8) & 255) + 0.0722 * (v & 255)) / 255


def test_brochs_men_are_drawn_white_and_black_as_the_real_pieces_with_readable_coordinates(
        open_page):
    # White's men light (natural wood), Black's dark, the master apart (the game's PIECE_RGB,
    # the piece sets of hardware/pieces.py); the LEDs light the players' colours around them,
    # under the piece: a black man is not drawn blue, nor a white one orange
    pg = open_page("pico_15x15")
    choose_game(pg, "brochs")
    white = pg.locator('.cube.piece[data-kind="white"]').first
    assert _luminance(white.evaluate("e => e.style.getPropertyValue('--piece')")) > 0.8
    pg.click(cell("e6"))  # Black drops a man
    man = pg.locator(cell("e6") + ' .cube.piece[data-kind="man"]')
    man.wait_for(timeout=30000)
    assert _luminance(man.evaluate("e => e.style.getPropertyValue('--piece')")) < 0.15
    under = pg.eval_on_selector(
        cell("e6"), "el => [getComputedStyle(el.querySelector('.glow')).zIndex,"
        " getComputedStyle(el.querySelector('.stack')).zIndex]")
    assert int(under[0]) < int(under[1]), under  # the light under the piece, not over it
    # the players' dots: the piece, ringed in its light
    assert pg.get_attribute('[data-role="players"] li[data-player="black"] .dot',
                            "data-piece") == "000000"
    # the coordinates of the small 15 x 15 cells can be read
    size = pg.eval_on_selector(cell("a15") + " .lab.rank",
                               "el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 11, size
    assert pg.inner_text(cell("a15") + " .lab.rank") == "15"
