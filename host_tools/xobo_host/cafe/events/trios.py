"""Groups of three for a three-player game (X): by standing, seats rotated over the rounds,
no repeated trio while one can be avoided, at most one bye per player.

A matching pairs two; three at a table is a partition into triples (three-dimensional
matching, NP-hard in general), so it is not a matching. Groups "by standing" are near
neighbours in the standings, which makes the problem a sequence problem: the players in
standing order, each group made of the first player not yet seated and two of the next
``window - 1``. The best such partition is a shortest path through the standings (dynamic
programming: the state is the first player not yet seated, which of the next ones are, and
how many byes are left), exact within the window; with nine players or fewer the window
holds everyone, so it is the best of every partition. When the best grouping in the window
still repeats a trio, the window grows (to ``WIDEST`` places: the states grow as two to the
window's power) before a repeat is accepted.

A group's cost is compared criterion by criterion (tuples, summed over the groups: the
order of tuples is kept by addition), highest first:

1. ``second_bye``: a bye to a player who had one (every player has one bye before anyone
   has a second: with five players, two byes a round, summing earlier byes alone would
   rate two players with one bye each as one with none and one with two);
   ``byes_before``: then the fewest earlier byes among those;
2. ``repeat_trio``: the same three players as in an earlier round;
3. ``bye_score``: a bye to a player above the lowest score (quarter points above it);
4. ``seat_spread``: a player given a seat they have played twice more than another (the
   first mover's seat is an advantage: each plays every seat in turn, as a chess Swiss
   keeps colours within two);
5. ``score_spread``: the square of the group's score spread (groups by standing);
6. ``seat``: the seats given, each player's count of games on that seat so far (seats
   rotate: each player's least played seats), then the seats played last round again;
7. ``repeat_pairs``: two players of the group who met already;
8. ``rank_spread``: how far apart the group's ranks are (1, 2, 3 is none); a bye to a
   higher ranked player.

The n mod 3 players left over have a bye (a full point: first place). Seats inside a group
are the one of the six orders with the least ``seat_spread``, then ``seat`` cost (ties: the
order of ranks).

Usage::

    >>> from xobo_host.cafe.events.trios import TrioEntrant, group_trios
    >>> players = [TrioEntrant(pid, 0.0, rank=pid - 1) for pid in range(1, 8)]   # round 1
    >>> rnd = group_trios(players)
    >>> rnd.groups        # [(pid on seat 0, seat 1, seat 2), ...] table 1 first
    [(1, 2, 3), (4, 5, 6)]
    >>> rnd.byes          # the n mod 3 left over
    [7]
    >>> # later rounds: TrioEntrant(pid, score, rank, met={pid: games together},
    >>> #     trios=[frozenset of a group played], seat_counts=[1, 0, 0], last_seat=0, byes=0)
"""

import itertools

TIERS = ("second_bye", "byes_before", "repeat_trio", "bye_score", "seat_spread",
         "score_spread", "seat", "seat_again", "repeat_pairs", "rank_spread")
WINDOW = 7  # the first player not yet seated sits with two of the next six (first try)
EXACT_UP_TO = 9  # this many players or fewer: every partition is looked at
WIDEST = 10  # with more, a repeated trio widens the window up to this many places
SEATS = 3
ZERO = (0,) * len(TIERS)


class TrioEntrant:
    """One player as the grouping sees them: ``pid``, ``score`` (a multiple of a quarter),
    ``rank`` (0: first in the standings), ``met`` {pid: games together}, ``trios`` (the
    frozensets of the groups played), ``seat_counts`` (games on each seat), ``last_seat``
    (the seat of the last game, or None), ``byes``."""

    __slots__ = ("pid", "score", "rank", "met", "trios", "seat_counts", "last_seat", "byes")

    def __init__(self, pid, score, rank, met=None, trios=(), seat_counts=(0, 0, 0),
                 last_seat=None, byes=0):
        self.pid = pid
        self.score = score
        self.rank = rank
        self.met = dict(met or {})
        self.trios = set(trios)
        self.seat_counts = list(seat_counts)
        self.last_seat = last_seat
        self.byes = byes

    def units(self):
        return int(round(self.score * 4))


class TrioRound:
    """``groups`` [(seat 0, seat 1, seat 2) pids] table by table, ``byes`` [pid],
    ``penalties`` {tier: total}, ``window`` (the window that gave it)."""

    def __init__(self, groups, byes, penalties, window):
        self.groups = groups
        self.byes = byes
        self.penalties = penalties
        self.window = window


def _vector(**tiers):
    return tuple(tiers.get(t, 0) for t in TIERS)


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b, strict=True))


