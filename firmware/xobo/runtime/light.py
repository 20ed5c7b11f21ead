"""What the light shows (board.md "What the light shows"), rendered into a preallocated frame.

Layers, lowest first (a higher layer wins a cell):

1. the winning chain (game over), or, with hints on and nothing happening, the attacker's
   Voina cells and the defender's regroup cells (not while a host or computer move waits:
   the board then shows that move alone);
2. the hint (the AI's suggested move);
3. a host/computer move waiting for the cubes (cells to put / take off);
4. the move in progress: for every candidate the cells still to do (targets get a cube,
   captured pairs and cells still to empty blink), the lifted stack dimly; a complete move
   that waits (longer settle time) pulses white, and so do the possible stack cells of a
   regroup the switches cannot tell apart (lift and put back the intended one; while it is
   lifted, that touched cell pulses white alone); a complete move left after a fix (two
   stray cubes, one cleared) pulses white too: ok plays it, taking it off cancels;
5. the confirmation flash of a committed move;
6. cells to fix (fill / clear), and stacks whose height must change after an undo or a load
   (white blink, over a cell to fill when it must hold a stack and over layer 1 -- after
   undoing a regroup the same side is under Voina again: while restoring and 5 s after).

Edges: the side to move lights its two edges in its colour; at the end the winner's edges
pulse, and the loser's edges blink when the loss is by blocus or exhaustion. For 1.2 s after
the hint button's long press changed the computer opponent, the computer's two edges
double-flash in its colour (every edge dim white when it was switched off).

Usage::

    light = Light(inference)
    light.set_position(pos)           # after each position change (allocates a little)
    light.render(now)                 # fills light.cells (RGB x 81) and light.edges (N S E W)
    light.output(leds)                # copies into the LED driver frame; then leds.show()
"""

import array

from xobo.compat import const, micropython, ptr8, ptr16, ticks_diff
from xobo.games.xobo.rules.geometry import RAY_CELLS
from xobo.runtime import colours as C
from xobo.runtime import inference as I

N_CELLS = const(81)
EDGE_NAMES = ("N", "S", "E", "W")
CONFIRM_MS = const(400)
ADJUST_MS = const(5000)
HINT_MS = const(8000)
OPPONENT_MS = const(1200)  # one double flash (its pattern counts from the long press)


def _mark_move(layer, m):
    """Set to 1 in ``layer`` the cells move m changes: its cell and, unless it is a put, the
    first ``m >> 12`` cells of its ray (one fewer for a regroup). No allocation."""
    kind = m & 3
    c = (m >> 2) & 127
    layer[c] = 1
    if kind != 0:
        ro = (c * 8 + ((m >> 9) & 7)) * 8
        n = m >> 12
        if kind == 1:
            n -= 1
        for k in range(n):
            layer[RAY_CELLS[ro + k]] = 1


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


