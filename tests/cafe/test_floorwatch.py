"""``cafe.floorwatch``: another café's floor is shown only when signed with the key known for
that café (learnt in a match, else kept at its first floor), and newer than the last one
shown; anything else is refused and said; the staff's forgetting sets every earlier key
aside; what is kept survives the host's restart. (The same on a real broker, with the pages:
test_match_attacks.py, test_floor_watch.py, test_browser_remote.py.)"""

import json

import pytest

from xobo_host.cafe.floorwatch import WatchedFloors, WatchError
from xobo_host.cafe.match import MatchStore
from xobo_host.cafe.seal import CafeKey, SealError, fingerprint, sign_floor

A, OTHER = CafeKey.new(), CafeKey.new()
TOPIC = "xobo/v1/cafe-a/floor"


class Host:
    """A watching café's floors on its database, the keys its matches learnt in ``learnt``
    (cafe -> (key, when, match id)), what it subscribed to and how often its pages were
    told."""

    def __init__(self, path, learnt=None):
        self.store = MatchStore(str(path))
        self.learnt = learnt if learnt is not None else {}
        self.subscribed = []
        self.told = 0
        self.floors = WatchedFloors(self.store, self.learnt.get, self.subscribed.append,
                                    self._told)
        self.floors.keep_seq_s = 0.0  # (every sequence number kept at once)

    def _told(self):
        self.told += 1

    def close(self):
        self.store.close()


def floor(key, seq, tables=("a0",), cafe="cafe-a"):
    return json.loads(sign_floor(key, cafe, seq, {"tables": [{"key": t} for t in tables]}))


@pytest.fixture
def host(tmp_path):
    h = Host(tmp_path / "games.sqlite")
    yield h
    h.close()


def test_the_first_floors_key_is_kept_and_only_floors_signed_with_it_are_shown(host):
    assert host.floors.watch("cafe-a", TOPIC) is None and host.subscribed == [TOPIC]
    assert host.floors.take("cafe-a", floor(A, 10)) is True
    shown = host.floors.view("cafe-a")
    assert shown["floor"]["tables"] == [{"key": "a0"}] and shown["refused"] is None
    assert shown["signed"]["fingerprint"] == fingerprint(A.public_hex)
    assert shown["signed"]["source"] == "first seen"
    with pytest.raises(SealError, match="not signed with cafe-a's key .* names the key %s"
                       % fingerprint(OTHER.public_hex)):
        host.floors.take("cafe-a", floor(OTHER, 11, ["pwn"]))
    with pytest.raises(SealError, match="an unsigned floor"):
        host.floors.take("cafe-a", {"cafe": "cafe-a", "tables": [{"key": "pwn"}]})
    with pytest.raises(SealError, match="a signature that is not cafe-a's"):  # (altered)
        host.floors.take("cafe-a", dict(floor(A, 12, ["pwn"]), sig=floor(A, 12)["sig"]))
    shown = host.floors.view("cafe-a")
    assert shown["floor"]["tables"] == [{"key": "a0"}]  # (nothing forged shown)
    assert "signature" in shown["refused"]["why"]
    assert [k["cafe"] for k in host.floors.keys()] == ["cafe-a"]
    assert host.floors.take("cafe-b", floor(A, 14, cafe="cafe-b")) is None  # (not watched)
    assert host.floors.take("cafe-a", None) is None  # (a retained floor cleared: ignored)


def test_an_older_floor_is_refused_and_the_same_one_again_is_not(host):
    host.floors.watch("cafe-a", TOPIC)
    first, second = floor(A, 10), floor(A, 20, ["a0", "a1"])
    host.floors.take("cafe-a", first)
    host.floors.take("cafe-a", second)
    assert host.floors.take("cafe-a", second) is True  # (the broker's retained one again)
    with pytest.raises(SealError, match="older than the last one shown"):
        host.floors.take("cafe-a", first)
    with pytest.raises(SealError, match="older than the last one shown"):
        host.floors.take("cafe-a", floor(A, 20, ["pwn"]))  # (its number, other words)
    assert len(host.floors.view("cafe-a")["floor"]["tables"]) == 2


