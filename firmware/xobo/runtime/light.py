"""What the light shows (board.md "What the light shows"), rendered into a preallocated frame.

Layers, lowest first (a higher layer wins a cell):

1. the game's own layers (``GameLayers.paint``: XoBo's winning chain and Voina cells, the
   owners of X's pieces, ...);
2. the hint (the AI's suggested move);
3. a host/computer move waiting for the pieces (cells to put / take off);
4. the move in progress: for every candidate the cells still to do (cells to fill, cells to
   empty blinking, and what the game adds: a stack that gets a piece); a complete move that
   waits (longer settle time) pulses white, and so do the touch cells of moves the switches
   cannot tell apart (lift and put back the intended one; while it is lifted, that touched
   cell pulses white alone); a complete move left after a fix pulses white too: ok plays it,
   taking it off cancels;
5. the confirmation flash of a committed move;
6. cells to fix (fill / clear), and cells whose height must change after an undo or a load
   (white blink, over a cell to fill when it must hold a stack and over layer 1: while
   restoring and 5 s after);
7. the game gesture: the new game's cells double-flash white for 1.2 s.

Edges: the game paints them (``GameLayers.paint_edges``: the player to move in its colour,
the winner's at the end); while the computer thinks its player's edges blink yellow; for
1.2 s after the hint button's long press changed the computer opponent, the computer's edges
double-flash in its colour (every edge dim white when it was switched off).

The light paints the game's cells (``n_cells`` of its grid); :meth:`Light.output` places them
on the board's LEDs through the placement (``xobo.runtime.topology``); board cells outside the
game stay dark.

Usage::

    >>> from xobo.runtime.light import Light
    >>> from xobo.runtime.virtual_board import VirtualBoard
    >>> app = VirtualBoard().app          # (the app's: its inference, layers, LEDs, placement)
    >>> light = Light(app.inf, app.layers, app.n, edges=("N", "S", "E", "W"))
    >>> light.set_position(app.pos)       # after each position change (allocates a little)
    >>> light.render(0)                   # True: the colours changed (light.cells, light.edges)
    True
    >>> light.output(app.d.leds, app.place)   # into the LED driver's frame; then leds.show()
"""

import array

from xobo.compat import const, micropython, ptr8, ptr16, ticks_diff
from xobo.runtime import colours as C
from xobo.runtime import inference as I

CONFIRM_MS = const(400)
ADJUST_MS = const(5000)
HINT_MS = const(8000)
OPPONENT_MS = const(1200)  # one double flash (its pattern counts from the long press)
GAME_MS = const(1200)  # the game gesture's flash


@micropython.viper
def colour_codes(code: ptr8, n: int, rgb: ptr8, pattern: ptr8, plevel: ptr16, out: ptr8) -> int:
    """``out`` (RGB triples) = the colour of each of the ``n`` codes at the level of its
    pattern (``plevel[pattern[k]]``, 0..256); returns 1 if any byte changed. Native code on
    the Pico, where this loop took most of a 7 ms render."""
    changed = 0
    for c in range(n):
        k = code[c]
        v = plevel[pattern[k]]
        j = 3 * c
        r = (rgb[3 * k] * v) >> 8
        g = (rgb[3 * k + 1] * v) >> 8
        b = (rgb[3 * k + 2] * v) >> 8
        if out[j] != r or out[j + 1] != g or out[j + 2] != b:
            out[j] = r
            out[j + 1] = g
            out[j + 2] = b
            changed = 1
    return changed


@micropython.viper
def patterns_in(code: ptr8, n: int, pattern: ptr8) -> int:
    """The set (bit mask) of the patterns of the ``n`` codes."""
    mask = 0
    for c in range(n):
        mask |= 1 << int(pattern[code[c]])
    return mask


@micropython.viper
def copy_to_chain(cells: ptr8, index: ptr8, n: int, frame: ptr8):
    """The ``n`` cells' RGB into the LED chain frame at their chain ``index`` (< 256)."""
    for c in range(n):
        j = 3 * c
        k = 3 * int(index[c])
        frame[k] = cells[j]
        frame[k + 1] = cells[j + 1]
        frame[k + 2] = cells[j + 2]


@micropython.viper
def copy_to_chain16(cells: ptr8, index: ptr16, n: int, frame: ptr8):
    """``copy_to_chain`` with 16-bit chain indices (a chain of more than 256 LEDs, or a game
    placed on a larger board); cells whose index is 0xFFFF are not on the board."""
    for c in range(n):
        i = int(index[c])
        if i == 0xFFFF:
            continue
        j = 3 * c
        k = 3 * i
        frame[k] = cells[j]
        frame[k + 1] = cells[j + 1]
        frame[k + 2] = cells[j + 2]


