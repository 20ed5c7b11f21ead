"""The session owns its state: every field of the firmware's ``App`` is declared, with what it
is, in ``App.__init__`` (a reader finds them all in one place, and no module adds one the app
does not know of); a game's parts are made by ``xobo.runtime.loading`` and installed by the
app (``App.install_game``), never assigned into it field by field."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware" / "xobo"
APP = FIRMWARE / "runtime" / "app.py"


def _app_class():
    tree = ast.parse(APP.read_text(encoding="utf-8"))
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "App")


def _method(cls, name):
    return next(f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == name)


def _stores(tree, owner):
    """{field: [line]} of every ``owner.field = ...`` (and ``+=``, ``|=``) in ``tree``."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                isinstance(node.value, ast.Name) and node.value.id == owner:
            out.setdefault(node.attr, []).append(node.lineno)
    return out


def declared():
    return set(_stores(_method(_app_class(), "__init__"), "self"))


def test_every_field_the_firmware_gives_the_app_is_declared_in_its_init():
    fields = declared()
    assert {"pos", "inf", "game", "settings", "note"} <= fields, fields
    missing = []
    for path in sorted(FIRMWARE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        stores = _stores(_app_class(), "self") if path == APP else _stores(tree, "app")
        for field, lines in stores.items():
            if field not in fields:
                missing.append("%s:%d app.%s" % (path.relative_to(ROOT), lines[0], field))
    assert not missing, "fields not declared in App.__init__: %s" % missing


def test_loading_a_game_makes_its_parts_and_the_app_installs_them():
    installed = set(_stores(_method(_app_class(), "install_game"), "self"))
    assert {"game", "rules", "inf", "layers", "light", "n", "n_width"} <= installed
    loading = ast.parse((FIRMWARE / "runtime" / "loading.py").read_text(encoding="utf-8"))
    assigned = set(_stores(loading, "app")) & installed
    assert not assigned, "loading assigns the game's parts into the app: %s" % sorted(assigned)


def test_a_field_added_elsewhere_is_found():
    tree = ast.parse("def f(app):\n    app.pos = None\n    app.extra = 1\n    app.n += 1\n")
    assert sorted(_stores(tree, "app")) == ["extra", "n", "pos"]
