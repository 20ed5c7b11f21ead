"""Property tests with hypothesis (CPython): random games keep CB4 and CE1, apply/undo and
the CN1/CN2 notations round-trip."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.chain_reaction.util import check_invariants
from xobo.games.chain_reaction.rules import Position

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

games = st.tuples(st.lists(st.integers(0, 10**6), min_size=1, max_size=80),
                  st.sampled_from([6, 7]), st.integers(12, 24), st.sampled_from([0, 1]),
                  st.booleans())


@SETTINGS
@given(games)
def test_CB4_CE1_random_games_keep_the_invariants(game):
    choices, field, target, first, blockade = game
    pos = Position(field, target, first, blockade)
    for k in range(300):
        moves = pos.legal_actions()
        if not moves:
            assert pos.is_terminal()
            break
        m = moves[choices[k % len(choices)] % len(moves)]
        before = pos.to_string()
        side = pos.side
        assert pos.parse_move(pos.move_text(m)) == m
        pos.apply(m)
        check_invariants(pos)
        if pos.side != side:
            assert pos.tower < 0 or pos.top[pos.tower] != side + 1
        assert Position.parse(pos.to_string(), field, blockade).to_string() == pos.to_string()
        pos.undo()
        assert pos.to_string() == before
        pos.apply(m)
    clone = pos.clone()
    assert clone == pos and clone.history() == pos.history()
