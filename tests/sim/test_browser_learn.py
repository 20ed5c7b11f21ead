"""The learn card and How to play on the simulator page: a wrong try said and taken back, the
player's own game given back, each lesson drawn as the rules pages' own diagram (the courses
walked by a newcomer who reads the page: test_browser_newcomer.py)."""

import re

import pytest

pytestmark = pytest.mark.browser

CARD = '[data-role="learn-words"]'


def cell(name):
    return '[data-cell="%s"]' % name


def on_page(pg, name):
    """The cell the page labels ``name``: the game's own name where the game sits inside the
    board (the test game's a1-c3 on d4-f6: data-game-cell), else the board's."""
    game_cell = '[data-game-cell="%s"]' % name
    if pg.locator(game_cell).count():
        return game_cell
    return cell(name)


def words(pg):
    return pg.inner_text(CARD)


def wait_words(pg, pattern, timeout=30000):
    try:
        pg.wait_for_function(
            "p => new RegExp(p).test(document.querySelector('[data-role=\"learn-words\"]')"
            ".textContent)", arg=pattern, timeout=timeout)
    except Exception:
        raise AssertionError("the card never said %r; it says %r; the board: %s" % (
            pattern, words(pg), pg.sim.state()["state"])) from None


def count(pg, name):
    return int(pg.get_attribute(on_page(pg, name), "data-count") or 0)


def put_one(pg, name):
    k = count(pg, name)
    pg.click(on_page(pg, name))
    pg.wait_for_selector(on_page(pg, name) + ':not([data-count="%d"])' % k)


def set_up(pg):
    """Do what 'Set up the lesson: ...' says, with clicks: right-click lifts a cell's pieces
    into the hand, a click puts one (from the hand, else the box)."""
    text = words(pg)
    m = re.search(r"Set up the lesson: (.*) \(lit\)\.", text)
    if not m:
        return False
    for part in m.group(1).split("; "):
        if part.startswith("take the "):
            for name in part.split(" off ", 1)[1].split():
                if count(pg, name):
                    pg.click(on_page(pg, name), button="right")
                    pg.wait_for_selector(on_page(pg, name) + '[data-count="0"]')
        elif part.startswith("put "):  # 'put a cube on e5 a1=7', 'put the master on h8'
            for item in part.split(" on ", 1)[1].split():
                name, _, n = item.partition("=")
                while count(pg, name) < int(n or 1):
                    put_one(pg, name)
        elif part.startswith("make these stacks this tall: "):
            for item in part.split(": ", 1)[1].split():
                name, n = item.split("=")
                while count(pg, name) < int(n):
                    put_one(pg, name)
    # the board then says the lesson (the pieces match)
    pg.wait_for_function(
        "() => !document.querySelector('[data-role=\"learn-words\"]').textContent"
        ".includes('Set up the lesson')", timeout=30000)
    return True


def press(pg, button):
    pg.click('[data-button="%s"]' % button)


def test_the_learn_card_says_a_wrong_move_and_gives_the_players_game_back(page):
    page.click(cell("c3"))  # the player's own game: one move
    page.sim.wait(lambda s: s["state"]["ply"] == 1, what="the first move")
    page.click('[data-role="learn"]')
    wait_words(page, "^Lesson 1/")
    set_up(page)
    page.click(cell("a1"))  # not what the lesson asks
    wait_words(page, "a1: that joins nothing yet")
    assert "take off" not in page.inner_text('[data-role="inference"]')
    page.click(cell("a1"), button="right")  # put it back as lit
    page.click('[data-role="learn-off"]')
    page.wait_for_selector('[data-role="learn-card"][data-learning="no"]')
    state = page.sim.state()["state"]
    assert state["ply"] == 1 and state["learn"] is None
    assert "Start the lessons" in page.inner_text('[data-role="learn-card"]')


# the SVG as the browser parsed it: each element's tag, attributes and text, in order
CANONICAL = """(svg) => { const out = [];
  const walk = (el) => { const attrs = Array.from(el.attributes).filter((a) =>
      !['aria-label', 'role', 'xmlns'].includes(a.name)).map((a) => a.name + '=' + a.value)
      .sort();
    out.push(el.localName + ' ' + attrs.join(' ') + (el.children.length ? '' :
      ' ' + el.textContent)); for (const c of el.children) walk(c); };
  walk(svg); return out; }"""
