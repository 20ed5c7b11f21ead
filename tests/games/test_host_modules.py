"""Each game's host module (``xobo.games.<name>.host`` through ``xobo.hostkit``): the hands of
every move carry it out on the pieces, and the simulator reads a game's pieces, drawing and
records from it, knowing no game's name (issue 20: a game is one folder)."""

import random
from pathlib import Path

import pytest

from xobo import games, hostkit

GAMES = games.available()


def _play_hands(heights, hands):
    """The pieces on each cell after the hand actions (a lift puts the pieces in the hand)."""
    counts = bytearray(heights)
    for what, g, n in hands:
        if what == "put":
            counts[g] += 1
        elif what == "lift":
            counts[g] = 0
        else:
            assert what == "take" and 1 <= n <= counts[g], (what, g, n, counts[g])
            counts[g] -= n
    return counts


@pytest.mark.parametrize("name", GAMES)
def test_the_hands_of_random_moves_leave_the_pieces_of_the_position_after(name):
    game = games.load(name)
    kit = hostkit.of(name)
    rng = random.Random(5)
    for _ in range(3):
        pos = game.new_position(game.DEFAULTS)
        while not pos.is_terminal() and pos.ply < 80:
            m = rng.choice(pos.legal_actions())
            after = pos.clone()
            after.apply(m)
            got = _play_hands(pos.heights, kit.hands(pos, m))
            assert bytes(got) == bytes(after.heights), (name, pos.to_string(),
                                                        pos.move_text(m))
            pos.apply(m)


def test_xobo_moves_by_hand_in_every_order_end_alike():
    # a crowded middle game with stacks: every legal move, its spreads in each order
    from xobo.games.xobo.host import hands

    pos = games.load("xobo").parse_position(
        "...1...../..1.3..1./.1...1.../1...1..../...1.3.1./..1....1./.1..1..../"
        "....1...1/..1...... ns 10 2 2", {})
    spreads = 0
    for m in pos.legal_actions():
        after = pos.clone()
        after.apply(m)
        for order in ("late", "early", "cube"):
            assert bytes(_play_hands(pos.heights, hands(pos, m, order))) == bytes(after.heights)
        spreads += (m & 3) == 2
    assert spreads > 3


def test_a_game_without_a_host_module_gets_the_defaults(monkeypatch):
    monkeypatch.setattr(hostkit, "_KITS", {})
    kit = hostkit.HostKit("tiny", None)
    assert (kit.PIECES, kit.PIECE_WORD, kit.CELL_HOLDS, kit.draw) == (None, "pieces", None, None)
    assert kit.hands is hostkit.footprint_hands
    game = games.load("tiny")
    rec = __import__("xobo.games.tiny.record", None, None, ["x"]).parse_record(
        '[First "o"]\n\n1. b2\n')
    assert kit.record_settings(rec) == {"first": "o"}
    assert hostkit.of("xobo").PIECES == 36 and game.NAME == "tiny"


def _named_games(path):
    """The games a module names in its code: a game's name as a whole string (not a path's
    directory, ``os.path.join(base, "xobo")``: the program's), or an import of a game's
    package."""
    import ast

    tree = ast.parse(path.read_text())
    names = set(games.GAMES)
    packages = set(games.package_name(g) for g in games.GAMES)
    joins = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "join":
            joins.update(id(a) for a in node.args)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            joins.update((id(node.left), id(node.right)))  # a path: FIRMWARE_DIR / "xobo"
    # a one-letter name is a word of its own too ({"x": 3, "y": 4}): that one only when it is
    # compared with, or a default
    chosen = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            chosen.update(id(c) for c in [node.left] + node.comparators)
        elif isinstance(node, ast.arguments):
            chosen.update(id(d) for d in node.defaults + node.kw_defaults if d is not None)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(
                node.func, "id", "")) in ("of", "load", "package_name"):
            chosen.update(id(a) for a in node.args)  # hostkit.of("x"), games.load("x")
    for node in ast.walk(tree):  # the program's name: its command line's (prog="xobo")
        if isinstance(node, ast.keyword) and node.arg == "prog":
            joins.add(id(node.value))
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and node.value in names and id(node) not in joins
                and (len(node.value) > 1 or id(node) in chosen)):
            found.append("%r (line %d)" % (node.value, node.lineno))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and any(
                node.value == p or node.value.startswith(p + ".") for p in packages):
            found.append("%r (line %d)" % (node.value, node.lineno))  # python -m a game's
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                node.module or ""]
            found += [m for m in mods if any(m == p or m.startswith(p + ".") for p in packages)]
    return found


ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
# every host module: the tools, the simulator, match, the games database, the monitor, the
# benches, the device check, the café, the hardware's outputs (a new one is checked too)
# and the board's runtime (a board without settings plays the first game in ORDER)
TOOLS = sorted(str(p.relative_to(ROOT))
               for top in ("host_tools/xobo_host", "hardware", "firmware/xobo/runtime")
               for p in (ROOT / top).rglob("*.py"))
