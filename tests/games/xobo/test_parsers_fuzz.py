"""Arbitrary unicode into every parser: only the project's errors come out, never a traceback
(the reviewer's '²', '３６' and '٠' reached int() after isdigit())."""

import contextlib
import io
import sys
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from xobo.errors import RecordError, XoboError
from xobo.games.tiny.record import parse_record as parse_tiny_record
from xobo.games.xobo.rules import cli
from xobo.games.xobo.rules.geometry import parse_cell
from xobo.games.xobo.rules.notation import parse_move
from xobo.games.xobo.rules.position import Position
from xobo.games.xobo.rules.record import parse_record
from xobo.numbers import parse_uint
from xobo.runtime.script import ScriptError, ScriptRunner
from xobo.runtime.virtual_board import VirtualBoard

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
# digits of every script, and the characters the engine's syntax is made of
ALPHABET = st.characters(blacklist_categories=("Cs",))
TRICKY = st.sampled_from(list("0123456789²³¹３６٠٥۵߀०१௫፩᠑①⑴.ab/ -> x (v) ; [ ] \" nsew"))
TEXT = st.lists(st.one_of(ALPHABET, TRICKY), max_size=60).map("".join)
AFTER_E5 = ("........./........./........./........./....1..../........./........./"
            "........./......... ew 35 0 0")


def _only_xobo_errors(fn, *args):
    try:
        fn(*args)
    except XoboError:
        pass


@SETTINGS
@given(TEXT)
@example("........./........./........./........./....1..../........./........./"
         "........./......... ew 3² 0 0")
@example("1². e5")
@example("e٥")
def test_rules_parsers_raise_only_xobo_errors_on_any_unicode(text):
    pos = Position.parse(AFTER_E5)
    _only_xobo_errors(Position.parse, text)
    _only_xobo_errors(Position.parse, AFTER_E5.replace("35", text[:3] or "x"))
    _only_xobo_errors(parse_record, text)
    _only_xobo_errors(parse_record, "1. " + text)
    _only_xobo_errors(parse_move, text, pos)
    _only_xobo_errors(parse_cell, text)
    assert parse_uint(text) == (int(text) if text and len(text) <= 9
                                and all("0" <= ch <= "9" for ch in text) else -1)


@SETTINGS
@given(TEXT)
@example('[Position "x²./.../... o"]')
@example("1. b2 a1 ²۵. c3")
def test_the_test_games_record_parser_raises_only_record_errors_on_any_unicode(text):
    for record in (text, "1. " + text, '[Position "%s"]\n' % text, "1. b2 a1 2. c3 " + text):
        try:
            parse_tiny_record(record)
        except RecordError:
            pass  # what is wrong, with its line and move: nothing else may come out


@SETTINGS
@given(st.lists(TEXT, min_size=1, max_size=3))
@example(["perft", "²"])
@example(["show", AFTER_E5.replace("35", "３５")])
def test_rules_cli_answers_any_unicode_with_an_error_line(words):
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(b"\xb2\n" + AFTER_E5.encode() + b"\n"))
    with mock.patch.object(sys, "stdin", stdin), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        for command in ("legal", "play", "perft", "show"):
            if command == "perft" and 2 < parse_uint(words[0]) <= cli.MAX_PERFT_DEPTH:
                continue  # a legal deep perft is only slow
            assert cli.main([command] + words) in (0, 1, 2)
    err = err.getvalue()  # any other exception would have left cli.main above
    assert err == "" or err.startswith("error: ")


@pytest.fixture(scope="module")
def board():
    return VirtualBoard()


@SETTINGS
@given(TEXT)
@example("set settle ３５")
@example("set settle 1_000")
@example("load " + AFTER_E5.replace("35", "3²"))
def test_protocol_answers_any_unicode_with_one_ok_or_error_line(board, text):
    for line in (text, "set settle " + text, "load " + text, "move " + text):
        replies = board.command(line)
        assert all(r.startswith("ok") or r.startswith("error") for r in replies)


@SETTINGS
@given(TEXT)
@example("put e5 ３")
@example("wait ²")
@example("put e5 300")
def test_script_lines_raise_only_script_errors_on_any_unicode(board, text):
    runner = ScriptRunner(board=board, events=False)
    for line in (text, "put e5 " + text, "wait " + text, "take " + text):
        try:
            runner.run_line(line, 1)
        except ScriptError:
            pass
    board.switches.set_counts(bytearray(81))
