"""X (Mark Steere, 2009): three players on a rhombus of hexagons win corners (docs/rules/x.md).

The game's description for the board runtime (docs/games.md); the rules engine is
``xobo.games.x.rules``, the board layer ``xobo.games.x.board``, the computer ``xobo.games.x.ai``.

A move is one empty cell filled by the side to move: footprint L = {}, A = {cell}, heights 0/1,
``touch_cell(m) == -1``. What the board layer reads from a ``Position`` (``engine()``):

- ``pos.owner``: bytearray(n_cells), 0 empty, 1 + player (0 red, 1 yellow, 2 green);
- ``pos.neighbours(c, out) -> k``: the k (2-6) hex neighbours of cell c (XB3) into ``out``;
- ``pos.corner_owner(k) -> player or -1`` for corner k (0 SW, 1 SE, 2 NW, 3 NE; XS2, XS3) and
  ``pos.corner_settled(k) -> bool`` (XS4); ``rules.corner_cell(k, n)`` is its cell;
- ``pos.corner_cells(k, out) -> count``: marks in bytearray ``out`` the group that wins corner k;
  ``pos.corner_chain(k) -> [cells]``: a shortest path through that group from its farthest
  cell on one edge to its farthest on the other (allocates: for the display);
- ``pos.scores(out)`` (corners won per player, XE2), ``pos.winner()``.
"""

NAME = "x"
ORDER = 1  # its place in the list of games (the game gesture, the menus)
TITLE = "X (Mark Steere)"
PLAYERS = 3
PLAYER_NAMES = ("red", "yellow", "green")
SETTINGS = {"size": (4, 9), "first": PLAYER_NAMES}
DEFAULTS = {"size": 8, "first": "red"}
NEW_GAME_SETTINGS = ("size", "first")
LEVELS = ("random", "greedy", "search")  # the computer player's levels, weakest first
DEFAULT_LEVEL = "search"
# its parts, each a module of this folder (docs/games.md, "The game's parts"):
# xobo.games.part(game, "engine") imports and returns one
PARTS = {"engine": "rules", "board": "board", "computer": "ai", "cli": "cli", "records": "record",
         "lessons": "lessons", "host": "host"}


def _size(settings):
    return settings.get("size", DEFAULTS["size"])


def _first(settings):
    return PLAYER_NAMES.index(settings.get("first", DEFAULTS["first"]))


def area(settings):
    n = _size(settings)
    return n, n


def new_position(settings):
    from xobo.games.x.rules import Position

    return Position(_size(settings), _first(settings))


def parse_position(text, settings):
    """A position of the game with these settings: its size must be the setting's (when
    ``settings`` name one: the rules CLI's options name only what was given)."""
    from xobo.errors import PositionError
    from xobo.games.x.rules import Position

    pos = Position.parse(text, _first(settings))
    if "size" in settings and pos.size != _size(settings):
        raise PositionError("the position is a %d x %d board but the size setting is %d"
                            % (pos.size, pos.size, _size(settings)))
    return pos


def record_text(pos):
    """The game record of ``pos`` (its rules page's record notation): serial ``record``."""
    from xobo.games.x.record import format_record, record_from_position

    return format_record(record_from_position(pos))
