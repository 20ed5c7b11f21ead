"""A Brochs position and the rules that act on it (docs/rules/brochs.md, BB1-BR8).

The state is flat: ``cells`` (a ``bytearray(225)`` of piece codes), the side to act, Black's
reserve, the submission state, a pending remote-capture pick, and per-ply undo records in a
growing ``bytearray`` so that :meth:`Position.undo` restores everything exactly.

Moves (ints below 2**16; ``FOOTPRINT`` is what the board sees, L lifted / A added):

=============  ======================  ==============  =======================================
code           what                    notation        footprint, how the board plays it
=============  ======================  ==============  =======================================
``f<<8 | t``   rook move (BM2)         ``e5-e9xe10``   L = {f} + captured, A = {t}
``DROP+c``     drop a man (BM1)        ``*e5``         L = captured, A = {c}
``MDROP+c``    drop the master (BM1)   ``M*e5``        the same footprint as ``DROP+c``: the
                                                       board commits it only after the
                                                       "master" button (``is_master_drop``,
                                                       ``as_master_drop``); when only the
                                                       master is left in reserve it is the
                                                       only drop and needs no button
``REMOTE+c``   remote capture (BM3)    ``!k13``        L = {c}, A = {}: a White piece leaves a
                                                       quadrant with nothing else moving. It
                                                       is Black's move (choice ``black``) or
                                                       White's pick after ``DECLARE`` (choice
                                                       ``white``)
``DECLARE+q``  Black announces a       ``!SE``         empty footprint; ``touch_cell`` is the
               remote capture in                       Black donjon facing quadrant q: Black
               quadrant q (``white``)                  lifts that piece and puts it back
``PASS``       pass (BM4, BR5)         ``--``          empty: the ``pass`` button
``ASK``        "submission?" (BR6)     ``(s?)``        empty: the ``submission`` button
``ACCEPT``     "submission!" (BR6)     ``(s!)``        empty: the ``accept`` button
``REFUSE``     "pass!" (BR6)           ``(pass!)``     empty: the ``refuse`` button
``RESIGN``     resign (BE1)            ``(resign)``    empty: the ``resign`` button
=============  ======================  ==============  =======================================

:meth:`Position.button_move` maps a button name to the move it plays (or -1 when that button
does nothing now). Empty-footprint moves can also come over serial in this notation.

Pieces: ``EMPTY`` 0, ``MAN`` 1 (Black man), ``MASTER`` 2, ``WHITE`` 3. Players: ``BLACK`` 0
(moves first by default, BB5), ``WHITE_P`` 1.

For the board layer: ``owner(c)`` (player or -1), ``piece(c)``, ``master_cell()`` (-1 when in
reserve or captured), ``donjons`` (cells indexed by quadrant NW, NE, SW, SE), ``QUADRANT[c]``
(0-3, or ``NO_QUADRANT`` on the central cross), ``targets(cell, out)`` (the legal destinations
of a lifted piece), ``captures_of(m, out)`` (the pieces to take off after ``m``),
``remote_targets(out)`` (the White pieces a remote capture may take now), ``submission()``.

Usage::

    from xobo.games.brochs.rules import Position, new_move_buffer
    pos = Position()
    buf = new_move_buffer()
    n = pos.legal_moves(buf)
    pos.play(pos.parse_move("*e5")); pos.undo()
"""

import array

from xobo.compat import const, micropython, ptr8
from xobo.errors import MoveError, PositionError
from xobo.history import PAGE_MASK, PAGE_SHIFT, History
from xobo.numbers import parse_uint

WIDTH = const(15)
N_CELLS = const(225)
FILES = "abcdefghijklmno"

EMPTY = const(0)
MAN = const(1)
MASTER = const(2)
WHITE = const(3)

BLACK = const(0)
WHITE_P = const(1)

MEN = const(12)
WHITE_MEN = const(24)

# move codes (module docstring)
DROP = const(0xE100)
MDROP = const(0xE200)
REMOTE = const(0xE300)
DECLARE = const(0xE400)
PASS = const(0xE500)
ASK = const(0xE501)
ACCEPT = const(0xE502)
REFUSE = const(0xE503)
RESIGN = const(0xE504)

# the most moves one position can have: 2 x 225 drops, 13 pieces x 28 rook moves, 2 x 49
# remote captures, 3 buttons (a loose bound, checked by the tests)
MAX_MOVES = const(1024)
FOOTPRINT_MAX = const(10)  # a source, and at most 8 neighbours captured (+1 spare)

# submission state (BR6)
SUB_NONE = const(0)
SUB_ASKED = const(1)  # the proposer asked; the other side must answer
SUB_REFUSED = const(2)  # refused with no countdown allowed: no new question this turn
SUB_COUNT = const(3)  # countdown running, sub_n rounds left
SUB_RESIGNED = const(4)  # sub_player resigned (or accepted a submission)

NW = const(0)
NE = const(1)
SW = const(2)
SE = const(3)
NO_QUADRANT = const(255)
QUADRANT_NAMES = ("NW", "NE", "SW", "SE")

IMPRECATION = ("black", "white")
MASTER_DIAGONAL = ("either", "master-moves")

# directions: N, E, S, W, NE, SE, SW, NW (0-3 orthogonal)
_DF = (0, 1, 0, -1, 1, 1, -1, -1)
_DR = (1, 0, -1, 0, 1, -1, -1, 1)
_LINE_A = (0, 1, 4, 5)
_LINE_B = (2, 3, 6, 7)


# the same directions for the viper code below, each step plus one (no negative bytes)
_DF1 = b"\x01\x02\x01\x00\x02\x02\x00\x00"
_DR1 = b"\x02\x01\x00\x01\x02\x00\x00\x02"