def _chain_indices_of(index, to_board, n):
    """The chain index of each of the ``n`` game cells (``index``: the board cell's, through
    ``to_board``), 0xFFFF for a cell not on the board. Its own function: a generator inside
    ``Light.output`` would make that method allocate the variables it captures at every call
    (every frame), even when it does not run."""
    return array.array("H", (index[to_board[c]] if to_board[c] != 255 else 0xFFFF
                             for c in range(n)))


class Light:
    """Renders the board's state into ``cells`` (RGB per game cell) and ``edges`` (RGB per
    edge group)."""

    def __init__(self, inference, layers, n_cells, edges=("N", "S", "E", "W")):
        self.inf = inference
        self.layers = layers
        self.n = n_cells
        self.edge_names = edges
        n_edges = len(edges)
        self.code = bytearray(n_cells)
        self.edge_code = bytearray(n_edges)
        self.cells = bytearray(3 * n_cells)
        self.edges = bytearray(3 * n_edges)
        self._placed = None  # output(): the game cells' chain indices on a larger board
        self._placed_key = None  # (the placement table they were made for)
        self.side = 0
        self.winner = -1
        self.hints = True
        self.confirm = bytearray(n_cells)
        self.confirm_on = False
        self.confirm_at = 0
        self.hint = bytearray(n_cells)
        self.hint_on = False
        self.hint_at = 0
        self.adjust = bytearray(n_cells)
        self.adjust_on = False
        self.adjust_at = 0
        self.opp_on = False
        self.opp_at = 0
        self.opp_side = -1  # the computer's player shown, -1: switched off
        self.game_on = False  # the game gesture's flash
        self.game_at = 0
        self.blank = False  # everything off (brightness 0 / self-test draws itself)
        self.thinking = -1  # the player the computer is thinking for (its edges), -1: none
        # the cells a lesson speaks of (bytearray(n) while learning: xobo.runtime.learn)
        self.look = None
        self.dark = True  # the board's LEDs outside the game are to clear (output)
        # What the codes were painted from: the codes are painted again only when one of
        # these changed (an idle board then costs almost nothing per frame); the colours
        # are recomputed only while an animated pattern is shown and its level changed.
        self.version = 0  # bumped by every method that changes a layer
        self._seen = array.array("i", [-1] * 6)
        self._plevel = array.array("H", [0] * C.N_PATTERNS)
        self._animated = True
        self._painted = True
        self._adjust_seen = -1  # the inference version whose fill cells were marked

    # ------------------------------------------------------------ position-derived layers

    def set_position(self, pos):
        """The game's layers for pos (allocates a little)."""
        self.version += 1
        self.side = pos.side
        self.winner = pos.winner() if pos.is_terminal() else -1
        self.layers.set_position(pos, self.inf)

    def flash_move(self, pos_before, m, now):
        """Start the confirmation flash of move m (cells it changes), before it is applied."""
        self.version += 1
        for c in range(self.n):
            self.confirm[c] = 0
        self.layers.mark_move(self.confirm, pos_before, m)
        self.confirm_on = True
        self.confirm_at = now

    def show_hint(self, pos, m, now):
        self.version += 1
        for c in range(self.n):
            self.hint[c] = 0
        if m < 0:
            self.hint_on = False
            return
        self.layers.mark_move(self.hint, pos, m)
        self.hint_on = True
        self.hint_at = now

    def show_opponent(self, player, now):
        """Feedback of the opponent setting (the hint button's long press): the computer's
        edges double-flash in its colour, or every edge is dim white when the computer was
        switched off (player -1), for 1.2 s. No allocation."""
        self.opp_side = player
        self.opp_on = True
        self.opp_at = now

    def show_game(self, now):
        """The game gesture: the new game's cells double-flash white for 1.2 s."""
        self.version += 1
        self.game_on = True
        self.game_at = now

    def show_adjust(self, before, after, now):
        """Stacks whose height changes while their switch stays closed (after an undo, a
        load); ``before`` None: none. While the board restores, the empty cells that must
        get a stack join them (:meth:`render`); they blink until 5 s after the restore."""
        self.version += 1
        self._adjust_seen = -1
        n = 0
        for c in range(self.n):
            if before is None:
                self.adjust[c] = 0
                continue
            a = before[c]
            b = after[c]
            v = 1 if (a and b and a != b) else 0
            self.adjust[c] = v
            n += v
        self.adjust_on = n > 0
        self.adjust_at = now

    # ------------------------------------------------------------ rendering

    def _paint_move(self, i, put_code, take_code):
        """The remaining cells of candidate move index i."""
        inf = self.inf
        code = self.code
        base = i * inf.fp
        lifted = inf.lifted
        added = inf.added
        for k in range(inf.n_l[i]):
            c = inf.fp_l[base + k]
            if not lifted[c]:
                code[c] = take_code
        for k in range(inf.n_a[i]):
            c = inf.fp_a[base + k]
            if not added[c]:
                code[c] = put_code
        self.layers.paint_move(code, inf, i, put_code, take_code)

    def render(self, now):
        """Fill ``cells`` and ``edges`` for time ``now``; True if any colour changed.
        No allocation. The codes are painted again only when something they depend on
        changed, and the colours only while an animated pattern is lit."""
        inf = self.inf
        if self.confirm_on and ticks_diff(now, self.confirm_at) >= CONFIRM_MS:
            self.confirm_on = False
        if self.hint_on and ticks_diff(now, self.hint_at) >= HINT_MS:
            self.hint_on = False
        if self.adjust_on and ticks_diff(now, self.adjust_at) >= ADJUST_MS:
            self.adjust_on = False
        if self.opp_on and ticks_diff(now, self.opp_at) >= OPPONENT_MS:
            self.opp_on = False
        if self.game_on and ticks_diff(now, self.game_at) >= GAME_MS:
            self.game_on = False
        st = inf.state
        if st == I.RESTORE:  # a cell to fill with a stack: its height is to adjust too
            if self._adjust_seen != inf.version:  # (the cells to fill changed: once each)
                self._adjust_seen = inf.version
                adjust = self.adjust
                fill = inf.fill
                h = inf.heights
                for c in range(self.n):
                    if fill[c] and h[c] >= 2:
                        adjust[c] = 1
                        self.adjust_on = True
            if self.adjust_on:
                self.adjust_at = now  # on while restoring, then 5 s
        if self._inputs_changed(inf):
            self._paint(inf, st)
            mask = patterns_in(self.code, self.n, C.PATTERN_OF) | patterns_in(
                self.edge_code, len(self.edge_code), C.PATTERN_OF)
            self._animated = (mask & C.ANIMATED) != 0
        elif not self._animated:
            return False  # nothing changed and nothing moves: the frame stands
        return self._colour(now)

    def _inputs_changed(self, inf):
        """True (and remembered) when anything the codes are painted from changed."""
        seen = self._seen
        flags = ((1 if self.confirm_on else 0) | (2 if self.hint_on else 0)
                 | (4 if self.adjust_on else 0) | (8 if self.opp_on else 0)
                 | (16 if self.hints else 0) | (32 if self.blank else 0)
                 | (64 if self.game_on else 0)
                 | ((self.thinking + 1) << 7) | ((self.opp_side + 1) << 10))
        if (seen[0] == inf.version and seen[1] == self.version and seen[2] == inf.state
                and seen[3] == flags and seen[4] == self.side and seen[5] == self.winner):
            return False
        seen[0] = inf.version
        seen[1] = self.version
        seen[2] = inf.state
        seen[3] = flags
        seen[4] = self.side
        seen[5] = self.winner
        return True

    def _paint(self, inf, st):
        """The code of every cell and edge from the layers (module docstring)."""
        self._painted = True
        code = self.code
        n = self.n
        for c in range(n):
            code[c] = 0
        w = self.winner
        layers = self.layers
        if not self.blank:
            layers.paint(code, inf, st, self.hints)
            look = self.look
            if look is not None:  # over nothing the game lights: a piece keeps its colour
                for c in range(n):
                    if look[c] and not code[c]:
                        code[c] = C.LOOK
            if self.hint_on:
                for c in range(n):
                    if self.hint[c]:
                        code[c] = C.HINT
            if inf.target_index >= 0 and not inf.restoring:
                self._paint_move(inf.target_index, C.PENDING_PUT, C.PENDING_TAKE)
            if st == I.PROGRESS or st == I.COMPLETE or st == I.WAIT_LONGER:
                for j in range(inf.n_cand):
                    i = inf.cand[j]
                    if i != inf.complete:
                        self._paint_move(i, C.PUT, C.TAKE)
                if inf.ambiguous:  # moves the switches cannot tell apart: touch one
                    st_cells = inf.amb_stack  # their touch cells
                    for c in range(n):
                        if st_cells[c]:
                            code[c] = C.WAITING
                if inf.touch >= 0:  # a touch in progress: waits for the cell to come back
                    code[inf.touch] = C.WAITING
                elif st == I.WAIT_LONGER:
                    layers.waiting_cells(code, inf, inf.complete, C.WAITING)
            elif st == I.UNKNOWN and inf.touch >= 0:
                code[inf.touch] = C.WAITING
            elif st == I.OFFER:  # left after a fix: a complete move that waits for ok
                layers.waiting_cells(code, inf, inf.complete, C.WAITING)
            if self.confirm_on:
                for c in range(n):
                    if self.confirm[c]:
                        code[c] = C.CONFIRM
            if (st == I.FIX and w < 0) or st == I.RESTORE:  # after the end: pieces are free
                fill = inf.fill
                clear = inf.clear
                for c in range(n):
                    if fill[c]:
                        code[c] = C.FILL
                    elif clear[c]:
                        code[c] = C.CLEAR
            if self.adjust_on:  # over the fill colour and the lowest layer, for its 5 s
                for c in range(n):
                    k = code[c]
                    if self.adjust[c] and (not k or k == C.FILL or k == C.VOINA
                                           or k == C.REGROUP or k == C.WIN_NS
                                           or k == C.WIN_EW):
                        code[c] = C.ADJUST
            if self.game_on:
                for c in range(n):
                    code[c] = C.GAME_SHOWN
        ec = self.edge_code
        if self.blank:
            for e in range(len(ec)):
                ec[e] = 0
            return
        layers.paint_edges(ec, self.thinking)
        if self.thinking >= 0:  # the computer searches its move
            for e in layers.edges_of(self.thinking):
                ec[e] = C.THINKING
        if self.opp_on:  # the opponent setting just changed
            s = self.opp_side
            if s < 0:
                for e in range(len(ec)):
                    ec[e] = C.OPP_OFF
            else:
                for e in range(len(ec)):
                    ec[e] = 0
                for e in layers.edges_of(s):
                    ec[e] = layers.OPP_CODES[s]

    def _colour(self, now):
        """The colours of the painted codes at ``now``; True if any changed."""
        pl = self._plevel
        dt = -1
        if self.opp_on:
            dt = ticks_diff(now, self.opp_at)
        elif self.game_on:
            dt = ticks_diff(now, self.game_at)
        same = not C.levels_into(pl, now, dt)
        if same and not self._painted:
            return False
        self._painted = False
        a = colour_codes(self.code, self.n, C.RGB_BYTES, C.PATTERN_OF, pl, self.cells)
        b = colour_codes(self.edge_code, len(self.edge_code), C.RGB_BYTES, C.PATTERN_OF, pl,
                         self.edges)
        return a != 0 or b != 0

    def output(self, leds, placement=None):
        """Copy the rendered frame into the LED driver (its show() applies the limiter);
        ``placement``: where the game's cells are on the board (None: the same numbering)."""
        cells = self.cells
        n = self.n
        frame = getattr(leds, "frame", None)
        index = getattr(leds, "cells", None)
        if placement is None or placement.identity:
            if frame is not None and isinstance(index, bytes) and len(index) >= n:
                # straight into the driver's frame (LedFrame layout: chains of <= 256 LEDs)
                copy_to_chain(cells, index, n, frame)
            elif frame is not None and isinstance(index, array.array) and len(index) >= n:
                copy_to_chain16(cells, index, n, frame)  # a chain of more than 256 LEDs
            else:
                for c in range(n):
                    j = 3 * c
                    leds.set_cell(c, cells[j], cells[j + 1], cells[j + 2])
        else:
            if self.dark:  # the board's cells outside the game: once after a placement
                for b in range(len(placement.to_game)):
                    if placement.to_game[b] == 255:
                        leds.set_cell(b, 0, 0, 0)
                self.dark = False
            to_board = placement.to_board
            if self.layers.LIGHTS_UNUSED:  # the game lights its unused cells too
                to_board = placement.at_board
            if frame is not None and index is not None:
                # native: each game cell's chain index, made once per placement (a Python
                # loop of set_cell calls took ~5 ms of each frame on the 15x15 board, every
                # 40 ms while the computer thinks)
                placed = self._placed
                if placed is None or self._placed_key is not to_board:
                    placed = _chain_indices_of(index, to_board, n)
                    self._placed = placed
                    self._placed_key = to_board
                copy_to_chain16(cells, placed, n, frame)
            else:
                for c in range(n):
                    b = to_board[c]
                    if b != 255:
                        j = 3 * c
                        leds.set_cell(b, cells[j], cells[j + 1], cells[j + 2])
        e = self.edges
        names = self.edge_names
        for k in range(len(names)):
            j = 3 * k
            leds.set_edge(names[k], e[j], e[j + 1], e[j + 2])

    def cell_hex(self, c):
        j = 3 * c
        return "%02x%02x%02x" % (self.cells[j], self.cells[j + 1], self.cells[j + 2])
