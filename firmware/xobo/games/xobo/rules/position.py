"""A XoBo position and the rules that act on it (M1-M4, V1-V4, E1-E4).

The state is small and flat so that it costs nothing to keep on the Pico: heights in a
``bytearray(81)``, the reserves as small ints, the side to move, and a history of the moves
applied (``xobo.gamekit``: pages, never one block that grows) so that :meth:`Position.undo`
restores the position exactly. A game keeps at most ``MAX_PLIES`` moves (the rules know no
draw, E5: the board's cap, docs/rules/xobo.md).
Connectivity comes from one labelling pass over the singles with edge flags per component,
cached until the next move: the result, the threats and the Voina cells all read it.

Usage::

    >>> from xobo.games.xobo.rules.position import Position
    >>> from xobo.games.xobo.rules.moves import new_move_buffer
    >>> pos = Position.parse("........./........./........./........./........./"
    ...                      "........./........./........./......... ns 36 0 0")
    >>> buf = new_move_buffer()
    >>> n = pos.legal_moves(buf)      # 81 placements
    >>> pos.apply(buf[0]); pos.undo()
"""


from xobo.compat import const
from xobo.errors import MoveError, PositionError
from xobo.gamekit import PAGE_MASK, PAGE_SHIFT, GamePosition, History
from xobo.games.xobo.rules.geometry import (
    EDGES,
    EW,
    MAXREACH,
    N_CELLS,
    NEIGHBOUR_CELLS,
    NEIGHBOUR_COUNT,
    NS,
    PLAYER_EDGES,
    RAY_CELLS,
    REACH,
)
from xobo.games.xobo.rules.moves import (
    MAX_MOVES,
    PLACE,
    REGROUP,
    SPREAD,
    make_regroup,
    make_spread,
    new_move_buffer,
)
from xobo.numbers import parse_uint

TOTAL_CUBES = const(36)
VARIANTS = ("xobo", "kv")
# The most cells one move empties or fills (docs/games.md): a spread of 8 lifts its source and
# up to 8 captured singles; a regroup of 9 lifts 8 cells.
FOOTPRINT_MAX = const(9)
# the longest game the board keeps (E5: the rules know no draw); a save is bounded by it
MAX_PLIES = const(1000)
SAVED_MOVE_CHARS = const(6)  # a move in a save: 'a4->c4'
_SEARCH_PLIES = const(64)  # the history's room past MAX_PLIES for the computer's search

# Cache bits: what is known about the current position.
_C_LABELS = const(1)
_C_THREAT_NS = const(2)  # _threat[0] is valid
_C_THREAT_EW = const(4)  # _threat[1] is valid
_ONE_CUBE = const(1 << 12)  # a placement's count field (moves.make_place: PLACE is 0)


