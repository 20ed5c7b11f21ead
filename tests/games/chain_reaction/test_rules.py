# dual-runtime
"""Chain Reaction rules, named after docs/rules/chain-reaction.md (CB1-CR7)."""

from xobo_testing import message_of, raises

from games.chain_reaction.util import START, cell, cn2, moves_text, pos_of
from xobo.errors import MoveError, PositionError
from xobo.games.chain_reaction.rules import DARK, LIGHT, Position
from xobo.rulescli import perft


def test_CN2_CB3_start_position_and_home_rows():
    pos = Position()
    assert pos.to_string() == START
    assert (pos.width, pos.height, pos.n_cells) == (9, 9, 81)
    assert pos.owner(cell(pos, "e2")) == LIGHT and pos.owner(cell(pos, "c7")) == DARK
    assert pos.owner(cell(pos, "e5")) == -1


def test_CB1_field_length_setting_and_unused_files():
    pos = Position(field=6)
    assert pos.height == 8
    assert pos.to_string() == "..ddd../.ddddd./..ddd../..lll../.lllll./..lll.. l 0 0 0 18"
    for r in range(8):
        assert pos.used[r * 9] == 0 and pos.used[r * 9 + 8] == 0 and pos.used[r * 9 + 4] == 1
    assert "5 to" not in message_of(PositionError, Position, 5)
    raises(PositionError, Position, 8)


def test_CB2_goal_squares_and_values():
    pos = Position()
    assert [pos.goal_value(c) for c in pos.goal_cells(LIGHT)] == [1, 1, 1, 2, 1, 1, 1]
    assert pos.goal_cells(LIGHT)[0] == cell(pos, "b9")
    assert pos.goal_cells(DARK)[3] == cell(pos, "e1")
    assert pos.goal_value(cell(pos, "e5")) == 0 and pos.goal_value(cell(pos, "a9")) == 0


def test_CM1_CM2_steps_go_to_the_eight_neighbours_on_the_field():
    pos = Position()
    moves = moves_text(pos)
    assert len(moves) == 79
    assert "d2-c1" not in " ".join(moves)  # never onto a goal row
    assert "e4-e5" in moves and "e4-e3" in moves  # onto an own piece too


def test_CM2_step_to_an_empty_square_ends_the_turn():
    pos = Position()
    pos.play(pos.parse_move("e4-e5"))
    assert pos.side == DARK and pos.seg == 0 and pos.tower == -1


def test_CM2_step_onto_a_piece_makes_a_tower_and_the_turn_goes_on():
    pos = pos_of({"e4": "l", "e5": "d"})
    pos.play(pos.parse_move("e4-e5"))
    e5 = cell(pos, "e5")
    assert pos.side == LIGHT and pos.seg == 1 and pos.tower == e5
    assert pos.owner(e5) == LIGHT and pos.bottom(e5) == DARK and pos.heights[e5] == 2
    assert all(":" in t for t in moves_text(pos))  # CM4: the next segment moves the tower


def test_CM3_tower_move_bottom_to_first_top_to_second_square():
    pos = pos_of({"d4": "[dl]"}, seg=1)
    pos.play(pos.parse_move("d4:N"))
    assert pos.owner(cell(pos, "d5")) == DARK and pos.owner(cell(pos, "d6")) == LIGHT
    assert pos.heights[cell(pos, "d4")] == 0
    assert pos.side == DARK and pos.seg == 0  # CM4 (2): no tower


def test_CM3_two_towers_are_illegal():
    pos = pos_of({"d4": "[dl]", "d5": "l", "d6": "d"}, seg=1)
    m = pos.parse_move("d4:N")
    assert not pos.is_legal(m)
    assert "two towers" in pos.why_illegal(m)


def test_CM3_CM4_top_piece_on_a_single_makes_a_tower_of_the_mover_the_turn_goes_on():
    pos = pos_of({"d4": "[dl]", "d6": "d"}, seg=1)
    pos.play(pos.parse_move("d4:N"))
    d6 = cell(pos, "d6")
    assert pos.tower == d6 and pos.owner(d6) == LIGHT and pos.bottom(d6) == DARK
    assert pos.side == LIGHT and pos.seg == 2


