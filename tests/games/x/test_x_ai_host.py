"""X's search plays the same moves under CPython and the MicroPython unix port (its viper
kernels compute in machine words there: every value stays below 2**30)."""

from conftest import run_micropython

SCRIPT = """
from xobo.games.x import ai
from xobo.games.x.rules import Position
for size, seed in ((8, 3), (5, 11), (9, 2)):
    pos = Position(size, seed % 3)
    moves = []
    while not pos.is_terminal():
        m = ai.choose_move(pos, "search", seed=seed, time_ms=None)
        moves.append(m)
        pos.apply(m)
    print(size, seed, " ".join(str(m) for m in moves), pos.winner())
"""


def test_search_plays_the_same_games_on_both_runtimes(tmp_path):
    script = tmp_path / "x_games.py"
    script.write_text(SCRIPT)
    proc = run_micropython([str(script)], heapsize="256K")
    assert proc.returncode == 0, proc.stderr
    import io
    from contextlib import redirect_stdout

    out = io.StringIO()
    with redirect_stdout(out):
        exec(SCRIPT, {})
    assert proc.stdout.split("\n") == out.getvalue().split("\n")
