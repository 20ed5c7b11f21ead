"""The ``perfect`` level is perfect: in every position the game can reach, its move keeps the
best outcome a plain minimax (no pruning, no symmetry) finds. CPython only (about 5000
positions)."""

from xobo.games.tiny import ai as computer
from xobo.games.tiny.position import Position


def _outcome(pos, memo):
    """+1 / 0 / -1: the best the side to move can force (memoised by position)."""
    key = pos.to_string()
    if key not in memo:
        if pos.winner() >= 0:
            memo[key] = -1  # the last mover made a line
        elif pos.is_terminal():
            memo[key] = 0
        else:
            best = -1
            for m in pos.legal_actions():
                pos.apply(m)
                best = max(best, -_outcome(pos, memo))
                pos.undo()
            memo[key] = best
    return memo[key]


def _reachable(pos, seen):
    key = pos.to_string()
    if key in seen:
        return
    seen[key] = True
    for m in pos.legal_actions():
        pos.apply(m)
        _reachable(pos, seen)
        pos.undo()


def test_perfect_keeps_the_minimax_outcome_in_every_reachable_position():
    memo = {}
    seen = {}
    for first in (0, 1):
        _reachable(Position(first), seen)
    checked = 0
    for text in seen:
        pos = Position.parse(text)
        if pos.is_terminal():
            continue
        m = computer.choose_move(pos, "perfect", seed=checked)
        pos.apply(m)
        got = -_outcome(pos, memo)
        pos.undo()
        assert got == _outcome(pos, memo), "%s: %s loses value" % (text, pos.move_text(m))
        checked += 1
    assert checked > 4000, checked
