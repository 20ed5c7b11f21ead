"""XoBo on the board: its light layers and its words (docs/games.md, docs/rules/xobo.md).

The runtime lights what every game has (the move in progress, the hint, fixes); XoBo adds:

- at the end, the winning chain (E2-E4), the winner's edges, and the loser's edges blinking
  when the loss is by blocus or exhaustion;
- with hints on and nothing happening, under Voina (V1-V2): the attacker's Voina cells and
  the defender's regroup cells (not while a host or computer move waits: the board then shows
  that move alone);
- a spread's targets that are stacks (the switch under a stack stays closed, so the footprint
  cannot show them) and the lifted stack of a spread in progress, dimly;
- the edges: North-South lights N and S, East-West E and W.

Usage: the runtime makes ``Layers(n_cells, game, edges, name)`` for the XoBo game.
"""

from xobo.games.xobo.rules.geometry import RAY_CELLS, cell_name
from xobo.runtime import colours as C
from xobo.runtime import inference as I
from xobo.runtime.layers import GameLayers


def result_reason(pos):
    """How the game was won (rules E2-E4), '' while it goes on. The last mover P is the
    opponent of the side to move Q: 'blocus' (E2: Q wins, P's move connected both pairs of
    edges), 'connected-opponent' (E2: P's move connected only Q's edges), 'connected' (E3: P
    connected its own edges), 'exhaustion' (E4: Q cannot move, kv: has no cubes left)."""
    w = pos.winner()
    if w < 0:
        return ""
    if w == pos.side:
        return "blocus" if pos.connected(w ^ 1) else "connected-opponent"
    return "connected" if pos.connected(w) else "exhaustion"


def mark_move(layer, m):
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


class Layers(GameLayers):
    """XoBo's layers (the module docstring)."""

    PIECE = "cube"
    EDGES_OF = (("N", "S"), ("E", "W"))

    def __init__(self, n_cells, game, edges, name):
        GameLayers.__init__(self, n_cells, game, edges, name)
        self.chain = bytearray(n_cells)
        self.voina = bytearray(n_cells)
        self.regroup = bytearray(n_cells)
        self.under_voina = False
        self.loss_kind = 0  # 0 chain, 1 blocus (both connected), 2 exhaustion
        self._edges = tuple(tuple(edges.index(e) for e in pair if e in edges)
                            for pair in self.EDGES_OF)

    def set_position(self, pos, inf):
        """The chain, Voina and regroup layers for pos (allocates a little)."""
        self.side = pos.side
        w = pos.winner()
        self.winner = w
        for c in range(self.n):
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
            for i in range(inf.n_moves):
                m = inf.moves[i]
                if m & 3 == 1:  # REGROUP: the stack cell and the other cells
                    self.regroup[(m >> 2) & 127] = 1
                    base = i * inf.fp
                    for k in range(inf.n_l[i]):
                        self.regroup[inf.fp_l[base + k]] = 1

    def paint(self, code, inf, state, hints):
        w = self.winner
        if w >= 0:
            win_code = C.WIN_NS if w == 0 else C.WIN_EW
            for c in range(self.n):
                if self.chain[c]:
                    code[c] = win_code
        elif hints and self.under_voina and state == I.MATCH and inf.target_index < 0:
            # (a host or computer move shows only itself: no regroup choices around it)
            for c in range(self.n):
                if self.voina[c]:
                    code[c] = C.VOINA
                elif self.regroup[c]:
                    code[c] = C.REGROUP

    def mark_move(self, layer, pos, m):
        mark_move(layer, m)

    def paint_move(self, code, inf, i, put_code, take_code):
        m = inf.moves[i]
        if m & 3 == 2:  # spread: the stacks on its way get a cube (invisible), the source
            c = (m >> 2) & 127
            ro = (c * 8 + ((m >> 9) & 7)) * 8
            h = inf.heights
            for k in range(m >> 12):
                t = RAY_CELLS[ro + k]
                if h[t] >= 2:
                    code[t] = put_code
            if inf.lifted[c]:
                code[c] = C.SOURCE
        elif m & 3 == 1 and put_code == C.PENDING_PUT:
            code[(m >> 2) & 127] = put_code

    def waiting_cells(self, code, inf, i, waiting_code):
        """The cells a complete move fills, and its stack cell unless it is a spread."""
        base = i * inf.fp
        for k in range(inf.n_a[i]):
            code[inf.fp_a[base + k]] = waiting_code
        m = inf.moves[i]
        if m & 3 != 2:
            code[(m >> 2) & 127] = waiting_code

    def edges_of(self, player):
        return self._edges[player]

    def paint_edges(self, ec, thinking):
        for e in range(len(ec)):
            ec[e] = 0
        w = self.winner
        if w >= 0:
            lc = C.LOSER if self.loss_kind else C.OFF
            for e in self._edges[w ^ 1]:
                ec[e] = lc
            for e in self._edges[w]:
                ec[e] = C.WIN_NS if w == 0 else C.WIN_EW
        else:
            for e in self._edges[self.side]:
                ec[e] = C.NS_COLOUR if self.side == 0 else C.EW_COLOUR

    # ------------------------------------------------------------ words

    # the words a player reads: xobo.games.xobo.words, imported when first asked (the
    # page, serial `state`, an ok with nothing to commit), not at boot

    def move_words(self, pos, m):
        from xobo.games.xobo import words

        return words.move_words(m)

    def remaining_words(self, pos, inf, i):
        from xobo.games.xobo import words

        return words.remaining_words(inf, i)

    def touch_words(self, cell):
        return "put %s back: the regroup goes onto it" % cell_name(cell)

    def ambiguous_words(self, cells):
        return "%s? lift the stack you chose and put it back" % cells

    def offer_undo_words(self, pos, m):
        return "taking the cube off" if m & 3 == 0 else "putting the cubes back"

    def annotation(self, pos):
        return "(v)" if pos.declared_voina() else ""

    def commit_events(self, pos, m):
        if not pos.declared_voina():
            return ()
        cells = [cell_name(c) for c in range(self.n) if self.voina[c]]
        return (("voina", self.names[pos.side ^ 1], "threatens",
                 " ".join(cells) or "a spread"),)

    def state_extra(self, pos):
        """XoBo's fields of the simulator's state."""
        return {"voina": bool(pos.under_voina()), "result_reason": result_reason(pos),
                "reserves": {"common": pos.common, "ns": pos.own[0], "ew": pos.own[1]}}

    def end_text(self, pos):
        w = pos.winner()
        if w < 0:
            return "*"
        return "%s %s" % (self.names[w], result_reason(pos))

