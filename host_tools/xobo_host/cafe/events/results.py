"""What a game's end means for an event: each seat's place, and the points of a place.

The board says how its game ended in its own words (``state``'s ``result`` field, the
``event result`` line: docs/protocol.md): the winner and how (``ew blocus``), ``draw ...``,
X's winner and score (``red 2-1-1``, Red-Yellow-Green), a resignation (``ew ns-resigned``;
``none red-resigned`` in X when nobody is named the winner).

Places (1 is first; equal places for a tie):

- two players: the winner 1, the other 2; a draw 1 and 1;
- X (XE2: the winner is the player with the highest score nobody else has): the winner 1,
  then the other two by their corners (more is better, equal corners share the place); so
  3-1-0 places the three 1, 2, 3, while 2-2-0 (the player with 0 wins) places the two with
  2 second together. A resignation places the resigner last; the winner the host named
  first, or, with none named, the two others first together.

Points: a place's points are those of the places it covers, shared: two players 1 and 0
(a draw: a half each), three players 1, 1/2 and 0 (two sharing second: 1/4 each; two
sharing first: 3/4 each). A bye is a full point (first place alone).

Usage::

    >>> from xobo_host.cafe.events.results import places_from_words, points
    >>> places_from_words("x", ["red", "yellow", "green"], "red 2-1-1")   # X: red won
    [1, 2, 2]
    >>> points([1, 2, 2]), points([1, 1])         # a win, a shared place
    ([1.0, 0.25, 0.25], [0.5, 0.5])
"""

PLACE_POINTS = {2: (1.0, 0.0), 3: (1.0, 0.5, 0.0)}


class ResultError(ValueError):
    """Words that are no result of this game."""


def points(places):
    """Each seat's points for these places (1 first; equal places share)."""
    n = len(places)
    table = PLACE_POINTS.get(n)
    if table is None:
        raise ResultError("no place points for %d players" % n)
    out = []
    for p in places:
        if not 1 <= p <= n:
            raise ResultError("place %r of %d players" % (p, n))
        tied = sum(1 for q in places if q == p)
        out.append(sum(table[p - 1:p - 1 + tied]) / tied)
    return out


def places_from_order(ranks):
    """Places from any comparable values, lower better: [3, 1, 1] -> [3, 1, 1]."""
    return [1 + sum(1 for other in ranks if other < r) for r in ranks]


def check_places(places, seats):
    """``places`` as given by the staff: one whole number a seat, 1..seats, consistent
    (two sharing first make the next third, not second)."""
    if not isinstance(places, list) or len(places) != seats:
        raise ResultError("a result gives each of the %d seats a place" % seats)
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in places):
        raise ResultError("places are whole numbers (1 is first)")
    if places != places_from_order(places):
        raise ResultError("places %s are not a ranking (two first make the next third)"
                          % "-".join(str(p) for p in places))
    return places


def places_from_words(game, seat_names, words):
    """Each seat's place (in ``seat_names`` order: the game's player names) from the board's
    result words (``ew blocus``, ``red 2-1-1``, ``none red-resigned``); None while the game
    goes on (``*``). ResultError for words that are no result of this game."""
    parts = words.split() if isinstance(words, str) else list(words)
    if not parts or parts[0] == "*":
        return None
    winner = parts[0]
    how = parts[1] if len(parts) > 1 else ""
    n = len(seat_names)
    if winner not in seat_names and winner not in ("draw", "none"):
        raise ResultError("'%s' is no player of %s (%s)" % (winner, game, ", ".join(seat_names)))
    resigned = how[:-len("-resigned")] if how.endswith("-resigned") else None
    if resigned is not None and resigned not in seat_names:
        raise ResultError("'%s' is no player of %s" % (resigned, game))
    if winner == "draw":
        return [1] * n
    if resigned is not None:
        ranks = []
        for name in seat_names:
            if name == resigned:
                ranks.append(2)
            elif name == winner or winner == "none":
                ranks.append(0)
            else:
                ranks.append(1)
        return places_from_order(ranks)
    if winner == "none":
        raise ResultError("'none' wins only by a resignation")
    if n == 2:
        return [1 if name == winner else 2 for name in seat_names]
    corners = how.split("-")
    if len(corners) == n and all(c.isdigit() for c in corners):
        ranks = [0 if name == winner else -int(c) for name, c in zip(seat_names, corners,
                                                                      strict=True)]
        # (the winner first whatever its corners: 2-2-0's winner has none)
        ranks = [r if name == winner else r + 100 for name, r in zip(seat_names, ranks,
                                                                      strict=True)]
        return places_from_order(ranks)
    # a winner without a score: the winner first, the others second together
    return [1 if name == winner else 2 for name in seat_names]


def pairwise(places, i, j):
    """Seat ``i``'s score against seat ``j`` in one game: 1 placed above, 1/2 equal, 0."""
    if places[i] < places[j]:
        return 1.0
    if places[i] == places[j]:
        return 0.5
    return 0.0


def describe(places, names):
    """The result in words for people: ``Alice wins``, ``draw``, ``1. Alice 2. Bob, Cleo``."""
    if all(p == 1 for p in places):
        return "draw" if len(places) == 2 else "all placed first"
    if len(places) == 2:
        return "%s wins" % names[places.index(1)]
    order = sorted(set(places))
    return " ".join("%d. %s" % (p, ", ".join(n for n, q in zip(names, places, strict=True)
                                             if q == p)) for p in order)
