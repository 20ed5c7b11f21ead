"""The examples in the modules' docstrings run: a module's ``Usage::`` block is a doctest, run
here on CPython (the device's code does not change: mpy-cross drops docstrings, so an example
costs the Pico no flash and no RAM). A block of command lines is not Python: each line runs a
module of the repository (``python -m MODULE``), and that module exists.

Once three examples were wrong and nothing said so: the test game's computer called
``computer.choose_move`` after importing ``ai``, ``Inference()`` was shown without its three
arguments, ``game.rules()`` where the interface is ``engine()``.

The device's drivers run on ``tests/drivers/fakehw`` (``machine``, ``neopixel``) here; a module's
example that writes files writes them in a temporary directory."""

import doctest
import importlib.util
import re
import sys
import tempfile
from pathlib import Path

import pytest
from drivers import fakehw

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware" / "xobo"
HEAD = re.compile(r"^Usage\b.*::\s*$")
COMMAND = re.compile(r"^(?:MICROPYPATH=\S+ )?(?:python3?|micropython) (?:\S+ )*?-m ([\w.]+)")


def usage_block(path):
    """``(line, text)`` of the module docstring's ``Usage::`` block (its indented lines, the
    line of the first in the file), or None."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree, clean=False)
    if not doc:
        return None
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        if HEAD.match(line.strip()):
            block = []
            for text in lines[i + 1:]:
                if text.strip() and not text.startswith(" "):
                    break
                block.append(text)
            first = tree.body[0].lineno + i + 1  # (the docstring opens on its own first line)
            return first, "\n".join(block).rstrip() + "\n"
    return None


def _modules(root):
    return sorted(p for p in root.rglob("*.py") if usage_block(p) is not None)


MODULES = _modules(FIRMWARE)


class _Pins:
    def __getattr__(self, name):
        return name


def _name(path):
    return str(path.relative_to(ROOT))


def _commands(text):
    """The modules the block's command lines run, or None when a line is not one."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = COMMAND.match(line)
        if m is None:
            return None
        out.append(m.group(1))
    return out


def test_every_usage_block_of_the_firmware_is_a_doctest_or_command_lines():
    assert len(MODULES) > 50, "the scan found only %d modules" % len(MODULES)
    neither = [_name(p) for p in MODULES
               if ">>>" not in usage_block(p)[1] and not _commands(usage_block(p)[1])]
    assert not neither, "Usage:: blocks that are neither a doctest nor command lines: %s" % \
        neither


@pytest.mark.parametrize("path", [p for p in MODULES if ">>>" in usage_block(p)[1]], ids=_name)
def test_the_usage_example_runs(path, monkeypatch, tmp_path):
    line, text = usage_block(path)
    monkeypatch.chdir(ROOT)  # (an example names a board file: boards/pico_gpio.json)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # (an example's flash directory)
    test = doctest.DocTestParser().get_doctest(text, {"__name__": "__usage__"}, _name(path),
                                               str(path), line)
    out = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    # (CircuitPython's ``board`` names the pins: each its own name here)
    monkeypatch.setitem(sys.modules, "board", _Pins())
    with fakehw.installed():
        result = runner.run(test, out=out.append)
    assert result.attempted > 0
    assert result.failed == 0, "".join(out)


@pytest.mark.parametrize("path", [p for p in MODULES if ">>>" not in usage_block(p)[1]],
                         ids=_name)
def test_the_command_lines_of_a_usage_block_run_modules_that_exist(path):
    modules = _commands(usage_block(path)[1])
    assert modules, usage_block(path)
    sys.path.insert(0, str(ROOT / "firmware"))
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    assert not missing, missing


def test_a_wrong_example_fails():
    text = ">>> from xobo.games.tiny import ai\n>>> computer.choose_move(None, 'perfect')\n"
    test = doctest.DocTestParser().get_doctest(text, {}, "wrong", "wrong.py", 0)
    out = []
    result = doctest.DocTestRunner().run(test, out=out.append)
    assert result.failed == 1 and "NameError" in "".join(out)
