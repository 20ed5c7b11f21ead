"""The course of the test game on the board (xobo.runtime.learn; docs/games.md "Lessons"): loaded
only while learning. A lesson: (title, position, cells to look at, what to do, the moves that
do it or the condition the engine checks (xobo.runtime.course), "play" against the computer),
what happened, why another move is not it).
Positions are in the rules page's notation (docs/rules/tiny.md, TN2)."""

LESSONS = (
    ("the goal", ".o./o../xx. x", "a1 b1 c1",
     "You are x. Three pieces in a line win (TE1): x has a1 and b1. Put a piece on c1.",
     "wins", "Three in a row: x wins.",
     "that makes no line yet. Three in a line win: complete the lit row."),
    ("a move", "", "b2",
     "A move puts one piece on any empty cell (TM1); pieces never move. Put one on b2, the "
     "middle: it is on four lines.",
     "b2", "The middle piece counts on a rank, a file and both diagonals.",
     "a legal move, but this lesson asks for the middle, b2."),
    ("stop a line", "o../.x./o.x x", "a3 a2 a1",
     "o has a3 and a1: o would win on a2 next. Put your piece on a2 to stop it.",
     "blocks", "Blocked: o cannot complete that file any more.",
     "o now wins on a2. Block the lit file instead."),
    ("two threats", "..o/.x./xo. x", "{moves}",
     "Make two lines at once that each need one piece: o cannot stop both. Try {moves}.",
     "fork", "Two threats: o blocks one, you win with the other.",
     "that makes one threat at most: o can block it."),
    ("a draw", "xox/xoo/ox. x", "c1",
     "A full board without a line is a draw (TE2). Put the last piece on c1.",
     "draws", "The board is full and nobody has a line: a draw.",
     "c1 is the only empty cell."),
    ("play", "", "",
     "Now a whole game against the computer: you are x, it is o. Put a piece.",
     "play", "", ""),
)


def threats(pos, player):
    """The empty cells where ``player`` would make three in a row (TE1), by the engine."""
    out = []
    owner = pos.owner
    for c in range(pos.n_cells):
        if not owner[c]:
            owner[c] = player + 1
            if pos.winner() == player:
                out.append(c)
            owner[c] = 0
    return out
