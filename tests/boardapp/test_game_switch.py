# dual-runtime
"""A game is switched completely or not at all (issue 18): a game that does not fit the
board's grid is refused with its reason and nothing changes; the ok-hold gesture at the start
of a game goes round the games that fit; any failure while switching puts the game that was
playing back, whole; a saved setting naming a game that cannot run here boots into XoBo with
a note saying why (never a boot loop)."""

from boardapp.gamekit import game_board, play, settle, sync
from xobo.runtime.storage import Settings
from xobo.runtime.virtual_board import VirtualBoard


def _xobo_two_moves():
    vb = game_board("xobo")
    play(vb, "e5")
    play(vb, "d4")
    return vb


def _same_board(vb, position, settings=None):
    """The board plays XoBo at ``position`` (with ``settings``), its light and inference
    working, and it keeps doing so after a power cut."""
    app = vb.app
    assert app.settings["game"] == "xobo"
    if settings is not None:
        assert app.settings == settings
    assert app.game.NAME == "xobo" and app.layers.__class__.__module__.endswith("xobo.board")
    assert app.game_params() == {"variant": "xobo"}
    assert app.pos.to_string() == position
    assert app.n == 81 and app.place.width == 9
    vb.advance(200)  # a light cycle and a scan: nothing half-made is left to crash them
    assert app.inf.state_name() == "match"
    assert vb.command("position") == ["ok " + position]
    vb.power_cut()
    assert vb.app.settings["game"] == "xobo", vb.app.note
    assert vb.app.pos.to_string() == position
    vb.advance(200)


def test_a_game_that_does_not_fit_is_refused_with_its_reason_and_nothing_changes():
    vb = _xobo_two_moves()
    before = vb.app.pos.to_string()
    assert vb.command("set game brochs") == [
        "error brochs needs a 15x15 board; this board is 9x9"]
    assert vb.command("set brightness 50")[0] == "ok brightness 50"  # settings saved again
    _same_board(vb, before)


def test_the_game_gesture_goes_round_the_games_that_fit_the_9x9_board():
    vb = VirtualBoard(settings={"settle": 200})
    vb.advance(50)
    seen = []
    for _ in range(5):
        vb.hold("ok", 1600)
        vb.advance(1700)
        seen.append(vb.app.settings["game"])
        sync(vb)  # the start position's pieces (Chain Reaction's) set out
        vb.set_cubes(bytearray(81))
        vb.set_cubes(vb.app.pos.heights)
        settle(vb)
    assert seen == ["x", "chain-reaction", "tiny", "xobo", "x"], seen


def test_the_game_gesture_reaches_brochs_on_the_15x15_board():
    vb = game_board("chain-reaction", "pico_15x15")
    vb.hold("ok", 1600)
    vb.advance(1700)
    assert vb.app.settings["game"] == "brochs"
    assert vb.app.n == 225


class _Broken:
    """Makes the next call of ``module.name`` raise ``exc`` (a failure while switching: the
    calls after it, the way back's, work), or every call with ``every``."""

    def __init__(self, module, name, exc, every=False):
        self.module = module
        self.name = name
        self.exc = exc
        self.every = every
        self.saved = getattr(module, name)

    def __enter__(self):
        exc = self.exc
        broken = self

        def fail(*args):
            if not broken.every:
                setattr(broken.module, broken.name, broken.saved)
            raise exc("switching failed here")

        setattr(self.module, self.name, fail)
        return self

    def __exit__(self, *args):
        setattr(self.module, self.name, self.saved)
        return False


class _BrokenPart:
    """A game's PARTS whose part ``name`` fails with ``exc`` at every ``xobo.games.part``."""

    def __init__(self, parts, name, exc):
        self.parts = parts
        self.broken = (name, exc)

    def __contains__(self, key):
        return key in self.parts

    def get(self, key, default=None):
        if key == self.broken[0]:
            raise self.broken[1]("switching failed here")
        return self.parts.get(key, default)


