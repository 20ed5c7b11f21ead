"""Writes sessions/vs_computer_greedy.txt: a whole Brochs game on the 15x15 board against the
computer (White, level greedy); Black's moves (the random level, seeded) are played by hand:
drops, the master declared with its button, rook moves, captures taken off, passes.

Usage: .venv/bin/python tests/games/brochs/session_maker.py
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[2] / "firmware"), str(HERE.parents[2] / "tests")]

from boardapp.boardkit import hand_lines  # noqa: E402

import xobo.games.brochs.ai as ai  # noqa: E402
from xobo.games.brochs import rules as R  # noqa: E402
from xobo.runtime.script import ScriptRunner  # noqa: E402


def hands(pos, m, name):
    """The script lines that play m: a pass or a word by its button (``R.BUTTONS``), the
    master's button first, then the hands of Brochs's host module (``boardkit.hand_lines``)."""
    buttons = {v: k for k, v in R.BUTTONS.items()}
    if m in buttons:
        return ["serial press %s" % buttons[m], "wait 100"]
    out = []
    if pos.button_of(m) and pos.res_men > 0:  # with no man left every drop is the master's
        out.append("serial press %s" % pos.button_of(m))
    return out + hand_lines("brochs", pos, m, name) + ["wait 3200"]


def main():
    lines = ["# a whole Brochs game against the computer (White, level greedy) on the 15x15 "
             "board;", "# written by session_maker.py", "board pico_15x15 brochs",
             "serial set level greedy", "serial set opponent white"]
    r = ScriptRunner()
    for i, line in enumerate(lines):
        r.run_line(line, i + 1)
    b = r.board
    name = R.cell_name
    start = b.app.pos
    for c in range(R.N_CELLS):
        if start.heights[c]:
            lines.append("put %s" % name(c))
    lines.append("wait 1000")
    for line in lines[5:]:
        r.run_line(line, 0)
    for ply in range(400):
        pos = b.app.pos
        if pos.is_terminal():
            break
        if pos.side == R.BLACK:
            m = ai.choose_move(pos.clone(), "random", seed=ply)
            if m in (R.RESIGN, R.ACCEPT, R.ASK):
                m = R.PASS
            todo = ["# black %s" % pos.move_text(m)] + hands(pos, m, name)
        else:
            m = b.app.pending
            if m < 0:
                raise SystemExit("no computer move at ply %d: %s" % (ply, r.out[-3:]))
            todo = ["# white (computer) %s" % pos.move_text(m)] + (
                ["wait 100"] if m >= R.PASS else hands(pos, m, name))
        for line in todo:
            r.run_line(line, 0)
        lines.extend(todo)
    lines.append("position")
    (HERE / "sessions" / "vs_computer_greedy.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(r.out[-5:]))


if __name__ == "__main__":
    main()
