# dual-runtime
"""The engine's hot paths allocate nothing under MicroPython (heap locked on the unix port).

Under CPython the same calls run without the lock, so the test still checks the results.
"""

from xobo_testing import run_with_heap_locked

from xobo.games.xobo.rules.moves import new_move_buffer
from xobo.games.xobo.rules.position import Position

MIDGAME = ("...1...../..1.3..1./.1...1.../1...1..../...1.3.1./..1....1./.1..1..../"
           "....1...1/..1...... ns 10 2 2")
UNDER_VOINA = ("....1..../....1..../....1..../....1..../........./....1..../....1..../"
               "....1..../....1.... ew 28 0 0")
KV_SPREAD_THREAT = ("....1..../....1..../.3..1..../..1.1..../........./........./....1..../"
                    "....1..../....1.... ew 25 0 0")


def _exercise(pos, buf, cells, rounds):
    total = 0
    for _ in range(rounds):
        n = pos.legal_moves(buf)
        total += n
        total += pos.voina_cells(0, cells) + pos.voina_cells(1, cells)
        total += pos.winner()
        for i in range(n):
            pos.apply(buf[i])
            total += pos.winner()
            pos.undo()
    return total


def _check(text, variant, rounds=3):
    pos = Position.parse(text, variant)
    buf = new_move_buffer()
    cells = bytearray(81)
    expected = _exercise(pos, buf, cells, 1)  # warm up: lazily made scratch buffers
    got = run_with_heap_locked(_exercise, pos, buf, cells, rounds)
    assert got == expected * rounds
    assert pos.to_string() == text


def test_no_allocation_legal_moves_voina_result_midgame():
    _check(MIDGAME, "xobo")


def test_no_allocation_under_voina_with_regroups():
    _check(UNDER_VOINA, "xobo")


def test_no_allocation_kv_voina_spreads():
    _check(KV_SPREAD_THREAT, "kv")
    assert Position.parse(KV_SPREAD_THREAT, "kv").under_voina()