def test_any_failure_while_switching_puts_the_game_that_was_playing_back():
    import xobo.games.tiny as tiny
    import xobo.games.tiny.board as tiny_board
    import xobo.runtime.light as light_module

    vb = _xobo_two_moves()
    before = vb.app.pos.to_string()
    settings = dict(vb.app.settings)
    inf = vb.app.inf
    # (each stage of the switch: the new game's light layers, its light, its position)
    for module, name in ((tiny_board, "Layers"), (light_module, "Light"), (tiny, "new_position")):
        for exc in (MemoryError, ImportError, RuntimeError, IndexError):
            with _Broken(module, name, exc):
                reply = vb.command("set game tiny")
            assert len(reply) == 1 and reply[0].startswith("error tiny could not be played ("),\
                reply
            assert reply[0].endswith("switching failed here): still playing xobo"), reply
            assert vb.app.inf is inf or vb.app.inf.state_name() in ("match", "restore")
            _same_board(vb, before, settings)
            inf = vb.app.inf
    # and the game switches when nothing fails
    assert vb.command("set game tiny")[0].startswith("ok game tiny")


def test_a_failed_switch_puts_a_resigned_game_back_resigned():
    import xobo.games.tiny.board as tiny_board

    vb = _xobo_two_moves()
    assert vb.command("resign ns ew") == ["ok resign ew ns-resigned"]
    with _Broken(tiny_board, "Layers", RuntimeError):
        reply = vb.command("set game tiny")
    assert reply[0].startswith("error tiny could not be played ("), reply
    assert vb.app.result_text() == "ew ns-resigned"
    assert vb.command("undo")[0].startswith("error the game is over"), "the game is over"
    vb.power_cut()
    assert vb.app.result_text() == "ew ns-resigned"


def test_a_failure_while_the_gesture_switches_is_said_and_the_game_goes_on():
    import xobo.games.x.board as x_board

    vb = game_board("xobo")
    seen = []
    vb.subscribe(seen.append)
    with _Broken(x_board, "Layers", MemoryError):
        vb.hold("ok", 1600)
        vb.advance(1700)
    assert "event error x could not be played (MemoryError: switching failed here): still " \
        "playing xobo" in seen, seen
    assert vb.app.settings["game"] == "xobo" and vb.app.pos.ply == 0
    play(vb, "e5")
    vb.power_cut()
    assert vb.app.settings["game"] == "xobo" and vb.app.pos.ply == 1


def _boot_with(vb, stored):
    Settings(vb.flash).save(stored)
    vb.power_cut()
    return vb.app.note


def test_a_saved_game_setting_that_does_not_fit_boots_xobo_with_a_note():
    vb = _xobo_two_moves()
    before = vb.app.pos.to_string()
    note = _boot_with(vb, {"game": "brochs", "brightness": 50})
    assert note.startswith("game brochs not playable on this board (brochs needs a 15x15 "
                           "board; this board is 9x9): xobo"), note
    assert vb.app.settings["game"] == "xobo" and vb.app.pos.to_string() == before
    assert vb.app.settings["brightness"] == 50
    vb.advance(200)
    assert vb.command("set brightness 40")[0] == "ok brightness 40"
    vb.power_cut()  # the settings on flash now say xobo: no note any more
    assert vb.app.note.startswith("resumed game"), vb.app.note


def test_a_saved_game_setting_naming_no_game_boots_xobo_with_a_note():
    vb = _xobo_two_moves()
    note = _boot_with(vb, {"game": "chess"})
    assert note.startswith("game chess not playable on this board (ValueError: unknown game "
                           "'chess'"), note
    assert vb.app.settings["game"] == "xobo"
    vb.advance(200)


def test_a_saved_game_setting_whose_game_does_not_import_boots_xobo_with_a_note():
    import xobo.games.tiny as tiny

    vb = _xobo_two_moves()
    before = vb.app.pos.to_string()
    for exc in (ImportError, MemoryError):
        parts = tiny.PARTS
        tiny.PARTS = _BrokenPart(parts, "engine", exc)
        try:
            note = _boot_with(vb, {"game": "tiny"})
        finally:
            tiny.PARTS = parts
        assert note.startswith("game tiny not playable on this board (%s: switching failed "
                               "here): xobo" % exc.__name__), note
        assert vb.app.settings["game"] == "xobo" and vb.app.pos.to_string() == before
        vb.advance(200)
