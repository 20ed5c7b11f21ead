"""Pairings of a two-player event: Swiss by score groups (networkx's maximum-weight matching)
and round robin (Berger tables).

**Swiss.** Every active player is a node; every two players are joined by an edge whose
weight says how good that pairing is; a node "bye" joins every player when their number is
odd. ``networkx.max_weight_matching(maxcardinality=True)`` (Edmonds' blossom algorithm: the
exact optimum, integer weights, no search of ours) pairs everyone, with the greatest total
weight. An edge's weight is its penalties made one integer, each criterion counting for more
than all the criteria below it together can (``lexicographic``), highest first:

1. ``second_bye``: a bye to a player who had one (a player gets one bye at most);
2. ``repeat``: two players who met already;
3. ``bye_group``: the bye above the lowest score group (how many score groups lie below);
4. ``colour_clash``: two players who must both move first (or both second): a player whose
   first moves and second moves differ by two, or who had the same seat twice in a row;
5. ``score_gap``: the square of the score difference (a player paired outside their score
   group floats; squared: two floats of one group are better than one of two groups);
6. ``float_again``: a player who floated down last round floats down again (up, up);
7. ``colour_wish``: two players who would both rather move first (or second);
8. ``order``: within a score group, the top half meets the bottom half (1 against g/2 + 1,
   by rank); a float meets the other group's nearest end; the bye goes to the lowest ranked.

**Floats.** A player paired with someone of another score has floated: the higher score
floats *down*, the lower *up*; ``SwissRound.floats`` names them (the event keeps them, its
page shows them, and criterion 6 reads them next round).

**Speed.** Two hundred players make 19,900 edges, and the blossom algorithm on them takes
seconds. The least score gap any pairing can have is known beforehand (scores paired in
order: the squared gap is convex), and a pairing that reaches it floats nobody across a cut
between score groups with an even number of players above it (the bye's group counted one
short). So the groups are cut there into blocks, each matched on its own: on every pair of
a small block, on each player's ``window`` best partners in their own and the two
neighbouring groups in a large one. The blocks' pairings are kept when nothing could do
better on criteria 1 to 5: no second bye, no repeat, the bye in the lowest group that can
take one, no colour clash and that least score gap; else the matching runs again on every
pair of every player (``SwissRound.graph`` says which: "blocks", "every pair"). Criteria 6
to 8 are the best among each player's partners in their block. Above ``EVERY_PAIR_LIMIT``
players, a round where repeats or colours force more floats than that least gap is paired
on every player's best partners in their neighbouring groups and in any group
("neighbours"), kept when it breaks
none of criteria 1 to 4 (its floats may then not be the fewest possible: the matching on
every pair would take seconds).

**Seats.** Who moves first is decided after the matching: the player who must, else the one
who wishes to (of two with the same wish, the higher ranked), else in round one the higher
ranked on odd boards and the lower on even ones.

**Round robin.** Berger tables: everyone meets everyone once, a fixed player alternating
seats, each player's first moves and second moves differing by one at most; an odd number
of players gives each a free round (``bye``).

Usage::

    >>> from xobo_host.cafe.events.pairing import Entrant, pair_swiss, round_robin
    >>> # round 2 of four players: 1 beat 3 and 2 beat 4 (1 and 2 moved first)
    >>> players = [Entrant(1, 1.0, rank=0, opponents={3: 1}, seats=[0]),
    ...            Entrant(2, 1.0, rank=1, opponents={4: 1}, seats=[0]),
    ...            Entrant(3, 0.0, rank=2, opponents={1: 1}, seats=[1]),
    ...            Entrant(4, 0.0, rank=3, opponents={2: 1}, seats=[1])]
    >>> rnd = pair_swiss(players)
    >>> rnd.pairs         # (first mover, second mover) board 1 first: 1 has its wish, second
    [(2, 1), (3, 4)]
    >>> rnd.bye, rnd.floats                   # the bye's player (None), {id: "down" | "up"}
    (None, {})
    >>> round_robin([1, 2, 3])                # Berger tables; None: a free round
    [[(1, None), (3, 2)], [(2, None), (1, 3)], [(3, None), (2, 1)]]
"""

import networkx as nx

BYE = "bye"
TIERS = ("second_bye", "repeat", "bye_group", "colour_clash", "score_gap", "float_again",
         "colour_wish", "order")
WINDOW = 8  # each player's best partners in each neighbouring score group (first try)
# above this many players a round that cannot reach the least score gap is paired on each
# player's best partners, not on every pair (which takes seconds for 200)
EVERY_PAIR_LIMIT = 120
FIRST, SECOND = 0, 1  # the seats of a two-player game: who moves first


