# dual-runtime
"""M1-M4: placing, regrouping, spreading and capturing."""

from xobo_testing import message_of

from games.xobo.util import EW, NS, column, legal_names, make_pos, play, row
from xobo.errors import MoveError
from xobo.games.xobo.rules.geometry import parse_cell
from xobo.games.xobo.rules.moves import PLACE, REGROUP, SPREAD, move_kind
from xobo.games.xobo.rules.notation import parse_move


def h(pos, name):
    return pos.heights[parse_cell(name)]


def test_M1_place_takes_from_the_common_reserve_first():
    pos = make_pos("", own_ns=2, common=34)
    play(pos, "e5")
    assert pos.common == 33 and pos.own[0] == 2 and h(pos, "e5") == 1


def test_M1_place_from_own_reserve_only_when_common_is_empty():
    pos = make_pos("a1=8 i1=8 a9=8 i9=8", own_ns=4, common=0)
    play(pos, "e5")
    assert pos.common == 0 and pos.own[0] == 3


def test_M1_no_cube_no_placement():
    pos = make_pos("a1=8 i1=8 a9=8 i9=4 h8", own_ew=7, common=0, side=NS)
    assert pos.winner() == -1  # the spread i9xh8 keeps NS in the game (E4)
    assert not [m for m in pos.legal_actions() if move_kind(m) == PLACE]
    assert "no cube" in message_of(MoveError, parse_move, "e5", pos)


def test_M1_placing_on_an_occupied_cell_is_refused():
    pos = make_pos("e5")
    assert "not empty" in message_of(MoveError, parse_move, "e5", pos)


def _under_voina_with_row():
    # EW threatens: row 5 singles a5-h5 need i5; NS (to move) may regroup (V2)
    return make_pos(row(5, "a-h"), side=NS)


def test_M2_regroup_only_under_voina():
    pos = make_pos(row(5, "a-c"), side=NS)
    assert not pos.under_voina()
    assert "only under voïna" in message_of(MoveError, parse_move, "a5->c5", pos)
    assert not [m for m in pos.legal_actions() if move_kind(m) == REGROUP]


def test_M2_regroup_under_voina_puts_all_cubes_on_the_end():
    pos = _under_voina_with_row()
    assert pos.under_voina()
    play(pos, "a5->c5")
    assert h(pos, "c5") == 3 and h(pos, "a5") == 0 and h(pos, "b5") == 0 and h(pos, "d5") == 1


def test_M2_segment_may_be_part_of_a_longer_run():
    pos = _under_voina_with_row()
    names = legal_names(pos)
    assert "c5->e5" in names and "e5->c5" in names and "b5->e5" in names


def test_M2_needs_at_least_three_cubes():
    pos = _under_voina_with_row()
    assert "at least 3" in message_of(MoveError, parse_move, "b5->c5", pos)


def test_M2_stack_must_be_spreadable_maxreach():
    # e5 has maxreach 4: regrouping 5 onto e5 is forbidden, 4 is allowed
    pos = _under_voina_with_row()
    names = legal_names(pos)
    assert "b5->e5" in names
    assert "a5->e5" not in names
    assert "never be spread" in message_of(MoveError, parse_move, "a5->e5", pos)
    assert "h5->a5" in names  # 8 onto a corner-file cell with maxreach 8


def test_M2_variant_kv_regroups_exactly_three():
    pos = make_pos(row(5, "a-h"), side=NS, variant="kv")
    names = [n for n in legal_names(pos) if "->" in n]
    assert "a5->c5" in names and "b5->e5" not in names
    assert "exactly 3" in message_of(MoveError, parse_move, "b5->e5", pos)


def test_M2_diagonal_regroup():
    # a1..h8: NS threatens at g9/h9 (a1 is on the South edge), EW at i7/i8 (a1 is West)
    pos = make_pos("a1 b2 c3 d4 e5 f6 g7 h8", side=EW)
    assert pos.under_voina()
    names = legal_names(pos)
    assert "a1->c3" in names and "c3->a1" in names and "h8->a1" in names
    assert "a1->h8" not in names  # h8 reaches at most 7 cells: a stack of 8 is refused


def test_M2_regroup_segment_must_be_all_singles():
    pos = make_pos(row(5, "a-h") + " d6=3", side=NS)
    pos.heights[parse_cell("b5")] = 0
    pos.common += 1
    assert "a5->c5" not in legal_names(pos)


