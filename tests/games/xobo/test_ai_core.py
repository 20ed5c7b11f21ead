# dual-runtime
"""The computer opponent's behaviour (games/xobo/ai), on CPython and under MicroPython alike."""

from xobo_testing import raises

from xobo.games.xobo.ai import CONFIGS, LEVELS, STATS, choose_move, hint
from xobo.games.xobo.ai.evaluate import SURE, distance
from xobo.games.xobo.ai.rng import Rng
from xobo.games.xobo.ai.search import Searcher
from xobo.games.xobo.rules.moves import make_place
from xobo.games.xobo.rules.position import Position

SEARCH_LEVELS = ("greedy", "beginner", "pico", "strong")


def pos_of(rows, side, common, own_ns=0, own_ew=0):
    return Position.parse("/".join(rows) + " %s %d %d %d" % (side, common, own_ns, own_ew))


# NS: the e file is all singles but e5: d5, e5 and f5 each link North and South (E3)
NS_WINS_NOW = pos_of(
    ["....1....", "....1....", "....1....", "....1....", ".........",
     "....1....", "....1....", "....1....", "....1...."], "ns", 28)
# EW's rank 5 lacks e5: NS is under Voina (V2) and can regroup three of the singles (M2)
NS_UNDER_VOINA = pos_of(
    [".........", ".........", ".........", ".........", "1111.1111",
     ".........", ".........", ".........", "........."], "ns", 28)
# EW's zigzag a5 b4 c5 d4 . f4 g5 h4 i5 has no three aligned singles: no defence (V2)
NS_NO_DEFENCE = pos_of(
    [".........", ".........", ".........", ".........", "1.1...1.1",
     ".1.1.1.1.", ".........", ".........", "........."], "ns", 28)
# EW to move, two cubes short on a zigzag: one more cube threatens with no defence left
EW_WINS_IN_TWO = pos_of(
    [".........", ".........", ".........", ".........", "1.1...1.1",
     ".1.1...1.", ".........", ".........", "........."], "ew", 29)
# EW threatens e4/e5/e6 (a4 b5 c4 d5 . f5 g4 h5 i4, the right half linked to North by
# h6 g7 h8 g9), no three singles are aligned: the only defences are a3, b3 or c3, which link
# the left half to b2 a1 and the South edge, so any Voina cell would link NS too (V3 blocus)
NS_BLOCUS_ONLY = pos_of(
    ["......1..", ".......1.", "......1..", ".......1.", ".1.1.1.1.",
     "1.1...1.1", ".........", ".1.......", "1........"], "ns", 22)
# from a strong-beginner game: EW's c2 (v) leaves NS one defence, the spread a1xb2, after
# which b2 (v) has none: the follow-up attack (threat, forced reply, threat)
EW_FOLLOW_UP = Position.parse(
    "....1..../..11...../..1.3..../..1....../........./...1.1.../1......1./.1..11..1/"
    "3.....11. ew 11 0 4")


def test_rng_gives_the_same_numbers_on_every_runtime():
    r = Rng(0)
    assert [r.below(100) for _ in range(10)] == [51, 89, 13, 70, 48, 51, 37, 34, 68, 0]
    r = Rng(12345)
    for _ in range(1000):
        assert 0 <= r.next() < 2**30


def test_distance_counts_cubes_still_to_place():
    assert distance(NS_WINS_NOW.heights, 0) == 1
    assert distance(NS_WINS_NOW.heights, 1) == 8  # the e file gives EW one cell
    assert distance(Position().heights, 0) == 9


def test_E3_every_level_takes_an_immediate_win():
    for level in SEARCH_LEVELS:
        pos = NS_WINS_NOW.clone()
        pos.apply(choose_move(NS_WINS_NOW, level=level, seed=1))
        assert pos.winner() == 0, level


def test_V2_every_level_answers_a_voina_when_a_defence_exists():
    for level in SEARCH_LEVELS:
        pos = NS_UNDER_VOINA.clone()
        pos.apply(choose_move(NS_UNDER_VOINA, level=level, seed=2))
        assert pos.winner() < 0, level
        assert not pos.threatens(1), level  # EW has no winning placement left


def test_V3_every_level_finds_the_blocus_when_it_is_the_only_defence():
    assert NS_BLOCUS_ONLY.under_voina()
    for level in SEARCH_LEVELS:
        pos = NS_BLOCUS_ONLY.clone()
        m = choose_move(NS_BLOCUS_ONLY, level=level, seed=6)
        pos.apply(m)
        assert pos.winner() < 0 and not pos.threatens(1), level
        assert pos.connected(0) is False