class Entrant:
    """One player as the pairing sees them: ``pid``; ``score`` (points, a multiple of a
    quarter); ``rank`` (0: first in the standings, the order within a score group);
    ``opponents`` {pid: games played against}; ``seats`` (FIRST/SECOND of each game played,
    oldest first); ``byes`` (byes had); ``last_float`` ("down", "up" or None)."""

    __slots__ = ("pid", "score", "rank", "opponents", "seats", "byes", "last_float")

    def __init__(self, pid, score, rank, opponents=None, seats=(), byes=0, last_float=None):
        self.pid = pid
        self.score = score
        self.rank = rank
        self.opponents = dict(opponents or {})
        self.seats = list(seats)
        self.byes = byes
        self.last_float = last_float

    def units(self):
        return int(round(self.score * 4))

    def __repr__(self):
        return "Entrant(%r, %r, rank=%r)" % (self.pid, self.score, self.rank)


class SwissRound:
    """A round's pairings: ``pairs`` [(first, second)] board by board, ``bye``, ``floats``
    {pid: "down"|"up"}, ``penalties`` {tier: total} and ``graph`` ("neighbours": the
    window of neighbouring groups was enough; "every pair")."""

    def __init__(self, pairs, bye, floats, penalties, graph):
        self.pairs = pairs
        self.bye = bye
        self.floats = floats
        self.penalties = penalties
        self.graph = graph


def colour_need(seats):
    """(direction, absolute): +1 wishes to move first, -1 second, 0 no wish; absolute when
    the first and second moves differ by two or the last two games had the same seat."""
    if not seats:
        return 0, False
    diff = seats.count(FIRST) - seats.count(SECOND)
    twice = len(seats) >= 2 and seats[-1] == seats[-2]
    if diff <= -2 or (twice and seats[-1] == SECOND):
        return 1, True
    if diff >= 2 or (twice and seats[-1] == FIRST):
        return -1, True
    if diff:
        return (1 if diff < 0 else -1), False
    return (1 if seats[-1] == SECOND else -1), False


def lexicographic(penalties, matched):
    """The bases that make tier penalties one integer, each tier outweighing every tier
    below it over a whole matching of ``matched`` edges: {tier: base}."""
    bases = {}
    base = 1
    for tier in reversed(TIERS):
        bases[tier] = base
        top = max((p.get(tier, 0) for p in penalties), default=0)
        base *= top * matched + 1
    return bases, base


class _Groups:
    """The players' score groups, best first, and each player's place in theirs."""

    def __init__(self, players):
        values = sorted({p.units() for p in players}, reverse=True)
        self.index = {v: i for i, v in enumerate(values)}
        self.members = [[] for _ in values]
        for p in sorted(players, key=lambda p: p.rank):
            self.members[self.index[p.units()]].append(p)
        self.place = {}
        self.need = {}  # pid -> colour_need
        self.units = {}
        self.group = {}
        for g, members in enumerate(self.members):
            for k, p in enumerate(members):
                self.place[p.pid] = k
                self.need[p.pid] = colour_need(p.seats)
                self.units[p.pid] = p.units()
                self.group[p.pid] = g

    def of(self, p):
        return self.group[p.pid]

    def size(self, p):
        return len(self.members[self.group[p.pid]])


def pair_penalties(a, b, groups):
    """The penalties of pairing ``a`` with ``b`` ({tier: value})."""
    out = {}
    if b.pid in a.opponents:
        out["repeat"] = a.opponents[b.pid]
    da, abs_a = groups.need[a.pid]
    db, abs_b = groups.need[b.pid]
    if da and da == db:
        if abs_a and abs_b:
            out["colour_clash"] = 1
        else:
            out["colour_wish"] = 1
    gap = groups.units[a.pid] - groups.units[b.pid]
    if gap:
        out["score_gap"] = gap * gap
        high, low = (a, b) if gap > 0 else (b, a)
        again = (high.last_float == "down") + (low.last_float == "up")
        if again:
            out["float_again"] = again
        # the float meets the other group's nearest end: the bottom of the higher group
        # against the top of the lower one
        out["order"] = (groups.size(high) - 1 - groups.place[high.pid]) + groups.place[low.pid]
    else:
        half = groups.size(a) // 2
        out["order"] = abs(abs(groups.place[a.pid] - groups.place[b.pid]) - half)
    return out


def bye_penalties(p, groups, lowest_units):
    out = {}
    if p.byes:
        out["second_bye"] = p.byes
    below = groups.index[lowest_units] - groups.of(p)  # score groups below p's
    if below:
        out["bye_group"] = below
    out["order"] = groups.size(p) - 1 - groups.place[p.pid]
    return out


