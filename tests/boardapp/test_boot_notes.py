# dual-runtime
"""Every fallback at power-up says what happened, for every game: in the boot's note (``event
boot``), in serial ``boot`` (for a host that was not listening at power-up: the café), and in
the board's words (``state``'s ``say``, the simulator's page) until the game goes on. Both
save slots damaged once booted a silent "new game" while the storage knew "nothing usable".
The flash is the virtual one but for a slot that is a directory: real files, under /tmp."""

from boardapp.boardkit import Recorder
from xobo.runtime.storage import SavedGame, adler32
from xobo.runtime.virtual_board import VirtualBoard

# (game, board): every game, on a board it fits
GAMES = (("xobo", "pico_gpio"), ("x", "pico_gpio"), ("chain-reaction", "pico_gpio"),
         ("tiny", "pico_gpio"), ("brochs", "pico_15x15"))


def _played(game, board, plies):
    """A board playing ``game`` with ``plies`` moves played (host moves the pieces follow)."""
    vb = VirtualBoard(board=board, settings={"game": game, "settle": 200})
    app = vb.app
    vb.set_cubes(app.pos.heights)
    vb.advance(50)
    for _ in range(plies):
        pos = app.pos
        m = _a_move_the_pieces_play(pos)
        after = pos.clone()
        after.apply(m)
        reply = vb.command("move " + pos.move_text(m))
        assert reply[0].startswith("ok move"), reply
        vb.set_cubes(after.heights)
        vb.advance(40)
        vb.press("ok")
        vb.advance(40)
        vb.release("ok")
        vb.advance(700)
        assert app.pos.ply == after.ply, (game, app.inf.state_name())
    return vb


def _a_move_the_pieces_play(pos):
    for m in pos.legal_actions():
        text = pos.move_text(m)
        if text[0] != "(" and text != "--" and text[0] != "!":
            return m
    raise AssertionError("no move the pieces play")


def _slots(vb):
    return (vb.app.saved.file.slots())


def _newest_first(vb):
    """The two slot names, the newest save's first."""
    a, b = _slots(vb)

    def seq(name):
        data = vb.flash.read(name)
        return int(bytes(data).split(b"\n")[1].split()[1]) if data else -1

    return (a, b) if seq(a) > seq(b) else (b, a)


def _boot(vb):
    rec = Recorder(vb)
    vb.power_cut()
    boots = [x for x in rec.lines if x.startswith("event boot ")]
    assert len(boots) == 1, rec.lines
    return boots[0][len("event boot "):]


def _said(vb):
    """The board's words (``state``'s ``say``)."""
    line = vb.command("state")[0]
    k = line.find(" say ")
    return line[k + 5:] if k >= 0 else ""


def _check_told(vb, note, fallback=True):
    """``note`` is said everywhere: ``boot``, and the words until the game goes on."""
    assert vb.command("boot") == ["ok boot %s %s" % ("fallback" if fallback else "normal",
                                                     note)]
    if fallback:
        assert _said(vb).startswith("at power-up: " + note), _said(vb)
    else:
        assert "at power-up" not in _said(vb)


def test_every_game_says_both_slots_damaged_and_the_new_game():
    for game, board in GAMES:
        vb = _played(game, board, 2)
        a, b = _slots(vb)
        for slot in (a, b):
            vb.flash.corrupt(slot, -20)  # a bit flipped in the moves: bad checksum
        note = _boot(vb)
        assert vb.app.pos.ply == 0, (game, note)
        assert note == "saved game not resumed: %s: bad checksum; %s: bad checksum; new game" \
            % (a, b), (game, note)
        _check_told(vb, note)