class Position(GamePosition):
    """A XoBo position: heights, reserves, side to move, variant, and the moves that led here."""

    # the game interface's shape of the state (docs/games.md): the same for every position
    max_moves = MAX_MOVES  # the length of its move buffers (xobo.gamekit)
    n_players = 2
    n_cells = N_CELLS
    width = 9
    height = 9
    used = b"\x01" * N_CELLS  # every cell of the 9 x 9 is part of the game

    def __init__(self, variant="xobo", first=NS):
        if variant not in VARIANTS:
            raise PositionError("unknown variant '%s': use xobo or kv" % variant)
        self.variant = variant
        self._kv = variant == "kv"
        self.heights = bytearray(N_CELLS)
        self.side = first
        self.common = TOTAL_CUBES
        self.own = bytearray(2)
        self.ply = 0
        # a ply's record: the move (2 bytes), 1 when that placement came from own reserve
        self._h = History(3, MAX_PLIES + _SEARCH_PLIES)
        # scratch, preallocated once
        self._label = bytearray(N_CELLS)
        self._cflags = bytearray(N_CELLS + 1)  # edge flags of component k
        self._stack = bytearray(N_CELLS)
        self._conn = 0  # bit p: player p's edges are connected
        self._cache = 0
        self._threat = bytearray(2)
        self._buf = None  # lazily made move buffer for the exhaustion test (E4)
        self._tbuf = None  # lazily made move buffer for kv Voina spreads (V1)

    # ----------------------------------------------------------------- construction

    @staticmethod
    def parse(text, variant="xobo"):
        """Parse an N3 position string; raise PositionError saying what is wrong."""
        pos = Position(variant)
        parts = text.split()
        if len(parts) != 5:
            raise PositionError(
                "a position has 5 fields (board, side, common, own NS, own EW), got %d: '%s'"
                % (len(parts), text.strip())
            )
        ranks = parts[0].split("/")
        if len(ranks) != 9:
            raise PositionError("the board has 9 ranks separated by '/', got %d" % len(ranks))
        h = pos.heights
        on_board = 0
        for i in range(9):
            row = ranks[i]
            rank = 9 - i
            if len(row) != 9:
                raise PositionError(
                    "rank %d has %d cells, expected 9: '%s'" % (rank, len(row), row)
                )
            for f in range(9):
                ch = row[f]
                cell = "abcdefghi"[f] + str(rank)
                if ch == ".":
                    continue
                if ch == "2":
                    raise PositionError(
                        "%s holds 2 cubes: no cell can hold exactly 2 after a move (B6, M4)"
                        % cell
                    )
                if ch == "0":
                    raise PositionError("%s: write an empty cell as '.', not '0'" % cell)
                if ch == "9":
                    raise PositionError("%s holds 9 cubes: the highest stack is 8" % cell)
                if ch < "1" or ch > "9":
                    raise PositionError(
                        "%s: '%s' is not a height: use '.' or 1 and 3-8" % (cell, ch)
                    )
                v = ord(ch) - 48
                h[(rank - 1) * 9 + f] = v
                on_board += v
        if parts[1] == "ns":
            pos.side = NS
        elif parts[1] == "ew":
            pos.side = EW
        else:
            raise PositionError("side to move must be 'ns' or 'ew', got '%s'" % parts[1])
        names = ("common reserve", "NS's own reserve", "EW's own reserve")
        vals = [0, 0, 0]
        for i in range(3):
            s = parts[2 + i]
            v = parse_uint(s, 2)  # ASCII digits only: '３６' or '²' is no number here
            if v < 0:
                raise PositionError("%s must be a number 0-36, got '%s'" % (names[i], s))
            vals[i] = v
        total = on_board + vals[0] + vals[1] + vals[2]
        if total != TOTAL_CUBES:
            raise PositionError(
                "cubes must add up to 36 (B5): %d on the board + %d common + %d own NS"
                " + %d own EW = %d" % (on_board, vals[0], vals[1], vals[2], total)
            )
        pos.common = vals[0]
        pos.own[0] = vals[1]
        pos.own[1] = vals[2]
        return pos

    def to_string(self):
        """The N3 position string."""
        # written into one buffer byte by byte, not by adding strings (a new string for
        # every cell): the conformance suite writes it for every move it tries
        h = self.heights
        out = bytearray(89)
        o = 0
        for rank in range(8, -1, -1):
            for c in range(rank * 9, rank * 9 + 9):
                v = h[c]
                out[o] = 46 if v == 0 else 48 + v  # ".", or the height's digit
                o += 1
            if rank:
                out[o] = 47  # "/"
                o += 1
        return "%s %s %d %d %d" % (
            str(out, "ascii"),
            "ns" if self.side == NS else "ew",
            self.common,
            self.own[0],
            self.own[1],
        )

    def __eq__(self, other):
        return (
            isinstance(other, Position)
            and self.heights == other.heights
            and self.side == other.side
            and self.common == other.common
            and self.own == other.own
            and self.variant == other.variant
        )

    def clone(self):
        """A copy with the same state and history (undo works on it too)."""
        p = Position(self.variant, self.side)
        p.heights[:] = self.heights
        p.common = self.common
        p.own[:] = self.own
        p.ply = self.ply
        p._h = self._h.copy(self.ply)  # the plies seen so far: shared, not copied
        return p

    def reserve(self, plies):
        """Make room for ``plies`` moves now (a saved game, before it is replayed)."""
        self._h.reserve(plies)

    def move_at(self, ply):
        """The move played at ``ply`` (0 <= ply < self.ply)."""
        page = self._h.pages[ply >> PAGE_SHIFT]
        o = (ply & PAGE_MASK) * 3
        return page[o] | page[o + 1] << 8

    # ----------------------------------------------------------------- connectivity (E1)

    def _labels(self):
        """Label the components of singles (8-adjacency, B3) with their edge flags (B2)."""
        if self._cache & _C_LABELS:
            return
        h = self.heights
        lab = self._label
        cf = self._cflags
        st = self._stack
        for i in range(N_CELLS):
            lab[i] = 0
        n = 0
        conn = 0
        pe_ns = PLAYER_EDGES[0]
        pe_ew = PLAYER_EDGES[1]
        for c in range(N_CELLS):
            if h[c] != 1 or lab[c]:
                continue
            n += 1
            lab[c] = n
            st[0] = c
            sp = 1
            f = 0
            while sp:
                sp -= 1
                x = st[sp]
                f |= EDGES[x]
                for j in range(x * 8, x * 8 + NEIGHBOUR_COUNT[x]):
                    y = NEIGHBOUR_CELLS[j]
                    if h[y] == 1 and not lab[y]:
                        lab[y] = n
                        st[sp] = y
                        sp += 1
            cf[n] = f
            if f & pe_ns == pe_ns:
                conn |= 1
            if f & pe_ew == pe_ew:
                conn |= 2
        self._conn = conn
        self._cache |= _C_LABELS

    def connected(self, player):
        """E1: player's two edges are linked by a chain of singles."""
        self._labels()
        return bool(self._conn & (1 << player))

    # ----------------------------------------------------------------- result (E2-E4)

    def winner(self):
        """-1 while the game goes on, else the winner (NS or EW).

        The last mover P is the opponent of the side to move Q. E2: Q's edges connected, Q
        wins (even if P's are too: blocus). E3: P's edges connected, P wins. E4: Q exhausted,
        P wins (xobo: Q has no legal move; kv: common and Q's own reserve are empty).
        """
        self._labels()
        q = self.side
        p = q ^ 1
        if self._conn & (1 << q):
            return q
        if self._conn & (1 << p):
            return p
        if self.common or self.own[q]:
            return -1
        if self._kv:
            return p
        if self._generate(self._scratch_buffer(), True):
            return -1
        return p

    def is_terminal(self):
        return self.winner() >= 0

    def returns(self):
        """OpenSpiel style: (NS, EW) as +1/-1 for a finished game, (0, 0) otherwise."""
        w = self.winner()
        if w < 0:
            return (0, 0)
        return (1, -1) if w == NS else (-1, 1)

    def winning_chain(self):
        """A shortest chain of singles that links the winner's edges (cells, edge to edge)."""
        w = self.winner()
        if w < 0 or not self._conn & (1 << w):
            return []
        self._labels()
        pe = PLAYER_EDGES[w]
        lab = self._label
        comp = 0
        for k in range(1, N_CELLS + 1):
            if self._cflags[k] & pe == pe:
                comp = k
                break
        start_edge = 1 if w == NS else 8  # EDGE_N or EDGE_W
        goal_edge = 2 if w == NS else 4  # EDGE_S or EDGE_E
        prev = [-2] * N_CELLS
        queue = []
        for c in range(N_CELLS):
            if lab[c] == comp and EDGES[c] & start_edge:
                prev[c] = -1
                queue.append(c)
        i = 0
        while i < len(queue):
            x = queue[i]
            i += 1
            if EDGES[x] & goal_edge:
                chain = []
                while x >= 0:
                    chain.append(x)
                    x = prev[x]
                chain.reverse()  # from the North (NS) or West (EW) edge
                return chain
            for j in range(x * 8, x * 8 + NEIGHBOUR_COUNT[x]):
                y = NEIGHBOUR_CELLS[j]
                if lab[y] == comp and prev[y] == -2:
                    prev[y] = x
                    queue.append(y)
        return []

    # ----------------------------------------------------------------- threats (V1-V4)

    def _can_place(self, player):
        return self.common > 0 or self.own[player] > 0

    def voina_cells(self, player, out):
        """V1: fill bytearray ``out`` (81) with 1 on the empty cells where a cube placed by
        ``player`` would win (their edges linked, the opponent's not); return how many.
        No cells when the player has no cube to place."""
        for i in range(N_CELLS):
            out[i] = 0
        return self._scan_voina_cells(player, out)

    def _has_voina_cell(self, player):
        return self._scan_voina_cells(player, None) > 0

    def _scan_voina_cells(self, player, out):
        """Count the Voina cells of ``player``, marking them in ``out``; with ``out`` None,
        stop at the first. A cube on empty cell c joins the components of its single
        neighbours, so c wins when its edges and theirs cover the player's edges and not the
        opponent's. The edge flags a cell would join are spread from the singles of the
        components that touch an edge (at most 36 singles, usually a few) rather than gathered
        around every empty cell (45 or more): two short passes, no search per cell."""
        if not self._can_place(player):
            return 0
        self._labels()
        if self._conn & (2 >> player):
            return 0  # the opponent is connected already: no placement can win (E2)
        h = self.heights
        lab = self._label
        cf = self._cflags
        pe = PLAYER_EDGES[player]
        qe = PLAYER_EDGES[player ^ 1]
        p_conn = self._conn & (1 << player)
        near = self._stack  # the labels are made: their stack is free scratch until the next
        for c in range(N_CELLS):
            near[c] = 0
        for x in range(N_CELLS):
            if h[x] == 1:
                f = cf[lab[x]]
                if f:
                    for j in range(x * 8, x * 8 + NEIGHBOUR_COUNT[x]):
                        near[NEIGHBOUR_CELLS[j]] |= f
        count = 0
        for c in range(N_CELLS):
            if h[c]:
                continue
            f = EDGES[c] | near[c]
            if (p_conn or f & pe == pe) and f & qe != qe:
                if out is None:
                    return 1
                out[c] = 1
                count += 1
        return count

    def _spread_wins(self, player, m):
        """Would spread m, played by player, win for them (E2/E3)? Leaves the position as is."""
        side = self.side
        self.side = player
        self._apply_raw(m)
        self._cache = 0  # the labels of the position before the spread no longer hold
        self._labels()
        conn = self._conn
        self._undo_raw()
        self.side = side
        self._cache = 0
        return not conn & (2 >> player) and bool(conn & (1 << player))

    def voina_spreads(self, player):
        """V1, variant kv: the legal spreads that would win for ``player`` now. [] in xobo."""
        if not self._kv:
            return []
        buf = new_move_buffer()
        n = self._gen_spreads(buf, 0, False)
        return [buf[i] for i in range(n) if self._spread_wins(player, buf[i])]

    def threatens(self, player):
        """V1: ``player`` could win with their next move if it were their turn now."""
        bit = _C_THREAT_NS if player == NS else _C_THREAT_EW
        if self._cache & bit:
            return bool(self._threat[player])
        t = self._has_voina_cell(player)
        if not t and self._kv:
            if self._tbuf is None:
                self._tbuf = new_move_buffer()
            buf = self._tbuf
            n = self._gen_spreads(buf, 0, False)
            for i in range(n):
                if self._spread_wins(player, buf[i]):
                    t = True
                    break
        self._threat[player] = 1 if t else 0
        self._cache |= bit
        return t

    def under_voina(self):
        """V2: the side to move is under Voina (the opponent threatens), so may regroup."""
        return self.threatens(self.side ^ 1)

    def declared_voina(self):
        """V2: the move that led here declared Voina: the game goes on and the mover threatens."""
        return self.winner() < 0 and self.under_voina()

    # ----------------------------------------------------------------- move generation

    def _scratch_buffer(self):
        if self._buf is None:
            self._buf = new_move_buffer()
        return self._buf

    def _gen_spreads(self, buf, n, first_only):
        """M3: every legal spread (any player may spread any stack)."""
        h = self.heights
        for s in range(N_CELLS):
            hs = h[s]
            if hs < 2:
                continue
            base = s * 8
            for d in range(8):
                if REACH[base + d] < hs:
                    continue
                ro = (base + d) * 8
                ok = True
                capture = False
                for i in range(hs):
                    t = RAY_CELLS[ro + i]
                    ht = h[t]
                    if ht == 1:
                        capture = True
                    elif ht >= 2 and ht + 1 > MAXREACH[t]:
                        ok = False
                        break
                if ok and capture:
                    buf[n] = make_spread(s, d, hs)
                    n += 1
                    if first_only:
                        return n
        return n

    def _gen_regroups(self, buf, n, first_only):
        """M2: segments of >= 3 aligned singles onto one end (kv: exactly 3)."""
        h = self.heights
        kv = self._kv
        for e in range(N_CELLS):
            if h[e] != 1:
                continue
            limit = MAXREACH[e]
            if kv and limit > 3:
                limit = 3
            base = e * 8
            for d in range(8):
                r = REACH[base + d]
                ro = (base + d) * 8
                if r < 2 or h[RAY_CELLS[ro]] != 1 or h[RAY_CELLS[ro + 1]] != 1:
                    continue  # no two singles beyond e this way: no segment of 3
                k = 2
                while k < r and h[RAY_CELLS[ro + k]] == 1:
                    k += 1
                # segment of n cubes = e plus the next n-1 singles on the ray
                top = k + 1
                if top > limit:
                    top = limit
                for cnt in range(3, top + 1):
                    buf[n] = make_regroup(e, d, cnt)
                    n += 1
                    if first_only:
                        return n
        return n

    def _generate(self, buf, first_only=False):
        """All moves legal for the side to move, ignoring whether the game is over."""
        n = 0
        if self.common or self.own[self.side]:
            h = self.heights
            for c in range(N_CELLS):
                if not h[c]:
                    buf[n] = (c << 2) | _ONE_CUBE  # make_place(c), without a call a cell
                    n += 1
                    if first_only:
                        return n
        if self.under_voina():
            n = self._gen_regroups(buf, n, first_only)
            if first_only and n:
                return n
        return self._gen_spreads(buf, n, first_only)

    def legal_moves(self, buf):
        """Fill ``buf`` (an array('H') of MAX_MOVES) with the legal moves; return how many.
        None once the game is over."""
        if self.winner() >= 0:
            return 0
        return self._generate(buf)

    def move_text(self, m):
        """The N1 notation of move m (docs/games.md's move_text)."""
        from xobo.games.xobo.rules.notation import format_move

        return format_move(m)

    def parse_move(self, text):
        """The move that N1 ``text`` names here; MoveError says what is wrong."""
        from xobo.games.xobo.rules.notation import parse_move

        return parse_move(text, self)

    def why_illegal(self, m):
        """None if m is legal here, else a sentence saying why not (for players and hosts)."""
        from xobo.games.xobo.rules.notation import why_illegal

        return why_illegal(m, self)

    # ----------------------------------------------------------------- apply / undo

    def _apply_raw(self, m):
        kind = m & 3
        c = (m >> 2) & 127
        d = (m >> 9) & 7
        cnt = m >> 12
        h = self.heights
        side = self.side
        own_flag = 0
        if kind == PLACE:
            if self.common:
                self.common -= 1
            else:
                self.own[side] -= 1
                own_flag = 1
            h[c] = 1
        elif kind == REGROUP:
            ro = (c * 8 + d) * 8
            for i in range(cnt - 1):
                h[RAY_CELLS[ro + i]] = 0
            h[c] = cnt
        else:
            ro = (c * 8 + d) * 8
            h[c] = 0
            for i in range(cnt):
                t = RAY_CELLS[ro + i]
                v = h[t] + 1
                if v == 2:  # M4: a pair is captured into the mover's reserve
                    h[t] = 0
                    self.own[side] += 2
                else:
                    h[t] = v
        ply = self.ply
        hist = self._h
        k = ply >> PAGE_SHIFT
        page = hist.pages[k] if hist.ready[k] else hist.for_write(ply)
        o = (ply & PAGE_MASK) * 3
        page[o] = m & 255
        page[o + 1] = m >> 8
        page[o + 2] = own_flag
        self.ply = ply + 1
        self.side = side ^ 1

    def _undo_raw(self):
        ply = self.ply - 1
        page = self._h.pages[ply >> PAGE_SHIFT]
        o = (ply & PAGE_MASK) * 3
        m = page[o] | page[o + 1] << 8
        own_flag = page[o + 2]
        self.ply = ply
        side = self.side ^ 1
        self.side = side
        kind = m & 3
        c = (m >> 2) & 127
        d = (m >> 9) & 7
        cnt = m >> 12
        h = self.heights
        if kind == PLACE:
            h[c] = 0
            if own_flag:
                self.own[side] += 1
            else:
                self.common += 1
        elif kind == REGROUP:
            ro = (c * 8 + d) * 8
            for i in range(cnt - 1):
                h[RAY_CELLS[ro + i]] = 1
            h[c] = 1
        else:
            ro = (c * 8 + d) * 8
            for i in range(cnt):
                t = RAY_CELLS[ro + i]
                v = h[t]
                if v == 0:  # was a single, captured (M4)
                    h[t] = 1
                    self.own[side] -= 2
                else:  # was empty (now 1) or a stack (now one higher)
                    h[t] = v - 1
            h[c] = cnt

    def apply(self, m):
        """Play move m for the side to move, trusting that it is legal (see play)."""
        self._apply_raw(m)
        self._cache = 0

    def undo(self):
        """Take back the last move exactly (reserves, captures and side included)."""
        if self.ply == 0:
            raise MoveError("nothing to undo: this is the start of the game")
        self._undo_raw()
        self._cache = 0

    # ----------------------------------------------------------------- for the board

    def occupancy(self, out):
        """Fill bytearray ``out`` (81) with 1 where a switch should see a cube."""
        h = self.heights
        for i in range(N_CELLS):
            out[i] = 1 if h[i] else 0

    def touch_cell(self, m):
        """The cell whose touch picks m among moves of one footprint: the stack cell of a
        regroup (the board's inference reads the same bits), the cell of the other kinds."""
        return (m >> 2) & 127

    def footprint(self, m, lifted, added):
        """The cells move m empties (L(m)) and fills (A(m)); return (n_lifted, n_added).

        Place: adds its cell. Regroup: lifts every cell but the stack cell. Spread: lifts the
        source and the captured singles, adds the targets that were empty.
        """
        kind = m & 3
        c = (m >> 2) & 127
        d = (m >> 9) & 7
        cnt = m >> 12
        nl = 0
        na = 0
        if kind == PLACE:
            added[0] = c
            return 0, 1
        ro = (c * 8 + d) * 8
        if kind == REGROUP:
            for i in range(cnt - 1):
                lifted[i] = RAY_CELLS[ro + i]
            return cnt - 1, 0
        h = self.heights
        lifted[0] = c
        nl = 1
        for i in range(cnt):
            t = RAY_CELLS[ro + i]
            v = h[t]
            if v == 1:
                lifted[nl] = t
                nl += 1
            elif v == 0:
                added[na] = t
                na += 1
        return nl, na


__all__ = ["Position", "TOTAL_CUBES", "VARIANTS", "MAX_MOVES", "FOOTPRINT_MAX", "SPREAD",
           "new_move_buffer"]
