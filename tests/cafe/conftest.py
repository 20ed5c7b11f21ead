"""Fixtures of the café tests: headless Chromium (Debian's), as the simulator's tests use."""

import os

import pytest
from sim.simkit import CHROMIUM, CHROMIUM_ARGS


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
