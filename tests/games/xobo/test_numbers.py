# dual-runtime
"""ASCII digits only (xobo.numbers): '²', '３６' and '٠' are no numbers anywhere."""

from xobo_testing import message_of, raises

from xobo.errors import PositionError, RecordError
from xobo.games.xobo.rules.position import Position
from xobo.games.xobo.rules.record import parse_record
from xobo.numbers import parse_uint

AFTER_E5 = ("........./........./........./........./....1..../........./........./"
            "........./......... ew %s 0 0")


def test_parse_uint_reads_ascii_digits():
    assert parse_uint("0") == 0 and parse_uint("36") == 36 and parse_uint("007") == 7
    assert parse_uint("999999999") == 999999999


def test_parse_uint_refuses_everything_else():
    for text in ("", "３６", "٠", "²", "3²", "1_000", "+8", "-1", " 8", "8 ", "0x10", "1e3"):
        assert parse_uint(text) == -1, text
    assert parse_uint("1234567890") == -1  # past 9 digits: no long ints on the device
    assert parse_uint("123", 2) == -1


def test_N3_reserve_with_non_ascii_digits_is_a_position_error():
    assert Position.parse(AFTER_E5 % "35").common == 35
    for bad in ("３５", "3²", "٣٥", "²"):
        assert raises(PositionError, Position.parse, AFTER_E5 % bad)
        msg = message_of(PositionError, Position.parse, AFTER_E5 % bad)
        assert "common reserve must be a number 0-36" in msg


def test_N2_move_number_with_non_ascii_digits_is_a_record_error():
    for bad in ("1². e5", "１. e5", "٠. e5", "1. e٥"):
        assert raises(RecordError, parse_record, bad), bad
    assert len(parse_record("1. e5").moves) == 1
