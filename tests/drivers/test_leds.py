# dual-runtime
"""LED frame, mapping, power limiter, neopixel byte order; show() allocates nothing."""

from xobo_testing import raises, run_with_heap_locked

from drivers import fakehw
from xobo.drivers.boarddef import default_boarddef
from xobo.drivers.leds import LedChain, PowerLimiter, order_offsets
from xobo.drivers.virtual import VirtualLeds


def _leds(budget=500):
    bd = default_boarddef()
    lim = PowerLimiter(117, budget, 20, 1, 50)
    return VirtualLeds(bd.led_count, bd.led_cells, bd.led_edges, lim)


def test_full_white_is_scaled_to_stay_within_the_usb_budget():
    leds = _leds(500)
    leds.fill(255, 255, 255)
    leds.show()
    unlimited = leds.limiter.estimate_ma(leds.frame)
    assert unlimited > 7000  # 117 LEDs * 3 channels * 20 mA
    assert leds.last_scale < 256
    assert leds.last_ma <= 500 and leds.shown_ma() <= 500
    assert leds.last_ma >= 450  # and uses most of it, not just darkness


def test_every_budget_is_respected_for_every_grey_level():
    for budget in (200, 500, 1750):
        leds = _leds(budget)
        for level in (1, 17, 64, 128, 200, 255):
            leds.fill(level, level // 2, 0)
            leds.show()
            assert leds.last_ma <= budget, (budget, level, leds.last_ma)


def test_a_frame_within_budget_is_shown_unchanged():
    leds = _leds(500)
    leds.set_cell(40, 255, 0, 0)
    leds.set_edge("N", 0, 0, 100)
    leds.show()
    assert leds.last_scale == 256
    assert leds.cell_rgb(40) == (255, 0, 0)
    assert leds.edge_rgb("N") == [(0, 0, 100)] * 9


def test_brightness_scales_the_frame():
    leds = _leds(500)
    leds.brightness = 128
    leds.set_cell(0, 200, 100, 0)
    leds.show()
    r, g, b = leds.cell_rgb(0)
    assert 99 <= r <= 101 and 49 <= g <= 51 and b == 0


def test_cells_follow_the_serpentine_chain_of_the_board_definition():
    leds = _leds()
    leds.set_cell(9, 1, 2, 3)  # a2: second rank runs backwards, chain index 17
    assert leds.get(17) == (1, 2, 3)
    assert leds.get(9) == (0, 0, 0)
    leds.set_edge_led("W", 0, 9, 9, 9)
    assert leds.get(98) == (9, 9, 9)


def test_colour_order_offsets():
    assert order_offsets("GRB") == (1, 0, 2)
    assert order_offsets("RGB") == (0, 1, 2)
    assert "RGX" in str(raises(ValueError, order_offsets, "RGX"))


def test_ledchain_writes_grb_bytes_into_the_neopixel_buffer():
    with fakehw.installed():
        leds = LedChain("GP22", 117, "GRB", default_boarddef().led_cells)
    leds.set(2, 10, 20, 30)
    leds.show()
    np = leds._np
    assert np.writes == 1
    assert bytes(np.buf[6:9]) == bytes((20, 10, 30))


def _draw_and_show(both):
    for leds in both:
        leds.fill(255, 0, 0)
        leds.set_cell(40, 0, 255, 0)
        leds.set_edge("N", 1, 2, 3)
        leds.show()


def test_show_allocates_nothing():
    with fakehw.installed():
        chain = LedChain("GP22", 117, "GRB")
    virt = _leds()
    both = (chain, virt)
    for leds in both:
        leds.fill(255, 255, 255)
        leds.show()
    run_with_heap_locked(_draw_and_show, both)
    assert chain.last_scale < 256 and chain._np.writes == 2
