# dual-runtime
"""Invariants over random games (a fixed generator: the same games under both runtimes):
11 pieces a side (CB4), at most one tower (CB4), no own tower at a turn's end (CE1),
apply/undo, footprints, move and position notation, records (CN1, CN2)."""

from xobo_testing import run_with_heap_locked

from games.chain_reaction.util import play_game
from xobo.games.chain_reaction.record import format_record, parse_record, record_from_position
from xobo.games.chain_reaction.rules import Position, new_move_buffer


def test_CB4_CE1_invariants_and_round_trips_over_random_games():
    for seed in range(12):
        play_game(seed)


def test_CN1_record_round_trip_of_random_games():
    for seed in range(20, 26):
        pos = play_game(seed, 250, False)
        text = format_record(record_from_position(pos))
        rec = parse_record(text)
        assert rec.final_position().to_string() == pos.to_string()
        assert format_record(rec) == text


def test_undo_to_the_start_restores_it_exactly():
    pos = play_game(7, 300, False)
    start = Position(pos.field, pos.target, 0, pos.blockade)
    while pos.ply:
        pos.undo()
    assert pos.to_string() in (start.to_string(), start.to_string().replace(" l ", " d "))


def _generate_all(pos, buf):
    total = 0
    for _ in range(3):
        total += pos.legal_moves(buf)
    return total


def test_legal_moves_allocate_nothing():
    buf = new_move_buffer()
    for seed in (3, 4, 5):
        pos = play_game(seed, 60, False)
        want = _generate_all(pos, buf)
        assert run_with_heap_locked(_generate_all, pos, buf) == want
