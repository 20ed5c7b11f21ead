# dual-runtime
"""Golden pico-level choices: the move, node count and score of 47 searches. The positions and
the first expectations were recorded with the search as it was before the native kernels
(tests/games/xobo/golden_maker.py, commit 4bd0182); the refutation check of issue 24
(docs/ai.md, "Search": the refutation check) changed nine of them: eight node
counts (the check's nodes) and one move (``d2``, a loss its own search had proved, is now
``c2``). A faster kernel, a poll or a new term elsewhere must not change what ``pico`` (and so
``hint``) plays: its budget is counted in nodes, so the same seed gives the same search."""

from games.xobo.golden import GOLDEN
from xobo.games.xobo.ai import STATS, choose_move
from xobo.games.xobo.rules.notation import format_move
from xobo.games.xobo.rules.position import Position


def _check(rows):
    wrong = []
    for variant, text, seed, move, nodes, score in rows:
        m = choose_move(Position.parse(text, variant), level="pico", seed=seed)
        got = (format_move(m), STATS[0], STATS[2])
        if got != (move, nodes, score):
            wrong.append("%s %s seed %d: %s, expected %s" % (variant, text, seed, got,
                                                            (move, nodes, score)))
    assert not wrong, "\n".join(wrong)


def test_pico_choices_nodes_and_scores_equal_the_recorded_ones_first_half():
    _check(GOLDEN[: len(GOLDEN) // 2])


def test_pico_choices_nodes_and_scores_equal_the_recorded_ones_second_half():
    _check(GOLDEN[len(GOLDEN) // 2:])
