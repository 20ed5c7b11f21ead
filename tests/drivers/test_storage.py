# dual-runtime
"""Saved game and settings: round trip, and a power cut at every point of a save loses at most
the move being saved; damaged slots are rejected with a note."""

from xobo.drivers.virtual import PowerCut, VirtualFlash
from xobo.runtime.storage import SavedGame, Settings, adler32

MOVES = ["e5", "d4", "e4", "e6", "f5", "c3", "g7", "b2", "a4->c4", "h8", "g6xf5"]
START = "........./........./........./........./........./........./........./......... ns 36 0 0"


def _saved(moves, flash=None, settings=None):
    flash = flash or VirtualFlash(chunk=16)
    sg = SavedGame(flash)
    sg.save("xobo", {"variant": "xobo"}, 0, START, moves, settings)
    return flash, sg


def test_save_then_load_gives_the_same_game():
    flash, sg = _saved(MOVES[:4], settings={"settle": 1000, "variant": "kv", "neg": -3})
    g = SavedGame(flash).load()
    assert g["game"] == "xobo" and g["params"] == {"variant": "xobo"}
    assert g["first"] == 0 and g["start"] == START
    assert g["moves"] == MOVES[:4]
    assert g["settings"] == {"settle": 1000, "variant": "kv", "neg": -3}


def test_nothing_saved_loads_none_with_a_note():
    sg = SavedGame(VirtualFlash())
    assert sg.load() is None
    assert "no saved game" in sg.note


def test_a_new_store_continues_after_the_newest_slot():
    flash, sg = _saved([])
    for k in range(1, 6):
        sg.save("xobo", {"variant": "xobo"}, 0, "", MOVES[:k])
    sg2 = SavedGame(flash)  # power-up without load(): must not overwrite the newest
    sg2.save("xobo", {"variant": "xobo"}, 0, "", MOVES[:6])
    assert SavedGame(flash).load()["moves"] == MOVES[:6]


def test_power_cut_at_every_operation_of_a_save_loses_at_most_that_move():
    # how many primitive operations one save takes
    flash, sg = _saved(MOVES[:5])
    before = flash.ops
    sg.save("xobo", {"variant": "xobo"}, 0, START, MOVES[:6])
    total = flash.ops - before
    assert total >= 6  # create, several chunks, close, rename
    for n in range(total + 1):
        flash, sg = _saved(MOVES[:4])
        sg.save("xobo", {"variant": "xobo"}, 0, START, MOVES[:5])
        flash.cut_after(n)
        cut = False
        try:
            sg.save("xobo", {"variant": "xobo"}, 0, START, MOVES[:6])
        except PowerCut:
            cut = True
        assert cut == (n < total), n
        flash.restore_power()
        g = SavedGame(flash).load()  # power-up
        assert g is not None, n
        assert g["moves"] in (MOVES[:5], MOVES[:6]), (n, g["moves"])
        if not cut:
            assert g["moves"] == MOVES[:6]
        # and the board keeps saving after the cut
        sg3 = SavedGame(flash)
        sg3.load()
        sg3.save("xobo", {"variant": "xobo"}, 0, START, MOVES[:7])
        assert SavedGame(flash).load()["moves"] == MOVES[:7], n


def test_power_cut_during_the_very_first_save_leaves_no_game_not_garbage():
    for n in range(8):
        flash = VirtualFlash(chunk=16)
        flash.cut_after(n)
        try:
            SavedGame(flash).save("xobo", {"variant": "xobo"}, 0, "", MOVES[:3])
        except PowerCut:
            pass
        flash.restore_power()
        g = SavedGame(flash).load()
        assert g is None or g["moves"] == MOVES[:3]


def test_a_corrupt_slot_falls_back_to_the_other_and_says_why():
    flash, sg = _saved(MOVES[:2])
    sg.save("xobo", {"variant": "xobo"}, 0, START, MOVES[:3])  # seq 2 -> game.a
    flash.corrupt("game.a", 30)
    sg2 = SavedGame(flash)
    g = sg2.load()
    assert g["moves"] == MOVES[:2]
    assert "game.a: bad checksum" in sg2.note and "resumed game.b" in sg2.note


def test_a_truncated_slot_is_reported_cut_short():
    flash, sg = _saved(MOVES[:2])
    sg.save("xobo", {"variant": "xobo"}, 0, START, MOVES[:3])
    data = flash.files["game.a"]
    flash.files["game.a"] = data[:len(data) - 5]
    sg2 = SavedGame(flash)
    assert sg2.load()["moves"] == MOVES[:2]
    assert "cut short" in sg2.note


