"""The test game on the host (never on the device): one piece a cell. Its moves' hands are the
default ones (``xobo.hostkit``: from the footprint), its drawing the page's default (the
players' colours from ``pos.owner``): the smallest host module (docs/games.md)."""

CELL_HOLDS = (1, "a cell holds one piece (TB2)")
LADDER = ((), 20, (10, 100, 1000), 4)  # make bench: short games, three rungs
LESSON_SHOT = (4, "pico_gpio")  # docs/learn-tiny.png: its fourth lesson
FLOOR_SHOT = ("d4", "e4", "d5", "e5", "d6")  # docs/cafe-floor.png: three in a line: a game won
RESULT_WORDS = {"": "three in a line (TE1)"}  # how a game ends, in the simulator page's words
