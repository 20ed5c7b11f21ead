"""Every error of the ``xobo`` command reads ``error: ...`` (argparse's too), numbers on the
command line are ASCII digits, as in the engine and the firmware, and every ``--board``,
``--game``, ``--level`` and number is checked one way (``xobo_host.cli.argtypes``): a name that is
none of the choices lists them, a number out of range names the range."""

import argparse
import socket
import subprocess
import sys

import pytest

from xobo_host.cli import argtypes
from xobo_host.cli import main as cli

BOARDS = "(boards: pico_15x15, pico_circuitpython, pico_gpio, pico_gpio_adapter, rpi_blinka, "
GAMES = "(games: xobo, x, chain-reaction, brochs, tiny)"
XOBO_LEVELS = "(levels: random, greedy, beginner, pico, strong)"


def xobo(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "xobo_host.cli.main", *args], capture_output=True,
                          text=True, input=stdin, timeout=120)


def _error_line(proc):
    lines = proc.stderr.strip().splitlines()
    assert lines, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    return lines[-1]


@pytest.mark.parametrize("args, words", [
    (["rules", "perftx"], "unknown rules command 'perftx'"),
    (["rules", "hint", "--seed", "\uff13", "x"], "'\uff13' is not a whole number"),
    (["records", "show", "\u0663"], "is not a whole number (digits 0-9)"),
    (["match", "--a", "pico", "--b", "random", "--games", "1_0"], "'1_0' is not a whole"),
    (["sim", "--port", "+80"], "'+80' is not a whole number"),
    (["board", "bench", "--cycles", "-5"], "argument --cycles: '-5' is not a whole number"),
])
def test_usage_errors_read_error_colon_and_exit_2(args, words):
    proc = xobo(*args)
    assert proc.returncode == 2
    line = _error_line(proc)
    assert line.startswith("error: ") and words in line, line


def test_commands_say_error_colon(tmp_path):
    proc = xobo("records", "--db", str(tmp_path / "none.sqlite"), "list")
    assert proc.returncode == 1
    assert _error_line(proc).startswith("error: no games database at ")
    with socket.socket() as taken:  # a port in use: the simulator cannot serve there
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        busy = taken.getsockname()[1]
        proc = xobo("sim", "--no-browser", "--port", str(busy), "--flash", str(tmp_path / "f"))
    assert proc.returncode == 1
    assert _error_line(proc).startswith("error: cannot serve on 127.0.0.1:%d" % busy)
    proc = xobo("selftest", "--virtual", "--dead-row", "12")
    assert proc.stdout.strip().splitlines()[-1] == "error: matrix row 12 is not 0..8"


# ------------------------------------------------------------------ one way of checking

