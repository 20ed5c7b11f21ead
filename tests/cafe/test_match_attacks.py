"""Attacks on remote play (docs/remote.md, "Security"): the broker configuration ``xobo
broker-setup`` writes (``remotekit.Broker``), two real café hosts with their staff's pages,
and three attackers: an anonymous client, a third café with a valid login of its own
(``evil-cafe``), and a client that replays what it read. Each tries to read an invitation's
code, accept, decline or cancel it, inject a move, resign for a table and publish a forged
floor: every attempt fails, both cafés' logs, boards and records stay the match's, and the
staff's page lists what was refused. The same on an open broker (anyone writes anywhere): no
forged or replayed message moves a board or a record."""

import time

import pytest

from cafe.attackkit import Client, broker_password, envelope_seq, start_server
from cafe.cafekit import PASSWORD
from cafe.cafekit import api_request as _request
from cafe.remotekit import (
    Broker,
    Cafe,
    board_state,
    boards,
    commit,
    same_everywhere,
    wait_for,
    wait_playing,
)


def staff_page(cafe):
    """The staff's view of /api/matches of café ``cafe`` (its web server, logged in)."""
    status, out, headers = _request(cafe.url + "api/login", {"password": PASSWORD})
    assert status == 200
    cookie = headers["Set-Cookie"].split(";")[0]
    status, out, _ = _request(cafe.url + "api/matches", cookie=cookie)
    assert status == 200
    return out


def refused(cafe, *words):
    """The refusals of café ``cafe`` whose reason holds every word."""
    return [r for r in list(cafe.service.refused) if all(w in r["why"] for w in words)]


def shown_floor(cafe, watched):
    """What café ``cafe``'s pages show of café ``watched``'s floor (``floorwatch``)."""
    return cafe.service.floors.view(watched)


def records(cafes):
    """Every café's games records (table, moves), to compare before and after."""
    from xobo_host.records.gamesdb import GamesDB

    out = {}
    for c in cafes:
        db = GamesDB(c.db)
        try:
            out[c.name] = [(g["source"], g["n_moves"]) for g in db.list_games(None, None, None)]
        finally:
            db.close()
    return out


@pytest.fixture
def network(tmp_path, request):
    """Two cafés on the broker (secured, or open with ``open_network``), each a board, their
    pages; cafe-a has invited (the code not given yet)."""
    open_network = getattr(request, "param", False)
    broker = Broker(tmp_path, open_network=open_network).start()
    bs = boards(tmp_path, ["a0", "a1"])
    bs["a0"].play("serial set game tiny")
    cafes = [Cafe(tmp_path, "cafe-a", {"a0": bs["a0"]}, broker, publish=True).start(),
             Cafe(tmp_path, "cafe-b", {"a1": bs["a1"]}, broker).start()]
    for c in cafes:
        start_server(c, tmp_path)
    invitation = cafes[0].service.invite("a0")
    yield broker, cafes, bs, invitation
    for c in cafes:
        c.server.stop()
        c.stop()
    for b in bs.values():
        b.unplug()
    broker.kill()


def _accept(cafes, bs, invitation):
    ident = cafes[1].service.accept(invitation["code"], "a1")["match"]
    wait_playing(cafes, ident)
    tables = {"a0": (cafes[0], bs["a0"]), "a1": (cafes[1], bs["a1"])}
    commit(bs["a0"], "play b2")
    wait_for(lambda: board_state(bs["a1"])[2] == "b2", "b2 lit at cafe-b")
    commit(bs["a1"], "play expected")
    wait_for(lambda: all(c.match(ident).ply == 1 for c in cafes), "move 1 in both logs")
    same_everywhere(cafes, tables, ident)
    return ident, tables


def _invitation_topic(broker_reader, cafe_name):
    got = broker_reader.seen(lambda r: r[0].startswith("xobo/v1/%s/invite/" % cafe_name)
                             and r[1])
    return got[0][0] if got else None


