# ruff: noqa: F821  (package is given by the reader: xobo_host.deploy)
# Chain Reaction (Sid Sackson): the files that go onto the Pico (included by firmware/manifest.py).

package(
    "xobo/games/chain_reaction",
    (
        "__init__.py",
        "rules.py",
        "record.py",  # serial `record`, imported when asked
    ),
)
