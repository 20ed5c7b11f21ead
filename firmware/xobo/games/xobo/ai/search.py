"""Alpha-beta search with iterative deepening, threat extensions and a node budget.

The search plays moves with the rules engine (``apply``/``undo``) and asks
:mod:`xobo.games.xobo.ai.evaluate` for everything else (its native ``legal_moves``/``winner``/
``threatens``, equal to the engine's, and the distances). What it knows about XoBo:

- a side to move that has a Voina cell (V1) wins at once (it places there): no search;
- a side to move *under Voina* (V2) only has *defences*: the moves after which the attacker has
  no winning placement any more (a regroup M2 or spread M3 that cuts the attack, a placement
  that makes a blocus V3 or empties the reserve E4). No defence: the node is lost. Such forced
  nodes do not use up depth (an extension, bounded by ``max_ext``), so a double attack (two
  cuts needed, one regroup allowed) and the follow-up attack (threat, regroup, threat ...) are
  seen to their end;
- elsewhere only a few placements are searched: the cells on or next to the mover's shortest
  paths (they help the mover more than the opponent, E2 makes helping both dangerous), cells
  that make three singles aligned in the opponent's path (the only defence against a later
  Voina is a regroup, which needs three aligned singles), one quiet cell, and every spread;
- at the horizon the ``strong`` level keeps searching threats (placements that declare Voina)
  and their defences (a threat-space quiescence search).

The budget counts nodes, so a search with a given seed and budget is exactly reproducible on
CPython and MicroPython; ``time_ms`` adds a wall-clock limit on top, and ``poll`` (called at
every node and inside the longer steps) lets the caller run its own loop or cancel
(``SearchCancelled``).

Usage::

    >>> from xobo.games.xobo.ai.search import Searcher, Config
    >>> from xobo.games.xobo.ai.rng import Rng
    >>> from xobo.games.xobo.rules.notation import format_move
    >>> from xobo.games.xobo.rules.position import Position
    >>> pos = Position()
    >>> rng = Rng(seed=3)
    >>> s = Searcher(pos.clone(), Config(max_depth=3, node_limit=2000), rng)
    >>> move, score = s.best_move()
    >>> format_move(move)
    'f1'
"""

import array

from xobo.compat import ticks_diff, ticks_ms
from xobo.games.xobo.ai.evaluate import (
    INF,
    KEY_BIAS,
    SURE,
    WIN,
    align_keys,
    cell_keys,
    defence_trials,
    distance,
    flood,
    legal_moves,
    quiet_cell,
    race_score,
    score_distances,
    spreads,
    supply,
    threatens,
    top_cells,
    winner,
)
from xobo.games.xobo.rules.moves import PLACE, SPREAD, make_place, new_move_buffer

_MAXPLY = 24
_CAND = 96


class Budget(Exception):
    """Raised inside the search when the node or time budget is spent."""


class SearchCancelled(Exception):
    """The caller's ``poll()`` returned True: the search stopped without a move (the
    position given to ``choose_move`` is unchanged)."""


class Config:
    """Search settings of one level."""

    def __init__(
        self,
        max_depth=2,
        node_limit=1000,
        k_adv=8,
        k_def=3,
        k_quiet=1,
        root_extra=4,
        max_ext=4,
        qsearch=0,
        q_threats=4,
        prune_gifts=0,
        w_own=0,
        w_race=0,
        w_parity=0,
        refute=0,
        avoid_lost=0,
    ):
        self.max_depth = max_depth
        self.node_limit = node_limit
        self.k_adv = k_adv  # placements that shorten the mover's path
        self.k_def = k_def  # placements that align three singles in the opponent's path
        self.k_quiet = k_quiet  # placements far from both paths (a tempo move)
        self.root_extra = root_extra  # more placements at the root
        self.max_ext = max_ext  # forced (under-Voina) plies searched beyond the depth
        self.qsearch = qsearch  # threat plies searched at the horizon (0: none)
        self.q_threats = q_threats  # threats tried per quiescence node
        self.prune_gifts = prune_gifts  # skip placements that hand the opponent a Voina cell
        self.w_own = w_own  # per cube of own reserve (captures, M4) more than the opponent
        self.w_race = w_race  # per cube below 12 in the common reserve: who runs out first
        self.w_parity = w_parity  # the E4 race decided (no stack, nobody can link): who wins
        self.refute = refute  # >0: after depth 1, drop root moves that lose to a Voina
        # without defence, trying this many of the opponent's threats
        self.avoid_lost = avoid_lost  # never the unfinished iteration's proven loss


