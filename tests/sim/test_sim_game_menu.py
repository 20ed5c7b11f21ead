"""The simulator's game menu offers only the games that fit the board's grid, a game that
does not fit is refused with the board's reason, and a switch that fails puts the game that
was playing back: the simulator goes on answering (issue 18: choosing Brochs on the 9 x 9
page left every action answering 500, and a saved setting stopped the simulator's start)."""

from sim.simkit import Sim
from xobo.runtime.storage import Settings


def _names(sim):
    return [g["name"] for g in sim.state()["games"]]


def test_the_menu_offers_the_games_that_fit_the_9x9_board(tmp_path):
    sim = Sim(tmp_path / "flash")
    try:
        assert _names(sim) == ["xobo", "x", "chain-reaction", "tiny"]
        err = sim.post({"action": "game", "name": "brochs"}, expect=400)["error"]
        assert err == ("brochs needs a 15x15 board; this board is 9x9 (this board has: xobo, "
                       "x, chain-reaction, tiny)")
        reply = sim.command("set game brochs")
        assert reply["reply"] == ["error brochs needs a 15x15 board; this board is 9x9"]
        sim.post({"action": "put", "cell": "e5"})  # the board goes on: XoBo's e5
        snap = sim.wait(lambda s: s["state"]["ply"] == 1, what="e5 committed")
        assert snap["state"]["game"] == "xobo" and snap["errors"] == 0
    finally:
        sim.stop()


def test_the_menu_offers_brochs_on_the_15x15_board(tmp_path):
    sim = Sim(tmp_path / "flash", board="pico_15x15")
    try:
        assert _names(sim) == ["xobo", "x", "chain-reaction", "brochs", "tiny"]
    finally:
        sim.stop()


def test_a_switch_that_fails_leaves_the_game_that_was_playing_and_the_simulator_answering(
        tmp_path, monkeypatch):
    import xobo.games.tiny.board as tiny_board

    sim = Sim(tmp_path / "flash")
    try:
        sim.post({"action": "put", "cell": "e5"})
        sim.wait(lambda s: s["state"]["ply"] == 1, what="e5 committed")
        layers = tiny_board.Layers
        calls = []

        def out_of_memory(*args):
            calls.append(1)
            raise MemoryError("memory allocation failed, allocating 4096 bytes")

        monkeypatch.setattr(tiny_board, "Layers", out_of_memory)
        reply = sim.post({"action": "game", "name": "tiny"})
        assert reply["ok"] is False and calls
        assert reply["error"].startswith("tiny could not be played (MemoryError: memory "
                                         "allocation failed"), reply
        assert reply["error"].endswith("still playing xobo")
        monkeypatch.setattr(tiny_board, "Layers", layers)
        snap = sim.state()  # no 500: the board plays XoBo as before
        assert snap["state"]["game"] == "xobo" and snap["state"]["ply"] == 1
        sim.post({"action": "put", "cell": "d4"})
        snap = sim.wait(lambda s: s["state"]["ply"] == 2, what="d4 committed")
        assert snap["errors"] == 0, snap["last_error"]
        sim.post({"action": "game", "name": "tiny"})
        sim.wait(lambda s: s["state"]["game"] == "tiny", what="tiny")
    finally:
        sim.stop()


def test_a_saved_game_setting_that_does_not_fit_starts_the_simulator_in_xobo(tmp_path):
    from xobo.drivers.flash import Flash

    flash = tmp_path / "flash"
    flash.mkdir()
    Settings(Flash(str(flash))).save({"game": "brochs", "brightness": 50})
    sim = Sim(flash)
    try:
        snap = sim.state()
        assert snap["state"]["game"] == "xobo"
        note = sim.backend.board.app.note  # the boot note (event boot)
        assert note.startswith("game brochs not playable on this board (brochs needs a 15x15 "
                               "board; this board is 9x9): xobo"), note
        assert _names(sim) == ["xobo", "x", "chain-reaction", "tiny"]
    finally:
        sim.stop()


def test_the_page_menu_lists_the_games_of_each_board(open_page):
    for board, names in (("pico_gpio", ["xobo", "x", "chain-reaction", "tiny"]),
                         ("pico_15x15", ["xobo", "x", "chain-reaction", "brochs", "tiny"])):
        page = open_page(board)
        page.wait_for_function("document.querySelectorAll('#game-menu option').length > 0")
        shown = page.eval_on_selector_all("#game-menu option", "os => os.map(o => o.value)")
        assert shown == names, (board, shown)
