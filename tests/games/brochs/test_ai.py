# dual-runtime
"""The Brochs computer player: legal moves for either side, determinism, the position left
unchanged, cancellation, and the search level beating random."""

from xobo_testing import raises

import xobo.games.brochs.ai as ai
from games.brochs.util import board
from xobo.games.brochs.rules import ACCEPT, ASK, REFUSE, RESIGN, WHITE_P, Position


def _game(levels, seed, limit=300):
    pos = Position()
    for _ in range(limit):
        if pos.is_terminal():
            break
        before = pos.to_string()
        m = ai.choose_move(pos, levels[pos.side], seed=seed, time_ms=None)
        assert pos.to_string() == before
        assert pos.is_legal(m) and m != RESIGN and m != ACCEPT
        pos.play(m)
    return pos


def test_every_level_plays_legal_moves_for_both_sides():
    for level in ai.LEVELS:
        _game((level, level), 1, limit=40)


def test_choices_are_deterministic_for_a_seed():
    pos = board(w="e5 f6 l4", b="e7", m="o15")
    for level in ai.LEVELS:
        assert ai.choose_move(pos, level, seed=4, time_ms=None) == \
            ai.choose_move(pos, level, seed=4, time_ms=None)


def test_greedy_takes_a_capture_and_search_avoids_losing_the_master():
    pos = board(w="e5 d4 l4 d12 l12", b="e6")  # no empty donjon to take instead
    assert pos.move_text(ai.choose_move(pos, "greedy")).endswith("xe5")
    pos = board(w="a4 f6 b9", m="f5", b="c14", side="w")
    assert pos.move_text(ai.choose_move(pos, "search")) == "a4-f4xf5"


def test_the_computer_refuses_a_submission():
    pos = Position()
    pos.play(pos.parse_move("(s?)"))
    assert ai.choose_move(pos, "random") == REFUSE


def test_cancel_and_unknown_level():
    raises(ai.SearchCancelled, ai.choose_move, Position(), "search", 0, 1800, lambda: True)
    raises(ValueError, ai.choose_move, Position(), "grandmaster")
    ai.release()


def test_BE3_search_beats_random_with_either_side():
    wins = 0
    for seed in range(2):
        wins += _game(("search", "random"), seed).winner() == 0
        wins += _game(("random", "search"), seed).winner() == WHITE_P
    assert wins == 4


def test_BR6_a_hopeless_computer_accepts_a_submission_at_every_level():
    # Black's master alone in reserve, White on all four donjons: Black can never capture
    # again (BC1-BC3 need a second Black piece, BM3 a donjon), so the question ends the game
    pos = board(w="d4 l4 d12 l12 a1 o15", men=0, master=1, side="w")
    assert ai.hopeless(pos, 0) and not ai.hopeless(pos, WHITE_P)
    pos.play(pos.parse_move("(s?)"))
    for level in ai.LEVELS:
        assert ai.choose_move(pos, level, seed=1) == ACCEPT
    pos.play(ACCEPT)
    assert pos.is_terminal() and pos.winner() == WHITE_P


def test_BR6_the_computer_refuses_while_it_can_still_capture():
    pos = board(w="d4 l4 d12 a1", men=0, master=1, side="w")  # l12 empty: a master drop
    pos.play(pos.parse_move("(s?)"))
    assert ai.choose_move(pos, "search") == REFUSE
    pos = board(w="d4 l4 d12 l12 a1", b="c3", men=0, master=1, side="w")  # two pieces
    pos.play(pos.parse_move("(s?)"))
    assert ai.choose_move(pos, "search") == REFUSE


def test_BR6_search_asks_for_submission_when_the_opponent_is_hopeless():
    pos = board(w="d4 l4 d12 l12 a1 o15", men=0, master=1, side="w")
    assert ai.choose_move(pos, "search", seed=2) == ASK
    assert ai.choose_move(pos, "greedy", seed=2) != ASK  # greedy never asks


def test_BR6_search_keeps_its_winning_countdown_rather_than_capture_a_man():
    # White asked and Black refused: the countdown runs (the master on the board, Black with
    # 3 pieces); a capture would cancel it, and White wins it on donjons (BE3)
    pos = board(w="d4 l4 d12 l12 e7 a5", b="e6 k10", m="n14", men=0, side="w")
    assert ai.choose_move(pos, "greedy", seed=0) == pos.parse_move("a5-e5xe6")
    pos.play(pos.parse_move("(s?)"))
    pos.play(REFUSE)
    assert pos.submission() == "w4"
    m = ai.choose_move(pos, "search", seed=0)
    pos.play(m)
    assert pos.submission() == "w4", pos.move_text(m)  # the countdown still runs
