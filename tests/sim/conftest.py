"""Fixtures of the simulator tests: the firmware behind the server, and headless Chromium."""

import os

import pytest

from sim.simkit import CHROMIUM, CHROMIUM_ARGS, Sim, new_context


@pytest.fixture
def sim(tmp_path):
    s = Sim(tmp_path / "flash")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip("%s is absent: install it with 'make browser' (apt-get install chromium)"
                    % CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, tmp_path):
    """The simulator's page in Chromium, live, with the firmware behind it (``page.sim``);
    any error the page's script raises fails the test."""
    sim = Sim(tmp_path / "flash")
    ctx = new_context(browser)
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(sim.url)
    pg.wait_for_selector('[data-role="conn"][data-state="live"]', timeout=5000)
    pg.sim = sim
    yield pg
    ctx.close()
    sim.stop()
    assert not errors, errors


@pytest.fixture
def open_page(browser, tmp_path):
    """open_page(board="pico_gpio") -> a live page on a new simulator (``page.sim``)."""
    made = []

    def _open(board="pico_gpio"):
        sim = Sim(tmp_path / ("flash%d" % len(made)), board=board)
        ctx = new_context(browser)
        pg = ctx.new_page()
        errors = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        pg.goto(sim.url)
        pg.wait_for_selector('[data-role="conn"][data-state="live"]', timeout=5000)
        pg.sim = sim
        made.append((sim, ctx, errors))
        return pg

    yield _open
    for sim, ctx, errors in made:
        ctx.close()
        sim.stop()
        assert not errors, errors
