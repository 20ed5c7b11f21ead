"""The computer opponent from the host side: legality over random positions (hypothesis),
the same choices under MicroPython, pico's node budget and heap, short matches, the CLIs."""

import re

from conftest import run_micropython, soak_moves
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xobo.games.xobo.ai import CONFIGS, choose_move
from xobo.games.xobo.ai.rng import Rng
from xobo.games.xobo.rules.notation import format_move
from xobo.games.xobo.rules.position import Position
from xobo_host.bench.matchplay.pairs import elo, format_result, run_match


def random_position(seed, plies, variant="xobo"):
    """A position reached by ``plies`` random moves (stops early at the end of the game)."""
    pos = Position(variant)
    r = Rng(seed)
    for _ in range(plies):
        moves = pos.legal_actions()
        if not moves:
            break
        pos.apply(moves[r.below(len(moves))])
    return pos


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 60),
    level=st.sampled_from(["random", "greedy", "beginner", "pico"]),
    variant=st.sampled_from(["xobo", "kv"]),
)
def test_the_ai_only_returns_legal_moves(seed, plies, level, variant):
    pos = random_position(seed, plies, variant)
    if pos.winner() >= 0:
        return
    m = choose_move(pos, level=level, seed=seed)
    assert m in pos.legal_actions()
    assert pos.why_illegal(m) is None


UPY_SCRIPT = """
import sys
from xobo.games.xobo.ai import choose_move
from xobo.games.xobo.rules.position import Position
from xobo.games.xobo.rules.notation import format_move
for line in sys.stdin.read().split(chr(10)):
    if not line.strip():
        continue
    level, seed, text = line.split(",")
    pos = Position.parse(text)
    print(format_move(choose_move(pos, level=level, seed=int(seed))))
"""


def test_cpython_and_micropython_choose_the_same_moves(tmp_path):
    jobs = []
    for i, plies in enumerate((0, 7, 16, 25, 34)):
        pos = random_position(100 + i, plies)
        if pos.winner() >= 0:
            continue
        for level in ("random", "greedy", "beginner", "pico"):
            jobs.append((level, i, pos.to_string()))
    script = tmp_path / "choose.py"
    script.write_text(UPY_SCRIPT)
    text = "\n".join("%s,%d,%s" % j for j in jobs) + "\n"
    proc = run_micropython([str(script)], heapsize="2M", input_text=text)
    assert proc.returncode == 0, proc.stderr
    upy = proc.stdout.split()
    cpy = [format_move(choose_move(Position.parse(t), level=lv, seed=s)) for lv, s, t in jobs]
    assert upy == cpy


def test_pico_level_keeps_to_its_node_budget_and_a_small_heap():
    # 256 KB of heap in all (the Pico has about 190 KB free): the engine, the AI and a search
    proc = run_micropython(["-m", "xobo.games.xobo.ai.bench", "pico"], heapsize="256K")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines() if line.startswith("BENCH pico")]
    assert len(rows) == 6
    for _, name, _us, heap, nodes in rows:
        assert 0 < int(nodes) <= CONFIGS["pico"].node_limit + 1, name
        # the search buffers (~19 KB) are made once, by the warm-up move; a move then
        # allocates the position's clone and a few small root lists
        assert 0 < int(heap) <= 8 * 1024, "%s allocates %s bytes" % (name, heap)


def test_greedy_beats_random_in_20_games():
    w, l, u, d = run_match("greedy", "random", 20, seed=1, workers=2)
    assert w >= 18 and d == 0, (w, l, u, d)


def test_strong_beats_random():
    # a whole game of the strong level, two under make soak (the strength ladder is make
    # bench's): each is about 7 s of CPU, random's moves make long games
    games = soak_moves(2, 1)
    w, l, u, d = run_match("strong", "random", games, seed=2, workers=2)
    assert w == games, (w, l, u, d)


def test_match_line_reports_wins_losses_unfinished_and_signed_elo():
    line = format_result("pico", 15, 5, 0)
    assert line.startswith("pico 15 wins, 5 losses, 0 unfinished; Elo +")
    line = format_result("greedy", 2, 17, 1)
    assert re.fullmatch(r"greedy 2 wins, 17 losses, 1 unfinished; Elo -\d+ \u00b1 \d+", line)
    assert elo(10, 10, 0)[0] == 0
    d, margin = elo(75, 25, 0)
    assert 180 < d < 200 and 50 < margin < 120  # 75% is about +191 Elo


def test_E5_move_limit_reports_games_unfinished(capsys):
    from xobo_host.cli.main import main

    assert main(["match", "--a", "random", "--b", "random", "--games", "2", "--max-moves",
                 "3", "--workers", "1"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].startswith("random 0 wins, 0 losses, 2 unfinished; Elo +0")
    assert len(out) == 3  # one progress line per game


def test_rules_hint_prints_a_legal_move_in_notation(capsys):
    from xobo_host.cli.main import main

    pos = random_position(9, 12)
    assert main(["rules", "hint", "--level", "greedy", "--seed", "3", pos.to_string()]) == 0
    out = capsys.readouterr().out.strip()
    assert out == format_move(choose_move(pos, level="greedy", seed=3))
    assert main(["rules", "hint", "--level", "nonsense", pos.to_string()]) == 2


def test_strong_keeps_to_its_time_bound():
    # the desktop budget (6000 nodes) takes seconds in mid-game; time_ms still stops it: the
    # clock is read every 8 nodes, and no step between two reads takes long
    import time

    from xobo.games.xobo.ai.bench import POSITIONS

    for text in POSITIONS[3:]:
        pos = Position.parse(text)
        t0 = time.monotonic()
        m = choose_move(pos, level="strong", seed=0, time_ms=200)
        elapsed = time.monotonic() - t0
        assert m in pos.legal_actions()
        assert elapsed < 0.2 + 0.8, "%.2f s for a 200 ms bound" % elapsed