# the modules that may name a game, and why (none: each game's host module says what the
# tools need of it, xobo.hostkit)
NAMING = {}


@pytest.mark.parametrize("rel", TOOLS)
def test_the_simulator_and_the_tools_name_no_game(rel):
    # the simulator, match, the games database, the monitor, the benches, the device check,
    # the diagrams, the piece sets and the overlays ask the games (xobo.games, their host
    # modules): adding a game is adding a folder. gamesdb's LEGACY_GAME is the game of the
    # files written when the database knew one game.
    found = _named_games(ROOT / rel)
    if rel.endswith("gamesdb.py"):
        from xobo_host.records.gamesdb import LEGACY_GAME

        assert len([f for f in found if f.startswith(repr(LEGACY_GAME))]) == 1, found
        found = [f for f in found if not f.startswith(repr(LEGACY_GAME))]
    if rel in NAMING:
        assert found, "%s names no game any more: take it off NAMING" % rel
        return
    assert not found, "%s names %s" % (rel, found)


def test_the_check_for_a_game_s_name_finds_one():
    # the checker itself: a name compared with, a game's module run or imported
    import tempfile
    from pathlib import Path

    text = ('import xobo.games.tiny.rules\nfrom xobo.games.x import host\n'
            'if name == "x": pass\nARGS = ["-m", "xobo.games.xobo.ai.bench"]\n'
            'PATH = ROOT / "xobo"\nprint({"x": 1}, prog="xobo")\nhostkit.of("x")\n')
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "tool.py"
        path.write_text(text)
        found = _named_games(path)
    assert found == ["xobo.games.tiny.rules", "xobo.games.x", "'x' (line 3)",
                     "'xobo.games.xobo.ai.bench' (line 4)", "'x' (line 7)"], found


@pytest.mark.parametrize("rel", ["sim/static/sim.js", "sim/static/board.js",
                                 "sim/static/sim.css", "sim/static/index.html",
                                 "cafe/static/miniature.js", "cafe/static/cafe.js",
                                 "cafe/static/cafe.css", "cafe/static/floor.html",
                                 "cafe/static/table.html"])
def test_the_simulator_page_names_no_game(rel):
    # the page's words, drawing and styles of a game come from its host module through the
    # backend (sim/backend.py: game_drawing, page_words; the café's miniatures draw the same
    # drawing): a game's name in quotes, as an object key or in a selector is a per-game list
    import re

    path = ROOT / "host_tools/xobo_host" / rel
    text = re.sub(r"/\*.*?\*/|(?<![:\w])//[^\n]*|<!--.*?-->", "", path.read_text(),
                  flags=re.S)  # the comments may speak of games
    found = []
    for g in games.GAMES:
        patterns = [r"""["']%s["']""", r"data-%s-"]
        if len(g) > 1:  # a one-letter key is a coordinate ({x: 1, y: 2}), not a game
            patterns.append(r"[{,]\s*%s\s*:")
        for pattern in patterns:
            found += re.findall(pattern % re.escape(g), text)
    assert not found, "%s names %s" % (rel, found)


