"""The plain UCT yardstick of ``xobo match --opponent uct:N`` (host_tools/xobo_host/bench/uct.py):
it takes a win in one, plays only legal moves in every game and leaves the position alone,
replays for a seed; the Wilson interval; the match line."""

import re

import pytest

from xobo.games import available, load, part
from xobo_host.bench.matchplay.yardstick import run_opponent_match
from xobo_host.bench.uct import choose_move, parse_spec, wilson
from xobo_host.cli.main import main


def _tiny(*moves):
    game = load("tiny")
    pos = game.new_position(dict(game.DEFAULTS))
    for text in moves:
        pos.play(pos.parse_move(text))
    return pos


def test_uct_takes_a_win_in_one_rather_than_blocking():
    pos = _tiny("a1", "a2", "b1", "b2")  # x to move: c1 wins, o would win on c2
    for seed in range(3):
        assert pos.move_text(choose_move(pos, 200, seed)) == "c1"


def test_uct_blocks_the_only_threat():
    pos = _tiny("a1", "b2", "c3", "a3")  # o threatens c1 (a3 b2 c1); x must take it
    assert pos.move_text(choose_move(pos, 400, 1)) == "c1"


@pytest.mark.parametrize("name", [g for g in ("tiny", "x", "chain-reaction", "brochs", "xobo")
                                  if g in available()])
def test_uct_plays_legal_moves_in_every_game_and_leaves_the_position(name):
    game = load(name)
    pos = game.new_position(dict(game.DEFAULTS))
    for ply in range(3):
        if pos.is_terminal():
            break
        before = pos.to_string()
        m = choose_move(pos, 6, ply, max_plies=60, engine=part(game, "engine"))
        assert pos.to_string() == before
        assert pos.why_illegal(m) is None
        pos.apply(m)


def test_uct_replays_for_a_seed_in_three_player_x():
    game = load("x")
    pos = game.new_position({"size": 5, "first": "red"})
    a = [choose_move(pos, 60, s) for s in range(4)]
    b = [choose_move(pos, 60, s) for s in range(4)]
    assert a == b


def test_uct_refuses_no_playouts_and_a_finished_game():
    with pytest.raises(ValueError, match="at least one playout"):
        choose_move(_tiny(), 0)
    done = _tiny("a1", "a2", "b1", "b2", "c1")
    with pytest.raises(ValueError, match="no legal move"):
        choose_move(done, 10)


def test_parse_spec_reads_uct_n_and_says_what_is_wrong():
    assert parse_spec("uct:1000") == 1000 and parse_spec("uct:20,000") == 20000
    for bad, word in (("mcts:5", "no UCT player"), ("uct", "no UCT player"),
                      ("uct:x", "'x' is not a whole number"),
                      ("uct:0", "must be a whole number 1-999999999, not '0' .at least one"),
                      ("uct:1_000", "not a whole number"),
                      ("uct:99999999999999999999", "must be a whole number 1-")):
        with pytest.raises(ValueError, match=word):
            parse_spec(bad)


def test_wilson_interval_matches_the_textbook_values():
    lo, hi = wilson(5, 10)
    assert abs(lo - 0.2366) < 1e-4 and abs(hi - 0.7634) < 1e-4
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and abs(hi - 0.2775) < 1e-4
    lo, hi = wilson(10, 10)
    assert abs(lo - 0.7225) < 1e-4 and hi == 1.0
    lo, hi = wilson(36, 60)
    assert abs(lo - 0.4737) < 1e-4 and abs(hi - 0.7143) < 1e-4
    assert wilson(0, 0) == (0.0, 1.0)


def test_opponent_match_rotates_the_seat_of_the_level_in_x():
    out = run_opponent_match("x", "greedy", "uct:4", 6, seed=2, settings_words=["size=4"],
                             workers=1)
    assert out["games"] == 6 and out["wins"] + out["losses"] == 6  # X has no draw (XE2)
    assert out["unfinished"] == 0 and out["moves"] == 6 * 16 // 3 + 0


def test_match_cli_prints_the_win_share_with_its_interval(capsys):
    assert main(["match", "--game", "tiny", "--a", "perfect", "--opponent", "uct:30",
                 "--games", "4", "--workers", "1", "--quiet"]) == 0
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(r"perfect vs uct:30: \d wins in 4 games, \d+% \(95% CI \d+-\d+%\),"
                        r" fair 50%; \d losses, \d drawn or unfinished; [\d.]+ ms a move,"
                        r" median [\d.]+ \(CPython\)", line), line


