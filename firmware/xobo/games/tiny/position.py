"""The rules of the test game, three in a row on 3 x 3 (docs/rules/tiny.md, TB1-TN2).

The whole state of the game interface (docs/games.md) in its simplest form: a move is the
cell it fills (0-8, ``cell = rank * 3 + file``, a1 = 0), the pieces are identical on the
board so the owners come from the moves played (``owner``), and the history makes undo exact.

Usage::

    >>> from xobo.games.tiny.position import Position, new_move_buffer
    >>> pos = Position.parse("x.o/.x./... o")   # ranks from the top, then the side to move
    >>> buf = new_move_buffer()
    >>> n = pos.legal_moves(buf)                 # 6 empty cells, no allocation
    >>> pos.apply(pos.parse_move("c1"))          # o blocks the diagonal
    >>> pos.to_string()                          # "x.o/.x./..o x"
    'x.o/.x./..o x'
"""

import array

from xobo.compat import const
from xobo.errors import MoveError, PositionError
from xobo.gamekit import GamePosition

N_CELLS = const(9)
MAX_MOVES = const(9)  # at most every cell is empty
MAX_PLIES = const(9)  # the longest game: every move fills a cell
SAVED_MOVE_CHARS = const(2)  # a move in a save: its cell, 'a1'
FOOTPRINT_MAX = const(1)  # a move fills one cell and empties none
PLAYER_NAMES = ("x", "o")
FILES = "abc"
# TE1: the eight lines, three cells each (three ranks, three files, two diagonals)
LINES = bytes((0, 1, 2, 3, 4, 5, 6, 7, 8,
               0, 3, 6, 1, 4, 7, 2, 5, 8,
               0, 4, 8, 2, 4, 6))


def new_move_buffer():
    return array.array("H", bytes(2 * MAX_MOVES))


