# dual-runtime
"""B1-B7: the board, its coordinates, edges, adjacency, reach and material."""

from xobo_testing import message_of

from games.xobo.util import make_pos
from xobo.errors import MoveError, PositionError
from xobo.games.xobo.rules.geometry import (
    EDGE_E,
    EDGE_N,
    EDGE_S,
    EDGE_W,
    EDGES,
    NE,
    SW,
    cell_name,
    maxreach,
    neighbours,
    parse_cell,
    ray,
    reach,
)
from xobo.games.xobo.rules.position import Position


def test_B1_cell_indices_match_the_rule():
    assert parse_cell("a1") == 0
    assert parse_cell("i1") == 8
    assert parse_cell("a2") == 9
    assert parse_cell("i9") == 80
    assert parse_cell("e5") == 40


def test_B1_every_cell_name_round_trips():
    for c in range(81):
        assert parse_cell(cell_name(c)) == c


def test_B1_bad_cell_names_say_what_is_wrong():
    assert "file" in message_of(MoveError, parse_cell, "j5")
    assert "rank" in message_of(MoveError, parse_cell, "a0")
    assert "not a cell" in message_of(MoveError, parse_cell, "a10")


def test_B2_corners_belong_to_both_edges():
    assert EDGES[parse_cell("a1")] == EDGE_S | EDGE_W
    assert EDGES[parse_cell("i1")] == EDGE_S | EDGE_E
    assert EDGES[parse_cell("a9")] == EDGE_N | EDGE_W
    assert EDGES[parse_cell("i9")] == EDGE_N | EDGE_E
    assert EDGES[parse_cell("e9")] == EDGE_N
    assert EDGES[parse_cell("e5")] == 0


def test_B3_adjacency_is_eight_neighbours():
    assert len(neighbours(parse_cell("e5"))) == 8
    assert len(neighbours(parse_cell("a1"))) == 3
    assert len(neighbours(parse_cell("a5"))) == 5
    assert parse_cell("f6") in neighbours(parse_cell("e5"))
    assert parse_cell("g7") not in neighbours(parse_cell("e5"))


def test_B4_reach_and_maxreach():
    assert maxreach(parse_cell("a1")) == 8
    assert maxreach(parse_cell("e5")) == 4
    assert maxreach(parse_cell("b2")) == 7
    assert reach(parse_cell("e5"), NE) == 4
    assert reach(parse_cell("a1"), SW) == 0
    assert [cell_name(c) for c in ray(parse_cell("g6"), SW)] == ["f5", "e4", "d3", "c2", "b1"]


def test_B5_start_has_36_in_the_common_reserve():
    pos = Position()
    assert pos.common == 36 and pos.own[0] == 0 and pos.own[1] == 0
    assert sum(pos.heights) == 0


def test_B5_position_that_loses_cubes_is_rejected():
    msg = message_of(PositionError, Position.parse,
                     "........./........./........./........./....1..../........./........./"
                     "........./......... ew 36 0 0")
    assert "36" in msg and "b5" in msg


def test_B6_a_cell_of_two_is_rejected():
    msg = message_of(PositionError, Position.parse,
                     "........./........./........./........./....2..../........./........./"
                     "........./......... ew 34 0 0")
    assert "e5" in msg and "2" in msg


def test_B7_NS_moves_first_and_a_setting_lets_EW_start():
    assert Position().side == 0
    assert Position(first=1).side == 1


def test_B5_corner_stack_of_eight_is_accepted_but_nine_is_not():
    pos = make_pos("a1=8")
    assert Position.parse(pos.to_string()).heights[0] == 8
    text = pos.to_string().replace("8", "9", 1)
    assert "8" in message_of(PositionError, Position.parse, text)
