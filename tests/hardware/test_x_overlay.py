"""hardware/out/x_overlay.svg: X's overlay for the glass, drawn apart by its host module
(``own_overlay_svg``, written by hardware/overlay.py at hardware/design.py's sizes); the lines
are X's hex links (XB3), never a NE-SW diagonal."""

import xml.etree.ElementTree as ET

import pytest

NS = "{http://www.w3.org/2000/svg}"


def _svg(overlay, n):
    return overlay.own_overlay_svg("x", "9x9", {"size": n})


def _lines(svg):
    root = ET.fromstring(svg)
    links = [g for g in root.iter(NS + "g") if g.get("id") == "links"][0]
    return [tuple(float(ln.get(k)) for k in ("x1", "y1", "x2", "y2")) for ln in links]


@pytest.mark.parametrize("n", [4, 5, 8, 9])
def test_XB3_overlay_draws_every_hex_link_once(overlay, n):
    lines = _lines(_svg(overlay, n))
    assert len(lines) == 3 * n * n - 4 * n + 1  # the edges of an n x n hex rhombus
    assert len(set(lines)) == len(lines)


def test_XB3_overlay_links_are_orthogonal_or_nw_se_never_ne_sw(overlay):
    for x1, y1, x2, y2 in _lines(_svg(overlay, 8)):
        dx, dy = x2 - x1, y2 - y1  # y grows downwards: NE is dx > 0, dy < 0
        assert dx == 0 or dy == 0 or (dx > 0) == (dy > 0), (x1, y1, x2, y2)


def test_overlay_hatches_the_cells_outside_the_rhombus(overlay):
    svg = _svg(overlay, 8)
    assert svg.count('fill="url(#off)"') == 81 - 64
    assert 'width="400mm"' in svg  # the glass: (9 + 1) x 40 mm cells


def test_overlay_refuses_a_size_off_the_board(overlay):
    with pytest.raises(ValueError, match="X's size must be 4-9, not 10"):
        _svg(overlay, 10)


def test_x_s_own_overlay_is_the_9x9_default_s_file(overlay):
    assert overlay.own_overlays() == [("x_overlay.svg", "x", "9x9")]
