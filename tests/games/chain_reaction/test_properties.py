# dual-runtime
"""Invariants over random games (a fixed generator: the same games under both runtimes):
11 pieces a side (CB4), at most one tower (CB4), no own tower at a turn's end (CE1),
apply/undo, footprints, move and position notation, records (CN1, CN2)."""

from xobo_testing import run_with_heap_locked

from games.chain_reaction.util import Lcg
from xobo.games.chain_reaction.record import format_record, parse_record, record_from_position
from xobo.games.chain_reaction.rules import Position, new_move_buffer


def check_invariants(pos):
    counts = [0, 0]
    towers = 0
    for c in range(pos.n_cells):
        if pos.top[c]:
            counts[pos.top[c] - 1] += 1
        if pos.bot[c]:
            counts[pos.bot[c] - 1] += 1
            towers += 1
            assert pos.top[c] and pos.tower == c
        assert pos.heights[c] == (1 if pos.top[c] else 0) + (1 if pos.bot[c] else 0)
    assert counts == [11, 11], counts  # CB4
    assert towers <= 1  # CB4
    if towers == 0:
        assert pos.tower == -1 and pos.seg == 0


def play_game(seed, limit=400, check=True):
    lcg = Lcg(seed)
    pos = Position(6 + lcg.below(2), 12 + lcg.below(13), lcg.below(2), lcg.below(2) == 1)
    buf = new_move_buffer()
    lifted = bytearray(4)
    added = bytearray(4)
    occ = bytearray(pos.n_cells)
    for _ in range(limit):
        n = pos.legal_moves(buf)
        if n == 0:
            assert pos.is_terminal()
            break
        m = buf[lcg.below(n)]
        if check:
            before = pos.to_string()
            side = pos.side
            assert Position.parse(before, None, pos.blockade).to_string() == before  # CN2
            assert pos.parse_move(pos.move_text(m)) == m  # CN1
            pos.occupancy(occ)
            nl, na = pos.footprint(m, lifted, added)
            old = bytes(occ)
        pos.apply(m)
        if check:
            pos.occupancy(occ)
            changed = [c for c in range(pos.n_cells) if occ[c] != old[c]]
            want = sorted([lifted[i] for i in range(nl)] + [added[i] for i in range(na)])
            assert changed == want, (before, pos.move_text(m))
            check_invariants(pos)
            if pos.side != side:  # CE1: the turn that ended leaves no tower of the mover's
                assert pos.tower < 0 or pos.top[pos.tower] != side + 1
            pos.undo()
            assert pos.to_string() == before
            pos.apply(m)
    return pos


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
