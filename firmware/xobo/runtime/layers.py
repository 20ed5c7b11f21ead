"""The game's part of the light and of the words: the base every game's board layer extends.

The runtime's light (``xobo.runtime.light``) composes the board's frame: the game's own layers
at the bottom (this class's :meth:`paint`), then the hint, a host or computer move, the move in
progress, the confirmation flash and the cells to fix. A game's ``board.py`` subclasses
:class:`GameLayers` and overrides what its rules need (docs/games.md): pieces' owners, threats,
chains, scores, the cells a footprint cannot show, and the words a player reads.

Everything here works from footprints alone. The words a player reads (``move_words``,
``remaining_words``, ...) are the game's too; ``xobo.runtime.words.FootprintWords`` says them
from footprints, for games that need nothing better (a separate module: a game with its own
words, XoBo, does not load it on the device).

Usage (a game's board.py)::

    >>> from xobo.runtime.layers import GameLayers
    >>> from xobo.runtime.words import FootprintWords
    >>> class Layers(FootprintWords, GameLayers):
    ...     def paint(self, code, inf, state, hints):
    ...         ...                       # the game's lowest layer, no allocation
"""

from xobo.games import part
from xobo.runtime import colours as C


class GameLayers:
    """Defaults from footprints; ``game`` is the game's package, ``edges`` the board's edge
    group names (``("N", "S", "E", "W")``), ``name`` a cell namer (cell -> 'e5')."""

    PIECE = "piece"  # what a player puts down, in words
    # the game paints the cells of its grid it does not play on (pos.used 0) and the board
    # shows them: Chain Reaction's scores on files a and i (their switches stay unread)
    LIGHTS_UNUSED = False
    # ok steps through moves the switches cannot tell apart (Inference.step_ambiguous), as
    # a touch of their touch cell would pick them; off: ok only says what to touch (XoBo)
    OK_STEPS = False
    BUTTON_NAMES = ()  # the game's own buttons (serial ``press NAME``, gestures ``press:NAME``)
    PLAYER_CODES = (C.NS_COLOUR, C.EW_COLOUR, C.P3_COLOUR)
    WIN_CODES = (C.WIN_NS, C.WIN_EW, C.WIN_P3)
    OPP_CODES = (C.OPP_NS, C.OPP_EW, C.OPP_P3)

    def __init__(self, n_cells, game, edges, name):
        self.n = n_cells
        self.game = game
        self.edges = edges
        self.name = name
        self.side = 0
        self.winner = -1
        self.names = game.PLAYER_NAMES

    # ------------------------------------------------------------ layers

    def set_position(self, pos, inf):
        """After every position change (may allocate a little)."""
        self.side = pos.side
        self.winner = pos.winner()

    def paint(self, code, inf, state, hints):
        """The game's lowest layer into ``code`` (the runtime cleared it). No allocation."""

    def mark_move(self, layer, pos, m):
        """Set to 1 in ``layer`` the cells move m changes (the hint, the confirmation flash):
        its footprint and its touch cell. No allocation after the first call."""
        sl = self._scratch()
        nl, na = pos.footprint(m, sl[0], sl[1])
        for k in range(nl):
            layer[sl[0][k]] = 1
        for k in range(na):
            layer[sl[1][k]] = 1
        t = pos.touch_cell(m)
        if t >= 0:
            layer[t] = 1

    def _scratch(self):
        s = getattr(self, "_fp", None)
        if s is None:
            fp = part(self.game, "engine").FOOTPRINT_MAX + 1
            s = self._fp = (bytearray(fp), bytearray(fp))
        return s

    def paint_move(self, code, inf, i, put_code, take_code):
        """Cells of candidate move index ``i`` its footprint cannot show (a piece put onto a
        stack): the game paints them. The runtime painted the footprint's remaining cells."""

    def waiting_cells(self, code, inf, i, waiting_code):
        """A complete move that waits (ok or the longer settle time): the cells it fills and
        its touch cell pulse."""
        base = i * inf.fp
        for k in range(inf.n_a[i]):
            code[inf.fp_a[base + k]] = waiting_code
        t = inf.touch_of[i] - 1
        if t >= 0:
            code[t] = waiting_code

    def gesture(self, action, pos, inf):
        """The action a button gesture runs now (``xobo.runtime.gestures``): ``action``
        itself, or another one, or ``"press:NAME"`` (the game's button NAME, ``App.press``)."""
        return action

    def button_move(self, pos, name):
        """The move the game's button ``name`` plays now (-1: none)."""
        f = getattr(pos, "button_move", None)
        return f(name) if f is not None else -1

    def pressed_words(self, name, on):
        """What the player reads after pressing ``name`` that picks the next move."""
        if on:
            return "%s pressed: it counts for the move you make now (press again to cancel)" % (
                name,)
        return "%s cancelled" % name

    def waiting_words(self, pos, inf):
        """What a complete move that waits the long settle time asks of the player, or ''
        for the runtime's words."""
        return ""

    def fix_words(self, inf):
        """What the game says of the cells to fix (``inf.fill`` / ``inf.clear``), or '' for
        the cells alone (X: a lifted piece's neighbours are lit)."""
        return ""

    def edges_of(self, player):
        """The edge groups that show ``player`` (indices into ``edges``): all of them."""
        return range(len(self.edges))

    def paint_edges(self, ec, thinking):
        """The edge codes: the player to move in its colour, the winner's at the end."""
        for e in range(len(ec)):
            ec[e] = 0
        if self.winner >= 0:
            for e in self.edges_of(self.winner):
                ec[e] = self.WIN_CODES[self.winner]
        elif self.winner == -1:
            for e in self.edges_of(self.side):
                ec[e] = self.PLAYER_CODES[self.side]

    # ------------------------------------------------------------ what the session says

    def annotation(self, pos):
        """Text after a committed move's notation in its event ('(v)' in XoBo), or ''."""
        return ""

    def commit_events(self, pos, m):
        """Events after the commit of m (pos is after it): a tuple of event tuples."""
        return ()

    def end_text(self, pos):
        """'*' while the game goes on, else the winner's name and how ('draw' when none)."""
        if not pos.is_terminal():
            return "*"
        w = pos.winner()
        return self.names[w] if w >= 0 else "draw"

    def result_event(self, pos):
        """(winner name, how) for ``event result``, or None while the game goes on."""
        if not pos.is_terminal():
            return None
        w = pos.winner()
        t = self.end_text(pos)
        name = self.names[w] if w >= 0 else "draw"
        how = t[len(name) + 1:] if t.startswith(name + " ") else ""
        return name, how