def cell_name(c):
    return FILES[c % 3] + str(c // 3 + 1)


class Position(GamePosition):
    """Owners of the nine cells, the side to move and the moves that led here."""

    max_moves = MAX_MOVES  # the length of its move buffers (xobo.gamekit)
    n_players = 2
    n_cells = N_CELLS
    puts_onto_pieces = False  # for the board: a move never puts a piece onto a piece
    width = 3
    height = 3
    used = b"\x01" * N_CELLS  # every cell of the 3 x 3 is part of the game

    def __init__(self, first=0):
        self.heights = bytearray(N_CELLS)  # 1 where a piece stands (TB2: one piece a cell)
        self.owner = bytearray(N_CELLS)  # 0 empty, 1 x, 2 o
        self.side = first
        self.ply = 0
        self._hist = array.array("H", bytes(2 * N_CELLS))  # no game is longer than 9 moves

    # ----------------------------------------------------------------- notation (TN1-TN2)

    @staticmethod
    def parse(text):
        """A position from TN2 notation (``x.o/.x./... x``); PositionError says what is wrong."""
        parts = text.split()
        if len(parts) != 2:
            raise PositionError("a position has 2 fields (board, side to move), got %d: '%s'"
                                % (len(parts), text.strip()))
        ranks = parts[0].split("/")
        if len(ranks) != 3:
            raise PositionError("the board has 3 ranks separated by '/', got %d" % len(ranks))
        if parts[1] not in PLAYER_NAMES:
            raise PositionError("the side to move must be 'x' or 'o', got '%s'" % parts[1])
        pos = Position(PLAYER_NAMES.index(parts[1]))
        count = [0, 0]
        for i in range(3):
            row = ranks[i]
            rank = 3 - i
            if len(row) != 3:
                raise PositionError("rank %d has %d cells, expected 3: '%s'"
                                    % (rank, len(row), row))
            for f in range(3):
                ch = row[f]
                if ch == ".":
                    continue
                c = (rank - 1) * 3 + f
                if ch not in PLAYER_NAMES:
                    raise PositionError("%s: '%s' is not a piece: write x, o or '.' (empty)"
                                        % (cell_name(c), ch))
                p = PLAYER_NAMES.index(ch)
                pos.owner[c] = p + 1
                pos.heights[c] = 1
                count[p] += 1
        pos._check_reachable(count)
        return pos

    def _check_reachable(self, count):
        """TM2, TE1: the players alternate, and the game stops at the first line."""
        if count[0] > count[1] + 1 or count[1] > count[0] + 1:
            raise PositionError("x has %d pieces and o %d: the players take turns, so the "
                                "counts differ by one at most (TM2)" % (count[0], count[1]))
        for p in (0, 1):
            if count[p] > count[p ^ 1] and self.side == p:
                raise PositionError("%s has more pieces than %s, so %s is to move, not %s (TM2)"
                                    % (PLAYER_NAMES[p], PLAYER_NAMES[p ^ 1],
                                       PLAYER_NAMES[p ^ 1], PLAYER_NAMES[p]))
        x_line = self._has_line(1)
        o_line = self._has_line(2)
        if x_line and o_line:
            raise PositionError("x and o both have three in a row: the game ends at the "
                                "first line (TE1)")
        for p in (0, 1):
            if (x_line, o_line)[p] and self.side == p:
                raise PositionError("%s has three in a row but is to move: the game ended when "
                                    "%s made it (TE1)" % (PLAYER_NAMES[p], PLAYER_NAMES[p]))

    def to_string(self):
        """The TN2 notation: ranks from the top (rank 3), then the side to move."""
        rows = []
        for rank in (2, 1, 0):
            row = ""
            for f in range(3):
                row += ".xo"[self.owner[rank * 3 + f]]
            rows.append(row)
        return "%s %s" % ("/".join(rows), PLAYER_NAMES[self.side])

    def move_text(self, m):
        """TN1: the move's cell, ``b2``."""
        return cell_name(m)

    def parse_move(self, text):
        """The move that TN1 ``text`` names, legal here; MoveError says what is wrong."""
        t = text.strip()
        if not t:
            raise MoveError("empty move: write a cell, a1 to c3")
        if len(t) != 2 or t[0] not in FILES or t[1] not in "123":
            raise MoveError("'%s' is not a cell: write a file a-c and a rank 1-3, like b2" % t)
        m = (ord(t[1]) - 49) * 3 + FILES.index(t[0])
        why = self.why_illegal(m)
        if why is not None:
            raise MoveError(why)
        return m

    # ----------------------------------------------------------------- result (TE1-TE2)

    def _has_line(self, code):
        o = self.owner
        for i in range(0, 24, 3):
            if o[LINES[i]] == code and o[LINES[i + 1]] == code and o[LINES[i + 2]] == code:
                return True
        return False

    def winner(self):
        """TE1: the player with three in a row, -1 while nobody has (and for a draw)."""
        o = self.owner
        for i in range(0, 24, 3):
            v = o[LINES[i]]
            if v and o[LINES[i + 1]] == v and o[LINES[i + 2]] == v:
                return v - 1
        return -1

    def is_full(self):
        h = self.heights
        for c in range(N_CELLS):
            if not h[c]:
                return False
        return True

    def is_terminal(self):
        """TE1 a line, or TE2 a full board (a draw)."""
        return self.winner() >= 0 or self.is_full()

    def returns(self):
        """(x, o): +1 for the winner and -1 for the loser; (0, 0) for a draw or a game on."""
        w = self.winner()
        if w < 0:
            return (0, 0)
        return (1, -1) if w == 0 else (-1, 1)

    # ----------------------------------------------------------------- moves (TM1-TM2)

    def legal_moves(self, buf):
        """TM1: fill ``buf`` with the empty cells, none once the game is over; return how
        many. No allocation."""
        if self.winner() >= 0:
            return 0
        h = self.heights
        n = 0
        for c in range(N_CELLS):
            if not h[c]:
                buf[n] = c
                n += 1
        return n

    def why_illegal(self, m):
        """None if m is legal here, else a sentence saying why not."""
        if not isinstance(m, int) or m < 0 or m >= N_CELLS:
            return "%r is no move: a move is a cell, 0-8" % (m,)
        w = self.winner()
        if w >= 0:
            return "the game is over: %s has three in a row" % PLAYER_NAMES[w]
        if self.heights[m]:
            return "%s is taken (by %s)" % (cell_name(m), PLAYER_NAMES[self.owner[m] - 1])
        return None

    # ----------------------------------------------------------------- apply / undo

    def apply(self, m):
        """Play m for the side to move, trusting that it is legal (see play)."""
        self.owner[m] = self.side + 1
        self.heights[m] = 1
        self._hist[self.ply] = m
        self.ply += 1
        self.side ^= 1

    def undo(self):
        """Take back the last move exactly."""
        if self.ply == 0:
            raise MoveError("nothing to undo: this is the start of the game")
        self.ply -= 1
        m = self._hist[self.ply]
        self.owner[m] = 0
        self.heights[m] = 0
        self.side ^= 1

    def clone(self):
        """A copy with the same state and history (undo works on it too)."""
        p = Position(self.side)
        p.heights[:] = self.heights
        p.owner[:] = self.owner
        p.ply = self.ply
        p._hist[:] = self._hist
        return p

    def move_at(self, ply):
        """The move played at ``ply`` (0 <= ply < self.ply)."""
        return self._hist[ply]

    # ----------------------------------------------------------------- for the board

    def occupancy(self, out):
        h = self.heights
        for c in range(N_CELLS):
            out[c] = 1 if h[c] else 0

    def footprint(self, m, lifted, added):
        """A placement fills its cell and empties none."""
        added[0] = m
        return 0, 1

    def touch_cell(self, m):
        # two placements never share a footprint: nothing to choose by touch
        return -1
