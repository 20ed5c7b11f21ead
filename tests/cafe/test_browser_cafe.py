"""The café's pages in a real browser (Playwright, Debian's chromium): the floor shows every
table live (a move played at a table appears in its miniature: its canvas is drawn again,
the other tables' are not), a board unplugged goes offline, and the staff logs in on a
table's view and undoes a move."""

import pytest
from xobo_testing import wait_for

from cafe.cafekit import named_board, play_move
from xobo_host.cafe.floor import Floor
from xobo_host.cafe.staff import Staff
from xobo_host.cafe.web import CafeServer
from xobo_host.records.gamesdb import GamesDB

pytestmark = pytest.mark.browser
PASSWORD = "counter-staff-7"


@pytest.fixture
def floor_server(tmp_path):
    boards = [named_board(tmp_path, "terrace-1"), named_board(tmp_path, "terrace-2")]
    db_path = str(tmp_path / "games.sqlite")
    GamesDB(db_path).close()
    staff = Staff.create(str(tmp_path / "staff.json"), PASSWORD)
    floor = Floor(db_path, ports=[b.device for b in boards], scan_usb=False, scan_s=0.2,
                  poll_s=0.5).start()
    server = CafeServer(floor, staff, db_path).start()
    yield server.url, boards, floor
    server.stop()
    floor.stop()
    for b in boards:
        b.unplug()


def test_the_floor_view_follows_every_table_live_in_a_real_browser(browser, floor_server):
    url, (one, two), floor = floor_server
    page = browser.new_page()
    try:
        page.goto(url)
        page.wait_for_selector('[data-table="terrace-1"][data-health="playing"]')
        page.wait_for_selector('[data-table="terrace-2"][data-health="playing"]')
        assert page.locator('[data-table="terrace-1"] .turn').inner_text() == "ns to move"
        play_move(one, "e5")
        card = '[data-table="terrace-1"][data-ply="1"]'
        page.wait_for_selector(card)
        # the miniature is the board as it lights it (drawn on its canvas, which says what
        # it drew): e5 holds a cube, the edges say who moves
        mini = card + ' canvas[data-ply="1"][data-pieces~="e5:1"]'
        page.wait_for_selector(mini + '[data-edges]:not([data-edges=""])')
        label = page.locator(mini).get_attribute("aria-label")
        assert label.startswith("terrace-1: XoBo") and "pieces on e5" in label
        assert "since the last move" in page.locator(card + " .since").inner_text()
        two.unplug()
        page.wait_for_selector('[data-table="terrace-2"][data-health="offline"]')
        assert page.locator(".table-card").count() == 2
    finally:
        page.close()


def test_the_staff_logs_in_on_a_table_view_and_undoes_a_move(browser, floor_server):
    url, (one, _), floor = floor_server
    wait_for(lambda: floor.table("terrace-1") and floor.table("terrace-1").online,
             "terrace-1 online")
    play_move(one, "e5")
    page = browser.new_page()
    try:
        page.goto(url + "table/terrace-1")
        page.wait_for_selector('body[data-ply="1"][data-staff="no"]')
        assert page.locator('[data-role="staff"]').is_hidden()
        page.fill('[data-role="password"]', PASSWORD)
        page.click('[data-role="login-form"] button')
        page.wait_for_selector('body[data-staff="yes"]')
        assert "1. e5" in page.locator('[data-role="record"]').inner_text()
        games = page.locator('[data-role="game"] option').all_inner_texts()
        assert "xobo" in games and "brochs" not in games  # only the games that fit
        # the games of this table (ids are the database's: terrace-2's game may come first)
        page.wait_for_selector('[data-role="games-list"] li[data-game]:has-text("1 moves")')
        page.click('[data-act="undo"]')
        page.wait_for_selector('body[data-ply="0"]')
        # the records, searched by table
        page.goto(url + "records?table=terrace-1")
        page.wait_for_selector('[data-role="results"] li[data-game]:has-text("unfinished")')
        assert "terrace-1" in page.locator('[data-role="results"]').inner_text()
    finally:
        page.close()


def test_the_floor_page_marks_the_paint_of_every_update_it_draws(browser, floor_server):
    """The paint mark the café benchmark times a move to the screen by (docs/cafe.md): once
    the frame drawing an update has been painted, an ``xobo:painted`` event names the tables
    and their plies with the wall-clock time, and body[data-painted] is the version drawn."""
    url, (one, _), floor = floor_server
    page = browser.new_page()
    try:
        page.add_init_script("""window.paints = [];
            document.addEventListener("xobo:painted", (e) => {
              for (const t of e.detail.tables) window.paints.push([t.key, t.ply, e.detail.at]);
            });""")
        page.goto(url)
        page.wait_for_selector('[data-table="terrace-1"][data-health="playing"]')
        page.wait_for_function("() => window.paints.some((p) => p[0] === 'terrace-1')")
        play_move(one, "e5")
        page.wait_for_function(
            "() => window.paints.some((p) => p[0] === 'terrace-1' && p[1] === 1)")
        painted, shown, drawn_at, now = page.evaluate("""() => [
            Number(document.body.dataset.painted), Number(document.body.dataset.version),
            window.paints.find((p) => p[1] === 1)[2], Date.now()]""")
        assert painted <= shown and painted > 0
        assert 0 <= now - drawn_at < 60_000  # the wall clock's milliseconds, as the host's
    finally:
        page.close()


