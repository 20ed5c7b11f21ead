# dual-runtime
"""The serial line protocol (docs/protocol.md): every reply line starts with 'ok' or
'error <what is wrong>'; malformed or hostile input changes nothing."""

from boardapp.boardkit import EMPTY, Recorder
from xobo.runtime.virtual_board import VirtualBoard

SPREAD4 = "........./........./........./........./....4..../...11..../........./....1..../" \
    "......... ns 29 0 0"


def _board():
    vb = VirtualBoard()
    vb.advance(50)
    return vb


def _single_ok(vb, line):
    r = vb.command(line)
    assert len(r) == 1 and r[0].startswith("ok"), (line, r)
    return r[0]


def _error(vb, line):
    r = vb.command(line)
    assert len(r) == 1 and r[0].startswith("error "), (line, r)
    return r[0]


def test_help_lists_every_command_and_ends_with_the_terminator():
    r = _board().command("help")
    assert r[-1] == "ok end"
    text = " ".join(r)
    for name in ("version", "position", "record", "settings", "set", "new", "undo", "move",
                 "load", "follow", "hint", "selftest"):
        assert name in text, name
    for line in r:
        assert line.startswith("ok")


def test_version_and_position():
    vb = _board()
    assert _single_ok(vb, "version").startswith("ok xobo-board ")
    assert _single_ok(vb, "position") == "ok " + EMPTY


def test_record_is_N2_closed_by_a_terminator_line():
    vb = _board()
    vb.put("e5")
    vb.advance(1200)
    r = vb.command("record")
    assert r[0] == 'ok [Variant "xobo"]'
    assert "ok 1. e5" in r
    assert r[-1] == "ok end"


def test_settings_lists_every_key():
    r = _board().command("settings")
    keys = [line.split()[1] for line in r[:-1]]
    assert keys == ["game", "variant", "first", "brightness", "settle", "hints", "name",
                    "opponent", "level"]
    assert r[-1] == "ok end"


def test_set_changes_a_setting_and_says_when_a_new_game_is_needed():
    vb = _board()
    assert _single_ok(vb, "set settle 800") == "ok settle 800"
    assert vb.app.inf.settle_ms == 800
    assert "next new game" in _single_ok(vb, "set variant kv")
    assert vb.app.pos.variant == "xobo"
    _single_ok(vb, "new")
    assert vb.app.pos.variant == "kv"
    assert "next new game" in _single_ok(vb, "set first ew")
    _single_ok(vb, "new")
    assert vb.app.pos.side == 1


def test_set_refuses_bad_values_with_the_reason():
    vb = _board()
    assert "200-5000" in _error(vb, "set settle 5")
    assert "whole number" in _error(vb, "set brightness lots")
    assert "xobo|kv" in _error(vb, "set variant chess")
    assert "unknown setting" in _error(vb, "set colour red")
    assert "usage" in _error(vb, "set settle")
    assert vb.app.settings["settle"] == 1000


def test_settings_survive_a_power_cut():
    vb = _board()
    _single_ok(vb, "set level greedy")
    vb.power_cut()
    assert vb.app.settings["level"] == "greedy"


def test_a_board_keeps_its_table_name_across_games_and_power_cuts():
    vb = _board()
    assert vb.app.settings["name"] == "-"  # unnamed
    assert _single_ok(vb, "set name terrace-3") == "ok name terrace-3"
    _single_ok(vb, "set game tiny")
    _single_ok(vb, "new")
    vb.power_cut()
    assert vb.app.settings["name"] == "terrace-3"
    assert "ok name terrace-3" in vb.command("settings")
    assert _single_ok(vb, "set name 12") == "ok name 12"  # digits are a name too


def test_a_table_name_must_be_short_and_printable():
    vb = _board()
    _single_ok(vb, "set name bar.1")
    assert "1-16 letters" in _error(vb, "set name seventeen-letters")
    assert "1-16 letters" in _error(vb, "set name a/b")
    assert "not printable" in _error(vb, "set name caf\xc3\xa9")
    assert "usage" in _error(vb, "set name two words")
    assert vb.app.settings["name"] == "bar.1"


def test_new_undo_and_undo_at_the_start():
    vb = _board()
    assert "nothing to undo" in _error(vb, "undo")
    vb.put("e5")
    vb.advance(1200)
    assert _single_ok(vb, "undo") == "ok undo e5"
    assert vb.app.pos.to_string() == EMPTY
    assert _single_ok(vb, "new").startswith("ok new game")


def test_undo_at_the_start_with_a_host_move_waiting_cancels_it_and_says_so():
    # formerly 'error nothing to undo...' although the waiting move was cancelled
    vb = _board()
    rec = Recorder(vb)
    assert _single_ok(vb, "move e5") == "ok move e5 waiting for the cubes"
    assert _single_ok(vb, "undo") == "ok undo cancelled the expected move e5"
    assert vb.app.pending == -1
    assert rec.has("event cancel host e5")
    assert "nothing to undo" in _error(vb, "undo")  # nothing left to cancel


