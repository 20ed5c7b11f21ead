"""XoBo's rules engine bench kernel, for both runtimes (host only, never on the device):
prints ``BENCH name microseconds heap_bytes`` lines. Its host module names it
(``RULES_BENCH``); ``make bench`` (xobo_host.bench.run) runs it under both interpreters::

    micropython -X heapsize=8M -m xobo.games.xobo.rules.bench
"""

import sys

from xobo.benchtiming import baseline, report
from xobo.games.xobo.rules.moves import new_move_buffer
from xobo.games.xobo.rules.position import Position
from xobo.rulescli import perft

MIDGAME = ("...1...../..1.3..1./.1...1.../1...1..../...1.3.1./..1....1./.1..1..../"
           "....1...1/..1...... ns 10 2 2")


def main():
    report("baseline", baseline(), 20)
    start = Position()
    bufs = [new_move_buffer() for _ in range(3)]
    report("perft3_start", lambda: perft(start, 3, buffers=bufs), 3)
    mid = Position.parse(MIDGAME)
    report("perft2_midgame", lambda: perft(mid, 2, buffers=bufs), 3)
    buf = new_move_buffer()
    cells = bytearray(81)

    def analyse():
        mid._cache = 0  # recompute from scratch, as after a move
        mid.legal_moves(buf)
        mid.voina_cells(0, cells)
        mid.voina_cells(1, cells)
        mid.winner()

    report("midgame_legal_voina_result", analyse, 200)

    def legal_only():
        mid._cache = 0
        mid.legal_moves(buf)

    report("midgame_legal_moves_into_buffer", legal_only, 200)


if __name__ == "__main__":
    main()
    sys.stdout.flush() if hasattr(sys.stdout, "flush") else None
