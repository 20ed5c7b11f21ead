"""The examples in the modules' docstrings run: a module's ``Usage::`` block is a doctest, run
here on CPython (the device's code does not change: mpy-cross drops docstrings, so an example
costs the Pico no flash and no RAM). A block of command lines is not Python: each line is a
command checked without running it (``python -m MODULE``: the module exists; tests/usagekit.py
says how the others are). The host tools' blocks: tests/test_host_usage_examples.py.

Once three examples were wrong and nothing said so: the test game's computer called
``computer.choose_move`` after importing ``ai``, ``Inference()`` was shown without its three
arguments, ``game.rules()`` where the interface is ``engine()``.

The device's drivers run on ``tests/drivers/fakehw`` (``machine``, ``neopixel``) here; a module's
example that writes files writes them in a temporary directory."""

import doctest
import sys
import tempfile

import pytest
import usagekit
from drivers import fakehw

from xobo_host.cli import main as cli

FIRMWARE = usagekit.ROOT / "firmware" / "xobo"
MODULES = usagekit.modules_with_usage(FIRMWARE)
DOCTESTS = [p for p in MODULES if usagekit.is_doctest(usagekit.usage_block(p)[1])]
COMMAND_LINES = [p for p in MODULES if p not in DOCTESTS]


class _Pins:
    def __getattr__(self, name):
        return name


def test_the_scan_finds_the_firmwares_usage_blocks():
    assert len(MODULES) > 50, "the scan found only %d modules" % len(MODULES)


@pytest.mark.parametrize("path", DOCTESTS, ids=usagekit.name)
def test_the_usage_example_runs(path, monkeypatch, tmp_path):
    wrong = usagekit.doctest_text_lines(path, cli.build_parser())
    assert not wrong, "\n".join(wrong)
    monkeypatch.chdir(usagekit.ROOT)  # (an example names a board file: boards/pico_gpio.json)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # (an example's flash directory)
    # (CircuitPython's ``board`` names the pins: each its own name here)
    monkeypatch.setitem(sys.modules, "board", _Pins())
    with fakehw.installed():
        attempted, failed, report = usagekit.run_doctest(path)
    assert attempted > 0
    assert failed == 0, report


@pytest.mark.parametrize("path", COMMAND_LINES, ids=usagekit.name)
def test_the_command_lines_of_a_usage_block_are_right(path):
    wrong = usagekit.check_command_lines(path, cli.build_parser())
    assert not wrong, "\n".join(wrong)


def test_a_wrong_example_fails():
    text = ">>> from xobo.games.tiny import ai\n>>> computer.choose_move(None, 'perfect')\n"
    test = doctest.DocTestParser().get_doctest(text, {}, "wrong", "wrong.py", 0)
    out = []
    result = doctest.DocTestRunner().run(test, out=out.append)
    assert result.failed == 1 and "NameError" in "".join(out)
