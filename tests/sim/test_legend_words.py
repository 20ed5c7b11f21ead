"""The page's light legend (xobo_host.sim.legend) says the same kind of thing of each player of a
game: its pattern names come from the one colour table, as a player sees the light."""

from xobo.runtime.virtual_board import VirtualBoard
from xobo_host.sim.legend import game_legend


def _legend(game):
    vb = VirtualBoard(settings={"game": game})
    vb.advance(50)
    return game_legend(vb.app)


def test_x_legend_names_each_players_corner_as_dim_alike_xs4():
    corners = {item["meaning"].split("'")[0].split()[-1]: item["name"]
               for item in _legend("x") if "the corner is" in item["meaning"]}
    assert corners == {"Red": "dim", "Yellow": "dim", "Green": "dim"}, corners


def test_x_legend_says_each_players_pieces_with_its_pattern():
    pieces = {item["meaning"].split(":")[0]: item["name"] for item in _legend("x")
              if "its pieces" in item["meaning"]}
    # Green's pieces breathe slowly (red and green differ by more than colour)
    assert pieces == {"Red": "steady", "Yellow": "steady", "Green": "slow breathing"}, pieces
