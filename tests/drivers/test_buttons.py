# dual-runtime
"""Buttons: debounce, short press, long press, both held; driven by virtual time."""

from xobo_testing import raises, run_with_heap_locked

from xobo.drivers.buttons import BOTH, LONG, SHORT
from xobo.drivers.virtual import VirtualButtons, VirtualClock


def _run(btn, clock, ms, step=5):
    out = []
    ev = btn.new_event()
    end = clock.ticks_ms() + ms
    while clock.ticks_ms() < end:
        btn.update(clock.ticks_ms())
        while btn.get_into(ev):
            out.append((ev[0], ev[1]))
        clock.advance(step)
    return out


def _buttons():
    clock = VirtualClock()
    return VirtualButtons(clock, ("ok", "undo", "hint")), clock


def test_short_press_sends_one_short_at_release():
    btn, clock = _buttons()
    btn.hold("ok", 200)
    assert _run(btn, clock, 100) == []
    assert _run(btn, clock, 200) == [(SHORT, "ok")]


def test_long_press_sends_long_while_held_and_nothing_at_release():
    btn, clock = _buttons()
    btn.press("undo")
    assert _run(btn, clock, 1400) == []
    assert _run(btn, clock, 200) == [(LONG, "undo")]
    assert _run(btn, clock, 2000) == []  # once only
    btn.release("undo")
    assert _run(btn, clock, 100) == []


def test_long_press_time_is_configurable():
    clock = VirtualClock()
    btn = VirtualButtons(clock, ("ok", "undo"), long_ms=500)
    btn.press("ok")
    assert _run(btn, clock, 600) == [(LONG, "ok")]


def test_both_held_sends_both_and_no_short_or_long():
    btn, clock = _buttons()
    btn.press("ok")
    clock.advance(50)
    btn.press("undo")
    got = _run(btn, clock, 2500)
    assert got == [(BOTH, "both")]
    btn.release("ok")
    btn.release("undo")
    assert _run(btn, clock, 100) == []


def test_glitch_shorter_than_debounce_is_ignored():
    btn, clock = _buttons()
    btn.hold("hint", 10)
    assert _run(btn, clock, 200, step=2) == []
    assert not btn.held("hint")


def test_held_is_debounced_state():
    btn, clock = _buttons()
    btn.press("ok")
    _run(btn, clock, 30)
    assert btn.held("ok") and not btn.held("undo")


def test_unknown_button_is_named_in_the_error():
    btn, clock = _buttons()
    assert "start" in str(raises(ValueError, btn.press, "start"))


def _update_for_2s(btn, ev):
    got = 0
    for t in range(0, 2000, 5):
        btn.update(t)
        while btn.get_into(ev):
            got += 1
    return got


def test_update_and_get_into_allocate_nothing():
    btn, clock = _buttons()
    ev = btn.new_event()
    btn.update(0)
    btn.press("ok")
    got = run_with_heap_locked(_update_for_2s, btn, ev)
    assert got == 1 and ev[0] == LONG and ev[1] == "ok"