def test_the_kept_key_and_number_survive_the_watching_hosts_restart(tmp_path):
    host = Host(tmp_path / "games.sqlite")
    host.floors.watch("cafe-a", TOPIC)
    first, second = floor(A, 10), floor(A, 20)
    host.floors.take("cafe-a", first)
    host.floors.take("cafe-a", second)
    host.close()
    again = Host(tmp_path / "games.sqlite")
    try:
        again.floors.watch("cafe-a", TOPIC)
        with pytest.raises(SealError, match="older"):
            again.floors.take("cafe-a", first)  # (a replay of an old retained floor)
        with pytest.raises(SealError, match="not signed with cafe-a's key"):
            again.floors.take("cafe-a", floor(OTHER, 30))
        assert again.floors.take("cafe-a", second) is True  # (the last one, retained)
        assert again.floors.view("cafe-a")["signed"]["source"] == "first seen"
    finally:
        again.close()


def test_a_key_learnt_in_a_newer_match_outranks_the_key_kept_at_first_sight(tmp_path):
    """A forger on an open broker was first: its key was kept. A match with cafe-a (its
    key given under the invitation's code) sets it right, and the forger's big sequence
    numbers do not hold cafe-a's floors back."""
    learnt = {}
    host = Host(tmp_path / "games.sqlite", learnt)
    try:
        host.floors.watch("cafe-a", TOPIC)
        host.floors.take("cafe-a", floor(OTHER, 10 ** 18, ["pwn"]))
        learnt["cafe-a"] = (A.public_hex, host.floors.view("cafe-a")["signed"]["since"] + 1,
                            "m1")
        with pytest.raises(SealError, match="not signed with cafe-a's key"):
            host.floors.take("cafe-a", floor(OTHER, 10 ** 18 + 1, ["pwn"]))
        assert host.floors.take("cafe-a", floor(A, 50)) is True
        shown = host.floors.view("cafe-a")
        assert shown["floor"]["tables"] == [{"key": "a0"}]
        assert shown["signed"]["source"] == "match" and shown["signed"]["match"] == "m1"
        assert host.floors.keys()[0]["fingerprint"] == fingerprint(A.public_hex)
    finally:
        host.close()


def test_forgetting_a_key_sets_every_earlier_one_aside_and_keeps_the_next(tmp_path):
    """cafe-a installed again (a new key): its floors are refused until the staff forget
    its key; the next floor's key is then kept, even over the key of an earlier match."""
    old_match = {"cafe-a": (OTHER.public_hex, 1.0, "m0")}
    host = Host(tmp_path / "games.sqlite", old_match)
    try:
        with pytest.raises(WatchError, match="no key of cafe-z"):
            host.floors.forget("cafe-z")
        host.floors.watch("cafe-a", TOPIC)
        with pytest.raises(SealError, match="known from your match of"):
            host.floors.take("cafe-a", floor(A, 10))
        assert host.floors.view("cafe-a")["floor"] is None
        told = host.told
        assert host.floors.forget("cafe-a")["ok"]
        assert host.subscribed == [TOPIC, TOPIC]  # (the retained floor sent again)
        assert host.told > told and host.floors.view("cafe-a")["refused"] is None
        assert host.floors.keys() == []
        assert host.floors.take("cafe-a", floor(A, 10)) is True
        shown = host.floors.view("cafe-a")
        assert shown["signed"]["fingerprint"] == fingerprint(A.public_hex)
        assert shown["signed"]["source"] == "first seen"
    finally:
        host.close()


def test_a_page_cannot_make_the_host_follow_more_than_its_most(host):
    from xobo_host.cafe.floorwatch import MAX_WATCHED

    for i in range(MAX_WATCHED):
        host.floors.watch("cafe-%d" % i, "xobo/v1/cafe-%d/floor" % i)
    with pytest.raises(WatchError, match="already follows"):
        host.floors.watch("cafe-x", "xobo/v1/cafe-x/floor")
    assert host.floors.watch("cafe-0", "xobo/v1/cafe-0/floor") is None  # (followed already)
