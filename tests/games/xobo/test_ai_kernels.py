# dual-runtime
"""The AI's native kernels (games/xobo/ai/evaluate.py: viper under MicroPython, plain Python under
CPython) give exactly what their references give, on positions from random games and on
random boards with walls of stacks: the 0-1 BFS and the search's candidate cells against the
old plain-Python code, winner (E2-E4), threats (V1, kv spreads included), move generation and
the defences' trial moves (V2, V3) against the rules engine.
Under MicroPython the kernels also run with the heap locked: they allocate nothing."""

import array

from xobo_testing import run_with_heap_locked

from games.xobo.reference_kernels import candidate_cells_ref, distance_ref, flood_ref
from xobo.games.xobo.ai import evaluate as ev
from xobo.games.xobo.ai.rng import Rng
from xobo.games.xobo.rules.moves import new_move_buffer
from xobo.games.xobo.rules.position import Position

_BUF = new_move_buffer()
_BUF2 = new_move_buffer()
_A = bytearray(81)
_B = bytearray(81)
_HEIGHTS = (0, 0, 0, 0, 1, 1, 1, 1, 3, 4, 5, 8)


def _game_positions(seed, variant, plies=90):
    pos = Position(variant)
    r = Rng(seed)
    out = []
    for _ in range(plies):
        out.append(pos.clone())
        n = pos.legal_moves(_BUF)
        if n == 0:
            break
        pos.apply(_BUF[r.below(n)])
    return out


def random_board(seed, variant):
    """A position with random heights (stacks anywhere, walls), at most 36 cubes (B5), the
    rest in the reserves; one in three with an empty common reserve (E4)."""
    r = Rng(seed)
    pos = Position(variant, r.below(2))
    h = pos.heights
    total = 0
    for c in range(81):
        v = _HEIGHTS[r.below(len(_HEIGHTS))] if r.below(3) else 0
        if total + v <= 36:
            h[c] = v
            total += v
    rest = 36 - total
    common = 0 if r.below(3) == 0 else r.below(rest + 1)
    pos.common = common
    pos.own[0] = r.below(rest - common + 1)
    pos.own[1] = rest - common - pos.own[0]
    return pos


def _mismatch(pos):
    """What differs between the kernels and the references on ``pos`` ('' if nothing)."""
    h = pos.heights
    for p in (0, 1):
        for start in (True, False):
            d = ev.flood(h, p, start, _A)
            if d != flood_ref(h, p, start, _B) or _A != _B:
                return "flood player %d from_start %s" % (p, start)
        if ev.distance(h, p) != distance_ref(h, p):
            return "distance player %d" % p
        if ev.threatens(pos, p) != pos.threatens(p):
            return "threatens player %d" % p
    if ev.winner(pos) != pos.winner():
        return "winner"
    n = ev.legal_moves(pos, _BUF)
    if n != pos.legal_moves(_BUF2) or [_BUF[i] for i in range(n)] != [
        _BUF2[i] for i in range(n)
    ]:
        return "legal moves"
    if ev.winner(pos) < 0:
        n = ev.spreads(pos, _BUF)
        m = [_BUF2[i] for i in range(pos.legal_moves(_BUF2)) if _BUF2[i] & 3 == 2]
        if [_BUF[i] for i in range(n)] != m:
            return "spreads"
    return ""


_FLOODS = tuple(bytearray(81) for _ in range(4))
_KEY = array.array("i", bytes(4 * 81))
_TAKEN = bytearray(81)
_TOP = bytearray(32)
_TOPK = array.array("i", bytes(4 * 32))


def candidate_cells(h, me, can_place, gifts, k_adv, k_def, k_quiet):
    """The placements the search lists (Searcher.candidates) from the kernels, as
    [(cell, key)] in its order, and whether a stack is on the board."""
    a1, b1, a2, b2 = _FLOODS
    d_me = ev.flood(h, me, True, a1)
    ev.flood(h, me, False, b1)
    d_op = ev.flood(h, me ^ 1, True, a2)
    ev.flood(h, me ^ 1, False, b2)
    flags = (1 if can_place else 0) | (2 if gifts and d_op == 2 else 0)
    stack = ev.cell_keys(h, a1, b1, a2, b2, _KEY, _TAKEN, d_me, d_op, flags)
    out = []
    if not can_place:
        return out, stack == 1, d_me, d_op
    for k, offset, kernel in ((k_adv, 0, None), (k_def, 500, ev.align_keys)):
        if kernel is not None:
            if not k or d_op >= ev.INF:
                continue
            kernel(h, a2, b2, _KEY, _TAKEN, d_op)
        n = ev.top_cells(_KEY, _TAKEN, _TOP, _TOPK, k)
        out.extend((_TOP[i], offset + _TOPK[i] - ev.KEY_BIAS) for i in range(n))
    if k_quiet:
        best = ev.quiet_cell(a1, b1, a2, b2, _TAKEN, d_me, d_op)
        if best >= 0:
            out.append((best, 900))
    return out, stack == 1, d_me, d_op


