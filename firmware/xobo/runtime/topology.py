"""The board's topology: its cells, their names, its edge light groups, and where a game sits.

The board definition gives the grid (``width`` x ``height`` cells, at most 255), the key of
each cell and the LED chain; a game has its own grid (``area(settings)``, docs/games.md). The
runtime places the game's grid on the board, centred and rounded down (a 9 x 9 game fills a
9 x 9 board; X's 8 x 8 rhombus sits on a1-h8; a 9 x 9 game on the 15 x 15 board sits on
d4-l12), and translates between the two numberings with two byte tables. Board cells outside
the game (and game cells the game does not use) map to ``NONE``: they stay dark and never
count as a move.

Usage::

    >>> from xobo.runtime.topology import Topology
    >>> topo = Topology(9, 9, ("N", "S", "E", "W"))
    >>> place = topo.place(8, 8)          # X on the 9 x 9 board
    >>> place.to_board[0], place.to_game[80]   # NONE (255) outside
    (0, 255)
    >>> topo.cell_name(40)
    'e5'
"""

from xobo.compat import const

NONE = const(255)
FILES = "abcdefghijklmnopqrstuvwxyz"


def cell_name(c, width):
    """'a1' for cell 0 of a grid ``width`` wide (rank-major from the bottom left)."""
    return "%s%d" % (FILES[c % width], c // width + 1)


def parse_cell(text, width, height):
    """The cell of 'e5' on a ``width`` x ``height`` grid, or -1 (not a cell of it)."""
    if len(text) < 2:
        return -1
    f = FILES.find(text[0].lower())
    digits = text[1:]
    for ch in digits:
        if ch < "0" or ch > "9":
            return -1
    if f < 0 or f >= width or digits[0] == "0":
        return -1
    r = int(digits) - 1
    if r < 0 or r >= height:
        return -1
    return r * width + f


class Placement:
    """A game's grid placed on the board: ``to_board`` (game cell -> board cell) and
    ``to_game`` (board cell -> game cell), ``NONE`` where there is no counterpart."""

    def __init__(self, topo, width, height, used=None):
        if width > topo.width or height > topo.height:
            raise ValueError("a %dx%d game does not fit on this %dx%d board" % (
                width, height, topo.width, topo.height))
        self.width = width
        self.height = height
        self.n_cells = width * height
        self.ox = (topo.width - width) // 2
        self.oy = (topo.height - height) // 2
        self.to_board = bytearray(self.n_cells)
        self.to_game = bytearray(b"\xff" * topo.n_cells)
        # every game cell's board cell, the unused ones too: a game whose layers light its
        # unused cells (GameLayers.LIGHTS_UNUSED: Chain Reaction's scores) is drawn with it
        self.at_board = bytearray(self.n_cells)
        for g in range(self.n_cells):
            b = (g // width + self.oy) * topo.width + g % width + self.ox
            self.at_board[g] = b
            if used is not None and not used[g]:
                self.to_board[g] = NONE
                continue
            self.to_board[g] = b
            self.to_game[b] = g
        self.identity = (self.n_cells == topo.n_cells and used_all(used, self.n_cells))

    def board_cells(self):
        """The board cells the game uses (a list, for hosts and tests)."""
        return [b for b in self.to_board if b != NONE]


def used_all(used, n):
    if used is None:
        return True
    for c in range(n):
        if not used[c]:
            return False
    return True


class Topology:
    """A board's grid and edge groups (see the module docstring)."""

    def __init__(self, width, height, edges=("N", "S", "E", "W")):
        if width * height > 255:
            raise ValueError("a board has at most 255 cells, not %dx%d" % (width, height))
        self.width = width
        self.height = height
        self.n_cells = width * height
        self.edges = tuple(edges)

    def cell_name(self, c):
        return cell_name(c, self.width)

    def parse_cell(self, text):
        return parse_cell(text, self.width, self.height)

    def place(self, width, height, used=None):
        return Placement(self, width, height, used)


def from_boarddef(bd):
    """The topology of a board definition (``xobo.drivers.boarddef.BoardDef``)."""
    return Topology(getattr(bd, "width", 9), getattr(bd, "height", 9),
                    tuple(sorted(getattr(bd, "led_edges", {}) or ("N", "S", "E", "W"),
                                 key=_edge_order)))


def _edge_order(name):
    order = "NSEW"
    i = order.find(name)
    return i if i >= 0 else 4
