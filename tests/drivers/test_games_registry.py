"""A game is one folder: the games are found in their folders (a source tree) or in the
registry the build writes from the manifest (the device, the frozen image), in their ORDER."""

from xobo import games
from xobo.games.folders import discover
from xobo_host.device import deploy

# the product's order: XoBo first (the board's default game), the test game last
ORDER = ("xobo", "x", "chain-reaction", "brochs", "tiny")


def test_the_games_are_their_folders_in_the_order_of_their_ORDER():
    assert games.GAMES == ORDER
    assert discover() == (ORDER, {"chain-reaction": "chain_reaction"})
    assert games.package_name("chain-reaction") == "xobo.games.chain_reaction"
    assert games.load("chain-reaction").NAME == "chain-reaction"


def test_adding_a_game_is_adding_its_folder(tmp_path, monkeypatch):
    # a copy of the test game under another name, in a folder of its own beside nothing else
    src = deploy.PACKAGE_DIR / "games" / "tiny" / "__init__.py"
    (tmp_path / "tiny_copy").mkdir()
    text = src.read_text().replace('NAME = "tiny"', 'NAME = "tiny-copy"')
    (tmp_path / "tiny_copy" / "__init__.py").write_text(text)
    (tmp_path / "notes.txt").write_text("not a game")
    (tmp_path / "empty").mkdir()  # a folder that is no package
    monkeypatch.setattr(games, "__path__", list(games.__path__) + [str(tmp_path)])
    assert discover(str(tmp_path)) == (("tiny-copy",), {"tiny-copy": "tiny_copy"})


def test_the_registry_names_the_manifests_games_in_their_order():
    ns = {}
    exec(deploy.registry_text(deploy.read_manifest()), ns)
    assert ns["GAMES"] == ORDER
    assert ns["PACKAGES"] == {"chain-reaction": "chain_reaction"}
    # a build without a game's folder: the registry leaves it out
    without = [f for f in deploy.read_manifest() if not f.startswith("xobo/games/x/")]
    exec(deploy.registry_text(without), ns)
    assert ns["GAMES"] == ("xobo", "chain-reaction", "brochs", "tiny")


def test_the_device_build_carries_the_registry(tmp_path):
    files = deploy.build(deploy.find_board("pico_gpio"), tmp_path / "b")
    assert "xobo/games/installed.mpy" in files
    assert (tmp_path / "b" / "xobo" / "games" / "installed.mpy").is_file()
    assert not (tmp_path / "b" / "xobo" / "games" / "folders.mpy").exists()  # host only


def test_the_image_freezes_the_registry_it_generates(tmp_path):
    from xobo_host.device import firmware

    path = firmware.write_registry_module(tmp_path)
    assert path == tmp_path / "xobo" / "games" / "installed.py"
    ns = {}
    exec(path.read_text(), ns)
    assert ns["GAMES"] == ORDER
