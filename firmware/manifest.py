# ruff: noqa: F821  (module and package are given by the reader: xobo_host.device.deploy)
# The device manifest: the files that go onto the Pico (xobo flash, make build), nothing else.
#
# In the style of micropython-lib's manifest.py files: module() names a top-level file,
# package() a package and the files of it that the device runs. Everything else under
# firmware/xobo/ runs on the host only (virtual drivers, scripted sessions, the unix-port
# entry point, CLIs and benchmarks) and must not take the Pico's RAM: a stock MicroPython loads
# every .mpy it imports into its ~240 KB heap. tests/drivers/test_manifest.py checks that the
# device files import nothing outside this list (or MicroPython's own modules), and that every
# file of firmware/xobo/ is either here or named as host-only there.

import os

module("main.py")

# each game's device files: the manifest of every folder of xobo/games/ that has one, found by
# listing them (a game is one folder: adding a game is adding its folder). Only the selected
# game is imported on the device, but every installed game is on the flash so that `set game`
# and the game gesture work. (The readers, xobo_host.device.deploy and the board's image manifest,
# give this file its __file__.)
_GAMES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "xobo", "games")
for _game in sorted(os.listdir(_GAMES_DIR)):
    if os.path.isfile(os.path.join(_GAMES_DIR, _game, "manifest.py")):
        include("xobo/games/%s/manifest.py" % _game)

package(
    "xobo",
    (
        "__init__.py",
        "compat.py",
        "games/__init__.py",
        "errors.py",
        "numbers.py",
        "gamekit.py",  # every game's Position's base and its history's pages (never one block)
        "recordtags.py",  # the games' record tag lines: imported with a record module only
        # the drivers (rp2: machine, neopixel)
        "drivers/__init__.py",
        "drivers/buttons.py",
        "drivers/clock.py",
        "drivers/debounce.py",
        "drivers/eventq.py",
        "drivers/flash.py",
        "drivers/leds.py",
        "drivers/matrix.py",
        "drivers/shiftrows.py",  # the 15x15 board's matrix (74HC595 rows)
        "drivers/watchdog.py",
        # the board application
        "runtime/__init__.py",
        "runtime/app.py",
        "runtime/boardid.py",  # the board's own id, read at the first 'id': unloaded after
        "drivers/boarddef.py",
        "runtime/colours.py",
        "runtime/computer.py",  # the computer player: imported at its first need
        "runtime/controls.py",  # what the buttons do
        "runtime/course.py",  # the lessons' conditions, imported while learning only
        "runtime/device.py",
        "runtime/events.py",
        "runtime/gameid.py",  # a game's own id, drawn when a game starts: unloaded after
        "runtime/gestures.py",
        "runtime/guide.py",  # the words of what the board asks, imported when needed
        "runtime/help.py",  # the serial help, imported when asked
        "runtime/learn.py",  # the learn mode, imported while learning only
        "runtime/inference.py",
        "runtime/layers.py",
        "runtime/light.py",
        "runtime/loading.py",  # the saved game at boot, set game: unloaded after
        "runtime/protocol.py",
        "runtime/settings.py",  # the settings' checks, every game's, the current view
        "runtime/selftest.py",  # imported when the self-test starts
        "runtime/saveread.py",  # checks and parses a save when one is read: unloaded after
        "runtime/storage.py",
        "runtime/tasks.py",  # the board's asyncio tasks (scan, light, watchdog, serial)
        "runtime/topology.py",
        "runtime/words.py",  # the words from footprints (games without their own)
    ),
)