def test_CM4_bottom_piece_on_a_single_gives_the_opponent_the_tower():
    pos = pos_of({"d4": "[dl]", "d5": "l"}, seg=1)
    pos.play(pos.parse_move("d4:N"))
    d5 = cell(pos, "d5")
    assert pos.tower == d5 and pos.owner(d5) == DARK and pos.bottom(d5) == LIGHT
    assert pos.side == DARK and pos.seg == 0
    assert moves_text(pos)[0].startswith("d5:")  # CM1: the opponent starts with it


def test_CM4_CE1_the_fifth_segment_may_not_leave_the_mover_a_tower():
    pos = pos_of({"d4": "[dl]", "d6": "d"}, seg=4)
    m = pos.parse_move("d4:N")
    assert "fifth segment" in pos.why_illegal(m)
    pos3 = pos_of({"d4": "[dl]", "d6": "d"}, seg=3)
    pos3.play(pos3.parse_move("d4:N"))
    assert pos3.seg == 4 and pos3.side == LIGHT


def test_CM4_five_segments_end_the_turn():
    pos = pos_of({"d4": "[dl]"}, seg=4)
    pos.play(pos.parse_move("d4:E"))
    assert pos.side == DARK and pos.seg == 0


def test_CM3_no_spilling_off_the_sides_or_over_the_own_goal_row():
    pos = pos_of({"b4": "[dl]"}, seg=1)
    moves = moves_text(pos)
    assert not any(":W" in t or ":NW" in t or ":SW" in t for t in moves)
    pos2 = pos_of({"e3": "[dl]", "e2": ".", "e1": "."}, seg=1)
    assert "e3:S" not in moves_text(pos2)  # Light's own goal row
    assert "goal row" in pos2.why_illegal(pos2.parse_move("e3:S"))


def test_CS1_scoring_on_the_centre_square_two_points_reentry_on_row_A():
    pos = pos_of({"e7": "[dl]", "e8": ".", "d2": ".", "e2": "l"}, seg=1)
    moves = moves_text(pos)
    assert "e7:N+2@d2" in moves and "e7:N+2@e2" not in moves
    assert "e7:NE+1@d2" in moves or "e7:NE" not in " ".join(moves)
    pos.play(pos.parse_move("e7:N+2@d2"))
    assert pos.score[LIGHT] == 2 and pos.side == DARK and pos.seg == 0
    assert pos.owner(cell(pos, "d2")) == LIGHT and pos.owner(cell(pos, "e8")) == DARK
    assert pos.heights[cell(pos, "e9")] == 0


def test_CS1_CR4_reentry_on_rows_B_and_C_when_row_A_is_full():
    pos = pos_of({"e7": "[dl]", "e8": ".", "d2": "l", "e2": "l", "f2": "l", "c3": ".",
                  "d3": "l", "e3": "l", "f3": "l", "g3": "l", "d4": ".", "e4": "l", "f4": "l"},
                 seg=1)
    targets = sorted(t.split("@")[1] for t in moves_text(pos) if t.startswith("e7:N+"))
    assert targets == ["c3", "d4"]


def test_CR4_reentry_anywhere_in_the_half_when_the_home_squares_are_full():
    home = {"e7": "[dl]", "e8": "."}
    for name in ("d2", "e2", "f2", "c3", "d3", "e3", "f3", "g3", "d4", "f4"):
        home[name] = "l"
    home["e4"] = "d"  # an opponent's piece fills a home square too
    pos = pos_of(home, seg=1)
    targets = sorted(t.split("@")[1] for t in moves_text(pos) if t.startswith("e7:N+"))
    assert targets == sorted(["b2", "c2", "g2", "h2", "b3", "h3", "b4", "c4", "g4", "h4"])


def test_CR5_scoring_bottom_piece_may_not_top_an_opponent_single():
    own = pos_of({"e7": "[ll]", "e8": "d"}, seg=1)
    m = own.parse_move("e7:N+2@d2")
    assert not own.is_legal(m) and "CR5" in own.why_illegal(m)
    theirs = pos_of({"e7": "[dl]", "e8": "l", "d2": "."}, seg=1)
    theirs.play(theirs.parse_move("e7:N+2@d2"))
    assert theirs.side == DARK and theirs.tower == cell(theirs, "e8")
    assert theirs.owner(theirs.tower) == DARK


