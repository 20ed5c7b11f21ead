"""The frame, baffle and tray as DXF (hardware/mechanical.py): 1:1 from the design's pitch,
readable by ezdxf, the frame holding every board of the assembly."""

import pytest

from .conftest import load_hardware


@pytest.mark.parametrize("size", [9, 15])
def test_the_baffles_slots_are_one_pitch_apart_and_it_spans_the_playing_area(size, tmp_path):
    import ezdxf

    mech = load_hardware("mechanical")
    design = load_hardware("design")
    mech.write(size, tmp_path)
    doc = ezdxf.readfile(tmp_path / ("baffle_%dx%d.dxf" % (size, size)))
    strips = list(doc.modelspace().query("LWPOLYLINE"))
    assert len(strips) == 2 * (size + 1)
    first = [p[:2] for p in strips[0].get_points()]
    xs = sorted({round(x, 3) for x, _ in first})
    assert xs[-1] == pytest.approx(size * design.CELL_PITCH_MM + mech.THICK)
    slot_left = xs[::2]  # each slot's two sides, a slot at either end
    assert len(xs) == 2 * (size + 1)
    assert all(b - a == pytest.approx(design.CELL_PITCH_MM)
               for a, b in zip(slot_left, slot_left[1:], strict=False))


@pytest.mark.parametrize("size", [9, 15])
def test_the_frame_holds_every_board_and_the_glass_rests_on_its_ledge(size, tmp_path):
    import ezdxf

    mech = load_hardware("mechanical")
    assembly = load_hardware("assembly")
    design = load_hardware("design")
    x0, y0, x1, y1 = mech.inside(size)
    for bx0, by0, bx1, by1 in assembly.rail_bounds(size).values():
        assert x0 < bx0 and y0 < by0 and bx1 < x1 and by1 < y1
    mech.write(size, tmp_path)
    ledge = ezdxf.readfile(tmp_path / ("frame_ledge_%dx%d.dxf" % (size, size)))
    rects = sorted(abs(p.get_points()[1][0] - p.get_points()[0][0])
                   for p in ledge.modelspace().query("LWPOLYLINE"))
    glass = (size + 1) * design.CELL_PITCH_MM
    assert rects[0] == pytest.approx(glass - 2 * mech.LEDGE)  # the window under the glass
    assert len(ledge.modelspace().query("CIRCLE")) == 3  # the three buttons
    sheets = dict((what, dims) for what, _, dims in mech.sheets(size))
    assert sheets["glass"] == "%d x %d mm" % (glass, glass)