def test_every_game_says_an_unreadable_slot_and_the_older_save_it_resumed():
    for game, board in GAMES:
        vb = _played(game, board, 2)
        newest, older = _newest_first(vb)
        vb.flash.make_unreadable(newest, "an I/O error")
        note = _boot(vb)
        assert vb.app.pos.ply == 1, (game, note)
        assert note == "resumed game: 1 moves (the other save was damaged: unreadable: an I/O " \
            "error; the last move may be lost)", (game, note)
        _check_told(vb, note)


def test_every_game_says_a_newer_save_it_could_not_replay():
    for game, board in GAMES:
        vb = _played(game, board, 2)
        newest, older = _newest_first(vb)
        g = vb.app.saved.load()
        text = "q0"  # no move in any game
        # the newest save, checksum-valid, with a move no game has
        SavedGame(vb.flash, vb.app.saved.file.name).save(
            game, g["params"], g["first"], g["start"], list(g["moves"]) + [text])
        note = _boot(vb)
        assert vb.app.pos.ply == 2, (game, note)
        assert note.startswith("saved game not resumed: %s (seq " % older), (game, note)
        assert "move 3 '%s' is not legal there" % text in note, (game, note)
        assert note.endswith("; resumed game: 2 moves"), (game, note)
        _check_told(vb, note)


def test_a_save_of_no_lines_names_what_it_lacks_instead_of_a_game_of_none():
    for game, board in GAMES:
        vb = _played(game, board, 2)
        newest, older = _newest_first(vb)
        data = b"xobo-save 1\nseq 99\n"  # checksum-valid, newest, and nothing else
        vb.flash.write_atomic(older, data + ("end %d %s\n" % (len(data), adler32(data)))
                              .encode())
        note = _boot(vb)
        assert "None" not in note, (game, note)
        assert vb.app.pos.ply == 2, (game, note)
        why = "has no start position or no move list" if game == "xobo" else \
            "names no game (no game line)"
        assert note == "saved game not resumed: %s (seq 99) %s; resumed game: 2 moves" % (
            older, why), (game, note)
        _check_told(vb, note)


def test_every_game_says_a_saved_setting_it_could_not_use_and_the_default_it_used():
    from xobo.runtime.storage import Settings

    for game, board in GAMES:
        vb = _played(game, board, 2)
        app = vb.app
        level = app.game.DEFAULT_LEVEL
        levels = "|".join(app.game.LEVELS)
        stored = dict(app.stored)
        stored["brightness"] = "bright"
        stored[game + ".level"] = "nosuch"
        Settings(vb.flash).save(stored)
        note = _boot(vb)
        assert note == "setting brightness not usable (brightness must be a whole number " \
            "0-100, not 'bright'): 60; setting level not usable (level must be one of %s, " \
            "not 'nosuch'): %s; resumed game: 2 moves" % (levels, level), (game, note)
        _check_told(vb, note)
        assert app.settings["brightness"] == 60 and app.settings["level"] == level
        assert vb.app.pos.ply == 2
        # the next setting saved writes the defaults used: the boot after has nothing to say
        vb.set_cubes(vb.app.pos.heights)
        vb.advance(100)
        assert vb.command("set hints off")[0] == "ok hints off"
        note = _boot(vb)
        assert note == "resumed game: 2 moves", (game, note)
        _check_told(vb, note, fallback=False)


def test_a_saved_setting_not_usable_is_said_after_the_saved_game_setting_that_fell_back():
    from xobo.runtime.storage import Settings

    vb = _played("xobo", "pico_gpio", 1)
    Settings(vb.flash).save({"game": "chess", "settle": 99})
    note = _boot(vb)
    assert note.startswith("game chess not playable on this board (ValueError: unknown game "
                           "'chess'"), note
    assert "): xobo; setting settle not usable (settle must be 200-5000, not 99): 1000; " \
        "resumed game: 1 moves" in note, note
    _check_told(vb, note)