def _candidates(players, groups, window):
    """Each player's ``window`` best partners in their own score group and the two
    neighbouring ones (among ``players``), twice: by every criterion in order, and by the
    criteria that decide who can meet at all (repeats, colour clashes) then the order alone
    (a group split by its colour wishes still has the partners that keep it together)."""
    full = ("repeat", "colour_clash", "float_again", "colour_wish", "order")
    plain = ("repeat", "colour_clash", "order")
    ids = {p.pid for p in players}
    edges = {}
    for a in players:
        g = groups.of(a)
        for h in (g - 1, g, g + 1):
            if not 0 <= h < len(groups.members):
                continue
            scored = [(b, pair_penalties(a, b, groups)) for b in groups.members[h]
                      if b.pid != a.pid and b.pid in ids]
            for tiers in (full, plain):
                scored.sort(key=lambda s: (tuple(s[1].get(t, 0) for t in tiers), s[0].rank))
                for b, pen in scored[:window]:
                    key = (a.pid, b.pid) if a.rank < b.rank else (b.pid, a.pid)
                    edges[key] = pen
    return edges


def _best_overall(players, groups, window):
    """Each player's ``window`` best partners in any score group, by every criterion in
    order (the partners that avoid a repeat when the neighbouring groups cannot)."""
    tiers = ("repeat", "colour_clash", "score_gap", "float_again", "colour_wish", "order")
    edges = {}
    for a in players:
        scored = [(b, pair_penalties(a, b, groups)) for b in players if b.pid != a.pid]
        scored.sort(key=lambda s: (tuple(s[1].get(t, 0) for t in tiers), s[0].rank))
        for b, pen in scored[:window]:
            key = (a.pid, b.pid) if a.rank < b.rank else (b.pid, a.pid)
            edges[key] = pen
    return edges


def least_score_gap(players, bye):
    """The least total squared score gap any pairing of ``players`` less ``bye`` can have
    (consecutive scores paired: the squared gap is convex); a bound that ignores repeats and
    colours."""
    units = sorted((p.units() for p in players if p.pid != bye), reverse=True)
    return sum((units[i] - units[i + 1]) ** 2 for i in range(0, len(units) - 1, 2))


def _every_pair(players, groups):
    edges = {}
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            edges[(a.pid, b.pid)] = pair_penalties(a, b, groups)
    return edges


