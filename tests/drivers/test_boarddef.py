# dual-runtime
"""Board definitions: the checks name what is wrong."""

import json

from xobo_testing import message_of

from xobo.drivers.boarddef import BoardDefError, default_boarddef, parse


def _def(**changes):
    d = json.loads(json.dumps(default_boarddef().raw))
    for path in changes:
        node = d
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[k]
        if changes[path] is None:
            del node[keys[-1]]
        else:
            node[keys[-1]] = changes[path]
    return d


def test_default_definition_is_valid_and_maps_cells_and_edges():
    bd = parse(_def())
    assert bd.platform == "micropython-rp2" and bd.led_count == 117
    assert bd.led_cells[9] == 17  # serpentine: a2 is at the end of the second run
    assert len(bd.led_edges["N"]) == 9 and bd.cell_of_key[80] == 80
    assert bd.buttons["ok"] == ("GP26", 0) and bd.button_names() == ["ok", "undo", "hint"]
    assert bd.limiter().budget_ma == 500


def test_json_text_is_accepted_and_bad_json_is_named():
    assert parse(json.dumps(_def())).name == "virtual"
    assert "not valid json" in message_of(BoardDefError, parse, "{nope")


def test_wrong_pin_name_is_named():
    msg = message_of(BoardDefError, parse, _def(matrix__rows=["GP%d" % i for i in range(11, 19)]
                                                + ["D5"]))
    assert "matrix.rows[8]" in msg and "'d5'" in msg and "gp0..gp28" in msg


def test_pin_used_twice_is_named_with_both_uses():
    msg = message_of(BoardDefError, parse, _def(leds__pin="GP11"))
    assert "leds.pin" in msg and "gp11" in msg and "matrix.rows[0]" in msg


def test_80_cells_instead_of_81():
    d = _def()
    d["leds"]["cells"] = d["leds"]["cells"][:80]
    assert "leds.cells has 80 entries, expected 81" in message_of(BoardDefError, parse, d)


def test_chain_index_used_twice_names_both_cells():
    d = _def()
    d["leds"]["cells"][1] = d["leds"]["cells"][0]
    msg = message_of(BoardDefError, parse, d)
    assert "chain index 0 is used twice" in msg and "a1" in msg and "b1" in msg


def test_edge_led_overlapping_a_cell_and_out_of_range_index():
    d = _def()
    d["leds"]["edges"]["N"][0] = 5
    assert "used twice" in message_of(BoardDefError, parse, d)
    d = _def()
    d["leds"]["edges"]["E"][0] = 117
    assert "outside 0..116" in message_of(BoardDefError, parse, d)


def test_cell_of_key_must_give_every_cell_once():
    d = _def()
    d["matrix"]["cell_of_key"][5] = 4
    msg = message_of(BoardDefError, parse, d)
    assert "cell e1 (4) is given to keys 4 and 5" in msg


def test_unknown_platform_and_missing_sections():
    assert "platform 'esp32'" in message_of(BoardDefError, parse, _def(platform="esp32"))
    assert "section 'leds' is missing" in message_of(BoardDefError, parse, _def(leds=None))
    assert "buttons.undo is missing" in message_of(BoardDefError, parse,
                                                   _def(buttons__undo=None))


def test_blinka_uses_d_pins():
    d = _def(platform="blinka")
    assert "d0..d27" in message_of(BoardDefError, parse, d)


def test_power_budget_must_fit_the_supply_and_leave_room_for_light():
    assert "exceeds power.supply_ma" in message_of(BoardDefError, parse,
                                                  _def(power__budget_ma=600))
    assert "leaves nothing for light" in message_of(BoardDefError, parse,
                                                   _def(power__budget_ma=150))


def test_pull_must_match_the_active_row_level():
    msg = message_of(BoardDefError, parse, _def(matrix__row_active=1))
    assert "row_active 1 needs col_pull 'down'" in msg