@pytest.mark.parametrize("args, words", [
    (["sim", "--board", "nosuch"], "argument --board: unknown board 'nosuch' " + BOARDS),
    (["flash", "--board", "nosuch"], "argument --board: unknown board 'nosuch' " + BOARDS),
    (["board", "serial", "--pty", "--board", "nosuch"], "unknown board 'nosuch' " + BOARDS),
    (["selftest", "--virtual", "--board", "nosuch"], "unknown board 'nosuch' " + BOARDS),
    (["pico-check", "--board", "nosuch"], "unknown board 'nosuch' " + BOARDS),
    (["sim", "--game", "nosuch"], "argument --game: unknown game 'nosuch' " + GAMES),
    (["match", "--game", "nosuch"], "argument --game: unknown game 'nosuch' " + GAMES),
    (["rules", "--game", "nosuch", "legal"], "unknown game 'nosuch' " + GAMES),
    (["rules", "hint", "--level", "nosuch"], "unknown level 'nosuch' for xobo " + XOBO_LEVELS),
    (["rules", "--game", "x", "hint", "--level", "pico"],
     "unknown level 'pico' for x (levels: random, greedy, search)"),
    (["match", "--a", "nosuch", "--b", "random", "--games", "1"],
     "unknown level 'nosuch' for xobo " + XOBO_LEVELS),
    (["board", "run", "--script", "-", "--runtime", "pypy"],
     "argument --runtime: unknown runtime 'pypy' (runtimes: cpython, micropython)"),
    (["rules", "perft", "1", "--runtime", "pypy"],
     "unknown runtime 'pypy' (runtimes: cpython, micropython)"),
    (["match", "--a", "pico", "--opponent", "clever", "--games", "1"],
     "unknown player 'clever' for xobo (players: uct:N, random, greedy, beginner, pico, "
     "strong)"),
])
def test_an_unknown_board_game_or_level_is_one_line_that_lists_the_choices(args, words):
    proc = xobo(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    line = _error_line(proc)
    assert line.startswith("error: ") and words in line, line
    assert not proc.stdout.strip(), proc.stdout  # refused before anything started


@pytest.mark.parametrize("args, words", [
    # a whole number, too large: the range, not "not a whole number"
    (["match", "--games", "99999999999999999999"],
     "argument --games: must be a whole number 1-999999999, not '99999999999999999999'"),
    (["match", "--games", "0"], "argument --games: must be a whole number 1-999999999, not '0'"),
    (["sim", "--port", "70000"], "argument --port: must be a whole number 0-65535, not '70000'"),
    (["cafe", "--http-port", "99999"], "argument --http-port: must be a whole number 0-65535"),
    (["monitor", "--baud", "0"], "argument --baud: must be a whole number 1-999999999, not '0'"),
    (["rules", "hint", "--seed", "99999999999999999999"],
     "--seed must be a whole number 0-999999999, not '99999999999999999999'"),
    (["rules", "perft", "99"], "perft depth must be a whole number 0-8, not '99'"),
    (["rules", "--game", "x", "play", "--size", "12", "a1"], "must be a whole number 4-9"),
    (["match", "--a", "pico", "--opponent", "uct:0", "--games", "1"],
     "must be a whole number 1-999999999, not '0'"),
])
def test_a_number_out_of_range_names_the_range(args, words):
    proc = xobo(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    line = _error_line(proc)
    assert line.startswith("error: ") and words in line, line
    assert "not a whole number (digits" not in line, line


def test_the_simulator_refuses_an_unknown_board_as_flash_does(tmp_path):
    # (it used to serve the 9 x 9 board for any name it could not find)
    for command in ("sim", "flash"):
        proc = xobo(command, "--board", "nosuch", "--flash" if command == "sim" else "--out",
                    str(tmp_path / command))
        assert proc.returncode == 2, (command, proc.stdout, proc.stderr)
        assert "unknown board 'nosuch'" in _error_line(proc)
    assert not (tmp_path / "sim").exists()  # nothing started: no flash made


def test_a_board_s_json_path_is_a_board_too(tmp_path):
    assert argtypes.board("pico_gpio") == "pico_gpio"
    own = tmp_path / "mine.json"
    own.write_text("{}")
    assert argtypes.board(str(own)) == str(own)
    with pytest.raises(argparse.ArgumentTypeError, match="unknown board"):
        argtypes.board(str(tmp_path / "missing.json"))


def _options(parser, path=()):
    """(command words, option strings, action) of every option of every (sub)command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, path + (name,))
        elif action.option_strings:
            yield path, action.option_strings, action


def test_every_board_game_and_number_option_is_checked_by_argtypes():
    typed = {"--board": argtypes.board, "--game": argtypes.game, "--runtime": argtypes.runtime}
    numbers = (argtypes.whole_number, argtypes.positive, argtypes.port)
    wrong = []
    for path, names, action in _options(cli.build_parser()):
        where = "xobo %s %s" % (" ".join(path), "/".join(names))
        for name in names:
            if name in typed and action.type is not typed[name]:
                wrong.append("%s: type %r, not argtypes" % (where, action.type))
        if action.choices is not None:
            wrong.append("%s: argparse's choices (their error differs): an argtypes type"
                         % where)
        if action.type in (int, float):
            wrong.append("%s: type %s reads foreign digits and has no range" % (
                where, action.type.__name__))
        if action.type is not None and action.type not in numbers + tuple(typed.values()):
            if action.type.__module__ != argtypes.__name__:
                wrong.append("%s: type %r is not one of argtypes" % (where, action.type))
    assert not wrong, "\n".join(wrong)
    found = {n for _, names, _ in _options(cli.build_parser()) for n in names}
    assert {"--board", "--game", "--games", "--port"} <= found
