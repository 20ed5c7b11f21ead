# ruff: noqa: F821  (package is given by the reader: xobo_host.device.deploy)
# The XoBo game: the files that go onto the Pico (included by firmware/manifest.py).

package(
    "xobo/games/xobo",
    (
        "__init__.py",
        "lessons.py",  # its course (xobo.runtime.learn): imported while learning only
        "board.py",  # its light layers
        "words.py",  # its moves in words (imported when asked)
        "rules/__init__.py",
        "rules/geometry.py",
        "rules/moves.py",
        "rules/notation.py",
        "rules/position.py",
        "rules/record.py",  # serial `record`, imported when asked
        "ai/__init__.py",
        "ai/evaluate.py",
        "ai/rng.py",
        "ai/search.py",
    ),
)
