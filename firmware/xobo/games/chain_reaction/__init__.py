"""Chain Reaction (Sid Sackson, 1993): 7 files, a field of 6 or 7 ranks between two goal rows,
11 pieces a side, turns of one to five segments (docs/rules/chain-reaction.md).

The game's description for the board runtime (docs/games.md); the rules engine is
``xobo.games.chain_reaction.rules``, the CLI ``xobo.games.chain_reaction.cli``.

Settings: ``field`` the field's ranks, 6 or 7 (CB1: three home rows a side, CB3, need 6
ranks; 7 leaves a neutral rank and is the most the 9 x 9 board holds with the goal rows);
``variant`` ``standard`` or ``blockade`` (CE3); ``target`` 12-24 (CB5); ``first``.
"""

NAME = "chain-reaction"
ORDER = 2  # its place in the list of games (the game gesture, the menus)
TITLE = "Chain Reaction (Sid Sackson)"
PLAYERS = 2
PLAYER_NAMES = ("light", "dark")
SETTINGS = {"field": (6, 7), "variant": ("standard", "blockade"), "target": (12, 24),
            "first": ("light", "dark")}
DEFAULTS = {"field": 7, "variant": "standard", "target": 18, "first": "light"}
NEW_GAME_SETTINGS = ("field", "variant", "target", "first")
LEVELS = ("random", "greedy", "search")  # the computer player's levels, weakest first
DEFAULT_LEVEL = "search"
# random games last 500-1,500 segments (the conformance suite plays them to the end)
RANDOM_GAME_PLIES = 3000
RANDOM_GAMES = 4  # (the suite checks every segment of them: 4 games, about 3,000 segments)
# its parts, each a module of this folder (docs/games.md, "The game's parts"):
# xobo.games.part(game, "engine") imports and returns one
PARTS = {"engine": "rules", "board": "board", "computer": "ai", "cli": "cli", "records": "record",
         "lessons": "lessons", "host": "host"}


def area(settings):
    """Files a-i (a and i unused by play: the board shows scores and segments there) by the
    field and its two goal rows."""
    return 9, settings.get("field", 7) + 2


def new_position(settings):
    from xobo.games.chain_reaction.rules import Position

    return Position(settings.get("field", 7), settings.get("target", 18),
                    PLAYER_NAMES.index(settings.get("first", "light")),
                    settings.get("variant", "standard") == "blockade")


def parse_position(text, settings):
    from xobo.games.chain_reaction.rules import Position

    return Position.parse(text, settings.get("field"),
                          settings.get("variant", "standard") == "blockade")


def record_text(pos):
    """The game record of ``pos`` (its rules page's record notation): serial ``record``."""
    from xobo.games.chain_reaction.record import format_record, record_from_position

    return format_record(record_from_position(pos))
