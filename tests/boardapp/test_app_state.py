"""The session owns its state: every field of the firmware's ``App`` is declared, with what it
is, in ``App.__init__`` (a reader finds them all in one place, and no module adds one the app
does not know of); only the app assigns them. Loading a game makes its parts and the game in
progress (``xobo.runtime.loading.GameParts``, its fields declared once) and the app installs
them (``App.install_game``); the other modules ask the app (``resign``, ``show_hint``,
``set_mode``...), never assign into it field by field."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware" / "xobo"
APP = FIRMWARE / "runtime" / "app.py"
LOADING = FIRMWARE / "runtime" / "loading.py"


def _class(path, name):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)


def _method(cls, name):
    return next(f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == name)


def _is_app(node):
    """``app``, ``self.app``, ``board.app``...: an expression that names the app."""
    return isinstance(node, ast.Name) and node.id == "app" or \
        isinstance(node, ast.Attribute) and node.attr == "app"


def _stores(tree, owner):
    """{field: [line]} of every ``owner.field = ...`` (and ``+=``, ``|=``) in ``tree``;
    ``owner`` None: every expression that names the app (``_is_app``)."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and (
                _is_app(node.value) if owner is None else
                isinstance(node.value, ast.Name) and node.value.id == owner):
            out.setdefault(node.attr, []).append(node.lineno)
        elif owner is None and isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "setattr" and node.args and _is_app(node.args[0]):
            out.setdefault("(setattr)", []).append(node.lineno)
    return out


def _reads(tree, owner):
    """The fields read as ``owner.field`` in ``tree``."""
    return {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and
            isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name) and n.value.id == owner}


def declared():
    return set(_stores(_method(_class(APP, "App"), "__init__"), "self"))


def _firmware():
    for path in sorted(FIRMWARE.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def test_every_field_the_app_gives_itself_is_declared_in_its_init():
    fields = declared()
    assert {"pos", "inf", "game", "settings", "note"} <= fields, fields
    stores = _stores(_class(APP, "App"), "self")
    missing = ["%s:%d app.%s" % (APP.relative_to(ROOT), lines[0], field)
               for field, lines in stores.items() if field not in fields]
    assert not missing, "fields not declared in App.__init__: %s" % missing


def test_no_module_but_the_app_assigns_the_app_s_fields():
    assigned = []
    for path, tree in _firmware():
        if path == APP:
            continue
        for field, lines in _stores(tree, None).items():
            assigned += ["%s:%d app.%s" % (path.relative_to(ROOT), line, field)
                         for line in lines]
    assert not assigned, "the app's fields are the app's to assign (an App method, or " \
        "xobo.runtime.loading's GameParts installed by App.install): %s" % sorted(assigned)


def test_loading_a_game_makes_its_parts_and_the_app_installs_them():
    install = _method(_class(APP, "App"), "install_game")
    installed = set(_stores(install, "self"))
    assert {"game", "rules", "inf", "layers", "light", "n", "n_width", "params", "first",
            "start", "resigned", "saved", "resumed", "note", "fallback"} <= installed
    # every part the load makes is declared once, in GameParts.__init__, and installed
    parts = set(_stores(_method(_class(LOADING, "GameParts"), "__init__"), "self"))
    assert {"game", "rules", "width", "n", "inf", "layers", "light", "pos", "note"} <= parts
    assert _reads(install, "parts") == parts, "declared and not installed: %s; installed " \
        "and not declared: %s" % (sorted(parts - _reads(install, "parts")),
                                  sorted(_reads(install, "parts") - parts))
    outside = set(_stores(_class(LOADING, "GameParts"), "self")) - parts
    assert not outside, "GameParts fields not declared in its __init__: %s" % sorted(outside)


def test_an_assignment_into_the_app_is_found_by_the_scan():
    tree = ast.parse("def f(app, self, vb):\n    app.pos = None\n    app.extra = 1\n"
                     "    app.n += 1\n    self.app.mode = 2\n    vb.app.note = ''\n"
                     "    setattr(app, 'x', 1)\n    self.other.n = 3\n    app.light.hints = 0\n")
    assert sorted(_stores(tree, None)) == ["(setattr)", "extra", "mode", "n", "note", "pos"]
    assert sorted(_stores(tree, "app")) == ["extra", "n", "pos"]