def _candidates_mismatch(pos):
    h = pos.heights
    for me in (0, 1):
        for can_place, gifts, k_adv, k_def, k_quiet in ((True, True, 9, 2, 1),
                                                         (True, False, 5, 3, 1),
                                                         (True, True, 18, 0, 0),
                                                         (False, True, 5, 2, 1)):
            got, stack, d_me, d_op = candidate_cells(h, me, can_place, gifts, k_adv, k_def,
                                                      k_quiet)
            want = candidate_cells_ref(h, _FLOODS, d_me, d_op, can_place,
                                       gifts and d_op == 2, k_adv, k_def, k_quiet)
            if (got, stack) != want:
                return "candidate cells for player %d (%s, %s, %d, %d, %d): %s, expected %s" % (
                    me, can_place, gifts, k_adv, k_def, k_quiet, (got, stack), want)
    return ""


_OUT = array.array("H", bytes(2 * 96))
_OKEYS = array.array("i", bytes(4 * 96))


def defences_ref(pos, moves):
    """The defences of the side to move among ``moves`` by the engine: each move played, kept
    when the opponent has neither won nor a Voina cell (V2); a placement only where it can
    make a blocus (V3: the mover at most two cubes from linking, the cell on such a path).
    Regroups first, then spreads, then placements, each in the given order. A move that wins
    for the mover: ``[move]`` alone."""
    me = pos.side
    d_me = flood_ref(pos.heights, me, True, _A)
    flood_ref(pos.heights, me, False, _B)
    kept = ([], [], [])
    for m in moves:
        kind = m & 3
        c = (m >> 2) & 127
        if kind == 0 and (d_me > 2 or _A[c] + _B[c] - 1 > 2):
            continue
        pos.apply(m)
        w = pos.winner()
        safe = w < 0 and not pos.threatens(me ^ 1)
        pos.undo()
        if w == me:
            return [m]
        if safe:
            kept[(2, 0, 1)[kind]].append(m)
    return (kept[0] + kept[1] + kept[2])[:96]


def defences_native(pos, moves):
    """The same by ``evaluate.defence_trials`` over ``moves`` in chunks of five, sorted by
    key as the search sorts them."""
    me = pos.side
    buf = array.array("H", moves)
    d_me = ev.flood(pos.heights, me, True, _A)
    ev.flood(pos.heights, me, False, _B)
    k = 0
    for start in range(0, len(moves), 5):
        k = ev.defence_trials(pos.heights, buf, start, min(start + 5, len(moves)), _A, _B,
                              d_me, me, _OUT, _OKEYS, k)
        if k < 0:
            return [_OUT[0]]
    return [m for _key, _i, m in sorted((_OKEYS[i], i, _OUT[i]) for i in range(k))]


def _board_with_a_reserve(seed):
    """Random heights (stacks anywhere) with at most 24 cubes on the board, the rest in the
    common reserve: the boards of ``random_board`` use up the cubes (E4), where the native
    trials do not apply."""
    r = Rng(5000 + seed)
    pos = Position("xobo", r.below(2))
    total = 0
    for c in range(81):
        v = _HEIGHTS[r.below(len(_HEIGHTS))] if r.below(3) else 0
        if total + v <= 24:
            pos.heights[c] = v
            total += v
    pos.common = 36 - total
    pos.own[0] = pos.own[1] = 0
    return pos


def _defences_apply(pos):
    """Whether the search uses the native trials at ``pos``: variant xobo, the game not over,
    the opponent keeping a cube to place whatever the mover plays (no E4 to decide)."""
    opp = pos.side ^ 1
    return pos.variant == "xobo" and pos.winner() < 0 and (pos.common > 1 or pos.own[opp] > 0)


