# ruff: noqa: F821  (package is given by the reader: xobo_host.device.deploy)
# X (Mark Steere): the files that go onto the Pico (included by firmware/manifest.py).

package(
    "xobo/games/x",
    (
        "__init__.py",
        "lessons.py",  # its course (xobo.runtime.learn): imported while learning only
        "rules.py",
        "board.py",  # its light layers
        "record.py",  # serial `record`, imported when asked
        "ai.py",  # the computer, imported at the first hint or computer move
    ),
)