# The pixels of a table's miniature (its canvas, in device pixels, copied onto a canvas of
# the test's own) and the box of one of its cells, as the page's miniature drawing places it;
# the miniatures drawn, counted by wrapping the browser's own calls that put a drawing on a
# canvas of the page (a picture handed to it whole, or a drawing that starts by clearing it).
COUNT_DRAWINGS = """window.drawings = new Map();
    function drawn(canvas) {
      const card = canvas.closest && canvas.closest("[data-table]");
      if (card) drawings.set(card.dataset.table, (drawings.get(card.dataset.table) || 0) + 1);
    }
    const transfer = ImageBitmapRenderingContext.prototype.transferFromImageBitmap;
    ImageBitmapRenderingContext.prototype.transferFromImageBitmap = function (bitmap) {
      drawn(this.canvas);
      return transfer.call(this, bitmap);
    };
    const clear = CanvasRenderingContext2D.prototype.clearRect;
    CanvasRenderingContext2D.prototype.clearRect = function (...args) {
      drawn(this.canvas);
      return clear.apply(this, args);
    };"""
CELL_PIXELS = """([table, x0, y0, x1, y1]) => {
    const canvas = document.querySelector('[data-table="' + table + '"] canvas');
    const copy = new OffscreenCanvas(canvas.width, canvas.height);
    const ctx = copy.getContext("2d");
    ctx.drawImage(canvas, 0, 0);
    const k = canvas.width / canvas.getBoundingClientRect().width;
    const box = [x0, y0, x1 - x0, y1 - y0].map((v) => Math.round(v * k));
    return Array.from(ctx.getImageData(...box).data);
}"""


def bright_pixels(rgba):
    """How many pixels are as light as a cube's natural wood (the cells are near-black)."""
    return sum(1 for i in range(0, len(rgba), 4)
               if rgba[i] > 190 and rgba[i + 1] > 170 and rgba[i + 2] > 140)


def test_a_move_at_a_table_redraws_that_tables_miniature_only(browser, floor_server):
    url, (one, _), floor = floor_server
    page = browser.new_page()
    try:
        page.add_init_script(COUNT_DRAWINGS)
        page.goto(url)
        for key in ("terrace-1", "terrace-2"):
            page.wait_for_selector('[data-table="%s"] canvas[data-ply="0"]' % key)
        for key in ("terrace-1", "terrace-2"):  # and their LEDs, read after the position
            page.wait_for_selector('[data-table="%s"] canvas[data-edges]:not([data-edges=""])'
                                   % key)
        # e5's cell on terrace-1's canvas, where the miniature drawing puts it
        box = page.evaluate("""() => XoboMiniature.boxOf(
            document.querySelector('[data-table="terrace-1"] canvas'), "e5")""")
        e5 = ["terrace-1", box["x"], box["y"], box["x"] + box["w"], box["y"] + box["h"]]
        assert bright_pixels(page.evaluate(CELL_PIXELS, e5)) == 0  # an empty cell
        before = page.evaluate("() => Object.fromEntries(window.drawings)")
        play_move(one, "e5")
        page.wait_for_selector('[data-table="terrace-1"] canvas[data-ply="1"]')
        # the cube is in the pixels of e5's cell
        assert bright_pixels(page.evaluate(CELL_PIXELS, e5)) > 4
        after = page.evaluate("() => Object.fromEntries(window.drawings)")
        assert after["terrace-1"] > before["terrace-1"]
        # terrace-2, where nothing happened, was not drawn again
        assert after["terrace-2"] == before["terrace-2"]
    finally:
        page.close()


def _inside(inner, outer):
    return (inner["x"] >= outer["x"] - 0.5 and inner["y"] >= outer["y"] - 0.5
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5)


@pytest.mark.parametrize("name", ["WWWWWWWWWWWWWWWW", "terrace-long-016"])
def test_the_health_badge_stays_inside_its_card_with_a_16_character_name(browser, tmp_path,
                                                                         name):
    board = named_board(tmp_path, name)
    db_path = str(tmp_path / "games.sqlite")
    GamesDB(db_path).close()
    staff = Staff.create(str(tmp_path / "staff.json"), PASSWORD)
    floor = Floor(db_path, ports=[board.device], scan_usb=False, scan_s=0.2,
                  poll_s=0.5).start()
    server = CafeServer(floor, staff, db_path).start()
    page = browser.new_page(viewport={"width": 360, "height": 800})  # one card a row
    try:
        page.goto(server.url)
        card = '[data-table="%s"]' % name
        for health in ("playing", "offline"):
            page.wait_for_selector(card + '[data-health="%s"]' % health)
            box = page.locator(card).bounding_box()
            for part in (".health", ".name"):
                inner = page.locator(card + " " + part).bounding_box()
                assert _inside(inner, box), (health, part, inner, box)
            assert page.locator(card + " .name").inner_text() == name
            board.unplug()
    finally:
        page.close()
        server.stop()
        floor.stop()
        board.unplug()
