"""The host's tools for the board, one package per capability:

- ``cli``: the ``xobo`` command (``main``), its argument types, one ``cmd_<name>`` module per
  subcommand.
- ``sim``: the simulator: the firmware behind a local web page, the serial stand-in
  (``ptyboard``) and the lessons' diagrams.
- ``cafe``: ``xobo cafe``, every table's board on one host, events and matches between cafés.
- ``records``: the games a board played: the SQLite file and each game's record notation.
- ``device``: the Pico: deploying the firmware, its MicroPython image, the emulated-Pico check.
- ``bench``: ``make bench``: the benchmarks, their results files, docs/figures.md, the strength
  matches and their UCT yardstick.

Beside them, what every room uses: ``upy`` (firmware code under the MicroPython unix port) and
``chromium`` (Debian's headless Chromium through Playwright).
"""
