"""Write the scripted board sessions of X (tests/games/x/sessions/*.txt) for the tests.

Every move is played with X's host module's hands (``boardkit.hand_lines``: a piece put,
``put CELL``) and the settle time. ``hand`` is a whole
three-player game played by hand (the players' moves chosen by the greedy level), with a
mistake fixed (a second piece put by mistake, then lifted), an undo (the piece taken back
off), a touch (a piece lifted and put back: its neighbours show, nothing is played) and a
power cut in the middle (the board resumes the saved game). ``vs_computer`` is one person
(Red) against two computers (``set opponent yellow+green``): their moves are read from the
``expect computer`` lines and carried out by hand as the board shows them.

Usage::

    python tests/games/x/session_maker.py hand > tests/games/x/sessions/hand.txt
    python tests/games/x/session_maker.py vs_computer > tests/games/x/sessions/vs_computer.txt
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "tests")]

from boardapp.boardkit import hand_lines  # noqa: E402

from xobo.games.x import ai  # noqa: E402
from xobo.runtime.script import ScriptRunner  # noqa: E402
from xobo.runtime.topology import cell_name  # noqa: E402


def hands(pos, m):
    """The script lines that play m (X's area starts at the board's a1: its cells' names are
    the board's)."""
    return hand_lines("x", pos, m, lambda c: cell_name(c, pos.width))


class Session:
    def __init__(self):
        self.runner = ScriptRunner()
        self.lines = []
        self.n = 0

    def do(self, line):
        self.n += 1
        self.lines.append(line)
        start = len(self.runner.out)
        self.runner.run_line(line, self.n)
        return self.runner.out[start:]

    @property
    def pos(self):
        return self.runner.board.app.pos


def hand():
    s = Session()
    s.do("# a whole three-player game of X by hand (size 8), with a mistake, an undo, a touch")
    s.do("# and a power cut")
    s.do("serial set game x")
    s.do("wait 100")
    while not s.pos.is_terminal():
        pos = s.pos
        m = ai.choose_move(pos, "greedy", seed=5)
        cell = pos.move_text(m)
        ply = pos.ply
        s.do("# %s %s" % (("red", "yellow", "green")[pos.side], cell))
        if ply == 7:  # a mistake: a second piece before the first settled, then lifted
            other = pos.move_text(ai.choose_move(pos, "random", seed=1))
            if other == cell:
                other = pos.move_text(ai.choose_move(pos, "random", seed=2))
            s.do("put %s" % cell)
            s.do("put %s  # a mistake: two pieces" % other)
            s.do("wait 1500")
            s.do("state")
            s.do("lift %s  # fixed" % other)
            s.do("wait 1500")
            s.do("state")
            s.do("press ok")
            s.do("wait 100")
            continue
        for line in hands(pos, m):
            s.do(line)
        s.do("wait 1500")
        if ply == 11:  # taken back, then played again
            s.do("press undo")
            s.do("state")
            s.do("lift %s" % cell)
            s.do("wait 300")
            s.do("put %s" % cell)
            s.do("wait 1500")
        if ply == 20:  # a touch: a piece lifted and put back shows its neighbours
            s.do("lift %s" % cell)
            s.do("wait 300")
            s.do("put %s" % cell)
            s.do("wait 1500")
        if ply == 30:
            s.do("power-cut")
            s.do("state")
    s.do("state")
    s.do("position")
    return s.lines


def vs_computer():
    s = Session()
    s.do("# one person (red) against two computers (yellow and green, level search)")
    s.do("serial set game x")
    s.do("serial set opponent yellow+green")
    s.do("wait 100")
    pending = []
    while not s.pos.is_terminal():
        pos = s.pos
        if pos.side == 0:
            m = ai.choose_move(pos, "greedy", seed=11)
            s.do("# red %s" % pos.move_text(m))
            out = []
            for line in hands(pos, m) + ["wait 1500"]:
                out += s.do(line)
        else:
            out = s.do("wait 100")
        pending += [x.split()[2] for x in out if x.startswith("expect computer ")]
        while pending and not s.pos.is_terminal() and s.pos.side != 0:
            cell = pending.pop(0)
            s.do("# the computer plays %s: put it" % cell)
            pos = s.pos
            out = []
            for line in hands(pos, pos.parse_move(cell)) + ["wait 1500"]:
                out += s.do(line)
            pending += [x.split()[2] for x in out if x.startswith("expect computer ")]
    s.do("state")
    s.do("position")
    return s.lines


if __name__ == "__main__":
    lines = {"hand": hand, "vs_computer": vs_computer}[sys.argv[1]]()
    print("\n".join(lines))
