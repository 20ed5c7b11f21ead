# dual-runtime
"""Time slicing: ``choose_move``/``hint`` call the caller's ``poll()`` at every node and
inside the longer steps, never change their choice because of it, and stop with
``SearchCancelled`` when it returns True (the board runs its scan loop from ``poll``)."""

from xobo_testing import raises

from games.xobo.golden import GOLDEN
from xobo.games.xobo.ai import STATS, SearchCancelled, ai_memory, choose_move, hint
from xobo.games.xobo.rules.notation import format_move
from xobo.games.xobo.rules.position import Position


class Poll:
    def __init__(self, cancel_at=-1):
        self.calls = 0
        self.cancel_at = cancel_at

    def __call__(self):
        self.calls += 1
        return self.calls == self.cancel_at


def test_polling_never_changes_the_move_nodes_or_score():
    for i in range(0, len(GOLDEN), 3):
        variant, text, seed, move, nodes, score = GOLDEN[i]
        poll = Poll()
        m = choose_move(Position.parse(text, variant), level="pico", seed=seed, poll=poll)
        assert (format_move(m), STATS[0], STATS[2]) == (move, nodes, score), text
        assert poll.calls >= nodes, "%d polls for %d nodes" % (poll.calls, nodes)


def test_every_level_polls_and_chooses_as_without_poll():
    variant, text, seed = GOLDEN[10][:3]
    pos = Position.parse(text, variant)
    for level in ("greedy", "beginner", "pico", "strong"):
        poll = Poll()
        assert choose_move(pos, level, seed, poll=poll) == choose_move(pos, level, seed), level
        assert poll.calls > 0, level


def test_poll_true_cancels_the_search_and_leaves_the_position():
    for i in range(4, 40, 6):
        variant, text, seed, move, nodes, score = GOLDEN[i]
        pos = Position.parse(text, variant)
        if nodes < 10:
            continue
        for cancel_at in (1, 5, 40):
            raises(SearchCancelled, choose_move, pos, "pico", seed, None, Poll(cancel_at))
            assert pos.to_string() == text
        # the shared search buffers are whole again: the next search is the recorded one
        assert format_move(choose_move(pos, "pico", seed)) == move


def test_hint_takes_a_poll_too():
    variant, text, seed = GOLDEN[20][:3]
    pos = Position.parse(text, variant)
    raises(SearchCancelled, hint, pos, seed, "pico", Poll(3))
    poll = Poll()
    assert hint(pos, seed, poll=poll) == choose_move(pos, "pico", seed)
    assert poll.calls > 0


def test_ai_memory_reports_the_buffers_kept_between_moves():
    choose_move(Position(), "pico", 0)
    kept = ai_memory()
    assert 10000 < kept < 40000, kept  # search scratch, move buffers and kernel tables
    choose_move(Position(), "strong", 0)
    assert ai_memory() == kept  # reused, not grown, by later searches