PARSED = "(text) => new DOMParser().parseFromString(text, 'image/svg+xml').documentElement"
# every piece's centre, as drawn, inside its cell's shape, as drawn (isPointInFill)
MISPLACED = """(svg) => Array.from(svg.querySelectorAll('[data-piece]')).filter((p) => {
  const b = p.querySelector('rect, circle').getBBox();
  const cell = svg.querySelector('rect[data-at="' + p.dataset.at + '"], ' +
    'polygon[data-at="' + p.dataset.at + '"]');
  return !cell || !cell.isPointInFill(new DOMPoint(b.x + b.width / 2, b.y + b.height / 2));
}).map((p) => p.dataset.at)"""


def panel_matches_the_diagrams(pg, name):
    """How to play shows game ``name``'s lessons as xobo_host.sim.diagrams draws them, the first
    ones as the rules page's own files, every piece inside its cell."""
    from xobo_host.sim import diagrams

    made = diagrams.lesson_diagrams(name)
    pg.wait_for_function("n => document.querySelectorAll('[data-role=\"howto-steps\"] li "
                         "svg[data-game=\"' + n.g + '\"]').length === n.k",
                         arg={"g": name, "k": len(made)})
    shown = pg.locator('[data-role="howto-steps"] li svg')
    for k, (_lesson, text) in enumerate(made):
        svg = shown.nth(k)
        assert svg.evaluate(CANONICAL) == pg.evaluate(
            "([t, c]) => (eval(c))((" + PARSED + ")(t))", [text, CANONICAL]), (name, k + 1)
        assert svg.evaluate(MISPLACED) == [], (name, k + 1)
        if k < diagrams.DIAGRAMS_PER_GAME:
            served = pg.evaluate("u => fetch(u).then((r) => r.text())",
                                 "/docs/rules/diagrams/%s-%d.svg" % (name, k + 1))
            assert served == text, (name, k + 1)
    return shown


def test_how_to_play_shows_each_lesson_as_the_rules_pages_diagram(page):
    shown = panel_matches_the_diagrams(page, "xobo")
    steps = page.locator('[data-role="howto-steps"] li')
    assert steps.count() == 6  # the course's lessons but the last, the game
    assert steps.nth(0).locator(".howto-text").inner_text().startswith("The goal.")
    first = shown.nth(0)
    # the cells the lesson speaks of, the engine's: d9, e9 and f9 each join the chain (E1)
    assert first.locator("[data-look]").count() == 3
    assert first.locator("[data-piece]").count() == 8  # the chain e1-e8
    assert "docs/rules/xobo.md" in page.inner_text('[data-role="howto"]')
    # X: hexagons, its pieces in their players' three colours
    page.select_option('[data-role="game"]', "x")
    shown = panel_matches_the_diagrams(page, "x")
    assert shown.nth(1).locator("polygon[data-at]").count() == 64
    fills = set(page.eval_on_selector_all(
        '[data-role="howto-steps"] [data-piece] circle', "cs => cs.map((c) => "
        "c.getAttribute('fill'))"))
    assert len(fills) == 3, fills


def test_how_to_play_links_the_games_rules_page_served_by_the_simulator(page):
    page.wait_for_selector('[data-role="howto"]:not([hidden]) .howto-steps li')
    link = page.locator('[data-role="howto-rules"]')
    assert link.get_attribute("href") == "/docs/rules/xobo.md"
    assert page.get_attribute('[data-role="rules-link"]', "href") == "/docs/rules/xobo.md"
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.title().startswith("XoBo")
    diagram = rules.locator('img[src="diagrams/xobo-1.svg"]')
    assert diagram.count() == 1
    rules.wait_for_function("() => document.querySelector('img[src=\"diagrams/xobo-1.svg\"]')"
                            ".naturalWidth > 0")
    rules.close()
    # another game: its own rules
    page.select_option('[data-role="game"]', "x")
    page.wait_for_function("() => document.querySelector('[data-role=\"howto-rules\"]')"
                           ".getAttribute('href') === '/docs/rules/x.md'")
    assert page.get_attribute('[data-role="rules-link"]', "href") == "/docs/rules/x.md"
