"""A rating per player per game, across every event of the café: OpenSkill's
Plackett-Luce model (``openskill``), which rates games of any number of players from their
places (ties allowed): two-player games and X's three alike.

A rating is a belief: ``mu`` (the skill it thinks most likely; a newcomer 25) and ``sigma``
(how unsure it is; a newcomer 25/3, shrinking as games are played). The pages show
``mu ± sigma``; players are ordered by the cautious estimate ``mu - 3 sigma`` (OpenSkill's
``ordinal``: 0 for a newcomer), which is also the seed of a player's first pairing.

A player is their name (folded: case and spaces do not matter): the café knows nothing
else of them. The ratings are computed again from the games themselves, in the order they
ended, whenever a result is added or corrected: a correction changes every rating that
followed it. Byes and forfeits are not games played: they change no rating.

Usage::

    >>> from xobo_host.cafe.events.ratings import Ratings
    >>> r = Ratings()
    >>> r.rate("xobo", ["alice", "bob"], [1, 2])     # players' keys, their places
    >>> alice = r.get("xobo", "alice")
    >>> round(alice["mu"], 1), round(alice["sigma"], 2), alice["games"]   # a newcomer: 25, 8.33
    (27.6, 8.07, 1)
"""

from openskill.models import PlackettLuce


def player_key(name):
    """A player's identity across events: their name, case and spaces folded."""
    return " ".join(name.split()).casefold()


class Ratings:
    """The ratings of every (game, player key)."""

    def __init__(self):
        self.model = PlackettLuce()
        self.table = {}  # (game, key) -> [openskill rating, games rated]

    def _rating(self, game, key):
        got = self.table.get((game, key))
        if got is None:
            got = self.table[(game, key)] = [self.model.rating(name=key), 0]
        return got

    def rate(self, game, keys, places):
        """One game of ``game`` between these players (their keys) and their places."""
        if len(set(keys)) != len(keys) or len(keys) < 2:
            return
        entries = [self._rating(game, k) for k in keys]
        teams = [[e[0]] for e in entries]
        new = self.model.rate(teams, ranks=list(places))
        for e, team in zip(entries, new, strict=True):
            e[0] = team[0]
            e[1] += 1

    def get(self, game, key):
        """{"mu", "sigma", "ordinal", "games"}; a newcomer's when never rated."""
        got = self.table.get((game, key))
        if got is None:
            r = self.model.rating()
            return {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal(), "games": 0}
        r, n = got
        return {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal(), "games": n}

    def of_game(self, game):
        """Every rated player of ``game``, best first: [{"key", "mu", "sigma", ...}]."""
        rows = [dict(self.get(g, k), key=k) for (g, k) in self.table if g == game]
        rows.sort(key=lambda r: (-r["ordinal"], r["key"]))
        return rows
