"""Chain Reaction (Sid Sackson, 1993): positions, segments, scoring (docs/rules/chain-reaction.md).

A move is one **segment** (CM1-CM4): the side to move stays the same between the segments of a
turn, and changes when the turn ends (CM4). There is no move that ends a turn early: the
rules never give the player that choice, so no move has an empty footprint except the rare
scoring move described under ``footprint``.

Grid: ``area = (9, field + 2)``; cell = rank * 9 + file, a1 = 0. The field is ranks 2 to
field + 1 (index 1 to field) on files b-h; the goal rows are rank 1 (Dark scores there) and
rank field + 2 (Light scores there), files b-h; files a and i are not played on
(``used[c] == 0``): the board layer shows scores and segments there.

State, all of it readable by the board layer (phase 2):

- ``top[c]``, ``bot[c]``: the colour of the top piece (a single is a top piece) and of the
  bottom piece of a tower, as 0 (none), 1 (Light), 2 (Dark); ``owner(c)`` and ``bottom(c)``
  give them as a player, -1 for none. ``heights[c]``: 1 for a piece, 2 for a tower.
- ``tower``: the cell of the one tower (CB4), or -1.
- ``side``, ``seg`` (segments already played this turn, 0-4), ``segments_left()`` (5 - seg),
  ``score`` (a list: Light, Dark), ``target`` (CB5), ``field`` (ranks), ``blockade`` (CE3 on),
  ``blockade_pending`` (the player whose CE3 row must survive the current turn, or -1).
- ``tower_directions()``: for a tower being lifted, the legal directions as
  ``(d, s1, s2, points)`` (points 0 for a move on the field, 1 or 2 for a scoring one).
- ``goal_cells(player)``: the goal squares ``player`` scores on; ``goal_value(c)``: 0, 1, 2.
- ``penalty_due()``: the side to move has no legal segment, so every legal move is a penalty
  (CS2, CR2).

Moves (< 2**16): bits 0-5 the field index of the piece or tower (rank-major over the field),
bits 6-8 the direction (N NE E SE S SW W NW), bits 9-15 the kind: 0 a tower move on the field,
1-49 a scoring tower move whose top piece comes back on field index kind - 1, 64 a step,
65-113 a penalty whose bottom piece goes to field index kind - 65.

Usage::

    >>> from xobo.games.chain_reaction.rules import Position, new_move_buffer
    >>> pos = Position()                      # field 7, target 18, Light first
    >>> buf = new_move_buffer()
    >>> n = pos.legal_moves(buf)
    >>> pos.play(pos.parse_move("d4-d5")); pos.undo()
"""

import array

from xobo.compat import const
from xobo.errors import MoveError, PositionError
from xobo.gamekit import PAGE_MASK, PAGE_SHIFT, GamePosition, History
from xobo.numbers import parse_uint

LIGHT = const(0)
DARK = const(1)
WIDTH = const(9)
PIECES = const(11)
MAX_SEGMENTS = const(5)
FIELD_MIN = const(6)
FIELD_MAX = const(7)
TARGET_MIN = const(12)
TARGET_MAX = const(24)
MAX_SCORE = const(99)
MAX_MOVES = const(128)
FOOTPRINT_MAX = const(4)

K_TOWER = const(0)
K_STEP = const(64)
K_PENALTY = const(65)

# cell kinds
_OFF = const(0)
_FIELD = const(1)
_GOAL_N = const(2)  # rank field + 2: Light scores here (CB2)
_GOAL_S = const(3)  # rank 1: Dark scores here

DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIR_DF = (0, 1, 1, 1, 0, -1, -1, -1)
DIR_DR = (1, 1, 0, -1, -1, -1, 0, 1)
COLOUR_CHARS = ".ld"
_COLOUR_BYTES = b".ld"  # COLOUR_CHARS as bytes, for to_string
PLAYER_WORDS = ("Light", "Dark")
FILES = "abcdefghi"
_NONE = const(255)
_STRIDE = const(23)  # history bytes per ply: the move (2), then what undo restores (21)
# the longest game the board keeps, in segments (the rules' games last 500-1,500: docs/rules/
# chain-reaction.md, "Playing on the board"); a save is bounded by it
MAX_PLIES = const(2000)
SAVED_MOVE_CHARS = const(10)  # a segment in a save: 'e7:NW+2@d2'
_SEARCH_PLIES = const(64)  # the history's room past MAX_PLIES for the computer's search


def new_move_buffer():
    return array.array("H", bytes(2 * MAX_MOVES))


