"""Chain Reaction on the board: its light layers and its words (docs/games.md,
docs/rules/chain-reaction.md "On the sensing board").

The pieces are identical for the switches: colours and towers come from the history
(``Position.top`` / ``bot``), and the LEDs show them:

- a single in its owner's colour (Light blue, Dark orange, steady); a tower in its top
  colour, blinking 1 Hz over a piece of the same colour, 4 Hz over the other colour (the
  bottom colour as a second pattern);
- the scores on files a (Light) and i (Dark), which the game does not play on: a cell a
  point from the player's own end (Light from a1 up, Dark from i9 down), dim for points 1-9,
  steady for 10-18, fast blinking beyond;
- the segments left in the turn: that many dim yellow cells on the mover's own goal row
  (c1-g1 for Light, c9-g9 for Dark), the row the mover never plays on;
- while a tower is lifted, every legal direction: its first square (the bottom piece goes
  there, sky blue pulsing), its second square (the top piece, the runtime's "put here"), and
  the goal squares it scores on with their value (yellow: steady 1 point, pulsing 2);
- a scoring top piece put on its goal square: lit "take off" there, and the squares where it
  comes back (CS1) lit "put here"; these stay lit once it is off the goal square;
- the penalty (CS2): the tower to split and the 2 points lost blink purple, and the squares
  the bottom piece may go back to are lit "put here".

The runtime does the rest from footprints (the move in progress, fixes, undo, the hint, the
computer's segment). A piece put onto a piece changes no switch: the candidates' target
pieces are lit, and the player lifts the target and puts it back, or presses ok to step
through them (``OK_STEPS``); the unused files a and i are lit (``LIGHTS_UNUSED``).

Usage: the runtime makes ``Layers(n_cells, game, edges, name)`` for the game.
"""

from xobo.games.chain_reaction.rules import K_PENALTY, K_STEP, WIDTH, cell_name
from xobo.runtime import colours as C
from xobo.runtime import inference as I
from xobo.runtime.layers import GameLayers
from xobo.runtime.words import FootprintWords

_NONE = 255
TOWER_CODES = (C.CR_TOWER_L, C.CR_TOWER_LX, C.CR_TOWER_DX, C.CR_TOWER_D)  # [2 * top + bot]
SCORE_CODES = ((C.CR_SCORE_L, C.NS_COLOUR, C.CR_TOWER_LX),
               (C.CR_SCORE_D, C.EW_COLOUR, C.CR_TOWER_DX))
DIRECTION_WORDS = ("North", "North-East", "East", "South-East", "South", "South-West", "West",
                   "North-West")


def score_cell(player, k, height):
    """The cell of ``player``'s k-th score light (0-based, k < height): Light's on file a
    from rank 1 up, Dark's on file i from the top rank down."""
    if player == 0:
        return k * WIDTH
    return (height - 1 - k) * WIDTH + WIDTH - 1


def segment_cell(player, k, height):
    """The k-th segment light (0-4) on ``player``'s own goal row, files c-g."""
    r = 0 if player == 0 else height - 1
    return r * WIDTH + 2 + k


