"""The café floor's miniature boards (cafe/static/miniature.js) in a real browser (Playwright,
Debian's chromium), drawn from snapshots as the floor receives them: X's rhombus of
hexagons, the game's own pieces in their colours, the LEDs' light, and a board from another
café that cannot be drawn (refused, the canvas left as it was, the page not frozen)."""

import os

import pytest

pytestmark = pytest.mark.browser
STATIC = os.path.join(os.path.dirname(__file__), "..", "..", "host_tools", "xobo_host")
LETTERS = "abcdefghi"


def snapshot(game, counts=None, leds=None, draw=None, area=None, width=9, height=9):
    """A board's snapshot as the floor sends it (``Table.view``'s ``board``)."""
    n = width * height
    state = {"game": game, "board": {"width": width, "height": height}}
    if area is not None:
        state["area"] = {"cells": area, "x": 0, "y": 0}
    return {"cells": leds or ["000000"] * n, "counts": counts or [0] * n,
            "edges": {"N": "00916a", "S": "00916a", "E": "000000", "W": "000000"},
            "draw": draw or {}, "state": state}


def cell(name, width=9):
    return (int(name[1:]) - 1) * width + LETTERS.index(name[0])


DRAW = """([snap]) => {
    const canvas = document.querySelector("canvas");
    const mini = window.mini || (window.mini = XoboMiniature.create(canvas, 204));
    const drawn = mini.draw(snap);
    return drawn && { pieces: canvas.dataset.pieces, lit: canvas.dataset.lit,
      edges: canvas.dataset.edges, a1: mini.boxOf("a1"), i9: mini.boxOf("i9"),
      e5: mini.boxOf("e5") };
}"""
# the mean colour of a box of the canvas (CSS pixels), read from a copy of its picture
MEAN_RGB = """([x, y, w, h]) => {
    const canvas = document.querySelector("canvas");
    const copy = new OffscreenCanvas(canvas.width, canvas.height);
    const ctx = copy.getContext("2d");
    ctx.drawImage(canvas, 0, 0);
    const k = canvas.width / 204;
    const d = ctx.getImageData(Math.round(x * k), Math.round(y * k), Math.round(w * k),
                               Math.round(h * k)).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < d.length; i += 4) for (let j = 0; j < 3; j++) sum[j] += d[i + j];
    return sum.map((v) => v / (d.length / 4));
}"""


@pytest.fixture
def page(browser):
    pg = browser.new_page()
    pg.set_content('<body style="background:#000"><canvas></canvas></body>')
    pg.add_script_tag(path=os.path.join(STATIC, "sim", "static", "board.js"))
    pg.add_script_tag(path=os.path.join(STATIC, "cafe", "static", "miniature.js"))
    yield pg
    pg.close()


def middle(box, part=0.3):
    """The middle of a cell's box (``part`` of its size)."""
    return [box["x"] + box["w"] * (1 - part) / 2, box["y"] + box["h"] * (1 - part) / 2,
            box["w"] * part, box["h"] * part]


def test_XB3_the_miniature_draws_x_as_its_rhombus_of_hexagons(page):
    area = [f + str(r) for r in range(1, 9) for f in "abcdefgh"]
    counts = [0] * 81
    counts[cell("e5")] = 1
    drawn = page.evaluate(DRAW, [snapshot("x", counts=counts, draw={"shape": "hex"},
                                          area=area)])
    assert drawn["pieces"] == "e5:1"
    assert drawn["i9"] is None  # outside the 8 x 8 rhombus: no cell drawn
    a1, e5 = drawn["a1"], drawn["e5"]
    assert e5["h"] == pytest.approx(e5["w"] * 2 / 3 ** 0.5)  # a pointy-top hexagon's box
    # rank 5 sits two cells (four half-cells) further East than rank 1, higher up
    assert e5["x"] - a1["x"] == pytest.approx(4 * e5["w"] + 4 * e5["w"] / 2)
    assert e5["y"] < a1["y"]


def test_a_lit_cell_shows_its_led_and_a_piece_its_own_colour(page):
    counts = [0] * 81
    leds = ["000000"] * 81
    counts[cell("d2")] = 1
    leds[cell("c1")] = "ff0000"
    draw = {"pieces": {"d2": ["dark"]}, "kinds": {"dark": {"rgb": "e69f00", "label": "dark"}}}
    drawn = page.evaluate(DRAW, [snapshot("chain-reaction", counts=counts, leds=leds,
                                          draw=draw)])
    assert drawn["lit"] == "c1:ff0000" and drawn["edges"] == "N:00916a S:00916a"
    boxes = page.evaluate("() => ['c1', 'd2', 'e5'].map((c) => mini.boxOf(c))")
    red = page.evaluate(MEAN_RGB, middle(boxes[0]))
    d2 = boxes[1]  # a single piece lies a little under the cell's middle
    piece = page.evaluate(MEAN_RGB, [d2["x"] + 0.4 * d2["w"], d2["y"] + 0.55 * d2["h"],
                                     0.2 * d2["w"], 0.1 * d2["h"]])
    empty = page.evaluate(MEAN_RGB, middle(boxes[2]))
    assert red[0] > 150 and red[1] < 80 and red[2] < 80  # the LED's red light
    assert piece[0] > 150 and piece[0] > piece[1] > piece[2] + 40  # the orange piece
    assert max(empty) < 60  # an empty, dark cell


def test_a_board_that_cannot_be_drawn_is_refused_and_the_miniature_kept(page):
    counts = [0] * 81
    counts[cell("e5")] = 1
    assert page.evaluate(DRAW, [snapshot("xobo", counts=counts)])["pieces"] == "e5:1"
    # another café's floor says its board is 1,000 cells wide: nothing drawn, nothing frozen
    huge = snapshot("xobo")
    huge["state"]["board"] = {"width": 1000, "height": 1000}
    assert page.evaluate(DRAW, [huge]) is None
    assert page.evaluate("() => document.querySelector('canvas').dataset.pieces") == "e5:1"
