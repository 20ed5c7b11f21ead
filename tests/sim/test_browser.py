"""End-to-end: the simulator page in headless Chromium, played with the mouse and the keyboard.

The firmware runs for real behind the page (VirtualBoard in real time, settle time 200 ms);
every move is made with clicks on cells as a person would, and the checks read what the page
shows: the record, the LED colours under the cells, the status.
"""

import pytest

from sim.simkit import START, Sim, cell, new_context, wait_led, wait_record
from xobo.runtime import colours

pytestmark = pytest.mark.browser

PUT = colours.hex_of(colours.RGB[colours.PUT])
FILL = colours.hex_of(colours.RGB[colours.FILL])


def record_text(pg):
    return pg.inner_text('[data-role="record"]')


def wait_count(pg, name, n, timeout=30000):
    pg.wait_for_selector('%s[data-count="%d"]' % (cell(name), n), timeout=timeout)


def wait_sees(pg, state, timeout=30000):
    """Until the firmware's inference state (shown under the status) is ``state``."""
    pg.wait_for_selector('[data-role="inference"][data-state="%s"]' % state, state="attached",
                         timeout=timeout)


def wait_dark(pg, name, timeout=30000):
    wait_led(pg, name, ["000000"], timeout)


def put(pg, name):
    pg.click(cell(name))


def place(pg, name, expect):
    """Put one cube on an empty cell and wait until the record shows the move."""
    put(pg, name)
    wait_record(pg, expect)


def lift_right_click(pg, name):
    pg.click(cell(name), button="right")


def lift_by_holding(pg, name):
    box = pg.locator(cell(name)).bounding_box()
    pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    pg.mouse.down()
    pg.wait_for_timeout(650)
    pg.mouse.up()


def wait_hand(pg, n, timeout=30000):
    pg.wait_for_selector('[data-role="hand"][data-count="%d"]' % n, timeout=timeout)


OPENING = "e1 a1 e2 a3 e3 g8 e4 a5 e5 a7 e6 a9 e7 i1".split()  # moves 1-7: placements


@pytest.mark.long
def test_a_whole_game_with_regroup_spread_capture_fix_and_undo_played_in_the_page(page):
    _xobo_game(page, whole=True)


def test_a_fix_an_undo_a_regroup_and_a_spread_with_a_capture_played_in_the_page(page):
    # the whole game's middle (make test-long plays it all): its first seven moves loaded
    # as a record through the page, then the fix, the undo, the regroup under Voina and the
    # spread that captures, each made with the page's clicks and tools
    _xobo_game(page, whole=False)


