"""``cafe.seal``: an invitation sealed with a code opens with that code only, and never shows
it; a signed match message verifies only as its sender's, about its match, unaltered; the
replay guard takes each sequence number once and none older than its window (property tests,
hypothesis)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xobo_host.cafe.match import new_code
from xobo_host.cafe.seal import (
    REPLAY_WINDOW_US,
    CafeKey,
    InviteSecret,
    ReplayGuard,
    SealError,
    fingerprint,
    floor_signer,
    open_floor,
    open_signed,
    sign,
    sign_floor,
)

# scrypt costs ~50 ms a code: a few codes, made once
CODES = [new_code() for _ in range(3)]
SECRETS = {c: InviteSecret(c) for c in CODES}
KEYS = [CafeKey.new() for _ in range(2)]
messages = st.dictionaries(st.text(min_size=1, max_size=8), st.one_of(
    st.integers(), st.text(max_size=20), st.booleans()), max_size=5)


@settings(max_examples=60, deadline=None)
@given(msg=messages, i=st.integers(0, len(CODES) - 1), j=st.integers(0, len(CODES) - 1))
def test_an_invitation_opens_with_its_own_code_only_and_never_shows_it(msg, i, j):
    sealed = SECRETS[CODES[i]].seal(msg)
    for form in (CODES[i], CODES[i].replace("-", "")):
        assert form.encode() not in sealed and form not in SECRETS[CODES[i]].topic_id
    if i == j:
        assert SECRETS[CODES[j]].open(json.loads(sealed)) == msg
    else:
        with pytest.raises(SealError, match="not sealed with this invitation's code"):
            SECRETS[CODES[j]].open(json.loads(sealed))


def test_a_sealed_invitation_altered_or_unsealed_is_refused():
    secret = SECRETS[CODES[0]]
    env = json.loads(secret.seal({"t": "accept"}))
    env["box"] = env["box"][:-4] + ("AAAA" if not env["box"].endswith("AAAA") else "BBBB")
    for bad in (env, {"t": "accept"}, {"nonce": 3, "box": None}, None):
        with pytest.raises(SealError):
            secret.open(bad)


@settings(max_examples=60, deadline=None)
@given(msg=messages, seq=st.integers(0, 2 ** 62), signer=st.integers(0, 1))
def test_a_signed_message_verifies_as_its_senders_about_its_match_only(msg, seq, signer):
    env = json.loads(sign(KEYS[signer], "cafe-a", "m1", seq, msg))
    got_seq, got = open_signed(env, KEYS[signer].public_hex, "cafe-a", "m1")
    assert got_seq == seq and all(got[k] == v for k, v in msg.items()
                                  if k not in ("from", "match", "seq"))
    with pytest.raises(SealError):  # another café's key
        open_signed(env, KEYS[1 - signer].public_hex, "cafe-a", "m1")
    with pytest.raises(SealError):  # said of another match, or sent as another café's
        open_signed(env, KEYS[signer].public_hex, "cafe-a", "m2")
    with pytest.raises(SealError):
        open_signed(env, KEYS[signer].public_hex, "cafe-b", "m1")
    altered = dict(env, signed=env["signed"].replace('"seq":%d' % seq, '"seq":%d' % (seq + 1)))
    with pytest.raises(SealError):
        open_signed(altered, KEYS[signer].public_hex, "cafe-a", "m1")


@settings(max_examples=60, deadline=None)
@given(floor=messages, seq=st.integers(0, 2 ** 62), signer=st.integers(0, 1))
def test_a_signed_floor_verifies_as_its_cafes_with_its_key_only(floor, seq, signer):
    env = json.loads(sign_floor(KEYS[signer], "cafe-a", seq, floor))
    assert floor_signer(env) == KEYS[signer].public_hex
    assert open_floor(env, KEYS[signer].public_hex, "cafe-a") == (seq, floor)
    with pytest.raises(SealError, match="not cafe-a's"):  # another café's key
        open_floor(env, KEYS[1 - signer].public_hex, "cafe-a")
    with pytest.raises(SealError, match="sent as cafe-b's"):  # under another café's name
        open_floor(env, KEYS[signer].public_hex, "cafe-b")
    altered = dict(env, signed=env["signed"].replace('"seq":%d' % seq, '"seq":%d' % (seq + 1)))
    with pytest.raises(SealError):
        open_floor(altered, KEYS[signer].public_hex, "cafe-a")


def test_a_floor_is_never_taken_for_a_match_message_nor_one_of_those_for_a_floor():
    key = KEYS[0]
    floor = json.loads(sign_floor(key, "cafe-a", 5, {"match": "m1", "t": "move"}))
    with pytest.raises(SealError, match="for None"):
        open_signed(floor, key.public_hex, "cafe-a", "m1")
    move = json.loads(sign(key, "cafe-a", "m1", 6, {"t": "floor", "floor": {},
                                                     "key": key.public_hex}))
    with pytest.raises(SealError, match="no floor"):
        open_floor(move, key.public_hex, "cafe-a")
    for unsigned in ({"tables": []}, {"signed": "{}", "sig": ""}, None,
                     {"signed": "{}", "key": "zz"}):
        with pytest.raises(SealError):
            floor_signer(unsigned)
    # the key beside the text is only a hint: the one inside, signed, must be the same
    other = json.loads(sign_floor(KEYS[1], "cafe-a", 7, {}))
    swapped = dict(other, key=key.public_hex)
    with pytest.raises(SealError):
        open_floor(swapped, floor_signer(swapped), "cafe-a")


def test_a_fingerprint_is_eight_groups_of_four_hex_digits_of_the_keys_hash():
    import hashlib

    text = fingerprint(KEYS[0].public_hex)
    assert text.replace(" ", "") == hashlib.sha256(
        bytes.fromhex(KEYS[0].public_hex)).hexdigest()[:32]
    assert [len(g) for g in text.split(" ")] == [4] * 8
    assert fingerprint(KEYS[1].public_hex) != text


@settings(max_examples=100, deadline=None)
@given(seqs=st.lists(st.integers(0, 3 * REPLAY_WINDOW_US), max_size=60))
def test_the_replay_guard_takes_each_number_once_and_none_below_its_window(seqs):
    guard = ReplayGuard()
    taken = []
    for s in seqs:
        newest = max(taken, default=-1)
        ok = guard.take(s)
        assert ok == (s not in taken and s > newest - REPLAY_WINDOW_US)
        if ok:
            taken.append(s)
    restarted = ReplayGuard(guard.newest)  # (a host started again: only newer ones)
    assert not any(restarted.take(s) for s in taken)


def test_a_host_started_again_signs_above_every_number_it_signed_whatever_its_clock(
        tmp_path, monkeypatch):
    """A café's sequence numbers are kept a block ahead in its file: a host started again
    with its clock behind (a Raspberry Pi before NTP) signs above them all, so the other
    cafés do not take its new messages for replays."""
    import time

    from xobo_host.cafe.broker import BrokerLink, BrokerSettings
    from xobo_host.cafe.match import MatchStore

    def link(store):
        return BrokerLink("cafe-a", BrokerSettings("127.0.0.1", 1), key=KEYS[0],
                          seq_reserved=store.seq_reserved("cafe-a"),
                          reserve_seq=lambda upto: store.reserve_seq("cafe-a", upto))

    store = MatchStore(str(tmp_path / "games.sqlite"))
    first = link(store)
    first.publish_signed("m1", {"t": "hello"})  # (not connected: paho keeps it)
    signed = first.seq
    store.close()
    monkeypatch.setattr(time, "time_ns", lambda: 10 ** 15)  # (an hour in 1970)
    store = MatchStore(str(tmp_path / "games.sqlite"))
    again = link(store)
    again.publish_signed("m1", {"t": "hello"})
    assert again.seq > signed
    store.close()
