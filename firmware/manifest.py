# ruff: noqa: F821  (module and package are given by the reader: xobo_host.deploy)
# The device manifest: the files that go onto the Pico (xobo flash, make build), nothing else.
#
# In the style of micropython-lib's manifest.py files: module() names a top-level file,
# package() a package and the files of it that the device runs. Everything else under
# firmware/xobo/ runs on the host only (virtual drivers, scripted sessions, the unix-port
# entry point, CLIs and benchmarks) and must not take the Pico's RAM: a stock MicroPython loads
# every .mpy it imports into its ~240 KB heap. tests/drivers/test_manifest.py checks that the
# device files import nothing outside this list (or MicroPython's own modules), and that every
# file of firmware/xobo/ is either here or named as host-only there.

module("main.py")

package(
    "xobo",
    (
        "__init__.py",
        "compat.py",
        "games/__init__.py",
        # the XoBo game: its rules engine
        "games/xobo/__init__.py",
        "games/xobo/board.py",  # its light layers and words
        "games/tiny/__init__.py",  # the test game (docs/games.md's example)
        "games/tiny/ai.py",
        "games/tiny/board.py",
        "games/tiny/position.py",
        "games/brochs/__init__.py",  # Brochs (the 15x15 board)
        "games/brochs/rules.py",
        "games/brochs/board.py",
        "games/brochs/ai.py",
        "games/brochs/record.py",
        "games/xobo/rules/__init__.py",
        "errors.py",
        "games/xobo/rules/geometry.py",
        "games/xobo/rules/moves.py",
        "games/xobo/rules/notation.py",
        "numbers.py",
        "games/xobo/rules/position.py",
        "games/xobo/rules/record.py",  # serial `record`, imported when asked
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
        "drivers/boarddef.py",
        "runtime/colours.py",
        "runtime/device.py",
        "runtime/events.py",
        "runtime/gestures.py",
        "runtime/inference.py",
        "runtime/layers.py",
        "runtime/light.py",
        "runtime/protocol.py",
        "runtime/selftest.py",  # imported when the self-test starts
        "runtime/storage.py",
        "runtime/topology.py",
        # the computer opponent, imported at the first hint or computer move
        "games/xobo/ai/__init__.py",
        "games/xobo/ai/evaluate.py",
        "games/xobo/ai/rng.py",
        "games/xobo/ai/search.py",
    ),
)