def _defences_mismatch(pos):
    """The native defence trials against the engine's, over every placement, regroup and
    spread of the heights (under Voina or not: the trial is the same), when the kernel
    applies: variant xobo, the opponent keeping a cube to place (no E4)."""
    if not _defences_apply(pos):
        return ""
    n = ev._gen(pos.heights, _BUF, 3)
    moves = [_BUF[i] for i in range(n)]
    if defences_native(pos, moves) != defences_ref(pos, moves):
        return "defence trials"
    return ""


def _check(positions):
    for pos in positions:
        what = _mismatch(pos) or _candidates_mismatch(pos) or _defences_mismatch(pos)
        assert not what, "%s differs on %s (%s)" % (what, pos.to_string(), pos.variant)


def test_kernels_equal_the_references_on_played_positions_xobo():
    for seed in range(6):
        _check(_game_positions(seed, "xobo"))


def test_kernels_equal_the_references_on_played_positions_kv():
    for seed in range(6):
        _check(_game_positions(100 + seed, "kv"))


def test_kernels_equal_the_references_on_random_boards_with_walls_of_stacks():
    for seed in range(150):
        _check([random_board(seed, ("xobo", "kv")[seed & 1])])


def test_V2_defence_trials_equal_the_engine_on_random_boards_with_stacks():
    # every placement, regroup and spread of 300 boards with stacks and a common reserve
    # (variant xobo); the kept moves include each kind, so every branch is compared
    kept = [0, 0, 0]
    for seed in range(300):
        pos = _board_with_a_reserve(seed)
        what = _defences_mismatch(pos)
        assert not what, "%s differs on %s" % (what, pos.to_string())
        if _defences_apply(pos):
            n = ev._gen(pos.heights, _BUF, 3)
            for m in defences_ref(pos, [_BUF[i] for i in range(n)]):
                kept[m & 3] += 1
    assert min(kept) > 0, kept


def test_E4_a_side_without_cubes_loses_only_without_regroup_or_spread():
    # NS to move, no cube anywhere to place; EW threatens e5 and NS can regroup (V2, M2)
    pos = Position.parse(
        "........./........./........./........./1111.1111/........./........./........./"
        "........1 ns 0 0 27")
    assert pos.under_voina() and ev.winner(pos) == pos.winner() == -1
    # the same without anything to regroup or spread: EW wins by exhaustion (E4)
    pos = Position.parse(
        "........./........./........./........./1.1.1.1.1/........./........./........./"
        "........1 ns 0 0 30")
    assert ev.winner(pos) == pos.winner() == 1
    pos = Position.parse(pos.to_string(), "kv")
    assert ev.winner(pos) == pos.winner() == 1


def _kernels_once(pos, buf, dist):
    """Every kernel once; returns a number so the call cannot be optimised away."""
    h = pos.heights
    n = ev.legal_moves(pos, buf) + ev.spreads(pos, buf)
    n += ev.flood(h, 0, True, dist) + ev.flood(h, 1, False, dist)
    n += ev.distance(h, 0) + ev.distance(h, 1) + ev.winner(pos)
    if ev.threatens(pos, 0):
        n += 1
    if ev.threatens(pos, 1, False):
        n += 1
    a1, b1, a2, b2 = _FLOODS
    d_me = ev.flood(h, 0, True, a1)
    ev.flood(h, 0, False, b1)
    d_op = ev.flood(h, 1, True, a2)
    ev.flood(h, 1, False, b2)
    n += ev.cell_keys(h, a1, b1, a2, b2, _KEY, _TAKEN, d_me, d_op, 3)
    n += ev.top_cells(_KEY, _TAKEN, _TOP, _TOPK, 9)
    if d_op < ev.INF:
        ev.align_keys(h, a2, b2, _KEY, _TAKEN, d_op)
    n += ev.quiet_cell(a1, b1, a2, b2, _TAKEN, d_me, d_op)
    k = ev._gen(h, buf, 3)
    if pos.common > 1 and ev.winner(pos) < 0:
        n += ev.defence_trials(h, buf, 0, k, a1, b1, d_me, pos.side, _OUT, _OKEYS, 0)
    return n


def test_kernels_allocate_nothing():
    positions = _game_positions(7, "xobo", 40) + _game_positions(8, "kv", 60)
    for pos in positions:
        want = _kernels_once(pos, _BUF, _A)  # first use makes the kv buffer
        assert run_with_heap_locked(_kernels_once, pos, _BUF, _A) == want
