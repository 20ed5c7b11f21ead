"""The moves a position has seen, for undo: fixed-size pages, never one block that grows.

Each game keeps a record of ``stride`` bytes per ply (the move and what undo needs to restore).
The records live in pages of ``PAGE`` plies (a ``bytearray`` each, allocated when the game
reaches them): a long game needs many small blocks, never one large contiguous block that
doubles (on the Pico a 750-segment Chain Reaction game once asked for 21.5 KB at once while
being replayed at boot, and a fragmented heap has no such block).

A game also has a **limit**, the longest game the board keeps (``MAX_PLIES`` of the game's
package, docs/games.md): a record past it raises ``MoveError`` saying so, and the board ends
the game there with its message (docs/firmware.md). The limit bounds the save too.

A clone shares the pages of the plies both have seen (``copy``): the computer searches on a
clone without a second copy of a long game's history. A page shared with a clone is copied
before either side writes into it (copy on write, at most once a page).

Usage (a game's Position)::

    from xobo.history import History, PAGE_SHIFT, PAGE_MASK
    self._h = History(21, 2000)            # 21 bytes a ply, at most 2,000 plies
    page = self._h.for_write(ply)          # the page that holds ply's record (made if needed)
    o = (ply & PAGE_MASK) * 21              # its record in the page
    page = self._h.pages[ply >> PAGE_SHIFT]  # to read it back (undo)
    clone._h = self._h.copy(ply)
    self._h.reserve(999)                   # a saved game's pages, before it is replayed
"""

from xobo.compat import const
from xobo.errors import MoveError

PAGE_SHIFT = const(5)
PAGE = const(32)  # plies a page: 1 << PAGE_SHIFT
PAGE_MASK = const(31)


class History:
    """Records of ``stride`` bytes for plies 0 .. ``limit`` - 1, in pages of ``PAGE`` plies."""

    def __init__(self, stride, limit):
        self.stride = stride
        self.limit = limit
        self.pages = []
        n = (limit + PAGE - 1) >> PAGE_SHIFT
        self._shared = bytearray(n)  # 1: page k is shared with a clone (copy before writing)

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
            return pages[k]
        while len(pages) <= k:
            pages.append(bytearray(PAGE * self.stride))
        return pages[k]

    def reserve(self, plies):
        """Make the pages of plies ``0 .. plies - 1`` now (up to the limit): a game replayed
        at boot takes its pages before the replay's garbage, side by side, instead of one
        every 32 moves amid it (small blocks pinned all over the heap would leave no room
        for the computer's larger ones)."""
        plies = min(plies, self.limit)
        pages = self.pages
        while len(pages) << PAGE_SHIFT < plies:
            pages.append(bytearray(PAGE * self.stride))

    def copy(self, ply):
        """A history for a clone at ``ply``: the pages of plies ``0 .. ply`` are shared (each
        side copies a shared page before it writes into it); later pages are not needed."""
        h = History(self.stride, self.limit)
        n = min(len(self.pages), (ply >> PAGE_SHIFT) + 1)
        for k in range(n):
            h.pages.append(self.pages[k])
            h._shared[k] = 1
            self._shared[k] = 1
        return h

    def truncate(self, ply):
        """Drop the pages past ``ply`` (a game taken back a long way gives its memory back)."""
        keep = (ply >> PAGE_SHIFT) + 1
        while len(self.pages) > keep:
            self.pages.pop()
