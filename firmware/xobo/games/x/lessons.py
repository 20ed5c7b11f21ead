"""The course of X on the board (xobo.runtime.learn; docs/games.md "Lessons"): loaded only while
learning. A lesson: (title, position, cells to look at, what to do, the moves that do it ("*"
any legal move, "* except c1 c2" any but these, "play": against the computer), what happened,
why another move is not it). Positions in XN2 (docs/rules/x.md)."""

LESSONS = (
    ("the goal",
     "......../......../......../......../......../......../......../........ r",
     "a1 h1 a8 h8",
     "Three players, Red, Yellow and Green, put one piece each in turn (XM1) to win the four "
     "corners of the rhombus. You are Red: put a piece on a corner cell (lit).",
     "a1 h1 a8 h8", "A piece on a corner cell holds that corner for now (XS1): it lights dim "
     "in your colour until nobody can take it any more.",
     "that is no corner cell: try one of the four lit cells."),
    ("six neighbours",
     "......../...gg.../......../.......y/......../..r.r.../......../y....... r",
     "c3 e3 d3",
     "The cells are hexagons: each touches six others (XB3), not the eight of a square. Your "
     "pieces c3 and e3 share one neighbour: put a piece on d3 to join them into one group.",
     "d3", "c3, d3 and e3 are now one group (XS1).",
     "that does not join c3 and e3: only d3 touches both."),
    ("a corner without its cell",
     ".....r../......r./......../......../......../.g....../.yy...../...g.... r",
     "f8 g7 h6 h7",
     "A group that touches both edges of a corner wins it even without the corner cell "
     "(XS1): your f8 and g7 touch the North edge. Join them to the East edge with h6 or h7 "
     "and North-East is yours.",
     "h6 h7", "f8 g7 and h6 or h7 join North to East: the North-East corner is yours now.",
     "that does not reach the East edge from g7 (h6 or h7 do)."),
    ("the farther path",
     "...gg.../......../......../.......y/......../......../.r....../y.r..... r",
     "a1 c1 b2 a2",
     "Yellow holds the corner cell a1, so the South-West corner is Yellow's now. A group that "
     "joins the two edges of a corner farther from it wins the corner (XS2): put a piece on a2 "
     "to join c1 and b2 to the West edge.",
     "a2", "Your group c1 b2 a2 reaches both edges farther from the corner than Yellow's a1: "
     "South-West is Red's now.",
     "the corner stays Yellow's: your group must reach the West edge (a2)."),
    ("defend a corner",
     "r......./......../.g....../..r...../...gg.../......../.....yy./.....y.r r",
     "h1 f1 f2 g2 h2",
     "You hold the South-East corner cell h1. Yellow's group f1 f2 g2 would join the South "
     "and East edges farther from the corner with a piece on h2, and take the corner (XS2). "
     "Put your piece on h2 first.",
     "h2", "Blocked: h1 and h2 hold the corner, and Yellow's path to the East edge is shut.",
     "Yellow now takes South-East with h2: block it there."),
    ("a settled corner",
     ".r.ry..g/rry..y../.gr...yy/...gr.../.....rgy/g......g/.y.g..../........ r",
     "a8 b8 a7 b7 c8 d8",
     "Your group b8 a7 b7 holds the North-West corner: its cell a8 glows dim, because "
     "another player could still join the two edges farther out, around your group, and "
     "take it (XS2). Put your piece on c8: your group reaches d8, and nobody can go around "
     "it any more.",
     "c8 d7", "a8 lights bright: North-West is settled, Red's for good (XS4). The game goes "
     "on until the board is full, but that corner cannot change hands.",
     "North-West is still open to a path around your group: c8 closes it."),
    ("a whole game",
     ".gr.ryrg/gr.rg.ry/y.yrryrg/rygggyyg/y....gry/.y.gyyry/r.ryrggg/rggyyg.r r", "a8",
     "The game ends when the board is full; the winner has the highest score nobody else has "
     "(XE2): with 2-1-1 the player with 2 wins, with 2-2-0 the one with 0! The North-West "
     "corner is still open. You are Red, the computer plays Yellow and Green: play it out "
     "against the computer.",
     "play", "", ""),
)


def piece_words(pos, c):
    """The piece to put on cell ``c`` when setting a lesson up: its player's colour."""
    return ("", "red", "yellow", "green")[pos.owner[c]] + " piece"
