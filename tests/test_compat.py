# dual-runtime
"""xobo.compat: ticks wrap like MicroPython's on every interpreter; const works everywhere."""

from xobo.compat import const, ticks_add, ticks_diff, ticks_ms, ticks_us

_X = const(7)


def test_ticks_diff_across_the_wrap():
    near_end = ticks_add(0, -5)  # five ms before the wrap
    later = ticks_add(near_end, 12)
    assert ticks_diff(later, near_end) == 12
    assert ticks_diff(near_end, later) == -12
    assert later < near_end  # the raw value wrapped


def test_ticks_ms_is_a_small_int_that_moves_forward():
    a = ticks_ms()
    b = ticks_ms()
    assert 0 <= a < (1 << 30) and ticks_diff(b, a) >= 0


def test_const_is_the_value():
    assert _X == 7


def test_ticks_us_runs_a_thousand_times_faster_than_ticks_ms():
    t0_us = ticks_us()
    t0_ms = ticks_ms()
    while ticks_diff(ticks_ms(), t0_ms) < 20:
        pass
    elapsed = ticks_diff(ticks_us(), t0_us)
    assert 15000 <= elapsed < 2000000, elapsed
