"""The computer opponent and hints (issue 6): levels ``random``, ``greedy``, ``beginner``,
``pico`` and ``strong``, all built on the rules engine and deterministic for a given seed.

Usage::

    >>> from xobo.games.xobo.ai import choose_move, hint
    >>> from xobo.games.xobo.rules.notation import format_move
    >>> from xobo.games.xobo.rules.position import Position
    >>> pos = Position()
    >>> pos.apply(pos.parse_move("e5"))
    >>> m = choose_move(pos, level="pico", seed=3)   # an engine move int; pos is not changed
    >>> format_move(m)
    'c4'
    >>> format_move(hint(pos))                       # the move the AI suggests to the side to move
    'h3'

See docs/ai.md for the design, the levels and their measured strength.
"""

from xobo.compat import IS_MICROPYTHON
from xobo.games.xobo.ai.evaluate import (
    WIN,
    distance,
    kernel_memory,
    legal_moves,
    score_distances,
    threatens,
    winner,
)
from xobo.games.xobo.ai.rng import Rng
from xobo.games.xobo.ai.search import (
    Config,
    SearchCancelled,
    Searcher,
    release_scratch,
    scratch_memory,
)
from xobo.games.xobo.rules.moves import new_move_buffer

__all__ = ("LEVELS", "CONFIGS", "STATS", "SearchCancelled", "ai_memory", "choose_move", "hint",
           "release")

LEVELS = ("random", "greedy", "beginner", "pico", "strong")
HINT_LEVEL = "pico"
# the modules the board unloads together when the heap is short
# (xobo.runtime.computer.Computer.done)
MODULES = ("xobo.games.xobo.ai", "xobo.games.xobo.ai.search", "xobo.games.xobo.ai.evaluate",
           "xobo.games.xobo.ai.rng")
NATIVE = True  # evaluate.py's viper kernels: kept where a port cannot unload native code

# Search settings per level. ``pico`` is bounded by nodes (deterministic; docs/ai.md gives its
# time on the Pico); ``strong`` is for the desktop.
CONFIGS = {
    "beginner": Config(
        max_depth=2, node_limit=50, k_adv=4, k_def=0, k_quiet=0, root_extra=2, max_ext=0
    ),
    "pico": Config(
        max_depth=2, node_limit=110, k_adv=5, k_def=2, k_quiet=1, root_extra=4, max_ext=3,
        prune_gifts=1, w_own=20, w_race=15, refute=16, avoid_lost=1,
    ),
    "strong": Config(
        max_depth=8,
        # twice the nodes on the desktop (deeper: docs/ai.md); the Pico keeps 3000 and the
        # board's 2 s time bound
        node_limit=3000 if IS_MICROPYTHON else 6000,
        k_adv=10,
        k_def=3,
        k_quiet=1,
        root_extra=8,
        max_ext=6,
        qsearch=2,
        q_threats=4,
        prune_gifts=1,
        w_own=20,
        w_race=15,
        w_parity=2000,
    ),
}

_buf = None
# the last search: [nodes, depth completed, score for the mover] (for bench and tests)
STATS = [0, 0, 0]


def _buffer():
    global _buf
    if _buf is None:
        _buf = new_move_buffer()
    return _buf


def _digest(pos):
    """A small number that depends on the position only (not on how it was reached), so a
    seed gives the same choice for a parsed position as for a played one."""
    x = pos.side * 7 + pos.common * 131 + pos.own[0] * 17 + pos.own[1] * 19
    h = pos.heights
    for c in range(81):
        x = (x * 31 + h[c]) & 0xFFFFF
    return x


def _cancel(poll):
    """Poll at every trial move of the one-ply loops: one costs ~10 us on the unix port, and
    up to ~50 us when the engine has to decide an exhaustion (E4)."""
    if poll is not None and poll():
        raise SearchCancelled()


def _winning_move(pos, buf, n, rng, poll):
    """A move that wins at once (E3), if any: a Voina cell or a winning spread."""
    me = pos.side
    wins = 0
    first = -1
    for i in range(n):
        _cancel(poll)
        m = buf[i]
        pos.apply(m)
        w = winner(pos)
        pos.undo()
        if w == me:
            if first < 0:
                first = m
            wins += 1
    return first


def _greedy(pos, buf, n, rng, poll):
    """One ply: the move whose resulting position scores best (ties: seeded random)."""
    me = pos.side
    opp = me ^ 1
    best = -WIN - 10
    count = 0
    choice = buf[0]
    h = pos.heights
    for i in range(n):
        _cancel(poll)
        m = buf[i]
        pos.apply(m)
        w = winner(pos)
        if w == me:
            v = WIN
        elif w == opp:
            v = -WIN
        elif threatens(pos, opp, False):
            v = 1 - WIN  # the opponent places on a Voina cell and wins
        else:
            v = -score_distances(pos, distance(h, opp), distance(h, me))
        pos.undo()
        if v > best:
            best = v
            choice = m
            count = 1
        elif v == best:
            count += 1
            if rng.below(count) == 0:  # reservoir sampling among the best
                choice = m
    return choice


def choose_move(position, level="pico", seed=0, time_ms=None, poll=None):
    """The move (engine int) the computer plays for the side to move in ``position``.

    ``position`` is not changed. ``level`` is one of LEVELS; ``seed`` makes the choice among
    equal moves replayable; ``time_ms`` (optional) also bounds the search by wall time.
    ``poll`` (optional): a function of no arguments called often during the search (every
    node, and within any longer step: docs/ai.md gives the worst gap); when it returns True
    the search stops and raises SearchCancelled. Polling never changes the move chosen.
    Raises ValueError when the game is over or the level is unknown.
    """
    if level not in LEVELS:
        raise ValueError("unknown level '%s': use one of %s" % (level, ", ".join(LEVELS)))
    if poll is not None and poll():
        raise SearchCancelled()
    pos = position.clone()
    buf = _buffer()
    n = legal_moves(pos, buf)
    if n == 0:
        raise ValueError("the game is over: there is no move to choose")
    rng = Rng(seed * 7919 + _digest(pos))
    STATS[0] = STATS[1] = STATS[2] = 0
    if level == "random":
        return buf[rng.below(n)]
    if n == 1:
        return buf[0]
    if level == "greedy":
        return _greedy(pos, buf, n, rng, poll)
    win = _winning_move(pos, buf, n, rng, poll)
    if win >= 0:
        return win
    s = Searcher(pos, CONFIGS[level], rng, time_ms, poll)
    m, score = s.best_move()
    STATS[0] = s.nodes
    STATS[1] = s.depth_done
    STATS[2] = score
    return m


def hint(position, seed=0, level=HINT_LEVEL, poll=None):
    """The move the AI suggests for the side to move (same as choose_move at ``level``)."""
    return choose_move(position, level=level, seed=seed, poll=poll)


def release():
    """Drop the buffers the AI keeps between searches (the move buffer and the search's
    scratch): the board calls it after each search on the device, where the heap must stay
    100 KB free between moves; the next search makes them again (a few KB, in small blocks)."""
    global _buf
    _buf = None
    release_scratch()


def ai_memory():
    """Bytes of buffers the AI keeps on the heap between moves (the search's scratch, the
    move buffers, the kernels' tables; payload only, without object headers). Before the
    first search only the kernels' tables exist. For the board's memory report."""
    n = kernel_memory() + scratch_memory()
    if _buf is not None:
        n += 2 * len(_buf)
    return n
