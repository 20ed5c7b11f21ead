"""A plain UCT player for any game of the board: the yardstick of ``xobo match --opponent uct:N``.

Host only (never on the device). It knows nothing of any game beyond the engine interface of
docs/games.md: ``legal_moves(buf)``, ``apply``, ``undo``, ``is_terminal``, ``returns``,
``side`` and ``n_players``. It is deliberately plain, so that "beats UCT-N" means the same
thing in every game:

- **UCB1** selection, ``mean + C * sqrt(ln(parent visits) / visits)`` with ``C = sqrt(2)``,
  on rewards in [0, 1];
- **expansion** of one untried move per playout (in a random order);
- **uniformly random playouts to the end** of the game (or to ``max_plies``, the match's
  move limit: such a playout is a draw, 0.5 for everyone);
- **N playouts a move**, then the most visited move (ties: the better mean, then the order
  the moves were expanded in).

Several players (X's three): every node keeps the rewards of the player who moved into it,
so each node maximises **the mover's own return** (max-n), with a reward of
``(returns[p] + 1) / 2``: 1 for the winner, 0 for the others, 0.5 each in a draw.

Deterministic for a seed: its random numbers come from ``random.Random(seed)``.

Usage::

    >>> from xobo.games import load
    >>> from xobo_host.bench.uct import choose_move
    >>> game = load("tiny")
    >>> pos = game.new_position(dict(game.DEFAULTS))
    >>> for text in ("a1", "a2", "b1", "b2"): pos.play(pos.parse_move(text))
    >>> pos.move_text(choose_move(pos, playouts=200, seed=7))   # x takes its win in one
    'c1'
    >>> pos.ply, pos.move_text(pos.last_move())                 # pos is left as it was
    (4, 'b2')
"""

import math
import random

EXPLORATION = math.sqrt(2.0)
_NO_LIMIT = 1 << 62  # no move limit: playouts run until no move is legal


class _Node:
    __slots__ = ("move", "mover", "children", "untried", "visits", "total")

    def __init__(self, move, mover):
        self.move = move  # the move that led here (-1 at the root)
        self.mover = mover  # the player who made it: this node's rewards are theirs
        self.children = []
        self.untried = None  # the moves not expanded yet (None: not asked yet)
        self.visits = 0
        self.total = 0.0


def _moves(pos, buf):
    n = pos.legal_moves(buf)
    return [buf[i] for i in range(n)]


def _rewards(pos):
    """Each player's reward in [0, 1] at the end of a playout (0.5 each when unfinished)."""
    if not pos.is_terminal():
        return [0.5] * pos.n_players
    return [(r + 1) / 2.0 for r in pos.returns()]


def choose_move(pos, playouts=1000, seed=0, max_plies=None, engine=None, stats=None):
    """The move of plain UCT after ``playouts`` playouts from ``pos`` (left unchanged).

    ``engine``: the game's rules module (for ``new_move_buffer``); found from the position's
    module when not given. ``max_plies``: playouts stop there (a draw). ``stats``: a dict that
    gets ``{"visits": {move: n}, "means": {move: mean}}`` of the root's children.
    """
    if playouts < 1:
        raise ValueError("UCT needs at least one playout a move, got %d" % playouts)
    if engine is None:
        import sys

        engine = sys.modules[type(pos).__module__]
    buf = engine.new_move_buffer()
    rng = random.Random(seed)
    root = _Node(-1, -1)
    root.untried = _moves(pos, buf)
    if not root.untried:
        raise ValueError("no legal move: the game is over")
    rng.shuffle(root.untried)
    if len(root.untried) == 1:
        return root.untried[0]
    log = math.log
    sqrt = math.sqrt
    random_unit = rng.random
    shuffle = rng.shuffle
    limit = max_plies if max_plies is not None else _NO_LIMIT
    path = [root]
    for _ in range(playouts):
        node = root
        del path[1:]
        work = pos.clone()  # cheaper than undoing every move of the playout
        apply = work.apply
        # selection: down through fully expanded nodes by UCB1
        while not node.untried and node.children:
            ln_n = log(node.visits)
            best = None
            best_u = -1.0
            for child in node.children:
                visits = child.visits
                u = child.total / visits + EXPLORATION * sqrt(ln_n / visits)
                if u > best_u:
                    best_u = u
                    best = child
            node = best
            apply(node.move)
            path.append(node)
            if node.untried is None:
                # a finished game has no legal move (docs/games.md): [] then, as at the limit
                node.untried = [] if work.ply >= limit else _moves(work, buf)
                shuffle(node.untried)
        # expansion: one untried move
        if node.untried:
            mover = work.side
            m = node.untried.pop()
            apply(m)
            child = _Node(m, mover)
            node.children.append(child)
            node = child
            path.append(node)
            node.untried = [] if work.ply >= limit else _moves(work, buf)
            shuffle(node.untried)
        # playout: uniformly random moves to the end (no legal move) or the move limit
        legal_moves = work.legal_moves
        while work.ply < limit:
            n = legal_moves(buf)
            if not n:
                break
            apply(buf[int(random_unit() * n)])
        rewards = _rewards(work)
        # back-propagation: each node counts the reward of the player who moved into it
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += rewards[visited.mover]
    best = root.children[0]
    for child in root.children:
        if child.visits > best.visits or (
            child.visits == best.visits
            and child.total / child.visits > best.total / best.visits
        ):
            best = child
    if stats is not None:
        stats["visits"] = {c.move: c.visits for c in root.children}
        stats["means"] = {c.move: c.total / c.visits for c in root.children}
    return best.move


def parse_spec(text):
    """``uct:N`` -> N (playouts a move); ValueError saying what is wrong otherwise."""
    name, colon, number = text.partition(":")
    if name != "uct" or not colon:
        raise ValueError("'%s' is no UCT player: write uct:N (N playouts a move)" % text)
    from xobo_host.cli.argtypes import number as whole

    try:  # (thousands may be separated: uct:20,000)
        return whole(number.replace(",", ""), 1)
    except ValueError as exc:
        raise ValueError("'%s': N in uct:N, playouts a move, %s (at least one)"
                         % (text, exc)) from None


def wilson(successes, trials, z=1.96):
    """The Wilson score interval (lo, hi) of a share ``successes / trials`` (95% for
    z = 1.96); (0.0, 1.0) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
