"""The piece sets (hardware/pieces.py, hardware/out/pieces.md and the BOMs' piece rows) agree
with the rules pages and the board's light, and the magnet model closes a cell's reed switch
with one piece and with a tower, never from the next cell."""

import csv
import math

import pytest

from xobo.games import part

from .conftest import OUT_DIR


def bom_rows(name):
    with open(OUT_DIR / name, newline="") as f:
        return list(csv.DictReader(f))


def counts(sets, game):
    return {p["owner"]: (p["count"], p["rgb"]) for p in sets[game]["pieces"]}


def test_B5_xobo_has_36_neutral_cubes_of_one_colour_stacked_up_to_8(pieces):
    for which in ("9x9", "15x15"):
        s = pieces.game_sets(which)["xobo"]
        assert [(p["count"], p["rgb"]) for p in s["pieces"]] == [(36, None)]
        assert s["max_height"] == 8


def test_XB5_x_needs_ceil_cells_over_three_of_each_colour_any_colour_first(pieces):
    s = pieces.game_sets("9x9")["x"]
    assert s["players"] == 3
    # the largest setting (size 9): 81 cells, the first mover places 27; size 8 needs 22/21/21
    assert [p["count"] for p in s["pieces"]] == [27, 27, 27]
    assert math.ceil(64 / 3) == 22 <= 27
    assert [p["rgb"] for p in s["pieces"]] == [0xD55E00, 0xF0E442, 0x009E73]


def test_CB4_chain_reaction_has_11_a_side_stacking_two_high(pieces):
    s = pieces.game_sets("9x9")["chain-reaction"]
    assert counts(pieces.game_sets("9x9"), "chain-reaction") == {
        "light": (11, 0x0072B2), "dark": (11, 0xE69F00)}
    assert s["max_height"] == 2


def test_BB4_brochs_24_white_12_black_men_and_a_master_told_apart(pieces):
    assert "brochs" not in pieces.game_sets("9x9")  # 15 x 15 does not fit the 9 x 9
    sets = pieces.game_sets("15x15")["brochs"]["pieces"]
    by_owner = {p["owner"]: p for p in sets}
    assert by_owner["white (men)"]["count"] == 24
    assert by_owner["black (men)"]["count"] == 12
    master = by_owner["black (the master)"]
    assert master["count"] == 1 and master["shape"] == "master"
    assert master["rgb"] != by_owner["black (men)"]["rgb"]  # not Black's colour: at a glance
    # the men are the colours the sides are named by: white (natural wood) and black
    assert by_owner["white (men)"]["rgb"] is None and by_owner["black (men)"]["rgb"] == 0


def test_BB4_brochs_white_men_share_the_natural_cubes_of_xobo(pieces):
    natural = [k for k in pieces.stock("15x15") if k["rgb"] is None]
    assert len(natural) == 1 and natural[0]["count"] == 36
    assert any(g.startswith("brochs") for g in natural[0]["games"]), natural


def test_piece_colours_are_the_colours_the_board_lights_for_each_player(pieces):
    from xobo.games import load
    from xobo.runtime import colours

    for which in ("9x9", "15x15"):
        for name, s in pieces.game_sets(which).items():
            game = load(name)
            lit = {colours.RGB[c] for c in part(game, "board").Layers.PLAYER_CODES[:game.PLAYERS]}
            own = getattr(part(game, "board").Layers, "PIECE_RGB", ())  # named by colour
            for p in s["pieces"]:
                if p["rgb"] is not None and p["shape"] == "cube" and p["rgb"] not in own:
                    assert p["rgb"] in lit, (name, p)


def test_stock_holds_for_every_game_the_pieces_of_each_colour_it_needs(pieces):
    for which in ("9x9", "15x15"):
        stock = {(k["shape"], k["rgb"]): k["count"] for k in pieces.stock(which)}
        for s in pieces.game_sets(which).values():
            for p in s["pieces"]:
                assert stock[(p["shape"], p["rgb"])] >= p["count"]


@pytest.mark.parametrize("name,which", [("bom.csv", "9x9"), ("bom_15x15.csv", "15x15")])
def test_bom_lists_the_stock_and_one_magnet_per_piece(pieces, name, which):
    rows = bom_rows(name)
    listed = sorted(int(r["quantity"]) for r in rows if r["category"] == "Piece")
    assert listed == sorted(k["count"] for k in pieces.stock(which))
    magnet = next(r for r in rows if r["item"] == "magnet")
    assert int(magnet["quantity"]) == sum(listed)
    text = " ".join(r["value"] for r in rows)
    assert "two colours" not in text and "40 cubes" not in text  # the old, wrong sets


def test_the_chosen_magnet_closes_a_piece_and_a_tower_and_never_the_next_cell(pieces):
    m = pieces.magnet()
    mag = (m["diameter"], m["height"], m["br"])
    for which in ("9x9", "15x15"):
        c = pieces.check_magnet(mag, which, pieces.max_height())
        assert c["ok"], (which, c["checks"])
        assert c["one"] >= pieces.CLOSE_MARGIN * c["pull_in_hi"]
        # two stacked (a Chain Reaction tower) and the highest stack close it harder
        assert c["tower"] > c["two"] > c["one"] and c["tower_flipped"] >= c["pull_in_hi"]
        # a piece ringed by eight neighbours against it still closes its switch
        assert c["one"] - c["opposing"] >= c["pull_in_hi"]
        # an empty cell never closes from its neighbours, and opens when its piece is lifted
        assert max(c["aiding"], c["opposing"]) <= pieces.NEIGHBOUR_FRACTION * c["pull_in_lo"]
        assert c["aiding"] <= pieces.NEIGHBOUR_FRACTION * c["drop_out"] < c["pull_in_lo"]