class Light:
    """Renders the board's state into ``cells`` (bytearray 243) and ``edges`` (bytearray 12)."""

    def __init__(self, inference):
        self.inf = inference
        self.code = bytearray(N_CELLS)
        self.edge_code = bytearray(4)
        self.cells = bytearray(3 * N_CELLS)
        self.edges = bytearray(12)
        self.side = 0
        self.winner = -1
        self.loss_kind = 0  # 0 chain, 1 blocus (both connected), 2 exhaustion
        self.chain = bytearray(N_CELLS)
        self.voina = bytearray(N_CELLS)
        self.regroup = bytearray(N_CELLS)
        self.under_voina = False
        self.hints = True
        self.confirm = bytearray(N_CELLS)
        self.confirm_on = False
        self.confirm_at = 0
        self.hint = bytearray(N_CELLS)
        self.hint_on = False
        self.hint_at = 0
        self.adjust = bytearray(N_CELLS)
        self.adjust_on = False
        self.adjust_at = 0
        self.opp_on = False
        self.opp_at = 0
        self.opp_side = -1  # the computer's side shown (0 NS, 1 EW), -1: switched off
        self.blank = False  # everything off (brightness 0 / self-test draws itself)
        self.thinking = -1  # the side the computer is thinking for (its edges), -1: none
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
        """Recompute the chain, Voina and regroup layers for pos (allocates a little)."""
        self.version += 1
        self.side = pos.side
        w = pos.winner()
        self.winner = w
        for c in range(N_CELLS):
            self.chain[c] = 0
            self.regroup[c] = 0
            self.voina[c] = 0
        self.under_voina = False
        self.loss_kind = 0
        if w >= 0:
            chain = pos.winning_chain()
            for c in chain:
                self.chain[c] = 1
            if not chain:
                self.loss_kind = 2
            elif pos.connected(w ^ 1):
                self.loss_kind = 1
            return
        if pos.under_voina():
            self.under_voina = True
            pos.voina_cells(pos.side ^ 1, self.voina)
            inf = self.inf
            for i in range(inf.n_moves):
                m = inf.moves[i]
                if m & 3 == 1:  # REGROUP: the stack cell and the other cells
                    c = (m >> 2) & 127
                    self.regroup[c] = 1
                    base = i * I.FP
                    for k in range(inf.n_l[i]):
                        self.regroup[inf.fp_l[base + k]] = 1

    def flash_move(self, pos_before, m, now):
        """Start the confirmation flash of move m (cells it changes), before it is applied."""
        self.version += 1
        for c in range(N_CELLS):
            self.confirm[c] = 0
        _mark_move(self.confirm, m)
        self.confirm_on = True
        self.confirm_at = now

    def show_hint(self, m, now):
        self.version += 1
        for c in range(N_CELLS):
            self.hint[c] = 0
        if m < 0:
            self.hint_on = False
            return
        _mark_move(self.hint, m)
        self.hint_on = True
        self.hint_at = now

    def show_opponent(self, side, now):
        """Feedback of the opponent setting (the hint button's long press): the computer's
        two edges (side 0 NS, 1 EW) double-flash in its colour, or every edge is dim white
        when the computer was switched off (side -1), for 1.2 s. No allocation."""
        self.opp_side = side
        self.opp_on = True
        self.opp_at = now

    def show_adjust(self, before, after, now):
        """Stacks whose height changes while their switch stays closed (after an undo, a
        load); ``before`` None: none. While the board restores, the empty cells that must
        get a stack join them (:meth:`render`); they blink until 5 s after the restore."""
        self.version += 1
        self._adjust_seen = -1
        n = 0
        for c in range(N_CELLS):
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
        m = inf.moves[i]
        base = i * I.FP
        nl = inf.n_l[i]
        na = inf.n_a[i]
        lifted = inf.lifted
        added = inf.added
        for k in range(nl):
            c = inf.fp_l[base + k]
            if not lifted[c]:
                code[c] = take_code
        for k in range(na):
            c = inf.fp_a[base + k]
            if not added[c]:
                code[c] = put_code
        if m & 3 == 2:  # spread: the stacks on its way get a cube (invisible), the source
            c = (m >> 2) & 127
            ro = (c * 8 + ((m >> 9) & 7)) * 8
            h = inf.heights
            for k in range(m >> 12):
                t = RAY_CELLS[ro + k]
                if h[t] >= 2:
                    code[t] = put_code
            if lifted[c]:
                code[c] = C.SOURCE
        elif m & 3 == 1 and put_code == C.PENDING_PUT:
            code[(m >> 2) & 127] = put_code

    def _paint_waiting(self, i):
        """The cells a complete move (index i) fills, and its stack cell unless it is a
        spread, pulse white: it waits (for ok, or the longer settle time)."""
        inf = self.inf
        code = self.code
        base = i * I.FP
        for k in range(inf.n_a[i]):
            code[inf.fp_a[base + k]] = C.WAITING
        m = inf.moves[i]
        if m & 3 != 2:
            code[(m >> 2) & 127] = C.WAITING

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
        st = inf.state
        if st == I.RESTORE:  # a cell to fill with a stack: its height is to adjust too
            if self._adjust_seen != inf.version:  # (the cells to fill changed: once each)
                self._adjust_seen = inf.version
                adjust = self.adjust
                fill = inf.fill
                h = inf.heights
                for c in range(N_CELLS):
                    if fill[c] and h[c] >= 2:
                        adjust[c] = 1
                        self.adjust_on = True
            if self.adjust_on:
                self.adjust_at = now  # on while restoring, then 5 s
        if self._inputs_changed(inf):
            self._paint(inf, st)
            mask = patterns_in(self.code, N_CELLS, C.PATTERN_OF) | patterns_in(
                self.edge_code, 4, C.PATTERN_OF)
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
                 | ((self.thinking + 1) << 6) | ((self.opp_side + 1) << 8))
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
        for c in range(N_CELLS):
            code[c] = 0
        w = self.winner
        if not self.blank:
            if w >= 0:
                win_code = C.WIN_NS if w == 0 else C.WIN_EW
                for c in range(N_CELLS):
                    if self.chain[c]:
                        code[c] = win_code
            elif self.hints and self.under_voina and st == I.MATCH and inf.target_index < 0:
                # (a host or computer move shows only itself: no regroup choices around it)
                for c in range(N_CELLS):
                    if self.voina[c]:
                        code[c] = C.VOINA
                    elif self.regroup[c]:
                        code[c] = C.REGROUP
            if self.hint_on:
                for c in range(N_CELLS):
                    if self.hint[c]:
                        code[c] = C.HINT
            if inf.target_index >= 0 and not inf.restoring:
                self._paint_move(inf.target_index, C.PENDING_PUT, C.PENDING_TAKE)
            if st == I.PROGRESS or st == I.COMPLETE or st == I.WAIT_LONGER:
                for j in range(inf.n_cand):
                    i = inf.cand[j]
                    if i != inf.complete:
                        self._paint_move(i, C.PUT, C.TAKE)
                if inf.ambiguous:  # regroups the switches cannot tell apart: touch one
                    st_cells = inf.amb_stack  # their possible stack cells
                    for c in range(N_CELLS):
                        if st_cells[c]:
                            code[c] = C.WAITING
                if inf.touch >= 0:  # a touch in progress: waits for the cell to come back
                    code[inf.touch] = C.WAITING
                elif st == I.WAIT_LONGER:
                    self._paint_waiting(inf.complete)
            elif st == I.UNKNOWN and inf.touch >= 0:
                code[inf.touch] = C.WAITING
            elif st == I.OFFER:  # left after a fix: a complete move that waits for ok
                self._paint_waiting(inf.complete)
            if self.confirm_on:
                for c in range(N_CELLS):
                    if self.confirm[c]:
                        code[c] = C.CONFIRM
            if (st == I.FIX and w < 0) or st == I.RESTORE:  # after the end: cubes are free
                fill = inf.fill
                clear = inf.clear
                for c in range(N_CELLS):
                    if fill[c]:
                        code[c] = C.FILL
                    elif clear[c]:
                        code[c] = C.CLEAR
            if self.adjust_on:  # over the fill colour and the lowest layer, for its 5 s
                for c in range(N_CELLS):
                    k = code[c]
                    if self.adjust[c] and (not k or k == C.FILL or k == C.VOINA
                                           or k == C.REGROUP or k == C.WIN_NS
                                           or k == C.WIN_EW):
                        code[c] = C.ADJUST
        # edges N S E W
        ec = self.edge_code
        if self.blank:
            ec[0] = ec[1] = ec[2] = ec[3] = 0
        elif w >= 0:
            wc = C.WIN_NS if w == 0 else C.WIN_EW
            lc = C.LOSER if self.loss_kind else C.OFF
            if w == 0:
                ec[0] = ec[1] = wc
                ec[2] = ec[3] = lc
            else:
                ec[2] = ec[3] = wc
                ec[0] = ec[1] = lc
        else:
            pc = C.NS_COLOUR if self.side == 0 else C.EW_COLOUR
            if self.side == 0:
                ec[0] = ec[1] = pc
                ec[2] = ec[3] = 0
            else:
                ec[2] = ec[3] = pc
                ec[0] = ec[1] = 0
        if self.thinking >= 0 and not self.blank:  # the computer searches its move
            if self.thinking == 0:
                ec[0] = ec[1] = C.THINKING
            else:
                ec[2] = ec[3] = C.THINKING
        if self.opp_on and not self.blank:  # the opponent setting just changed
            s = self.opp_side
            if s < 0:
                ec[0] = ec[1] = ec[2] = ec[3] = C.OPP_OFF
            elif s == 0:
                ec[0] = ec[1] = C.OPP_NS
                ec[2] = ec[3] = 0
            else:
                ec[2] = ec[3] = C.OPP_EW
                ec[0] = ec[1] = 0

    def _colour(self, now):
        """The colours of the painted codes at ``now``; True if any changed."""
        pl = self._plevel
        same = not C.levels_into(pl, now, ticks_diff(now, self.opp_at) if self.opp_on else -1)
        if same and not self._painted:
            return False
        self._painted = False
        a = colour_codes(self.code, N_CELLS, C.RGB_BYTES, C.PATTERN_OF, pl, self.cells)
        b = colour_codes(self.edge_code, 4, C.RGB_BYTES, C.PATTERN_OF, pl, self.edges)
        return a != 0 or b != 0

    def output(self, leds):
        """Copy the rendered frame into the LED driver (its show() applies the limiter)."""
        cells = self.cells
        frame = getattr(leds, "frame", None)
        index = getattr(leds, "cells", None)
        if (frame is not None and isinstance(index, bytes) and len(index) >= N_CELLS):
            # straight into the driver's frame (LedFrame layout: chains of up to 256 LEDs)
            copy_to_chain(cells, index, N_CELLS, frame)
        else:
            for c in range(N_CELLS):
                j = 3 * c
                leds.set_cell(c, cells[j], cells[j + 1], cells[j + 2])
        e = self.edges
        leds.set_edge("N", e[0], e[1], e[2])
        leds.set_edge("S", e[3], e[4], e[5])
        leds.set_edge("E", e[6], e[7], e[8])
        leds.set_edge("W", e[9], e[10], e[11])

    def cell_hex(self, c):
        j = 3 * c
        return "%02x%02x%02x" % (self.cells[j], self.cells[j + 1], self.cells[j + 2])
