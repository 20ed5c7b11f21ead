"""An event's pairings, stated as properties over whole tournaments (hypothesis): Swiss by
score groups (every active player once, no repeated pairing while one can be avoided, one
bye at most, in the lowest score group that can take it, no two players who must both move
first, the same criteria as the matching on every pair), round robin (everyone meets
everyone once, first moves balanced), groups of three for X (the best partition of all, no
repeated trio while avoidable, seats rotated)."""

import itertools
import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from xobo_host.cafe.events import pairing, trios
from xobo_host.cafe.events.pairing import (
    BYE,
    FIRST,
    SECOND,
    Entrant,
    colour_need,
    pair_swiss,
    round_robin,
)
from xobo_host.cafe.events.trios import TrioEntrant, group_trios

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


class Tournament:
    """Players, their history, and a random result for each game (seeded)."""

    def __init__(self, n, seed):
        self.rng = random.Random(seed)
        self.n = n
        self.score = {i: 0.0 for i in range(n)}
        self.opp = {i: {} for i in range(n)}
        self.seats = {i: [] for i in range(n)}
        self.byes = {i: 0 for i in range(n)}
        self.last_float = {i: None for i in range(n)}
        self.active = set(range(n))

    def entrants(self):
        order = sorted(self.active, key=lambda i: (-self.score[i], i))
        return [Entrant(i, self.score[i], k, self.opp[i], self.seats[i], self.byes[i],
                        self.last_float[i]) for k, i in enumerate(order)]

    def play(self, rnd):
        for i in self.active:
            self.last_float[i] = rnd.floats.get(i)
        if rnd.bye is not None:
            self.byes[rnd.bye] += 1
            self.score[rnd.bye] += 1
        for a, b in rnd.pairs:
            r = self.rng.choice((1.0, 0.5, 0.0, 1.0, 0.0))
            self.score[a] += r
            self.score[b] += 1 - r
            for x, y in ((a, b), (b, a)):
                self.opp[x][y] = self.opp[x].get(y, 0) + 1
            self.seats[a].append(FIRST)
            self.seats[b].append(SECOND)
        if self.rng.random() < 0.1 and len(self.active) > 3:  # a withdrawal
            self.active.discard(self.rng.choice(sorted(self.active)))


def perfect(players, edge_ok, bye_ok):
    """Whether every player can be paired (with one bye when odd) on the allowed edges."""
    g = nx.Graph()
    g.add_nodes_from(p.pid for p in players)
    for a, b in itertools.combinations(players, 2):
        if edge_ok(a, b):
            g.add_edge(a.pid, b.pid)
    if len(players) % 2:
        for p in players:
            if bye_ok(p):
                g.add_edge(p.pid, BYE)
    m = nx.max_weight_matching(g, maxcardinality=True)
    return len(m) == (len(players) + 1) // 2


def check_swiss_round(players, rnd):
    by_id = {p.pid: p for p in players}
    seen = [x for pair in rnd.pairs for x in pair] + ([rnd.bye] if rnd.bye is not None else [])
    # every active player exactly once; a bye exactly when their number is odd
    assert sorted(seen) == sorted(by_id)
    assert (rnd.bye is not None) == (len(players) % 2 == 1)
    repeats = sum(1 for a, b in rnd.pairs if b in by_id[a].opponents)
    new = perfect(players, lambda a, b: b.pid not in a.opponents, lambda p: not p.byes)
    if new:  # a pairing with no repeat and no second bye exists: this is one
        assert repeats == 0
        if rnd.bye is not None:
            assert by_id[rnd.bye].byes == 0
            # the bye in the lowest score group that can take it
            feasible = [p for p in players if not p.byes and perfect(
                [q for q in players if q.pid != p.pid], lambda a, b: b.pid not in a.opponents,
                lambda q: False)]
            assert by_id[rnd.bye].units() == min(p.units() for p in feasible)
        rest = [p for p in players if p.pid != rnd.bye]

        def no_clash(a, b):
            na, aa = colour_need(a.seats)
            nb, ab = colour_need(b.seats)
            return b.pid not in a.opponents and not (aa and ab and na == nb)

        if perfect(rest, no_clash, lambda p: False):
            assert rnd.penalties["colour_clash"] == 0
    # the player who must move first (or second) does, unless both must
    for first, second in rnd.pairs:
        nf, af = colour_need(by_id[first].seats)
        ns, as_ = colour_need(by_id[second].seats)
        if af and not (as_ and ns == nf):
            assert nf > 0
        if as_ and not (af and ns == nf):
            assert ns < 0
    # floats: exactly the players paired with another score
    for a, b in rnd.pairs:
        if by_id[a].units() != by_id[b].units():
            hi, lo = sorted((a, b), key=lambda x: -by_id[x].units())
            assert rnd.floats[hi] == "down" and rnd.floats[lo] == "up"
        else:
            assert a not in rnd.floats and b not in rnd.floats


