"""The Brochs computer player, for either side: levels ``random``, ``greedy`` and ``search``.

- ``random``: any legal move but resigning or accepting a submission (it refuses instead).
- ``greedy``: the move with the best immediate gain: pieces captured (a Black piece is worth
  two White ones, the master the game), donjons taken or left (BE2), a win; then a small
  positional term (Black near White-held donjons, White near its own), the seed breaking ties.
- ``search``: greedy's best few candidates, each answered by the opponent's best capture (a
  threat scan of the empty squares next to the mover's pieces, with drop and rook reach): the
  move with the best gain minus the threat it leaves. Bounded by ``CANDIDATES`` (so it is
  deterministic), by ``time_ms``, and cancellable through ``poll``.

Usage::

    >>> import xobo.games.brochs.ai as ai
    >>> from xobo.games.brochs.rules import Position
    >>> pos = Position()
    >>> m = ai.choose_move(pos, "search", seed=3)   # pos is not changed
    >>> pos.move_text(m)
    '*m3'
    >>> ai.release()
"""

from xobo.compat import ticks_diff, ticks_ms
from xobo.games.brochs.rules import (
    ACCEPT,
    ASK,
    BLACK,
    DECLARE,
    DROP,
    EMPTY,
    MAN,
    MASTER,
    N_CELLS,
    NEIGHBOUR,
    PASS,
    REFUSE,
    REMOTE,
    RESIGN,
    SUB_COUNT,
    WHITE,
    WHITE_P,
    new_move_buffer,
)

LEVELS = ("random", "greedy", "search")
# kept loaded with its buffers after a search (docs/games.md, "The computer"): its code is
# small, and the 15x15 board leaves it a heap that a long game cuts into pieces smaller than
# its 2 KB move list (made again at every search, it was no longer found after ~750 moves of
# a soak in the board's heap: tests/device/test_soak_games.py)
KEEP_LOADED = True
HINT_LEVEL = "search"
CANDIDATES = 6  # moves the search level looks one reply deep into

_WIN = 100000
_VALUE = (0, 20, 5000, 10)  # by piece: empty, Black man, master, White man
_DONJON = 30
_MASK = 0x3FFFFFFF


class SearchCancelled(Exception):
    """poll() asked the search to stop."""


class _Rng:
    """xorshift on 30 bits: the same numbers on CPython and MicroPython, no big ints."""

    def __init__(self, seed):
        x = (seed * 0x9E37 + 0x2545F49) & _MASK
        self.x = x or 0x1234567

    def below(self, n):
        x = self.x
        x ^= (x & 0x7FFFFF) << 7
        x ^= x >> 9
        x ^= (x & 0x3FFFF) << 12
        x ^= x >> 17
        self.x = x
        return x % n


_state = {}


def _buffers():
    b = _state.get("buf")
    if b is None:
        b = _state["buf"] = (new_move_buffer(), bytearray(N_CELLS), bytearray(N_CELLS),
                             bytearray(10), [0] * CANDIDATES, [0] * CANDIDATES)
    return b


def release():
    """Drop the buffers (about 3 KB); they are made again when needed."""
    _state.clear()


def _near_table(pos, player, out):
    """out[c]: 3 next to a donjon that ``player`` wants (Black: White's or empty; White: its
    own), 1 two squares away, else 0."""
    for c in range(N_CELLS):
        out[c] = 0
    for d in pos.donjons:
        k = pos.cells[d]
        if player == BLACK and (k == MAN or k == MASTER):
            continue
        if player == WHITE_P and k != WHITE:
            continue
        for dd in range(8):
            a = NEIGHBOUR[d * 8 + dd]
            if a == 255:
                continue
            if out[a] < 3:
                out[a] = 3
            b = NEIGHBOUR[a * 8 + dd]
            if b != 255 and out[b] < 1:
                out[b] = 1


def _hot_table(pos, player, out):
    """out[c] = 1 where a piece of ``player`` arriving could capture (next to an enemy)."""
    cells = pos.cells
    for c in range(N_CELLS):
        out[c] = 0
    for c in range(N_CELLS):
        k = cells[c]
        if k == EMPTY or (k == WHITE) == (player == WHITE_P):
            continue
        for d in range(8):
            a = NEIGHBOUR[c * 8 + d]
            if a != 255:
                out[a] = 1


