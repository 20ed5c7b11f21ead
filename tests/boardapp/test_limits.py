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
from xobo.games import part
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
    return min(part(pkg, "engine").MAX_PLIES, w * h) if game in ("x", "tiny") else \
        part(pkg, "engine").MAX_PLIES


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


def _positions_and_moves(game):
    """Every position of a longest game of ``game`` and the legal moves there (sampled: every
    tenth position of the long ones), for the bounds on texts."""
    pkg = games.load(game)
    rules = part(pkg, "engine")
    pos = pkg.new_position(dict(pkg.DEFAULTS))
    buf = rules.new_move_buffer()
    moves = long_game(game, longest(game))
    step = 1 if len(moves) < 100 else 10
    for k, text in enumerate(moves):
        if k % step == 0:
            n = pos.legal_moves(buf)
            yield pos, [buf[i] for i in range(n)]
        pos.apply(pos.parse_move(text))
    yield pos, []


@pytest.mark.parametrize("game", [g for g, _ in CASES])
def test_every_saved_move_and_position_fits_the_lines_that_carry_them(game):
    # a move in a save (SAVED_MOVE_CHARS bounds the save: storage.save_limit), a position in a
    # save's start line (saveread: 512) and in serial `load` (protocol.MAX_LINE); a host's
    # `move` line with the longest move text; a stack's height (the game's CELL_HOLDS, and
    # what its notation writes: XoBo's N3 refuses a height above 8)
    from xobo import hostkit
    from xobo.runtime import protocol, storage

    pkg = games.load(game)
    rules = part(pkg, "engine")
    holds = hostkit.of(game).CELL_HOLDS  # (most pieces a cell holds, the rule) or None
    settings = dict(pkg.DEFAULTS)
    longest_move = longest_position = 0
    for pos, legal in _positions_and_moves(game):
        text = pos.to_string()
        longest_position = max(longest_position, len(text))
        # a stack never taller than a cell holds, nor than the notation writes
        assert holds is None or max(pos.heights) <= holds[0], (game, text)
        assert pkg.parse_position(text, settings).to_string() == text, (game, text)
        text = getattr(pos, "history_text", pos.move_text)
        for m in legal:
            assert len(text(m)) <= rules.SAVED_MOVE_CHARS, (game, text(m))
            longest_move = max(longest_move, len(pos.move_text(m)))
    assert len("load ") + longest_position <= protocol.MAX_LINE, (game, longest_position)
    assert len("start ") + longest_position <= storage.MAX_LINE, (game, longest_position)
    assert len("move ") + longest_move + len(" (v)") <= protocol.MAX_LINE, (game, longest_move)


@pytest.mark.parametrize("game, board", CASES)
def test_the_longest_game_s_save_is_within_the_bound_its_slot_is_read_with(game, board):
    # the save of a game at its longest, every move as long as a saved move may be, from a
    # loaded start position and with a resignation: within storage.save_limit, so the board
    # never writes a save that its next boot would refuse by its size
    from xobo.drivers.virtual import VirtualFlash
    from xobo.runtime.storage import SavedGame, save_limit

    pkg = games.load(game)
    rules = part(pkg, "engine")
    limit = save_limit(rules.MAX_PLIES, rules.SAVED_MOVE_CHARS)
    flash = VirtualFlash()
    start = max((p.to_string() for p, _ in _positions_and_moves(game)), key=len)
    params = {k: v for k, v in pkg.DEFAULTS.items() if k != "first"}
    SavedGame(flash, "game", limit).save(game, params, 0, start,
                                         ["m" * rules.SAVED_MOVE_CHARS] * rules.MAX_PLIES,
                                         resigned=[pkg.PLAYER_NAMES[0], "none"])
    size = len(flash.read("game.b"))
    assert size <= limit, (game, size, limit)


def test_a_save_longer_than_the_longest_game_resumes_its_first_moves_and_says_so():
    # a board whose firmware kept more (a save of 1,005 moves of XoBo, which keeps 1,000):
    # the first 1,000 are resumed, the boot says what was not kept; never a new game
    from boardapp.boardkit import Recorder
    from xobo.runtime.storage import SavedGame
    from xobo.runtime.virtual_board import VirtualBoard

    moves = long_game("xobo", 1005)
    vb = VirtualBoard()
    SavedGame(vb.flash).save("xobo", {"variant": "xobo"}, 0, "", list(moves))
    rec = Recorder(vb)
    vb.power_cut()
    app = vb.app
    note = "resumed game: 1000 moves (its save has 1005 moves, more than the longest game " \
        "this board keeps: the last 5 are not kept)"
    assert rec.has("event boot " + note), rec.lines
    assert app.pos.ply == 1000 and app.full()
    assert [app.pos.move_text(m) for m in app.pos.history()] == list(moves[:1000])
    assert vb.command("boot") == ["ok boot fallback " + note]
    assert vb.command("undo")[0] == "ok undo " + moves[999]  # saved as kept from now on
    vb.power_cut()
    assert vb.app.pos.ply == 999 and vb.command("boot")[0] == "ok boot normal resumed game: " \
        "999 moves"


def test_brochs_at_its_longest_refuses_a_pass_and_a_move_over_serial():
    # the probe: at ply 1,000 `move --` was accepted and committed (1,001, 1,002, saved), and the
    # next boot refused both saves; `move g4-g5` waited for the pieces for ever
    from xobo.runtime.virtual_board import VirtualBoard

    moves = long_game("brochs", 1000)
    vb = VirtualBoard(board="pico_15x15", settings={"game": "brochs"})
    from xobo.runtime.storage import SavedGame

    SavedGame(vb.flash, vb.app.saved.file.name).save("brochs", dict(vb.app.params), 0, "",
                                                     list(moves))
    vb.power_cut()
    app = vb.app
    vb.set_cubes(app.pos.heights)
    vb.advance(300)
    full = "error the game has reached 1000 moves, the longest this board keeps: undo, or " \
        "start a new game"
    assert vb.command("move --") == [full]
    a_move = next(app.pos.move_text(m) for m in app.pos.legal_actions()
                  if "-" in app.pos.move_text(m) and app.pos.move_text(m) != "--")
    assert vb.command("move " + a_move) == [full]
    assert vb.command("press pass") == [full]
    assert app.pos.ply == 1000 and app.pending < 0
    vb.power_cut()
    assert vb.app.pos.ply == 1000 and vb.app.note == "resumed game: 1000 moves"
