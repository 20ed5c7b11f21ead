"""X (Mark Steere): the position, its moves, the corners and the result (docs/rules/x.md).

A rhombus of ``n x n`` hexagonal cells (XB1, n = 4-9), cell ``r * n + q`` (file q, rank r,
a1 = 0, XB2). A move is the cell it fills (XM1), so moves are the cell numbers 0 .. n*n-1.
The state is flat: ``owner`` (a bytearray, 0 empty, 1 + player), ``heights`` (0/1, what the
switches see), the side to move and the history (an ``array('H')`` sized once for the board).

The corners are computed by one labelling pass over the groups (XS1), which keeps for each
group the lowest and highest coordinate it reaches on each of the four edges; the pass is cached
until the next move, and everything that reads corners (owners, settled, score, winner) uses it.

Corners are numbered SW = 0, SE = 1, NW = 2, NE = 3 (CORNER_NAMES). For each corner, edge A is
the South or North edge (the rank edge) and edge B the West or East one (XB4):
SW: A South, B West; SE: A South, B East; NW: A North, B West; NE: A North, B East.

Usage::

    >>> from xobo.games.x.rules import Position, new_move_buffer
    >>> pos = Position(8)                # the empty 8 x 8 rhombus, red to move
    >>> buf = new_move_buffer()
    >>> n = pos.legal_moves(buf)         # 64
    >>> pos.apply(pos.parse_move("d5")); pos.undo()
    >>> pos.corner_owner(0)              # SW: -1 (open), else the player who wins it (XS2)
    -1
"""

import array

from xobo.compat import const
from xobo.errors import MoveError, PositionError
from xobo.gamekit import GamePosition

MIN_SIZE = const(4)
MAX_SIZE = const(9)
DEFAULT_SIZE = const(8)
MAX_MOVES = const(81)  # every empty cell of the largest board
MAX_PLIES = const(81)  # the longest game: every move fills a cell (XM1), 9 x 9 at most
SAVED_MOVE_CHARS = const(2)  # a move in a save: its cell, 'a1'
FOOTPRINT_MAX = const(1)
N_PLAYERS = const(3)
PLAYER_LETTERS = "ryg"
_OWNER_BYTES = b".ryg"  # a cell's owner (0: nobody) as written in a position
PLAYER_WORDS = ("Red", "Yellow", "Green")
CORNER_NAMES = ("SW", "SE", "NW", "NE")
FILES = "abcdefghi"

# the edges (XB4), as indices into a group's extents: 2 bytes each, (lowest, highest) of the
# coordinate that runs along the edge (q on South/North, r on West/East)
EDGE_S = const(0)
EDGE_W = const(1)
EDGE_N = const(2)
EDGE_E = const(3)
_NONE = const(255)  # lowest coordinate of an edge a group does not touch
# per corner: edge A, edge B
_CORNER_A = (EDGE_S, EDGE_S, EDGE_N, EDGE_N)
_CORNER_B = (EDGE_W, EDGE_E, EDGE_W, EDGE_E)


def new_move_buffer():
    """A buffer for :meth:`Position.legal_moves` (MAX_MOVES moves)."""
    return array.array("H", bytes(2 * MAX_MOVES))


# ------------------------------------------------------------------------------- geometry

_GEOMETRY = {}


def geometry(n):
    """(neighbours, counts) for size n: the XB3 neighbours of cell c are
    ``neighbours[6 * c : 6 * c + counts[c]]``; made once per size and shared."""
    g = _GEOMETRY.get(n)
    if g is None:
        nb = bytearray(6 * n * n)
        cnt = bytearray(n * n)
        # XB3: (q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1)
        steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
        for r in range(n):
            for q in range(n):
                c = r * n + q
                k = 0
                for dq, dr in steps:
                    qq = q + dq
                    rr = r + dr
                    if 0 <= qq < n and 0 <= rr < n:
                        nb[6 * c + k] = rr * n + qq
                        k += 1
                cnt[c] = k
        g = (bytes(nb), bytes(cnt))
        _GEOMETRY[n] = g
    return g


