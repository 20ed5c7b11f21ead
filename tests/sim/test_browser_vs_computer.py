"""End-to-end: the page's "Play against the computer" panel in headless Chromium.

The panel sends serial ``set opponent …`` / ``set level …`` and shows the board's own settings,
so the board's gesture (hint held 1.5 s) shows in it too. A placement clicked as North-South is
answered by the computer (East-West): its move lights on the board, and once the cube is put
where the board asks, the record shows it.
"""

import pytest

from sim.simkit import Sim, cell, new_context, wait_led, wait_record
from xobo.games.xobo.rules.notation import parse_move
from xobo.games.xobo.rules.position import Position
from xobo.runtime import colours

pytestmark = pytest.mark.browser

PENDING = [colours.hex_of(colours.RGB[c]) for c in (colours.PENDING_PUT, colours.PENDING_TAKE)]


@pytest.fixture
def sim(tmp_path):
    s = Sim(tmp_path / "flash")
    yield s
    s.stop()


def _open(browser, sim, viewport):
    ctx = new_context(browser, viewport=viewport)
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(sim.url)
    pg.wait_for_selector('[data-role="conn"][data-state="live"]', timeout=30000)
    return ctx, pg, errors


def opponent_button(side):
    return '[data-opponent="%s"]' % side


def wait_opponent(pg, side, timeout=30000):
    pg.wait_for_selector(opponent_button(side) + '[aria-checked="true"]', timeout=timeout)


def board_setting(sim, key):
    for line in sim.command("settings")["reply"]:
        words = line.split()
        if len(words) == 3 and words[1] == key:
            return words[2]
    return None


def hold_hint(pg, ms=1800):
    box = pg.locator('[data-button="hint"]').bounding_box()
    pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    pg.mouse.down()
    pg.wait_for_timeout(ms)
    pg.mouse.up()


def changed_cells(n3, move):
    """The cells the move changes (their cube counts differ before and after)."""
    before = Position.parse(n3)
    after = before.clone()
    after.apply(parse_move(move, before))
    from xobo.games.xobo.rules.geometry import cell_name

    return [cell_name(c) for c in range(81) if before.heights[c] != after.heights[c]]


def test_computer_plays_east_west_at_level_random_and_its_move_lights(browser, sim,
                                                                    tmp_path):
    ctx, pg, errors = _open(browser, sim, {"width": 1280, "height": 900})
    wait_opponent(pg, "off")  # the board's settings, read at load
    pg.select_option('[data-role="level"]', "random")
    sim.wait(lambda s: s["state"]["settings"]["level"] == "random", what="level random")
    pg.click(opponent_button("ew"))
    wait_opponent(pg, "ew")
    assert board_setting(sim, "opponent") == "ew" and board_setting(sim, "level") == "random"

    pg.click(cell("e5"))  # North-South places, the board commits it
    wait_record(pg, "1. e5")
    snap = sim.wait(lambda s: s["state"]["expect"], what="the computer's move")
    move = snap["state"]["expect"]
    pg.wait_for_function(
        "m => document.querySelector('[data-role=\"inference\"]').textContent"
        ".includes('the computer plays ' + m + ': ')", arg=move, timeout=30000)
    cells = changed_cells(snap["state"]["position"], move)
    assert cells, move
    for name in cells:  # the computer's move is shown in light (double flash)
        wait_led(pg, name, PENDING, timeout=30000)
    pg.screenshot(path=str(tmp_path / "vs-computer.png"))

    assert parse_move(move, Position.parse(snap["state"]["position"])) & 3 == 0  # a placement
    sim.post({"action": "put", "cell": move})  # the cube goes where the board asks
    wait_record(pg, "1. e5 ; " + move)
    assert sim.state()["state"]["side"] == "ns"

    # the board's gesture: hint held 1.5 s gives the computer the side to move (NS) and the
    # panel follows; the computer moves at once
    hold_hint(pg)
    wait_opponent(pg, "ns")
    assert board_setting(sim, "opponent") == "ns"
    sim.wait(lambda s: s["state"]["expect"], what="the computer's move as NS")
    pg.screenshot(path=str(tmp_path / "vs-computer-gesture.png"))
    pg.click(opponent_button("off"))
    wait_opponent(pg, "off")
    assert sim.state()["state"]["expect"] is None  # its waiting move is cancelled
    ctx.close()
    assert not errors, errors


def test_the_panel_fits_a_phone_screen(browser, sim, tmp_path):
    ctx, pg, errors = _open(browser, sim, {"width": 390, "height": 844})
    wait_opponent(pg, "off")
    pg.click(opponent_button("ew"))
    wait_opponent(pg, "ew")
    width = pg.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    for side in ("off", "ns", "ew"):
        box = pg.locator(opponent_button(side)).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, (side, box)
    pg.locator('[data-role="vs"]').screenshot(path=str(tmp_path / "vs-phone.png"))
    ctx.close()
    assert not errors, errors