def _gain(pos, m, hot, near, cap):
    """The immediate gain of move m for the side to move (no lookahead)."""
    if m >= PASS:
        if m == RESIGN or m == ACCEPT:
            return -_WIN
        return -1 if m == ASK else 0
    base = m & 0xFF00
    if base == DECLARE and m < PASS:
        return _VALUE[WHITE]
    g = 0
    isd = pos.is_donjon
    if m < DROP:
        t = m & 255
        f = m >> 8
        if isd[f]:
            g -= _DONJON
    else:
        t = m & 255
        if base == REMOTE:
            return _VALUE[WHITE] + (_DONJON if isd[t] else 0)
        g -= 2 if base == DROP else 8  # keep the reserve's threat (and the master) for later
    if isd[t]:
        g += _DONJON
    if hot[t]:
        n = pos.captures_of(m, cap)
        for i in range(n):
            c = cap[i]
            g += _VALUE[pos.cells[c]]
            if isd[c]:
                g += _DONJON
    return g + near[t]


def _reachable(pos, c, player):
    """Can ``player`` bring a piece to the empty square c next turn (a drop or a rook move)?"""
    if player == BLACK and (pos.res_men or pos.res_master):
        return True
    cells = pos.cells
    for d in range(4):
        a = NEIGHBOUR[c * 8 + d]
        while a != 255:
            k = cells[a]
            if k != EMPTY:
                if player == WHITE_P:
                    if k == WHITE:
                        return True
                    break
                if k == WHITE:
                    break
                return True
            a = NEIGHBOUR[a * 8 + d]
    return False


def _threat(pos, cap, seen, poll=None):
    """The value the side to move (the opponent) could capture at once: the most valuable
    single arrival on an empty square next to its enemies, or a remote capture."""
    player = pos.side
    cells = pos.cells
    best = 0
    if player == BLACK and pos.remote_quadrants():
        best = _VALUE[WHITE]
    for c in range(N_CELLS):
        seen[c] = 0
    piece = WHITE if player == WHITE_P else MAN
    for e in range(N_CELLS):
        # the scan takes 5-17 ms on the emulated Pico: the board is polled within it (a
        # switch closed meanwhile was reported 67 ms later with a poll before each scan only)
        if poll is not None and (e & 31) == 0 and poll():
            raise SearchCancelled()
        k = cells[e]
        if k == EMPTY or (k == WHITE) == (player == WHITE_P):
            continue
        for d in range(8):
            c = NEIGHBOUR[e * 8 + d]
            if c == 255 or seen[c] or cells[c] != EMPTY:
                continue
            seen[c] = 1
            cells[c] = piece
            n = pos.captures(c, player, cap)
            cells[c] = EMPTY
            if n == 0:
                continue
            v = 0
            for i in range(n):
                v += _VALUE[cells[cap[i]]]
            if v > best and _reachable(pos, c, player):
                best = v
    return best


def _candidates(pos, buf, n, rng, hot, near, cap, poll):
    """The move with the best gain (ties broken by the seed), and the top CANDIDATES list."""
    _hot_table(pos, pos.side, hot)
    if poll is not None and poll():
        raise SearchCancelled()
    _near_table(pos, pos.side, near)
    top_m = _state["buf"][4]
    top_s = _state["buf"][5]
    k = 0
    for i in range(n):
        if poll is not None and (i & 7) == 0 and poll():  # 8 gains: about 4 ms on a Pico
            raise SearchCancelled()
        m = buf[i]
        s = _gain(pos, m, hot, near, cap) * 8 + rng.below(8)
        if k < CANDIDATES:
            j = k
            k += 1
        elif s > top_s[k - 1]:
            j = k - 1
        else:
            continue
        while j > 0 and top_s[j - 1] < s:
            top_s[j] = top_s[j - 1]
            top_m[j] = top_m[j - 1]
            j -= 1
        top_s[j] = s
        top_m[j] = m
    return k


