"""How the tests and the host's tools launch Chromium (xobo_host/chromium.py's CHROMIUM_ARGS):
Chromium keeps only the last ``--disable-features`` of its command line, so ours must hold
every feature that Playwright's own switch turns off, or a Playwright upgrade would silently
turn them back on."""

import os
import uuid

import pytest

from xobo_host.chromium import CHROMIUM, CHROMIUM_ARGS, UNUSED_FEATURES


def _command_line_with(marker):
    """The browser process's arguments (not a renderer's: no --type) that hold ``marker``."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                args = f.read().decode(errors="replace").split("\0")
        except OSError:
            continue
        if marker in args and not any(a.startswith("--type=") for a in args):
            return args
    return None


def test_our_disable_features_switch_keeps_playwrights_and_turns_off_the_omnibox_popup():
    if not os.path.exists(CHROMIUM):
        pytest.skip("%s is absent: install it with 'make browser'" % CHROMIUM)
    from playwright.sync_api import sync_playwright

    marker = "--xobo-test-launch=" + uuid.uuid4().hex  # an unknown switch: Chromium ignores it
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=CHROMIUM_ARGS + [marker])
        try:
            args = _command_line_with(marker)
        finally:
            browser.close()
    assert args, "no Chromium process has the launch's marker"
    switches = [a.split("=", 1)[1].split(",") for a in args
                if a.startswith("--disable-features=")]
    assert len(switches) >= 1, args
    kept = set(switches[-1])  # what Chromium applies
    for earlier in switches[:-1]:
        missing = [name for name in earlier if name and name not in kept]
        assert not missing, (
            "Playwright turns off %s, which our --disable-features (the last, the one Chromium "
            "keeps) no longer names: add them to xobo_host.chromium's "
            "PLAYWRIGHT_DISABLED_FEATURES" % missing)
    assert set(UNUSED_FEATURES) <= kept
