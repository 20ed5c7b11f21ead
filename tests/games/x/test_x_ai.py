# dual-runtime
"""X's computer player (firmware/xobo/games/x/ai.py): every level plays legal moves and leaves
the position as it was, the search is deterministic, answers a poll and stays within the
Pico's budget (a few milliseconds a move on the MicroPython unix port: the Pico is 200-400x
slower, and the board bounds a search to 1.8 s)."""

from xobo_testing import raises

from xobo.compat import ticks_diff, ticks_us
from xobo.games.x import ai
from xobo.games.x.rules import Position


def _game(levels, seed, size=8):
    pos = Position(size, 0)
    while not pos.is_terminal():
        before = pos.to_string()
        m = ai.choose_move(pos, levels[pos.side], seed=seed)
        assert pos.to_string() == before
        assert pos.is_legal(m)
        pos.apply(m)
    return pos


def test_every_level_plays_a_whole_game_of_legal_moves():
    for size in (4, 5, 8):
        pos = _game(("search", "greedy", "random"), 1, size)
        assert pos.winner() >= 0


def test_search_is_deterministic_for_a_seed():
    a = _game(("search", "search", "search"), 7, 6)
    b = _game(("search", "search", "search"), 7, 6)
    assert a.history() == b.history()


def test_search_stops_when_polled():
    pos = Position(8, 0)
    pos.apply(27)
    raises(ai.SearchCancelled, ai.choose_move, pos, "search", 0, 1800, lambda: True)
    assert pos.ply == 1


def test_win_chance_follows_XE2_two_two_zero_is_won_by_the_player_with_none():
    pos = Position.parse("gyrr/ryrg/gryy/rgyg")  # SW, NW green; SE, NE yellow
    assert ai._win_chance(pos, 0) == 81
    assert ai._win_chance(pos, 1) == 0
    assert ai._win_chance(Position(4, 0), 0) == ai._win_chance(Position(4, 0), 1)


def test_search_median_move_time_is_within_the_pico_budget():
    pos = Position(8, 0)
    times = []
    while not pos.is_terminal():
        t0 = ticks_us()
        m = ai.choose_move(pos, "search", seed=3)
        times.append(ticks_diff(ticks_us(), t0))
        pos.apply(m)
    times.sort()
    median = times[len(times) // 2]
    # measured: 4.2-4.5 ms on the MicroPython unix port, 2-3 ms under CPython; the bound
    # leaves room for a loaded machine
    assert median < 20000, median