def test_V2_a_voina_without_defence_is_scored_lost():
    for level in ("beginner", "pico", "strong"):
        m = choose_move(NS_NO_DEFENCE, level=level, seed=0)
        assert m in NS_NO_DEFENCE.legal_actions()
        assert STATS[2] <= -SURE, level


def _defenceless(pos):
    """Every reply of the side to move leaves the opponent a winning placement."""
    for r in pos.legal_actions():
        pos.apply(r)
        ok = pos.winner() == (pos.side ^ 1) or (pos.winner() < 0 and not pos.threatens(pos.side))
        pos.undo()
        if ok:
            return False
    return True


def test_search_levels_find_a_voina_that_cannot_be_answered():
    for level in ("beginner", "pico", "strong"):
        pos = EW_WINS_IN_TWO.clone()
        pos.apply(choose_move(EW_WINS_IN_TWO, level=level, seed=3))
        assert pos.under_voina(), level
        assert _defenceless(pos), level
        assert STATS[2] >= SURE, level


def test_follow_up_attack_meets_every_defence_with_a_voina_that_has_none():
    for level in ("pico", "strong"):
        pos = EW_FOLLOW_UP.clone()
        pos.apply(choose_move(pos, level=level, seed=0))
        assert STATS[2] >= SURE, level
        assert pos.under_voina(), level  # the first move declares Voina
        defences = 0
        for r in pos.legal_actions():
            pos.apply(r)
            if pos.winner() < 0 and not pos.threatens(1):
                defences += 1
                pos.apply(choose_move(pos, level=level, seed=0))
                assert pos.winner() == 1 or (pos.under_voina() and _defenceless(pos)), level
                pos.undo()
            pos.undo()
        assert defences >= 1, level  # not a mere win in two


def test_choose_move_leaves_the_callers_position_unchanged():
    for level in LEVELS:
        pos = NS_UNDER_VOINA.clone()
        before = pos.to_string()
        ply = pos.ply
        choose_move(pos, level=level, seed=5)
        assert pos.to_string() == before and pos.ply == ply, level


def test_same_seed_replays_the_same_game():
    def game(seed):
        pos = Position()
        moves = []
        for i in range(10):
            m = choose_move(pos, level=("pico", "greedy")[i % 2], seed=seed)
            pos.apply(m)
            moves.append(m)
        return moves

    a = game(4)
    assert a == game(4)
    assert a != game(5) or game(6) != a  # seeds vary the games


def test_hint_is_the_pico_choice_for_the_side_to_move():
    assert hint(NS_UNDER_VOINA, seed=2) == choose_move(NS_UNDER_VOINA, level="pico", seed=2)


def test_unknown_level_and_finished_game_are_refused():
    raises(ValueError, choose_move, Position(), "expert")
    done = NS_WINS_NOW.clone()
    done.apply(choose_move(done, level="greedy"))
    raises(ValueError, choose_move, done, "pico")


def test_a_root_under_voina_gives_a_move_when_the_time_bound_is_already_past():
    # the root's defences are the moves any choice is made from: the time bound, checked in the
    # defences' listing below the root, never cuts the root's own list (it escaped the search)
    pos = Position.parse("....1..../....1..../....1..../....1..../........./....1..../"
                         "....1..../....1..../....1.... ew 28 0 0")
    assert pos.under_voina()
    for level in SEARCH_LEVELS:
        m = choose_move(pos, level=level, time_ms=-1)
        assert pos.is_legal(m), level


def test_a_root_move_that_leaves_the_opponent_a_voina_cell_does_not_hold_one_ply():
    # NS under a Voina without defence: every move leaves EW a winning placement (E3)
    s = Searcher(NS_NO_DEFENCE.clone(), CONFIGS["pico"], Rng(1))
    pos = NS_NO_DEFENCE.clone()
    assert not [m for m in pos.legal_actions() if s.holds_one_ply(m)]
    # with three aligned singles to regroup, the regroups hold and a placement far away does not
    s = Searcher(NS_UNDER_VOINA.clone(), CONFIGS["pico"], Rng(1))
    pos = NS_UNDER_VOINA.clone()
    held = [m for m in pos.legal_actions() if s.holds_one_ply(m)]
    assert held
    assert make_place(0) not in held
