"""XoBo (Vincent Everaert, 2000): 9 x 9, 36 neutral cubes, two players (docs/rules/xobo.md).

The game's description for the board runtime (docs/games.md); the rules engine is
``xobo.games.xobo.rules``, the board layer ``xobo.games.xobo.board``, the computer
``xobo.games.xobo.ai``.
"""

NAME = "xobo"
ORDER = 0  # its place in the list of games (the gesture, the menus): first, the default
TITLE = "XoBo (Vincent Everaert)"
PLAYERS = 2
PLAYER_NAMES = ("ns", "ew")
SETTINGS = {"variant": ("xobo", "kv"), "first": ("ns", "ew")}
DEFAULTS = {"variant": "xobo", "first": "ns"}
NEW_GAME_SETTINGS = ("variant", "first")
LEVELS = ("random", "greedy", "beginner", "pico", "strong")
DEFAULT_LEVEL = "pico"
# the board's only game before there were games: its save file and settings from then are
# its (xobo.games.saved_before_the_games)
SAVED_BEFORE_THE_GAMES = True
# its parts, each a module of this folder (docs/games.md, "The game's parts"):
# xobo.games.part(game, "engine") imports and returns one
PARTS = {"engine": "rules.position", "board": "board", "computer": "ai", "cli": "rules.cli",
         "records": "rules.record", "lessons": "lessons", "host": "host"}


def area(settings):
    return 9, 9


def new_position(settings):
    from xobo.games.xobo.rules.position import Position

    return Position(settings.get("variant", "xobo"),
                    PLAYER_NAMES.index(settings.get("first", "ns")))


def parse_position(text, settings):
    from xobo.games.xobo.rules.position import Position

    return Position.parse(text, settings.get("variant", "xobo"))


def record_text(pos):
    """The game record of ``pos`` (N2 text, docs/rules/xobo.md)."""
    from xobo.games.xobo.rules.record import format_record, record_from_position

    return format_record(record_from_position(pos))
