"""Three in a row on a 3 x 3 area: the test game (docs/rules/tiny.md).

It exists to prove that the board runtime knows nothing of XoBo, and it is the smallest
complete example of the game interface (docs/games.md): read this package first when you
add a game. The rules engine is ``xobo.games.tiny.position``, the computer player
``xobo.games.tiny.ai``, the rules CLI ``xobo.games.tiny.cli``, the game records (TN3)
``xobo.games.tiny.record``.

The functions that return modules are named apart from them (``engine()``, ``computer()``):
importing a submodule sets the package's attribute of its name, so a function ``ai()`` would be
replaced by the module ``ai`` at its first import.

Usage::

    >>> from xobo.games import load
    >>> game = load("tiny")
    >>> pos = game.new_position(game.DEFAULTS)      # x to move on an empty 3 x 3
    >>> pos.apply(pos.parse_move("b2"))
"""

NAME = "tiny"
ORDER = 9  # its place in the list of games (the gesture, the menus): the test game, last
TITLE = "Three in a row (the test game)"
PLAYERS = 2
PLAYER_NAMES = ("x", "o")
SETTINGS = {"first": ("x", "o")}
DEFAULTS = {"first": "x"}
NEW_GAME_SETTINGS = ("first",)
LEVELS = ("random", "perfect")  # the computer player's levels, weakest first
DEFAULT_LEVEL = "perfect"
# its parts, each a module of this folder (docs/games.md, "The game's parts"):
# xobo.games.part(game, "engine") imports and returns one
PARTS = {"engine": "position", "board": "board", "computer": "ai", "cli": "cli",
         "records": "record", "lessons": "lessons", "host": "host"}


def area(settings):
    return 3, 3


def new_position(settings):
    from xobo.games.tiny.position import Position

    return Position(PLAYER_NAMES.index(settings.get("first", "x")))


def parse_position(text, settings):
    # the notation names the side to move: "first" does not change what a position is
    from xobo.games.tiny.position import Position

    return Position.parse(text)


def record_text(pos):
    """The game record of ``pos`` (TN3, docs/rules/tiny.md): serial ``record``, the page."""
    from xobo.games.tiny.record import format_record, record_from_position

    return format_record(record_from_position(pos))
