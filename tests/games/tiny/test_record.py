# dual-runtime
"""The test game's records (TN3, docs/rules/tiny.md): round trips, and an error that names the
line and the move for every way a record can be wrong."""

from xobo_testing import message_of

from xobo.errors import RecordError
from xobo.games import load, part
from xobo.games.tiny.position import Position, new_move_buffer
from xobo.games.tiny.record import (
    GameRecord,
    format_record,
    parse_record,
    record_from_position,
    result_text,
)

WON = ('[Game "Three in a row"]\n[First "x"]\n[Result "x"]\n\n'
       "1. b2 a1 2. c3 a3 3. a2 c1 4. c2\n")


def _games():
    """72 games played to the end: each first cell, each stride through the legal moves."""
    buf = new_move_buffer()
    for first in (0, 1):
        for start in range(9):
            for stride in range(1, 5):
                pos = Position(first)
                k = start
                while True:
                    n = pos.legal_moves(buf)
                    if n == 0:
                        break
                    pos.apply(buf[k % n])
                    k += stride
                yield pos


def _error(text):
    return message_of(RecordError, parse_record, text)


def test_TN3_a_record_lists_the_tags_then_the_moves_in_pairs():
    rec = parse_record(WON)
    assert rec.first == 0 and rec.start is None and rec.tags == []
    assert rec.moves == [4, 0, 8, 6, 3, 2, 5]
    assert rec.final_position().to_string() == "o.x/xxx/o.o o"
    assert format_record(rec) == WON


def test_TN3_every_prefix_of_every_game_round_trips_through_its_record():
    results = set()
    for final in _games():
        moves = final.history()
        pos = final.clone()
        while pos.ply:
            pos.undo()
        for m in moves:
            pos.apply(m)
            text = format_record(record_from_position(pos))
            rec = parse_record(text)
            assert rec.moves == pos.history()
            assert rec.final_position().to_string() == pos.to_string()
            assert format_record(rec) == text
        results.add(result_text(final))
    assert results == {"x", "o", "draw"}


def test_TN3_the_package_writes_the_record_with_the_record_module():
    tiny = load("tiny")
    assert part(tiny, "records").__name__ == "xobo.games.tiny.record"
    pos = tiny.new_position({"first": "o"})
    for text in ("a1", "b2"):
        pos.play(pos.parse_move(text))
    assert tiny.record_text(pos) == format_record(record_from_position(pos))
    assert tiny.record_text(pos) == ('[Game "Three in a row"]\n[First "o"]\n[Result "*"]\n\n'
                                     "1. a1 b2\n")


def test_TN3_a_set_up_start_is_the_position_tag_and_its_side_moves_first():
    pos = Position.parse("x../.o./... x")
    pos.play(pos.parse_move("c1"))
    text = format_record(record_from_position(pos))
    assert '[First "x"]\n[Position "x../.o./... x"]\n' in text
    rec = parse_record(text)
    assert rec.start_position().to_string() == "x../.o./... x"
    assert rec.final_position().to_string() == pos.to_string()
    assert format_record(rec) == text
    # o to move in the set-up: o is the first player, with or without a First tag
    rec = parse_record('[Position "x../.../... o"]\n\n1. b2 c3\n')
    assert rec.first == 1 and '[First "o"]' in format_record(rec)
    # the empty board is no set-up: the tag is not written again
    rec = parse_record('[Position ".../.../... o"]\n[Result "*"]\n')
    assert rec.start is None and "Position" not in format_record(rec)


def test_TN3_other_tags_are_kept_in_order_and_derived_ones_written_afresh():
    text = WON.replace('[Result "x"]', '[Date "2026.11.26"]\n[Board "table 4"]\n[Result "x"]')
    rec = parse_record(text)
    assert rec.tags == [("Date", "2026.11.26"), ("Board", "table 4")]
    assert rec.tag("Board") == "table 4" and rec.tag("Round", "-") == "-"
    assert format_record(rec) == text
    rec = GameRecord(1)
    rec.tags = [("Result", "x"), ("White", "Ann")]  # a stale Result is not written twice
    assert format_record(rec) == ('[Game "Three in a row"]\n[First "o"]\n[White "Ann"]\n'
                                  '[Result "*"]\n\n\n')


