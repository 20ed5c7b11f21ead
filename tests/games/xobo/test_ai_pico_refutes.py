# dual-runtime
"""``pico`` does not play a move that loses to a Voina without defence (V1, V2): a reply of the
opponent's that threatens to win at once where no move of ours stops it (the double attack,
three plies). Its depth-two search needs 230-440 nodes in these positions and has 110, so the
search checks the best move of its first iteration against the opponent's threats (and
spreads, and the defences of a Voina it declares itself) before it goes deeper (docs/ai.md).

The positions are from games ``pico`` lost against UCT-20,000 (``xobo match --opponent
uct:20000 --seed 1``, games 0, 1 and 2); the check here is a plain three-ply enumeration with
the engine (every reply, every answer), independent of the search."""

from xobo.games.xobo.ai import STATS, choose_move
from xobo.games.xobo.rules.moves import new_move_buffer
from xobo.games.xobo.rules.notation import format_move
from xobo.games.xobo.rules.position import Position

# (position, the game's seed, the move pico played there before: it lost the game)
LOST = (
    ("........./11.11..../.....1.../.1.....11/.1......./.1......./.1....1.1/.1......./"
     "..1....1. ns 20 0 0", 1, "g9"),
    ("..1..1.../..1....../...1...../..1....../1..1...../.1......./..1....../1.11.11.1/"
     "1....13.. ew 16 0 0", 2, "g1xg2"),
    (".....1.../.....1.../.11.1..../1..1...../......1../........3/......1.1/1.1.11.../"
     "...1...1. ns 17 0 0", 3, "i4xi3"),
)


def _moves(pos):
    buf = new_move_buffer()
    return [buf[i] for i in range(pos.legal_moves(buf))]


def _defenceless(pos):
    """The side to move has no move after which the opponent cannot win at once."""
    me = pos.side
    for m in _moves(pos):
        pos.apply(m)
        w = pos.winner()
        holds = w == me or (w < 0 and not pos.threatens(me ^ 1))
        pos.undo()
        if holds:
            return False
    return True


def _refutation(pos, m):
    """A reply to ``m`` that wins at once or leaves the mover of ``m`` defenceless, or None."""
    pos.apply(m)
    try:
        opp = pos.side
        for r in _moves(pos):
            pos.apply(r)
            w = pos.winner()
            lost = w == opp or (w < 0 and _defenceless(pos))
            pos.undo()
            if lost:
                return r
        return None
    finally:
        pos.undo()


def test_V2_the_moves_pico_played_there_lose_to_a_voina_without_defence():
    for text, _seed, before in LOST:
        pos = Position.parse(text)
        assert _refutation(pos, pos.parse_move(before)) is not None, before


def test_V2_pico_plays_a_move_no_voina_without_defence_refutes():
    for text, seed, before in LOST:
        pos = Position.parse(text)
        m = choose_move(pos, level="pico", seed=seed)
        r = _refutation(pos, m)
        assert r is None, "%s: %s loses to %s" % (text, format_move(m), format_move(r))
        assert format_move(m) != before
        assert pos.to_string() == text  # the caller's position is left alone


# game 38 of the same match, ply 32: a root of many spreads spends the 110 nodes inside the
# first iteration, and every move it searched was lost; pico played a1 then, and EW won at once
DEPTH_ONE_OUT_OF_NODES = ("11......1/111...1../1......../.1..1..../1.1....../11......1/"
                          "1..1..1../..1111111/..1111111 ns 4 0 0", 39, "a1")


def _wins_at_once(pos, m):
    """The opponent's replies to ``m`` that win the game at once (E3)."""
    pos.apply(m)
    try:
        opp = pos.side
        out = []
        for r in _moves(pos):
            pos.apply(r)
            if pos.winner() == opp:
                out.append(r)
            pos.undo()
        return out
    finally:
        pos.undo()


def test_E3_a_first_iteration_out_of_nodes_plays_no_move_that_hands_an_immediate_win():
    text, seed, before = DEPTH_ONE_OUT_OF_NODES
    pos = Position.parse(text)
    assert _wins_at_once(pos, pos.parse_move(before))  # a1: EW's b1 wins
    m = choose_move(pos, level="pico", seed=seed)
    assert STATS[1] == 0  # the first iteration did not finish
    assert not _wins_at_once(pos, m), format_move(m)
    assert pos.to_string() == text