class _Scratch:
    """The search's buffers, made once and reused by every search (one search at a time):
    a move then allocates only the position's clone and a few small lists at the root.
    Every buffer is written before it is read, so nothing leaks from one search to the next."""

    def __init__(self):
        self.gen = new_move_buffer()
        self.cand = [array.array("H", bytes(2 * _CAND)) for _ in range(_MAXPLY)]
        self.keys = array.array("i", bytes(4 * _CAND))
        self.ncand = bytearray(_MAXPLY)
        self.a_me = bytearray(81)
        self.b_me = bytearray(81)
        self.a_op = bytearray(81)
        self.b_op = bytearray(81)
        self.cellkey = array.array("i", bytes(4 * 81))
        self.taken = bytearray(81)
        self.topc = bytearray(32)
        self.topk = array.array("i", bytes(4 * 32))


_SCRATCH = []


def scratch_memory():
    """Bytes of the search's buffers (payload), 0 before the first search made them."""
    if not _SCRATCH:
        return 0
    sc = _SCRATCH[0]
    n = 2 * len(sc.gen) + 2 * _CAND * _MAXPLY + 4 * len(sc.keys) + 4 * len(sc.cellkey)
    n += 4 * len(sc.topk)
    for b in (sc.ncand, sc.a_me, sc.b_me, sc.a_op, sc.b_op, sc.taken, sc.topc):
        n += len(b)
    return n


def release_scratch():
    """Forget the scratch buffers (made again by the next search)."""
    while _SCRATCH:
        _SCRATCH.pop()


def _scratch():
    if not _SCRATCH:
        _SCRATCH.append(_Scratch())
    return _SCRATCH[0]


