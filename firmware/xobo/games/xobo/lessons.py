"""The course of XoBo on the board (xobo.runtime.learn; docs/games.md "Lessons"): loaded only
while learning. A lesson: (title, position, cells to look at, what to do, the moves that do it
or the condition the engine checks (xobo.runtime.course), what happened, why another move is
not it); ``{moves}``, ``{losing}``, ``{threats}`` are the engine's cells. Positions in N3
(docs/rules/xobo.md)."""

LESSONS = (
    ("the goal",
     "........./....1..../....1..../....1..../....1..../"
     "....1..../....1..../....1..../....1.... ns 28 0 0", "{moves}",
     "You are North-South: join the North and South edges with a chain of single cubes, each "
     "touching the next by a side or a corner (B7, E1). Put a cube on a lit cell: {moves}.",
     "wins e9", "North-South wins: its edges are joined (E3).",
     "that joins nothing yet: the chain needs one of {moves}."),
    ("Voïna: the threat",
     "........./........./....1..../....1..../....1..../"
     "....1..../....1..../....1..../....1.... ns 29 0 0", "{moves}",
     "A move that leaves you one placement from winning calls Voïna (V1, V2). Put a cube where "
     "North-South then threatens to win: one of {moves} (lit).",
     "threat", "Voïna: North-South threatens {threats} (lit). East-West is under Voïna: it "
     "may regroup on its next move.",
     "that threatens nothing: the chain must be one cube from the North edge."),
    ("the cubes are nobody's",
     "........./....1..../....1..../....1..../....1..../"
     "....1..../....1..../....1..../....1.... ew 28 0 0", "{losing}",
     "You are East-West now. The cubes belong to nobody: a chain joins edges whoever put its "
     "cubes. A cube on {losing} would join North and South, and joining your opponent's edges "
     "loses (E2). Put a cube anywhere but {losing}.",
     "safe", "Good: never finish your opponent's chain. Its threat is still there, "
     "though: the next lesson answers it.",
     "that joined North and South: North-South would win (E2). Put it back as lit and "
     "choose another cell."),
    ("under Voïna: regroup",
     "........./....1..../....1..../....1..../....1..../"
     "....1..../....1..../....1..../....1.... ew 28 0 0", "e1 e2 e3",
     "Under Voïna, and only then, you may regroup (M2): gather three singles in a line onto "
     "one end cell, a stack. A stack is no single: it cuts the chain. Put the cubes of e1 and "
     "e2 on e3.",
     "blocks e1->e3",
     "Your stack cuts North-South's chain: the threat is gone (E1).",
     "North-South still threatens after that: cut its chain with a regroup."),
    ("spread and capture",
     "........./....1..../....1..../....1..../....1..../"
     "....1..../....3..../........./......... ns 28 0 0", "e3 e4 e5 e6",
     "A stack may be spread by either player (M3): lift it and put one cube on each of the "
     "next cells in a line, as many cells as cubes. A cell left with exactly 2 cubes is "
     "captured: both go to your own reserve (M4). You are North-South: spread e3 North, over "
     "e4, e5 and e6.",
     "e3xe4", "e4, e5 and e6 had singles: 3 pairs captured, 6 cubes in your own reserve. A "
     "spread must capture at least one pair.",
     "a spread must capture: North is the direction with singles."),
    ("exhaustion",
     "7.......7/.....1.../...1...../.1....1../........./..1...1../.....1.../........./"
     "7.......7 ns 0 1 0", "a1 i1 a9 i9 {move}",
     "The common reserve is empty: each player places from their own (M1). East-West has no "
     "cube left, and a player who cannot move at all loses (E4, exhaustion). You have one "
     "cube: put it where no stack (a1, i1, a9, i9) can be spread over it, off the edges and "
     "the long diagonals, {move} for one. A stack spread over a single captures it, and that "
     "would be East-West's move.",
     "wins c5", "East-West has no cube and no spread: it cannot move, and North-South wins by "
     "exhaustion (E4). Count the cubes left, yours and the other's.",
     "a stack can now be spread over that cube (it captures it): East-West has a move. Put "
     "it off the edges and the long diagonals."),
    ("a whole game",
     "........./....1..../....1..../........./........./"
     "........./........./........./......... ew 28 6 0", "",
     "Now play it out against the computer, from here: you are East-West, it is North-South. "
     "Once the common reserve is empty you place from your own; a player left with no move "
     "loses (E4).",
     "play", "", ""),
)


def threats(pos, player):
    """The engine's Voïna cells of ``player`` (V1): where a cube would win (the board lights
    the same ones)."""
    out = bytearray(pos.n_cells)
    pos.voina_cells(player, out)
    return [c for c in range(pos.n_cells) if out[c]]
