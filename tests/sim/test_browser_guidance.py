"""End-to-end: guidance a player can follow in the simulator page (headless Chromium).

The page says in words what the board waits for (the firmware's own words), offers to play
the computer's move with the cubes, shows a record's replay as it goes, counts the 36 cubes,
and draws the LEDs as light: never so dark that a pulse vanishes on the near-black board.
"""

import pytest

from sim.simkit import RECORD28, SPREAD4, cell, wait_record

pytestmark = pytest.mark.browser

AMBIG = "...1...../........./11......./1......../...1...../...11..../.1.111..1/1.1111.1./" \
    "..1111.11 ns 4 2 6"
COLUMN = "/".join(["....1...."] * 4 + ["........."] + ["....1...."] * 4) + " ew 28 0 0"


def load(pg, text):
    assert pg.sim.post({"action": "load", "text": text})["ok"]
    pg.sim.wait(lambda s: s["state"]["inference"] == "match", what="the loaded cubes")


def wait_words(pg, fragment, timeout=30000):
    pg.wait_for_function(
        "f => document.querySelector('[data-role=\"inference\"]').textContent.includes(f)",
        arg=fragment, timeout=timeout)


def test_M2_the_page_says_which_stack_to_touch_for_an_ambiguous_regroup(page):
    load(page, AMBIG)
    page.click(cell("e2"), button="right")
    page.click(cell("d2"), button="right")
    page.click(cell("c2"))
    page.click(cell("c2"))
    wait_words(page, "c2 or f2? lift the stack you chose and put it back")


def test_M3_the_page_names_what_is_left_of_a_spread(page):
    load(page, SPREAD4.replace(" ew ", " ns "))
    page.click(cell("e5"), button="right")
    wait_words(page, "spread e5 towards e4 or spread e5 towards d4")
    page.click(cell("e4"))
    page.click(cell("e3"))
    wait_words(page, "put a cube on e1; take the pairs off e4, e2")


def test_the_page_plays_the_computers_move_for_me_with_the_cubes(page):
    page.sim.command("set level random")
    page.click('[data-opponent="ew"]')
    page.click(cell("e5"))
    wait_record(page, "1. e5")
    page.wait_for_selector('[data-role="play"]:not([hidden])', timeout=30000)
    expect = page.sim.state()["state"]["expect"]
    wait_words(page, "the computer plays %s: " % expect)
    page.click('[data-role="play"]')
    wait_record(page, "1. e5 ; " + expect, timeout=30000)
    page.wait_for_selector('[data-role="play"][hidden]', state="attached", timeout=30000)


def test_E3_the_winning_chain_is_drawn_bright_through_its_whole_pulse(page):
    load(page, COLUMN)
    page.click(cell("e5"))  # EW connects NS's edges: NS wins, its chain pulses dark blue
    page.wait_for_selector('[data-role="result"]:not(:empty)', timeout=30000)
    samples = page.evaluate("""async () => {
        const out = [];
        for (let k = 0; k < 30; k++) {
            const el = document.querySelector('[data-cell="e9"]');
            out.push([el.dataset.led, el.dataset.drawn]);
            await new Promise(r => setTimeout(r, 40));
        }
        return out;
    }""")
    raw = [int(led[4:], 16) for led, _ in samples]
    assert min(raw) < 60, samples  # the firmware's pulse does go deep: the page lifts it
    for _, drawn in samples:
        assert max(int(drawn[k:k + 2], 16) for k in (0, 2, 4)) >= 150, samples


def test_the_legend_swatches_never_blink_to_black(page):
    page.wait_for_selector(".legend .swatch", timeout=30000)
    lowest = page.evaluate("""async () => {
        let low = 1;
        for (let k = 0; k < 28; k++) {
            for (const s of document.querySelectorAll('.legend .swatch')) {
                low = Math.min(low, parseFloat(getComputedStyle(s).opacity));
            }
            await new Promise(r => setTimeout(r, 45));
        }
        return low;
    }""")
    assert lowest >= 0.4, lowest


def test_a_record_load_shows_its_progress_in_the_page(page):
    page.evaluate("""() => {
        window.loadingSeen = [];
        new MutationObserver(() => {
            const el = document.querySelector('[data-role="loading"]');
            if (!el.hidden) window.loadingSeen.push(el.textContent);
        }).observe(document.querySelector('[data-role="loading"]'),
                   {attributes: true, childList: true, subtree: true, characterData: true});
    }""")
    page.fill('[data-role="load-text"]', RECORD28)
    page.click('[data-role="load"]')
    wait_record(page, "14. e7 ; f7 (v)", timeout=30000)
    seen = page.evaluate("window.loadingSeen")
    assert any("of 28" in t for t in seen), seen
    assert page.is_hidden('[data-role="loading"]')


def test_B1_the_page_says_when_no_cube_is_left_in_the_box(page):
    for _ in range(36):
        page.sim.post({"action": "put", "cell": "a1"})
    page.wait_for_selector('[data-cell="a1"][data-count="36"]', timeout=30000)
    page.click(cell("b1"))
    page.wait_for_function(
        "() => document.querySelector('[data-role=\"message\"]').textContent"
        ".includes('no cube left in the box')", timeout=30000)
    assert "No cube left in the box" in page.inner_text('[data-role="hand-text"]')
