"""Whole evenings with no hand on them (``cafe.events.evening``): stand-in boards, ``xobo
cafe`` in its own process, an event made and started through its routes, players scripted
with the computer's levels at each board; the event pairs, tables, takes every result from
the boards, ranks, rates and exports to its last round. The full evening (24 players, 5
rounds of XoBo on 12 boards; X's 9 players on size 8) is ``make test-long``; ``make test``
plays shorter ones on the same path."""

import csv
import io
import statistics

import pytest

from xobo_host.cafe.events.evening import Evening

SPREAD_OVER_WORKERS = True  # (independent evenings, each its own boards and host)


def check_evening(out, players, rounds, per_game, levels_rank=None):
    """What every evening must hold, from its summary (the staff's view and the exports)."""
    view = out["view"]
    assert view["state"] == "finished" and view["round"] == rounds, view["state"]
    assert not out["errors"], out["errors"]
    games = [g for g in view["history"] if g["kind"] == "game"]
    for number in range(1, rounds + 1):
        this = [g for g in view["history"] if g["round"] == number]
        names = [s["name"] for g in this for s in g["seats"]]
        assert sorted(names) == sorted(set(names)) and len(names) == players  # each once
        tables = [g["table"] for g in this if g["kind"] == "game"]
        assert len(tables) == len(set(tables))  # one game a table
    # every result is the board's (a game over, or a resignation said to the board)
    assert all(g["state"] == "over" and g["how"] == "board" for g in games)
    met = set()
    for g in games:  # no repeated pairing (or trio) in these evenings: each was avoidable
        key = frozenset(s["name"] for s in g["seats"])
        assert key not in met
        met.add(key)
        assert len(g["seats"]) == per_game
    rows = view["standings"]
    assert sum(r["points"] for r in rows) == len(games) * (1.5 if per_game == 3 else 1.0) + sum(
        r["byes"] for r in rows)
    assert all(r["rating"]["games"] == r["played"] for r in rows)
    results = list(csv.DictReader(io.StringIO(out["exports"]["results.csv"])))
    assert len(results) == len(view["history"])
    records = out["exports"]["records.txt"]
    assert records.count("[Event ") == len(games)
    assert "cannot be exported" not in records
    if levels_rank:  # the stronger level rated higher on average
        strong, weak = levels_rank
        mean = {lv: statistics.mean(r["rating"]["mu"] for r in rows
                                    if out["levels"][r["name"]] == lv) for lv in levels_rank}
        assert mean[strong] > mean[weak], mean
    return view


@pytest.mark.slow
def test_a_short_evening_of_xobo_runs_itself_on_stand_in_boards(tmp_path):
    with Evening(tmp_path, boards=2) as ev:
        out = ev.run("xobo", players=4, rounds=2, levels=("greedy", "random"), timeout=600)
    check_evening(out, 4, 2, 2)


@pytest.mark.slow
def test_a_short_evening_of_x_groups_of_three_on_three_tables(tmp_path):
    with Evening(tmp_path, boards=3) as ev:
        out = ev.run("x", players=9, rounds=2, settings={"size": 4}, timeout=600)
    view = check_evening(out, 9, 2, 3)
    seats = {}
    for g in view["history"]:
        for s in g["seats"]:
            seats.setdefault(s["name"], []).append(s["seat"])
    assert all(len(set(v)) == 2 for v in seats.values())  # two rounds, two seats each


@pytest.mark.long
def test_a_swiss_evening_24_players_5_rounds_of_xobo_on_12_stand_in_boards(tmp_path):
    with Evening(tmp_path, boards=12) as ev:
        out = ev.run("xobo", players=24, rounds=5, timeout=3000)
    check_evening(out, 24, 5, 2, levels_rank=("pico", "random"))


@pytest.mark.long
def test_an_x_evening_9_players_in_groups_of_three_on_3_tables(tmp_path):
    with Evening(tmp_path, boards=3) as ev:
        out = ev.run("x", players=9, rounds=3, timeout=3000)
    view = check_evening(out, 9, 3, 3)
    seats = {}
    for g in view["history"]:
        for s in g["seats"]:
            seats.setdefault(s["name"], []).append(s["seat"])
    assert all(sorted(v) == ["green", "red", "yellow"] for v in seats.values())
