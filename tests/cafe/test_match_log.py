"""The match's log (``xobo_host.cafe.match``): what a move message from another café does to
it: applied, a duplicate ignored, a gap asked for and filled, a conflict detected, a stale
move (of before a take-back) ignored; its rows in SQLite; invitation codes."""

from hypothesis import given, settings
from hypothesis import strategies as st

from xobo_host.cafe.match import Match, MatchStore, new_code, normal_code

SEATS = [["a", "t1"], ["b", "t2"]]


def tiny(moves=()):
    return Match("m1", "tiny", {"first": "x"}, SEATS, list(moves))


def messages(m):
    return [m.move_message(n) for n in range(1, m.ply + 1)]


def offer(m, msg):
    return m.offer(msg["n"], msg["move"], msg["before"], msg["epoch"])


def test_a_move_message_applies_to_the_position_it_names():
    m = tiny()
    assert m.offer(1, "b2", m.position_hash(0), 0) == ("applied", ["b2"])
    assert m.moves == ["b2"] and m.side() == 1


def test_a_duplicate_move_is_ignored():
    m = tiny(["b2"])
    assert m.offer(1, "b2", m.position_hash(0), 0) == ("duplicate", [])
    assert m.moves == ["b2"]


def test_a_move_beyond_a_gap_asks_for_the_missing_one_and_waits():
    ref = tiny(["b2", "a1", "c3"])
    m = tiny()
    msgs = messages(ref)
    assert offer(m, msgs[2]) == ("gap", [1])
    assert offer(m, msgs[1]) == ("gap", [1])
    assert offer(m, msgs[0]) == ("applied", ["b2", "a1", "c3"])
    assert m.moves == ref.moves


def test_another_move_at_a_number_played_is_a_conflict():
    m = tiny(["b2"])
    verdict, why = m.offer(1, "a1", m.position_hash(0), 0)
    assert verdict == "conflict" and "b2 here, a1 there" in why[0]


def test_a_move_on_another_position_is_a_conflict():
    m = tiny(["b2"])
    verdict, why = m.offer(2, "a1", "0" * 16, 0)
    assert verdict == "conflict" and "another position" in why[0]


def test_an_illegal_move_is_a_conflict_never_played():
    m = tiny(["b2"])
    verdict, _ = m.offer(2, "b2", m.position_hash(), 0)
    assert verdict == "conflict" and m.moves == ["b2"]


def test_a_move_of_before_a_take_back_is_stale():
    m = tiny(["b2", "a1"])
    old = m.move_message(2)
    m.truncate(1)
    assert m.epoch == 1
    assert offer(m, old) == ("stale", [])
    assert m.moves == ["b2"]


def test_a_newer_epoch_asks_for_the_whole_log_and_adopts_it():
    m = tiny(["b2", "a1"])
    other = tiny(["b2", "a1"])
    other.truncate(1)
    other.play("c3")
    assert offer(m, other.move_message(2)) == ("gap", [0])
    assert m.adopt(other.epoch, other.moves)[0] == "applied"
    assert m.moves == ["b2", "c3"] and m.epoch == 1


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_any_order_with_duplicates_ends_in_the_same_log(rng):
    ref = tiny()
    while not ref.terminal():
        pos = ref.position()
        ref.play(pos.move_text(rng.choice(pos.legal_actions())))
    msgs = messages(ref) * 2
    rng.shuffle(msgs)
    m = tiny()
    for msg in msgs:
        assert offer(m, msg)[0] in ("applied", "duplicate", "gap")
    assert m.moves == ref.moves and m.state == "over"


def test_a_match_survives_its_row(tmp_path):
    store = MatchStore(tmp_path / "games.sqlite")
    m = tiny(["b2", "a1"])
    m.undo = {"to": 1, "by": [0], "ok": [0], "epoch": 0}
    store.save(m)
    store.close()
    again = MatchStore(tmp_path / "games.sqlite").load_all()
    assert [x.moves for x in again] == [["b2", "a1"]] and again[0].undo == m.undo


