"""XoBo board firmware and rules engine.

This package runs unchanged under CPython 3.11 (desktop, simulator, tests) and MicroPython
(the Pico and the unix port). Layout:

- ``xobo.games.xobo.rules``   the rules engine (positions, moves, notation, records)
- ``xobo.runtime``   the board application (sensing, move inference, light, saved game, serial)
- ``xobo.drivers`` hardware drivers and their virtual twins
- ``xobo.games.xobo.ai``      the computer opponent and hints
"""

VERSION = "0.1.0"