def test_match_cli_opponent_errors_are_clear(capsys):
    assert main(["match", "--game", "x", "--opponent", "uct:zero", "--games", "2"]) == 2
    assert "whole number" in capsys.readouterr().err
    assert main(["match", "--game", "x", "--a", "clever", "--opponent", "uct:5"]) == 2
    assert "unknown player 'clever'" in capsys.readouterr().err


def test_bench_ladder_row_gives_the_share_and_its_interval():
    from xobo_host.bench.ladder import format_strength, strength_rows

    rows = strength_rows("tiny", levels=["perfect"], rungs=[5], games=2, workers=1)
    (line,) = format_strength("tiny", 2, rows)
    assert re.match(r"tiny +perfect +uct:5 +2 +\d +0 +\d +\d+% +\d+- *\d+% +50% +\d+%", line), line


# ------------------------------------------------- the fast UCT is the textbook one


def _reference_choose_move(pos, playouts, seed, max_plies, engine, stats):
    """The textbook UCT the yardstick was first written as (a playout asks ``is_terminal``
    before each move), kept here to prove that the faster loop of xobo_host/bench/uct.py makes the
    same choices from the same random numbers."""
    import math
    import random

    class Node:
        def __init__(self, move, mover):
            self.move, self.mover = move, mover
            self.children, self.untried, self.visits, self.total = [], None, 0, 0.0

    def ended(p):
        return p.is_terminal() or (max_plies is not None and p.ply >= max_plies)

    def moves(p):
        n = p.legal_moves(buf)
        return [buf[i] for i in range(n)]

    buf = engine.new_move_buffer()
    rng = random.Random(seed)
    root = Node(-1, -1)
    root.untried = moves(pos)
    rng.shuffle(root.untried)
    for _ in range(playouts):
        node, path, work = root, [root], pos.clone()
        while not node.untried and node.children:
            ln_n = math.log(node.visits)
            node = max(node.children, key=lambda c: c.total / c.visits
                       + math.sqrt(2.0) * math.sqrt(ln_n / c.visits))
            work.apply(node.move)
            path.append(node)
            if node.untried is None:
                node.untried = [] if ended(work) else moves(work)
                rng.shuffle(node.untried)
        if node.untried:
            mover = work.side
            child = Node(node.untried.pop(), mover)
            work.apply(child.move)
            node.children.append(child)
            node = child
            path.append(node)
            node.untried = [] if ended(work) else moves(work)
            rng.shuffle(node.untried)
        while not ended(work):
            work.apply(buf[int(rng.random() * work.legal_moves(buf))])
        if work.is_terminal():
            rewards = [(r + 1) / 2.0 for r in work.returns()]
        else:
            rewards = [0.5] * work.n_players
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += rewards[visited.mover]
    stats["visits"] = {c.move: c.visits for c in root.children}
    stats["means"] = {c.move: c.total / c.visits for c in root.children}
    best = max(root.children, key=lambda c: (c.visits, c.total / c.visits))
    return best.move


def _positions_along_a_random_game(game, plies, seed):
    import random

    rng = random.Random(seed)
    engine = part(game, "engine")
    buf = engine.new_move_buffer()
    pos = game.new_position(dict(game.DEFAULTS))
    out = []
    for ply in range(max(plies) + 1):
        if ply in plies:
            out.append(pos.clone())
        n = pos.legal_moves(buf)
        if not n:
            break
        pos.apply(buf[rng.randrange(n)])
    return out


# playouts a move sized so that each game's check stays around a second on CPython
_SAME_POLICY = {"tiny": (300, (0, 2, 4)), "x": (120, (0, 12, 30)),
                "chain-reaction": (20, (0, 8, 20)), "brochs": (8, (0, 10)),
                "xobo": (40, (0, 6, 14))}


@pytest.mark.parametrize("name", [g for g in _SAME_POLICY if g in available()])
def test_uct_fast_loop_visits_and_chooses_as_the_textbook_uct_for_a_seed(name):
    game = load(name)
    engine = part(game, "engine")
    playouts, plies = _SAME_POLICY[name]
    for pos in _positions_along_a_random_game(game, plies, seed=5):
        if pos.is_terminal():
            continue
        for seed, limit in ((3, None if name != "brochs" else pos.ply + 40), (4, pos.ply + 6)):
            fast, slow = {}, {}
            m = choose_move(pos, playouts, seed, max_plies=limit, engine=engine, stats=fast)
            r = _reference_choose_move(pos, playouts, seed, limit, engine, slow)
            assert fast == slow, (name, pos.to_string(), seed, limit)
            if len(slow["visits"]) > 1:  # one legal move: no search, the move itself
                assert m == r, (name, pos.to_string(), seed, limit)