def seat_order(members):
    """The members in seat order (seat 0 first) that gives the fewest players a seat they
    would then have played twice more than another, then each their least played seats,
    then not the seat they had last round; (order, spread cost, seat cost, again cost)."""
    best = None
    for perm in itertools.permutations(members):
        over = 0
        for s, p in enumerate(perm):
            counts = list(p.seat_counts)
            counts[s] += 1
            over += max(counts) - min(counts) > 1
        cost = sum(p.seat_counts[s] for s, p in enumerate(perm))
        again = sum(1 for s, p in enumerate(perm) if p.last_seat == s)
        key = (over, cost, again, [p.rank for p in perm])
        if best is None or key < best[0]:
            best = (key, perm)
    (over, cost, again, _), perm = best
    return perm, over, cost, again


class _Costs:
    def __init__(self, players):
        self.players = players
        self.lowest = min(p.units() for p in players)
        self.cache = {}

    def trio(self, i, j, k):
        key = (i, j, k)
        got = self.cache.get(key)
        if got is None:
            a, b, c = (self.players[x] for x in key)
            members = (a, b, c)
            units = [p.units() for p in members]
            ids = frozenset(p.pid for p in members)
            repeat = 1 if any(ids in p.trios for p in members) else 0
            pairs = sum(1 for x, y in ((a, b), (a, c), (b, c)) if y.pid in x.met)
            _, over, seat, again = seat_order(members)
            got = _vector(repeat_trio=repeat, seat_spread=over,
                          score_spread=(max(units) - min(units)) ** 2,
                          seat=seat, seat_again=again, repeat_pairs=pairs,
                          rank_spread=(k - i) - 2)
            self.cache[key] = got
        return got

    def bye(self, i):
        p = self.players[i]
        return _vector(second_bye=int(p.byes > 0), byes_before=p.byes,
                       bye_score=p.units() - self.lowest, rank_spread=len(self.players) - 1 - i)


def _best_partition(players, byes, window):
    """The least-cost partition of ``players`` (in standing order) into groups of three and
    ``byes`` single byes, each group the first player not yet seated and two of the next
    ``window - 1``: (cost, [(i, j, k) or (i,)])."""
    m = len(players)
    costs = _Costs(players)
    memo = {}
    inf = None

    def advance(i, used):
        """The next player not seated after ``i`` and the seated ones after it."""
        nxt = i + 1
        while nxt in used:
            nxt += 1
        return nxt, frozenset(u for u in used if u > nxt)

    # iterative over the states reachable from the start, deepest first (no recursion
    # limit for a hundred players)
    def solve(i, used, left):
        stack = [(i, used, left, False)]
        while stack:
            i, used, left, expanded = stack.pop()
            key = (i, used, left)
            if key in memo:
                continue
            if i >= m:
                memo[key] = (ZERO, []) if left == 0 else inf
                continue
            options = []
            if left:
                options.append(((i,), costs.bye(i), advance(i, used) + (left - 1,)))
            free = [x for x in range(i + 1, min(m, i + window)) if x not in used]
            for j, k in itertools.combinations(free, 2):
                options.append(((i, j, k), costs.trio(i, j, k),
                                advance(i, used | {j, k}) + (left,)))
            missing = [o for o in options if o[2] not in memo]
            if missing and not expanded:
                stack.append((i, used, left, True))
                stack.extend((o[2][0], o[2][1], o[2][2], False) for o in missing)
                continue
            best = inf
            for group, cost, nxt in options:
                rest = memo.get(nxt)
                if rest is inf or rest is None:
                    continue
                total = _add(cost, rest[0])
                if best is inf or total < best[0]:
                    best = (total, [group] + rest[1])
            memo[key] = best
        return memo[(i, frozenset(), left)] if (i, frozenset(), left) in memo else inf

    return solve(0, frozenset(), byes)


def group_trios(entrants, window=WINDOW):
    """The groups of three of these players (``TrioEntrant``s, the active ones): a
    ``TrioRound``. ValueError with fewer than three players."""
    players = sorted(entrants, key=lambda p: p.rank)
    if len({p.pid for p in players}) != len(players):
        raise ValueError("a player is entered twice")
    if len(players) < 3:
        raise ValueError("a three-player game needs three players at least, not %d"
                         % len(players))
    byes = len(players) % 3
    size = len(players) if len(players) <= EXACT_UP_TO else window
    while True:
        found = _best_partition(players, byes, size)
        if found is None:
            raise ValueError("no grouping of %d players" % len(players))  # (cannot happen)
        cost, parts = found
        repeats = cost[TIERS.index("repeat_trio")]
        if not repeats or size >= min(len(players), WIDEST):
            break
        size = min(len(players), WIDEST, size + 3)
    groups = []
    bye_ids = []
    for part in parts:
        if len(part) == 1:
            bye_ids.append(players[part[0]].pid)
        else:
            order = seat_order(tuple(players[x] for x in part))[0]
            groups.append(tuple(p.pid for p in order))
    return TrioRound(groups, bye_ids, dict(zip(TIERS, cost, strict=True)), size)