def test_an_anonymous_client_cannot_even_connect_to_the_shipped_broker(network):
    broker, cafes, bs, invitation = network
    anonymous = Client(broker)
    try:
        assert anonymous.connack.is_failure  # (no password: no connection at all)
        wrong = Client(broker, "cafe-b", "not-its-password", name="guesser")
        assert wrong.connack.is_failure
        wrong.stop()
        # a café whose password is wrong: its page says the broker refused it
        from xobo_host.cafe.broker import BrokerLink, BrokerSettings

        settings = BrokerSettings("127.0.0.1", broker.port, username="cafe-c",
                                  password="not-its-password")
        link = BrokerLink("cafe-c", settings).start()
        try:
            wait_for(lambda: "refused this café" in link.health()[1], "the refusal said", 20)
        finally:
            link.stop()
    finally:
        anonymous.stop()
    # both cafés' pages say they are connected and read what they should
    for c in cafes:
        wait_for(lambda c=c: staff_page(c)["broker"]["connected"], c.name + " healthy", 20)


def test_a_third_cafe_with_a_login_can_do_nothing_to_a_match_of_two_others(network):
    broker, cafes, bs, invitation = network
    a, b = cafes
    code = invitation["code"]
    evil = Client(broker, "evil-cafe", broker_password(broker, "evil-cafe"), name="evil-cafe")
    try:
        assert not evil.connack.is_failure
        evil.listen()
        # it reads the invitation, but not its code: no topic, no payload holds it
        topic = wait_for(lambda: _invitation_topic(evil, "cafe-a"), "the invitation read", 20)
        for t, payload, _ in evil.seen(lambda r: True):
            for form in (code, code.replace("-", "")):
                assert form not in t and form.encode() not in payload
        topic_id = topic.rsplit("/", 1)[1]
        match_id = invitation["match"]
        # accept and decline without the code: answers that are not sealed with it
        assert evil.publish("xobo/v1/evil-cafe/reply/" + topic_id, {
            "t": "accept", "match": match_id, "seat": 1, "table": "pwn",
            "key": "00" * 32}) == 0
        assert evil.publish("xobo/v1/evil-cafe/reply/" + topic_id, {
            "t": "decline", "match": match_id}) == 0
        wait_for(lambda: len(refused(a, "sealed")) >= 2, "both answers refused at cafe-a")
        assert a.match(match_id).state == "inviting" and a.match(match_id).seats[1] is None
        # cancel or clear the invitation in cafe-a's name: the broker refuses the writes
        assert evil.publish("xobo/v1/cafe-a/invite/" + topic_id, b"", retain=True) >= 0x80
        assert evil.publish("xobo/v1/cafe-a/match/" + match_id, {"t": "cancel"}) >= 0x80
        # ... and in its own name: cafe-a takes nothing from a café of no seat
        assert evil.publish("xobo/v1/evil-cafe/match/" + match_id, {"t": "cancel"}) == 0
        wait_for(lambda: refused(a, "evil-cafe plays no seat"), "the cancel refused")
        assert a.match(match_id).state == "inviting"
        # the café with the code accepts: the match is played
        ident, tables = _accept(cafes, bs, invitation)
        before = records(cafes)
        # a move and a resignation in its own name, and in cafe-b's: refused, by the cafés
        # (no seat) and by the broker (not its name)
        move = {"t": "move", "n": 2, "move": "c3", "before": a.match(ident).position_hash(),
                "epoch": 0}
        assert evil.publish("xobo/v1/evil-cafe/match/" + ident, move) == 0
        assert evil.publish("xobo/v1/evil-cafe/match/" + ident, {"t": "resign",
                                                                 "seat": 0}) == 0
        assert evil.publish("xobo/v1/cafe-b/match/" + ident, move) >= 0x80
        assert evil.publish("xobo/v1/cafe-a/match/" + ident, {"t": "resign",
                                                             "seat": 0}) >= 0x80
        wait_for(lambda: len(refused(a, "evil-cafe plays no seat")) >= 3
                 and len(refused(b, "evil-cafe plays no seat")) >= 2,
                 "the move and the resignation refused in both cafés")
        # a forged floor in cafe-a's name: the broker refuses it; cafe-b watches the real one,
        # signed with the key cafe-a gave in their match
        assert evil.publish("xobo/v1/cafe-a/floor", {"cafe": "cafe-a", "tables": [
            {"key": "pwn", "name": "<b>pwn</b>"}]}, retain=True) >= 0x80
        b.service.watch("cafe-a")
        wait_for(lambda: (shown_floor(b, "cafe-a")["floor"] or {}).get("tables"),
                 "cafe-a's floor at cafe-b")
        shown = shown_floor(b, "cafe-a")
        assert [t["key"] for t in shown["floor"]["tables"]] == ["a0"]
        assert all("device" not in t for t in shown["floor"]["tables"])  # (nobody's business)
        assert shown["signed"]["key"] == a.service.key.public_hex
        assert shown["signed"]["source"] == "match" and shown["signed"]["match"] == ident
        assert shown["refused"] is None
        # cafe-a's own signed floor, published again under evil-cafe's name, and a floor
        # evil-cafe signs itself as cafe-a's: a café watching evil-cafe shows neither
        genuine = wait_for(lambda: evil.seen(lambda r: r[0] == "xobo/v1/cafe-a/floor"
                                             and r[1]), "cafe-a's floor read by evil-cafe")
        from xobo_host.cafe.seal import CafeKey, sign_floor

        b.service.watch("evil-cafe")
        assert evil.publish("xobo/v1/evil-cafe/floor", genuine[0][1], retain=True) == 0
        wait_for(lambda: refused(b, "signed by cafe-a, sent as evil-cafe's"),
                 "cafe-a's floor under evil-cafe's name refused")
        own = CafeKey.new()
        assert evil.publish("xobo/v1/evil-cafe/floor", sign_floor(
            own, "cafe-a", time.time_ns() // 1000, {"tables": [{"key": "pwn"}]}),
            retain=True) == 0
        wait_for(lambda: len(refused(b, "signed by cafe-a, sent as evil-cafe's")) >= 2,
                 "a floor signed as cafe-a's under evil-cafe's name refused")
        shown = shown_floor(b, "evil-cafe")
        assert shown["floor"] is None and shown["signed"] is None
        assert "sent as evil-cafe's" in shown["refused"]["why"]
        assert [k["cafe"] for k in b.service.floors.keys()] == ["cafe-a"]  # (not evil-cafe)
        # a replay of what it read, under its own name (the others it cannot write)
        for t, payload, _ in evil.seen(lambda r: "/match/" in r[0] and r[1]):
            assert evil.publish("xobo/v1/evil-cafe/match/" + ident, payload) == 0
            assert evil.publish(t, payload) >= 0x80
        # the match goes on as its two cafés play it, nothing else in it
        commit(bs["a1"], "play a1")  # (o's move: cafe-b's table)
        wait_for(lambda: board_state(bs["a0"])[2] == "a1", "a1 lit at cafe-a")
        commit(bs["a0"], "play expected")
        wait_for(lambda: all(c.match(ident).ply == 2 for c in cafes), "move 2 in both logs")
        assert same_everywhere(cafes, tables, ident) == ["b2", "a1"]
        assert all(c.match(ident).state == "playing" for c in cafes)
        after = records(cafes)  # (no record more: the match's own, one move longer)
        assert {c: len(r) for c, r in after.items()} == {c: len(r) for c, r in before.items()}
        # the staff's pages list the refusals, and say both cafés are healthy
        for c in cafes:
            page = staff_page(c)
            assert any("evil-cafe" in r["why"] for r in page["refused"])
            assert page["broker"]["connected"]
        assert any("sealed" in r["why"] for r in staff_page(a)["refused"])
        assert any(r["topic"].startswith("evil-cafe/floor") and "sent as evil-cafe's" in r["why"]
                   for r in staff_page(b)["refused"])
    finally:
        evil.stop()


@pytest.mark.parametrize("network", [True], indirect=True)
def test_on_an_open_broker_no_forged_or_replayed_message_moves_a_board_or_a_record(network):
    broker, cafes, bs, invitation = network
    a, b = cafes
    intruder = Client(broker)  # anonymous: the open broker lets it write anywhere
    try:
        intruder.listen()
        topic = wait_for(lambda: _invitation_topic(intruder, "cafe-a"), "the invitation", 20)
        topic_id = topic.rsplit("/", 1)[1]
        match_id = invitation["match"]
        # answers in cafe-b's name, not sealed with the code; the invitation cleared
        assert intruder.publish("xobo/v1/cafe-b/reply/" + topic_id, {
            "t": "accept", "match": match_id, "seat": 1, "table": "pwn"}) == 0
        assert intruder.publish("xobo/v1/cafe-b/reply/" + topic_id, {
            "t": "decline", "match": match_id}) == 0
        assert intruder.publish(topic, b"", retain=True) == 0
        wait_for(lambda: len(refused(a, "sealed")) >= 2 and refused(a, "cleared"),
                 "the answers and the cleared invitation refused at cafe-a")
        assert a.match(match_id).state == "inviting"
        ident, tables = _accept(cafes, bs, invitation)  # (cafe-a said its invitation again)
        # a move and a resignation in cafe-a's name: unsigned, then signed with a key of
        # the intruder's own
        from xobo_host.cafe.seal import CafeKey, sign, sign_floor

        pos_hash = a.match(ident).position_hash()
        move = {"t": "move", "n": 2, "move": "c3", "before": pos_hash, "epoch": 0}
        forged = CafeKey.new()
        for payload in (dict(move, match=ident), {"t": "resign", "seat": 1, "match": ident},
                        {"t": "cancel", "match": ident},
                        sign(forged, "cafe-b", ident, 10 ** 18, move),
                        sign(forged, "cafe-b", ident, 10 ** 18 + 1, {"t": "resign",
                                                                     "seat": 1}),
                        sign(forged, "cafe-b", ident, 10 ** 18 + 2, {"t": "cancel"})):
            assert intruder.publish("xobo/v1/cafe-b/match/" + ident, payload) == 0
        wait_for(lambda: len(refused(a, "unsigned")) >= 3
                 and len(refused(a, "not cafe-b's")) >= 3, "the forgeries refused at cafe-a")
        # floors in cafe-a's name: on an open broker anyone publishes them; cafe-b watching
        # cafe-a shows only those signed with the key cafe-a gave in their match, each newer
        # than the last shown
        b.service.watch("cafe-a")
        wait_for(lambda: (shown_floor(b, "cafe-a")["floor"] or {}).get("tables"),
                 "cafe-a's floor at cafe-b")
        assert shown_floor(b, "cafe-a")["signed"]["key"] == a.service.key.public_hex
        older = wait_for(lambda: intruder.seen(lambda r: r[0] == "xobo/v1/cafe-a/floor"
                                               and r[1]), "cafe-a's floor read")[0][1]
        # (a floor newer than the one read: cafe-a says its floor again every 5 s at most)
        wait_for(lambda: b.service.floors.watched["cafe-a"]["seq"] > envelope_seq(older),
                 "a newer floor of cafe-a taken at cafe-b")
        assert intruder.publish("xobo/v1/cafe-a/floor", {"cafe": "cafe-a", "tables": [
            {"key": "pwn", "name": "pwn"}]}, retain=True) == 0
        assert intruder.publish("xobo/v1/cafe-a/floor", sign_floor(
            forged, "cafe-a", 10 ** 18, {"tables": [{"key": "pwn", "name": "pwn"}]}),
            retain=True) == 0
        assert intruder.publish("xobo/v1/cafe-a/floor", older, retain=True) == 0
        assert intruder.publish("xobo/v1/cafe-a/floor", b"", retain=True) == 0  # (ignored)
        wait_for(lambda: refused(b, "an unsigned floor")
                 and refused(b, "not signed with cafe-a's key")
                 and refused(b, "older than the last one shown"),
                 "the forged floors and the replayed one refused at cafe-b")
        shown = shown_floor(b, "cafe-a")
        assert [t["key"] for t in shown["floor"]["tables"]] == ["a0"]  # (nothing forged)
        assert shown["refused"] is not None
        assert all(r["topic"].startswith("cafe-a/floor") for r in refused(b, "floor"))
        # replays: every match message read so far, published again as it was
        sent = intruder.seen(lambda r: "/match/%s" % ident in r[0] and r[1])
        assert sent
        for t, payload, _ in sent:
            assert intruder.publish(t, payload) == 0
        wait_for(lambda: len(refused(a, "replay")) + len(refused(b, "replay")) >= len(sent),
                 "every replay refused")
        # the match goes on as its two cafés play it
        commit(bs["a1"], "play a1")  # (o's move: cafe-b's table)
        wait_for(lambda: board_state(bs["a0"])[2] == "a1", "a1 lit at cafe-a")
        commit(bs["a0"], "play expected")
        wait_for(lambda: all(c.match(ident).ply == 2 for c in cafes), "move 2 in both logs")
        assert same_everywhere(cafes, tables, ident) == ["b2", "a1"]
        assert all(c.match(ident).state == "playing" and c.match(ident).resigned < 0
                   for c in cafes)
        # even signed with cafe-b's own key, a move of cafe-a's seat is refused at cafe-a
        own = sign(b.service.key, "cafe-b", ident, time.time_ns() // 1000, {
            "t": "move", "n": 3, "move": "c3", "before": a.match(ident).position_hash(),
            "epoch": 0})
        assert intruder.publish("xobo/v1/cafe-b/match/" + ident, own) == 0
        wait_for(lambda: refused(a, "move 3 is a0 of cafe-a's to play"), "the seat's move refused")
        assert a.match(ident).ply == 2 and board_state(bs["a0"])[:2] == (
            2, a.match(ident).position_text())
        for c in cafes:
            assert staff_page(c)["refused"]
        page = staff_page(b)
        assert {r["why"].split(" (")[0] for r in page["refused"]
                if r["topic"].startswith("cafe-a/floor")} >= {
            "an unsigned floor", "a floor not signed with cafe-a's key",
            "a floor of cafe-a older than the last one shown"}
    finally:
        intruder.stop()


