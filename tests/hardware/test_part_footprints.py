"""Every part whose footprint is named after a maker's part number is that part (a fuse's
footprint Fuse_Bourns_MF-RHT400 with an MF-RHS400 in the BOM would be ordered wrong)."""

import re


def test_a_footprint_named_after_a_part_number_is_the_parts_own(design):
    named = 0
    for key, (_, _, footprint, _maker, mpn, _) in design.PARTS.items():
        m = re.match(r"[^:]+:(?:Fuse|BarrelJack)_(?:Bourns|CUI)_([A-Z]+-[A-Z0-9]+)", footprint)
        if m:
            named += 1
            assert mpn.startswith(m.group(1)), (key, footprint, mpn)
    assert named >= 3  # the two barrel jacks and the 15x15 board's polyfuse


def test_the_15x15_polyfuse_is_bournss_mf_rht400_with_its_datasheet_trip(design):
    _, value, footprint, maker, mpn, note = design.PARTS["fuse_dc4"]
    assert (maker, mpn) == ("Bourns", "MF-RHT400")
    assert "hold 4.0 A, trip 7.5 A" in note