def test_TN3_tags_are_optional_and_a_closing_result_word_is_read_and_checked():
    rec = parse_record("1. b2 a1 2. c3 a3 3. a2 c1 4. c2 x")
    assert rec.first == 0 and len(rec.moves) == 7
    assert parse_record("1. a1\r\n*\r\n").moves == [0]
    assert parse_record("").moves == []
    draw = "1. b2 a1 2. c3 a3 3. a2 c2 4. c1 b3 5. b1 draw"
    assert result_text(parse_record(draw).final_position()) == "draw"
    assert "line 6: the closing 'o' but the moves give \"x\"" in _error(WON + "o\n")
    assert "the closing 'draw' but the moves give \"*\"" in _error("1. b2 draw")


def test_TN3_the_result_tag_is_checked_against_the_moves():
    assert 'line 3: [result "o"] but the moves give "x"' in _error(
        WON.replace('Result "x"', 'Result "o"'))
    assert '[result "*"] but the moves give "x"' in _error(
        WON.replace('Result "x"', 'Result "*"'))
    assert '[result "x"] but the moves give "*"' in _error(WON.replace(" 4. c2", ""))
    assert 'line 3: result must be "x", "o", "draw" or "*", not "1-0"' in _error(
        WON.replace('Result "x"', 'Result "1-0"'))


def test_TN3_bad_tags_say_which_line_and_what_is_wrong():
    # a malformed tag line, or one after the moves: the shared reader's (test_recordtags.py)
    assert "line 1: a tag line ends with ']'" in _error('[Game "Three in a row"\n')
    assert 'line 1: this is a record of "x", not of three in a row' in _error('[Game "X"]\n')
    assert 'line 2: first must be "x" or "o", not "red" (tm2)' in _error(
        '[Game "Three in a row"]\n[First "Red"]\n')
    assert "line 2: a second first tag" in _error('[First "x"]\n[First "o"]\n')


def test_TN3_a_bad_set_up_position_names_its_line_and_the_rule():
    assert "line 1: position: x has 2 pieces and o 0" in _error('[Position "xx./.../... o"]')
    assert "line 1: position: the board has 3 ranks" in _error('[Position "x../... o"]')
    assert 'line 2: [first "x"] but the position tag has o to move' in _error(
        '[Position "x../.../... o"]\n[First "x"]\n')
    assert 'line 1: [first "x"] but the position tag has o to move' in _error(
        '[First "x"]\n[Position "x../.../... o"]\n')


def test_TN3_a_wrong_move_names_its_line_its_number_and_why():
    assert "line 5: move 3 (b2): b2 is taken (by x)" in _error(
        '[First "x"]\n[Result "*"]\n\n1. b2 a1\n2. b2\n')
    assert "line 1: move 2 (d4): 'd4' is not a cell" in _error("1. b2 d4")
    assert "line 1: move 8 (b1): the game is over: x has three in a row" in _error(
        "1. b2 a1 2. c3 a3 3. a2 c1 4. c2 b1")
    assert "line 1: move 1 (b2) needs its number '1.' before it" in _error("b2 a1")
    assert "line 1: move 3 (c3) needs its number '2.' before it" in _error("1. b2 a1 c3")
    assert "line 1: number '3.' where '2.' was expected" in _error("1. b2 a1 3. c3")
    assert "line 1: number '2.' where move 2 was expected" in _error("1. b2 2. a1")
    assert "line 2: move 1 (b2): the game is over" in _error(
        '[Position "xxx/oo./... o"]\n1. b2\n')