def test_a_boot_that_resumed_its_newest_save_says_so_and_nothing_more():
    vb = _played("xobo", "pico_gpio", 2)
    note = _boot(vb)
    assert note == "resumed game: 2 moves"
    _check_told(vb, note, fallback=False)
    fresh = VirtualBoard()
    assert fresh.command("boot") == ["ok boot normal new game"]
    assert fresh.command("boot now")[0].startswith("error boot takes no argument")


def test_the_fallback_note_is_said_until_the_game_goes_on_and_kept_for_boot():
    vb = _played("xobo", "pico_gpio", 2)
    for slot in _slots(vb):
        vb.flash.corrupt(slot, -20)
    note = _boot(vb)
    app = vb.app
    vb.set_cubes(app.pos.heights)  # the board cleared: the new game's start
    vb.advance(100)
    assert _said(vb) == "at power-up: " + note
    assert vb.command("move e5")[0] == "ok move e5 waiting for the cubes"
    assert _said(vb).startswith("at power-up: %s. the host plays e5" % note), _said(vb)
    after = app.pos.clone()
    after.apply(app.pending)
    vb.set_cubes(after.heights)
    vb.advance(1500)
    assert app.pos.ply == 1
    assert "at power-up" not in _said(vb)  # the game went on
    assert vb.command("boot") == ["ok boot fallback " + note]  # kept until the next boot


def test_every_game_says_a_sequence_number_no_board_writes_and_uses_the_other_slot():
    for game, board in GAMES:
        vb = _played(game, board, 2)
        newest, older = _newest_first(vb)
        data = bytearray(vb.flash.read(newest))
        k = data.find(b"\nseq ") + 5
        j = data.find(b"\n", k)
        body = bytes(data[:k]) + b"1" + b"0" * 30 + bytes(data[j:data.rfind(b"end ")])
        vb.flash.write_atomic(newest, body + ("end %d %s\n" % (len(body), adler32(body)))
                              .encode())
        note = _boot(vb)
        assert vb.app.pos.ply == 1, (game, note)
        assert note == "resumed game: 1 moves (the other save was damaged: a sequence number " \
            "of 31 digits, larger than any this board writes; the last move may be lost)", \
            (game, note)
        _check_told(vb, note)


def _temporary_directory():
    import os
    import time

    path = "/tmp/xobo-boot-notes-%d" % time.time_ns()
    os.mkdir(path)
    return path


def _remove(path):
    import os

    for name in os.listdir(path):
        sub = path + "/" + name
        try:
            os.remove(sub)
        except OSError:
            _remove(sub)
    os.rmdir(path)


def test_a_slot_that_is_a_directory_is_said_unreadable_never_taken_for_missing():
    import os

    root = _temporary_directory()
    try:
        vb = VirtualBoard(flash_dir=root + "/flash")
        vb.advance(50)
        for text in ("e5", "d4"):
            assert vb.command("move " + text)[0].startswith("ok move")
            after = vb.app.pos.clone()
            after.apply(vb.app.pending)
            vb.set_cubes(after.heights)
            vb.advance(1500)
        assert vb.app.pos.ply == 2
        newest, older = _newest_first(vb)
        os.remove(root + "/flash/" + newest)
        os.mkdir(root + "/flash/" + newest)  # a directory where the newest save was
        note = _boot(vb)
        assert vb.app.pos.ply == 1, note
        assert note == "resumed game: 1 moves (the other save was damaged: unreadable: not a " \
            "file (a directory); the last move may be lost)", note
        _check_told(vb, note)
        vb.set_cubes(vb.app.pos.heights)  # and the next save replaces the directory
        vb.advance(100)
        assert vb.command("move c3")[0].startswith("ok move")
        after = vb.app.pos.clone()
        after.apply(vb.app.pending)
        vb.set_cubes(after.heights)
        vb.advance(1500)
        assert vb.app.pos.ply == 2
        vb.power_cut()
        assert vb.app.pos.ply == 2 and vb.command("boot") == ["ok boot normal resumed game: 2 "
                                                              "moves"]
    finally:
        _remove(root)
