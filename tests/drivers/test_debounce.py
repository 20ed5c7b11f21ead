# dual-runtime
"""Debouncer: a change counts once stable for stable_ms; events in order; no allocation."""

from xobo_testing import run_with_heap_locked

from xobo.drivers.debounce import Debouncer


def _feed(deb, raw, t0, t1, step=5):
    n = 0
    t = t0
    while t <= t1:
        n += deb.update(raw, t)
        t += step
    return n


def test_change_counts_only_after_stable_time():
    deb = Debouncer(stable_ms=30)
    raw = bytearray(81)
    raw[40] = 1
    assert deb.update(raw, 1000) == 0
    assert deb.update(raw, 1025) == 0 and deb.stable[40] == 0
    assert deb.update(raw, 1030) == 1 and deb.stable[40] == 1


def test_bounce_shorter_than_stable_time_gives_no_event():
    deb = Debouncer(stable_ms=30)
    raw = bytearray(81)
    t = 0
    for _ in range(5):  # 1/0 every 10 ms: never stable for 30 ms
        raw[3] ^= 1
        deb.update(raw, t)
        t += 10
    raw[3] = 0
    deb.update(raw, t)
    assert _feed(deb, raw, t, t + 100) == 0
    assert deb.stable[3] == 0 and deb.pending() == 0


def test_event_carries_cell_value_and_time_the_raw_change_began_oldest_first():
    deb = Debouncer(stable_ms=30)
    raw = bytearray(81)
    raw[7] = 1
    deb.update(raw, 100)
    raw[80] = 1
    deb.update(raw, 110)
    _feed(deb, raw, 115, 200)
    ev = deb.new_event()
    assert deb.get_into(ev) and ev == [7, 1, 100]
    assert deb.get_into(ev) and ev == [80, 1, 110]
    assert not deb.get_into(ev)
    raw[7] = 0
    deb.update(raw, 300)
    _feed(deb, raw, 305, 400)
    assert deb.get_into(ev) and ev == [7, 0, 300]


def test_ticks_wrap_is_handled():
    from xobo.compat import ticks_add

    deb = Debouncer(stable_ms=30)
    raw = bytearray(81)
    top = ticks_add(0, -10)  # 10 ms before the wrap, whatever this runtime's period
    raw[0] = 1
    deb.update(raw, top)
    assert deb.update(raw, ticks_add(top, 25)) == 0
    assert deb.update(raw, ticks_add(top, 30)) == 1
    assert ticks_add(top, 30) < top  # it did wrap


def test_prime_takes_the_board_as_stable_without_events():
    deb = Debouncer()
    raw = bytearray(81)
    raw[10] = raw[20] = 1
    deb.prime(raw, 5)
    assert deb.stable[10] == 1 and deb.stable[20] == 1 and deb.pending() == 0
    assert _feed(deb, raw, 10, 200) == 0


def test_queue_overflow_is_counted_not_crashing():
    deb = Debouncer(stable_ms=0, queue=4)
    raw = bytearray(81)
    for c in range(6):
        raw[c] = 1
    assert deb.update(raw, 0) == 6
    assert deb.pending() == 4 and deb.overflows == 2
    ev = deb.new_event()
    got = []
    while deb.get_into(ev):
        got.append(ev[0])
    assert got == [0, 1, 2, 3]


def _close_cells_for_400ms(deb, raw, ev):
    n = 0
    for t in range(0, 400, 5):
        raw[t % 81] = 1
        n += deb.update(raw, t)
        while deb.get_into(ev):
            n += 0
    return n


def test_update_and_get_into_allocate_nothing():
    deb = Debouncer(stable_ms=30)
    raw = bytearray(81)
    ev = deb.new_event()
    deb.update(raw, 0)
    n = run_with_heap_locked(_close_cells_for_400ms, deb, raw, ev)
    assert n > 0 and deb.stable[0] == 1
