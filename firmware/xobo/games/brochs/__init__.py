"""Brochs (French rules, author unknown): 15 x 15, White's 24 men hold four donjons, Black drops
13 pieces led by a master (docs/rules/brochs.md).

The game's description for the board runtime (docs/games.md); the rules engine is
``xobo.games.brochs.rules``, records ``xobo.games.brochs.record``, the board layer
``xobo.games.brochs.board``, the computer ``xobo.games.brochs.ai``.

Settings: ``first`` (BB5), ``imprecation_choice`` (who picks the piece of a remote capture,
BM3), ``master_diagonal`` (BC2, BR3) and ``donjon`` (k: the donjons stand on (k, k) and its
mirrors, BB3; 4 gives d4 l4 d12 l12).
"""

NAME = "brochs"
ORDER = 3  # its place in the list of games (the game gesture, the menus)
TITLE = "Brochs"
PLAYERS = 2
PLAYER_NAMES = ("black", "white")
SETTINGS = {
    "first": ("black", "white"),
    "imprecation_choice": ("black", "white"),
    "master_diagonal": ("either", "master-moves"),
    "donjon": (2, 7),
}
DEFAULTS = {"first": "black", "imprecation_choice": "black", "master_diagonal": "either",
            "donjon": 4}
NEW_GAME_SETTINGS = ("first", "imprecation_choice", "master_diagonal", "donjon")
LEVELS = ("random", "greedy", "search")  # the computer player's levels, weakest first
DEFAULT_LEVEL = "search"
# random games are long (drops and rook moves on 15 x 15): the conformance suite plays 4
RANDOM_GAMES = 4
# its parts, each a module of this folder (docs/games.md, "The game's parts"):
# xobo.games.part(game, "engine") imports and returns one
PARTS = {"engine": "rules", "board": "board", "computer": "ai", "cli": "cli", "records": "record",
         "lessons": "lessons", "host": "host"}


def area(settings):
    return 15, 15


def _opts(settings):
    return (settings.get("donjon", 4), settings.get("imprecation_choice", "black"),
            settings.get("master_diagonal", "either"))


def new_position(settings):
    from xobo.games.brochs.rules import Position

    donjon, imprecation, diagonal = _opts(settings)
    return Position(donjon, imprecation, diagonal,
                    PLAYER_NAMES.index(settings.get("first", "black")))


def parse_position(text, settings):
    from xobo.games.brochs.rules import Position

    donjon, imprecation, diagonal = _opts(settings)
    return Position.parse(text, donjon, imprecation, diagonal)


def record_text(pos):
    """The game record of ``pos`` (its rules page's record notation): serial ``record``."""
    from xobo.games.brochs.record import format_record, record_from_position

    return format_record(record_from_position(pos))