def test_a_single_neighbour_is_counted_not_only_the_highest_stack(pieces):
    # the upper pieces of a neighbour's stack partly cancel its lower ones: the model takes the
    # strongest of every height, so one piece on each next cell is at least in the sum
    m = pieces.magnet()
    mag = (m["diameter"], m["height"], m["br"])
    for which in ("9x9", "15x15"):
        z = pieces.gap_depth_mm(which)
        single = pieces.dipole_bz_mt(40, z + m["height"] / 2, m["diameter"], m["height"],
                                     m["br"])
        stack = pieces.stack_field(z, 40, pieces.max_height(), mag)
        assert single < 0 and abs(single) > abs(stack)  # against the own piece, and stronger
        c = pieces.check_magnet(mag, which, pieces.max_height())
        assert c["next_cell_opposing"] >= abs(single)
        assert c["opposing"] >= 4 * abs(single)


def test_a_stronger_magnet_fails_the_model_on_the_neighbours(pieces):
    # the strongest grade of the chosen size closes more, but eight neighbouring pieces then
    # come too near the most sensitive switch's pull-in on the 9x9 board: the BOM names the
    # grade, not "or better"
    m = pieces.magnet()
    strongest = max(pieces.GRADES, key=pieces.GRADES.get)
    assert m["grade"] != strongest
    c = pieces.check_magnet((m["diameter"], m["height"], pieces.GRADES[strongest]), "9x9",
                            pieces.max_height())
    assert c["checks"]["closes"] and not c["checks"]["no_false_closure"]


def test_a_weak_magnet_fails_the_model_through_the_thicker_glass(pieces):
    weakest = min(pieces.GRADES.values())
    c = pieces.check_magnet((6, 2, weakest), "15x15", 2)
    assert not c["ok"]


def test_axial_formula_and_dipole_agree_far_from_the_magnet(pieces):
    # on the axis, 60 mm away, a 6x3 disc is a dipole (within 1 %)
    exact = pieces.axial_field_mt(60 - 1.5, 6, 3, 1.2)
    dipole = pieces.dipole_bz_mt(0.0001, 60, 6, 3, 1.2)
    assert exact == pytest.approx(dipole, rel=0.01)


def test_pieces_md_names_the_reed_figures_assumed_and_the_tray(pieces):
    text = (OUT_DIR / "pieces.md").read_text()
    grade = pieces.magnet()["grade"]
    for needle in ("AT", "mT", "KSK-1A66", "pull-in", "drop-out", "master", "tray", grade):
        assert needle in text, needle


@pytest.mark.parametrize("which", ["9x9", "15x15"])
def test_the_tray_has_a_compartment_for_every_piece_of_the_stock(pieces, which):
    import xml.etree.ElementTree as ET

    root = ET.parse(OUT_DIR / ("tray_%s.svg" % which)).getroot()
    counts = sorted(int(e.get("data-count")) for e in root.iter() if e.get("data-count"))
    assert counts == sorted(k["count"] for k in pieces.stock(which))
    comps, (w, d, h) = pieces.tray(which)
    inside = h - pieces.TRAY_WALL_MM
    for kind, x, y, cw, cd in comps:
        assert x + cw <= w and y + cd <= d  # inside the tray
        if kind["shape"] == "master":  # taller than the tray is deep: it lies on its side
            assert pieces.MASTER_HEIGHT_MM > inside >= pieces.PIECE_MM
            assert cw >= kind["count"] * pieces.MASTER_HEIGHT_MM and cd > pieces.PIECE_MM
            continue
        assert inside >= pieces.PIECE_MM  # a cube stands in it
        rows = -(-kind["count"] // pieces.TRAY_COLUMNS)
        assert cw * cd >= kind["count"] * pieces.TRAY_SLOT_MM ** 2 and cd == rows * 19


def test_the_build_guide_states_the_stock_of_each_table(pieces):
    from .conftest import ROOT

    guide = (ROOT / "hardware" / "BUILD.md").read_text()
    bullet = " ".join(guide.split("- **Pieces**")[1].split("\n- **")[0].split())
    small = {(k["shape"], k["rgb"]): k for k in pieces.stock("9x9")}
    for k in pieces.stock("9x9"):
        assert "%d" % k["count"] in bullet and pieces.colour_name(k["rgb"]) in bullet, k
    added = [k for k in pieces.stock("15x15") if (k["shape"], k["rgb"]) not in small]
    for k in added:
        if k["shape"] == "master":
            assert "master, an %d x %d x %d mm block" % (
                pieces.PIECE_MM, pieces.PIECE_MM, pieces.MASTER_HEIGHT_MM) in bullet
        else:
            assert "adds %d %s" % (k["count"], pieces.colour_name(k["rgb"])) in bullet, k
    for k in pieces.stock("15x15"):  # the 15x15 needs no more of a 9x9 colour
        if (k["shape"], k["rgb"]) in small:
            assert k["count"] == small[(k["shape"], k["rgb"])]["count"], k


def test_the_fallback_reed_grade_still_closes_with_the_chosen_magnet(pieces):
    # the BOM offers the 15-20 AT grade if a hovering hand closes switches: the same magnet
    # must still close it, a flipped tower and a crowded piece included
    m = pieces.magnet()
    mag = (m["diameter"], m["height"], m["br"])
    for which in ("9x9", "15x15"):
        c = pieces.check_magnet(mag, which, pieces.max_height(), pieces.FALLBACK_GRADE)
        assert c["one"] > c["pull_in_hi"] and all(
            v for k, v in c["checks"].items() if k != "closes"), (which, c["checks"])
    text = (OUT_DIR / "pieces.md").read_text()
    assert "**The fallback grade** (%s" % pieces.FALLBACK_GRADE in text
