"""What every game's ``Position`` is built on (docs/games.md, "The state"): the base class
``GamePosition``, and ``History``, the pages of a long game's moves.

**GamePosition**, like OpenSpiel's base ``State``: a game writes its hot paths
(``legal_moves``, ``apply``, ``undo``), its notation and its result, and inherits ``play``
(checked), ``is_legal``, ``legal_actions``, ``history``, ``last_move`` and ``str()``. A
subclass gives ``max_moves`` (the length of its move buffers), ``ply``, ``legal_moves(buf)``,
``why_illegal(m)``, ``apply(m)``, ``move_at(ply)`` and ``to_string()``. The perft count, which
only the host needs, is ``xobo.rulescli.perft``. One module with ``History``: resident on the
device with the selected game's rules, it costs no module of its own.

**History**: the moves a position has seen, for undo: fixed-size pages, never one block that
grows. Each game keeps a record of ``stride`` bytes per ply (the move and what undo needs to
restore). The records live in pages of ``PAGE`` plies (a ``bytearray`` each, allocated when
the game reaches them): a long game needs many small blocks, never one large contiguous block
that doubles (on the Pico a 750-segment Chain Reaction game once asked for 21.5 KB at once
while being replayed at boot, and a fragmented heap has no such block).

A game also has a **limit**, the longest game the board keeps (``MAX_PLIES`` of the game's
package, docs/games.md): a record past it raises ``MoveError`` saying so, and the board ends
the game there with its message (docs/firmware.md). The limit bounds the save too.

A clone shares the pages of the plies both have seen (``copy``): the computer searches on a
clone without a second copy of a long game's history. A page shared with a clone is copied
before either side writes into it (copy on write, at most once a page).

Usage (a game's Position: the test game's, ``class Position(GamePosition)``)::

    >>> from xobo.gamekit import GamePosition, History, PAGE_SHIFT, PAGE_MASK
    >>> from xobo.games.tiny.position import Position
    >>> issubclass(Position, GamePosition)
    True
    >>> pos = Position(0)
    >>> pos.play(pos.parse_move("b2"))          # checked
    >>> pos.play(pos.parse_move("b2"))          # MoveError says why a move is not legal
    Traceback (most recent call last):
    ...
    xobo.errors.MoveError: b2 is taken (by x)
    >>> pos.legal_actions()[:3], pos.history(), pos.last_move()
    ([0, 1, 2], [4], 4)

A game's history (its ``apply`` writes ply's record, its ``undo`` reads it back)::

    >>> h = History(21, 2000)                   # 21 bytes a ply, at most 2,000 plies
    >>> ply = 40
    >>> k = ply >> PAGE_SHIFT
    >>> page = h.pages[k] if h.ready[k] else h.for_write(ply)  # ply's page (made if needed)
    >>> o = (ply & PAGE_MASK) * 21              # its record in the page
    >>> page[o] = 7
    >>> h.pages[ply >> PAGE_SHIFT][o]           # read back (undo)
    7
    >>> shared = h.copy(ply)                    # a clone's: the pages of plies < 40 shared
    >>> h.reserve(999)                          # a saved game's pages, before it is replayed
"""

import array

from xobo.compat import const
from xobo.errors import MoveError

PAGE_SHIFT = const(5)
PAGE = const(32)  # plies a page: 1 << PAGE_SHIFT
PAGE_MASK = const(31)


class History:
    """Records of ``stride`` bytes for plies 0 .. ``limit`` - 1 (rounded up to whole pages), in
    pages of ``PAGE`` plies."""

    def __init__(self, stride, limit):
        self.stride = stride
        n = (limit + PAGE - 1) >> PAGE_SHIFT
        self.limit = n << PAGE_SHIFT  # whole pages: the games' fast path checks only the page
        self.pages = []
        self._shared = bytearray(n)  # 1: page k is shared with a clone (copy before writing)
        # 1: page k exists and is this history's own, to write into at once (the games'
        # apply reads it before calling for_write, a call saved on the search's hot path)
        self.ready = bytearray(n + 1)

    def for_write(self, ply):
        """The page that holds ``ply``'s record, ready to be written: made when the game
        reaches it, copied first when a clone shares it. ``MoveError`` past the limit."""
        if ply >= self.limit:
            raise MoveError("the game has reached %d moves, the longest this board keeps"
                            % self.limit)
        k = ply >> PAGE_SHIFT
        pages = self.pages
        if k < len(pages):
            if self._shared[k]:
                pages[k] = bytearray(pages[k])
                self._shared[k] = 0
                self.ready[k] = 1
            return pages[k]
        while len(pages) <= k:
            # marked ready once it is there: out of memory while it is made leaves the pages
            # and their marks as they were (a page marked first would be read before it is)
            pages.append(bytearray(PAGE * self.stride))
            self.ready[len(pages) - 1] = 1
        return pages[k]

    def reserve(self, plies):
        """Make the pages of plies ``0 .. plies - 1`` now (up to the limit): a game replayed
        at boot takes its pages before the replay's garbage, side by side, instead of one
        every 32 moves amid it (small blocks pinned all over the heap would leave no room
        for the computer's larger ones)."""
        plies = min(plies, self.limit)
        pages = self.pages
        while len(pages) << PAGE_SHIFT < plies:
            pages.append(bytearray(PAGE * self.stride))  # (then marked, as in for_write)
            self.ready[len(pages) - 1] = 1

    def copy(self, ply):
        """A history for a clone at ``ply``: the pages of the plies before ``ply``'s page are
        shared (each side copies a shared page before it writes into it); ``ply``'s own page,
        the one both sides write into next, is the clone's own copy at once, so the game's
        page never moves (a page copied by the game after each search left a hole where it
        was, and a long game's heap ended in pieces too small for the search's buffers);
        later pages are not needed."""
        h = History(self.stride, self.limit)
        pages = self.pages
        last = ply >> PAGE_SHIFT
        n = min(len(pages), last + 1)
        for k in range(n):
            if k == last:  # (made before it is recorded: out of memory leaves h as it was)
                h.pages.append(bytearray(pages[k]))
                h.ready[k] = 1
                continue
            h.pages.append(pages[k])
            h._shared[k] = 1
            self._shared[k] = 1
            self.ready[k] = 0
        return h

    def truncate(self, ply):
        """Drop the pages past ``ply`` (a game taken back a long way gives its memory back)."""
        keep = (ply >> PAGE_SHIFT) + 1
        while len(self.pages) > keep:
            self.pages.pop()
            self.ready[len(self.pages)] = 0


class GamePosition:
    """The base of every game's ``Position`` (above)."""

    def legal_actions(self):
        """The legal moves as a list (allocates; use legal_moves on hot paths)."""
        buf = array.array("H", bytes(2 * self.max_moves))
        n = self.legal_moves(buf)
        return [buf[i] for i in range(n)]

    def is_legal(self, m):
        return self.why_illegal(m) is None

    def play(self, m):
        """Play ``m`` after checking it; MoveError says why it is not legal (see apply)."""
        why = self.why_illegal(m)
        if why is not None:
            raise MoveError(why)
        self.apply(m)

    def history(self):
        """The moves applied since this position was made or parsed, oldest first."""
        return [self.move_at(i) for i in range(self.ply)]

    def last_move(self):
        """The move that led here, -1 at the start."""
        return self.move_at(self.ply - 1) if self.ply else -1

    def __str__(self):
        return self.to_string()