@micropython.viper
def _fill_neighbours(nb, df1, dr1):
    """nb[c * 8 + d]: the cell next to c in direction d, 255 off the board. Native code: in
    Python these 1,800 entries took 54 ms of every switch to Brochs on the emulated Pico."""
    t = ptr8(nb)
    dfs = ptr8(df1)
    drs = ptr8(dr1)
    w = int(WIDTH)
    c = 0
    for r in range(w):
        for f in range(w):
            for d in range(8):
                nf = f + int(dfs[d]) - 1
                nr = r + int(drs[d]) - 1
                if nf >= 0 and nf < w and nr >= 0 and nr < w:
                    t[c * 8 + d] = nr * w + nf
                else:
                    t[c * 8 + d] = 255
            c += 1


def _make_tables():
    nb = bytearray(N_CELLS * 8)
    _fill_neighbours(nb, _DF1, _DR1)
    quad = bytearray(N_CELLS)
    for c in range(N_CELLS):
        f = c % WIDTH
        r = c // WIDTH
        # BB2: the central file h and rank 8 belong to no quadrant
        if f == 7 or r == 7:
            quad[c] = NO_QUADRANT
        elif r > 7:
            quad[c] = NW if f < 7 else NE
        else:
            quad[c] = SW if f < 7 else SE
    return nb, quad


NEIGHBOUR, QUADRANT = _make_tables()

# per-ply undo record: ncap, 8 cells, 8 kinds, sub kind/player/n, side, pick, the move (2)
_REC = const(24)
_R_SUB = const(17)
_R_SIDE = const(20)
_R_PICK = const(21)
_R_MOVE = const(22)
# the longest game the board keeps, in moves (the rules have no limit: a submission refused
# without a countdown lets a game go on; docs/rules/brochs.md, "on the board"); a save is
# bounded by it
MAX_PLIES = const(1000)
SAVED_MOVE_CHARS = const(7)  # a move in a save, without its captures (history_text): 'e10-e15'
_SEARCH_PLIES = const(64)  # the history's room past MAX_PLIES for the computer's search


