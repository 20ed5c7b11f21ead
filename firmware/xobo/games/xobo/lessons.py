"""The course of XoBo on the board (xobo.runtime.learn; docs/games.md "Lessons"): loaded only
while learning. A lesson: (title, position, cells to look at, what to do, the moves that do it
("*" any legal move, "* except c1 c2" any but these, "play": against the computer), what
happened, why another move is not it). Positions in N3 (docs/rules/xobo.md)."""

LESSONS = (
    ("the goal",
     "........./....1..../....1..../....1..../....1..../....1..../....1..../....1..../....1.... "
     "ns 28 0 0", "e9",
     "You are North-South: join the North and South edges with a chain of single cubes, each "
     "touching the next by a side or a corner (B7, E1). Put a cube on the lit cell e9.",
     "e9", "North-South wins: its edges are joined (E3).",
     "that joins nothing yet: the chain needs e9."),
    ("the cubes are nobody's",
     "........./........./........./........./11111111./........./........./........./......... "
     "ns 28 0 0", "i5",
     "The cubes belong to nobody: a chain joins edges whoever put its cubes. A cube on the lit "
     "i5 would join East and West, and joining your opponent's edges loses (E2). Put a cube "
     "anywhere else.",
     "* except i5", "Good: the row stays open. Never finish your opponent's chain.",
     "that joined East and West: East-West would win (E2). Put it back as lit and choose "
     "another cell."),
    ("spread and capture",
     "........./........./........./........./....31.../........./........./........./......... "
     "ns 32 0 0", "e5 f5",
     "A stack (here 3 cubes on e5) may be spread by either player: lift it and put one cube on "
     "each of the next cells in a line (M3). A cell that ends with exactly 2 cubes is "
     "captured: both go to your own reserve (M4). Spread e5 East, over f5.",
     "e5xf5", "f5 held a single: it got 2 cubes and they are yours (M4). g5 and h5 got one each.",
     "a spread must capture, and only the East one reaches a single."),
    ("Voïna: the threat",
     "........./........./....1..../....1..../....1..../....1..../....1..../....1..../....1.... "
     "ns 29 0 0", "e7",
     "A move that leaves you one placement from winning calls Voïna (V1, V2). Put a cube next "
     "to the top of the chain (d8, e8 or f8): North-South then threatens to win.",
     "e8 d8 f8 c9 d9 e9 f9 g9", "Voïna: your opponent is under threat and may now regroup.",
     "that threatens nothing: the chain must be one cube from the North edge."),
    ("under Voïna: regroup",
     "........./....1..../....1..../....1..../....1..../....1..../....1..../....1..../....1.... "
     "ew 28 0 0", "e9 e6 e7 e8",
     "You are East-West, under Voïna: a cube on e9 would win for North-South, and putting one "
     "there yourself joins its edges: you lose (E2). Under Voïna only, regroup (M2): gather "
     "three singles in a line onto an end cell. Put the cubes of e6 and e7 on e8.",
     "e6->e8 e5->e8 e4->e8 e3->e8 e2->e8 e3->e1 e4->e1 e5->e1 e6->e1 e7->e1 e8->e1 e4->e2 "
     "e5->e2 e6->e2 e7->e2 e8->e2 e5->e3 e6->e3 e7->e3 e8->e3 e1->e3 e6->e4 e7->e4 e8->e4 "
     "e2->e4 e1->e4 e7->e5 e8->e5 e3->e5 e2->e5 e8->e6 e4->e6 e3->e6 e2->e6 e5->e7 e4->e7 "
     "e3->e7 e2->e7",
     "The stack cuts the chain: the threat is gone. A stack never counts in a chain (E1).",
     "North-South still threatens after that: cut its chain with a regroup."),
    ("a whole game", "", "",
     "Now a game against the computer: you are North-South, it is East-West. Put a cube.",
     "play", "", ""),
)
