# dual-runtime
"""The self-test as the app runs it: the serial command ``selftest`` and both buttons held at
power-up; the report comes out as ``event selftest ...`` lines."""

from xobo.drivers.virtual import make_virtual_drivers
from xobo.runtime.app import App
from xobo.runtime.virtual_board import VirtualBoard


def _user(vb, lines, limit=400):
    """Put a cube on each requested cell and lift it, until the report is out."""
    n = 0
    while vb.app.selftest is not None and n < limit:
        st = vb.app.selftest
        t = st.target
        if t >= 0:
            vb.switches.put(t)
        vb.advance(400)
        if t >= 0 and vb.switches.counts[t]:
            vb.switches.lift(t)
        vb.advance(400)
        n += 1
    return [line for line in lines if line.startswith("event selftest")]


def test_serial_selftest_reports_a_stuck_switch_and_a_dead_row():
    vb = VirtualBoard()
    lines = []
    vb.subscribe(lines.append)
    assert vb.command("selftest")[0].startswith("ok selftest")
    vb.switches.fault(3, "closed")
    vb.switches.dead_row(6)
    vb.advance(9500)  # red, green, blue
    got = _user(vb, lines)
    assert got[0] == "event selftest start"
    assert got[1] == "event selftest switch d1 never-opens"
    assert got[2:11] == ["event selftest switch %s7 never-closes" % f for f in "abcdefghi"]
    assert got[11:] == ["event selftest row 6 dead", "event selftest done 10 problems"]
    assert vb.command("position")[0].startswith("ok ")  # the board plays again


def test_both_buttons_held_at_power_up_start_the_selftest():
    d = make_virtual_drivers()
    d.buttons.press("ok")
    d.buttons.press("undo")
    app = App(d)
    assert app.selftest is not None
    d2 = make_virtual_drivers()
    d2.buttons.press("ok")
    assert App(d2).selftest is None
