# dual-runtime
"""Self-test on virtual drivers with a simulated user: good board, stuck switch, dead switch,
chattering switch, dead LED, dead matrix row; colours and the report format."""

from xobo.drivers.virtual import make_virtual_drivers
from xobo.runtime.selftest import PHASE_CELLS, PHASE_LEDS, SelfTest, simulate

FIRST_RANKS = tuple(range(18))  # a1..i2: enough for most checks, quick on both runtimes


def test_a_good_board_reports_done_ok():
    d = make_virtual_drivers(auto_bounce_ms=4)  # real switches bounce: that is not chatter
    st = simulate(d, cells=FIRST_RANKS)
    assert st.report_lines() == ["selftest done ok"]
    assert d.leds.get(d.leds.cells[0]) == (0, 40, 0)  # result shown: green
    assert d.leds.get(d.leds.edges["N"][0]) == (0, 80, 0)
    assert d.leds.get(d.leds.cells[40]) == (0, 0, 0)  # not tested: dark


def test_stuck_closed_switch_is_reported_never_opens():
    d = make_virtual_drivers()
    d.switches.fault(4, "closed")  # e1
    st = simulate(d, cells=FIRST_RANKS)
    assert st.report_lines() == ["selftest switch e1 never-opens", "selftest done 1 problems"]
    assert d.leds.cell_rgb(4) == (80, 0, 0)  # red, shown as is (within the power budget)


def test_dead_switch_is_reported_never_closes_after_the_cell_timeout():
    d = make_virtual_drivers()
    d.switches.fault(10, "open")  # b2
    t0 = d.clock.ticks_ms()
    st = simulate(d, cells=FIRST_RANKS)
    assert st.report_lines() == ["selftest switch b2 never-closes", "selftest done 1 problems"]
    assert d.clock.ticks_diff(d.clock.ticks_ms(), t0) >= st.cell_timeout_ms


def test_chattering_switch_is_reported_chatters():
    d = make_virtual_drivers()
    d.switches.fault(2, "chatter")  # c1
    st = simulate(d, cells=FIRST_RANKS)
    assert "selftest switch c1 chatters" in st.report_lines()
    assert st.report_lines()[-1] == "selftest done 1 problems"


def test_led_marked_dead_with_undo_is_reported():
    d = make_virtual_drivers()
    d.leds.dead[d.leds.cells[12]] = 1  # d2 stays dark: the simulated user presses undo
    st = simulate(d, cells=FIRST_RANKS)
    assert st.report_lines() == ["selftest led d2 dead", "selftest done 1 problems"]


def test_dead_matrix_row_is_reported_and_costs_short_timeouts():
    d = make_virtual_drivers()
    d.switches.dead_row(1)  # keys 9..17 = cells a2..i2 on the default board
    t0 = d.clock.ticks_ms()
    st = simulate(d, cells=FIRST_RANKS)
    lines = st.report_lines()
    assert lines[:9] == ["selftest switch %s2 never-closes" % f for f in "abcdefghi"]
    assert lines[9:] == ["selftest row 1 dead", "selftest done 9 problems"]
    took = d.clock.ticks_diff(d.clock.ticks_ms(), t0)
    # two full timeouts, then the short one for the other seven cells (+ the good rank)
    assert took < 2 * st.cell_timeout_ms + 7 * st.row_timeout_ms + 30000, took


def test_whole_board_with_several_faults():
    d = make_virtual_drivers()
    d.switches.fault(80, "closed")
    d.switches.fault(40, "open")
    st = simulate(d)
    assert st.report_lines() == ["selftest switch e5 never-closes",
                                 "selftest switch i9 never-opens", "selftest done 2 problems"]


def test_colour_phase_lights_every_led_red_green_blue_and_ok_moves_on():
    st = SelfTest(colour_ms=3000)
    frame = {}

    def cell(c, r, g, b):
        frame[c] = (r, g, b)

    def edge(s, r, g, b):
        frame[s] = (r, g, b)

    raw = bytearray(81)
    st.start(0)
    seen = []
    for t in (0, 3000, 6000):
        st.step(t, raw, raw)
        st.render(cell, edge)
        assert len(frame) == 85 and len(set(frame.values())) == 1
        seen.append(frame[0])
    assert seen == [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
    assert st.phase == PHASE_LEDS
    st.button("ok")
    st.step(6010, raw, raw)
    assert st.phase == PHASE_CELLS and st.target == 0
    st.render(cell, edge)
    assert frame[0] == (255, 255, 255) and frame[8] == (16, 16, 16) and frame[10] == (0, 0, 0)


def test_ok_skips_a_cell_without_reporting_a_problem():
    st = SelfTest(colour_ms=0, cells=(0, 1))
    raw = bytearray(81)
    st.step(0, raw, raw)
    st.step(1, raw, raw)
    st.step(2, raw, raw)
    assert st.target == 0
    st.button("ok")
    st.step(10, raw, raw)
    assert st.target == 1
    st.button("ok")
    st.step(20, raw, raw)
    assert st.done and st.report_lines() == ["selftest done ok"]
