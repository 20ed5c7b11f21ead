# ruff: noqa: F821  (package is given by the reader: xobo_host.device.deploy)
# The test game (three in a row): its files on the Pico (included by firmware/manifest.py).

package(
    "xobo/games/tiny",
    (
        "__init__.py",  # the test game (docs/games.md's example)
        "lessons.py",  # its course (xobo.runtime.learn): imported while learning only
        "ai.py",
        "board.py",
        "position.py",
        "record.py",  # serial `record`, imported when asked
    ),
)
