"""One way for a game to name its parts (docs/games.md, "The game's parts"): its package's
``PARTS`` table, each part a module of its folder, reached with ``xobo.games.part``. Once a
game named them four ways: functions (``engine()``, ``board_layer()``, ``computer()``),
strings (``cli_module``, ``record_module``), and files found by name (``lessons.py``,
``host.py``)."""

import ast
import subprocess
from pathlib import Path

import pytest

from xobo import games
from xobo.games import OPTIONAL_PARTS, PARTS, load, package_name, part

ROOT = Path(__file__).resolve().parents[2]
# how a game once named a part: none of these is left
OLD_WAYS = ("engine", "board_layer", "computer", "cli_module", "record_module")


@pytest.mark.parametrize("name", games.GAMES)
def test_every_part_a_game_names_is_a_module_of_its_folder(name):
    game = load(name)
    assert set(game.PARTS) <= set(PARTS), (name, game.PARTS)
    assert set(PARTS) - set(OPTIONAL_PARTS) <= set(game.PARTS), (name, game.PARTS)
    for key in game.PARTS:
        module = part(game, key)
        assert module.__name__ == package_name(name) + "." + game.PARTS[key], (name, key)
        assert part(game, key) is module, (name, key)
        assert Path(module.__file__).resolve().is_relative_to(
            Path(games.__file__).parent / package_name(name).split(".")[-1]), module.__file__


@pytest.mark.parametrize("name", games.GAMES)
def test_a_game_names_its_parts_only_in_its_table(name):
    game = load(name)
    for key in game.PARTS:
        part(game, key)  # (an imported submodule is an attribute of the package: not these)
    left = [attr for attr in OLD_WAYS if hasattr(game, attr)]
    assert not left, "%s still names parts by %s" % (name, left)


def test_a_part_the_game_does_not_have_is_an_import_error_saying_so(monkeypatch):
    tiny = load("tiny")
    monkeypatch.delitem(tiny.PARTS, "records")
    with pytest.raises(ImportError, match="tiny has no records part"):
        part(tiny, "records")


def _sources():
    out = subprocess.run(["git", "ls-files", "firmware", "host_tools", "hardware", "tools",
                          "tests"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / f for f in out.split() if f.endswith(".py")]


def _module_names():
    """The module names every game's parts have (``.rules.position``, ``.lessons``, ...)."""
    return {"." + m for name in games.GAMES for m in load(name).PARTS.values()}


def other_ways(tree, modules):
    """(line, what) of every place in ``tree`` that reaches a game's part another way than
    ``part``: a call of an old function, a read of an old string, a part's module name joined
    to a package's name, and ``part`` called with a name no part has."""
    found = []
    ours = any(isinstance(n, ast.ImportFrom) and n.module == "xobo.games" and any(
        a.name == "part" for a in n.names) for n in ast.walk(tree))  # (not a schematic's part)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in OLD_WAYS and not node.args:
            found.append((node.lineno, node.func.attr + "()"))
        elif isinstance(node, ast.Attribute) and node.attr in ("cli_module", "record_module"):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            for side in (node.left, node.right):
                if isinstance(side, ast.Constant) and side.value in modules:
                    found.append((node.lineno, "... + %r" % side.value))
        if isinstance(node, ast.Call) and len(node.args) == 2 and (
                ours and getattr(node.func, "id", None) == "part" or
                isinstance(node.func, ast.Attribute) and node.func.attr == "part" and
                getattr(node.func.value, "id", None) == "games"):
            key = node.args[1]
            if isinstance(key, ast.Constant) and key.value not in PARTS:
                found.append((node.lineno, "part(..., %r)" % key.value))
    return sorted(found)


def test_no_code_reaches_a_games_part_another_way():
    modules = _module_names()
    found = []
    for path in _sources():
        for line, what in other_ways(ast.parse(path.read_text(encoding="utf-8")), modules):
            found.append("%s:%d %s" % (path.relative_to(ROOT), line, what))
    assert not found, "a game's part reached another way than xobo.games.part: %s" % found


def test_the_scan_sees_every_other_way():
    source = "\n".join((
        "from xobo.games import part", "m = game.engine()", "n = pkg.cli_module",
        "l = __import__(game.__name__ + '.lessons')", "h = package_name(name) + '.host'",
        "r = part(game, 'rules')", "ok = part(game, 'cli')", "s.computer(pos)"))
    found = other_ways(ast.parse(source), _module_names())
    assert found == [(2, "engine()"), (3, "cli_module"), (4, "... + '.lessons'"),
                     (5, "... + '.host'"), (6, "part(..., 'rules')")], found