def cell_name(c):
    return "%s%d" % (FILES[c % WIDTH], c // WIDTH + 1)


def parse_cell(text):
    """The cell of a square name like ``e5`` or ``o15``; -1 when it is none."""
    if len(text) < 2 or len(text) > 3:
        return -1
    f = FILES.find(text[0])
    r = parse_uint(text[1:], 2)
    if f < 0 or r < 1 or r > WIDTH:
        return -1
    return (r - 1) * WIDTH + f


def donjon_cells(k):
    """The donjons for setting ``donjon = k`` (BB3): (k, k) and its mirrors, by quadrant."""
    lo = k - 1
    hi = WIDTH - k
    return bytes((hi * WIDTH + lo, hi * WIDTH + hi, lo * WIDTH + lo, lo * WIDTH + hi))


def new_move_buffer():
    return array.array("H", bytes(2 * MAX_MOVES))


def is_move(m):
    """False for asking for submission and resigning: actions a player may take at any turn,
    which are not moves (BR6: "asking for submission is not a move"; BE1: resigning ends the
    game). ``legal_moves`` keeps them (they are the board's buttons, played like moves);
    ``moves_only`` and ``perft`` leave them out. The answer to a question, ``(s!)`` or
    ``(pass!)``, is the only way on once it is asked: it stays."""
    return m != ASK and m != RESIGN


def moves_only(buf, n):
    """Drop the actions that are not moves (``is_move``) from the first ``n`` of ``buf``, in
    place, keeping the order; returns how many are left. No allocation."""
    k = 0
    for i in range(n):
        m = buf[i]
        if m != ASK and m != RESIGN:
            buf[k] = m
            k += 1
    return k


def is_master_drop(m):
    return MDROP <= m < MDROP + N_CELLS


def as_master_drop(m):
    """The master drop on the cell of drop ``m`` (the "master" button turns one into the
    other); ``m`` itself when it is no drop."""
    if DROP <= m < DROP + N_CELLS:
        return m - DROP + MDROP
    return m


def move_kind(m):
    """One of ``"move"``, ``"drop"``, ``"master-drop"``, ``"remote"``, ``"declare"``,
    ``"pass"``, ``"ask"``, ``"accept"``, ``"refuse"``, ``"resign"`` or ``""`` (no move)."""
    if m < DROP:
        return "move" if (m >> 8) < N_CELLS and (m & 255) < N_CELLS and m >> 8 != m & 255 else ""
    base = m & 0xFF00
    low = m & 255
    if base == DROP and low < N_CELLS:
        return "drop"
    if base == MDROP and low < N_CELLS:
        return "master-drop"
    if base == REMOTE and low < N_CELLS:
        return "remote"
    if base == DECLARE and low < 4:
        return "declare"
    return {PASS: "pass", ASK: "ask", ACCEPT: "accept", REFUSE: "refuse",
            RESIGN: "resign"}.get(m, "")


BUTTONS = {"pass": PASS, "submission": ASK, "accept": ACCEPT, "refuse": REFUSE,
           "resign": RESIGN}
_SPECIAL_TEXT = {PASS: "--", ASK: "(s?)", ACCEPT: "(s!)", REFUSE: "(pass!)",
                 RESIGN: "(resign)"}
_TEXT_SPECIAL = {"--": PASS, "(s?)": ASK, "(s!)": ACCEPT, "(pass!)": REFUSE,
                 "(resign)": RESIGN}


@micropython.viper
def _enemy_next_to(cells, c: int, white: bool) -> bool:
    """Is an enemy of the arriving piece (White's when ``white`` is false, else Black's) on a
    square next to c? Every capture takes such a neighbour (BC1-BC3): with none, the arrival
    captures nothing. Native code: the board asks it of each of the 400 drops of a Brochs
    position when it lists their footprints (the loop in Python took 0.4 ms a move on the
    emulated Pico)."""
    b = ptr8(cells)
    nb = ptr8(NEIGHBOUR)
    base = c * 8
    for d in range(8):
        e = int(nb[base + d])
        if e != 255:
            k = int(b[e])
            if white:
                if k == int(MAN) or k == int(MASTER):
                    return True
            elif k == int(WHITE):
                return True
    return False


class Position:
    """A Brochs position: the pieces, Black's reserve, whose action it is, the submission state
    (BR6), a pending remote-capture pick, the settings, and the moves that led here."""

    n_players = 2
    n_cells = N_CELLS
    width = WIDTH
    height = WIDTH

    def __init__(self, donjon=4, imprecation="black", master_diagonal="either", first=BLACK,
                 empty=False):
        if not (2 <= donjon <= 7):
            raise PositionError("donjon must be 2-7 (the donjons are on (k, k), BB3), got %r"
                                % (donjon,))
        if imprecation not in IMPRECATION:
            raise PositionError("imprecation_choice must be black or white, got '%s'"
                                % imprecation)
        if master_diagonal not in MASTER_DIAGONAL:
            raise PositionError("master_diagonal must be either or master-moves, got '%s'"
                                % master_diagonal)
        self.donjon = donjon
        self.imprecation = imprecation
        self.master_diagonal = master_diagonal
        self._white_picks = imprecation == "white"
        self._man_diag = master_diagonal == "either"
        self.donjons = donjon_cells(donjon)
        self._is_donjon = bytearray(N_CELLS)
        for c in self.donjons:
            self._is_donjon[c] = 1
        self.cells = bytearray(N_CELLS)
        self.heights = bytearray(N_CELLS)
        self.used = b"\x01" * N_CELLS
        self.side = first
        self.res_men = MEN
        self.res_master = 1
        self.sub_kind = SUB_NONE
        self.sub_player = 0
        self.sub_n = 0
        self.pick = -1  # quadrant White must pick a piece in (imprecation_choice = white)
        self.ply = 0
        self._mcell = -1
        self._nwhite = 0
        self._nblack = 0  # Black pieces on the board, the master included
        self._h = History(_REC, MAX_PLIES + _SEARCH_PLIES)
        self._cap = bytearray(8)
        self._qblack = bytearray(4)
        self._tb = None  # a small move buffer for one piece's moves, made when first needed
        if not empty:
            # BB4: 5 central squares of each edge and the 4 donjons
            for i in range(5, 10):
                self._put(i, WHITE)
                self._put(14 * WIDTH + i, WHITE)
                self._put(i * WIDTH, WHITE)
                self._put(i * WIDTH + 14, WHITE)
            for c in self.donjons:
                self._put(c, WHITE)

    # ----------------------------------------------------------------- pieces

    def _put(self, c, kind):
        self.cells[c] = kind
        self.heights[c] = 1
        if kind == WHITE:
            self._nwhite += 1
        else:
            self._nblack += 1
            if kind == MASTER:
                self._mcell = c

    def _take(self, c):
        kind = self.cells[c]
        self.cells[c] = EMPTY
        self.heights[c] = 0
        if kind == WHITE:
            self._nwhite -= 1
        else:
            self._nblack -= 1
            if kind == MASTER:
                self._mcell = -1
        return kind

    def piece(self, c):
        return self.cells[c]

    def owner(self, c):
        """The player whose piece stands on c, or -1."""
        k = self.cells[c]
        if k == EMPTY:
            return -1
        return WHITE_P if k == WHITE else BLACK

    def master_cell(self):
        return self._mcell

    def master_captured(self):
        return self._mcell < 0 and self.res_master == 0

    def pieces_left(self, player):
        """Pieces not captured (BE1): White's on the board; Black's on the board or in
        reserve."""
        if player == WHITE_P:
            return self._nwhite
        return self._nblack + self.res_men + self.res_master

    def on_board(self, player):
        return self._nwhite if player == WHITE_P else self._nblack

    def donjon_owner(self, q):
        """BE2: the owner of the donjon of quadrant q, or -1."""
        return self.owner(self.donjons[q])

    def donjon_count(self, player):
        n = 0
        for c in self.donjons:
            if self.owner(c) == player:
                n += 1
        return n

    def submission(self):
        """The BN2 submission field: ``-``, ``b?``, ``bx``, ``b4`` ... ``b0``, ``bR``."""
        if self.sub_kind == SUB_NONE:
            return "-"
        p = "bw"[self.sub_player]
        if self.sub_kind == SUB_ASKED:
            return p + "?"
        if self.sub_kind == SUB_REFUSED:
            return p + "x"
        if self.sub_kind == SUB_RESIGNED:
            return p + "R"
        return p + chr(48 + self.sub_n)

    # ----------------------------------------------------------------- notation (BN2)

    @staticmethod
    def parse(text, donjon=4, imprecation="black", master_diagonal="either"):
        """Parse a BN2 position string; raise PositionError saying what is wrong."""
        pos = Position(donjon, imprecation, master_diagonal, empty=True)
        parts = text.split()
        if len(parts) not in (5, 6):
            raise PositionError(
                "a position has 5 fields (board, side, men in reserve, master in reserve,"
                " submission) and maybe a pending pick, got %d: '%s'"
                % (len(parts), text.strip()))
        ranks = parts[0].split("/")
        if len(ranks) != WIDTH:
            raise PositionError("the board has 15 ranks separated by '/', got %d" % len(ranks))
        masters = 0
        men = 0
        for i in range(WIDTH):
            row = ranks[i]
            rank = WIDTH - i
            if len(row) != WIDTH:
                raise PositionError("rank %d has %d squares, expected 15: '%s'"
                                    % (rank, len(row), row))
            for f in range(WIDTH):
                ch = row[f]
                c = (rank - 1) * WIDTH + f
                if ch == ".":
                    continue
                if ch == "w":
                    pos._put(c, WHITE)
                elif ch == "b":
                    pos._put(c, MAN)
                    men += 1
                elif ch == "m":
                    masters += 1
                    if masters > 1:
                        raise PositionError("more than one master ('m') on the board (BB4)")
                    pos._put(c, MASTER)
                else:
                    raise PositionError("%s: '%s' is no piece: use '.', 'w', 'b' or 'm'"
                                        % (cell_name(c), ch))
        if pos._nwhite > WHITE_MEN:
            raise PositionError("%d White pieces on the board: White has 24 (BB4)"
                                % pos._nwhite)
        if parts[1] == "b":
            pos.side = BLACK
        elif parts[1] == "w":
            pos.side = WHITE_P
        else:
            raise PositionError("side to move must be 'b' or 'w', got '%s'" % parts[1])
        rm = parse_uint(parts[2], 2)
        if rm < 0 or rm > MEN:
            raise PositionError("Black men in reserve must be 0-12, got '%s'" % parts[2])
        if men + rm > MEN:
            raise PositionError("%d Black men on the board + %d in reserve = %d: Black has"
                                " 12 men (BB4, BR7)" % (men, rm, men + rm))
        if parts[3] not in ("0", "1"):
            raise PositionError("master in reserve must be 1 or 0, got '%s'" % parts[3])
        pos.res_men = rm
        pos.res_master = 1 if parts[3] == "1" else 0
        if masters and pos.res_master:
            raise PositionError("the master is on the board and in reserve at once (BR7)")
        pos._parse_submission(parts[4])
        if len(parts) == 6:
            pick = parts[5]
            q = -1
            if pick[:1] == "!":
                for i in range(4):
                    if pick[1:].upper() == QUADRANT_NAMES[i]:
                        q = i
            if q < 0:
                raise PositionError("a pending pick is written !NW, !NE, !SW or !SE, got '%s'"
                                    % pick)
            if imprecation != "white":
                raise PositionError("a pending pick (%s) needs imprecation_choice white" % pick)
            if pos.side != WHITE_P:
                raise PositionError("a pending pick (%s) is White's: the side must be 'w'"
                                    % pick)
            pos.pick = q
        if pos.sub_kind == SUB_ASKED and pos.sub_player == pos.side:
            raise PositionError("a submission asked by %s is answered by the other side: the"
                                " side to move must be %s (BR6)"
                                % ("bw"[pos.side], "bw"[1 - pos.side]))
        return pos

    def _parse_submission(self, s):
        if s == "-":
            return
        bad = PositionError("the submission field is '-' or b/w followed by ?, x, R or a"
                            " count 0-4 (BN2), got '%s'" % s)
        if len(s) != 2 or s[0] not in "bw":
            raise bad
        self.sub_player = 0 if s[0] == "b" else 1
        ch = s[1]
        if ch == "?":
            self.sub_kind = SUB_ASKED
        elif ch == "x":
            self.sub_kind = SUB_REFUSED
        elif ch == "R":
            self.sub_kind = SUB_RESIGNED
        elif "0" <= ch <= "4":
            self.sub_kind = SUB_COUNT
            self.sub_n = ord(ch) - 48
        else:
            raise bad

    def to_string(self):
        rows = []
        for rank in range(WIDTH - 1, -1, -1):
            rows.append("".join(".bmw"[self.cells[rank * WIDTH + f]] for f in range(WIDTH)))
        s = "%s %s %d %d %s" % ("/".join(rows), "bw"[self.side], self.res_men,
                                self.res_master, self.submission())
        if self.pick >= 0:
            s += " !" + QUADRANT_NAMES[self.pick]
        return s

    def __str__(self):
        return self.to_string()

    def __eq__(self, other):
        return isinstance(other, Position) and self.to_string() == other.to_string() \
            and self.donjons == other.donjons and self.imprecation == other.imprecation \
            and self.master_diagonal == other.master_diagonal

    def clone(self):
        p = Position(self.donjon, self.imprecation, self.master_diagonal, self.side,
                     empty=True)
        p.cells[:] = self.cells
        p.heights[:] = self.heights
        p.res_men = self.res_men
        p.res_master = self.res_master
        p.sub_kind = self.sub_kind
        p.sub_player = self.sub_player
        p.sub_n = self.sub_n
        p.pick = self.pick
        p.ply = self.ply
        p._mcell = self._mcell
        p._nwhite = self._nwhite
        p._nblack = self._nblack
        p._h = self._h.copy(self.ply)  # the plies seen so far: shared, not copied
        return p

    def reserve(self, plies):
        """Make room for ``plies`` moves now (a saved game, before it is replayed)."""
        self._h.reserve(plies)

    def history(self):
        return [self.move_at(i) for i in range(self.ply)]

    def move_at(self, ply):
        """The move played at ``ply`` (0 <= ply < self.ply)."""
        page = self._h.pages[ply >> PAGE_SHIFT]
        o = (ply & PAGE_MASK) * _REC + _R_MOVE
        return page[o] | page[o + 1] << 8

    def last_move(self):
        return self.move_at(self.ply - 1) if self.ply else -1

    # ----------------------------------------------------------------- end (BE1-BE3)

    def is_terminal(self):
        if self.sub_kind == SUB_RESIGNED:
            return True
        if self.sub_kind == SUB_COUNT and self.sub_n == 0:
            return True  # BE1, BR6: the countdown ran out
        if self.master_captured() or self._nwhite == 0:
            return True
        for c in self.donjons:
            if self.cells[c] == EMPTY or self.cells[c] == WHITE:
                return False
        return True  # Black holds all 4 donjons

    def winner(self):
        """BE3: the winner of a finished game, -1 while it goes on or for a draw."""
        if not self.is_terminal():
            return -1
        if self.sub_kind == SUB_RESIGNED:
            return 1 - self.sub_player
        dw = self.donjon_count(WHITE_P)
        db = self.donjon_count(BLACK)
        if self.master_captured() or dw > db:
            return WHITE_P
        if db > dw:
            return BLACK  # the master is free here: not captured (on the board or in reserve)
        if self._nblack > self._nwhite:
            return BLACK
        if self._nwhite > self._nblack:
            return WHITE_P
        return -1

    def end_reason(self):
        """Why the game ended (BE1), or ``""`` while it goes on."""
        if not self.is_terminal():
            return ""
        if self.sub_kind == SUB_RESIGNED:
            return "resigned"
        if self.master_captured():
            return "master captured"
        if self._nwhite == 0:
            return "last white piece captured"
        if self.sub_kind == SUB_COUNT:
            return "submission countdown"
        return "four donjons"

    def returns(self):
        if not self.is_terminal():
            return (0, 0)
        w = self.winner()
        if w < 0:
            return (0, 0)
        return (1, -1) if w == BLACK else (-1, 1)

    # ----------------------------------------------------------------- captures

    def _flanker(self, c, player):
        """True when c holds a piece of player (BR1: a donjon's occupant flanks too)."""
        k = self.cells[c]
        if k == EMPTY:
            return False
        return (k == WHITE) == (player == WHITE_P)

    def _captures(self, c, player, out):
        """The enemies taken when a piece of ``player`` arrives on c (already placed there):
        BC1, BC2, BC3, BR1-BR3; write them into ``out``, return how many. No allocation."""
        cells = self.cells
        nb = NEIGHBOUR
        isd = self._is_donjon
        master = cells[c] == MASTER
        n = 0
        for d in range(8):
            e = nb[c * 8 + d]
            if e == 255:
                continue
            k = cells[e]
            if k == EMPTY or (k == WHITE) == (player == WHITE_P):
                continue
            beyond = nb[e * 8 + d]
            if isd[e]:
                # BC3, BR2: two of the occupant's four lines flanked, c ends one of them
                if beyond == 255 or not self._flanker(beyond, player):
                    continue
                lines = 0
                for dd in range(4):  # N-S, E-W, NE-SW, SE-NW
                    a = nb[e * 8 + _LINE_A[dd]]
                    b = nb[e * 8 + _LINE_B[dd]]
                    if a != 255 and b != 255 and self._flanker(a, player) \
                            and self._flanker(b, player):
                        lines += 1
                if lines >= 2:
                    out[n] = e
                    n += 1
                continue
            if beyond == 255:
                continue  # BR1: the edge never captures
            if d < 4:
                if self._flanker(beyond, player):  # BC1
                    out[n] = e
                    n += 1
            elif player == BLACK:
                # BC2: the master arriving with any Black beyond, or (either) a man arriving
                # with the master beyond
                kb = cells[beyond]
                if (master and (kb == MAN or kb == MASTER)) or \
                        (self._man_diag and kb == MASTER):
                    out[n] = e
                    n += 1
        return n

    def captures_of(self, m, out):
        """The cells the legal move m captures (the pieces to take off), written into ``out``
        (8 bytes at least); returns how many. The position is left unchanged."""
        if m < DROP:
            f = m >> 8
            t = m & 255
            if not _enemy_next_to(self.cells, t, self.side == WHITE_P):
                return 0
            kind = self.cells[f]
            self.cells[f] = EMPTY
            self.cells[t] = kind
            n = self._captures(t, self.side, out)
            self.cells[t] = EMPTY
            self.cells[f] = kind
            return n
        base = m & 0xFF00
        c = m & 255
        if base == DROP or base == MDROP:
            if not _enemy_next_to(self.cells, c, False):
                return 0
            self.cells[c] = MAN if base == DROP else MASTER
            n = self._captures(c, BLACK, out)
            self.cells[c] = EMPTY
            return n
        if base == REMOTE:
            out[0] = c
            return 1
        return 0

    def _sorted_captures(self, m):
        out = self._cap
        n = self.captures_of(m, out)
        names = [cell_name(out[i]) for i in range(n)]
        names.sort()  # BR8: ascending string order
        return names

    # ----------------------------------------------------------------- move generation

    def _black_quadrants(self):
        q = self._qblack
        q[0] = q[1] = q[2] = q[3] = 0
        cells = self.cells
        for c in range(N_CELLS):
            k = cells[c]
            if k == MAN or k == MASTER:
                qq = QUADRANT[c]
                if qq != NO_QUADRANT:
                    q[qq] += 1
        return q

    def remote_quadrants(self):
        """A bit mask of the quadrants where Black may capture remotely now (BM3, BR4)."""
        if self._mcell < 0 or self.side != BLACK:
            return 0
        qb = self._black_quadrants()
        mask = 0
        for q in range(4):
            k = self.cells[self.donjons[q]]
            if (k == MAN or k == MASTER) and qb[3 - q] == 0:
                mask |= 1 << (3 - q)
        return mask

    def remote_targets(self, out):
        """The White pieces a remote capture may take now (out[c] = 1); returns how many."""
        for c in range(N_CELLS):
            out[c] = 0
        if self.pick >= 0:
            mask = 1 << self.pick
        else:
            mask = self.remote_quadrants() if self._normal_turn() else 0
        n = 0
        if mask:
            for c in range(N_CELLS):
                q = QUADRANT[c]
                if q != NO_QUADRANT and (mask >> q) & 1 and self.cells[c] == WHITE:
                    out[c] = 1
                    n += 1
        return n

    def _normal_turn(self):
        return self.sub_kind != SUB_ASKED and self.pick < 0 and not self.is_terminal()

    def _can_ask(self):
        return self.sub_kind == SUB_NONE

    def _rook_moves(self, f, buf, n):
        cells = self.cells
        nb = NEIGHBOUR
        black = cells[f] != WHITE
        for d in range(4):
            c = nb[f * 8 + d]
            while c != 255:
                k = cells[c]
                if k == EMPTY:
                    buf[n] = (f << 8) | c
                    n += 1
                elif k == WHITE or not black:
                    break  # BM2: nobody jumps White; White jumps nothing
                c = nb[c * 8 + d]
        return n

    def legal_moves(self, buf):
        """Fill buf with the legal moves; return their number. No allocation."""
        if self.is_terminal():
            return 0  # BR7
        if self.sub_kind == SUB_ASKED:
            buf[0] = ACCEPT
            buf[1] = REFUSE
            return 2
        cells = self.cells
        n = 0
        if self.pick >= 0:
            for c in range(N_CELLS):
                if cells[c] == WHITE and QUADRANT[c] == self.pick:
                    buf[n] = REMOTE + c
                    n += 1
            return n
        if self.side == BLACK:
            if self.res_men:
                for c in range(N_CELLS):
                    if cells[c] == EMPTY:
                        buf[n] = DROP + c
                        n += 1
            if self.res_master:
                for c in range(N_CELLS):
                    if cells[c] == EMPTY:
                        buf[n] = MDROP + c
                        n += 1
            for c in range(N_CELLS):
                k = cells[c]
                if k == MAN or k == MASTER:
                    n = self._rook_moves(c, buf, n)
            mask = self.remote_quadrants()
            if mask:
                if self._white_picks:
                    for q in range(4):
                        if (mask >> q) & 1:
                            buf[n] = DECLARE + q
                            n += 1
                else:
                    for c in range(N_CELLS):
                        q = QUADRANT[c]
                        if q != NO_QUADRANT and (mask >> q) & 1 and cells[c] == WHITE:
                            buf[n] = REMOTE + c
                            n += 1
        else:
            for c in range(N_CELLS):
                if cells[c] == WHITE:
                    n = self._rook_moves(c, buf, n)
        buf[n] = PASS
        n += 1
        if self._can_ask():
            buf[n] = ASK
            n += 1
        buf[n] = RESIGN
        return n + 1

    def legal_actions(self):
        buf = new_move_buffer()
        n = self.legal_moves(buf)
        return [buf[i] for i in range(n)]

    def targets(self, f, out):
        """The legal destinations of the piece on f if it were lifted now (out[c] = 1);
        returns how many."""
        for c in range(N_CELLS):
            out[c] = 0
        k = self.cells[f]
        if k == EMPTY or not self._normal_turn() or self.owner(f) != self.side:
            return 0
        buf = self._tbuf()
        n = self._rook_moves(f, buf, 0)
        for i in range(n):
            out[buf[i] & 255] = 1
        return n

    def _tbuf(self):
        b = self._tb
        if b is None:
            b = self._tb = array.array("H", bytes(2 * 32))
        return b

    def why_illegal(self, m):
        """None when m is legal, else a sentence saying why not."""
        if not isinstance(m, int) or m < 0 or m >= 0x10000 or not move_kind(m):
            return "%r is no Brochs move" % (m,)
        if self.is_terminal():
            return "the game is over (%s): no move is legal (BR7)" % self.end_reason()
        kind = move_kind(m)
        text = self._plain_text(m)
        if self.sub_kind == SUB_ASKED:
            if kind in ("accept", "refuse"):
                return None
            return ("%s must answer the submission question first: (s!) or (pass!) (BR6)"
                    % ("Black", "White")[self.side])
        if kind in ("accept", "refuse"):
            return "%s: no submission was asked (BR6)" % text
        if self.pick >= 0:
            if kind == "remote" and self.cells[m & 255] == WHITE \
                    and QUADRANT[m & 255] == self.pick:
                return None
            return "White must first pick a White piece of %s to remove (BM3)" \
                % QUADRANT_NAMES[self.pick]
        if kind in ("pass", "resign"):
            return None
        if kind == "ask":
            if self.sub_kind == SUB_COUNT:
                return "(s?): a submission countdown is running (BR6)"
            if self.sub_kind == SUB_REFUSED:
                return "(s?): already asked and refused this turn (BR6)"
            return None
        if kind == "move":
            f = m >> 8
            t = m & 255
            k = self.cells[f]
            if k == EMPTY:
                return "%s: %s is empty" % (text, cell_name(f))
            if self.owner(f) != self.side:
                return "%s: the piece on %s is not %s's" % (text, cell_name(f),
                                                            ("Black", "White")[self.side])
            if f % WIDTH != t % WIDTH and f // WIDTH != t // WIDTH:
                return "%s: a piece moves along its rank or file only (BM2)" % text
            if self.cells[t] != EMPTY:
                return "%s: %s is occupied (BM2)" % (text, cell_name(t))
            buf = self._tbuf()
            n = self._rook_moves(f, buf, 0)
            for i in range(n):
                if buf[i] == m:
                    return None
            if k == WHITE:
                return "%s: a White piece cannot jump over pieces (BM2)" % text
            return "%s: a Black piece can jump Black pieces only, not White ones (BM2)" % text
        if self.side != BLACK:
            return "%s: only Black %s" % (text, "drops" if "drop" in kind else
                                          "captures remotely (BM3)")
        c = m & 255
        if kind in ("drop", "master-drop"):
            if kind == "drop" and not self.res_men:
                return "%s: no Black man left in reserve (BM1)" % text
            if kind == "master-drop" and not self.res_master:
                return "%s: the master is not in reserve (BM1)" % text
            if self.cells[c] != EMPTY:
                return "%s: %s is occupied (BM1)" % (text, cell_name(c))
            return None
        mask = self.remote_quadrants()
        if kind == "declare":
            if not self._white_picks:
                return "%s: with imprecation_choice black, name the piece (!k13) (BM3)" % text
            if (mask >> c) & 1:
                return None
            return "%s: no remote capture into %s now (BM3)" % (text, QUADRANT_NAMES[c])
        # remote
        if self._white_picks:
            return "%s: with imprecation_choice white, Black names the quadrant (!SE) and" \
                " White picks the piece (BM3)" % text
        if self.cells[c] != WHITE:
            return "%s: no White piece on %s (BM3)" % (text, cell_name(c))
        q = QUADRANT[c]
        if q == NO_QUADRANT:
            return "%s: %s is on the central cross, in no quadrant (BB2, BM3)" % (
                text, cell_name(c))
        if (mask >> q) & 1:
            return None
        if self._mcell < 0:
            return "%s: a remote capture needs the master on the board (BM3)" % text
        return ("%s: a remote capture into %s needs a Black piece on the %s donjon and no"
                " Black piece in %s (BM3)" % (text, QUADRANT_NAMES[q], QUADRANT_NAMES[3 - q],
                                              QUADRANT_NAMES[q]))

    def is_legal(self, m):
        return self.why_illegal(m) is None

    # ----------------------------------------------------------------- apply / undo

    def _donjon_owners(self):
        v = 0
        for q in range(4):
            v = v * 3 + self.owner(self.donjons[q]) + 1
        return v

    def apply(self, m):
        """Apply the legal move m (trusted)."""
        hist = self._h
        k = self.ply >> PAGE_SHIFT
        rec = hist.pages[k] if hist.ready[k] else hist.for_write(self.ply)
        r = (self.ply & PAGE_MASK) * _REC
        rec[r + _R_PICK] = self.pick + 1
        rec[r + _R_SUB] = self.sub_kind
        rec[r + _R_SUB + 1] = self.sub_player
        rec[r + _R_SUB + 2] = self.sub_n
        rec[r + _R_SIDE] = self.side
        rec[r + _R_MOVE] = m & 255
        rec[r + _R_MOVE + 1] = m >> 8
        self.ply += 1
        player = self.side
        ncap = 0
        if m >= PASS:
            rec[r] = 0
            if m == PASS:
                self._end_turn(player, False)
            elif m == ASK:
                self.sub_kind = SUB_ASKED
                self.sub_player = player
                self.side = 1 - player
            elif m == ACCEPT:
                self.sub_kind = SUB_RESIGNED  # BR6: the side asked resigns
                self.sub_player = player
            elif m == REFUSE:
                proposer = 1 - player
                self.side = proposer
                self.sub_player = proposer
                if self._countdown_allowed():
                    self.sub_kind = SUB_COUNT
                    self.sub_n = 4
                else:
                    self.sub_kind = SUB_REFUSED
            else:  # RESIGN
                self.sub_kind = SUB_RESIGNED
                self.sub_player = player
            return
        before = self._donjon_owners()
        cap = self._cap
        base = m & 0xFF00
        if m < DROP:
            f = m >> 8
            t = m & 255
            self._put(t, self._take(f))
            ncap = self._captures(t, player, cap)
            dropped = False
        elif base == DROP or base == MDROP:
            c = m & 255
            if base == DROP:
                self.res_men -= 1
                self._put(c, MAN)
            else:
                self.res_master = 0
                self._put(c, MASTER)
            ncap = self._captures(c, BLACK, cap)
            dropped = True
        elif base == DECLARE:
            rec[r] = 0
            self.pick = m & 255
            self.side = WHITE_P
            return
        else:  # REMOTE: Black's capture, or White's pick of the piece
            cap[0] = m & 255
            ncap = 1
            dropped = False
            if self.pick >= 0:
                player = BLACK  # the pick completes Black's remote capture
                self.pick = -1
                self.side = BLACK
        rec[r] = ncap
        for i in range(ncap):
            c = cap[i]
            rec[r + 1 + i] = c
            rec[r + 9 + i] = self._take(c)
        self._end_turn(player, dropped or ncap > 0 or self._donjon_owners() != before)

    def _countdown_allowed(self):
        # BE1: a side has 6 pieces or fewer left and the master is on the board
        return self._mcell >= 0 and (self.pieces_left(BLACK) <= 6
                                     or self.pieces_left(WHITE_P) <= 6)

    def _end_turn(self, player, eventful):
        """A turn of ``player`` is over: the submission countdown (BR6), the next side."""
        if self.sub_kind == SUB_COUNT:
            if eventful:
                self.sub_kind = SUB_NONE
                self.sub_n = 0
            elif player != self.sub_player:
                self.sub_n -= 1  # the opponent's move closes a round
        elif self.sub_kind == SUB_REFUSED and player == self.sub_player:
            self.sub_kind = SUB_NONE
        self.side = 1 - player

    def play(self, m):
        """Apply m after checking it; raise MoveError saying why it is illegal."""
        why = self.why_illegal(m)
        if why is not None:
            raise MoveError(why)
        self.apply(m)

    def undo(self):
        if self.ply == 0:
            raise MoveError("nothing to undo: this is the start position")
        self.ply -= 1
        rec = self._h.pages[self.ply >> PAGE_SHIFT]
        r = (self.ply & PAGE_MASK) * _REC
        m = rec[r + _R_MOVE] | rec[r + _R_MOVE + 1] << 8
        if m < PASS and (m < DROP or (m & 0xFF00) != DECLARE):
            for i in range(rec[r] - 1, -1, -1):
                self._put(rec[r + 1 + i], rec[r + 9 + i])
            if m < DROP:
                f = m >> 8
                t = m & 255
                self._put(f, self._take(t))
            else:
                base = m & 0xFF00
                if base == DROP:
                    self._take(m & 255)
                    self.res_men += 1
                elif base == MDROP:
                    self._take(m & 255)
                    self.res_master = 1
        self.sub_kind = rec[r + _R_SUB]
        self.sub_player = rec[r + _R_SUB + 1]
        self.sub_n = rec[r + _R_SUB + 2]
        self.side = rec[r + _R_SIDE]
        self.pick = rec[r + _R_PICK] - 1

    # ----------------------------------------------------------------- for the board

    def occupancy(self, out):
        h = self.heights
        for c in range(N_CELLS):
            out[c] = 1 if h[c] else 0

    def footprint(self, m, lifted, added):
        """L(m) and A(m) of the legal move m (module docstring); returns (n_lifted, n_added).
        """
        # a drop (DROP, MDROP) that captures nothing, as most do: the board lists the
        # footprints of all ~400 drops after every move. Few locals here, and no further
        # Python call: a MicroPython function with a larger frame allocates it on the heap
        # at every call (216 us a move on the emulated Pico when this path had more of them)
        if DROP <= m < REMOTE and not _enemy_next_to(self.cells, m & 255, False):
            added[0] = m & 255
            return 0, 1
        return self._footprint(m, lifted, added)

    def _footprint(self, m, lifted, added):
        if m >= DECLARE:
            return 0, 0
        cap = self._cap
        n = self.captures_of(m, cap)
        if m < DROP:
            lifted[0] = m >> 8
            for i in range(n):
                lifted[1 + i] = cap[i]
            added[0] = m & 255
            return n + 1, 1
        if (m & 0xFF00) == REMOTE:
            lifted[0] = m & 255
            return 1, 0
        for i in range(n):
            lifted[i] = cap[i]
        added[0] = m & 255
        return n, 1

    def button_of(self, m):
        """The button that picks m among moves of one footprint (docs/games.md): the master
        drop is a drop the board commits after the "master" button."""
        return "master" if is_master_drop(m) else ""

    def touch_cell(self, m):
        """The cell to lift and put back to choose m among moves of the same footprint: the
        Black donjon that faces the declared quadrant; -1 for every other move (a master drop
        is told from a plain one by the "master" button, ``is_master_drop``)."""
        if (m & 0xFF00) == DECLARE and m < PASS:
            return self.donjons[3 - (m & 255)]
        return -1

    def button_move(self, name):
        """The move the button ``name`` plays now (``BUTTONS``), or -1 when it is not legal."""
        m = BUTTONS.get(name, -1)
        if m < 0 or not self.is_legal(m):
            return -1
        return m

    # ----------------------------------------------------------------- moves as text (BN1)

    def _plain_text(self, m):
        if m >= PASS:
            return _SPECIAL_TEXT.get(m, "?")
        if m < DROP:
            return "%s-%s" % (cell_name(m >> 8), cell_name(m & 255))
        base = m & 0xFF00
        c = m & 255
        if base == DECLARE:
            return "!" + QUADRANT_NAMES[c] if c < 4 else "?"
        if c >= N_CELLS:
            return "?"
        if base == DROP:
            return "*" + cell_name(c)
        if base == MDROP:
            return "M*" + cell_name(c)
        return "!" + cell_name(c)

    def history_text(self, m):
        """BN1 text of a move already played, for the saved game: without its captures
        (they depend on the position before it; parse_move takes a move without them)."""
        return self._plain_text(m)

    def move_text(self, m):
        """BN1 text of m in this position (before it is played): captures follow, sorted."""
        text = self._plain_text(m)
        if m < REMOTE and self.is_legal(m):
            for name in self._sorted_captures(m):
                text += "x" + name
        return text

    def parse_move(self, text):
        """The legal move written ``text`` (BN1); raise MoveError saying why it is none.
        Captures may be left out; when written they must be the move's own."""
        t = text.strip()
        if not t:
            raise MoveError("empty move")
        if t in _TEXT_SPECIAL:
            m = _TEXT_SPECIAL[t]
        else:
            body = t
            caps = []
            if "x" in t:
                parts = t.split("x")
                body = parts[0]
                caps = parts[1:]
                for name in caps:
                    if parse_cell(name) < 0:
                        raise MoveError("'%s': '%s' is no square (a1-o15)" % (t, name))
            m = self._parse_body(body, t)
            why = self.why_illegal(m)
            if why is not None:
                raise MoveError(why)
            if caps:
                real = self._sorted_captures(m)
                caps.sort()
                if caps != real:
                    raise MoveError("'%s' captures %s, not %s (BC1-BC4)"
                                    % (self._plain_text(m), " ".join(real) or "nothing",
                                       " ".join(caps)))
            return m
        why = self.why_illegal(m)
        if why is not None:
            raise MoveError(why)
        return m

    def _parse_body(self, body, t):
        if body[:2] == "M*":
            c = parse_cell(body[2:])
            if c < 0:
                raise MoveError("'%s': '%s' is no square (a1-o15)" % (t, body[2:]))
            return MDROP + c
        if body[:1] == "*":
            c = parse_cell(body[1:])
            if c < 0:
                raise MoveError("'%s': '%s' is no square (a1-o15)" % (t, body[1:]))
            return DROP + c
        if body[:1] == "!":
            for q in range(4):
                if body[1:].upper() == QUADRANT_NAMES[q]:
                    return DECLARE + q
            c = parse_cell(body[1:])
            if c < 0:
                raise MoveError("'%s': '%s' is neither a square nor a quadrant" % (t, body[1:]))
            return REMOTE + c
        if "-" in body:
            a, _, b = body.partition("-")
            f = parse_cell(a)
            to = parse_cell(b)
            if f < 0 or to < 0:
                raise MoveError("'%s': '%s' is no square (a1-o15)" % (t, a if f < 0 else b))
            if f == to:
                raise MoveError("'%s': a move goes somewhere else (BM2)" % t)
            return (f << 8) | to
        raise MoveError("'%s' is no move: write *e5, M*e5, e5-e9, !k13, !SE, --, (s?), (s!),"
                        " (pass!) or (resign) (BN1)" % t)


def perft(pos, depth, buffers=None):
    """Number of move sequences of length ``depth`` (moves only: no question, no resignation,
    ``is_move``); a finished game counts as one. From the start: 403, then 149,119."""
    if depth <= 0:
        return 1
    if buffers is None:
        buffers = [new_move_buffer() for _ in range(depth)]
    buf = buffers[depth - 1]
    n = moves_only(buf, pos.legal_moves(buf))
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        pos.apply(buf[i])
        if pos.is_terminal():
            total += 1
        else:
            total += perft(pos, depth - 1, buffers)
        pos.undo()
    return total