def _blocks(groups, bye_group):
    """The score groups cut where an even number of players lies above (the bye's group
    counted one short): no pairing with the least score gap floats anyone across such a
    cut, so each block is matched on its own."""
    blocks = []
    current = []
    above = 0
    for g, members in enumerate(groups.members):
        current.extend(members)
        above += len(members) - (1 if g == bye_group else 0)
        if above % 2 == 0:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _match(players, edges, bye_edges):
    """The maximum-cardinality maximum-weight matching of these edges; (pairs as (pid, pid)
    or (pid, BYE), {tier: total})."""
    matched = (len(players) + 1) // 2
    bases, top = lexicographic(list(edges.values()) + list(bye_edges.values()), matched)

    def weight(pen):
        return top - sum(v * bases[t] for t, v in pen.items())

    graph = nx.Graph()
    graph.add_nodes_from(p.pid for p in players)
    graph.add_weighted_edges_from((a, b, weight(pen)) for (a, b), pen in edges.items())
    graph.add_weighted_edges_from((a, BYE, weight(pen)) for a, pen in bye_edges.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    totals = dict.fromkeys(TIERS, 0)
    out = []
    for a, b in matching:
        if b == BYE or a == BYE:
            pid = a if b == BYE else b
            pen = bye_edges[pid]
            out.append((pid, BYE))
        else:
            pen = edges.get((a, b))
            if pen is None:
                pen = edges[(b, a)]
            out.append((a, b))
        for t, v in pen.items():
            totals[t] += v
    return out, totals


def first_mover(a, b, board):
    """Which of ``a``, ``b`` (``a`` ranked higher) moves first, on board ``board`` (0-based)."""
    da, abs_a = colour_need(a.seats)
    db, abs_b = colour_need(b.seats)
    if abs_a != abs_b:  # an absolute need before a wish
        if abs_a:
            return a if da > 0 else b
        return b if db > 0 else a
    if da != db:
        if da > 0 or db < 0:
            return a
        if db > 0 or da < 0:
            return b
    if da:  # the same wish: the higher ranked has it
        return a if da > 0 else b
    return a if board % 2 == 0 else b


def pair_swiss(entrants, window=WINDOW):
    """The Swiss pairings of these players (``Entrant``s, the active ones only): a
    ``SwissRound``."""
    players = sorted(entrants, key=lambda p: p.rank)
    by_id = {p.pid: p for p in players}
    if len(by_id) != len(players):
        raise ValueError("a player is entered twice")
    if not players:
        return SwissRound([], None, {}, dict.fromkeys(TIERS, 0), "none")
    groups = _Groups(players)
    odd = len(players) % 2 == 1
    lowest = min(p.units() for p in players)
    bye_edges = {p.pid: bye_penalties(p, groups, lowest) for p in players} if odd else {}
    bye_group = None
    if odd:  # the lowest group with a player who had no bye yet (else the lowest)
        bye_group = max((groups.of(p) for p in players if not p.byes),
                        default=len(groups.members) - 1)
    result = None
    graph = "every pair"
    if len(players) > 2 * window:
        # each block on its own, its best partners only when it is large
        pairs, totals = [], dict.fromkeys(TIERS, 0)
        for block in _blocks(groups, bye_group):
            ids = {p.pid for p in block}
            edges = (_every_pair(block, groups) if len(block) <= 3 * window
                     else _candidates(block, groups, window))
            block_byes = {pid: pen for pid, pen in bye_edges.items() if pid in ids} \
                if bye_group is not None and groups.of(block[-1]) >= bye_group \
                and groups.of(block[0]) <= bye_group else {}
            got, sums = _match(block, edges, block_byes)
            pairs.extend(got)
            for t, v in sums.items():
                totals[t] += v
        if _acceptable(pairs, totals, players, bye_edges):
            result = pairs, totals
            graph = "blocks"
        elif len(players) > EVERY_PAIR_LIMIT:
            # repeats or colours force more floats than the least gap: every player's best
            # partners in the neighbouring groups and in any, kept when it breaks no hard rule
            edges = _candidates(players, groups, window)
            edges.update(_best_overall(players, groups, window))
            pairs, totals = _match(players, edges, bye_edges)
            if _acceptable(pairs, totals, players, bye_edges, least_gap=False):
                result = pairs, totals
                graph = "neighbours"
    if result is None:
        result = _match(players, _every_pair(players, groups), bye_edges)
    pairs, totals = result
    bye = None
    games = []
    for a, b in pairs:
        if b == BYE:
            bye = a
        else:
            pa, pb = by_id[a], by_id[b]
            games.append((pa, pb) if pa.rank < pb.rank else (pb, pa))
    games.sort(key=lambda g: (-max(g[0].units(), g[1].units()),
                              -min(g[0].units(), g[1].units()), g[0].rank))
    out = []
    floats = {}
    for board, (a, b) in enumerate(games):
        first = first_mover(a, b, board)
        out.append((first.pid, (b if first is a else a).pid))
        if a.units() != b.units():
            high, low = (a, b) if a.units() > b.units() else (b, a)
            floats[high.pid] = "down"
            floats[low.pid] = "up"
    return SwissRound(out, bye, floats, totals, graph)


def _acceptable(pairs, totals, players, bye_edges, least_gap=True):
    """A matching on fewer edges is kept when no matching on every pair could do better on
    criteria 1 to 5: everyone paired, no second bye, no repeat, the bye in the lowest score
    group that holds a player without one, no colour clash, and (``least_gap``) the least
    score gap that any pairing can have."""
    if len(pairs) != (len(players) + 1) // 2:
        return False
    if totals["second_bye"] or totals["repeat"] or totals["colour_clash"]:
        return False
    bye = None
    if bye_edges:
        eligible = [pen.get("bye_group", 0) for pen in bye_edges.values()
                    if not pen.get("second_bye")]
        if eligible and totals["bye_group"] != min(eligible):
            return False
        bye = next(a for a, b in pairs if b == BYE)
    return not least_gap or totals["score_gap"] == least_score_gap(players, bye)


def round_robin(pids):
    """Berger tables: the rounds of a round robin of ``pids`` (in seeding order), each a
    list of (first mover, second mover); an odd number of players adds ``None`` (the free
    round: (pid, None))."""
    players = list(pids)
    if len(set(players)) != len(players):
        raise ValueError("a player is entered twice")
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if n < 2:
        return []
    rounds = []
    fixed = players[-1]
    rest = players[:-1]
    for r in range(n - 1):
        # the fixed player meets the rotation's first; the others fold the line in two
        a = rest[0]
        pairs = [(a, fixed) if r % 2 == 0 else (fixed, a)]
        for i in range(1, n // 2):
            x, y = rest[i], rest[n - 1 - i]
            pairs.append((x, y) if i % 2 == 0 else (y, x))
        rounds.append([p if p[1] is not None and p[0] is not None
                       else ((p[0], None) if p[1] is None else (p[1], None)) for p in pairs])
        rest = rest[1:] + rest[:1]  # rotate by one
    return rounds
