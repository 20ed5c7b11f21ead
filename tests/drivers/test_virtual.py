# dual-runtime
"""Virtual switches, clock and watchdog behave like the hardware they stand for."""

from xobo_testing import raises, run_with_heap_locked

from xobo.drivers.boarddef import default_boarddef
from xobo.drivers.debounce import Debouncer
from xobo.drivers.virtual import (
    VirtualClock,
    VirtualSwitches,
    VirtualWatchdog,
    make_virtual_drivers,
)


def test_switch_reads_occupied_while_any_cube_stands_on_the_cell():
    sw = VirtualSwitches()
    raw = bytearray(81)
    sw.put(40)
    sw.put(40)
    sw.take(40)
    sw.scan_into(raw)
    assert raw[40] == 1 and sum(raw) == 1
    assert sw.lift(40) == 1
    sw.scan_into(raw)
    assert raw[40] == 0


def test_set_counts_copies_heights_and_take_too_many_says_so():
    sw = VirtualSwitches()
    h = bytearray(81)
    h[0] = 3
    h[80] = 1
    sw.set_counts(h)
    raw = bytearray(81)
    sw.scan_into(raw)
    assert raw[0] == 1 and raw[80] == 1 and sum(raw) == 2 and sw.counts[0] == 3
    assert "holds 1" in str(raises(ValueError, sw.take, 80, 2))


def test_bounce_chatters_then_settles_and_the_debouncer_sees_one_change():
    clock = VirtualClock()
    sw = VirtualSwitches(clock, auto_bounce_ms=6)
    deb = Debouncer(stable_ms=30)
    raw = bytearray(81)
    sw.put(12)
    seen = []
    flips = 0
    last = 0
    for _ in range(60):
        sw.scan_into(raw)
        if raw[12] != last:
            flips += 1
            last = raw[12]
        deb.update(raw, clock.ticks_ms())
        seen.append(deb.stable[12])
        clock.advance(1)
    assert flips >= 4  # it did chatter
    assert raw[12] == 1 and deb.stable[12] == 1
    assert seen.count(1) == len(seen) - seen.index(1)  # one clean change


def test_stuck_and_dead_row_faults_follow_the_key_mapping():
    bd = default_boarddef()
    cok = list(range(81))
    cok[0], cok[80] = 80, 0  # key 0 is i9
    sw = VirtualSwitches(VirtualClock(), cok)
    sw.dead_row(0)  # keys 0..8: cells i9, b1..i1
    sw.fault(40, "closed")
    for c in range(81):
        sw.put(c)
    raw = bytearray(81)
    sw.scan_into(raw)
    assert raw[80] == 0 and raw[1] == 0 and raw[8] == 0
    assert raw[0] == 1 and raw[40] == 1 and sum(raw) == 72
    sw.lift(40)
    sw.scan_into(raw)
    assert raw[40] == 1  # stuck closed
    assert bd.cell_of_key[0] == 0


def test_clock_advance_and_sleep_move_virtual_time_and_wrap():
    from xobo.compat import ticks_add, ticks_diff

    clock = VirtualClock(start=ticks_add(0, -3))
    t0 = clock.ticks_ms()
    clock.sleep_ms(5)
    clock.advance(2)
    assert ticks_diff(clock.ticks_ms(), t0) == 7


def test_realtime_clock_follows_the_host():
    import time

    clock = VirtualClock(realtime=True)
    t0 = clock.ticks_ms()
    time.sleep(0.03)
    assert clock.ticks_diff(clock.ticks_ms(), t0) >= 20


def test_a_held_realtime_clock_moves_only_by_advance_and_goes_on_from_there():
    import time

    clock = VirtualClock(realtime=True)
    clock.hold()
    t0 = clock.ticks_ms()
    time.sleep(0.03)  # (the host's time passing: what the hold leaves out)
    assert clock.ticks_ms() == t0
    clock.advance(50)
    assert clock.ticks_diff(clock.ticks_ms(), t0) == 50
    clock.release()  # the host's clock moves it again, from where it stood
    t1 = clock.ticks_ms()
    assert 50 <= clock.ticks_diff(t1, t0) < 50 + 20
    time.sleep(0.03)
    assert clock.ticks_diff(clock.ticks_ms(), t1) >= 20


def test_watchdog_expires_when_not_fed():
    clock = VirtualClock()
    wdt = VirtualWatchdog(clock, timeout_ms=1000)
    clock.advance(900)
    wdt.feed()
    clock.advance(900)
    assert not wdt.expired() and wdt.feeds == 1
    clock.advance(200)
    assert wdt.expired()


def test_make_virtual_drivers_shares_one_clock():
    d = make_virtual_drivers()
    d.switches.put(5)
    d.clock.advance(100)
    raw = bytearray(81)
    d.matrix.scan_into(raw)
    d.debouncer.update(raw, d.clock.ticks_ms())
    d.clock.advance(40)
    d.debouncer.update(raw, d.clock.ticks_ms())
    assert d.debouncer.stable[5] == 1
    assert d.buttons.clock is d.clock and d.watchdog.clock is d.clock
    assert d.leds.count == 117 and d.boarddef.name == "virtual"


def _scan_for_20ms(sw, clock, raw):
    for _ in range(20):
        sw.scan_into(raw)
        clock.advance(1)


def test_virtual_scan_allocates_nothing_so_the_simulated_loop_matches_the_device():
    clock = VirtualClock()
    sw = VirtualSwitches(clock, auto_bounce_ms=5)
    sw.fault(7, "chatter")
    raw = bytearray(81)
    sw.put(3)
    run_with_heap_locked(_scan_for_20ms, sw, clock, raw)
    assert raw[3] == 1
