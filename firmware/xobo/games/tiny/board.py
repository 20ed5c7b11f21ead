"""The test game on the board: each piece lit in its owner's colour, the winning line at the end.

The smallest board layer there is (docs/games.md): the runtime does everything else (the
move in progress, fixes, undo, the hint, the computer's move), from footprints alone. The
pieces are identical for the switches; who owns which is known from the history
(``Position.owner``: 0 empty, 1 x, 2 o).

Usage: the runtime makes ``Layers(n_cells, game, edges, name)`` for the game ``tiny``.
"""

from xobo.runtime.layers import GameLayers
from xobo.runtime.words import FootprintWords

# the eight lines of three (TE1)
LINES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 3, 6, 1, 4, 7, 2, 5, 8, 0, 4, 8, 2, 4, 6)


class Layers(FootprintWords, GameLayers):
    """x's pieces blue, o's orange (the two players' colours); the winning line pulses."""

    def __init__(self, n_cells, game, edges, name):
        GameLayers.__init__(self, n_cells, game, edges, name)
        self.owner = bytearray(n_cells)
        self.line = bytearray(n_cells)

    def set_position(self, pos, inf):
        GameLayers.set_position(self, pos, inf)
        own = pos.owner
        for c in range(self.n):
            self.owner[c] = own[c]
            self.line[c] = 0
        w = self.winner
        if w >= 0:
            for k in range(0, len(LINES), 3):
                a, b, c = LINES[k], LINES[k + 1], LINES[k + 2]
                if own[a] == w + 1 and own[b] == w + 1 and own[c] == w + 1:
                    self.line[a] = self.line[b] = self.line[c] = 1

    def paint(self, code, inf, state, hints):
        for c in range(self.n):
            o = self.owner[c]
            if self.line[c]:
                code[c] = self.WIN_CODES[o - 1]
            elif o:
                code[c] = self.PLAYER_CODES[o - 1]