def test_M3_example_stack_of_four_spreads_south_or_southwest_not_northeast():
    # "A stack of four can be spread South (2 captures) or South-West (1 capture);
    # North-East is impossible because the stack would leave the board."
    pos = make_pos("f7=4 f6 f4 d5", side=NS)
    names = legal_names(pos)
    assert "f7xf6" in names and "f7xe6" in names
    assert "f7xg8" not in names
    assert "leaves the board" in message_of(MoveError, parse_move, "f7xg8", pos) or \
        "only 2" in message_of(MoveError, parse_move, "f7xg8", pos)
    south = pos.clone()
    play(south, "f7xf6")
    assert south.own[0] == 4  # two pairs captured (M4)
    sw = pos.clone()
    play(sw, "f7xe6")
    assert sw.own[0] == 2


def test_M3_spread_puts_one_cube_per_cell_and_empties_the_source():
    pos = make_pos("e5=3 e4", side=EW)
    play(pos, "e5xe4")
    assert h(pos, "e5") == 0 and h(pos, "e4") == 0 and h(pos, "e3") == 1 and h(pos, "e2") == 1
    assert pos.own[1] == 2


def test_M3_spread_needs_a_capture():
    pos = make_pos("e5=3 a1", side=NS)
    assert not [n for n in legal_names(pos) if "x" in n]
    assert "at least one single" in message_of(MoveError, parse_move, "e5xe4", pos)


def test_M3_spread_refused_for_reach():
    pos = make_pos("b5=4 a5", side=NS)
    assert "b5xa5" not in legal_names(pos)
    assert "border" in message_of(MoveError, parse_move, "b5xa5", pos)


def test_M3_spread_onto_a_stack_grows_it_but_not_beyond_maxreach():
    # e6 stack of 4 (maxreach 4 on e6? e6 has maxreach 5) grows to 5 ok; e5=4 would be refused
    ok = make_pos("e3=3 e4=4 e5", side=NS)  # e4 maxreach 5 (towards N? e4->e9 is 5)
    play(ok, "e3xe4")
    assert h(ok, "e4") == 5 and h(ok, "e5") == 0 and h(ok, "e6") == 1
    assert ok.own[0] == 2
    bad = make_pos("e2=3 e5=4 e3", side=NS)  # e5 maxreach 4: 4 -> 5 refused
    assert "e2xe3" not in legal_names(bad)
    assert "never be spread" in message_of(MoveError, parse_move, "e2xe3", bad)


def test_M3_either_player_may_spread_any_stack():
    for side in (NS, EW):
        pos = make_pos("e5=3 e4", side=side)
        assert "e5xe4" in legal_names(pos)


def test_M4_captured_pairs_go_to_the_movers_reserve():
    pos = make_pos("a1=3 b2 c3 d4", side=EW)
    play(pos, "a1xb2")
    assert pos.own[1] == 6 and pos.own[0] == 0
    assert h(pos, "b2") == 0 and h(pos, "c3") == 0 and h(pos, "d4") == 0


def test_M4_no_cell_is_left_with_two_after_any_move():
    pos = make_pos("a1=3 b2 c3=3 d4", side=EW)
    for m in pos.legal_actions():
        pos.apply(m)
        assert [v for v in pos.heights if v == 2] == []
        pos.undo()


def test_undo_restores_spread_with_captures_exactly():
    pos = make_pos("f7=4 f6 f4 d5 c3=3", side=NS, own_ew=3)
    before = pos.to_string()
    for m in pos.legal_actions():
        pos.apply(m)
        pos.undo()
        assert pos.to_string() == before


def test_undo_restores_a_placement_from_own_reserve():
    pos = make_pos("a1=8 i1=8 a9=8 i9=8", own_ns=2, own_ew=2, common=0)
    before = pos.to_string()
    play(pos, "e5")
    pos.undo()
    assert pos.to_string() == before


def test_undo_at_the_start_says_so():
    from xobo.games.xobo.rules.position import Position
    assert "nothing to undo" in message_of(MoveError, Position().undo)


def test_column_helper_builds_cells():
    assert column("e", "1-3") == "e1 e2 e3"


def test_kinds_of_generated_moves():
    pos = make_pos("e5=3 e4", side=NS)
    kinds = [move_kind(m) for m in pos.legal_actions()]
    assert PLACE in kinds and SPREAD in kinds and REGROUP not in kinds
    assert EW == 1
