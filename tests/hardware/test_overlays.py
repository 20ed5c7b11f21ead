"""Every game's overlay (hardware/out/*_overlay*.svg, hardware/overlay.py) is printable at 1:1
and its geometry is the game's area as the runtime places it on each board, with the marks of
the game's own rules (Chain Reaction CB2/CB3, Brochs BB2-BB4)."""

import re
import xml.etree.ElementTree as ET

import pytest

from xobo import hostkit

from .conftest import OUT_DIR

SVG = "{http://www.w3.org/2000/svg}"
PITCH = 40


def parse(path):
    return ET.parse(path).getroot()


def cell_at(x, y, side, n):
    """The board cell (file, rank index) whose square has its top-left corner at (x, y)."""
    f = round((x - PITCH / 2) / PITCH)
    r = round((side - PITCH / 2 - y) / PITCH) - 1
    assert 0 <= f < n and 0 <= r < n
    return f, r


def board_name(f, r):
    return "abcdefghijklmno"[f] + str(r + 1)


def marks(root, kind):
    return [e for e in root.iter() if e.get("data-mark") == kind]


def test_every_game_that_fits_a_board_has_an_overlay_file(overlay):
    files = {name for name, _, _, _ in overlay.overlays()}
    assert {"chain_reaction_overlay.svg", "brochs_overlay_15x15.svg",
            "xobo_overlay_15x15.svg", "x_overlay_15x15.svg"} <= files
    for name in files | {"x_overlay.svg"}:
        assert (OUT_DIR / name).exists(), name


@pytest.mark.parametrize("which,n", [("9x9", 9), ("15x15", 15)])
def test_overlays_print_1_to_1_and_outline_the_area_where_the_runtime_places_it(overlay, which,
                                                                                 n):
    from xobo.games import load
    from xobo.runtime.topology import Topology

    for file_name, game, board, settings in overlay.overlays():
        if board != which:
            continue
        root = parse(OUT_DIR / file_name)
        side = (n + 1) * PITCH
        assert root.get("width") == "%dmm" % side and root.get("viewBox") == "0 0 %d %d" % (
            side, side)
        g = load(game)
        w, h = g.area(dict(g.DEFAULTS, **settings))
        place = Topology(n, n).place(w, h)
        area = next(e for e in root.iter(SVG + "rect") if e.get("id") == "area")
        f, r = cell_at(float(area.get("x")), float(area.get("y")), side, n)
        assert (f, r) == (place.ox, place.oy + h - 1), file_name  # its North-West cell
        assert float(area.get("width")) == w * PITCH and float(area.get("height")) == h * PITCH


def test_xobo_sits_on_d4_l12_of_the_15x15_board_and_the_rest_is_hatched():
    root = parse(OUT_DIR / "xobo_overlay_15x15.svg")
    side = 16 * PITCH
    area = next(e for e in root.iter(SVG + "rect") if e.get("id") == "area")
    f, r = cell_at(float(area.get("x")), float(area.get("y")), side, 15)
    assert board_name(f, r) == "d12"
    grid = next(e for e in root.iter(SVG + "g") if e.get("id") == "grid")
    hatched = sum(1 for e in grid if e.get("fill") == "url(#off)")
    assert hatched == 225 - 81


@pytest.mark.parametrize("file_name,n", [("chain_reaction_overlay.svg", 9),
                                         ("chain_reaction_overlay_15x15.svg", 15)])
def test_CB2_CB3_chain_reaction_goal_rows_values_and_home_squares(file_name, n):
    root = parse(OUT_DIR / file_name)
    side = (n + 1) * PITCH
    off = (n - 9) // 2
    goals = marks(root, "goal")
    cells = sorted(cell_at(float(e.get("x")), float(e.get("y")), side, n) for e in goals)
    # files b-h of ranks 1 and 9 of the game (CB1), shifted as the runtime places the area
    assert cells == sorted((f + off, r + off) for f in range(1, 8) for r in (0, 8))
    values = [t.text for t in root.iter(SVG + "text") if t.text in ("1", "2")]
    assert values.count("2") >= 2  # e1 and e9 are worth 2 (plus the rank labels)
    homes = {e.get("data-cell") for e in marks(root, "home-light")}
    assert homes == {"d2", "e2", "f2", "c3", "d3", "e3", "f3", "g3", "d4", "e4", "f4"}
    assert len(marks(root, "home-dark")) == 11
    assert {e.get("data-cell")[0] for e in marks(root, "score")} == {"a", "i"}


def test_CB1_a_field_of_6_has_its_own_overlay_with_the_north_goal_row_on_rank_8():
    root = parse(OUT_DIR / "chain_reaction_overlay_field6.svg")
    goals = marks(root, "goal")
    ranks = sorted({cell_at(float(e.get("x")), float(e.get("y")), 400, 9)[1] for e in goals})
    assert ranks == [0, 7]  # the area is 9 x 8, placed on ranks 1-8 (centred, rounded down)
    homes = {e.get("data-cell") for e in marks(root, "home-dark")}
    assert homes == {"d7", "e7", "f7", "c6", "d6", "e6", "f6", "g6", "d5", "e5", "f5"}


