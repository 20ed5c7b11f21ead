# dual-runtime
"""The E4 reserve race: once nobody can link their edges any more, the side that places the
last cube wins (the other has no move left, E4), so who wins is decided by the cubes left to
place (M1) and only a capture (M3, M4) can change it. ``strong`` must keep a won race won."""

from xobo.games.xobo.ai import choose_move
from xobo.games.xobo.ai.evaluate import distance, race_score, spreads, supply
from xobo.games.xobo.rules.moves import new_move_buffer
from xobo.games.xobo.rules.notation import format_move, parse_move
from xobo.games.xobo.rules.position import Position

# Seven stacks wall rank 5 from a5 to g5; no single anywhere, so no spread is legal (M3 needs
# a capture). NS needs 9 cubes (a cube per rank, through h5 or i5) and places 8 of the 15
# (it moves first); EW needs 9 and places 7: nobody can link, and NS places the last cube.
# A cube that NS puts within three cells of a stack (e2, f3, ...) lets EW spread that stack
# over it and capture the pair (+2 for EW, and the spread places none): EW then places last.
RACE = Position.parse(
    "........./........./........./........./3333333../........./........./........./"
    "......... ns 15 0 0")
_BUF = new_move_buffer()


def _race_after(pos):
    """(NS's supply, EW's supply, NS's distance, EW's distance), NS to move."""
    return supply(pos, 0), supply(pos, 1), distance(pos.heights, 0), distance(pos.heights, 1)


def test_E4_race_score_is_the_parity_of_the_cubes_left_when_nobody_can_link():
    assert race_score(RACE, 9, 9, 1000) == 1000  # 15 left: the mover places 8, the other 7
    even = Position.parse(RACE.to_string().replace(" 15 0 0", " 14 1 0"))
    assert race_score(even, 9, 9, 1000) == 1000  # 14 + own 1: 8 against 7
    even = Position.parse(RACE.to_string().replace(" 15 0 0", " 14 0 1"))
    assert race_score(even, 9, 9, 1000) == -1000  # 7 against 8: the mover runs out first
    ew = Position.parse(RACE.to_string().replace(" ns 15", " ew 15"))
    assert race_score(ew, 9, 9, 1000) == 1000
    # a side that can still link its edges with its own cubes: not a race yet
    assert race_score(RACE, 8, 9, 1000) == 0
    assert race_score(RACE, 9, 7, 1000) == 0


def test_E4_race_score_is_only_a_quarter_while_a_capture_is_possible():
    pos = RACE.clone()
    pos.apply(parse_move("e2", pos))  # e5 can now spread south over e2 (M3)
    assert spreads(pos, _BUF) > 0
    assert race_score(pos, 9, 9, 1000) == -250  # EW to move: 7 against 7, EW runs out first


def test_E4_strong_keeps_a_won_reserve_race_out_of_reach_of_a_capture():
    assert _race_after(RACE) == (8, 7, 9, 9)
    for seed in range(3):
        pos = RACE.clone()
        m = choose_move(pos, "strong", seed)
        pos.apply(m)
        # exhaustive over EW's replies: none is a spread, so none captures; the race stays
        # 7 cubes (EW, to move) against 7 (NS, placing last) with nobody able to link
        assert spreads(pos, _BUF) == 0, "seed %d: %s lets EW capture" % (seed, format_move(m))
        assert supply(pos, 1) == 7 and supply(pos, 0) == 7, format_move(m)


def test_E4_the_cube_in_reach_loses_the_race_to_the_capture():
    # what strong played before the race term (f3 with seed 0, e2 with seeds 1 and 2)
    for cell in ("f3", "e2"):
        pos = RACE.clone()
        pos.apply(parse_move(cell, pos))
        n = spreads(pos, _BUF)
        caps = [_BUF[i] for i in range(n)]
        assert caps, cell
        pos.apply(caps[0])  # EW spreads over the cube and captures the pair (M4)
        s_ns, s_ew, d_ns, d_ew = _race_after(pos)
        assert s_ew >= s_ns, cell  # NS, to move, runs out first (E4) unless it captures back
        assert pos.own[1] == 2
