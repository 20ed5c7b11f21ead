# dual-runtime
"""Playing against the computer from the board itself: a long press on hint cycles the
computer opponent off -> the side not to move -> the side to move -> off, saved like a serial
``set``, announced (``event setting opponent ew``) and shown on the edges; a short press on
hint stays the hint."""

from boardapp.boardkit import Recorder
from xobo.runtime import colours as C
from xobo.runtime.virtual_board import VirtualBoard

LONG_MS = 1600


def _board():
    vb = VirtualBoard(settings={"level": "random"})
    vb.advance(50)
    return vb


def _long_hint(vb):
    """Hold hint past the long-press time; returns 50 ms after the LONG event."""
    vb.hold("hint", LONG_MS)
    vb.advance(1570)


def _settings(rec):
    return [x[14:] for x in rec.lines if x.startswith("event setting ")]


def _state(vb):
    return vb.command("state")[0]


def test_long_hint_cycles_the_opponent_off_other_side_side_to_move_off():
    vb = _board()
    rec = Recorder(vb)
    assert vb.app.settings["opponent"] == "off" and vb.app.pos.side == 0  # NS to move
    _long_hint(vb)
    assert vb.app.settings["opponent"] == "ew"  # the computer plays the side not to move
    assert rec.has("event button hint long")
    assert vb.app.pending == -1 and " expect " not in _state(vb)  # it is NS's turn
    vb.advance(200)
    _long_hint(vb)
    assert vb.app.settings["opponent"] == "ns"  # the side to move: it moves now
    assert rec.has("event expect computer ")
    assert vb.app.pending >= 0 and " expect " in _state(vb)
    vb.advance(200)
    _long_hint(vb)
    assert vb.app.settings["opponent"] == "off"
    assert rec.has("event cancel computer ")  # its move no longer waits for the cubes
    assert vb.app.pending == -1 and " expect " not in _state(vb)
    assert _settings(rec) == ["opponent ew", "opponent ns", "opponent off"]
    assert not rec.has("event hint ")  # a long press is not a hint
    assert "ok opponent off" in vb.command("settings")


def test_long_hint_when_east_west_is_to_move_gives_the_computer_north_south():
    vb = _board()
    rec = Recorder(vb)
    vb.put("e5")
    vb.advance(1500)
    assert vb.app.pos.side == 1
    _long_hint(vb)
    assert _settings(rec) == ["opponent ns"]
    assert vb.app.pending == -1


def test_after_the_gesture_the_computer_answers_the_players_move_in_light():
    vb = _board()
    rec = Recorder(vb)
    _long_hint(vb)  # computer plays EW
    vb.advance(200)
    vb.put("e5")
    vb.advance(1500)
    assert rec.moves() == ["e5"]
    vb.advance(50)
    st = _state(vb)
    assert " expect " in st, st
    m = vb.app.pending
    assert m >= 0 and rec.has("event expect computer ")
    lit = [c for c in range(81) if vb.app.light.code[c] in (C.PENDING_PUT, C.PENDING_TAKE)]
    assert lit, "the computer's move is shown"
    after = vb.app.pos.clone()
    after.apply(m)
    vb.set_cubes(after.heights)  # the player plays the computer's move with the cubes
    vb.advance(1500)
    assert len(rec.moves()) == 2 and vb.app.pos.side == 0


def test_the_computers_edges_double_flash_in_its_colour_then_the_turn_again():
    vb = _board()
    light = vb.app.light
    vb.hold("hint", LONG_MS)
    vb.advance(1530)  # just after the long press: the first flash is on
    assert light.edge_code[2] == C.OPP_EW and light.edge_code[3] == C.OPP_EW
    assert light.edge_code[0] == 0 and light.edge_code[1] == 0
    assert vb.edge_colors()["E"] == C.hex_of(C.RGB[C.OPP_EW])
    vb.advance(1300)
    assert light.edge_code[0] == C.NS_COLOUR  # back to the side to move
    assert light.edge_code[2] == 0
    vb.advance(200)
    _long_hint(vb)  # -> ns
    assert light.edge_code[0] == C.OPP_NS and light.edge_code[1] == C.OPP_NS
    vb.advance(1300)
    _long_hint(vb)  # -> off: every edge dim white
    for e in range(4):
        assert light.edge_code[e] == C.OPP_OFF
    assert C.PATTERN[C.OPP_OFF] == C.DIM


def test_short_hint_press_still_shows_a_hint_and_keeps_the_opponent():
    vb = _board()
    rec = Recorder(vb)
    vb.hold("hint", 80)
    vb.advance(150)
    assert rec.has("event button hint short")
    assert rec.has("event hint ") or rec.has("event error ")
    assert vb.app.settings["opponent"] == "off"
    assert _settings(rec) == []


def test_long_hint_works_with_hints_off():
    vb = VirtualBoard(settings={"level": "random", "hints": "off"})
    vb.advance(50)
    rec = Recorder(vb)
    _long_hint(vb)
    assert vb.app.settings["opponent"] == "ew"
    assert not rec.has("event error ")


def test_the_opponent_chosen_by_the_gesture_survives_a_power_cut():
    vb = _board()
    _long_hint(vb)
    vb.advance(200)
    _long_hint(vb)  # ns: the computer is to move
    vb.power_cut()
    assert vb.app.settings["opponent"] == "ns"
    assert vb.app.settings["level"] == "random"
    assert "ok opponent ns" in vb.command("settings")
    vb.advance(100)
    assert vb.app.pending >= 0  # after the boot it is still the computer's turn


def test_serial_set_announces_the_setting_too():
    vb = _board()
    rec = Recorder(vb)
    assert vb.command("set level greedy") == ["ok level greedy"]
    assert _settings(rec) == ["level greedy"]


def _cycles(vb, n):
    for _ in range(n):
        vb.clock.advance(10)
        vb.app.step(vb.clock.ticks_ms())
    return n


def test_the_edge_flash_allocates_nothing():
    from xobo_testing import run_with_heap_locked

    vb = _board()
    _long_hint(vb)  # the computer plays EW, NS to move: nothing else happens
    assert vb.app.light.opp_on
    assert run_with_heap_locked(_cycles, vb, 150) == 150  # through the flash and after it
    assert not vb.app.light.opp_on
