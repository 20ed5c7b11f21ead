"""Words from footprints: what a player reads (the page, serial ``state ... say``), for games
whose moves say everything by the cells they empty and fill (docs/games.md).

A mixin for a game's layers (``class Layers(FootprintWords, GameLayers)``); a game with its
own words (XoBo's regroups and spreads) writes them in its board layer instead.
"""


class FootprintWords:
    """The words of docs/games.md's board layer, from the footprints (``PIECE``: the noun)."""

    PIECE = "piece"

    def move_words(self, pos, m):
        """Move m in words for a player: 'put a piece on b3', 'move the piece on a1 to a4'."""
        sl = self._scratch()
        nl, na = pos.footprint(m, sl[0], sl[1])
        lifted = [self.name(sl[0][k]) for k in range(nl)]
        added = [self.name(sl[1][k]) for k in range(na)]
        out = []
        if added:
            out.append("put a %s on %s" % (self.PIECE, ", ".join(added)))
        if lifted:
            out.append("take the %s off %s" % (self.PIECE, ", ".join(lifted)))
        return "; ".join(out) or pos.move_text(m)

    def remaining_words(self, pos, inf, i):
        """What is left to do of candidate move index i ('' when all is done)."""
        base = i * inf.fp
        puts = [self.name(inf.fp_a[base + k]) for k in range(inf.n_a[i])
                if not inf.added[inf.fp_a[base + k]]]
        takes = [self.name(inf.fp_l[base + k]) for k in range(inf.n_l[i])
                 if not inf.lifted[inf.fp_l[base + k]]]
        out = []
        if puts:
            out.append("put a %s on %s" % (self.PIECE, ", ".join(puts)))
        if takes:
            out.append("take the %s off %s" % (self.PIECE, ", ".join(takes)))
        return "; ".join(out)

    def touch_words(self, cell):
        """A touch in progress: what putting ``cell`` back decides."""
        return "put %s back: that chooses the move" % self.name(cell)

    def ambiguous_words(self, cells):
        return "%s? lift the one you chose and put it back" % cells

    def offer_undo_words(self, pos, m):
        """How the player cancels a move offered after a fix."""
        sl = self._scratch()
        nl, na = pos.footprint(m, sl[0], sl[1])
        if nl == 0 and na == 1:
            return "taking the %s off" % self.PIECE
        return "putting the %ss back" % self.PIECE
