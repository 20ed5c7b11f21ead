"""Write the golden pico-level choices that ``test_ai_golden.py`` checks (run once, with the
code whose choices are the reference: the search before the native kernels, commit 4bd0182).

Positions come from games between mixed levels (random, greedy, beginner, pico), both
variants, sampled every few plies so they cover the opening, stacks, Voina and the low-reserve
endgame. Each line: variant, position, seed, the pico move and the search's node count and
score (STATS), which a kernel change must leave exactly the same.

The positions in the test are still those of commit 4bd0182; since pico's refutation check
(issue 24) the expected move, nodes and score are recomputed at those same positions (running
this maker now would also change the positions: pico plays in its games).

Usage (prints the GOLDEN tuple for tests/games/xobo/golden.py)::

    python tests/games/xobo/golden_maker.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "firmware"))

from xobo.games.xobo.ai import STATS, choose_move  # noqa: E402
from xobo.games.xobo.rules.notation import format_move  # noqa: E402
from xobo.games.xobo.rules.position import Position  # noqa: E402

GAMES = (
    # (variant, NS level, EW level, seed, first ply sampled, then every ``step`` plies)
    ("xobo", "greedy", "random", 11, 0, 3),
    ("xobo", "beginner", "greedy", 12, 4, 5),
    ("xobo", "pico", "beginner", 13, 6, 5),
    ("xobo", "random", "pico", 14, 3, 4),
    ("xobo", "greedy", "pico", 15, 8, 5),
    ("kv", "beginner", "random", 16, 5, 4),
    ("kv", "pico", "greedy", 17, 7, 5),
    ("xobo", "random", "random", 18, 10, 7),
    ("xobo", "pico", "pico", 19, 12, 6),
    ("xobo", "beginner", "pico", 20, 20, 6),
)
MAX_PLY = 90


def golden():
    rows = []
    for variant, ns, ew, seed, first, step in GAMES:
        pos = Position(variant)
        for ply in range(MAX_PLY):
            if pos.winner() >= 0:
                break
            if ply >= first and (ply - first) % step == 0:
                text = pos.to_string()
                s = seed * 10 + ply
                m = choose_move(Position.parse(text, variant), level="pico", seed=s)
                rows.append((variant, text, s, format_move(m), STATS[0], STATS[2]))
            level = ns if pos.side == 0 else ew
            pos.apply(choose_move(pos, level=level, seed=seed + ply))
    return rows


if __name__ == "__main__":
    print("GOLDEN = (")
    for variant, text, seed, move, nodes, score in golden():
        # the position split after its fifth rank keeps the lines within 99 columns
        print('    ("%s", "%s"' % (variant, text[:50]))
        print('     "%s", %d, "%s", %d, %d),' % (text[50:], seed, move, nodes, score))
    print(")")
