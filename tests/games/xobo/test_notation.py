# dual-runtime
"""N1 move notation, N2 game records and N3 position strings."""

from xobo_testing import message_of

from games.xobo.util import EW, NS, column, make_pos, row
from xobo.errors import MoveError, PositionError, RecordError
from xobo.games.xobo.rules.notation import format_move, parse_move
from xobo.games.xobo.rules.position import Position
from xobo.games.xobo.rules.record import (
    GameRecord,
    format_record,
    parse_record,
    record_from_position,
)

START = ("........./........./........./........./........./........./........./........./"
         "......... ns 36 0 0")


def test_N3_start_position_string():
    assert Position().to_string() == START
    assert Position.parse(START).to_string() == START


def test_N3_round_trip_with_stacks_and_reserves():
    text = "........./....3..../........./1.......1/....1..../........./.8......./" \
           "........./......... ew 16 4 2"
    assert Position.parse(text).to_string() == text


def test_N3_malformed_positions_say_what_is_wrong():
    cases = [
        ("", "5 fields"),
        (START.replace(" ns", " xx"), "side to move"),
        (START.replace("/", "", 1), "9 ranks"),
        (START.replace("........./", "......../", 1), "rank 9 has 8 cells"),
        (START.replace(".", "x", 1), "not a height"),
        (START.replace(".", "0", 1), "'.'"),
        (START.replace(" 36 ", " 3a "), "common reserve"),
        (START.replace(" 36 ", " 35 "), "36"),
    ]
    for text, expected in cases:
        msg = message_of(PositionError, Position.parse, text)
        assert expected.lower() in msg, (text, msg)


def test_N3_unknown_variant_is_rejected():
    assert "variant" in message_of(PositionError, Position, "chess")


def test_N1_notation_round_trips_for_every_legal_move():
    pos = make_pos(row(5, "a-h") + " f7=4 f6 f4 d5 c2=3", side=NS)
    moves = pos.legal_actions()
    assert moves
    for m in moves:
        assert parse_move(format_move(m), pos) == m


def test_N1_spread_and_regroup_notation():
    pos = make_pos(row(5, "a-h") + " g7=3 f6", side=NS)
    assert format_move(parse_move("a5->c5", pos)) == "a5->c5"
    assert format_move(parse_move("g7xf6", pos)) == "g7xf6"
    assert format_move(parse_move("e6 (v)", pos)) == "e6"


def test_N1_malformed_moves_say_what_is_wrong():
    pos = make_pos("e5=3 e4", side=NS)
    assert "not a move" in message_of(MoveError, parse_move, "hello", pos)
    assert "empty move" in message_of(MoveError, parse_move, "", pos)
    assert "not next to" in message_of(MoveError, parse_move, "e5xe3", pos)
    assert "single cube" in message_of(MoveError, parse_move, "e4xe3", pos)
    assert "not on one line" in message_of(MoveError, parse_move, "a1->b3", pos)
    assert "file" in message_of(MoveError, parse_move, "z1->e4", pos)


def test_N2_record_round_trip_with_voina_marks():
    pos = make_pos("", side=NS)
    for t in "e1 a9 e2 b9 e3 c9 e4 a7 e6 c7 e7 a5 e8 c5 e9".split():
        pos.play(parse_move(t, pos))
    rec = record_from_position(pos, [("NS", "Ada"), ("EW", "Bob"), ("Date", "2026.11.21")])
    text = format_record(rec)
    assert '[Variant "xobo"]' in text and '[First "NS"]' in text and '[NS "Ada"]' in text
    assert "8. e9 (v)" in text and "(v)" not in text.replace("8. e9 (v)", "")
    again = parse_record(text)
    assert again.moves == rec.moves and again.tag("EW") == "Bob"
    assert format_record(again) == text


def test_N2_record_of_a_finished_game_has_its_result():
    pos = make_pos(column("e", "1-4 6-9"), side=NS)
    pos.play(parse_move("e5", pos))
    rec = record_from_position(pos)
    assert rec.result == "NS"
    assert '[Result "NS"]' in format_record(rec)
    assert '[Position "' in format_record(rec)


def test_N2_records_from_a_set_up_position():
    start = make_pos(column("e", "1-4 6-9"), side=EW).to_string()
    text = '[Variant "xobo"]\n[Position "%s"]\n[Result "*"]\n\n1. a1 ; e5\n' % start
    rec = parse_record(text)
    assert rec.first == EW and len(rec.moves) == 2 and rec.result == "NS"


def test_N2_malformed_records_say_which_move_is_wrong():
    cases = [
        ("1. e5 ; e5", "move 2"),
        ("1. e5 ; d4 3. e4", "move number 3"),
        ("1. e5 (v)", "marked (v)"),
        ('[Variant "chess"]\n1. e5', "unknown variant"),
        ("[Result NS]\n1. e5", "double quotes"),
        ("1. e5 d4", "separated by ';'"),
        ("e5", "move number"),
        ('[Result "EW"]\n[Position "%s"]\n1. e5' % make_pos(column("e", "1-4 6-9"))
         .to_string(), "result tag says ew"),
    ]
    for text, expected in cases:
        msg = message_of(RecordError, parse_record, text)
        assert expected.lower() in msg, (text, msg)


def test_N1_the_rules_example_moves_mean_what_the_rule_says():
    # "1. e5 (v) ; a4->c4 2. c6 (v) ; i6->g6 3. g4 (v) ; g6xf5": the diagrams are lost, so
    # each move is checked in a position that fits it. EW is under Voina from NS's column e.
    pos = make_pos(column("e", "1-3 6-9") + " e4 " + row(2, "a-c"), side=EW)
    assert pos.under_voina()
    pos.play(parse_move("a2->c2", pos))
    assert pos.heights[2 + 9] == 3 and pos.heights[9] == 0 and pos.heights[10] == 0
    spread = make_pos("g6=3 f5 d3", side=NS)
    spread.play(parse_move("g6xf5", spread))
    # f5 and d3 were singles: captured; e4 was empty: one cube (M3, M4)
    assert [spread.heights[i] for i in (5 * 9 + 6, 4 * 9 + 5, 3 * 9 + 4, 2 * 9 + 3)] == \
        [0, 0, 1, 0]
    assert spread.own[0] == 4


def test_N2_GameRecord_defaults():
    rec = GameRecord()
    assert rec.variant == "xobo" and rec.first == NS and rec.result == "*"
    assert rec.final_position().to_string() == START