class Geometry:
    """The tables of one field length: cell kinds, neighbours, field indices, home zones."""

    def __init__(self, field):
        self.field = field
        self.height = field + 2
        n = WIDTH * self.height
        self.n_cells = n
        self.kind = bytearray(n)
        self.used = bytearray(n)
        self.nb = bytearray(n * 8)
        self.fi_cell = bytearray(7 * field)
        self.cell_fi = bytearray(n)
        # zone[p * n + c]: re-entry class for player p (CS1, CR4): 1 row A, 2 row B or C,
        # 3 the rest of p's half, 4 the rest of the field, 0 not on the field
        self.zone = bytearray(2 * n)
        top_rank = field + 1
        for c in range(n):
            r = c // WIDTH
            f = c % WIDTH
            self.cell_fi[c] = _NONE
            if 1 <= f <= 7:
                self.used[c] = 1
                if r == 0:
                    self.kind[c] = _GOAL_S
                elif r == top_rank:
                    self.kind[c] = _GOAL_N
                else:
                    self.kind[c] = _FIELD
                    i = (r - 1) * 7 + f - 1
                    self.fi_cell[i] = c
                    self.cell_fi[c] = i
            for d in range(8):
                ff = f + DIR_DF[d]
                rr = r + DIR_DR[d]
                if 0 <= ff < WIDTH and 0 <= rr < self.height:
                    self.nb[c * 8 + d] = rr * WIDTH + ff
                else:
                    self.nb[c * 8 + d] = _NONE
        for p in (LIGHT, DARK):
            for c in range(n):
                if self.kind[c] != _FIELD:
                    continue
                r = c // WIDTH
                f = c % WIDTH
                # CB3: Light's rows A, B, C are ranks 2, 3, 4 (index 1-3); Dark's mirrored
                row = r if p == LIGHT else field + 1 - r
                z = 4
                if row == 1 and 3 <= f <= 5:
                    z = 1
                elif (row == 2 and 2 <= f <= 6) or (row == 3 and 3 <= f <= 5):
                    z = 2
                elif row <= 3:
                    z = 3
                self.zone[p * n + c] = z


_GEOMETRIES = {}


def geometry(field):
    g = _GEOMETRIES.get(field)
    if g is None:
        if not FIELD_MIN <= field <= FIELD_MAX:
            raise PositionError("the field has %d to %d ranks, not %d (CB1)"
                                % (FIELD_MIN, FIELD_MAX, field))
        g = Geometry(field)
        _GEOMETRIES[field] = g
    return g