@SETTINGS
@given(n=st.integers(2, 22), rounds=st.integers(1, 7), seed=st.integers(0, 10 ** 6))
def test_swiss_pairs_everyone_once_without_repeats_or_second_byes_while_avoidable(
        n, rounds, seed):
    t = Tournament(n, seed)
    for _ in range(min(rounds, n - 1)):
        players = t.entrants()
        rnd = pair_swiss(players)
        check_swiss_round(players, rnd)
        t.play(rnd)


@SETTINGS
@given(n=st.integers(6, 22), rounds=st.integers(1, 6), seed=st.integers(0, 10 ** 6))
def test_swiss_blocks_and_best_partners_reach_the_optimum_of_the_matching_on_every_pair(
        n, rounds, seed):
    """The speed-ups (score groups cut into blocks, each player's best partners) give the
    same criteria 1 to 5 as the matching on every pair: they are forced on small events
    with a tiny window."""
    t = Tournament(n, seed)
    for _ in range(min(rounds, n - 1)):
        players = t.entrants()
        fast = pair_swiss(players, window=1)
        slow = pair_swiss(players, window=10 ** 6)  # (every pair: no window is smaller)
        assert slow.graph == "every pair"
        top = pairing.TIERS[:5]
        assert [fast.penalties[k] for k in top] == [slow.penalties[k] for k in top]
        check_swiss_round(players, fast)
        t.play(fast)


