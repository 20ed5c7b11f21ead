"""Relays first (``MatchService.relays_first``): while a table's worker has a move to relay,
the café's board mirrors wait before reading their boards, and no longer than that: the
relay done lets them go, a relay due again meanwhile stays due, a relay held up past
``RELAY_STALE_S`` no longer holds them. (The moves' own way is played whole by
test_match_remote.py and test_match_local.py.)"""

import threading

from xobo_host.cafe import matches
from xobo_host.cafe.floor import Floor
from xobo_host.cafe.matches import MatchService


def service(tmp_path):
    db = str(tmp_path / "games.sqlite")
    return MatchService(Floor(db, scan_usb=False), db, cafe="cafe-r")


def test_the_mirrors_read_their_boards_at_once_when_no_move_is_being_relayed(tmp_path):
    svc = service(tmp_path)
    try:
        svc.relays_first()  # (returns: nothing to wait for)
        assert svc.relaying == {}
    finally:
        svc.stop()


def test_a_mirror_waits_for_the_relay_due_and_goes_on_when_it_is_done(tmp_path, monkeypatch):
    monkeypatch.setattr(matches, "RELAY_FIRST_S", 3600.0)  # (only the relay lets it go)
    svc = service(tmp_path)
    try:
        svc._relay_due("t1")
        waiting = threading.Thread(target=svc.relays_first)
        waiting.start()
        relays = svc.relays_due("t1")
        assert relays == 1 and waiting.is_alive()
        svc.relayed("t1", relays)  # (the worker's pass done)
        waiting.join(60)
        assert not waiting.is_alive() and svc.relaying == {}
    finally:
        svc.stop()


def test_a_relay_due_during_the_workers_pass_stays_due_after_it(tmp_path):
    svc = service(tmp_path)
    try:
        svc._relay_due("t1")
        relays = svc.relays_due("t1")  # (the worker's pass begins)
        svc._relay_due("t1")  # (another move meanwhile: the worker passes again for it)
        svc.relayed("t1", relays)
        assert svc.relays_due("t1") == 2
        svc.relayed("t1", 2)
        assert svc.relaying == {}
    finally:
        svc.stop()


def test_a_relay_held_up_too_long_no_longer_holds_the_mirrors(tmp_path, monkeypatch):
    monkeypatch.setattr(matches, "RELAY_FIRST_S", 3600.0)
    monkeypatch.setattr(matches, "RELAY_STALE_S", -1.0)  # (every relay held up already)
    svc = service(tmp_path)
    try:
        svc._relay_due("t1")
        svc.relays_first()  # (returns: the worker held up no longer holds the mirrors)
        assert svc.relaying == {}
    finally:
        svc.stop()