@pytest.mark.parametrize("name", ["tiny", "x"])
def test_the_simulator_replays_a_record_of_another_game(name, tmp_path):
    from xobo_host.sim.backend import SimBackend, make_virtual_board

    backend = SimBackend(make_virtual_board(flash_dir=str(tmp_path)))
    assert backend.action({"action": "game", "name": name})["ok"]
    game = games.load(name)
    pos = game.new_position(dict(game.DEFAULTS, size=5) if name == "x" else game.DEFAULTS)
    rng = random.Random(1)
    for _ in range(4):
        pos.apply(rng.choice(pos.legal_actions()))
    text = game.record_text(pos)
    reply = backend.action({"action": "load", "text": text})
    assert reply["ok"] and reply["moves"] == 4, reply
    app = backend.board.app
    assert app.pos.to_string() == pos.to_string()
    if name == "x":  # the record's size for the replay only: the user's setting is kept
        assert app.settings["size"] == game.DEFAULTS["size"]
    bad = backend.action({"action": "load", "text": text.replace("\n1.", "\n1. zz")})
    assert bad["ok"] is False and bad["error"].startswith("record: ")


@pytest.fixture
def sixth_game(tmp_path, monkeypatch):
    """A sixth game: a copy of the test game's folder under the name ``sixth``, found as a
    folder is (docs/games.md, "How to add a game"); no tool is told of it."""
    import shutil
    import sys

    from xobo.games.folders import discover

    src = Path(games.__file__).parent / "tiny"
    dst = tmp_path / "sixth"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
    for f in dst.glob("*.py"):
        text = f.read_text().replace("xobo.games.tiny", "xobo.games.sixth")
        f.write_text(text.replace('NAME = "tiny"', 'NAME = "sixth"').replace(
            "ORDER = 9 ", "ORDER = 8 "))
    monkeypatch.setattr(games, "__path__", list(games.__path__) + [str(tmp_path)])
    names, packages = discover(str(tmp_path))
    assert names == ("sixth",)
    monkeypatch.setattr(games, "GAMES", games.GAMES[:-1] + names + games.GAMES[-1:])
    monkeypatch.setattr(hostkit, "_KITS", {})
    from hardware.conftest import load_hardware

    pieces = load_hardware("pieces")
    pieces.game_sets.cache_clear()  # (the piece sets of the games found: the sixth's too)
    yield "sixth"
    for name in [m for m in sys.modules if m.startswith("xobo.games.sixth")]:
        del sys.modules[name]
    pieces.game_sets.cache_clear()  # a later test of this process sees the five games again


def test_a_sixth_game_s_folder_is_enough_for_the_tools(sixth_game, tmp_path):
    # adding a game is adding a folder: the simulator plays it and replays its record, the
    # games database records it, the device check, the overlays, the piece sets and the
    # benches take it, and none of them was told its name
    from hardware.conftest import load_hardware  # (the repo's hardware/: xobo_hardware)

    from xobo_host.bench import ai as bench_ai
    from xobo_host.bench import run as bench
    from xobo_host.device.picocheck import check
    from xobo_host.records import gamerecords
    from xobo_host.sim.backend import SimBackend, make_virtual_board

    name = sixth_game
    game = games.load(name)
    assert game.NAME == name and hostkit.of(name).module.__name__ == "xobo.games.sixth.host"
    backend = SimBackend(make_virtual_board(flash_dir=str(tmp_path / "flash")))
    assert backend.action({"action": "game", "name": name})["ok"]
    assert backend.board.app.settings["game"] == name
    pos = game.new_position(game.DEFAULTS)
    for m in pos.legal_actions()[:1]:
        pos.apply(m)
    text = game.record_text(pos)
    reply = backend.action({"action": "load", "text": text})
    assert reply["ok"] and reply["moves"] == 1, reply
    assert gamerecords.read_record(name, text).moves
    assert ("sixth_overlay.svg", name, "9x9", {}) in load_hardware("overlay").overlays()
    assert name in load_hardware("pieces").game_sets("9x9")
    board = __import__("json").loads(
        (Path(check.deploy.BOARDS_DIR) / "pico_gpio.json").read_text())
    assert name in check.Check(None, board, print).game_order()
    assert name not in [g for g, _t, _m in bench.rules_kernels() + bench_ai.ai_kernels()]
