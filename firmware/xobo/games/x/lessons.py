"""The course of X on the board (xobo.runtime.learn; docs/games.md "Lessons"): loaded only while
learning. A lesson: (title, position, cells to look at, what to do, the moves that do it or
the condition the engine checks (xobo.runtime.course), what happened, why another move is not
it); ``{moves}``, ``{move}``, ``{replies}``, ``{next}`` are the engine's. Positions in XN2
(docs/rules/x.md)."""

LESSONS = (
    ("the goal",
     "......../......../......../......../......../......../......../........ r",
     "{moves}",
     "Three players, Red, Yellow and Green, put one piece each in turn (XM1) to win the four "
     "corners of the rhombus. You are Red: put a piece on a corner cell: {moves} (lit).",
     "gains", "A piece on a corner cell holds that corner for now (XS1): it lights dim "
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
     "f8 g7 {moves}",
     "A group that touches both edges of a corner wins it even without the corner cell "
     "(XS1): your f8 and g7 touch the North edge. Join them to the East edge with {moves} "
     "and North-East is yours.",
     "gains:NE", "f8 g7 and your new piece join North to East: the North-East corner is yours "
     "now.",
     "that does not reach the East edge from g7 ({moves} do)."),
    ("the farther path",
     "...gg.../......../......../.......y/......../......../.r....../y.r..... r",
     "a1 c1 b2 {moves}",
     "Yellow holds the corner cell a1, so the South-West corner is Yellow's now. A group that "
     "joins the two edges of a corner farther from it wins the corner (XS2): put a piece on "
     "{moves} to join c1 and b2 to the West edge.",
     "gains:SW", "Your group from c1 reaches both edges farther from the corner than "
     "Yellow's a1: South-West is Red's now.",
     "the corner stays Yellow's: your group must reach the West edge ({moves})."),
    ("defend a corner",
     "r......./......../.g....../..r...../...gg.../......../.....yy./.....y.r r",
     "h1 f1 f2 g2 {move}",
     "You hold the South-East corner cell h1. Yellow's group f1 f2 g2 would join the South "
     "and East edges farther from the corner with a piece on {move}, and take the corner "
     "(XS2). Put your piece on {move} first.",
     "keeps h2", "Blocked: h1 and h2 hold the corner, and Yellow's path to the East edge is "
     "shut.",
     "{next} would then take a corner of yours with {replies}: block it there."),
    ("a settled corner",
     ".r.ry..g/rry..y../.gr...yy/...gr.../.....rgy/g......g/.y.g..../........ r",
     "a8 b8 a7 b7 {moves}",
     "Your group b8 a7 b7 holds the North-West corner: its cell a8 glows dim, because "
     "another player could still join the two edges farther out, around your group, and "
     "take it (XS2). Put your piece on {moves}: nobody can go around your group any "
     "more.",
     "gains:NW!", "a8 lights bright: North-West is settled, Red's for good (XS4). The game goes "
     "on until the board is full, but that corner cannot change hands.",
     "North-West is still open to a path around your group: {moves} closes it."),
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


CORNERS = ("SW", "SE", "NW", "NE")  # the engine's corner numbers (xobo.games.x.rules)


def score(pos, player, part=""):
    """The corners ``player`` wins now (XE2), as the engine counts them; ``part``: one corner
    ("NE": 1 when it is the player's), settled ("NW!": 1 when it is the player's for good,
    XS4)."""
    if not part:
        return pos.scores(bytearray(3))[player]
    corner = CORNERS.index(part.rstrip("!"))
    if pos.corner_owner(corner) != player:
        return 0
    return 1 if not part.endswith("!") or pos.corner_settled(corner) else 0
