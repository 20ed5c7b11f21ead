"""The course of Brochs on the board (xobo.runtime.learn; docs/games.md "Lessons"): loaded only
while learning. A lesson: (title, position, cells to look at, what to do, the moves that do it
("*" any legal move, "* except c1 c2" any but these, "play": against the computer), what
happened, why another move is not it). Positions in BN2 (docs/rules/brochs.md)."""

START = (".....wwwww...../.............../.............../...w.......w.../.............../"
         "w.............w/w.............w/w.............w/w.............w/w.............w/"
         ".............../...w.......w.../.............../.............../.....wwwww.....")

LESSONS = (
    ("a drop", START + " b 12 1 -", "d4 l4 d12 l12 h8",
     "You are Black: your 12 men and the master start in your reserve. White holds the four "
     "donjons d4, l4, d12 and l12 (lit): own more donjons than White, or take all White's "
     "pieces, with the master still free (BE3). A turn may drop a piece from the reserve on "
     "any empty square (BM1): put a man on h8, the centre.",
     "*h8", "Dropped. You have 13 drops in a game, one a turn: make each count.",
     "a legal drop, but this lesson asks for h8."),
    ("the donjons",
     ".....wwwww...../.............../.............../...w.......w.../.............../"
     "w.............w/w.............w/w.............w/w.............w/w.............w/"
     ".............../...........w.../.............../.............../.....wwwww..... "
     "b 12 1 -", "d4",
     "A donjon belongs to the side whose piece stands on it (BE2); at the end the side with "
     "more donjons wins (BE3). White has left the donjon d4: drop a man on it.",
     "*d4", "d4 is Black's. A piece on a donjon falls only when enclosed twice, by two pairs "
     "of enemies on two of its four lines (BC3).",
     "that is not the empty donjon d4."),
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
    ("a move",
     ".....wwwww...../.............../.............../...w.......w.../.............../"
     "w.............w/w.............w/w.............w/w.............w/w...b.........w/"
     "....w........../...w.....b.w.../.............../.............../......wwww..... "
     "b 10 1 -", "j4 e4 e5",
     "Instead of a drop, a piece may move like a rook, any distance along its rank or file to "
     "an empty square (BM2); Black may jump Black pieces, nobody jumps White. Move your man "
     "from j4 to e4: it captures e5 on arrival.",
     "j4-e4xe5", "Only the piece that arrives captures (BC1): e5 is taken.",
     "that captures nothing: move j4 along rank 4 to e4."),
    ("remote capture",
     ".....wwwww...../.............../.............../...b.......w.../.............../"
     "w.............w/w.............w/w......m......w/w.............w/w.............w/"
     ".............../...w.......w.../.............../.............../.....wwwww..... "
     "b 11 0 -", "d12 l4",
     "You hold the North-West donjon d12 and your master is in play. The opposite quadrant, "
     "South-East, has no Black piece: instead of moving you may remove one White piece there "
     "(BM3). Take the man off the donjon l4 (lift it).",
     "!l4", "A remote capture: l4's donjon is empty now. Keep a donjon and the master free, "
     "and keep out of the quadrant opposite it.",
     "that is another White piece: this lesson takes the donjon's l4."),
    ("a donjon's occupant",
     ".....wwwww...../.............../.............../...w.......w.../.............../"
     "w.............w/w.............w/w.............w/w.............w/w.............w/"
     "...b.........../..bw.......w.../...b.........../.............../.....wwwww..... "
     "b 9 1 -", "d4 d5 d3 c4 e4",
     "A piece on a donjon falls only when it is enclosed twice, by two pairs of enemies on "
     "two of its four lines (BC3), and the piece that arrives must close one of them. Your "
     "men on d5 and d3 enclose White's d4 North-South: drop a man on e4, so that c4 and e4 "
     "enclose it East-West too.",
     "*e4xd4", "d4 is taken: two pairs around it, North-South and East-West (BC3). The "
     "donjon is empty now: drop on it to own it.",
     "that does not enclose d4 a second time: drop on e4."),
    ("submission",
     ".............../.............../.............../...b......www../...........w.../"
     ".............../.............../.......m......./.............../.............../"
     ".....b........./...b.......b.../.............../.............../............... "
     "b 8 0 -", "d4 l4 d12 l12",
     "You own three of the donjons d4, l4, d12 and l12 (lit), White one, and White has four "
     "pieces left. Before your turn you "
     "may ask White to submit (BE1): press submission (on the board: hold hint).",
     "(s?)", "Asked. White answers: accepting (s!) resigns, and you win; refusing (pass!) "
     "starts a countdown, as a side has 6 pieces or fewer: after 4 rounds with no capture, "
     "no drop and no donjon changing hands the game ends, and the side with more donjons "
     "wins (BE3).",
     "that is a move: this lesson asks for submission (press submission)."),
    ("the master",
     ".............../.............../..w............/.............../.............../"
     "..........w..../.............../.......m......./.............../....b........../"
     "....w........../.............../.............../.............../............... "
     "b 10 0 -", "h8",
     "Your master (on h8) captures diagonally too (BC2), but if it is taken you lose (BE3). "
     "White has three men left: take them all while your master stays free. A player may also "
     "ask for submission (press submission) before a turn (BE1). Play it out as Black, "
     "against the computer (White).",
     "play", "", ""),
)


def piece_words(pos, c):
    """The piece to put on cell ``c`` when setting a lesson up (BB4)."""
    return ("", "Black man", "the master", "White man")[pos.cells[c]]
