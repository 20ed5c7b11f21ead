# dual-runtime
"""The app around the game: self-test at power-up, the hint button, the watchdog, settings at
boot, events."""

from xobo_testing import raises

from boardapp.boardkit import Recorder
from xobo.runtime.virtual_board import VirtualBoard


def _press(vb, name):
    vb.hold(name, 80)
    vb.advance(150)


def test_both_buttons_held_at_power_up_start_the_self_test_and_it_reports():
    vb = VirtualBoard()
    rec = Recorder(vb)
    vb.power_cut(held=("ok", "undo"))
    assert vb.app.selftest is not None
    assert rec.has("event selftest start")
    vb.release("ok")
    vb.release("undo")
    vb.advance(100)
    r, g, b = vb.leds.cell_rgb(40)
    assert r > 0 and g == 0 and b == 0  # LED phase: every LED red first
    for _ in range(3 + 81 + 5):  # ok: next colour, then skip every cell
        _press(vb, "ok")
        if vb.app.selftest is None:
            break
    assert vb.app.selftest is None
    assert rec.has("event selftest done")
    assert vb.command("position")[0].startswith("ok ")


def test_self_test_does_not_start_without_both_buttons():
    vb = VirtualBoard()
    vb.power_cut(held=("ok",))
    assert vb.app.selftest is None


def test_hint_button_shows_a_legal_move():
    vb = VirtualBoard()
    rec = Recorder(vb)
    vb.advance(50)
    _press(vb, "hint")
    hints = [x for x in rec.lines if x.startswith("event hint ") or x.startswith("event error")]
    assert hints, rec.lines
    if hints[0].startswith("event hint "):
        from xobo.runtime import colours as C

        assert vb.app.hint_move >= 0
        assert vb.app.pos.is_legal(vb.app.hint_move)
        lit = [c for c in range(81) if vb.app.light.code[c] == C.HINT]
        assert lit, "the hint is shown"


def test_hint_button_with_hints_off_says_so():
    vb = VirtualBoard(settings={"hints": "off"})
    rec = Recorder(vb)
    _press(vb, "hint")
    assert rec.has("event error hints are off")


def test_watchdog_is_fed_by_the_running_loop():
    vb = VirtualBoard()
    vb.advance(20000)
    assert not vb.watchdog.expired()
    assert vb.watchdog.feeds > 1000


def test_settings_given_at_construction_are_checked():
    vb = VirtualBoard(settings={"settle": 600})
    assert vb.app.inf.settle_ms == 600
    assert "200-5000" in str(raises(ValueError, VirtualBoard, settings={"settle": 1}))


def test_move_events_carry_the_voina_mark_and_the_result():
    col = "....1...."
    n3 = "/".join([col] * 4 + ["........."] + [col] * 3 + ["........."]) + " ns 29 0 0"
    vb = VirtualBoard()
    rec = Recorder(vb)
    vb.advance(20)
    vb.command("load " + n3)
    from xobo.games.xobo.rules.position import Position

    vb.set_cubes(Position.parse(n3).heights)
    vb.advance(100)
    vb.put("e5")  # NS: e2..e9 now, threatens e1 (V1)
    vb.advance(1200)
    assert rec.moves() == ["e5 (v)"]
    assert rec.has("event voina ns threatens d1 e1 f1")  # B3: diagonal neighbours of e2
    vb.put("a1")  # EW ignores the threat
    vb.advance(1200)
    vb.put("e1")
    vb.advance(1200)
    assert rec.moves()[-1] == "e1"
    assert rec.has("event result ns")


def test_settings_given_at_construction_survive_a_power_cut():
    vb = VirtualBoard(settings={"level": "greedy", "settle": 700})
    vb.power_cut()
    assert vb.app.settings["level"] == "greedy" and vb.app.inf.settle_ms == 700
