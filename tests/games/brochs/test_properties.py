"""Property tests (hypothesis) of the Brochs rules over random games; the same invariants run
under MicroPython in test_rules.py's random games (its own PRNG)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xobo.errors import MoveError
from xobo.games.brochs.record import format_record, parse_record, record_from_position
from xobo.games.brochs.rules import ACCEPT, N_CELLS, RESIGN, Position

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

games = st.tuples(st.lists(st.integers(0, 10**6), min_size=1, max_size=60),
                  st.sampled_from(["black", "white"]),
                  st.sampled_from(["either", "master-moves"]),
                  st.integers(2, 7), st.integers(0, 1))


def random_game(choices, imprecation, diagonal, donjon, first, limit=150):
    pos = Position(donjon, imprecation, diagonal, first)
    trail = []
    for k in range(limit):
        ms = [m for m in pos.legal_actions() if m != RESIGN and m != ACCEPT]
        if not ms:
            break
        m = ms[choices[k % len(choices)] % len(ms)]
        trail.append((pos.to_string(), m))
        pos.apply(m)
    return pos, trail


@SETTINGS
@given(games)
def test_BM1_BM4_legal_moves_are_exactly_the_moves_is_legal_accepts(g):
    pos, _ = random_game(*g)
    legal = set(pos.legal_actions())
    for m in list(legal)[:50]:
        assert pos.why_illegal(m) is None
    for c in range(0, N_CELLS, 7):
        for m in (0xE100 + c, 0xE200 + c, 0xE300 + c, (c << 8) | ((c + 15) % N_CELLS)):
            assert pos.is_legal(m) == (m in legal)


@SETTINGS
@given(games)
def test_BN2_positions_and_moves_round_trip_and_undo_restores(g):
    pos, trail = random_game(*g)
    for text, m in trail[-20:]:
        p = Position.parse(text, *g[3:4], imprecation=g[1], master_diagonal=g[2])
        assert p.to_string() == text
        assert p.parse_move(p.move_text(m)) == m
    for text, _ in reversed(trail):
        pos.undo()
        assert pos.to_string() == text


@SETTINGS
@given(games)
def test_BN1_records_round_trip(g):
    pos, _ = random_game(*g, limit=60)
    rec = record_from_position(pos)
    assert parse_record(format_record(rec)).moves == rec.moves


@SETTINGS
@given(games)
def test_BE1_BR7_a_finished_game_has_no_moves_and_a_winner_only_then(g):
    pos, _ = random_game(*g)
    if pos.is_terminal():
        assert pos.legal_actions() == []
        try:
            pos.play(0xE500)
            raise AssertionError("a pass was accepted after the end")
        except MoveError:
            pass
    else:
        assert pos.winner() == -1 and pos.returns() == (0, 0)