def test_BB2_BB3_BB4_brochs_donjons_cross_dot_quadrants_and_white_start():
    root = parse(OUT_DIR / "brochs_overlay_15x15.svg")
    assert {e.get("data-cell") for e in marks(root, "donjon")} == {"d4", "l4", "d12", "l12"}
    cross = {e.get("data-cell") for e in marks(root, "cross")}
    assert len(cross) == 29 and all(c[0] == "h" or c[1:] == "8" for c in cross)
    assert [e.get("data-cell") for e in marks(root, "centre-dot")] == ["h8"]
    assert {e.get("data-quadrant") for e in marks(root, "quadrant")} == {"NW", "NE", "SW", "SE"}
    starts = {e.get("data-cell") for e in marks(root, "white-start")}
    assert len(starts) == 20 and {"f1", "j15", "a6", "o10"} <= starts  # + 4 on the donjons


def test_x_on_the_15x15_board_draws_its_hex_links_inside_its_area(overlay):
    root = parse(OUT_DIR / "x_overlay_15x15.svg")
    lines = list(root.iter(SVG + "line"))
    lines = [e for e in lines if e.get("stroke") is None]  # not the hatch pattern's
    assert len(lines) == len(hostkit.of("x").module.links(8))
    for e in lines:
        dx = float(e.get("x2")) - float(e.get("x1"))
        dy = float(e.get("y2")) - float(e.get("y1"))
        assert not (dx > 0 and dy < 0), "a NE-SW diagonal"  # up-right in SVG is NE


def test_overlays_use_only_millimetre_sizes():
    for path in OUT_DIR.glob("*overlay*.svg"):
        head = path.read_text()[:400]
        assert re.search(r'width="\d+mm" height="\d+mm"', head), path.name


def test_every_value_of_a_setting_that_moves_the_marks_has_its_own_overlay(overlay):
    from xobo import hostkit
    from xobo.games import GAMES, load

    files = {(game, which, tuple(sorted(s.items()))): name
             for name, game, which, s in overlay.overlays()}
    moving = {name: hostkit.of(name).OVERLAY_VARIANTS for name in GAMES}
    assert moving["x"] == "size" and moving["brochs"] == "donjon"  # (XB1, BB3)
    for game_name, key in moving.items():
        if key is None:
            continue
        game = load(game_name)
        lo, hi = game.SETTINGS[key]
        for which, n in overlay.BOARD_SIZES.items():
            if max(game.area(game.DEFAULTS)) > n:
                continue
            for v in range(lo, hi + 1):
                if v == game.DEFAULTS[key]:
                    wanted = (game_name, which, ())
                    if (game_name, which) == ("x", "9x9"):
                        assert (OUT_DIR / "x_overlay.svg").exists()
                        continue
                else:
                    wanted = (game_name, which, ((key, v),))
                assert wanted in files, wanted
                assert (OUT_DIR / files[wanted]).exists(), files[wanted]


@pytest.mark.parametrize("which,n", [("9x9", 9), ("15x15", 15)])
@pytest.mark.parametrize("size", [4, 5, 6, 7, 9])
def test_XB1_XB3_each_x_size_has_its_rhombus_links_and_corners(overlay, which, n, size):
    from xobo.runtime.topology import Topology

    tail = "" if which == "9x9" else "_15x15"
    root = parse(OUT_DIR / ("x_overlay_size%d%s.svg" % (size, tail)))
    links = [e for e in root.iter(SVG + "line") if e.get("stroke") is None]
    assert len(links) == len(hostkit.of("x").module.links(size))
    place = Topology(n, n).place(size, size)
    side = (n + 1) * PITCH
    # every link joins two cells of the rhombus as the runtime places it
    for e in links:
        for x, y in ((e.get("x1"), e.get("y1")), (e.get("x2"), e.get("y2"))):
            f = round((float(x) - PITCH) / PITCH)
            r = round((side - PITCH - float(y)) / PITCH)
            assert place.ox <= f < place.ox + size and place.oy <= r < place.oy + size
    corners = {e.get("data-corner") for e in marks(root, "corner")}
    assert corners == {"SW", "SE", "NW", "NE"}


@pytest.mark.parametrize("k", [2, 3, 5, 6, 7])
def test_BB3_each_donjon_setting_has_its_donjons_and_the_quadrant_names_stay_clear(k):
    root = parse(OUT_DIR / ("brochs_overlay_donjon%d_15x15.svg" % k))
    lo, hi = k - 1, 15 - k  # (k, k) and its mirror images, 0-based
    wanted = {board_name(f, r) for f in (lo, hi) for r in (lo, hi)}
    assert {e.get("data-cell") for e in marks(root, "donjon")} == wanted
    side = 16 * PITCH
    for label in marks(root, "quadrant"):
        f = round((float(label.get("x")) - PITCH) / PITCH)
        r = round((side - PITCH - (float(label.get("y")) - 6)) / PITCH)
        assert board_name(f, r) not in wanted, label.get("data-quadrant")
    assert len(marks(root, "cross")) == 29
