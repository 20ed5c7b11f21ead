"""The course of Brochs on the board (xobo.runtime.learn; docs/games.md "Lessons"): loaded only
while learning. A lesson: (title, position, cells to look at, what to do, the moves that do it
("*" any legal move, "!c1 c2" any but these, "play": against the computer), what happened, why
another move is not it). Positions in BN2 (docs/rules/brochs.md)."""

START = (".....wwwww...../.............../.............../...w.......w.../.............../"
         "w.............w/w.............w/w.............w/w.............w/w.............w/"
         ".............../...w.......w.../.............../.............../.....wwwww.....")

LESSONS = (
    ("a drop", START + " b 12 1 -", "d4 l4 d12 l12",
     "You are Black: your 12 men and the master start in your reserve. White holds the four "
     "donjons (lit): own more donjons than White, or take all White's pieces, with the master "
     "still free (BE3). A turn may drop a piece from the reserve on any empty square (BM1): "
     "put a man on h8, the centre.",
     "*h8", "Dropped. You have 13 drops in a game, one a turn: make each count.",
     "a legal drop, but this lesson asks for h8."),
    ("custody",
     ".....wwwww...../.............../.............../...w.......w.../.............../"
     "w.............w/w.............w/w.............w/w.............w/w...b.........w/"
     "....w........../...w.......w.../.............../.............../......wwww..... "
     "b 11 1 -", "e6 e5 e4",
     "A piece that arrives next to an enemy, with one of yours beyond it on the same rank or "
     "file, captures it (BC1). White's man on e5 has your man on e6 beyond: drop a man on e4.",
     "*e4xe5", "e5 is taken: caught between e4 and e6 (BC1). The edge of the board never "
     "helps (BR1), and a donjon's occupant needs two pairs around it (BC3).",
     "that captures nothing: put your piece on e4, so that e5 is between two of yours."),
    ("the master",
     ".............../.............../..w............/.............../.............../"
     "..........w..../.............../.......m......./.............../....b........../"
     "....w........../.............../.............../.............../............... "
     "b 10 0 -", "h8",
     "Your master (on h8) captures diagonally too (BC2), but if it is taken you lose (BE3). "
     "White has three men left: take them all while your master stays free. You play Black, "
     "the computer White: play it out.",
     "play", "", ""),
)


def piece_words(pos, c):
    """The piece to put on cell ``c`` when setting a lesson up (BB4)."""
    return ("", "Black man", "the master", "White man")[pos.cells[c]]