def cell_name(c):
    return "%s%d" % (FILES[c % WIDTH], c // WIDTH + 1)


def parse_cell(text, height):
    """The cell named ``text`` on a 9-wide grid of ``height`` ranks, or -1."""
    if len(text) < 2 or text[0] not in FILES:
        return -1
    r = parse_uint(text[1:], 2)
    if r < 1 or r > height:
        return -1
    return (r - 1) * WIDTH + FILES.index(text[0])


def _player_word(p):
    return PLAYER_WORDS[p]


class Position(GamePosition):
    """A Chain Reaction position: pieces, turn in progress, scores, and the moves that led here."""

    max_moves = MAX_MOVES  # the length of its move buffers (xobo.gamekit)
    n_players = 2
    width = WIDTH

    def __init__(self, field=7, target=18, first=LIGHT, blockade=False):
        g = geometry(field)
        if not TARGET_MIN <= target <= TARGET_MAX:
            raise PositionError("the target is %d to %d points, not %d (CB5)"
                                % (TARGET_MIN, TARGET_MAX, target))
        self.geo = g
        self.field = field
        self.height = g.height
        self.n_cells = g.n_cells
        self.used = bytes(g.used)
        self.target = target
        self.blockade = bool(blockade)
        self.top = bytearray(g.n_cells)
        self.bot = bytearray(g.n_cells)
        self.heights = bytearray(g.n_cells)
        self.tower = -1
        self.side = first
        self.seg = 0
        self.score = [0, 0]
        self.blockade_pending = -1
        self.blockade_winner = -1
        self.ply = 0
        self._h = History(_STRIDE, MAX_PLIES + _SEARCH_PLIES)
        self.changed_cells = bytearray(4)  # the cells a move changes (scratch)
        self._buf = None
        # CB3 start: Light on its home squares, Dark on its own
        n = g.n_cells
        for c in range(n):
            z0 = g.zone[c]
            z1 = g.zone[n + c]
            if z0 in (1, 2):
                self._put(c, 1, 0)
            elif z1 in (1, 2):
                self._put(c, 2, 0)

    def _put(self, c, top, bot):
        self.top[c] = top
        self.bot[c] = bot
        self.heights[c] = (1 if top else 0) + (1 if bot else 0)

    # ------------------------------------------------------------ position notation (CN2)

    @staticmethod
    def parse(text, field=None, blockade=False):
        """A position from its CN2 string; PositionError says what is wrong. The field
        length is the number of ranks written; ``field``, when given, must agree."""
        parts = text.split()
        want = "7 (board, side, segments, Light's score, Dark's score, target, blockade)" \
            if blockade else "6 (board, side, segments, Light's score, Dark's score, target)"
        if len(parts) == 7 and not blockade:
            raise PositionError("a 7th field (the blockade state) needs the blockade variant")
        if len(parts) != 6 and not (blockade and len(parts) == 7):
            raise PositionError("a position has %s fields, got %d: '%s'"
                                % (want, len(parts), text.strip()))
        ranks = parts[0].split("/")
        n_ranks = len(ranks)
        if not FIELD_MIN <= n_ranks <= FIELD_MAX:
            raise PositionError("the field has %d to %d ranks separated by '/', got %d (CB1)"
                                % (FIELD_MIN, FIELD_MAX, n_ranks))
        if field is not None and field != n_ranks:
            raise PositionError("the position has %d ranks but the field setting is %d"
                                % (n_ranks, field))
        target = _parse_number(parts[5], "the target", 2)
        if not TARGET_MIN <= target <= TARGET_MAX:
            raise PositionError("the target is %d to %d points, not %d (CR7)"
                                % (TARGET_MIN, TARGET_MAX, target))
        pos = Position(n_ranks, target, LIGHT, blockade)
        for c in range(pos.n_cells):
            pos._put(c, 0, 0)
        counts = [0, 0]
        towers = []
        for i in range(n_ranks):
            row = ranks[i]
            r = n_ranks - i  # rank index: the first rank written is the North end of the field
            f = 1
            j = 0
            while j < len(row):
                if f > 7:
                    raise PositionError("rank %d has more than 7 squares: '%s'" % (r + 1, row))
                c = r * WIDTH + f
                ch = row[j]
                if ch == "[":
                    if j + 3 >= len(row) or row[j + 3] != "]":
                        raise PositionError("%s: a tower is written [bt], two of l and d: '%s'"
                                            % (cell_name(c), row))
                    b = COLOUR_CHARS.find(row[j + 1])
                    t = COLOUR_CHARS.find(row[j + 2])
                    if b < 1 or t < 1:
                        raise PositionError("%s: a tower is written [bt], two of l and d, got %s"
                                            % (cell_name(c), row[j:j + 4]))
                    pos._put(c, t, b)
                    counts[b - 1] += 1
                    counts[t - 1] += 1
                    towers.append(c)
                    j += 4
                else:
                    v = COLOUR_CHARS.find(ch)
                    if v < 0:
                        raise PositionError("%s: '%s' is not a square: use '.', 'l', 'd' or [bt]"
                                            % (cell_name(c), ch))
                    if v:
                        pos._put(c, v, 0)
                        counts[v - 1] += 1
                    j += 1
                f += 1
            if f != 8:
                raise PositionError("rank %d has %d squares, expected 7: '%s'"
                                    % (r + 1, f - 1, row))
        if len(towers) > 1:
            raise PositionError("%d towers (%s): at most one tower stands on the field (CB4)"
                                % (len(towers), " ".join(cell_name(c) for c in towers)))
        for p in (LIGHT, DARK):
            if counts[p] != PIECES:
                raise PositionError("%s has %d pieces on the field, not 11 (CB4)"
                                    % (_player_word(p), counts[p]))
        if parts[1] == "l":
            pos.side = LIGHT
        elif parts[1] == "d":
            pos.side = DARK
        else:
            raise PositionError("the side to move is 'l' or 'd', got '%s'" % parts[1])
        seg = _parse_number(parts[2], "the segments played", 1)
        if seg > MAX_SEGMENTS - 1:
            raise PositionError("the segments played this turn are 0 to 4, got %d (CM4)" % seg)
        pos.seg = seg
        for p in (LIGHT, DARK):
            s = _parse_number(parts[3 + p], "%s's score" % _player_word(p), 2)
            pos.score[p] = s
        if towers:
            pos.tower = towers[0]
            if pos.top[pos.tower] != pos.side + 1:
                raise PositionError(
                    "the tower on %s is topped by %s, not by the side to move: a turn starts"
                    " with, or goes on because of, a tower the mover controls (CE1, CM4)"
                    % (cell_name(pos.tower), _player_word(pos.top[pos.tower] - 1)))
        elif seg:
            raise PositionError("%d segments played but no tower stands: the turn would have"
                                " ended (CM4)" % seg)
        if blockade:
            pos._parse_blockade(parts[6] if len(parts) == 7 else None)
        return pos

    def _parse_blockade(self, word):
        """CE3 state: '-' nothing pending, 'l'/'d' that player's row must survive this turn,
        'L'/'D' that player has won by blockade. At the start of a turn the pending row is
        the last mover's, if held (so the field may be left out there); inside a turn it
        cannot be seen on the board, and a missing field means nothing is pending."""
        prev = self.side ^ 1
        derived = prev if self.seg == 0 and self._holds_row(prev) else -1
        if word is None:
            self.blockade_pending = derived
            return
        p = "-ldLD".find(word)
        if p < 0 or len(word) != 1:
            raise PositionError("the blockade state is '-', 'l', 'd', 'L' or 'D', got '%s'"
                                % word)
        if p >= 3:
            if not self._holds_row(p - 3):
                raise PositionError("%s has not won by blockade: the row in front of the goal"
                                    " row is not all theirs (CE3)" % _player_word(p - 3))
            self.blockade_winner = p - 3
            return
        pending = p - 1
        if pending == self.side:
            raise PositionError("a pending blockade belongs to the player who moved last, not"
                                " to the side to move (CE3)")
        if self.seg == 0 and pending != derived:
            raise PositionError("at the start of a turn the blockade state is '%s': it follows"
                                " from the last mover's row (CE3)" % "-ld"[derived + 1])
        self.blockade_pending = pending

    def to_string(self):
        """The CN2 string (with the CE3 state as a 7th field when the variant is on)."""
        # written into one buffer byte by byte, not by adding strings (a new string for
        # every cell): the conformance suite writes it for every move it tries
        top = self.top
        bot = self.bot
        out = bytearray()
        for r in range(self.field, 0, -1):
            if r != self.field:
                out.append(47)  # "/"
            for c in range(r * WIDTH + 1, r * WIDTH + 8):
                if bot[c]:
                    out.append(91)  # "["
                    out.append(_COLOUR_BYTES[bot[c]])
                    out.append(_COLOUR_BYTES[top[c]])
                    out.append(93)  # "]"
                else:
                    out.append(_COLOUR_BYTES[top[c]])
        s = "%s %s %d %d %d %d" % (str(out, "ascii"), "ld"[self.side], self.seg, self.score[0],
                                   self.score[1], self.target)
        if self.blockade:
            if self.blockade_winner >= 0:
                s += " " + "LD"[self.blockade_winner]
            elif self.blockade_pending >= 0:
                s += " " + "ld"[self.blockade_pending]
            else:
                s += " -"
        return s

    def __eq__(self, other):
        return (isinstance(other, Position) and self.to_string() == other.to_string()
                and self.blockade == other.blockade)

    def clone(self):
        """A copy with the same state and history (undo works on it too)."""
        p = Position(self.field, self.target, self.side, self.blockade)
        p.top[:] = self.top
        p.bot[:] = self.bot
        p.heights[:] = self.heights
        p.tower = self.tower
        p.seg = self.seg
        p.score[0] = self.score[0]
        p.score[1] = self.score[1]
        p.blockade_pending = self.blockade_pending
        p.blockade_winner = self.blockade_winner
        p.ply = self.ply
        p._h = self._h.copy(self.ply)  # the plies seen so far: shared, not copied
        return p

    def reserve(self, plies):
        """Make room for ``plies`` moves now (a saved game, before it is replayed)."""
        self._h.reserve(plies)

    def move_at(self, ply):
        """The segment played at ``ply`` (0 <= ply < self.ply)."""
        page = self._h.pages[ply >> PAGE_SHIFT]
        o = (ply & PAGE_MASK) * _STRIDE
        return page[o] | page[o + 1] << 8

    # ------------------------------------------------------------ for the board layer

    def owner(self, c):
        return self.top[c] - 1 if self.top[c] else -1

    def bottom(self, c):
        return self.bot[c] - 1 if self.bot[c] else -1

    def segments_left(self):
        return MAX_SEGMENTS - self.seg

    def goal_cells(self, player):
        """The goal squares ``player`` scores on (CB2), West to East."""
        r = self.field + 1 if player == LIGHT else 0
        return [r * WIDTH + f for f in range(1, 8)]

    def goal_value(self, c):
        """CB2: 2 for the centre square of a goal row, 1 for the others, 0 off the goal rows."""
        k = self.geo.kind[c]
        if k != _GOAL_N and k != _GOAL_S:
            return 0
        return 2 if c % WIDTH == 4 else 1

    def penalty_due(self):
        """CS2: the side to move must play a segment and has none (the game going on)."""
        if self.winner() >= 0:
            return False
        return self._generate(self._scratch(), True) == 0

    def tower_directions(self):
        """The legal moves of the standing tower as (d, s1, s2, points); [] with no tower
        or when the mover's only moves are penalties."""
        out = []
        if self.tower < 0 or self.winner() >= 0:
            return out
        buf = self._scratch()
        n = self._generate(buf, False)
        for i in range(n):
            m = buf[i]
            k = m >> 9
            if k >= K_STEP:
                continue
            d = (m >> 6) & 7
            s1 = self.geo.nb[self.tower * 8 + d]
            s2 = self.geo.nb[s1 * 8 + d]
            item = (d, s1, s2, self.goal_value(s2))
            if item not in out:
                out.append(item)
        return out

    def occupancy(self, out):
        h = self.heights
        for i in range(self.n_cells):
            out[i] = 1 if h[i] else 0

    def footprint(self, m, lifted, added):
        """L(m) and A(m): the cells m empties and fills, net (a scoring piece passes over
        its goal square and comes back on the field: only its re-entry square counts).
        A piece put onto a piece changes no switch; when a scoring move's top piece comes
        back on the tower's own square and its bottom piece lands on a single, nothing
        changes at all (the board asks the player to lift s1, touch_cell)."""
        g = self.geo
        k = m >> 9
        c = g.fi_cell[m & 63]
        d = (m >> 6) & 7
        top = self.top
        nl = 0
        na = 0
        if k == K_STEP:
            lifted[0] = c
            nl = 1
            n = g.nb[c * 8 + d]
            if not top[n]:
                added[0] = n
                na = 1
            return nl, na
        if k >= K_PENALTY:
            added[0] = g.fi_cell[k - K_PENALTY]
            return 0, 1
        s1 = g.nb[c * 8 + d]
        s2 = g.nb[s1 * 8 + d]
        r = g.fi_cell[k - 1] if k else _NONE
        if r != c:
            lifted[0] = c
            nl = 1
        if not top[s1]:
            added[na] = s1
            na += 1
        if k == K_TOWER:
            if not top[s2]:
                added[na] = s2
                na += 1
        elif r != c:
            added[na] = r
            na += 1
        return nl, na

    def touch_cell(self, m):
        """The target a piece is put onto (no switch sees it), or -1."""
        g = self.geo
        k = m >> 9
        c = g.fi_cell[m & 63]
        d = (m >> 6) & 7
        if k >= K_PENALTY:
            return -1
        s1 = g.nb[c * 8 + d]
        if k == K_STEP:
            return s1 if self.top[s1] else -1
        if self.top[s1]:
            return s1
        if k == K_TOWER and self.top[g.nb[s1 * 8 + d]]:
            return g.nb[s1 * 8 + d]
        return -1

    # ------------------------------------------------------------ result (CE2, CE3)

    def winner(self):
        """CE2: T or more and a 2-point lead wins; CE3 (variant): the blockade winner."""
        s0 = self.score[0]
        s1 = self.score[1]
        t = self.target
        if s0 >= t and s0 >= s1 + 2:
            return LIGHT
        if s1 >= t and s1 >= s0 + 2:
            return DARK
        return self.blockade_winner

    def is_terminal(self):
        return self.winner() >= 0

    def returns(self):
        w = self.winner()
        if w < 0:
            return (0, 0)
        return (1, -1) if w == LIGHT else (-1, 1)

    def _holds_row(self, p):
        """CE3: p's pieces are on top on the 7 field squares in front of the goal row p
        attacks."""
        r = self.field if p == LIGHT else 1
        want = p + 1
        top = self.top
        for f in range(1, 8):
            if top[r * WIDTH + f] != want:
                return False
        return True

    # ------------------------------------------------------------ move generation

    def _scratch(self):
        if self._buf is None:
            self._buf = new_move_buffer()
        return self._buf

    def _reentry(self, buf, n, base, player, emptied, filled):
        """CS1, CR4: one move ``base + (fi << 9)`` per square where ``player``'s piece
        may come back: the first of row A, rows B and C, the half, the field that has an
        empty square, counting ``emptied`` as empty and ``filled`` as occupied."""
        g = self.geo
        zone = g.zone
        off = player * g.n_cells
        top = self.top
        for level in range(1, 5):
            found = 0
            for i in range(7 * self.field):
                c = g.fi_cell[i]
                z = zone[off + c]
                if (z == level if level <= 2 else z <= level) and \
                        (c == emptied or (not top[c] and c != filled)):
                    buf[n] = base + (i << 9)
                    n += 1
                    found = 1
            if found:
                return n
        return n

    def _generate(self, buf, first_only):
        """The legal segments of the side to move (CM1-CM3), penalties excluded."""
        g = self.geo
        nb = g.nb
        kind = g.kind
        top = self.top
        me = self.side + 1
        n = 0
        t = self.tower
        if t < 0:
            # CM1, CM2: a step of a single of the mover's to a neighbouring field square
            for i in range(7 * self.field):
                c = g.fi_cell[i]
                if top[c] != me:
                    continue
                for d in range(8):
                    x = nb[c * 8 + d]
                    if x != _NONE and kind[x] == _FIELD:
                        buf[n] = i | d << 6 | K_STEP << 9
                        n += 1
                        if first_only:
                            return n
            return n
        # CM3: the tower, bottom piece to s1, top piece to s2
        b = self.bot[t]
        last = self.seg == MAX_SEGMENTS - 1
        goal = _GOAL_N if me == 1 else _GOAL_S
        ti = g.cell_fi[t]
        for d in range(8):
            s1 = nb[t * 8 + d]
            if s1 == _NONE or kind[s1] != _FIELD:
                continue
            s2 = nb[s1 * 8 + d]
            if s2 == _NONE:
                continue
            k2 = kind[s2]
            if k2 == _FIELD:
                if top[s1] and top[s2]:
                    continue  # two towers (CM3, figure 4)
                if last and ((top[s1] and b == me) or top[s2]):
                    continue  # segment 5 may not leave the mover a tower (CE1)
                buf[n] = ti | d << 6
                n += 1
            elif k2 == goal:
                if top[s1] and b == me:
                    continue  # CR5: the turn would end with the mover's tower (CE1)
                n = self._reentry(buf, n, ti | d << 6 | 1 << 9, self.side, t, s1)
            else:
                continue
            if first_only and n:
                return n
        return n

    def legal_moves(self, buf):
        """Fill ``buf`` with the legal segments; return how many (0 once the game is over).
        With no segment to play, the legal moves are the penalty's re-placements (CS2, CR2)."""
        if self.winner() >= 0:
            return 0
        n = self._generate(buf, False)
        if n == 0 and self.tower >= 0:
            b = self.bot[self.tower] - 1
            n = self._reentry(buf, 0, self.geo.cell_fi[self.tower] | K_PENALTY << 9, b,
                              _NONE, _NONE)
        return n

    def why_illegal(self, m):
        """None if m is legal here, else a sentence saying why not."""
        buf = new_move_buffer()
        n = self.legal_moves(buf)
        for i in range(n):
            if buf[i] == m:
                return None
        return self._reason(m, buf, n)

    def _reason(self, m, buf, n):
        w = self.winner()
        if w >= 0:
            return "the game is over: %s has won" % _player_word(w)
        g = self.geo
        nf = 7 * self.field
        k = m >> 9
        i = m & 63
        d = (m >> 6) & 7
        valid = k == K_TOWER or k == K_STEP or 1 <= k <= nf or K_PENALTY <= k < K_PENALTY + nf
        if i >= nf or not valid:
            return "move code %d is no segment on this field" % m
        c = g.fi_cell[i]
        me = _player_word(self.side)
        if k >= K_PENALTY:
            if self.tower < 0 or not self.penalty_due():
                return "no penalty is due: %s has a legal segment (CS2)" % me
            return "%s is not where the bottom piece goes back (CS1, CR4): use %s" % (
                cell_name(g.fi_cell[k - K_PENALTY]), self._choices(buf, n))
        if self.penalty_due():
            return "%s has no legal segment: the penalty is due, %s (CS2, CR2)" % (
                me, self._choices(buf, n))
        if k == K_STEP:
            if self.tower >= 0:
                return "a tower stands on %s: %s must move it (CM1, CM4)" % (
                    cell_name(self.tower), me)
            if self.top[c] != self.side + 1:
                return "%s holds no piece of %s's (CM2)" % (cell_name(c), me)
            return "a step from %s to the %s leaves the field (CM2)" % (cell_name(c),
                                                                          DIR_NAMES[d])
        if self.tower != c:
            if self.tower < 0:
                return "no tower stands on the field: the turn opens with a step (CM1)"
            return "the tower stands on %s, not on %s (CM3)" % (cell_name(self.tower),
                                                                  cell_name(c))
        s1 = g.nb[c * 8 + d]
        if s1 == _NONE or g.kind[s1] != _FIELD:
            return "%s:%s: the bottom piece would leave the field (CM3)" % (cell_name(c),
                                                                           DIR_NAMES[d])
        s2 = g.nb[s1 * 8 + d]
        goal = _GOAL_N if self.side == LIGHT else _GOAL_S
        head = "%s:%s" % (cell_name(c), DIR_NAMES[d])
        if s2 == _NONE or g.kind[s2] not in (_FIELD, goal):
            return "%s: the top piece would leave the field other than over the goal row %s" \
                " attacks (CM3)" % (head, me)
        if g.kind[s2] == _FIELD:
            if k:
                return "%s does not score: it has no points nor re-entry square" % head
            if self.top[s1] and self.top[s2]:
                return "%s would make two towers, on %s and %s (CB4, CM3)" % (
                    head, cell_name(s1), cell_name(s2))
            return "%s would leave %s a tower after the fifth segment (CE1, CM3)" % (head, me)
        if not k:
            return "%s scores: name the re-entry square, %s+%d@sq (CR6)" % (
                head, head, self.goal_value(s2))
        if self.top[s1] and self.bot[c] == self.side + 1:
            return "%s would end the turn with %s's piece on top of a tower on %s (CR5, CE1)" \
                % (head, me, cell_name(s1))
        return "%s is not a re-entry square (CS1, CR4): use %s" % (
            cell_name(g.fi_cell[k - 1]), self._choices(buf, n))

    def _choices(self, buf, n):
        return ", ".join(self.move_text(buf[j]) for j in range(n))

    # ------------------------------------------------------------ apply / undo

    def move_cells(self, m):
        """The cells m changes, into self.changed_cells (255: none)."""
        g = self.geo
        mc = self.changed_cells
        k = m >> 9
        c = g.fi_cell[m & 63]
        d = (m >> 6) & 7
        mc[0] = c
        mc[1] = _NONE
        mc[2] = _NONE
        mc[3] = _NONE
        if k >= K_PENALTY:
            mc[1] = g.fi_cell[k - K_PENALTY]
            return
        s1 = g.nb[c * 8 + d]
        mc[1] = s1
        if k == K_STEP:
            return
        s2 = g.nb[s1 * 8 + d]
        if g.kind[s2] == _FIELD:
            mc[2] = s2
        if K_STEP > k > 0:
            mc[3] = g.fi_cell[k - 1]

    def apply(self, m):
        """Play segment m for the side to move, trusting that it is legal (see play)."""
        ply = self.ply
        hist = self._h
        k = ply >> PAGE_SHIFT
        info = hist.pages[k] if hist.ready[k] else hist.for_write(ply)
        o = (ply & PAGE_MASK) * _STRIDE
        info[o] = m & 255
        info[o + 1] = m >> 8
        o += 2
        info[o] = self.side
        info[o + 1] = self.seg
        info[o + 2] = self.tower + 1
        info[o + 3] = self.blockade_pending + 1
        info[o + 4] = self.blockade_winner + 1
        # scores in two bytes: a long tie past the target (CE2) may take them over 255
        info[o + 5] = self.score[0] & 255
        info[o + 6] = self.score[0] >> 8
        info[o + 7] = self.score[1] & 255
        info[o + 8] = self.score[1] >> 8
        self.move_cells(m)
        mc = self.changed_cells
        top = self.top
        bot = self.bot
        for j in range(4):
            c = mc[j]
            info[o + 9 + 3 * j] = c
            if c != _NONE:
                info[o + 10 + 3 * j] = top[c]
                info[o + 11 + 3 * j] = bot[c]
        self.ply = ply + 1
        g = self.geo
        k = m >> 9
        c = mc[0]
        d = (m >> 6) & 7
        me = self.side + 1
        ends = False
        if k == K_STEP:
            x = mc[1]
            self._put(c, 0, 0)
            if top[x]:
                self._put(x, me, top[x])  # CM2: on top, a tower the mover controls
                self.tower = x
            else:
                self._put(x, me, 0)
                ends = True
        elif k >= K_PENALTY:
            # CS2: the bottom piece goes back to its owner's squares, the top stays
            self._put(mc[1], bot[c], 0)
            self._put(c, top[c], 0)
            self.tower = -1
            s = self.score[self.side] - 2
            self.score[self.side] = s if s > 0 else 0
            ends = True
        else:
            b = bot[c]
            tp = top[c]
            self._put(c, 0, 0)
            self.tower = -1
            s1 = mc[1]
            if top[s1]:
                self._put(s1, b, top[s1])
                self.tower = s1
            else:
                self._put(s1, b, 0)
            if k == K_TOWER:
                s2 = mc[2]
                if top[s2]:
                    self._put(s2, tp, top[s2])
                    self.tower = s2
                else:
                    self._put(s2, tp, 0)
            else:
                # CS1: 1 or 2 points, the top piece comes back at once, the turn ends
                s2 = g.nb[s1 * 8 + d]
                self.score[self.side] += 2 if s2 % WIDTH == 4 else 1
                self._put(mc[3], tp, 0)
                ends = True
        # CM4: the four ways a turn ends
        t = self.tower
        if ends or t < 0 or top[t] != me or self.seg == MAX_SEGMENTS - 1:
            if self.blockade and self.blockade_winner < 0:
                self._blockade_turn_end()
            self.side ^= 1
            self.seg = 0
        else:
            self.seg += 1

    def _blockade_turn_end(self):
        """CE3 at the end of the mover's turn: the opponent's row held since their own turn
        wins; otherwise the mover's row, if held, must survive the opponent's next turn."""
        me = self.side
        if self.blockade_pending == me ^ 1 and self._holds_row(me ^ 1):
            self.blockade_winner = me ^ 1
            return
        self.blockade_pending = me if self._holds_row(me) else -1

    def undo(self):
        """Take back the last segment exactly (pieces, turn, scores, blockade state)."""
        if self.ply == 0:
            raise MoveError("nothing to undo: this is the start of the game")
        ply = self.ply - 1
        self.ply = ply
        info = self._h.pages[ply >> PAGE_SHIFT]
        o = (ply & PAGE_MASK) * _STRIDE + 2
        self.side = info[o]
        self.seg = info[o + 1]
        self.tower = info[o + 2] - 1
        self.blockade_pending = info[o + 3] - 1
        self.blockade_winner = info[o + 4] - 1
        self.score[0] = info[o + 5] | info[o + 6] << 8
        self.score[1] = info[o + 7] | info[o + 8] << 8
        for j in range(3, -1, -1):  # reverse order: a re-entry square may be the tower's
            c = info[o + 9 + 3 * j]
            if c != _NONE:
                self._put(c, info[o + 10 + 3 * j], info[o + 11 + 3 * j])

    # ------------------------------------------------------------ move notation (CN1)

    def move_text(self, m):
        """CN1: ``c3-d4``, ``d4:N``, ``e7:N+2@d2``, ``P@d8``."""
        g = self.geo
        k = m >> 9
        c = g.fi_cell[m & 63]
        d = (m >> 6) & 7
        if k >= K_PENALTY:
            return "P@" + cell_name(g.fi_cell[k - K_PENALTY])
        if k == K_STEP:
            return "%s-%s" % (cell_name(c), cell_name(g.nb[c * 8 + d]))
        if k == K_TOWER:
            return "%s:%s" % (cell_name(c), DIR_NAMES[d])
        s2 = g.nb[g.nb[c * 8 + d] * 8 + d]
        return "%s:%s+%d@%s" % (cell_name(c), DIR_NAMES[d], 2 if s2 % WIDTH == 4 else 1,
                                cell_name(g.fi_cell[k - 1]))

    def _field_cell(self, text, what):
        c = parse_cell(text, self.height)
        if c < 0:
            raise MoveError("'%s' is no square (%s, files a-i, ranks 1-%d)"
                            % (text, what, self.height))
        if self.geo.kind[c] != _FIELD:
            raise MoveError("%s (%s) is not a field square: the field is b2-h%d"
                            % (text, what, self.field + 1))
        return c

    def parse_move(self, text):
        """A segment from its CN1 text (geometry checked; legality is play()'s job)."""
        g = self.geo
        s = text.strip()
        if not s:
            raise MoveError("empty move: a segment is c3-d4, d4:N, e7:N+2@d2 or P@d8")
        if s[0] in "Pp":
            if len(s) == 1:
                raise MoveError("a penalty names where the bottom piece goes back: P@sq (CR2)")
            if s[1] != "@":
                raise MoveError("'%s': a penalty is written P@sq (CR2)" % s)
            r = self._field_cell(s[2:], "the re-entry square")
            t = self.tower if self.tower >= 0 else g.fi_cell[0]
            return g.cell_fi[t] | (K_PENALTY + g.cell_fi[r]) << 9
        dash = s.find("-")
        if dash > 0:
            a = self._field_cell(s[:dash], "the piece")
            b = self._field_cell(s[dash + 1:], "the step's square")
            for d in range(8):
                if g.nb[a * 8 + d] == b:
                    return g.cell_fi[a] | d << 6 | K_STEP << 9
            raise MoveError("a step goes to one of the 8 squares next to %s (CM2)" % s[:dash])
        colon = s.find(":")
        if colon <= 0:
            raise MoveError("'%s' is no segment: write c3-d4, d4:N, e7:N+2@d2 or P@d8" % s)
        t = self._field_cell(s[:colon], "the tower")
        rest = s[colon + 1:]
        j = 0
        while j < len(rest) and rest[j] in "NESW":
            j += 1
        dname = rest[:j]
        if dname not in DIR_NAMES:
            raise MoveError("%s: '%s' is no direction (N NE E SE S SW W NW)" % (s, dname))
        d = DIR_NAMES.index(dname)
        base = g.cell_fi[t] | d << 6
        tail = rest[j:]
        s1 = g.nb[t * 8 + d]
        s2 = g.nb[s1 * 8 + d] if s1 != _NONE else _NONE
        goal = _GOAL_N if self.side == LIGHT else _GOAL_S
        scoring = s2 != _NONE and g.kind[s1] == _FIELD and g.kind[s2] == goal
        if not tail:
            if scoring:
                raise MoveError("%s scores: write the points and the re-entry square, %s+%d@sq"
                                " (CN1, CR6)" % (s, s, self.goal_value(s2)))
            return base
        if not scoring:
            raise MoveError("%s: only a move whose top piece lands on the goal row %s"
                            " attacks scores (CS1)" % (s, _player_word(self.side)))
        if tail[0] != "+" or len(tail) < 4 or tail[2] != "@":
            raise MoveError("%s: a scoring move ends in +points@square, like %s:%s+%d@d2"
                            % (s, s[:colon], dname, self.goal_value(s2)))
        pts = parse_uint(tail[1], 1)
        if pts != self.goal_value(s2):
            raise MoveError("%s: the top piece lands on %s, worth %d, not %s (CB2)"
                            % (s, cell_name(s2), self.goal_value(s2), tail[1]))
        r = self._field_cell(tail[3:], "the re-entry square")
        return base | (1 + g.cell_fi[r]) << 9


def _parse_number(text, what, digits):
    v = parse_uint(text)
    if v < 0 or (len(text) > 1 and text[0] == "0"):
        raise PositionError("%s must be a whole number without sign or leading zeros, got"
                            " '%s' (CR7)" % (what, text))
    if v > MAX_SCORE or len(text) > digits:
        raise PositionError("%s is above %s (CN2)" % (what, "9" * digits))
    return v