@SETTINGS
@given(half=st.integers(2, 10), seed=st.integers(0, 10 ** 6))
def test_swiss_keeps_first_moves_balanced_within_two(half, seed):
    """With at least twice as many players as rounds, no player's first moves and second
    moves differ by more than two, nor does anyone have the same seat three times running."""
    n = 2 * half + seed % 2
    t = Tournament(n, seed)
    for _ in range(max(1, n // 2 - 1)):
        t.play(pair_swiss(t.entrants()))
    for i in range(n):
        seats = t.seats[i]
        assert abs(seats.count(FIRST) - seats.count(SECOND)) <= 2
        assert all(len(set(seats[k:k + 3])) > 1 for k in range(len(seats) - 2))


def test_swiss_round_one_pairs_the_top_half_with_the_bottom_half_seats_alternating():
    players = [Entrant(i, 0.0, i) for i in range(8)]
    rnd = pair_swiss(players)
    assert rnd.pairs == [(0, 4), (5, 1), (2, 6), (7, 3)]
    assert rnd.bye is None and rnd.floats == {}


def test_swiss_gives_the_bye_to_the_lowest_player_of_the_lowest_group_who_had_none():
    players = [Entrant(0, 2.0, 0), Entrant(1, 1.0, 1), Entrant(2, 1.0, 2),
               Entrant(3, 0.0, 3, byes=1), Entrant(4, 0.0, 4)]
    assert pair_swiss(players).bye == 4
    players[4].byes = 1  # both of the lowest had one: the next group's lowest
    assert pair_swiss(players).bye == 2


def test_swiss_on_two_hundred_players_pairs_by_blocks():
    t = Tournament(200, 7)
    for _ in range(5):
        players = t.entrants()
        rnd = pair_swiss(players)
        assert rnd.graph in ("blocks", "neighbours")
        check = {k: rnd.penalties[k] for k in ("second_bye", "repeat", "colour_clash")}
        assert check == {"second_bye": 0, "repeat": 0, "colour_clash": 0}
        t.play(rnd)


@pytest.mark.parametrize("n", range(2, 17))
def test_round_robin_everyone_meets_everyone_once_first_moves_balanced(n):
    rounds = round_robin(list(range(n)))
    assert len(rounds) == n - 1 + n % 2
    met = set()
    firsts = {i: 0 for i in range(n)}
    for r in rounds:
        seen = []
        for a, b in r:
            seen.append(a)
            if b is None:
                continue
            seen.append(b)
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
            firsts[a] += 1
        assert sorted(seen) == list(range(n))
    assert len(met) == n * (n - 1) // 2
    played = n - 1
    assert all(abs(2 * f - played) <= 1 + (n % 2) for f in firsts.values())


# -- three players ----------------------------------------------------------------------------
class TrioTournament:
    def __init__(self, n, seed):
        self.rng = random.Random(seed)
        self.n = n
        self.score = {i: 0.0 for i in range(n)}
        self.met = {i: {} for i in range(n)}
        self.trios = {i: set() for i in range(n)}
        self.counts = {i: [0, 0, 0] for i in range(n)}
        self.last = {i: None for i in range(n)}
        self.byes = {i: 0 for i in range(n)}

    def entrants(self):
        order = sorted(range(self.n), key=lambda i: (-self.score[i], i))
        return [TrioEntrant(i, self.score[i], k, self.met[i], self.trios[i], self.counts[i],
                            self.last[i], self.byes[i]) for k, i in enumerate(order)]

    def play(self, rnd):
        for i in range(self.n):
            self.last[i] = None
        for b in rnd.byes:
            self.byes[b] += 1
            self.score[b] += 1
        for g in rnd.groups:
            pts = self.rng.choice([(1, .5, 0), (1, .25, .25), (0, 1, .5), (.75, .75, 0)])
            for s, p in enumerate(g):
                self.score[p] += pts[s]
                self.counts[p][s] += 1
                self.last[p] = s
                self.trios[p].add(frozenset(g))
                for q in g:
                    if q != p:
                        self.met[p][q] = self.met[p].get(q, 0) + 1


def partitions(ids, byes):
    """Every way to seat ``ids`` in groups of three with ``byes`` byes: [(groups, byes)]."""
    out = []
    for bye in itertools.combinations(ids, byes):
        rest = [i for i in ids if i not in bye]

        def split(xs):
            if not xs:
                yield []
                return
            a = xs[0]
            for b, c in itertools.combinations(xs[1:], 2):
                for more in split([x for x in xs[1:] if x not in (b, c)]):
                    yield [(a, b, c)] + more
        for groups in split(rest):
            out.append((groups, bye))
    return out


def cost_of(players, groups, byes):
    """A partition's cost vector, as trios.py states its criteria."""
    by_id = {p.pid: p for p in players}
    index = {p.pid: k for k, p in enumerate(players)}
    lowest = min(p.units() for p in players)
    total = [0] * len(trios.TIERS)
    for b in byes:
        p = by_id[b]
        v = dict(second_bye=int(p.byes > 0), byes_before=p.byes, bye_score=p.units() - lowest,
                 rank_spread=len(players) - 1 - index[b])
        total = [x + v.get(t, 0) for x, t in zip(total, trios.TIERS, strict=True)]
    for g in groups:
        members = [by_id[x] for x in sorted(g, key=index.get)]
        ks = sorted(index[x] for x in g)
        ids = frozenset(g)
        _, over, seat, again = trios.seat_order(members)
        units = [p.units() for p in members]
        v = dict(repeat_trio=int(any(ids in p.trios for p in members)), seat_spread=over,
                 score_spread=(max(units) - min(units)) ** 2, seat=seat, seat_again=again,
                 repeat_pairs=sum(1 for x, y in itertools.combinations(members, 2)
                                  if y.pid in x.met),
                 rank_spread=ks[2] - ks[0] - 2)
        total = [x + v.get(t, 0) for x, t in zip(total, trios.TIERS, strict=True)]
    return tuple(total)


@SETTINGS
@given(n=st.integers(3, 9), rounds=st.integers(1, 5), seed=st.integers(0, 10 ** 6))
@example(n=5, rounds=5, seed=187643)  # two byes a round: one with none before one with two
def test_trios_are_the_best_partition_of_all_no_repeated_trio_while_avoidable(n, rounds, seed):
    t = TrioTournament(n, seed)
    for _ in range(rounds):
        players = t.entrants()
        rnd = group_trios(players)
        seated = [x for g in rnd.groups for x in g] + rnd.byes
        assert sorted(seated) == list(range(n)) and len(rnd.byes) == n % 3
        every = [cost_of(players, g, b) for g, b in partitions(list(range(n)), n % 3)]
        assert tuple(rnd.penalties[k] for k in trios.TIERS) == min(every)
        # no repeated trio while one can be avoided (byes to those who had none come first)
        rt = trios.TIERS.index("repeat_trio")
        if any(c[rt] == 0 and c[:rt] == min(every)[:rt] for c in every):
            assert all(not any(frozenset(g) in t.trios[p] for p in g) for g in rnd.groups)
        # the byes to players who had none, as far as they go
        fresh = sum(1 for p in range(n) if t.byes[p] == 0)
        assert sum(1 for b in rnd.byes if t.byes[b]) == max(0, len(rnd.byes) - fresh)
        # each group's seats: no other order keeps more players within one game of every
        # seat, nor gives them less played seats
        by_id = {p.pid: p for p in players}

        def seat_cost(order, by_id=by_id):
            over = 0
            for s, p in enumerate(order):
                counts = list(by_id[p].seat_counts)
                counts[s] += 1
                over += max(counts) - min(counts) > 1
            return over, sum(by_id[p].seat_counts[s] for s, p in enumerate(order))

        for g in rnd.groups:
            assert seat_cost(g) == min(seat_cost(p) for p in itertools.permutations(g))
        t.play(rnd)


@SETTINGS
@given(n=st.integers(10, 30), seed=st.integers(0, 10 ** 6))
def test_trios_of_larger_events_seat_everyone_once_by_standing(n, seed):
    t = TrioTournament(n, seed)
    for _ in range(4):
        players = t.entrants()
        rnd = group_trios(players)
        seated = [x for g in rnd.groups for x in g] + rnd.byes
        assert sorted(seated) == list(range(n)) and len(rnd.byes) == n % 3
        t.play(rnd)


def test_nine_players_three_rounds_of_x_each_play_every_seat_once():
    t = TrioTournament(9, 3)
    for _ in range(3):
        rnd = group_trios(t.entrants())
        assert len(rnd.groups) == 3 and not rnd.byes
        t.play(rnd)
    assert all(c == [1, 1, 1] for c in t.counts.values())
    assert all(len(ts) == 3 for ts in t.trios.values())  # three different trios each