def _xobo_game(pg, whole):
    if whole:  # 1-7: placements, clicked cube by cube
        for k, name in enumerate(OPENING):
            expect = ("%d. %s" % (k // 2 + 1, name)) if k % 2 == 0 else "; " + name
            place(pg, name, expect)
    else:
        record = " ".join(("%d. %s" % (k // 2 + 1, name)) if k % 2 == 0 else "; " + name
                          for k, name in enumerate(OPENING))
        pg.fill('[data-role="load-text"]', '[Variant "xobo"]\n\n' + record)
        pg.click('[data-role="load"]')
        wait_record(pg, "7. e7 ; i1")
        wait_sees(pg, "match")
    assert pg.inner_text('[data-role="res-common"]') == "22"

    # an illegal situation: NS lifts the single on a1 -> the board asks to put it back
    lift_right_click(pg, "a1")
    wait_hand(pg, 1)
    wait_led(pg, "a1", [FILL])
    wait_sees(pg, "fix")
    put(pg, "a1")  # the fix: the cube goes back from the hand
    wait_count(pg, "a1", 1)
    wait_dark(pg, "a1")
    wait_hand(pg, 0)

    # undo: e8 is played, the undo button takes it back, the board shows the cube to clear
    place(pg, "e8", "8. e8 (v)")
    pg.click('[data-button="undo"]')
    pg.wait_for_function(
        "() => !document.querySelector('[data-role=\"record\"]').textContent.includes('8. e8')")
    wait_sees(pg, "restore")
    pg.click(cell("e8"), modifiers=["Shift"])  # shift-click takes the cube off
    wait_count(pg, "e8", 0)
    wait_sees(pg, "match")
    place(pg, "e8", "8. e8 (v)")
    assert pg.is_visible('[data-role="voina"]')

    # regroup under Voina: e8 and e7 lifted into the hand, both put on e6 (a stack of 3)
    lift_by_holding(pg, "e8")
    pg.click('[data-tool="lift"]')
    put(pg, "e7")  # the Lift tool: this click lifts
    wait_hand(pg, 2)
    put(pg, "e6")
    put(pg, "e6")
    wait_count(pg, "e6", 3)
    wait_record(pg, "; e8->e6")
    assert pg.get_attribute(cell("e6"), "data-count") == "3"
    assert pg.locator(cell("e6") + " .cube").count() == 3  # a stack looks like a stack

    # spread e6 towards f7 with a capture on g8: lift the stack, the board lights the spreads
    lift_right_click(pg, "e6")
    wait_hand(pg, 3)
    for target in ("f7", "h9", "e5", "e4", "e3"):  # NE and S spreads are both legal
        wait_led(pg, target, [PUT, colours.hex_of(colours.RGB[colours.TAKE])])
    put(pg, "f7")
    put(pg, "g8")
    put(pg, "h9")
    wait_hand(pg, 0)
    wait_count(pg, "g8", 2)
    pg.click('[data-tool="take"]')
    put(pg, "g8")  # the Take tool: the captured pair goes off the board
    wait_count(pg, "g8", 0)
    wait_record(pg, "9. e6xf7")
    pg.wait_for_function("() => document.querySelector('[data-role=\"res-ns\"]')"
                         ".textContent === '2'")
    pg.click('[data-tool="put"]')
    if not whole:
        return

    # to the end: NS connects North and South
    for name, expect in (("i3", "; i3"), ("e6", "10. e6 (v)"), ("i5", "; i5"),
                         ("f8", "11. f8 (v)"), ("i7", "; i7"), ("f9", "12. f9")):
        place(pg, name, expect)
    pg.wait_for_function("() => document.querySelector('[data-role=\"result\"]')"
                         ".textContent.includes('North')")
    pg.wait_for_function("() => document.querySelector('[data-role=\"result\"]')"
                         ".textContent === 'North–South wins: connected its edges (E3)'")
    wait_sees(pg, "over")  # the cubes may be moved freely: nothing to fix
    rec = record_text(pg)
    assert '[Result "NS"]' in rec
    assert "8. e8 (v) ; e8->e6 9. e6xf7 ; i3 10. e6 (v) ; i5 11. f8 (v) ; i7 12. f9" in rec
    # the winning chain is lit in NS's colour (pulsing: compare the hue, not the level)
    for name in ("e1", "e5", "f9"):
        pg.wait_for_function(
            """c => { const h = document.querySelector('[data-cell="' + c + '"]').dataset.led;
                     const r = parseInt(h.slice(0, 2), 16), g = parseInt(h.slice(2, 4), 16),
                           b = parseInt(h.slice(4), 16);
                     return b > g && g > r && b > 0; }""", arg=name, timeout=30000)
    assert pg.get_attribute(cell("a5"), "data-led") == "000000"


def test_the_keyboard_puts_lifts_and_presses_buttons(page):
    pg = page
    pg.locator("body").press("e")
    pg.keyboard.press("5")
    pg.keyboard.press("Enter")
    wait_record(pg, "1. e5")
    pg.keyboard.press("ArrowLeft")
    pg.keyboard.press("Enter")  # d5
    wait_record(pg, "; d5")
    pg.keyboard.press("l")  # lift d5 (an illegal situation)
    wait_hand(pg, 1)
    wait_sees(pg, "fix")
    pg.keyboard.press("Enter")  # back from the hand
    wait_sees(pg, "match")
    pg.keyboard.press("u")  # the undo button, pressed and released
    pg.wait_for_function(
        "() => !document.querySelector('[data-role=\"record\"]').textContent.includes('d5')")
    pg.keyboard.press("t")  # take d5 off: restored
    wait_sees(pg, "match")
    assert pg.get_attribute(cell("d5"), "data-count") == "0"


def test_loading_a_position_and_a_record_in_the_page(page):
    pg = page
    # a malformed position shows the engine's message and changes nothing
    pg.fill('[data-role="load-text"]', "........./... ns 36 0 0")
    pg.click('[data-role="load"]')
    pg.wait_for_selector('[data-role="load-error"]:not(:empty)')
    assert "rank" in pg.inner_text('[data-role="load-error"]')
    assert pg.inner_text('[data-role="position"]') == START

    position = START.replace("......... ns 36 0 0", ".1.3.1... ew 31 0 0")
    pg.fill('[data-role="load-text"]', position)
    pg.click('[data-role="load"]')
    wait_count(pg, "d1", 3)
    pg.wait_for_function("p => document.querySelector('[data-role=\"position\"]')"
                         ".textContent === p", arg=position)
    assert pg.inner_text('[data-role="load-error"]') == ""
    assert pg.inner_text('[data-role="turn"]').startswith("East")
    assert pg.get_attribute(cell("b1"), "data-count") == "1"

    pg.fill('[data-role="load-text"]', '[Variant "xobo"]\n\n1. e5 ; d4 2. e4')
    pg.click('[data-role="load"]')
    wait_record(pg, "1. e5 ; d4 2. e4")
    wait_count(pg, "d1", 0)
    assert pg.get_attribute(cell("e4"), "data-count") == "1"

    # the serial console sends protocol lines to the firmware
    pg.fill('[data-role="console-input"]', "position")
    pg.press('[data-role="console-input"]', "Enter")
    pg.wait_for_selector('[data-role="console-output"]:has-text("ew 33 0 0")')
    pg.fill('[data-role="console-input"]', "set settle 1")
    pg.press('[data-role="console-input"]', "Enter")
    pg.wait_for_selector('[data-role="console-output"]:has-text("error")')
    assert "settle" in pg.inner_text('[data-role="console-output"]')


def test_the_page_fits_a_phone_and_takes_touch(browser, tmp_path):
    sim = Sim(tmp_path / "flash")
    ctx = new_context(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                      has_touch=True, device_scale_factor=2)
    try:
        pg = ctx.new_page()
        pg.goto(sim.url)
        pg.wait_for_selector('[data-role="conn"][data-state="live"]')
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, "the page scrolls sideways on a phone (%d px)" % width
        box = pg.locator(cell("i9")).bounding_box()
        assert box["x"] + box["width"] <= 390 and box["width"] >= 28
        pg.tap(cell("e5"))
        wait_record(pg, "1. e5")
    finally:
        ctx.close()
        sim.stop()


def test_holding_a_button_in_the_page_is_a_long_press(page):
    pg = page
    place(pg, "e5", "1. e5")
    place(pg, "d4", "1. e5 ; d4")
    pg.click('[data-button="undo"]')  # a short press: d4 is taken back
    wait_sees(pg, "restore")
    box = pg.locator('[data-button="undo"]').bounding_box()
    pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    pg.mouse.down()
    pg.wait_for_timeout(1800)  # longer than the firmware's long press (1.5 s)
    pg.mouse.up()
    # a long undo (not right after power-up) is an undo like a short one: e5 is taken back
    # too and nothing else is lost (it used to abandon the game while restoring)
    pg.wait_for_function("() => [...document.querySelectorAll('[data-role=\"events\"] li')]"
                         ".some(li => li.textContent.startsWith('button undo long'))")
    pg.wait_for_function("() => [...document.querySelectorAll('[data-role=\"events\"] li')]"
                         ".some(li => li.textContent.startsWith('undo e5'))")
    assert not pg.evaluate("() => [...document.querySelectorAll('[data-role=\"events\"] li')]"
                           ".some(li => li.textContent.startsWith('new '))")


def test_the_status_says_how_tall_a_stack_to_put_back_is(page):
    pg = page
    sim = pg.sim
    text = "/".join(["........."] * 4 + ["..3.1...."] + ["........."] * 4) + " ns 32 0 0"
    assert sim.post({"action": "load", "text": text})["ok"]
    wait_sees(pg, "match")
    sim.post({"action": "lift", "cell": "c5"})
    for c in ("d5", "e5", "f5"):
        sim.post({"action": "put", "cell": c})
    sim.post({"action": "take", "cell": "e5", "n": 2})
    wait_record(pg, "c5xd5")
    pg.click('[data-button="undo"]')
    wait_sees(pg, "restore")
    pg.wait_for_function("() => document.querySelector('[data-role=\"inference\"]')"
                         ".textContent.includes('put back: c5 (a stack of 3) e5')")


def test_a_light_fades_in_and_the_legend_blinks_unless_the_player_asks_for_less_motion(
        browser, tmp_path):
    """The page's own look fades a cell's light in (120 ms) and blinks the legend's patterns;
    with the system's "reduce motion" (the look every other test page has, ``new_context``)
    nothing moves, and the legend still names each pattern in words."""
    sim = Sim(tmp_path / "flash")
    looks = {}
    try:
        for motion in ("no-preference", "reduce"):
            ctx = new_context(browser, reduced_motion=motion)
            pg = ctx.new_page()
            pg.goto(sim.url)
            pg.wait_for_selector('[data-role="conn"][data-state="live"]')
            pg.wait_for_selector('.legend .swatch[data-pattern="blink"]')
            looks[motion] = pg.evaluate(
                "() => [getComputedStyle(document.querySelector('.cell .glow'))"
                ".transitionDuration, getComputedStyle(document.querySelector("
                "'.legend .swatch[data-pattern=\"blink\"]')).animationName,"
                " document.querySelector('.legend .swatch[data-pattern=\"blink\"]')"
                ".parentElement.querySelector('small').textContent]")
            ctx.close()
    finally:
        sim.stop()
    fade, blink, words = looks["no-preference"]
    assert fade.startswith("0.12s") and blink == "blink" and words, looks
    fade, blink, same_words = looks["reduce"]
    assert fade == "0s" and blink == "none" and same_words == words, looks


def test_a_power_cut_that_finds_both_saves_damaged_says_so_on_the_page(page):
    # both save slots damaged on the flash while the power is off: the board starts a new
    # game and says why, in the page's message and in its words until the game goes on
    place(page, "e5", "1. e5")
    flash = page.sim.backend.board.flash
    for slot in ("game.a", "game.b"):
        data = bytearray(flash.read(slot))
        data[15] ^= 1  # (in the sequence number's line: a bad checksum)
        flash.write_atomic(slot, bytes(data))
    page.click('[data-role="power-cut"]')
    note = "saved game not resumed: game.a: bad checksum; game.b: bad checksum; new game"
    page.wait_for_function(
        "t => document.querySelector('[data-role=\"message\"]').textContent === t",
        arg="Power cut and restored: " + note)
    assert page.get_attribute('[data-role="message"]', "data-kind") == "error"
    page.wait_for_function(
        "t => document.querySelector('[data-role=\"inference\"]').textContent.startsWith(t)",
        arg="at power-up: " + note)
