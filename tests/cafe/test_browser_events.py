"""An event's pages in a real browser (Playwright, Debian's chromium): the room's screen,
read-only without a login (this round's tables and players, the boards' live miniatures,
the standings with ratings, a player finding their table by name), and the staff's pages
(the login, an event made, players added, the event started, a result corrected and its
audit shown)."""

import pytest
from xobo_testing import wait_for

from cafe.cafekit import named_board
from xobo_host.cafe.events.evening import PASSWORD, Client, InProcessHost

pytestmark = pytest.mark.browser
X_WINS = ("d4", "e4", "d5", "e5", "d6")


@pytest.fixture
def cafe(tmp_path):
    boards = {name: named_board(tmp_path, name, hands_clock=True) for name in ("t1", "t2")}
    host = InProcessHost(str(tmp_path), [b.device for b in boards.values()])
    client = Client(host.url)
    wait_for(lambda: sum(t["online"] for t in client.get("api/floor")["tables"]) == 2,
             "both tables online")
    client.login()
    yield host, client, boards
    host.stop()
    for b in boards.values():
        b.unplug()


def test_the_rooms_screen_shows_the_round_live_and_finds_a_players_table(browser, cafe):
    host, client, boards = cafe
    eid = client.post("api/event/new", {"name": "Screen night", "game": "tiny",
                                        "rounds": 2})["id"]
    for n in ("Alice", "Bruno", "Chloé", "Dmitri"):
        client.post("api/event/%d/action" % eid, {"action": "add_player", "name": n,
                                                  "checked_in": True})
    client.post("api/event/%d/action" % eid, {"action": "start"})
    wait_for(lambda: all(g["state"] == "playing" for g in
                      client.get("api/event/%d" % eid)["games"]), "round 1 playing")
    games = client.get("api/event/%d" % eid)["games"]
    chloe = next(g for g in games if any(s["name"] == "Chloé" for s in g["seats"]))
    page = browser.new_page()  # (no login: the screen is anyone's)
    try:
        page.goto(host.url + "screen/%d" % eid)
        page.wait_for_selector('.screen-game[data-state="playing"] >> nth=1')
        assert page.locator(".screen-game").count() == 2
        assert page.locator('[data-role="summary"]').inner_text().endswith("round 1 of 2")
        card = '.screen-game[data-game="%d"]' % chloe["id"]
        assert "table " + chloe["table"] in page.locator(card + " .table").inner_text()
        names = page.locator(card + " .who").all_inner_texts()
        assert names == [s["name"] for s in chloe["seats"]]
        # the table's board in miniature, drawn as the floor draws it
        page.wait_for_selector(card + ' canvas[data-ply="0"]')
        # no staff control on the screen
        assert page.locator("button").count() == 0
        # a player finds their table by name
        page.fill('[data-role="find"]', "chlo")
        found = page.locator('[data-role="found"]').inner_text()
        assert found.startswith("Chloé: board %d, table %s" % (chloe["board"], chloe["table"]))
        assert "found" in page.locator(card).get_attribute("class")
        page.fill('[data-role="find"]', "nobody")
        assert "no player of this round" in page.locator('[data-role="found"]').inner_text()
        # a move at the table reaches its miniature; the game's end the standings
        board = boards[chloe["table"]]
        board.play("arrange")
        board.play("put d4")
        board.play("wait 300")
        page.wait_for_selector(card + ' canvas[data-ply="1"]')
        for cell in X_WINS[1:]:
            board.play("put " + cell)
            board.play("wait 300")
        winner = chloe["seats"][0]["name"]
        page.wait_for_selector(card + '[data-state="over"]')
        assert page.locator(card + " .status").inner_text() == winner + " wins"
        page.wait_for_function(
            "(name) => document.querySelector('[data-role=\"standings\"] tr')"
            ".dataset.name === name", arg=winner)
        rating = page.locator('[data-role="standings"] tr >> nth=0').locator("td >> nth=5")
        assert " ± " in rating.inner_text()
    finally:
        page.close()


def test_the_staff_make_an_event_run_it_and_correct_a_result_on_their_pages(browser, cafe):
    host, client, boards = cafe
    page = browser.new_page()
    try:
        page.goto(host.url + "events")
        page.wait_for_selector('body[data-staff="no"]')
        assert page.locator('[data-role="staff"]').is_hidden()
        page.fill('[data-role="password"]', PASSWORD)
        page.click('[data-role="login-form"] button')
        page.wait_for_selector('body[data-staff="yes"]')
        page.fill('[data-role="name"]', "Page night")
        page.select_option('[data-role="game"]', "tiny")
        page.fill('[data-role="rounds"]', "1")
        page.click('[data-role="create-form"] button[type="submit"]')
        page.wait_for_url("**/event/*")
        page.wait_for_selector('body[data-state="registration"][data-staff="yes"]')
        for name in ("Alice", "Bruno"):
            page.fill('[data-role="new-player"]', name)
            page.click('[data-role="add-form"] button')
            page.wait_for_selector('[data-role="players"] li .name:text-is("%s")' % name)
        page.click('[data-role="start"]')
        page.wait_for_selector('.game-row[data-state="playing"]')
        row = page.locator('[data-role="games"] .game-row').first
        table = row.get_attribute("data-table")
        assert "Alice" in row.locator(".players").inner_text()
        board = boards[table]
        board.play("arrange")
        for cell in X_WINS:
            board.play("put " + cell)
            board.play("wait 300")
        page.wait_for_selector('[data-role="games"] .game-row[data-state="over"]')
        page.wait_for_function("() => document.querySelector('[data-role=\"standings\"] tr')"
                               ".dataset.name === 'Alice'")
        # the staff corrects the result: kept with who, when and why
        form = '[data-role="games"] form[data-correct]'
        page.select_option(form + ' select[data-seat="x"]', "2")
        page.select_option(form + ' select[data-seat="o"]', "1")
        page.fill(form + ' [data-role="by"]', "Sam")
        page.fill(form + ' [data-role="why"]', "the players agree")
        page.click(form + ' button[type="submit"]')
        page.wait_for_selector('[data-role="corrections"] li[data-correction]')
        audit = page.locator('[data-role="corrections"] li[data-correction]').inner_text()
        assert "by Sam" in audit and "1-2 → 2-1" in audit and "the players agree" in audit
        page.wait_for_function("() => document.querySelector('[data-role=\"standings\"] tr')"
                               ".dataset.name === 'Bruno'")
        href = page.locator('[data-export="results.csv"]').get_attribute("href")
        assert href.endswith("/export/results.csv")
    finally:
        page.close()
