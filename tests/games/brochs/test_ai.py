# dual-runtime
"""The Brochs computer player: legal moves for either side, determinism, the position left
unchanged, cancellation, and the search level beating random."""

from xobo_testing import raises

import xobo.games.brochs.ai as ai
from games.brochs.util import board
from xobo.games.brochs.rules import ACCEPT, REFUSE, RESIGN, WHITE_P, Position


def _game(levels, seed, limit=300):
    pos = Position()
    for _ in range(limit):
        if pos.is_terminal():
            break
        before = pos.to_string()
        m = ai.choose_move(pos, levels[pos.side], seed=seed)
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
        assert ai.choose_move(pos, level, seed=4) == ai.choose_move(pos, level, seed=4)


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
