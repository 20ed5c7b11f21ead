"""Write a scripted board session of a whole game against the computer (for the tests).

The human side's moves are chosen by an AI level too; every move becomes hand actions on the
virtual board, XoBo's host module's ``hands`` (``tests/boardapp/boardkit.py``: ``hand_lines``):
``put`` for a placement; for a regroup each cube of the run lifted onto the stack cell; for a
spread, ``lift`` of the stack, one ``put`` per target and the captured pairs taken off (M4).
The computer's moves are read from ``expect computer`` lines and carried out the same way.

Usage (writes the script to stdout)::

    python tests/games/xobo/session_maker.py --computer ew --level pico --human greedy --seed 3
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "tests")]

from boardapp.boardkit import hand_lines  # noqa: E402

from xobo.games.xobo.ai import choose_move  # noqa: E402
from xobo.games.xobo.rules.geometry import cell_name  # noqa: E402
from xobo.games.xobo.rules.moves import move_kind  # noqa: E402
from xobo.games.xobo.rules.notation import format_move  # noqa: E402
from xobo.runtime.script import ScriptRunner  # noqa: E402


def hand_actions(pos, m):
    """The script lines that carry out move m from position pos (XoBo's host module)."""
    return hand_lines("xobo", pos, m, cell_name)


def make_session(computer="ew", level="pico", human="greedy", seed=0, max_moves=120):
    runner = ScriptRunner()
    script = ["# a whole game against the computer (%s plays %s at level %s)"
              % ("the board", computer, level),
              "serial set level %s" % level, "serial set opponent %s" % computer, "wait 100"]
    for line in script[1:]:
        runner.run_line(line, 0)
    kinds = set()
    while True:
        pos = runner.board.app.pos
        if pos.winner() >= 0 or pos.ply >= max_moves:
            break
        side = "ns" if pos.side == 0 else "ew"
        if side == computer:
            expect = [x for x in runner.out if x.startswith("expect computer ")]
            if not expect:
                raise RuntimeError("the computer did not announce a move: %s" % runner.out[-5:])
            text = expect[-1].split()[2]
            m = [x for x in pos.legal_actions() if format_move(x) == text][0]
            kinds.add(("computer", move_kind(m)))
        else:
            m = choose_move(pos, level=human, seed=seed + pos.ply)
            kinds.add(("human", move_kind(m)))
        lines = ["# %s %s" % (side, format_move(m))] + hand_actions(pos, m) + ["wait 1500"]
        ply = pos.ply
        for line in lines:
            runner.run_line(line, 0)
        script.extend(lines)
        if runner.board.app.pos.ply == ply:
            # complete but part of a longer move (a spread's first target, three of four
            # aligned cubes): the board commits after the long settle time (3 x settle)
            runner.run_line("wait 2000", 0)
            script.append("wait 2000")
        if runner.board.app.pos.ply != ply + 1:
            raise RuntimeError("move %s was not committed: %s" % (format_move(m), runner.out[-5:]))
    script.append("position")
    return script, runner.out, kinds


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--computer", default="ew")
    ap.add_argument("--level", default="pico")
    ap.add_argument("--human", default="greedy")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    script, out, kinds = make_session(a.computer, a.level, a.human, a.seed)
    print("\n".join(script))
    print("# kinds %s" % sorted(kinds), file=sys.stderr)
    print("# last output %s" % out[-3:], file=sys.stderr)


if __name__ == "__main__":
    main()