def cell_name(c, n):
    return "%s%d" % (FILES[c % n], c // n + 1)


def parse_cell(text, n):
    """The cell of ``text`` (``d5``) on an n x n board; MoveError saying what is wrong."""
    t = text.strip()
    if len(t) < 2 or len(t) > 3:
        raise MoveError("'%s' is not a cell: write a file letter and a rank, like d5 (XN1)" % t)
    f = FILES.find(t[0].lower()) if t[0].isalpha() else -1
    digits = t[1:]
    rank = 0
    for ch in digits:
        if ch < "0" or ch > "9":
            rank = -1
            break
        rank = rank * 10 + ord(ch) - 48
    if f < 0 or rank <= 0 or digits[0] == "0":
        raise MoveError("'%s' is not a cell: write a file letter and a rank, like d5 (XN1)" % t)
    if f >= n or rank > n:
        raise MoveError("%s is off the %d x %d board (files a-%s, ranks 1-%d, XB2)"
                        % (t, n, n, FILES[n - 1], n))
    return (rank - 1) * n + f


def corner_cell(corner, n):
    """The cell of corner 0 SW, 1 SE, 2 NW, 3 NE on an n x n board (XB4)."""
    return (0, n - 1, (n - 1) * n, n * n - 1)[corner]


def player_order(first):
    """The three players in playing order from ``first`` (XM2)."""
    return (first, (first + 1) % 3, (first + 2) % 3)


# ------------------------------------------------------------------------------- position

_C_LABELS = const(1)
_C_CORNERS = const(2)


class Position(GamePosition):
    """An X position: the owner of each cell, the side to move, and the moves that led here."""

    max_moves = MAX_MOVES  # the length of its move buffers (xobo.gamekit)
    puts_onto_pieces = False  # for the board: a move never puts a piece onto a piece

    def __init__(self, size=DEFAULT_SIZE, first=0):
        if size < MIN_SIZE or size > MAX_SIZE:
            raise PositionError("the board size must be %d-%d, not %d (XB1)"
                                % (MIN_SIZE, MAX_SIZE, size))
        if first < 0 or first > 2:
            raise PositionError("the first player must be 0-2 (red, yellow, green), not %d"
                                % first)
        n = size
        nc = n * n
        self.size = n
        self.width = n
        self.height = n
        self.n_cells = nc
        self.n_players = N_PLAYERS
        self.first = first  # who moved first: fixes the counts that are possible (XN2)
        self.side = first
        self.ply = 0  # moves applied since this position was made or parsed
        self.filled = 0
        self.owner = bytearray(nc)  # 0 empty, 1 + player
        self.heights = bytearray(nc)  # the switches' view: 1 where a piece stands
        self.used = bytes(b"\x01" * nc)
        self.counts = bytearray(3)  # pieces of each player on the board
        self._nb, self._nbc = geometry(n)
        self._hist = array.array("H", bytes(2 * nc))
        # scratch, preallocated once: group labels, extents per group (8 bytes: lo/hi on
        # S, W, N, E), a flood stack, a mark array for XS4
        self._label = bytearray(nc)
        self._ext = bytearray(8 * (nc + 1))
        self._gcol = bytearray(nc + 1)  # colour (1 + player) of group k
        self._stack = bytearray(nc)
        self._mark = bytearray(nc)
        self._mark2 = bytearray(nc)
        self._ngroups = 0
        self._corner_owner = bytearray(4)  # 0 open, else 1 + player
        self._corner_group = bytearray(4)  # the label of the winning candidate
        self._cache = 0

    # --------------------------------------------------------------- construction, notation

    @staticmethod
    def parse(text, first=0):
        """A position from its XN2 string; PositionError says what is wrong.

        The side to move may be left out: it follows from the piece counts (XN2)."""
        parts = text.split()
        if not parts:
            raise PositionError("empty position: expected n ranks of n cells separated by '/'"
                                " and the side to move (XN2)")
        if len(parts) > 2:
            raise PositionError("a position is the board and the side to move (XN2), got %d"
                                " fields: '%s'" % (len(parts), text.strip()))
        ranks = parts[0].split("/")
        n = len(ranks[0])
        for i in range(len(ranks)):
            if len(ranks[i]) != n:
                raise PositionError(
                    "rank %d has %d cells but rank %d has %d: every rank needs the same"
                    " length (XN2)" % (len(ranks) - i, len(ranks[i]), len(ranks), n))
        if n < MIN_SIZE or n > MAX_SIZE:
            raise PositionError("ranks of %d cells: the board size must be %d-%d (XB1, XN2)"
                                % (n, MIN_SIZE, MAX_SIZE))
        if len(ranks) != n:
            raise PositionError("a rhombus of %d cells a side needs %d ranks, got %d (XN2)"
                                % (n, n, len(ranks)))
        pos = Position(n, first)
        for i in range(n):
            row = ranks[i]
            r = n - 1 - i
            for q in range(n):
                ch = row[q]
                if ch == ".":
                    continue
                p = PLAYER_LETTERS.find(ch)
                if p < 0:
                    raise PositionError("%s: '%s' is not a cell: use '.', 'r', 'y' or 'g' (XN2)"
                                        % (cell_name(r * n + q, n), ch))
                c = r * n + q
                pos.owner[c] = p + 1
                pos.heights[c] = 1
                pos.counts[p] += 1
                pos.filled += 1
        order = player_order(first)
        c0 = pos.counts[order[0]]
        c1 = pos.counts[order[1]]
        c2 = pos.counts[order[2]]
        if not (c0 >= c1 >= c2 >= c0 - 1):
            names = [PLAYER_LETTERS[p] for p in order]
            raise PositionError(
                "impossible piece counts %s=%d %s=%d %s=%d: with %s first they must be"
                " #%s >= #%s >= #%s >= #%s - 1 (XN2)"
                % (names[0], c0, names[1], c1, names[2], c2, PLAYER_WORDS[first].lower(),
                   names[0], names[1], names[2], names[0]))
        side = order[pos.filled % 3]
        if len(parts) == 2:
            s = parts[1]
            p = PLAYER_LETTERS.find(s) if len(s) == 1 else -1
            if p < 0:
                raise PositionError("the side to move must be 'r', 'y' or 'g', not '%s' (XN2)"
                                    % s)
            if p != side:
                raise PositionError(
                    "'%s' cannot be to move: with %d pieces on the board and %s first, %s"
                    " moves (XN2, XM2)" % (s, pos.filled, PLAYER_WORDS[first].lower(),
                                           PLAYER_WORDS[side].lower()))
        pos.side = side
        return pos

    def to_string(self):
        """The XN2 string, side to move included."""
        # written into one buffer byte by byte, not by adding strings (a new string for
        # every cell): the conformance suite writes it for every move it tries
        n = self.size
        owner = self.owner
        out = bytearray(n * (n + 1) - 1)
        o = 0
        for r in range(n - 1, -1, -1):
            for c in range(r * n, r * n + n):
                out[o] = _OWNER_BYTES[owner[c]]
                o += 1
            if r:
                out[o] = 47  # "/"
                o += 1
        return "%s %s" % (str(out, "ascii"), PLAYER_LETTERS[self.side])

    def __eq__(self, other):
        return (isinstance(other, Position) and self.size == other.size
                and self.owner == other.owner and self.side == other.side
                and self.first == other.first)

    def clone(self):
        """A copy with the same state and history (undo works on it too)."""
        p = Position(self.size, self.first)
        p.side = self.side
        p.ply = self.ply
        p.filled = self.filled
        p.owner[:] = self.owner
        p.heights[:] = self.heights
        p.counts[:] = self.counts
        for i in range(self.ply):
            p._hist[i] = self._hist[i]
        return p

    def move_at(self, ply):
        """The move played at ``ply`` (0 <= ply < self.ply)."""
        return self._hist[ply]

    def move_text(self, m):
        """XN1: the cell, ``d5``."""
        return cell_name(m, self.size)

    def parse_move(self, text):
        """The move written ``text`` (XN1); MoveError says why it is no move here."""
        m = parse_cell(text, self.size)
        why = self.why_illegal(m)
        if why is not None:
            raise MoveError(why)
        return m

    # --------------------------------------------------------------- moves (XM1, XM2)

    def legal_moves(self, buf):
        """Fill ``buf`` (MAX_MOVES long) with the empty cells (XM1); return how many. No
        allocation."""
        own = self.owner
        k = 0
        for c in range(self.n_cells):
            if own[c] == 0:
                buf[k] = c
                k += 1
        return k

    def why_illegal(self, m):
        """None if ``m`` is legal here, else why not (for players and hosts)."""
        if m < 0 or m >= self.n_cells:
            return "move %d is no cell of the %d x %d board" % (m, self.size, self.size)
        if self.owner[m]:
            return "%s is taken by %s: a piece goes on an empty cell (XM1)" % (
                cell_name(m, self.size), PLAYER_WORDS[self.owner[m] - 1])
        return None

    def apply(self, m):
        """Put a piece of the side to move on cell ``m`` (trusted: see play)."""
        s = self.side
        self.owner[m] = s + 1
        self.heights[m] = 1
        self.counts[s] += 1
        self.filled += 1
        self._hist[self.ply] = m
        self.ply += 1
        self.side = s + 1 if s < 2 else 0  # XM2
        self._cache = 0

    def undo(self):
        """Take back the last move exactly."""
        if self.ply == 0:
            raise MoveError("nothing to undo: this is the start of the game")
        self.ply -= 1
        m = self._hist[self.ply]
        s = self.owner[m] - 1
        self.owner[m] = 0
        self.heights[m] = 0
        self.counts[s] -= 1
        self.filled -= 1
        self.side = s
        self._cache = 0

    # --------------------------------------------------------------- for the board

    def occupancy(self, out):
        h = self.heights
        for c in range(self.n_cells):
            out[c] = h[c]

    def footprint(self, m, lifted, added):
        """A move fills its cell and empties none: L = {}, A = {m}."""
        added[0] = m
        return 0, 1

    def touch_cell(self, m):
        return -1

    def neighbours(self, c, out):
        """XB3: write the hex neighbours of cell ``c`` into ``out``; return how many (2-6)."""
        k = self._nbc[c]
        base = 6 * c
        for i in range(k):
            out[i] = self._nb[base + i]
        return k

    # --------------------------------------------------------------- groups (XS1)

    def _labels(self):
        """Label the groups (XS1) and record, per group, its extents on the four edges."""
        if self._cache & _C_LABELS:
            return
        n = self.size
        last = n - 1
        own = self.owner
        lab = self._label
        ext = self._ext
        st = self._stack
        nb = self._nb
        nbc = self._nbc
        gcol = self._gcol
        for c in range(self.n_cells):
            lab[c] = 0
        k = 0
        for c in range(self.n_cells):
            col = own[c]
            if col == 0 or lab[c]:
                continue
            k += 1
            gcol[k] = col
            e = 8 * k
            for i in range(0, 8, 2):
                ext[e + i] = _NONE
                ext[e + i + 1] = 0
            lab[c] = k
            st[0] = c
            sp = 1
            while sp:
                sp -= 1
                x = st[sp]
                r = x // n
                q = x - r * n
                if r == 0:
                    if q < ext[e]:
                        ext[e] = q
                    if q > ext[e + 1]:
                        ext[e + 1] = q
                if r == last:
                    if q < ext[e + 4]:
                        ext[e + 4] = q
                    if q > ext[e + 5]:
                        ext[e + 5] = q
                if q == 0:
                    if r < ext[e + 2]:
                        ext[e + 2] = r
                    if r > ext[e + 3]:
                        ext[e + 3] = r
                if q == last:
                    if r < ext[e + 6]:
                        ext[e + 6] = r
                    if r > ext[e + 7]:
                        ext[e + 7] = r
                for j in range(6 * x, 6 * x + nbc[x]):
                    y = nb[j]
                    if own[y] == col and not lab[y]:
                        lab[y] = k
                        st[sp] = y
                        sp += 1
        self._ngroups = k
        self._cache |= _C_LABELS

    def _reach(self, k, corner, edge_b):
        """Distance from ``corner`` of group k's farthest cell on its edge A (or B); -1 when
        the group is no candidate for the corner (XS1, XS2)."""
        ext = self._ext
        e = 8 * k
        a = _CORNER_A[corner]
        b = _CORNER_B[corner]
        if ext[e + 2 * a] == _NONE or ext[e + 2 * b] == _NONE:
            return -1
        last = self.size - 1
        edge = b if edge_b else a
        # along S and N the coordinate is q, along W and E it is r; the corner sits at 0 on
        # the West/South side, at n-1 on the East/North side
        if edge == EDGE_S or edge == EDGE_N:
            far_at_zero = corner == 1 or corner == 3  # SE, NE: the corner is at q = n-1
        else:
            far_at_zero = corner == 2 or corner == 3  # NW, NE: the corner is at r = n-1
        if far_at_zero:
            return last - ext[e + 2 * edge]
        return ext[e + 2 * edge + 1]

    def _corners(self):
        if self._cache & _C_CORNERS:
            return
        self._labels()
        for corner in range(4):
            best = -1
            bk = 0
            for k in range(1, self._ngroups + 1):
                d = self._reach(k, corner, False)
                if d > best:
                    best = d
                    bk = k
            self._corner_group[corner] = bk
            self._corner_owner[corner] = self._gcol[bk] if bk else 0
        self._cache |= _C_CORNERS

    # --------------------------------------------------------------- corners (XS2-XS4)

    def corner_owner(self, corner):
        """XS2: the player who wins ``corner`` (0 SW, 1 SE, 2 NW, 3 NE) now, -1 when it is
        open (XS3)."""
        self._corners()
        return self._corner_owner[corner] - 1

    def corner_owner_by_edge_b(self, corner):
        """XS2 measured along edge B instead of A (the same owner: checked by the tests)."""
        self._labels()
        best = -1
        bk = 0
        for k in range(1, self._ngroups + 1):
            d = self._reach(k, corner, True)
            if d > best:
                best = d
                bk = k
        return self._gcol[bk] - 1 if bk else -1

    def corner_cells(self, corner, out):
        """Mark with 1 in bytearray ``out`` (n_cells) the cells of the group that wins
        ``corner`` (0 elsewhere); return how many (0: the corner is open)."""
        self._corners()
        k = self._corner_group[corner]
        lab = self._label
        cnt = 0
        for c in range(self.n_cells):
            if k and lab[c] == k:
                out[c] = 1
                cnt += 1
            else:
                out[c] = 0
        return cnt

    def corner_chain(self, corner):
        """The chain that wins ``corner``: a shortest path inside the winning group from its
        farthest cell on edge A to its farthest cell on edge B (a list of cells; [] when
        open). Allocates: for the display, not for the search."""
        self._corners()
        k = self._corner_group[corner]
        if not k:
            return []
        start = self._edge_cell(k, corner, False)
        goal = self._edge_cell(k, corner, True)
        lab = self._label
        prev = [-2] * self.n_cells
        prev[start] = -1
        queue = [start]
        i = 0
        while i < len(queue):
            x = queue[i]
            i += 1
            if x == goal:
                break
            for j in range(6 * x, 6 * x + self._nbc[x]):
                y = self._nb[j]
                if lab[y] == k and prev[y] == -2:
                    prev[y] = x
                    queue.append(y)
        chain = []
        x = goal
        while x >= 0:
            chain.append(x)
            x = prev[x]
        chain.reverse()
        return chain

    def _edge_cell(self, k, corner, edge_b):
        """Group k's cell on edge A (or B) of ``corner`` farthest from the corner."""
        d = self._reach(k, corner, edge_b)
        last = self.size - 1
        n = self.size
        edge = _CORNER_B[corner] if edge_b else _CORNER_A[corner]
        if edge == EDGE_S or edge == EDGE_N:
            q = last - d if corner in (1, 3) else d
            r = 0 if edge == EDGE_S else last
        else:
            r = last - d if corner in (2, 3) else d
            q = 0 if edge == EDGE_W else last
        return r * n + q

    def _edge_distance(self, c, corner, edge):
        """Distance of cell c from ``corner`` along ``edge`` (A or B of the corner), -1 when c
        is not on that edge."""
        n = self.size
        last = n - 1
        r = c // n
        q = c - r * n
        if edge == EDGE_S or edge == EDGE_N:
            if r != (0 if edge == EDGE_S else last):
                return -1
            return last - q if corner in (1, 3) else q
        if q != (0 if edge == EDGE_W else last):
            return -1
        return last - r if corner in (2, 3) else r

    def corner_settled(self, corner):
        """XS4: ``corner`` is won and no other player can ever win it from its owner."""
        self._corners()
        k = self._corner_group[corner]
        if not k:
            return False
        owner = self._gcol[k]
        a = _CORNER_A[corner]
        b = _CORNER_B[corner]
        da = self._reach(k, corner, False)
        db = self._reach(k, corner, True)
        n = self.size
        last = n - 1
        lab = self._label
        own = self.owner
        nb = self._nb
        nbc = self._nbc
        st = self._stack
        far = self._mark  # F: reachable from the far border without entering the group
        for c in range(self.n_cells):
            far[c] = 0
        sp = 0
        for c in range(self.n_cells):
            if lab[c] == k:
                continue
            r = c // n
            q = c - r * n
            if r != 0 and r != last and q != 0 and q != last:
                continue
            dA = self._edge_distance(c, corner, a)
            dB = self._edge_distance(c, corner, b)
            if (dA < 0 and dB < 0) or dA > da or dB > db:
                far[c] = 1
                st[sp] = c
                sp += 1
        while sp:
            sp -= 1
            x = st[sp]
            for j in range(6 * x, 6 * x + nbc[x]):
                y = nb[j]
                if not far[y] and lab[y] != k:
                    far[y] = 1
                    st[sp] = y
                    sp += 1
        seen = self._mark2
        for x_col in range(1, 4):
            if x_col == owner:
                continue
            for c in range(self.n_cells):
                seen[c] = 0
            sp = 0
            for c in range(self.n_cells):
                v = own[c]
                if far[c] and (v == 0 or v == x_col) and self._edge_distance(c, corner, a) > da:
                    seen[c] = 1
                    st[sp] = c
                    sp += 1
            while sp:
                sp -= 1
                x = st[sp]
                if self._edge_distance(x, corner, b) >= 0:
                    return False  # X can still join A to B beyond the group
                for j in range(6 * x, 6 * x + nbc[x]):
                    y = nb[j]
                    v = own[y]
                    if far[y] and not seen[y] and (v == 0 or v == x_col):
                        seen[y] = 1
                        st[sp] = y
                        sp += 1
        return True

    # --------------------------------------------------------------- score, end (XE1, XE2)

    def scores(self, out):
        """XE2: corners won by each player now, into ``out`` (3 long)."""
        self._corners()
        out[0] = out[1] = out[2] = 0
        for corner in range(4):
            v = self._corner_owner[corner]
            if v:
                out[v - 1] += 1
        return out

    def is_terminal(self):
        """XE1: the game ends when the board is full."""
        return self.filled >= self.n_cells

    def winner(self):
        """-1 while the game goes on (XE1), else the player with the unique highest score
        (XE2: in 2-2-0 the player with 0)."""
        if self.filled < self.n_cells:
            return -1
        return unique_max_player(self.scores(bytearray(3)))

    def returns(self):
        """OpenSpiel style: +1 for the winner, -1 for the others once over; zeros before."""
        w = self.winner()
        if w < 0:
            return (0, 0, 0)
        return tuple(1 if p == w else -1 for p in range(3))


def unique_max_player(scores):
    """XE2: the player holding the highest score that no one else holds; -1 if none."""
    best = -1
    who = -1
    for p in range(3):
        s = scores[p]
        unique = True
        for o in range(3):
            if o != p and scores[o] == s:
                unique = False
        if unique and s > best:
            best = s
            who = p
    return who
