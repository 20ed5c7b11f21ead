"""Headless Chromium as the host's tools and the tests launch it: Debian's /usr/bin/chromium
(never a download), through Playwright.

Usage::

    >>> from xobo_host.chromium import CHROMIUM, CHROMIUM_ARGS
    >>> CHROMIUM, CHROMIUM_ARGS[:2]
    ('/usr/bin/chromium', ['--no-sandbox', '--disable-gpu'])
    >>> # with Playwright (not run here: a browser takes seconds to start):
    >>> # from playwright.sync_api import sync_playwright
    >>> # with sync_playwright() as playwright:
    >>> #     browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
    >>> #                                          args=CHROMIUM_ARGS)
"""

CHROMIUM = "/usr/bin/chromium"

# Chromium keeps the last --disable-features it is given (a second one replaces the first, it
# does not add to it), and Playwright passes one of its own first: ours is Playwright's list
# (1.65's chromiumSwitches) and the features a page of ours has no use for.
# tests/sim/test_browser_launch.py checks that Playwright's list is all in ours.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion")
# The omnibox popup is a page of Chromium's own (its address bar's, in Lit) that the full
# headless browser makes and lays out for every window: in a lesson's browser test it took
# more than half as much CPU as the simulator's page (Chromium 156's trace, 2026-11-27).
UNUSED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + UNUSED_FEATURES),
]
