"""An error speaks for the game that raised it: a rule number in an error's message is one of
that game's own rules (its page, docs/rules/<name>.md), and code every game runs (the runtime,
the errors, the game kit) cites no game's rule.

Once ``xobo.errors`` cited XoBo's N3 and B5 for errors every game raises, and serial ``load``
answered any game with XoBo's position notation (N3)."""

import ast
import re
from pathlib import Path

from xobo import games

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware" / "xobo"
RULES = ROOT / "docs" / "rules"
# a rule is defined where its page writes its number in bold: "- **XB1** ..."
DEFINED = re.compile(r"\*\*([A-Z]{1,2}[1-9][0-9]?)[a-z]?\b")
WORD = re.compile(r"\b([A-Z]{1,2}[1-9][0-9]?)[a-z]?(?![0-9A-Za-z])")
RANGE = re.compile(r"\b([A-Z]{1,2})([1-9])[-\u2013]\1?([1-9])\b")


def _rules_of_every_game():
    """{game name: the rule numbers its page defines}."""
    out = {}
    for name in games.GAMES:
        page = RULES / (name + ".md")
        out[name] = set(DEFINED.findall(page.read_text(encoding="utf-8")))
    return out


RULES_OF = _rules_of_every_game()
EVERY_RULE = set().union(*RULES_OF.values())


def _game_of(path):
    """The game whose folder holds ``path``, or None (code every game runs)."""
    rel = path.relative_to(FIRMWARE).parts
    if rel[0] != "games" or len(rel) < 3:
        return None
    for name in games.GAMES:
        if games.package_name(name) == "xobo.games." + rel[1]:
            return name
    return None


def _is_error(call):
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
    return name.endswith("Error")


def _messages(tree):
    """(line, text) of every string constant in a ``raise`` or in a call of an error class."""
    found = {}  # (a raise of a call of an error class: each constant once)
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None or \
                isinstance(node, ast.Call) and _is_error(node):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    found[id(sub)] = (sub.lineno, sub.col_offset, sub.value)
    return [(line, text) for line, _col, text in sorted(found.values())]


def cited_rules(text):
    """The rule numbers of any game cited in ``text`` ("BC1-BC4" cites four)."""
    found = set(w for w in WORD.findall(text) if w in EVERY_RULE)
    for family, lo, hi in RANGE.findall(text):
        found.update("%s%d" % (family, n) for n in range(int(lo), int(hi) + 1))
    return found


def errors_citing_rules():
    """[(file, line, game or None, rule)] of every rule cited in an error of the firmware."""
    out = []
    for path in sorted(FIRMWARE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        game = _game_of(path)
        for line, text in _messages(tree):
            for rule in sorted(cited_rules(text)):
                out.append((str(path.relative_to(ROOT)), line, game, rule))
    return out


def test_the_rule_an_error_cites_is_a_rule_of_the_game_that_raises_it():
    cited = errors_citing_rules()
    # every game's errors cite its rules: the scan finds them
    assert {game for _, _, game, _ in cited} >= set(games.GAMES), cited
    wrong = [c for c in cited if c[2] is None or c[3] not in RULES_OF[c[2]]]
    assert not wrong, "errors citing a rule that is not their game's (file, line, game, " \
        "rule): %s" % wrong


def test_the_scan_sees_a_rule_of_another_game_and_a_range():
    assert cited_rules("a position breaks B5 (N3)") == {"B5", "N3"}
    assert cited_rules("'x' captures y, not z (BC1-BC4)") == {"BC1", "BC2", "BC3", "BC4"}
    assert cited_rules("not an rp2 pin name like GP5") == set()
    tree = ast.parse("def f(x):\n    raise PositionError('%s breaks B5' % x)\n"
                     "def g():\n    return MoveError('bad (XN1)')\n")
    assert [rule for _, text in _messages(tree) for rule in cited_rules(text)] == ["B5", "XN1"]
    assert "B5" not in RULES_OF["tiny"] and "B5" in RULES_OF["xobo"]


def test_the_errors_every_game_raises_name_no_game_and_cite_no_rule():
    import xobo.errors

    for cls in (xobo.errors.XoboError, xobo.errors.PositionError, xobo.errors.MoveError,
                xobo.errors.RecordError):
        doc = cls.__doc__
        assert not cited_rules(doc), (cls.__name__, doc)
        assert not any(g in doc.lower().split() for g in games.GAMES), (cls.__name__, doc)