def test_undo_with_a_host_move_waiting_cancels_only_that_move_and_says_so():
    # the host's move is the match's last move (another table's): the board's own e5 stays
    # (an undo that took it back too made the players clear e5 and put it back)
    vb = _board()
    rec = Recorder(vb)
    vb.put("e5")
    vb.advance(1200)
    _single_ok(vb, "move d4")
    assert _single_ok(vb, "undo") == "ok undo cancelled the expected move d4"
    assert vb.app.pos.ply == 1 and vb.app.pending == -1
    assert rec.has("event cancel host d4") and "restore" not in _single_ok(vb, "state")
    assert _single_ok(vb, "undo") == "ok undo e5"  # an undo again takes e5 back


def test_undo_button_at_the_start_with_a_host_move_waiting_cancels_it_without_error():
    vb = _board()
    rec = Recorder(vb)
    _single_ok(vb, "move e5")
    vb.hold("undo", 100)
    vb.advance(200)
    assert vb.app.pending == -1
    assert rec.has("event cancel host e5") and not rec.has("event error")


def test_move_with_extra_words_is_a_clear_usage_error():
    vb = _board()
    usage = "error usage: move NOTATION (one move in the game's notation, like e5, a4->c4 or " \
        "g6xf5 in XoBo; a trailing (v) is accepted)"
    assert vb.command("move e5 extra") == [usage]  # formerly "'e5 e' is not a cell"
    assert vb.command("move e5 d4") == [usage]
    assert vb.command("move") == [usage]
    assert vb.app.pending == -1
    assert _single_ok(vb, "move e5 (v)").startswith("ok move e5")


def test_a_tab_is_a_byte_outside_printable_ascii_and_rejected():
    # docs/protocol.md: words are separated by spaces; a tab used to be accepted
    vb = _board()
    assert vb.feed(b"move\te5\n") == [
        "error line has a byte that is not printable ASCII (0x09): ignored"]
    assert vb.app.pending == -1
    assert _error(vb, "position\t").endswith("not printable ASCII: ignored")


def test_move_and_load_check_their_argument():
    vb = _board()
    assert "usage" in _error(vb, "move")
    assert _error(vb, "move z9")
    assert _error(vb, "move e5xe4")
    assert "usage" in _error(vb, "load")
    assert _error(vb, "load ........./........ ns 36 0 0")
    assert vb.app.pos.to_string() == EMPTY
    assert _single_ok(vb, "load " + SPREAD4) == "ok load " + SPREAD4


def test_follow_on_sends_events_and_off_stops_them():
    vb = _board()
    sent = []
    vb.protocol.writer = sent.append
    assert _single_ok(vb, "follow on") == "ok follow on"
    vb.put("e5")
    vb.advance(1200)
    assert "event switch e5 on" in sent and "event move e5" in sent
    _single_ok(vb, "follow off")
    del sent[:]
    vb.put("d4")
    vb.advance(1200)
    assert [x for x in sent if x.startswith("event")] == []
    assert "usage" in _error(vb, "follow maybe")


def test_unknown_commands_and_extra_arguments_are_errors():
    vb = _board()
    assert "unknown command 'dance'" in _error(vb, "dance")
    assert "no argument" in _error(vb, "position now")
    assert vb.command("") == []
    assert vb.command("   ") == []


def test_hostile_bytes_get_an_error_and_change_nothing():
    vb = _board()
    vb.put("e5")
    vb.advance(1200)
    before = vb.app.pos.to_string()
    r = vb.feed(b"\x00\xff\x1b[2Jnew\n")
    assert len(r) == 1 and r[0].startswith("error ") and "printable" in r[0]
    r = vb.feed(b"n" * 5000 + b"\n")
    assert r == ["error line too long (more than 320 characters): ignored"]
    r = vb.feed(b"position\r\n")
    assert r == ["ok " + before]
    assert vb.app.pos.to_string() == before


def test_load_takes_a_brochs_position_on_the_15x15_board():
    # BN2 is 248 characters for the 15 x 15 field: the line limit leaves room for it
    vb = VirtualBoard(board="pico_15x15")
    vb.command("set game brochs")
    vb.advance(50)
    start = vb.command("position")[0][3:]
    assert len("load " + start) > 250
    assert vb.command("load " + start) == ["ok load " + start]


def test_a_line_split_across_reads_is_one_command():
    vb = _board()
    assert vb.feed(b"posi") == []
    assert vb.feed(b"tion\n") == ["ok " + EMPTY]


def test_hint_answers_a_move_or_a_clear_error():
    vb = _board()
    r = vb.command("hint")
    assert r[0].startswith("ok hint ") or r[0].startswith("error "), r
    vb.command("set hints off")
    assert "hints are off" in _error(vb, "hint")


