"""Every limit of every game, driven by hypothesis on both runtimes (CPython here, and the
MicroPython unix port in one process fed the same scenarios): a game near its longest
(MAX_PLIES, or its natural end for X and the test game) is played to it and past it by every
path a player or a host has (the pieces, serial ``move``, a move no piece shows, the game's
buttons, ok held, the hint, the computer, undo, resign, power cuts), and the board keeps its
promises (tests/boardapp/limitkit.py): never past the limit, every way past it refused with
the words that say why, and the save always the game the board shows.

Also here: what the board keeps of a save longer than its longest game, the lines a host
sends and a save's lines within their bounds for every game's longest texts."""

import json
import subprocess

import pytest
from conftest import ROOT, TESTS, soak_moves
from device.long_games import long_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardapp.limitkit import ACTIONS, run_scenario
from xobo import games
from xobo_host.upy import micropython_command

CASES = (("xobo", "pico_gpio"), ("x", "pico_gpio"), ("chain-reaction", "pico_gpio"),
         ("tiny", "pico_gpio"), ("brochs", "pico_15x15"))
EXAMPLES = settings(max_examples=soak_moves(24, 6), deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
HANG_GUARD_S = 600  # a MicroPython run that never answers fails instead of hanging the suite


def longest(game):
    """The most moves a game of ``game`` (default settings) can have on the board: its
    MAX_PLIES, or its cells for the games whose every move fills one (X, the test game)."""
    pkg = games.load(game)
    w, h = pkg.area(dict(pkg.DEFAULTS))
    return min(pkg.engine().MAX_PLIES, w * h) if game in ("x", "tiny") else \
        pkg.engine().MAX_PLIES


class _MicroPython:
    """One unix-port process that runs scenarios (limitkit.serve)."""

    def __init__(self):
        cmd, env = micropython_command([str(TESTS / "boardapp" / "limitkit.py")],
                                       heapsize="16M", extra_path=[TESTS])
        self.proc = subprocess.Popen(cmd, env=env, cwd=str(ROOT), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def run(self, game, board, moves, actions):
        self.proc.stdin.write(json.dumps({"game": game, "board": board, "moves": list(moves),
                                          "actions": actions}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, "MicroPython ended: %s" % self.proc.poll()
        return line.rstrip("\n")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(HANG_GUARD_S)


@pytest.fixture(scope="module")
def upy():
    m = _MicroPython()
    yield m
    m.close()


def _scenario(game, board, upy, before, actions):
    moves = long_game(game, longest(game) - before)
    trace = run_scenario(game, board, moves, actions)  # CPython: AssertionError if broken
    got = upy.run(game, board, moves, actions)
    assert got.startswith("OK "), "under MicroPython: " + got
    assert json.loads(got[3:]) == trace, (got, trace)
    return trace


ACTION_LISTS = st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=7)


@pytest.mark.slow
@pytest.mark.parametrize("game, board", CASES)
@EXAMPLES
@given(before=st.integers(0, 3), actions=ACTION_LISTS)
def test_no_path_takes_a_game_past_its_longest_and_the_save_keeps_it(upy, game, board, before,
                                                                      actions):
    _scenario(game, board, upy, before, actions)


@pytest.mark.parametrize("game, board", CASES)
def test_every_path_at_the_limit_is_refused_with_its_words(upy, game, board):
    # each path once at the limit (or after the end), then undo, the last move again by the
    # pieces, power cuts around a resignation: the game is where it was, kept; ok held last
    # (after the end it starts the next game)
    actions = ["pieces", "host", "pass", "buttons", "hint", "computer", "undo", "pieces",
               "reboot", "host", "resign", "reboot", "ok-held"]
    trace = _scenario(game, board, upy, 0, actions)
    limit = longest(game)
    assert trace[0] == ("pieces %d->%d %s" % (limit, limit, "no-move" if game in ("x", "tiny")
                                              else "played")), trace
    assert trace[6].startswith("undo %d->%d" % (limit, limit - 1)), trace
    assert trace[7] == "pieces %d->%d played" % (limit - 1, limit), trace
    assert trace[8] == trace[11] == "reboot %d->%d rebooted" % (limit, limit), trace