def test_CS2_CR1_CR2_penalty_when_the_tower_cannot_move():
    squares = {"b2": "[dl]", "b3": "l", "b4": "l", "c3": "l", "d4": "l", "c2": "l", "d2": "l",
               "d8": "."}
    pos = pos_of(squares, seg=1, light=3)
    assert pos.penalty_due()
    assert moves_text(pos) == ["P@d8"]  # Dark's row A has one empty square
    pos.play(pos.parse_move("P@d8"))
    assert pos.score[LIGHT] == 1 and pos.side == DARK and pos.seg == 0
    assert pos.owner(cell(pos, "b2")) == LIGHT and pos.heights[cell(pos, "b2")] == 1
    assert pos.owner(cell(pos, "d8")) == DARK
    low = pos_of(squares, seg=1, light=1)
    low.play(low.parse_move("P@d8"))
    assert low.score[LIGHT] == 0  # not below 0
    assert "penalty" in pos_of(squares, seg=1).why_illegal(pos.parse_move("b2:N"))


def test_CE2_target_needs_a_two_point_lead():
    near = {"e7": "[dl]", "e8": ".", "d2": "."}
    tie = pos_of(near, seg=1, light=17, dark=17)
    tie.play(tie.parse_move("e7:NE+1@d2"))
    assert tie.score[LIGHT] == 18 and tie.winner() == -1
    win = pos_of(near, seg=1, light=17, dark=17)
    win.play(win.parse_move("e7:N+2@d2"))
    assert win.winner() == LIGHT and win.is_terminal() and win.returns() == (1, -1)
    assert win.legal_actions() == []
    late = pos_of(near, seg=1, light=25, dark=24)
    late.play(late.parse_move("e7:NE+1@d2"))
    assert late.winner() == LIGHT


def test_CR3_a_penalty_can_hand_the_opponent_the_win():
    squares = {"b2": "[dl]", "b3": "l", "b4": "l", "c3": "l", "d4": "l", "c2": "l", "d2": "l",
               "d8": "."}
    pos = pos_of(squares, seg=1, light=18, dark=19)
    pos.play(pos.parse_move("P@d8"))
    assert pos.winner() == DARK


def _blockade_position(blockade):
    row = {"b8": "l", "c8": "l", "d8": "l", "e8": "l", "f8": "l", "g8": "l", "h7": "l",
           "h8": ".", "b2": "d", "c2": "."}
    return pos_of(row, blockade=blockade)


def test_CE3_blockade_held_through_the_opponents_turn_wins():
    pos = _blockade_position(True)
    pos.play(pos.parse_move("h7-h8"))
    assert pos.blockade_pending == LIGHT and pos.winner() == -1
    assert pos.to_string().endswith(" l")
    pos.play(pos.parse_move("b2-c2"))
    assert pos.winner() == LIGHT and pos.blockade_winner == LIGHT
    again = Position.parse(pos.to_string(), None, True)
    assert again.winner() == LIGHT and again.to_string() == pos.to_string()
    pos.undo()
    assert pos.winner() == -1 and pos.blockade_pending == LIGHT


def test_CE3_blockade_is_off_by_default():
    pos = _blockade_position(False)
    pos.play(pos.parse_move("h7-h8"))
    pos.play(pos.parse_move("b2-c2"))
    assert pos.winner() == -1


def test_CN1_notation_round_trip_and_errors():
    pos = pos_of({"e7": "[dl]", "e8": ".", "d2": "."}, seg=1)
    for m in pos.legal_actions():
        assert pos.parse_move(pos.move_text(m)) == m
    assert "+2@sq" in message_of(MoveError, pos.parse_move, "e7:N")
    assert "worth 2" in message_of(MoveError, pos.parse_move, "e7:N+1@d2")
    assert "direction" in message_of(MoveError, pos.parse_move, "e7:X")
    assert "not a field square" in message_of(MoveError, pos.parse_move, "e9-e8")
    assert "p@sq" in message_of(MoveError, pos.parse_move, "P")
    assert "only a move" in message_of(MoveError, pos.parse_move, "e7:S+1@d2")
    assert "neighbouring" in message_of(MoveError, pos.parse_move, "e4-e6") or \
        "next to" in message_of(MoveError, pos.parse_move, "e4-e6")


