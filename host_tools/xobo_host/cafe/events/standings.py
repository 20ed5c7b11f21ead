"""An event's standings: points, then Buchholz, then Sonneborn-Berger.

- **Points**: each game's points (``results.points``: a win 1, a draw 1/2; X's place points
  1, 1/2, 0, shared when places are shared), a bye a full point, a forfeit won a full point.
- **Buchholz**: the sum of the final points of everyone the player played (in X, both other
  players of each game): a point won against strong opposition counts for more.
- **Sonneborn-Berger**: the sum, over each opponent met, of the player's score against that
  opponent (1 placed above, 1/2 equal, 0 below: in X each game is read as the three pairs it
  holds) times that opponent's final points: whom you beat matters.

Byes and forfeits give their points but no opponent (they count in neither tie-break).
Players equal on all three share their rank (shown as ``3=``), listed by their seed.

Usage::

    >>> from xobo_host.cafe.events.standings import standings
    >>> players = [{"id": 1, "name": "Alice", "seed": 1}, {"id": 2, "name": "Bob", "seed": 2}]
    >>> # a game: its players and places by seat (places None: not played yet); its kind
    >>> # "game", "bye" or "forfeit"
    >>> games = [{"players": [1, 2], "places": [1, 2], "kind": "game"}]
    >>> rows = standings(players, games)
    >>> rows[0]
    {'id': 1, 'name': 'Alice', 'seed': 1, 'points': 1.0, 'buchholz': 0.0, 'sb': 0.0,
     'played': 1, 'byes': 0, 'rank': 1, 'shared': False}
"""

from xobo_host.cafe.events.results import pairwise, points


def standings(players, games):
    """The standings rows, best first (see the module's docstring)."""
    pts = {p["id"]: 0.0 for p in players}
    played = {p["id"]: 0 for p in players}
    byes = {p["id"]: 0 for p in players}
    meetings = {p["id"]: [] for p in players}  # (opponent, score against them)
    for g in games:
        places = g.get("places")
        if places is None:
            continue
        ids = g["players"]
        if g.get("kind") in ("bye", "forfeit"):
            for pid, place in zip(ids, places, strict=True):
                if pid in pts and place == 1:
                    pts[pid] += 1.0
                    byes[pid] += g["kind"] == "bye"
            continue
        for pid, p in zip(ids, points(places), strict=True):
            if pid in pts:
                pts[pid] += p
                played[pid] += 1
        for i, pid in enumerate(ids):
            if pid not in meetings:
                continue
            for j, other in enumerate(ids):
                if j != i:
                    meetings[pid].append((other, pairwise(places, i, j)))
    rows = []
    for p in players:
        pid = p["id"]
        buchholz = sum(pts.get(o, 0.0) for o, _ in meetings[pid])
        sb = sum(score * pts.get(o, 0.0) for o, score in meetings[pid])
        rows.append({"id": pid, "name": p["name"], "seed": p.get("seed", 0),
                     "points": pts[pid], "buchholz": buchholz, "sb": sb,
                     "played": played[pid], "byes": byes[pid]})
    rows.sort(key=lambda r: (-r["points"], -r["buchholz"], -r["sb"], r["seed"]))
    for i, r in enumerate(rows):
        key = (r["points"], r["buchholz"], r["sb"])
        if i and key == (rows[i - 1]["points"], rows[i - 1]["buchholz"], rows[i - 1]["sb"]):
            r["rank"] = rows[i - 1]["rank"]
            r["shared"] = rows[i - 1]["shared"] = True
        else:
            r["rank"] = i + 1
            r["shared"] = False
    return rows
