"""An event's scores: each seat's place from the board's result words (X's result rule, XE2:
the winner first, the others by corners; resignations), place points, the standings'
tie-breaks (Buchholz, Sonneborn-Berger) and the ratings (OpenSkill, Plackett-Luce); the
checks of what the staff enters, and the events' file kept across a restart."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xobo_host.cafe.events import results
from xobo_host.cafe.events.model import EventError, check_event, check_name, seat_names
from xobo_host.cafe.events.ratings import Ratings, player_key
from xobo_host.cafe.events.results import ResultError, places_from_words, points
from xobo_host.cafe.events.standings import standings
from xobo_host.cafe.events.store import EventStore, StoreError

X = ["red", "yellow", "green"]


@pytest.mark.parametrize("words, places", [
    ("red 4-0-0", [1, 2, 2]),        # XE2 4-0-0: the others equal on corners
    ("red 3-1-0", [1, 2, 3]),        # 3-1-0: the one with 1 second
    ("green 1-1-2", [2, 2, 1]),      # the spec's n = 5 vector: Green wins 1-1-2
    ("red 0-2-2", [1, 2, 2]),        # 2-2-0: the player with 0 wins, the two with 2 second
    ("yellow 1-2-1", [2, 1, 2]),
    ("none red-resigned", [3, 1, 1]),  # nobody named the winner: the other two first together
    ("yellow red-resigned", [3, 1, 2]),
])
def test_XE2_x_places_its_winner_first_then_the_others_by_corners(words, places):
    assert places_from_words("x", X, words) == places


def test_two_player_places_from_the_board_words():
    assert places_from_words("xobo", ["ns", "ew"], "ew blocus") == [2, 1]
    assert places_from_words("xobo", ["ns", "ew"], "ew ns-resigned") == [2, 1]
    assert places_from_words("xobo", ["ns", "ew"], "ns exhaustion") == [1, 2]
    assert places_from_words("tiny", ["x", "o"], "draw") == [1, 1]
    assert places_from_words("tiny", ["x", "o"], "*") is None
    with pytest.raises(ResultError, match="no player of xobo"):
        places_from_words("xobo", ["ns", "ew"], "red blocus")
    with pytest.raises(ResultError, match="only by a resignation"):
        places_from_words("xobo", ["ns", "ew"], "none blocus")


def test_place_points_share_the_places_they_cover():
    assert points([1, 2]) == [1.0, 0.0]
    assert points([1, 1]) == [0.5, 0.5]
    assert points([1, 2, 3]) == [1.0, 0.5, 0.0]
    assert points([1, 2, 2]) == [1.0, 0.25, 0.25]
    assert points([1, 1, 3]) == [0.75, 0.75, 0.0]
    assert points([1, 1, 1]) == [0.5, 0.5, 0.5]


@given(st.lists(st.integers(1, 3), min_size=3, max_size=3))
def test_place_points_of_a_three_player_game_always_add_up_to_one_and_a_half(ranks):
    places = results.places_from_order(ranks)
    assert sum(points(places)) == 1.5
    better = [i for i in range(3) for j in range(3) if places[i] < places[j]]
    for i in better:  # a better place never has fewer points
        assert all(points(places)[i] > points(places)[j] for j in range(3)
                   if places[j] > places[i])


def test_the_staff_gives_places_as_a_ranking():
    assert results.check_places([1, 1, 3], 3) == [1, 1, 3]
    with pytest.raises(ResultError, match="not a ranking"):
        results.check_places([1, 1, 2], 3)
    with pytest.raises(ResultError, match="each of the 2 seats"):
        results.check_places([1], 2)


def test_buchholz_and_sonneborn_berger_by_hand():
    # A beats B, A draws C, B beats C, C has a bye
    players = [{"id": k, "name": n, "seed": k} for k, n in enumerate("ABC")]
    games = [{"players": [0, 1], "places": [1, 2], "kind": "game"},
             {"players": [2, 0], "places": [1, 1], "kind": "game"},
             {"players": [1, 2], "places": [1, 2], "kind": "game"},
             {"players": [2], "places": [1], "kind": "bye"}]
    rows = {r["name"]: r for r in standings(players, games)}
    assert (rows["A"]["points"], rows["B"]["points"], rows["C"]["points"]) == (1.5, 1.0, 1.5)
    # Buchholz: the opponents' points; the bye counts for no opponent
    assert rows["A"]["buchholz"] == 1.0 + 1.5
    assert rows["C"]["buchholz"] == 1.5 + 1.0
    # Sonneborn-Berger: a win counts the opponent's points, a draw half of them
    assert rows["A"]["sb"] == 1.0 * 1.0 + 0.5 * 1.5
    assert rows["C"]["sb"] == 0.5 * 1.5
    assert [r["name"] for r in standings(players, games)] == ["A", "C", "B"]
    assert rows["C"]["byes"] == 1


def test_players_equal_on_every_tie_break_share_their_rank():
    players = [{"id": k, "name": n, "seed": k} for k, n in enumerate("ABCD")]
    games = [{"players": [0, 1], "places": [1, 2], "kind": "game"},
             {"players": [2, 3], "places": [1, 2], "kind": "game"}]
    rows = standings(players, games)
    assert [(r["name"], r["rank"], r["shared"]) for r in rows] == [
        ("A", 1, True), ("C", 1, True), ("B", 3, True), ("D", 3, True)]


def test_x_standings_read_each_game_as_its_three_pairs():
    players = [{"id": k, "name": n, "seed": k} for k, n in enumerate("RYG")]
    games = [{"players": [0, 1, 2], "places": [1, 2, 3], "kind": "game"}]
    rows = {r["name"]: r for r in standings(players, games)}
    assert (rows["R"]["points"], rows["Y"]["points"], rows["G"]["points"]) == (1.0, 0.5, 0.0)
    assert rows["R"]["buchholz"] == 0.5 and rows["G"]["buchholz"] == 1.5
    assert rows["R"]["sb"] == 0.5 and rows["Y"]["sb"] == 0.0


def test_ratings_rise_for_the_winner_and_grow_surer_with_games():
    r = Ratings()
    new = r.get("xobo", "alice")
    assert (round(new["mu"], 2), round(new["sigma"], 2), new["games"]) == (25.0, 8.33, 0)
    for _ in range(5):
        r.rate("xobo", ["alice", "bob"], [1, 2])
    a, b = r.get("xobo", "alice"), r.get("xobo", "bob")
    assert a["mu"] > 25 > b["mu"] and a["sigma"] < 8.33 and a["games"] == 5
    assert r.get("x", "alice")["games"] == 0  # a rating per game
    r.rate("x", ["alice", "bob", "cleo"], [1, 2, 2])  # three players, a shared place
    assert r.get("x", "alice")["mu"] > r.get("x", "bob")["mu"] == r.get("x", "cleo")["mu"]
    assert [row["key"] for row in r.of_game("xobo")] == ["alice", "bob"]
    assert player_key("  Alice   B. ") == player_key("alice b.")


@pytest.mark.parametrize("name, why", [
    ("", "cannot be empty"), ("=cmd()", "starts with a letter or a digit"),
    ('Al"ice', "cannot hold"), ("a" * 41, "at most 40"), ("<b>x</b>", "cannot hold"),
    ("Bob\x07", "cannot hold"),
])
def test_a_players_name_that_cannot_be_one_is_refused_with_the_reason(name, why):
    with pytest.raises(EventError, match=why):
        check_name(name)


def test_names_keep_their_letters_and_lose_extra_spaces():
    assert check_name("  Zoë   Éléonore ") == "Zoë Éléonore"


def test_an_event_is_checked_and_completed_from_what_the_staff_gives():
    spec = check_event({"name": "Friday", "game": "x", "rounds": "3",
                        "settings": {"size": "6"}, "tables": "t1, t2 t1"})
    assert spec == {"name": "Friday", "game": "x", "settings": {"size": 6},
                    "format": "swiss", "rounds": 3, "tables": ["t1", "t2"], "auto": True}
    for bad, why in [({"game": "chess"}, "the game is one of"),
                     ({"game": "x", "format": "round-robin"}, "round robin is for two-player"),
                     ({"game": "xobo", "rounds": 0}, "the rounds are 1 to 20"),
                     ({"game": "x", "settings": {"size": 12}}, "size is 4 to 9, not 12"),
                     ({"game": "xobo", "settings": {"colour": "red"}}, "no setting 'colour'")]:
        with pytest.raises(EventError, match=why):
            check_event(dict({"name": "E"}, **bad))
    assert seat_names("x") == ["red", "yellow", "green"]
    assert seat_names("xobo") == ["ns", "ew"]


def test_the_events_file_keeps_everything_across_a_restart_and_refuses_another_file(tmp_path):
    path = str(tmp_path / "events.sqlite")
    store = EventStore(path)
    eid = store.create_event(check_event({"name": "Night", "game": "xobo"}))
    pid = store.add_player(eid, "Alice", checked_in=True)
    store.add_round(eid, 1, "test", [{"board": 1, "kind": "bye", "seats": [""],
                                      "players": [pid], "state": "over", "places": [1]}])
    store.close()
    again = EventStore(path)
    assert again.event(eid)["current_round"] == 1 and again.event(eid)["state"] == "running"
    assert again.games(eid)[0]["places"] == [1]
    again.close()
    import sqlite3

    other = str(tmp_path / "other.sqlite")
    sqlite3.connect(other).execute("CREATE TABLE moves (id INTEGER)").connection.close()
    with pytest.raises(StoreError, match="not an events file"):
        EventStore(other)
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="cannot be the events file"):
        EventStore(str(tmp_path / "junk.sqlite"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from(
    [[1, 2], [2, 1], [1, 1]])), max_size=20))
def test_standings_points_add_up_to_the_games_played(games):
    players = [{"id": k, "name": "P%d" % k, "seed": k} for k in range(6)]
    played = [{"players": [a, b], "places": p, "kind": "game"} for a, b, p in games if a != b]
    rows = standings(players, played)
    assert sum(r["points"] for r in rows) == len(played)
    assert sum(r["played"] for r in rows) == 2 * len(played)
    assert all(0 <= r["sb"] <= r["buchholz"] for r in rows)
    keys = [(-r["points"], -r["buchholz"], -r["sb"]) for r in rows]
    assert keys == sorted(keys)
