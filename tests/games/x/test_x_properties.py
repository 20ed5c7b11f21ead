"""X property tests (hypothesis, CPython): random boards of every size (the dual-runtime
test_x_rules.py checks the same properties under MicroPython with its own random games)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xobo.games.x.record import format_record, parse_record, record_from_position
from xobo.games.x.rules import Position

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

games = st.tuples(st.integers(4, 9), st.integers(0, 2), st.randoms(use_true_random=False),
                  st.floats(0, 1))


def play(size, first, rng, fraction):
    pos = Position(size, first)
    plies = int(round(fraction * size * size))
    while pos.ply < plies:
        pos.apply(rng.choice(pos.legal_actions()))
    return pos


@SETTINGS
@given(games)
def test_XS2_south_west_and_east_north_measures_give_the_same_owner(game):
    pos = play(*game)
    for k in range(4):
        assert pos.corner_owner(k) == pos.corner_owner_by_edge_b(k)


@SETTINGS
@given(st.integers(4, 9), st.integers(0, 2), st.randoms(use_true_random=False))
def test_XS3_XE2_full_board_four_owned_corners_exactly_one_winner(size, first, rng):
    pos = play(size, first, rng, 1.0)
    assert pos.is_terminal() and not pos.legal_actions()
    assert all(pos.corner_owner(k) >= 0 for k in range(4))
    scores = tuple(pos.scores(bytearray(3)))
    assert sorted(scores) in ([0, 0, 4], [0, 1, 3], [1, 1, 2], [0, 2, 2])
    assert pos.returns().count(1) == 1 and pos.winner() == pos.returns().index(1)


@SETTINGS
@given(games)
def test_XM1_apply_undo_clone_position_and_record_round_trips(game):
    pos = play(*game)
    text = pos.to_string()
    assert Position.parse(text, pos.first) == pos
    assert pos.clone() == pos and pos.clone().history() == pos.history()
    rec = parse_record(format_record(record_from_position(pos)))
    assert rec.final_position() == pos
    for m in pos.legal_actions():
        mover = pos.side
        pos.apply(m)
        assert pos.owner[m] == mover + 1 and pos.side == (mover + 1) % 3
        pos.undo()
        assert pos.to_string() == text
    for m in range(pos.n_cells):
        assert Position(pos.size).parse_move(pos.move_text(m)) == m