def test_both_slots_bad_loads_none_and_names_both():
    flash, sg = _saved(MOVES[:2])
    sg.save("xobo", {"variant": "xobo"}, 0, START, MOVES[:3])
    flash.corrupt("game.a", 5)
    flash.files["game.b"] = bytearray(b"garbage")
    sg2 = SavedGame(flash)
    assert sg2.load() is None
    assert "game.a" in sg2.note and "game.b" in sg2.note


def test_values_that_cannot_be_stored_are_refused_with_a_reason():
    sg = SavedGame(VirtualFlash())
    for args in (("xobo", {}, 0, "a\nb", []), ("xobo", {}, 0, "", ["e5 d4"]),
                 ("xobo", {}, 0, "", [], {"bad key": 1}), ("xobo", {}, 0, "", [], {"k": "x\ny"}),
                 ("x o", {}, 0, "", []), ("xobo", {"bad key": 1}, 0, "", [])):
        try:
            sg.save(*args)
        except ValueError as exc:
            assert str(exc)
        else:
            raise AssertionError("accepted %r" % (args,))
    assert sg.load() is None


def test_settings_round_trip_with_defaults_and_power_cut():
    flash = VirtualFlash(chunk=8)
    st = Settings(flash)
    assert st.load({"brightness": 60}) == {"brightness": 60}
    st.save({"brightness": 30, "hints": "on"})
    flash.cut_after(2)
    try:
        st.save({"brightness": 90, "hints": "off"})
    except PowerCut:
        pass
    flash.restore_power()
    got = Settings(flash).load({"brightness": 60, "level": 2})
    assert got == {"brightness": 30, "hints": "on", "level": 2}


def test_adler32_matches_the_reference_value():
    assert adler32(b"Wikipedia") == "11e60398"


def test_power_cut_after_every_byte_of_a_save_loses_at_most_that_move():
    flash, sg = _saved(MOVES[:7])
    sg.save("xobo", {"variant": "xobo"}, 0, START, MOVES[:8])
    new_size = len(flash.files["game.a"])
    size = new_size + 20
    for n in range(size):
        flash, sg = _saved(MOVES[:7])  # seq 1 in game.b
        flash.cut_after_bytes(n)
        cut = False
        try:
            sg.save("xobo", {"variant": "xobo"}, 0, START, MOVES[:8])  # seq 2 -> game.a
        except PowerCut:
            cut = True
        flash.restore_power()
        g = SavedGame(flash).load()
        assert g is not None, n
        # cut while writing the .tmp: the old game; written through: the new one
        assert g["moves"] == (MOVES[:7] if cut else MOVES[:8]), n
        assert cut == (n < new_size), n


def test_binary_garbage_in_a_slot_is_rejected_not_crashing():
    flash, sg = _saved(MOVES[:2])
    flash.files["game.a"] = bytearray(bytes(range(256)) + b"\nend 3 zz\n\xff\xfe\n")
    sg2 = SavedGame(flash)
    assert sg2.load()["moves"] == MOVES[:2]
    assert "game.a:" in sg2.note
    flash.files["game.b"] = bytearray(b"\xff" * 40 + b"\n")
    assert SavedGame(flash).load() is None


def test_the_header_names_the_game_and_its_parameters():
    flash = VirtualFlash()
    SavedGame(flash, "game-x").save("x", {"size": 6}, 2, "", ["c3"])
    g = SavedGame(flash, "game-x").load()
    assert g["game"] == "x" and g["params"] == {"size": 6} and g["first"] == 2
    text = flash.read("game-x.a") or flash.read("game-x.b")
    assert text.startswith(b"xobo-save 1\nseq 1\ngame x\nparam size 6\n")


def test_a_save_from_before_the_games_has_no_game_and_keeps_its_variant():
    # the game is the one whose file it is: the board's only game then (at boot,
    # xobo.runtime.loading.resume; tests/boardapp/test_saved_game_validation.py)
    flash = VirtualFlash()
    body = "xobo-save 1\nseq 3\nvariant kv\nfirst 1\nstart \nmoves e5\n"
    data = body.encode()
    from xobo.runtime.storage import adler32

    flash.write_atomic("game.b", data + ("end %d %s\n" % (len(data), adler32(data))).encode())
    g = SavedGame(flash).load()
    assert g["game"] is None and g["params"] == {"variant": "kv"} and g["moves"] == ["e5"]
