"""X on the board: owners, corners, the hex neighbours, the end (docs/rules/x.md, "On the
sensing board").

The runtime lights what every game has (the move in progress, fixes, undo, the hint, the
computer's move) from footprints; X adds:

- under every piece its owner: Red vermillion, Yellow yellow, Green bluish green, steady
  (``xobo.runtime.colours``: X_RED, X_YELLOW, X_GREEN: Green's pieces breathe slowly, so
  that red and green differ by pattern too);
- on each corner cell the corner's current owner (XS2), dim while it is provisional and
  bright once it is settled (XS4); an open corner's cell shows what stands on it;
- the six neighbours (XB3) of a piece that is lifted (a touch: putting it back changes
  nothing) or of the piece being put, blinking blue: the square grid hides that the NE and
  SW diagonals do not touch;
- at the end: the four winning groups in their owners' colours (the winner's pulsing), the
  other pieces dim, the winner's colour pulsing on the edges;
- the edges: the player to move in its colour (the runtime's default, every edge).

Usage: the runtime makes ``Layers(n_cells, game, edges, name)`` for the game ``x``.
"""

from xobo.runtime import colours as C
from xobo.runtime import inference as I
from xobo.runtime.layers import GameLayers
from xobo.runtime.words import FootprintWords


class Layers(FootprintWords, GameLayers):
    """X's layers (the module docstring)."""

    PIECE = "piece"
    PLAYER_CODES = (C.X_RED, C.X_YELLOW, C.X_GREEN)  # Green breathes: not colour alone
    DIM_CODES = (C.X_RED_CORNER, C.X_YELLOW_CORNER, C.X_GREEN_CORNER)
    WIN_CODES = (C.X_WIN_RED, C.X_WIN_YELLOW, C.WIN_P3)
    OPP_CODES = (C.X_OPP_RED, C.X_OPP_YELLOW, C.OPP_P3)

    def __init__(self, n_cells, game, edges, name):
        GameLayers.__init__(self, n_cells, game, edges, name)
        self.owner = bytearray(n_cells)  # 0 empty, 1 + player
        self.cell_code = bytearray(n_cells)  # the owners, corners and end, painted at once
        self.group = bytearray(n_cells)  # scratch: a winning group (corner_cells)
        self.nb = bytearray(6)
        self.pos = None
        self.corner_at = bytearray(4)  # the cell of each corner
        self.corner_code = bytearray(4)  # what each corner cell shows (0: its piece)

    # ------------------------------------------------------------ layers

    def set_position(self, pos, inf):
        """Owners, corners and, at the end, the winning groups (allocates a little)."""
        GameLayers.set_position(self, pos, inf)
        self.pos = pos
        n = self.n
        size = pos.size
        last = size - 1
        at = self.corner_at
        at[0] = 0
        at[1] = last
        at[2] = last * size
        at[3] = last * size + last
        own = pos.owner
        cc = self.cell_code
        w = self.winner
        for c in range(n):
            o = own[c]
            self.owner[c] = o
            if not o:
                cc[c] = 0
            elif w >= 0:
                cc[c] = self.DIM_CODES[o - 1]  # outside the winning groups: dim
            else:
                cc[c] = self.PLAYER_CODES[o - 1]
        g = self.group
        for k in range(4):
            o = pos.corner_owner(k)
            if o < 0:
                self.corner_code[k] = 0
                continue
            if w >= 0:
                code = self.WIN_CODES[o] if o == w else self.PLAYER_CODES[o]
                pos.corner_cells(k, g)
                for c in range(n):
                    if g[c]:
                        cc[c] = code
                self.corner_code[k] = code
            elif pos.corner_settled(k):
                self.corner_code[k] = self.PLAYER_CODES[o]
            else:
                self.corner_code[k] = self.DIM_CODES[o]
        for k in range(4):
            if self.corner_code[k]:
                cc[at[k]] = self.corner_code[k]

    def paint(self, code, inf, state, hints):
        cc = self.cell_code
        for c in range(self.n):
            code[c] = cc[c]
        if self.winner >= 0 or self.pos is None:
            return
        # the neighbours of a lifted piece (a touch: the fix asks it back) or of the piece
        # being put (the move in progress, before it is played)
        c = -1
        if state != I.MATCH and state != I.RESTORE and state != I.OFFER:
            lifted = self._only(inf.lifted)
            added = self._only(inf.added)
            if lifted >= 0 and added == -2:
                c = lifted
            elif added >= 0 and lifted == -2:
                c = added
        if c >= 0:
            nb = self.nb
            k = self.pos.neighbours(c, nb)
            for j in range(k):
                code[nb[j]] = C.X_NEIGHBOUR

    def _only(self, marks):
        """The one cell marked in ``marks``, -2 when none, -1 when several. No allocation."""
        found = -2
        for c in range(self.n):
            if marks[c]:
                if found != -2:
                    return -1
                found = c
        return found

    # ------------------------------------------------------------ words

    def fix_words(self, inf):
        """A lifted piece (a fix at once: no X move lifts a piece): its neighbours are lit."""
        lifted = self._only(inf.lifted)
        if lifted < 0 or self._only(inf.added) != -2:
            return ""
        return "put %s back: its six neighbours are blinking" % self.name(lifted)

    def offer_undo_words(self, pos, m):
        return "taking the piece off %s" % pos.move_text(m)

    def state_extra(self, pos):
        """X's fields of the simulator's state: the corners each player wins now (XS2)."""
        s = bytearray(3)
        pos.scores(s)
        return {"score": {"red": s[0], "yellow": s[1], "green": s[2]},
                "score_label": "Corners"}

    def end_text(self, pos):
        """'*' while the game goes on, else 'red 2-1-1': the winner and the score (Red,
        Yellow, Green: XE2)."""
        if not pos.is_terminal():
            return "*"
        s = pos.scores(bytearray(3))
        w = pos.winner()
        return "%s %d-%d-%d" % (self.names[w] if w >= 0 else "draw", s[0], s[1], s[2])