def test_a_broker_whose_access_list_lets_a_cafe_read_nothing_is_said_on_its_page(tmp_path):
    """The access list the issue found in the old docs (``topic read`` before any ``user``
    line: an anonymous client's rule): a café logs in and reads nothing; its page says so
    instead of "connected"."""
    broker = Broker(tmp_path)
    acl = tmp_path / "broker" / "acl"
    acl.write_text("topic read xobo/v1/#\npattern write xobo/v1/%u/#\n")
    broker.start()
    bs = boards(tmp_path, ["a0"])
    cafe = Cafe(tmp_path, "cafe-a", bs, broker).start()
    start_server(cafe, tmp_path)
    try:
        page = wait_for(lambda: (lambda p: p if "read or write nothing" in p["broker"]["status"]
                              else None)(staff_page(cafe)), "the page to say so", 30)
        assert page["broker"]["connected"] is False
    finally:
        cafe.server.stop()
        cafe.stop()
        bs["a0"].unplug()
        broker.kill()


def test_a_broker_that_stops_passing_a_cafes_messages_is_said_at_the_next_probe(tmp_path):
    """The probe is said again while connected, and the café stays healthy probe after
    probe; once the broker no longer passes it back (here: the subscription gone, as an
    access list changed under the café would do), the loss is said without a
    reconnection."""
    from xobo_host.cafe.broker import BrokerLink

    broker = Broker(tmp_path).start()
    link = BrokerLink("cafe-a", broker.settings("cafe-a"))
    link.probe_every_s = 1.5  # (probed again every 1.5 s, not every 30 s...
    link.probe_s = 1.0  # ... each answered within 1 s, else lost)
    link.start()
    nonces = set()
    try:
        wait_for(lambda: link.health()[0], "cafe-a healthy", 20)

        def probed_again():
            nonces.add(link.probe_nonce)
            return len(nonces) >= 3 and link.health()[0]

        wait_for(probed_again, "healthy, probe after probe", 20)
        link.client.unsubscribe(link.topic("probe"))
        wait_for(lambda: "passes this café nothing" in link.health()[1], "the loss said", 30)
        assert link.connected.is_set() and link.connects == 1
    finally:
        link.stop()
        broker.kill()