class Layers(FootprintWords, GameLayers):
    """Chain Reaction's layers (the module docstring)."""

    PIECE = "piece"
    LIGHTS_UNUSED = True
    OK_STEPS = True

    def __init__(self, n_cells, game, edges, name):
        GameLayers.__init__(self, n_cells, game, edges, name)
        self.base = bytearray(n_cells)  # pieces, scores, segments, the penalty
        self.reentry = bytearray(n_cells)  # the penalty's squares (shown with the pieces)
        self.pos = None
        self.scored = -1  # the goal square a scoring piece was put on (this move), -1: none

    # ------------------------------------------------------------ layers

    def set_position(self, pos, inf):
        GameLayers.set_position(self, pos, inf)
        self.pos = pos
        self.scored = -1
        base = self.base
        top = pos.top
        bot = pos.bot
        used = pos.used
        for c in range(self.n):
            self.reentry[c] = 0
            t = top[c]
            if not used[c] or not t:
                base[c] = 0
            elif bot[c]:
                base[c] = TOWER_CODES[2 * (t - 1) + bot[c] - 1]
            else:
                base[c] = self.PLAYER_CODES[t - 1]
        h = pos.height
        for p in (0, 1):
            s = pos.score[p]
            for k in range(h):
                lap = s // h - (1 if k >= s % h else 0)  # this cell's lap, -1: not yet lit
                if lap >= 0:
                    base[score_cell(p, k, h)] = SCORE_CODES[p][lap if lap < 2 else 2]
        if self.winner >= 0:
            return
        for k in range(pos.segments_left()):
            base[segment_cell(pos.side, k, h)] = C.CR_SEGMENTS
        if pos.tower >= 0 and pos.penalty_due():
            base[pos.tower] = C.CR_PENALTY
            s = pos.score[pos.side]
            for k in range(s - 2 if s > 2 else 0, s):  # the two points lost
                base[score_cell(pos.side, k % h, h)] = C.CR_PENALTY
            g = pos.geo
            for i in range(inf.n_moves):
                m = inf.moves[i]
                if m >> 9 >= K_PENALTY:
                    self.reentry[g.fi_cell[(m >> 9) - K_PENALTY]] = 1

    def paint(self, code, inf, state, hints):
        base = self.base
        for c in range(self.n):
            code[c] = base[c]
        if state == I.MATCH:
            self.scored = -1
            if inf.target_index < 0:
                for c in range(self.n):
                    if self.reentry[c]:
                        code[c] = C.PUT
            return
        if state != I.UNKNOWN and state != I.FIX:
            return
        g = self._goal_square(inf)
        if g < 0:
            return
        # the scoring piece on its goal square: take it off, it comes back on a lit square
        self.scored = g
        code[g] = C.TAKE
        self._paint_scoring(code, inf, g)

    def _goal_square(self, inf):
        """The goal square the mover's scoring piece was put on (the lifted tower's), or -1.
        No allocation."""
        pos = self.pos
        if pos is None or pos.tower < 0 or not inf.lifted[pos.tower]:
            return -1
        goal_rank = pos.height - 1 if pos.side == 0 else 0  # the row the mover attacks
        found = -1
        for c in range(self.n):
            if inf.added[c] and c // WIDTH == goal_rank and pos.goal_value(c):
                if found >= 0:
                    return -1
                found = c
        return found

    def _scoring_through(self, m, g):
        """For a scoring move ``m`` whose top piece lands on goal square ``g``: the square its
        bottom piece goes to; -1 for any other move. No allocation (the paint path)."""
        k = m >> 9
        if k == 0 or k >= K_STEP:
            return -1
        geo = self.pos.geo
        nb = geo.nb
        c = geo.fi_cell[m & 63]
        d = (m >> 6) & 7
        s1 = nb[c * 8 + d]
        return s1 if nb[s1 * 8 + d] == g else -1

    def _paint_scoring(self, code, inf, g):
        """The squares the piece scored on ``g`` may come back on, and the first squares
        still to fill, for every legal scoring move through g."""
        pos = self.pos
        geo = pos.geo
        for i in range(inf.n_moves):
            s1 = self._scoring_through(inf.moves[i], g)
            if s1 < 0:
                continue
            m = inf.moves[i]
            c = geo.fi_cell[m & 63]
            r = geo.fi_cell[(m >> 9) - 1]
            if not inf.added[r] and not (r == c and not inf.lifted[c]):
                code[r] = C.PUT
            if not inf.added[s1] and not pos.top[s1]:
                code[s1] = C.CR_FIRST

    def paint_move(self, code, inf, i, put_code, take_code):
        """What the footprint cannot show: a target piece that gets a piece on top, the
        first square of a tower move, the goal square of a scoring move (and its re-entry
        squares only once its piece was on the goal square, or for the computer's move)."""
        pos = self.pos
        geo = pos.geo
        nb = geo.nb
        m = inf.moves[i]
        k = m >> 9
        if k >= K_PENALTY:
            return
        c = geo.fi_cell[m & 63]
        d = (m >> 6) & 7
        s1 = nb[c * 8 + d]
        top = pos.top
        player = put_code == C.PUT
        if k == K_STEP:
            if top[s1]:
                code[s1] = put_code  # onto a piece: the target (touch it)
            return
        if top[s1] or (player and not inf.added[s1]):
            code[s1] = C.CR_FIRST if player else put_code
        s2 = nb[s1 * 8 + d]
        if k == 0:
            if top[s2]:
                code[s2] = put_code
            return
        code[s2] = C.CR_GOAL_2 if pos.goal_value(s2) == 2 else C.CR_GOAL_1
        r = geo.fi_cell[k - 1]
        if player and s2 != self.scored and not inf.added[r] and code[r] == C.PUT:
            code[r] = self.base[r]  # shown once the piece has scored (its goal square)

    # ------------------------------------------------------------ words

    def move_words(self, pos, m):
        """'move the piece on c3 to d4', 'move the tower on d4 North: bottom piece to d5, top
        piece to d6', '... top piece scores 2 on e9, back on d2', 'penalty: ...'."""
        g = pos.geo
        k = m >> 9
        c = g.fi_cell[m & 63]
        d = (m >> 6) & 7
        if k >= K_PENALTY:
            return "penalty, 2 points: the tower on %s splits, its bottom piece goes back on %s" \
                % (cell_name(c), cell_name(g.fi_cell[k - K_PENALTY]))
        s1 = g.nb[c * 8 + d]
        if k == K_STEP:
            onto = " (on top of the piece there)" if pos.top[s1] else ""
            return "move the piece on %s to %s%s" % (cell_name(c), cell_name(s1), onto)
        s2 = g.nb[s1 * 8 + d]
        head = "move the tower on %s %s: bottom piece to %s" % (
            cell_name(c), DIRECTION_WORDS[d], cell_name(s1))
        if k == 0:
            return "%s, top piece to %s" % (head, cell_name(s2))
        return "%s, top piece scores %d on %s and comes back on %s" % (
            head, pos.goal_value(s2), cell_name(s2), cell_name(g.fi_cell[k - 1]))

    def turn_words(self, pos):
        """Between the segments of a turn (CM4): what goes on ('' at the start of a turn)."""
        if pos.seg == 0 or pos.tower < 0 or pos.is_terminal():
            return ""
        return "the turn goes on: move your tower on %s (segment %d of 5 at most)" % (
            cell_name(pos.tower), pos.seg + 1)

    def fix_words(self, inf):
        """A scoring top piece put on its goal square (as the move's words say): it scores
        there and comes back in play on a home square (CS1), which the switches see; the
        bottom piece's square too when it is still empty. '' for any other fix (the lit
        cells say it)."""
        g = self._goal_square(inf)
        if g < 0:
            return ""
        pos = self.pos
        geo = pos.geo
        back = []
        first = []
        for i in range(inf.n_moves):
            s1 = self._scoring_through(inf.moves[i], g)
            if s1 < 0:
                continue
            r = cell_name(geo.fi_cell[(inf.moves[i] >> 9) - 1])
            if r not in back:
                back.append(r)
            if not inf.added[s1] and not pos.top[s1] and cell_name(s1) not in first:
                first.append(cell_name(s1))
        out = "%d points on %s: take the piece off %s" % (pos.goal_value(g), cell_name(g),
                                                         cell_name(g))
        if first:
            out += "; put a piece on %s (the bottom piece)" % " or ".join(first)
        if back:
            out += "; put a piece on %s (it comes back in play on your home row)" % \
                " or ".join(back)
        return out

    def touch_words(self, cell):
        return "put %s back: the piece goes on top of it" % cell_name(cell)

    def ambiguous_words(self, cells):
        # the switches see the lifted piece only: it may still be in the hand, or on a piece
        return "put your piece on a square next to where it stood; if it went onto a piece " \
            "(one of %s), lift that piece and put it back, or press ok to step through " \
            "them" % cells

    def offer_undo_words(self, pos, m):
        return "putting the pieces back"

    def end_text(self, pos):
        w = pos.winner()
        if w < 0:
            return "*"
        how = "blockade" if pos.blockade_winner == w and pos.score[w] < pos.target \
            else "points"
        return "%s %s" % (self.names[w], how)

    def state_extra(self, pos):
        """Chain Reaction's fields of the simulator's state."""
        return {"score": {"light": pos.score[0], "dark": pos.score[1]},
                "target": pos.target, "segments_left": pos.segments_left(),
                "tower": cell_name(pos.tower) if pos.tower >= 0 else "",
                "penalty": bool(pos.penalty_due())}