class Searcher:
    def __init__(self, pos, cfg, rng, time_ms=None, poll=None):
        self.pos = pos
        self.cfg = cfg
        self.rng = rng
        self.time_ms = time_ms
        self.poll = poll
        self.nodes = 0
        self.depth_done = 0
        sc = _scratch()
        self.gen = sc.gen
        self.cand = sc.cand
        self.keys = sc.keys
        self.ncand = sc.ncand
        self.a_me = sc.a_me
        self.b_me = sc.b_me
        self.a_op = sc.a_op
        self.b_op = sc.b_op
        self.cellkey = sc.cellkey
        self.taken = sc.taken
        self.topc = sc.topc
        self.topk = sc.topk
        self.t0 = ticks_ms()
        self.verified = -1  # the root move that passed the refutation check (refute)
        self.fallback = -1

    # ------------------------------------------------------------------ budget

    def _tick(self):
        self.nodes += 1
        if self.nodes > self.cfg.node_limit:
            raise Budget()
        self._poll()
        # every node: a node takes up to ~50 ms on a Pico, eight of them overshot the bound
        self._in_time()

    def _poll(self):
        """Within a step that takes longer than a node (candidates): the caller's poll (the
        time bound is checked at the nodes, inside the deepening's try)."""
        if self.poll is not None and self.poll():
            raise SearchCancelled()

    def _in_time(self):
        """Budget once the time bound is past (a check outside the node budget stays
        within the bound, as the nodes do)."""
        if self.time_ms is not None and ticks_diff(ticks_ms(), self.t0) > self.time_ms:
            raise Budget()

    # ------------------------------------------------------------------ move lists

    def _push(self, ply, m, key):
        n = self.ncand[ply]
        if n < _CAND:
            self.cand[ply][n] = m
            self.keys[n] = key
            self.ncand[ply] = n + 1

    def _sort(self, ply):
        """Insertion sort of the candidates of ``ply`` by key (lowest first, stable)."""
        c = self.cand[ply]
        k = self.keys
        n = self.ncand[ply]
        for i in range(1, n):
            m = c[i]
            v = k[i]
            j = i - 1
            while j >= 0 and k[j] > v:
                c[j + 1] = c[j]
                k[j + 1] = k[j]
                j -= 1
            c[j + 1] = m
            k[j + 1] = v

    def _top(self, ply, k, offset):
        """Push the ``k`` untaken cells of lowest ``cellkey`` (below 9999) as placements,
        lowest first, marking them taken (evaluate.top_cells; its keys carry KEY_BIAS)."""
        top = self.topc
        topk = self.topk
        n = top_cells(self.cellkey, self.taken, top, topk, k)
        for i in range(n):
            self._push(ply, make_place(top[i]), offset + topk[i] - KEY_BIAS)

    def defences(self, ply):
        """Under Voina: the moves after which the attacker cannot win at once (V2, V3, E4).
        Fills cand[ply]; returns -1 if one of them wins outright for the mover (then it is
        cand[ply][0] alone), else the count."""
        pos = self.pos
        me = pos.side
        opp = me ^ 1
        h = pos.heights
        self.ncand[ply] = 0
        n = legal_moves(pos, self.gen)
        gen = self.gen
        poll = self.poll
        # placements defend only by a blocus (my own path then goes through the attacker's
        # cell: my distance is at most 2) or by taking the last cube the attacker could place
        d_me = flood(h, me, True, self.a_me)
        flood(h, me, False, self.b_me)
        a = self.a_me
        b = self.b_me
        exhaust = pos.common == 1 and pos.own[opp] == 0
        if not exhaust and pos.variant == "xobo":
            return self._defences_native(ply, n, d_me, me)
        # the time bound too, below the root: the refutation check lists a threat's defences
        # outside the nodes (up to 0.4 s past the bound on a stock firmware, emulated Pico,
        # 15x15); the root's own list (``root_moves``) is what any move is chosen from, and no
        # Budget handler stands around it: it is always finished
        time_ms = self.time_ms if ply > 0 else None
        t0 = self.t0
        for i in range(n):
            if poll is not None and poll():
                raise SearchCancelled()  # a trial move: ~10-40 us here, ~10 ms on a Pico
            if time_ms is not None and ticks_diff(ticks_ms(), t0) > time_ms:
                raise Budget()
            m = gen[i]
            kind = m & 3
            key = 0
            if kind == PLACE:
                if not exhaust:
                    if d_me > 2:
                        continue
                    c = (m >> 2) & 127
                    if a[c] + b[c] - 1 > 2:
                        continue
                key = 2
            elif kind == SPREAD:
                key = 1
            pos.apply(m)
            w = winner(pos)
            ok = w < 0 and not threatens(pos, opp, False)
            pos.undo()
            if w == me:
                self.ncand[ply] = 0
                self.cand[ply][0] = m
                self.ncand[ply] = 1
                return -1
            if ok:
                self._push(ply, m, key)
        self._sort(ply)
        return self.ncand[ply]

    def _defences_native(self, ply, n, d_me, me):
        """``defences`` by the native trial loop (evaluate.defence_trials): the same moves in
        the same order, at most eight trial moves between two polls (variant xobo, the
        attacker keeping a cube to place whatever the mover plays: no exhaustion, E4, to
        decide)."""
        gen = self.gen
        out = self.cand[ply]
        keys = self.keys
        k = 0
        start = 0
        while start < n:
            self._poll()
            if ply > 0:
                self._in_time()  # (below the root only, as in ``defences``)
            stop = start + 8 if start + 8 < n else n
            k = defence_trials(self.pos.heights, gen, start, stop, self.a_me, self.b_me, d_me,
                               me, out, keys, k)
            if k < 0:
                self.ncand[ply] = 1
                return -1
            start = stop
        self.ncand[ply] = k
        self._sort(ply)
        return k

    def candidates(self, ply, extra):
        """Not under Voina: spreads and a few placements (see the module docstring)."""
        cfg = self.cfg
        pos = self.pos
        h = pos.heights
        me = pos.side
        opp = me ^ 1
        self.ncand[ply] = 0
        a1 = self.a_me
        b1 = self.b_me
        a2 = self.a_op
        b2 = self.b_op
        d_me = flood(h, me, True, a1)
        flood(h, me, False, b1)
        d_op = flood(h, opp, True, a2)
        flood(h, opp, False, b2)
        self._poll()
        can_place = pos.common or pos.own[me]
        flags = 1 if can_place else 0
        if cfg.prune_gifts and d_op == 2:
            flags |= 2  # a cell on the opponent's path would be a Voina cell on their turn
        has_stack = cell_keys(h, a1, b1, a2, b2, self.cellkey, self.taken, d_me, d_op, flags)
        if has_stack:
            n = spreads(pos, self.gen)
            gen = self.gen
            for i in range(n):
                self._push(ply, gen[i], -1000)
        if not can_place:
            return self.ncand[ply]
        k_adv = cfg.k_adv + extra
        self._poll()
        self._top(ply, k_adv, 0)
        self._poll()
        # cells that align three singles with a single of the opponent's shortest path
        if cfg.k_def and d_op < INF:
            align_keys(h, a2, b2, self.cellkey, self.taken, d_op)
            self._poll()
            self._top(ply, cfg.k_def, 500)
        if cfg.k_quiet:
            self._poll()
            # the empty cell farthest from both paths: a waiting move (the reserve, E4)
            best = quiet_cell(a1, b1, a2, b2, self.taken, d_me, d_op)
            if best >= 0:
                self._push(ply, make_place(best), 900)
        return self.ncand[ply]

    def threats(self, ply, limit=0):
        """Quiescence: placements after which the mover threatens (declares Voina); at most
        ``limit`` of them (0: the level's ``q_threats``)."""
        pos = self.pos
        h = pos.heights
        me = pos.side
        self.ncand[ply] = 0
        if not (pos.common or pos.own[me]):
            return 0
        d_me = flood(h, me, True, self.a_me)
        if d_me != 2:
            return 0
        flood(h, me, False, self.b_me)
        a = self.a_me
        b = self.b_me
        k = 0
        for c in range(81):
            if h[c] == 0 and a[c] + b[c] - 1 == 2:
                self._push(ply, make_place(c), 0)
                k += 1
                if k >= (limit or self.cfg.q_threats):
                    break
        return self.ncand[ply]

    # ------------------------------------------------------------------ search

    def static(self):
        pos = self.pos
        h = pos.heights
        me = pos.side
        d_me = distance(h, me)
        d_op = distance(h, me ^ 1)
        s = score_distances(pos, d_me, d_op)
        cfg = self.cfg
        if cfg.w_parity:
            s += race_score(pos, d_me, d_op, cfg.w_parity)
        if cfg.w_own:
            # captured cubes are the cubes left to place once the common reserve is empty
            # (M1), and a side with none then loses (E4)
            s += cfg.w_own * (pos.own[me] - pos.own[me ^ 1])
            c = pos.common
            if c < 12:
                if supply(pos, me) > supply(pos, me ^ 1):
                    s += (12 - c) * cfg.w_race
                else:
                    s -= (12 - c) * cfg.w_race
        return s

    def negamax(self, depth, alpha, beta, ply, ext, q):
        self._tick()
        pos = self.pos
        w = winner(pos)
        me = pos.side
        if w >= 0:
            return WIN - ply if w == me else ply - WIN
        if threatens(pos, me, False):
            return WIN - ply - 1  # V1: I place on my Voina cell (kv: or spread) and win
        if ply >= _MAXPLY - 1:
            return self.static()
        forced = threatens(pos, me ^ 1, False)
        best = -WIN - 1
        if forced:
            if depth <= 0 and ext >= self.cfg.max_ext:
                return self.static() - 200
            n = self.defences(ply)
            if n < 0:
                return WIN - ply - 1
            if n == 0:
                return ply + 2 - WIN  # no defence: the attacker wins next move
            child_depth = depth  # forced: no depth used
            ext += 1
        else:
            if depth <= 0:
                stand = self.static()
                if q >= self.cfg.qsearch or stand >= beta:
                    return stand
                n = self.threats(ply)
                if n == 0:
                    return stand
                if stand > alpha:
                    alpha = stand
                child_depth = 0
                q += 1
                best = stand
            else:
                n = self.candidates(ply, 0)
                if n == 0:
                    return self.static()
                child_depth = depth - 1
        cand = self.cand[ply]
        for i in range(n):
            m = cand[i]
            pos.apply(m)
            try:
                v = -self.negamax(child_depth, -beta, -alpha, ply + 1, ext, q)
            finally:
                pos.undo()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def refuted(self, m, tick=True):
        """Whether the root move ``m`` loses to a Voina of the opponent's that leaves no
        defence (a placement on their shortest path at distance 2, or a spread, or, when
        ``m`` declared Voina, a defence: the double attack, three plies), or gives the
        opponent a Voina cell. One node per threat tried (``tick``), or outside the budget (at most
        ``refute`` threats); the position is restored."""
        pos = self.pos
        pos.apply(m)
        try:
            opp = pos.side
            w = winner(pos)
            if w >= 0:
                return w == opp
            if threatens(pos, opp, False):
                return True  # the opponent has a Voina cell: it places there and wins (E3)
            ply = 1
            if threatens(pos, opp ^ 1, False):
                # ``m`` declared Voina: the opponent's replies are its defences (a defence
                # that wins outright: refuted; none: ``m`` wins)
                n = self.defences(1)
                if n <= 0:
                    return n < 0
                ply = 2
            else:
                self.threats(1, self.cfg.refute)
                k = spreads(pos, self.gen)  # a spread can open a path too (captures)
                for i in range(k):
                    self._push(1, self.gen[i], 0)
                n = self.ncand[1]
            cand = self.cand[1]
            for i in range(n):
                if tick:
                    self._tick()
                else:
                    self._poll()
                    self._in_time()
                pos.apply(cand[i])
                try:
                    if winner(pos) < 0 and threatens(pos, opp, False):
                        if self.defences(ply + 1) == 0:
                            return True
                finally:
                    pos.undo()
            return False
        finally:
            pos.undo()

    def holds_one_ply(self, m):
        """Whether the root move ``m`` leaves the opponent without an immediate win (no
        winning line, no Voina cell): outside the budget, polled."""
        self._poll()
        pos = self.pos
        me = pos.side
        pos.apply(m)
        try:
            w = winner(pos)
            return w == me or (w < 0 and not threatens(pos, me ^ 1, False))
        finally:
            pos.undo()

    def root_moves(self):
        """The root's moves (cand[0]) and whether the root is forced; -1: a move wins now."""
        pos = self.pos
        # the scratch made (the first search), the threat test: polled on each side of it
        # (from the last poll before the search to the first in candidates: 11-30 ms on the
        # emulated Pico, enough to report a switch closed then over 50 ms late)
        self._poll()
        threat = threatens(pos, pos.side ^ 1)
        self._poll()
        if threat:
            return self.defences(0)
        n = self.candidates(0, self.cfg.root_extra)
        # a winning spread or an exhausting move is found by the search; shuffle equal keys
        return n

    def drop_refuted(self, order, scores):
        """Remove from the front of ``order`` (and ``scores``) the root moves that lose to a
        Voina without defence, until the first that does not (or one is left): the search
        goes on from the best move that survives the check. Returns that move, or -1 when
        the budget ran out first (then the best move not found refuted is in
        ``self.fallback``)."""
        try:
            while len(order) > 1 and self.refuted(order[0]):
                order.pop(0)
                scores.pop(0)
            self.verified = order[0]
        except Budget:
            best = -1
            for j in range(len(order)):
                if best < 0 or scores[j] > scores[best]:
                    best = j
            self.fallback = order[best]
            return -1
        return order[0]

    def best_move(self):
        """Iterative deepening over the root moves; returns (move, score)."""
        pos = self.pos
        n = self.root_moves()
        cand = self.cand[0]
        if n < 0:
            return cand[0], WIN
        if n == 0:
            # no defence (lost) or nothing searched: any legal move
            k = legal_moves(pos, self.gen)
            return self.gen[self.rng.below(k)], -WIN
        if n == 1:
            return cand[0], 0
        # a seeded shuffle of the root order among equal keys gives varied, replayable games
        keys = self.keys
        order = [cand[i] for i in range(n)]
        okeys = [keys[i] for i in range(n)]
        for i in range(n - 1, 0, -1):
            j = self.rng.below(i + 1)
            if okeys[i] == okeys[j]:
                order[i], order[j] = order[j], order[i]
        best_move = order[0]
        best_score = -WIN - 1
        scores = [0] * n  # the last finished iteration's score of order[i] (a bound)
        vals = [0] * n  # this iteration's
        for depth in range(1, self.cfg.max_depth + 1):
            cur_best = -1
            cur_score = -WIN - 1
            alpha = -WIN - 1
            done = 0
            try:
                for i in range(n):
                    m = order[i]
                    pos.apply(m)
                    try:
                        v = -self.negamax(depth - 1, -WIN - 1, -alpha, 1, 0, 0)
                    finally:
                        pos.undo()
                    done = i + 1
                    vals[i] = v
                    if v > cur_score:
                        cur_score = v
                        cur_best = i
                        if v > alpha:
                            alpha = v
            except Budget:
                # the previous best was searched first: the moves done are better informed,
                # unless all of them were found lost; then the previous iteration's best
                # move not yet found lost (a move not searched deeper may still hold:
                # playing a proven loss would throw the game away)
                keep = cur_score > -SURE or not self.cfg.avoid_lost
                if cur_best >= 0 and keep:
                    best_move = order[cur_best]
                    best_score = cur_score
                elif cur_best >= 0 and depth == 1:
                    # no iteration before: the first move not searched that does not hand
                    # the opponent an immediate win (a root of many spreads can spend the
                    # budget in depth 1, whose moves searched were all lost)
                    best_move = order[cur_best]
                    best_score = cur_score
                    for i in range(done, n):
                        if self.holds_one_ply(order[i]):
                            best_move = order[i]
                            best_score = 0  # not searched: its score is not known
                            break
                elif cur_best >= 0:
                    # (the moves searched were all lost: cur_score at or below -SURE; the
                    # rest, not searched yet, are the previous iteration's)
                    alt = -1
                    for i in range(done, n):
                        if alt < 0 or scores[i] > scores[alt]:
                            alt = i
                    if alt >= 0:
                        best_move = order[alt]
                        best_score = scores[alt]
                    else:
                        best_move = order[cur_best]
                        best_score = cur_score
                break
            for i in range(n):
                scores[i] = vals[i]
            best_move = order[cur_best]
            best_score = cur_score
            self.depth_done = depth
            # best first for the next iteration
            m = order.pop(cur_best)
            order.insert(0, m)
            v = scores.pop(cur_best)
            scores.insert(0, v)
            if depth == 1 and self.cfg.refute and cur_score < SURE:
                m = self.drop_refuted(order, scores)
                if m < 0:
                    best_move = self.fallback  # the budget ran out meanwhile
                    break
                best_move = m
                best_score = scores[0]
                n = len(order)
                if n == 1:
                    break
            if cur_score >= SURE or cur_score <= -SURE:
                break
        # the deeper iteration may prefer a move the check has not seen (its replies are a
        # few candidates, not every threat): it must pass the check too, else the move that
        # passed it is played
        # (on the board, when the time bound comes first, the move that passed is played: the
        # check past the bound made a stock firmware's move 2,058 ms, emulated Pico, 15x15)
        v = self.verified
        if v >= 0 and best_move != v and best_score < SURE:
            try:
                refuted = self.refuted(best_move, False)
            except Budget:
                refuted = True
            if refuted:
                best_move = v
                best_score = scores[order.index(v)]
        return best_move, best_score