def test_a_queued_row_is_in_the_file_when_its_then_is_called(tmp_path):
    import sqlite3
    import threading

    store = MatchStore(tmp_path / "games.sqlite")
    m = tiny(["b2"])
    seen = []
    done = threading.Event()

    def then():  # (on the store's thread: what another connection reads of the file now)
        conn = sqlite3.connect(str(tmp_path / "games.sqlite"))
        seen.append(conn.execute("SELECT data FROM matches WHERE id = 'm1'").fetchone())
        conn.close()
        done.set()

    store.queue(m, then)
    m.play("a1")  # (a change after the queueing: the row is the match as it was queued...
    assert done.wait(20), "the row was never written"
    assert seen[0] is not None and Match.from_json(seen[0][0]).moves == ["b2"]
    store.save(m)  # ...and save returns once the latest one is in the file)
    store.close()
    assert MatchStore(tmp_path / "games.sqlite").load_all()[0].moves == ["b2", "a1"]


def test_the_rows_queued_when_the_store_closes_are_written_first(tmp_path):
    store = MatchStore(tmp_path / "games.sqlite")
    matches = [Match("m%d" % i, "tiny", {"first": "x"}, SEATS, ["b2"] * (i % 2))
               for i in range(50)]
    for m in matches:
        store.queue(m)
    store.close()
    again = {x.id: x.moves for x in MatchStore(tmp_path / "games.sqlite").load_all()}
    assert again == {m.id: m.moves for m in matches}


def test_invitation_codes_are_read_as_typed():
    code = new_code()
    assert len(code) == 9 and code[4] == "-"
    assert normal_code(code.lower().replace("-", " ")) == code
    assert normal_code("ABCD-EFG0") == ""  # no 0 in the codes (read aloud: O or 0?)
    assert normal_code(None) == ""


def test_the_agreed_moves_are_those_every_log_has_up_to_the_first_difference():
    m = tiny(["b2", "a1", "c3"])
    m.state = "conflict"
    assert m.agreed(["b"]) is None  # the other café's log not known yet
    m.other_logs["b"] = ["b2", "a1", "a3", "c1"]
    assert m.agreed(["b"]) == ["b2", "a1"]
    m.other_logs["b"] = ["b2"]
    assert m.agreed(["b"]) == ["b2"]


def test_a_resolution_takes_the_log_at_its_epoch_or_nothing_when_a_move_is_illegal():
    m = tiny(["b2", "a1", "c3"])
    m.state, m.conflict = "conflict", "move 3: c3 here, a3 there"
    m.other_logs["b"] = ["b2", "a1", "a3"]
    try:
        m.resolve(1, ["b2", "b2"], "b")
        raise AssertionError("an illegal resolution was taken")
    except ValueError as exc:
        assert "not a legal move 2" in str(exc)
    assert m.moves == ["b2", "a1", "c3"] and m.state == "conflict" and m.epoch == 0
    m.resolve(1, ["b2", "a1"], "b")
    assert m.moves == ["b2", "a1"] and m.epoch == 1 and m.state == "playing"
    assert m.conflict == "" and m.other_logs == {} and m.resolved_by == "b"


def test_a_move_of_a_seat_the_sending_cafe_does_not_play_is_refused_even_after_a_gap():
    m = Match.new("tiny", {}, [["cafe-a", "t1"], ["cafe-b", "t2"]])
    b_plays = {1}  # cafe-b plays o; x moves first
    assert m.offer(1, "b2", m.position_hash(0), 0, b_plays)[0] == "refused"
    assert m.ply == 0
    # x's move 3 sent by cafe-b beyond a gap: kept, then dropped when its turn comes
    assert m.offer(3, "c3", "0" * 16, 0, b_plays) == ("gap", [1])
    assert m.offer(1, "b2", m.position_hash(0), 0, {0}) == ("applied", ["b2"])
    assert m.offer(2, "a1", m.position_hash(1), 0, b_plays) == ("applied", ["a1"])
    assert m.moves == ["b2", "a1"] and not m.pending
