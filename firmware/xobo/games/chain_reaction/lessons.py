"""The course of Chain Reaction on the board (xobo.runtime.learn; docs/games.md "Lessons"): loaded
only while learning. A lesson: (title, position, cells to look at, what to do, the moves that
do it or the condition the engine checks (xobo.runtime.course: "best", the move that scores
the most, the hint's move after it), what happened, why another move is not it). Positions in
CN2 (docs/rules/chain-reaction.md)."""

LESSONS = (
    ("a step",
     "..ddd../.ddddd./..ddd../......./..lll../.lllll./..lll.. l 0 0 0 18", "e4 e5",
     "You are Light, from the South: bring your pieces' towers into the North goal row to "
     "score (CB2, CS1). A turn opens with a step: a lone piece goes to a neighbouring square "
     "(CM2). Onto an empty square the turn is over. Step e4 to e5.",
     "e4-e5", "A step onto an empty square: the turn is over, Dark plays.",
     "a legal step, but this lesson asks for e4 to e5."),
    ("a tower",
     "..ddd../.ddddd./...dd../...d.../..lll../.lllll./..lll.. l 0 0 0 18", "e4 e5",
     "A step onto a square with one piece, of either colour, puts your piece on top: a tower "
     "that you control (CB4), and the turn goes on (CM2). Step e4 onto Dark's piece on e5.",
     "e4-e5", "Your tower on e5: the turn goes on with it, it must move now.",
     "that makes no tower: step onto e5's piece."),
    ("a chain reaction",
     "..ddd../.ddddd./...dd../...[dl].../..l.l../.lllll./..lll.. l 1 0 0 18", "e5 d6 c7",
     "A tower's top piece that lands on a single makes a new tower, and the turn goes on: "
     "up to five segments a turn (CM3, CM4). Move the tower e5 North-West: bottom piece to "
     "d6, top piece onto Dark's piece on c7.",
     "e5:NW", "A new tower on c7, yours: the chain goes on (segment 3 of 5 at most).",
     "that is a legal tower move, but it ends the turn: this lesson builds a chain (e5 "
     "North-West)."),
    ("the chain scores",
     "..ddd../.[dl]dddd./..ddd../......./..l.l../.lllll./..lll.. l 2 0 0 18", "c7 d8 e9",
     "From c7 the tower reaches the goal row: move it North-East, bottom piece to d8, top "
     "piece to e9, the 2-point square.",
     "best c7:NE+2@e4", "2 points at the end of a chain. If a segment is due and none is legal, "
     "you lose 2 points instead (CS2): plan your chains.",
     "that scores less (or not at all): North-East reaches e9, worth 2."),
    ("a tower move",
     "..ddd../.ddddd./...dd../...[dl].../..l.l../.lllll./..lll.. l 1 0 0 18", "e5 d5 c5",
     "Move the tower (CM3): lift it, put its bottom piece on the next square in a direction "
     "and its top piece on the square after; at most one of the two may hold a piece. Move "
     "e5 West: bottom to d5, top to c5.",
     "e5:W e5:E e5:S e5:NW", "The tower is split: no tower stands, the turn is over (CM4).",
     "that is not this lesson's move."),
    ("scoring",
     "ddd.ddd/d.d[dl]d.d/......./......./..lll../.lllll./..ll... l 1 0 0 18", "e7 e8 e9",
     "A tower move whose top piece lands on the goal row scores: 1 point, 2 on the middle "
     "square e9 (CS1). Move the tower on e7 North: bottom piece to e8, top piece to e9.",
     "best e7:N+2@f2", "2 points. The scoring piece comes back on your home row A (f2), and the "
     "turn is over (CS1).",
     "that scores less than the middle square's 2 points (e7 North)."),
    ("a whole game",
     "..ddd../.ddddd./..ddd../......./..lll../.lllll./..lll.. l 0 17 15 18", "",
     "The first to reach the target (18) with 2 points more than the other wins (CE2); a "
     "segment due and impossible costs 2 points (CS2). Light 17, Dark 15: play it out "
     "against the computer (Dark).",
     "play", "", ""),
)


def score(pos, player):
    """The points ``player`` has scored (CS1), as the engine counts them."""
    return pos.score[player]


def piece_words(pos, c):
    """The pieces to put on cell ``c`` when setting a lesson up: a colour, or a tower's two
    (its bottom first)."""
    names = ("", "light", "dark")
    if pos.bot[c]:
        return "tower: %s under %s" % (names[pos.bot[c]], names[pos.top[c]])
    return names[pos.top[c]] + " piece"
