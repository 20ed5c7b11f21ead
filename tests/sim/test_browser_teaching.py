"""The page teaches by itself: a click at a person's pace is never lost (the settle bar says the
board waits for stillness and that ok commits now), a lesson's pieces are set out in one click,
the keyboard and the labels use the game's own coordinates, and a piece is drawn as the game's
own wherever it stands."""

import time

import pytest

pytestmark = pytest.mark.browser


def test_two_clicks_a_person_makes_0_4_s_apart_are_two_moves(open_page):
    pg = open_page()
    pg.sim.command("set settle 1000")  # the board's default
    pg.click('[data-cell="e5"]')
    pg.wait_for_selector('[data-role="settle"]:not([hidden])[data-state="complete"]')
    assert "ok plays it now" in pg.inner_text('[data-role="settle"]')
    time.sleep(0.4)  # a person's pace (the report: e5, then d4 0.4 s later)
    pg.click('[data-cell="d4"]')
    snap = pg.sim.wait(lambda s: s["state"]["ply"] == 2, what="both moves committed")
    assert snap["state"]["record"].rstrip().endswith("1. e5 ; d4"), snap["state"]["record"]
    assert snap["state"]["inference"] != "fix"
    pg.wait_for_selector('[data-role="settle"][hidden]', state="attached")


def test_the_settle_bar_names_the_click_that_waits_for_the_move_before_it(open_page):
    pg = open_page()
    pg.sim.command("set settle 5000")  # the longest: the click surely comes while e5 waits
    pg.click('[data-cell="e5"]')
    pg.wait_for_selector('[data-role="settle"]:not([hidden])[data-state="complete"]')
    pg.click('[data-cell="d4"]')
    pg.wait_for_function("() => document.querySelector('[data-role=\"settle\"]')"
                         ".textContent.includes('then d4')")
    assert pg.get_attribute('[data-cell="d4"]', "data-count") == "0"  # held, not put
    pg.click('[data-button="ok"]')  # e5 now (the held click does not hold the button back)
    pg.sim.wait(lambda s: s["state"]["ply"] == 2, what="e5, then d4, played")
    lines = [line for seq, line in pg.sim.backend.events_after(0)]
    ok = next(k for k, line in enumerate(lines) if line.startswith("event button ok"))
    e5 = next(k for k, line in enumerate(lines) if line.startswith("event move") and
              " e5" in line)
    assert ok < e5, lines  # ok committed e5: it did not wait behind the held d4


def test_ok_commits_the_waiting_move_at_once(open_page):
    pg = open_page()
    pg.sim.command("set settle 5000")
    pg.click('[data-cell="c3"]')
    pg.wait_for_selector('[data-role="settle"]:not([hidden])')
    pg.click('[data-button="ok"]')
    pg.sim.wait(lambda s: s["state"]["ply"] == 1, what="c3 committed by ok")
    pg.wait_for_selector('[data-role="settle"][hidden]', state="attached")


def test_set_up_this_lesson_puts_xobo_s_exhaustion_lesson_in_one_click(open_page):
    pg = open_page()
    pg.click('[data-cell="e5"]')  # the player's own game: a cube that the lesson clears
    pg.sim.wait(lambda s: s["state"]["ply"] == 1, what="the first move")
    pg.click('[data-role="learn"]')
    pg.wait_for_selector('[data-role="learn-card"][data-learning="yes"]')
    for _ in range(5):
        pg.click('[data-role="learn-next"]')
    pg.wait_for_function("() => document.querySelector('[data-role=\"learn-words\"]')"
                         ".textContent.startsWith('Lesson 6/7')")
    assert "Set up the lesson" in pg.inner_text('[data-role="learn-words"]')
    pg.click('[data-role="learn-setup"]')  # 35 clicks by hand
    pg.wait_for_function("() => !document.querySelector('[data-role=\"learn-words\"]')"
                         ".textContent.includes('Set up the lesson')")
    pg.wait_for_selector('[data-role="learn-setup"][hidden]', state="attached")
    assert pg.get_attribute('[data-cell="a1"]', "data-count") == "7"
    assert pg.get_attribute('[data-cell="e5"]', "data-count") == "0"
    assert pg.sim.state()["state"]["inference"] == "match"


def test_the_keyboard_types_the_test_game_s_own_cells_and_refuses_others(open_page):
    pg = open_page()
    pg.select_option('[data-role="game"]', "tiny")
    pg.wait_for_selector('.grid[data-game="tiny"]')
    assert pg.inner_text('[data-cell="d4"] .lab.file') == "a"  # the game's a1 on the d4
    pg.locator("body").click(position={"x": 5, "y": 5})  # the page has the keys
    pg.keyboard.press("a")
    pg.keyboard.press("1")
    pg.keyboard.press("Enter")
    pg.wait_for_selector('[data-cell="d4"][data-count="1"]')
    assert pg.get_attribute('[data-cell="a1"]', "data-count") == "0"
    pg.keyboard.press("e")
    pg.keyboard.press("5")
    pg.wait_for_function("() => document.querySelector('[data-role=\"message\"]').textContent"
                         ".startsWith('e5 is not a cell of')")
    assert "its cells are a1–c3" in pg.inner_text('[data-role="message"]')


def test_x_on_the_15x15_board_is_labelled_and_typed_in_its_own_cells(open_page):
    pg = open_page("pico_15x15")
    pg.select_option('[data-role="game"]', "x")
    pg.wait_for_selector('.grid[data-game="x"]')
    assert pg.get_attribute('[data-cell="d4"]', "data-game-cell") == "a1"
    assert pg.inner_text('[data-cell="d4"] .lab.rank') == "1"
    assert pg.inner_text('[data-cell="d4"] .lab.file') == "a"
    pg.locator("body").click(position={"x": 5, "y": 5})
    for key in ("h", "8", "Enter"):
        pg.keyboard.press(key)
    pg.wait_for_selector('[data-cell="k11"][data-count="1"]')


def test_a_brochs_man_moved_where_no_move_goes_is_drawn_as_that_man(open_page):
    pg = open_page("pico_15x15")
    pg.select_option('[data-role="game"]', "brochs")
    pg.wait_for_selector('.grid[data-game="brochs"]')
    pg.wait_for_selector('[data-cell="g15"][data-pieces="white"]')
    pg.click('[data-cell="g15"]', button="right")  # White's man into the hand
    pg.wait_for_selector('[data-role="hand"] .cube.piece[data-kind="white"]')
    pg.click('[data-cell="h14"]')
    pg.wait_for_selector('[data-cell="h14"][data-pieces="white"] .cube.piece')
    pg.sim.wait(lambda s: s["state"]["inference"] == "fix", what="the board's fix")
    assert pg.get_attribute('[data-cell="h14"]', "data-pieces") == "white"
