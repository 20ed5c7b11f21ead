"""X on the host (never on the device): its cells drawn as hexagons and the one piece a cell
holds, for the simulator, the test kits and the tools (docs/games.md, "The host module")."""

CELL_HOLDS = (1, "a cell holds one piece (XM1)")
LADDER = ((), 100, (30, 300), 3)  # make bench: its strength ladder against UCT
LIGHT_PREFIX = ("X_", "X: ")  # its light codes' prefix (xobo.runtime.colours), their words'


def draw(app, name):
    """A rhombus of hexagons: XB3's six neighbours are the cells that touch (the players'
    colours are the page's default for a game with ``pos.owner``)."""
    return {"shape": "hex"}


def record_settings(rec):
    """The settings an XN1 record was played with: its size and first player."""
    from xobo.games.x import PLAYER_NAMES

    return {"size": rec.size, "first": PLAYER_NAMES[rec.first]}