def test_CN2_position_errors_say_what_is_wrong():
    def err(text, blockade=False):
        return message_of(PositionError, Position.parse, text, None, blockade)

    assert "two" in err(cn2({"d4": "[dl]", "e4": "[ld]"})) or "2 towers" in err(
        cn2({"d4": "[dl]", "e4": "[ld]"}))
    assert "11" in err(START.replace("..lll.. l", "..ll... l"))
    assert "side to move" in err(cn2({"d4": "[ld]"}, seg=1))
    assert "no tower" in err(START.replace("l 0 0 0", "l 2 0 0"))
    assert "above 99" in err(START.replace("0 0 0 18", "0 100 0 18"))
    assert "12 to 24" in err(START.replace(" 18", " 25"))
    assert "leading zeros" in err(START.replace(" 18", " 018"))
    assert "leading zeros" in err(START.replace("0 0 0", "0 +1 0"))
    assert "0 to 4" in err(cn2({"d4": "[dl]"}, seg=5))
    assert "7th field" in err(START + " -")
    assert "[bt]" in err(START.replace("..lll../.lllll", "..lll../.[lx]llll"))
    assert "field setting" in message_of(PositionError, Position.parse, START, 6)


def test_CN2_turn_in_progress_round_trips():
    text = cn2({"d4": "[dl]"}, seg=3, light=5, dark=7, target=20)
    assert Position.parse(text).to_string() == text
    pos = Position.parse(text)
    assert pos.seg == 3 and pos.segments_left() == 2 and pos.score == [5, 7]


def test_CM1_CM4_perft_from_the_start():
    pos = Position()
    assert [perft(pos, d) for d in range(4)] == [1, 79, 2348, 67584]
    assert pos.to_string() == START and pos.ply == 0


def test_footprint_and_touch_cell_for_the_board():
    pos = pos_of({"e4": "l", "e5": "d", "d5": "."})
    lifted = bytearray(4)
    added = bytearray(4)
    onto = pos.parse_move("e4-e5")
    assert pos.footprint(onto, lifted, added) == (1, 0) and lifted[0] == cell(pos, "e4")
    assert pos.touch_cell(onto) == cell(pos, "e5")
    step = pos.parse_move("e4-d5")
    assert pos.footprint(step, lifted, added) == (1, 1) and added[0] == cell(pos, "d5")
    assert pos.touch_cell(step) == -1
    tw = pos_of({"d4": "[dl]", "d5": "l", "d6": "."}, seg=1)
    m = tw.parse_move("d4:N")
    assert tw.footprint(m, lifted, added) == (1, 1) and added[0] == cell(tw, "d6")
    assert tw.touch_cell(m) == cell(tw, "d5")


def test_board_layer_state_tower_directions():
    pos = pos_of({"e7": "[dl]", "e8": ".", "d2": ".", "f8": ".", "g9": "."}, seg=1)
    dirs = pos.tower_directions()
    by_d = {}
    for d, s1, s2, pts in dirs:
        by_d[d] = (s1, s2, pts)
    assert by_d[0] == (cell(pos, "e8"), cell(pos, "e9"), 2)
    assert by_d[1] == (cell(pos, "f8"), cell(pos, "g9"), 1)
    assert by_d[4] == (cell(pos, "e6"), cell(pos, "e5"), 0)


def test_CN1_record_errors_name_the_turn_segment_and_line():
    from xobo.errors import RecordError
    from xobo.games.chain_reaction.record import parse_record

    head = '[Game "Chain Reaction"]\n[Field "7"]\n\n'
    rec = parse_record(head + "1. e4-e5 ; e6-e5 e5:E 2. d4-d5")
    assert len(rec.moves) == 4 and rec.final_position().side == 1
    early = message_of(RecordError, parse_record, head + "1. e4-e5 ; e6-e5 ; d4-d5")
    assert "turn goes on after e6-e5" in early and "line 4" in early
    late = message_of(RecordError, parse_record, head + "1. e4-e5 e5-e6")
    assert "turn ended after e4-e5" in late
    bad = message_of(RecordError, parse_record, head + "1. e4-e5 ;\n d6-e5 d5:N")
    assert "line 5" in bad and "segment 2 (d5:n)" in bad
    assert "6-7" in message_of(RecordError, parse_record, '[Field "5"]\n\n1. e4-e5')
