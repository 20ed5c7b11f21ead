"""The computer player of the test game: ``random``, and ``perfect`` (a full minimax).

Three in a row is small enough to search to the end: alpha-beta over at most 8! lines of
play, a few thousand nodes once a piece stands on the board (the empty board needs no search:
every first move draws with best play, TE2). The values are exact (a win sooner
is worth more), and the choice among equally good moves is seeded, so a game can vary and
still be replayed.

Usage::

    >>> from xobo.games.tiny import ai
    >>> from xobo.games.tiny.position import Position
    >>> pos = Position.parse("xx./oo./... x")
    >>> m = ai.choose_move(pos, "perfect", seed=3)   # pos is not changed
    >>> pos.move_text(m)                              # x completes the top rank
    'c3'
"""

from xobo.compat import ticks_diff, ticks_ms
from xobo.games.tiny.position import LINES, N_CELLS

LEVELS = ("random", "perfect")
HINT_LEVEL = "perfect"

_WIN = 100  # a win in k more moves is worth _WIN - k to the winner
# centre, corners, edges: the strong moves first, so that alpha-beta cuts early
_ORDER = bytes((4, 0, 2, 6, 8, 1, 3, 5, 7))


# the 8 symmetries of the square, as cell maps: cell c goes to _SYMMETRIES[8 * k + c]
_SYMMETRIES = bytes((0, 1, 2, 3, 4, 5, 6, 7, 8,  # identity
                     2, 5, 8, 1, 4, 7, 0, 3, 6,  # quarter turns
                     8, 7, 6, 5, 4, 3, 2, 1, 0,
                     6, 3, 0, 7, 4, 1, 8, 5, 2,
                     2, 1, 0, 5, 4, 3, 8, 7, 6,  # mirrors: files, ranks, two diagonals
                     6, 7, 8, 3, 4, 5, 0, 1, 2,
                     0, 3, 6, 1, 4, 7, 2, 5, 8,
                     8, 5, 2, 7, 4, 1, 6, 3, 0))


class SearchCancelled(Exception):
    """The caller's ``poll()`` returned True: no move (the position is unchanged)."""


class _Timeout(Exception):
    pass


def _rng(seed, pos):
    """A small linear congruential generator seeded by ``seed`` and the position (so a seed
    gives the same choice for a parsed position as for a played one)."""
    x = seed * 7919 + pos.side
    for c in range(N_CELLS):
        x = x * 3 + pos.owner[c]
    return [x & 0x7FFFFFFF]


def _below(state, n):
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 8) % n


def _can_complete(owner, code):
    """Does a line hold two of ``code``'s pieces and an empty cell?"""
    for i in range(0, 24, 3):
        a = owner[LINES[i]]
        b = owner[LINES[i + 1]]
        c = owner[LINES[i + 2]]
        if (a == code) + (b == code) + (c == code) == 2 and not (a and b and c):
            return True
    return False


class _Search:
    def __init__(self, pos, time_ms, poll):
        self.pos = pos
        self.poll = poll
        self.time_ms = time_ms
        self.start = ticks_ms()
        self.nodes = 0

    def value(self, depth, alpha, beta):
        """Negamax with alpha-beta: the value of the position for the side to move (exact
        when it lies strictly between alpha and beta)."""
        pos = self.pos
        self.nodes += 1
        if self.poll is not None and self.poll():
            raise SearchCancelled()
        if self.time_ms is not None and ticks_diff(ticks_ms(), self.start) > self.time_ms:
            raise _Timeout()
        if pos.winner() >= 0:
            return depth - _WIN  # the opponent's last move made a line
        if _can_complete(pos.owner, pos.side + 1):
            return _WIN - depth - 1  # the best there is: a line with this move
        h = pos.heights
        best = None
        for i in range(N_CELLS):
            m = _ORDER[i]
            if h[m]:
                continue
            pos.apply(m)
            v = -self.value(depth + 1, -beta, -alpha)
            pos.undo()
            if best is None or v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return 0 if best is None else best  # no empty cell: a draw (TE2)


def _mirror_of_earlier(owner, m, done):
    """A move of ``done`` that a symmetry of the position maps onto ``m`` (same value), or -1.
    It halves the search or better in the opening, where the Pico needs it."""
    for k in range(9, 72, 9):
        sym = _SYMMETRIES
        same = True
        for c in range(N_CELLS):
            if owner[sym[k + c]] != owner[c]:
                same = False
                break
        if same and sym[k + m] in done:
            return sym[k + m]
    return -1


def choose_move(position, level="perfect", seed=0, time_ms=1800, poll=None):
    """The move the computer plays for the side to move; ``position`` is not changed.

    ``perfect`` returns one of the best moves, drawn by ``seed``; if ``time_ms`` runs out
    first (it does not on the 3 x 3) it draws among the best moves found so far. ``poll()``
    returning True raises SearchCancelled. Raises ValueError for an unknown level or a
    finished game.
    """
    if level not in LEVELS:
        raise ValueError("unknown level '%s': use one of %s" % (level, ", ".join(LEVELS)))
    if poll is not None and poll():
        raise SearchCancelled()
    pos = position.clone()  # the search applies and undoes moves on its own copy
    moves = pos.legal_actions()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    rng = _rng(seed, pos)
    if level == "random" or len(moves) == 1 or len(moves) == N_CELLS:
        # on the empty board every move draws with best play: nothing to search
        return moves[_below(rng, len(moves))]
    search = _Search(pos, time_ms, poll)
    best = []
    best_v = -_WIN - 1
    value_of = {}
    for m in moves:
        twin = _mirror_of_earlier(pos.owner, m, value_of)
        if twin >= 0:
            v = value_of[twin]
            value_of[m] = v
            if v == best_v:
                best.append(m)
            continue
        pos.apply(m)
        try:
            # below best_v - 1 a move is cut off (it is worse); above, its value is exact,
            # so the moves as good as the best are all found, and the seed draws one
            v = -search.value(1, -_WIN, -(best_v - 1))
        except _Timeout:
            break
        pos.undo()
        value_of[m] = v
        if v > best_v:
            best_v = v
            best = [m]
        elif v == best_v:
            best.append(m)
    if not best:
        return moves[_below(rng, len(moves))]
    return best[_below(rng, len(best))]


def hint(position, seed=0, level=HINT_LEVEL, poll=None):
    """The move the computer suggests for the side to move."""
    return choose_move(position, level=level, seed=seed, poll=poll)


def release():
    """The board calls it after each search; this player keeps nothing between searches."""