def test_state_says_what_the_board_sees():
    vb = _board()
    vb.put("a9")
    vb.put("i9")
    vb.advance(1500)
    line = _single_ok(vb, "state")
    assert line.startswith("ok state fix side ns")
    assert "clear a9 i9" in line


def test_selftest_starts_and_reports_when_done():
    vb = _board()
    rec = Recorder(vb)
    assert _single_ok(vb, "selftest").startswith("ok selftest")
    assert vb.app.selftest is not None
    assert rec.has("event selftest")


def test_leds_command_reports_81_cells_and_4_edges_as_lit():
    from xobo.runtime.virtual_board import VirtualBoard

    vb = VirtualBoard()
    vb.advance(50)
    words = vb.command("leds")[0].split()
    assert words[:2] == ["ok", "leds"] and len(words) == 2 + 81 + 4
    assert words[2:83] == vb.cell_colors()
    edges = vb.edge_colors()
    assert words[83:] == [edges[s] for s in ("N", "S", "E", "W")]
    assert edges["N"] != "000000" and edges["E"] == "000000"  # NS to move lights N and S
    assert vb.command("leds now")[0].startswith("error")


def test_set_takes_ascii_digits_only_on_both_runtimes():
    # int() took '+800' and '1_000' (and CPython '３５'): the value must be plain digits
    vb = _board()
    for value in ("1_000", "+800", "-5", "9999999999", "8e2"):
        assert _error(vb, "set settle " + value) == \
            "error settle must be a whole number 200-5000, not '%s'" % value
    assert _single_ok(vb, "set settle 0800") == "ok settle 800"
    assert _single_ok(vb, "set brightness 7") == "ok brightness 7"
    assert vb.app.settings["settle"] == 800


def test_help_writes_Voina_as_people_read_it():
    lines = _board().command("help")
    assert any("undo, Vo\u00efna, results" in line for line in lines)


# the longest position of any game: Brochs's 15 x 15 with every square written (262 characters
# with "load "), here White's 24 men on the edges
LONGEST_BROCHS = "/".join(["w.............w"] * 12 + ["..............."] * 3) + " b 12 1 -"


def test_every_game_s_longest_position_loads_over_serial():
    vb = VirtualBoard(board="pico_15x15", settings={"game": "brochs"})
    line = "load " + LONGEST_BROCHS
    assert len(line) > 200  # refused before (lines over 200 characters)
    r = vb.feed(line.encode() + b"\n")
    assert r[0].startswith("ok "), r
    assert vb.app.pos.to_string() == LONGEST_BROCHS


def test_a_line_longer_than_any_position_is_refused_without_being_stored():
    vb = _board()
    before = vb.app.pos.to_string()
    r = vb.feed(b"load " + b"." * 330 + b"\n")
    assert r == ["error line too long (more than 320 characters): ignored"]
    assert vb.app.pos.to_string() == before


def test_a_request_id_prefixes_every_line_of_its_reply():
    vb = _board()
    assert vb.command("#17 state")[0].startswith("#17 ok state match side ns")
    r = vb.command("#a9 record")
    assert r[0] == '#a9 ok [Variant "xobo"]' and r[-1] == "#a9 ok end"
    assert all(line.startswith("#a9 ok") for line in r)
    assert vb.command("#Z dance") == ["#Z error unknown command 'dance' (try help)"]
    assert vb.command("#5 set settle 9")[0].startswith("#5 error settle must be")
    assert vb.app.settings["settle"] == 1000  # an id changes nothing of the command
    # a line without an id is answered without one (a person typing on the link)
    assert _single_ok(vb, "version").startswith("ok xobo-board ")


def test_a_bad_request_id_is_a_usage_error_that_changes_nothing():
    vb = _board()
    for line in ("# state", "#123456789 state", "#a-b state", "#", "#7", "#7  "):
        r = vb.command(line)
        assert len(r) == 1 and "error usage: #ID COMMAND" in r[0], (line, r)
    assert _single_ok(vb, "position") == "ok " + EMPTY


def test_the_board_id_is_its_own_and_survives_power_cuts_and_renames():
    vb = _board()
    first = _single_ok(vb, "id")
    words = first.split()
    assert words[:2] == ["ok", "id"] and len(words[2]) == 16
    assert all(ch in "0123456789abcdef" for ch in words[2])
    _single_ok(vb, "set name terrace-3")
    vb.power_cut()
    assert _single_ok(vb, "id") == first
    assert _single_ok(_board(), "id") != first  # another board (another flash): another id


def test_a_damaged_board_id_file_is_drawn_again_and_the_board_still_answers():
    vb = _board()
    vb.flash.write_atomic("board.id", b"not hex at all!!")
    vb.power_cut()
    words = _single_ok(vb, "id").split()
    assert len(words[2]) == 16 and words[2] != "not hex at all!!"
    vb.power_cut()
    assert _single_ok(vb, "id").split()[2] == words[2]