def _wins_now(pos, me):
    """BE3 if the game ended now (nobody resigning): does ``me`` win?"""
    dw = pos.donjon_count(WHITE_P)
    db = pos.donjon_count(BLACK)
    if pos.master_captured() or dw > db:
        return me == WHITE_P
    if db > dw:
        return me == BLACK
    nb = pos.on_board(BLACK)
    nw = pos.on_board(WHITE_P)
    return (nb > nw) if me == BLACK else (nw > nb)


def hopeless(pos, side):
    """``side`` can never capture again: one piece left (BC1-BC3 need two) while the other
    side holds all four donjons (so no remote capture either, BM3). The computer accepts a
    submission then (BR6), every level: a game it cannot win or draw would go on forever."""
    return pos.pieces_left(side) <= 1 and pos.donjon_count(1 - side) == 4


def _should_ask(pos, me):
    """search asks for submission (BR6) when it would win now and the question can end the
    game: the opponent is hopeless (it accepts) or the countdown is allowed (BE1: the master on
    the board and a side with 6 pieces or fewer)."""
    if not _wins_now(pos, me):
        return False
    if hopeless(pos, 1 - me):
        return True
    return pos.master_cell() >= 0 and (pos.pieces_left(BLACK) <= 6
                                       or pos.pieces_left(WHITE_P) <= 6)


def choose_move(position, level="search", seed=0, time_ms=1800, poll=None):
    """The move the computer plays for the side to act in ``position`` (left unchanged).

    Raises ValueError for an unknown level or a finished game, SearchCancelled when poll()
    returns True."""
    if level not in LEVELS:
        raise ValueError("unknown level '%s': use one of %s" % (level, ", ".join(LEVELS)))
    if poll is not None and poll():
        raise SearchCancelled()
    pos = position
    buf, hot, near, cap, _, _ = _buffers()
    n = pos.legal_moves(buf)
    if n == 0:
        raise ValueError("the game is over: there is no move to choose")
    rng = _Rng(seed * 7919 + pos.ply)
    if n == 2 and buf[0] == ACCEPT:  # a submission question: only a hopeless side gives up
        return ACCEPT if hopeless(pos, pos.side) else REFUSE
    if level == "random":
        while True:
            m = buf[rng.below(n)]
            if m != RESIGN and m != ACCEPT:
                return m
    start = ticks_ms()
    # the move list and the gain tables before the first candidate: 17 ms on the emulated
    # Pico without a poll in between
    if poll is not None and poll():
        raise SearchCancelled()
    k = _candidates(pos, buf, n, rng, hot, near, cap, poll)
    top_m = _state["buf"][4]
    top_s = _state["buf"][5]
    if level == "greedy" or k == 1:
        return top_m[0]
    me = pos.side
    # a countdown this side asked for and would win: no capture, drop or donjon change,
    # which would cancel it (BR6); passing is always such a move
    keep = pos.sub_kind == SUB_COUNT and pos.sub_player == me and _wins_now(pos, me)
    best = top_m[0]
    best_s = -_WIN * 16
    if keep:
        best = PASS
        pos.apply(PASS)
        try:
            best_s = -8 * _threat(pos, cap, hot, poll)
        finally:
            pos.undo()
    for i in range(k):
        if poll is not None and poll():
            raise SearchCancelled()
        if i and time_ms is not None and ticks_diff(ticks_ms(), start) > time_ms:
            break
        m = top_m[i]
        pos.apply(m)
        try:
            if pos.is_terminal():
                w = pos.winner()
                s = _WIN if w == me else (-_WIN if w >= 0 else 0)
                s *= 8
            elif keep and pos.sub_kind != SUB_COUNT:
                s = -_WIN * 16  # it would cancel the countdown
            elif pos.side == me:
                s = top_s[i]  # a pick or an answer follows: no reply to fear yet
            else:
                s = top_s[i] - 8 * _threat(pos, cap, hot, poll)
        finally:
            pos.undo()
        if s > best_s:
            best_s = s
            best = m
    if best_s < _WIN * 8 and buf[n - 2] == ASK and _should_ask(pos, me):
        return ASK  # asked before the turn: the move itself comes after the answer (BR6)
    return best


def hint(position, seed=0, level=HINT_LEVEL, poll=None):
    return choose_move(position, level, seed, poll=poll)


__all__ = ("LEVELS", "HINT_LEVEL", "SearchCancelled", "choose_move", "hint", "release")
