# dual-runtime
"""X's computer player (firmware/xobo/games/x/ai.py): every level plays legal moves and leaves
the position as it was, the search is deterministic, answers a poll; its Monte-Carlo kernels
score a full board as the engine does (XS2, XE2), allocate nothing, and the search takes the
deciding cell. Its time is measured by the bench (docs/ai.md), not here."""

from xobo_testing import raises, run_with_heap_locked

from xobo.games.x import ai
from xobo.games.x.rules import Position


def _game(levels, seed, size=8):
    pos = Position(size, 0)
    while not pos.is_terminal():
        before = pos.to_string()
        m = ai.choose_move(pos, levels[pos.side], seed=seed, time_ms=None)  # node budget
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


def _random_fill_of(pos, seed):
    """The position's empty cells handed out at random by the search's own kernel."""
    ai._geometry(pos.size)
    buf = bytearray(81)
    n = 0
    for c in range(pos.n_cells):
        if pos.owner[c] == 0:
            buf[n] = c
            n += 1
    for i in range(n):
        ai._emp[i] = buf[i]
    ai._rs[0] = seed & 255
    ai._rs[1] = 7
    ai._rs[2] = 1
    ai._rs[3] = 0
    w = ai._fill(pos.owner, n, pos.side, pos.size)
    full = Position(pos.size, 0)
    for c in range(pos.n_cells):
        full.owner[c] = ai._board[c]
    return full, w


def test_fill_kernel_scores_full_boards_as_the_engine_XS2_XE2():
    for size in (4, 5, 8, 9):
        for seed in range(40):
            pos = Position(size, seed % 3)
            full, w = _random_fill_of(pos, seed)
            counts = bytearray(3)
            for c in range(full.n_cells):
                counts[full.owner[c] - 1] += 1
            # a share-out in turn order from the side to move: counts differ by at most one
            assert max(counts) - min(counts) <= 1
            full.filled = full.n_cells
            full._cache = 0
            assert w == full.winner() >= 0, (size, seed, full.to_string())


def test_fill_kernel_two_two_zero_is_won_by_the_player_with_none_XE2():
    pos = Position.parse("gyrr/ryrg/gryy/rgyg")  # full: SW, NW green; SE, NE yellow
    ai._geometry(4)
    for c in range(16):
        ai._board[c] = pos.owner[c]
    assert ai._full_winner(4) == 0  # red, with no corner


def _fills(own, n, side, size):
    w = ai._fill(own, n, side, size)
    ai._count(n, side, w)
    return w


def test_fills_allocate_nothing():
    pos = Position(8, 0)
    pos.apply(27)
    ai.choose_move(pos, "search", seed=1)  # tables and buffers made
    n = 0
    for c in range(64):
        if pos.owner[c] == 0:
            ai._emp[n] = c
            n += 1
    w = run_with_heap_locked(_fills, pos.owner, n, pos.side, 8)
    assert -1 <= w <= 2


def _deciding_positions(want):
    """Positions of random games with two empty cells, where only one of them wins for the
    mover (the last player then takes the other)."""
    found = []
    seed = 0
    while len(found) < want:
        seed += 1
        pos = Position(5, 0)
        while pos.n_cells - pos.filled > 2:
            pos.apply(ai.choose_move(pos, "random", seed=seed))
        a, b = [c for c in range(25) if pos.owner[c] == 0]
        me = pos.side
        wins = []
        for first, second in ((a, b), (b, a)):
            pos.apply(first)
            pos.apply(second)
            wins.append(pos.winner() == me)
            pos.undo()
            pos.undo()
        if wins[0] != wins[1]:
            found.append((pos, a if wins[0] else b))
    return found


def test_search_takes_the_deciding_cell():
    for pos, cell in _deciding_positions(6):
        for seed in range(2):
            assert ai.choose_move(pos, "search", seed=seed, time_ms=None) == cell, pos.to_string()
