"""The probe of issue 18 as a fuzz (hypothesis): ``set game`` (every game, and names that are
none), every game's settings mid-game (good values and bad), moves, undo, new games, the game
gesture and power cuts, interleaved on both boards. The board never crashes (every serial
reply is ``ok`` or ``error``, no exception escapes), a power cut resumes exactly the game the
board had (game, position, parameters, first player), a next-new-game setting changes nothing
of the game in progress, a game switched away and back comes back as it was, and a refused
switch changes nothing.

Each example is realised as a script of the board's own script language
(``xobo.runtime.script``: pieces put and taken by hand, serial lines, ``power-cut``), run and
checked step by step under CPython; the scripts of all the examples then run under the
MicroPython unix port (``python -m xobo.runtime.script``), which must print exactly the same
lines (tests/boardapp/test_scripts.py does the same for the hand-written sessions)."""

import pytest
from conftest import run_micropython, soak_moves
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xobo.runtime.script import ScriptRunner

BOARDS = ("pico_gpio", "pico_15x15")
GAME_NAMES = ("xobo", "x", "chain-reaction", "brochs", "tiny", "chess", "Tiny", "x-y")
# every game's settings (the next new game's) with values in and out of their ranges, and
# the board's own (the computer's opponent is left out: its searches are tested elsewhere);
# an op names a setting of the game being played by its index (and sometimes no setting)
VALUES = {
    "variant": ("kv", "xobo", "blockade", "standard", "chess"),
    "first": ("ns", "ew", "red", "yellow", "green", "light", "dark", "black", "white", "x",
              "o", "nobody"),
    "size": ("4", "5", "8", "9", "3", "10"),
    "field": ("6", "7", "5"),
    "target": ("12", "14", "24", "30"),
    "donjon": ("2", "6", "7", "9"),
    "imprecation_choice": ("black", "white", "grey"),
    "master_diagonal": ("either", "master-moves", "never"),
    "level": ("random", "greedy", "search", "pico", "perfect", "strong"),
    "hints": ("on", "off"),
    "brightness": ("40", "100", "101"),
    "nonsense": ("1",),
}
OTHER_KEYS = ("level", "hints", "brightness", "nonsense")
# a setting whose reply says nothing of the game in progress may still change it: these do not
NEXT_GAME = ("variant", "first", "size", "field", "target", "donjon", "imprecation_choice",
             "master_diagonal")

_index = st.integers(0, 10 ** 6)
_move = st.tuples(st.just("move"), _index)
_game = st.tuples(st.just("game"), st.sampled_from(GAME_NAMES))
_set = st.tuples(st.just("set"), _index, _index)
_op = st.one_of(_move, _move, _move, _game, _game, _set, _set, _set,
                st.sampled_from([("cut",), ("undo",), ("new",), ("gesture",)]))
# (make soak: 24 examples)
FUZZ = settings(max_examples=soak_moves(24, 12), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class Driver:
    """Runs the ops on a board through the script language, keeping the script's lines and
    checking what each op may change."""

    def __init__(self, board):
        self.lines = []
        self.runner = ScriptRunner(events=True)
        self.run("board %s" % board)
        self.run("serial set settle 200")
        self.left = {}  # game -> the game as it was when it was left for another

    @property
    def vb(self):
        return self.runner.board

    def run(self, line):
        """Run one script line; returns what it printed."""
        n = len(self.runner.out)
        self.runner.run_line(line, len(self.lines) + 1)
        self.lines.append(line)
        out = self.runner.out[n:]
        for o in out:
            assert not o.startswith("error internal"), (line, o)
            assert "Traceback" not in o, (line, o)
        return out

    def serial(self, text):
        out = self.run("serial " + text)
        replies = [o for o in out if o.startswith(("ok", "error"))]
        assert replies, (text, out)
        return replies[0]

    def game_now(self):
        app = self.vb.app
        return (app.settings["game"], app.pos.to_string(), sorted(app.game_params().items()),
                app.first, app.start)

    def sync(self):
        """The pieces as the board's position has them (what players do when it asks)."""
        app = self.vb.app
        want = bytearray(app.topo.n_cells)
        heights = app.pos.heights
        to_board = app.place.to_board
        for g in range(len(heights)):
            if to_board[g] != 255:
                want[to_board[g]] = heights[g]
        self.pieces(want)
        self.run("wait 300")

    def pieces(self, want):
        counts = self.vb.switches.counts
        name = self.vb.app.topo.cell_name
        for b in range(len(want)):
            have = counts[b]
            if want[b] == have:
                continue
            if want[b] == 0:
                self.run("lift %s" % name(b))
            elif want[b] > have:
                self.run("put %s %d" % (name(b), want[b] - have))
            else:
                self.run("take %s %d" % (name(b), have - want[b]))

    def move(self, k):
        app = self.vb.app
        pos = app.pos
        moves = pos.legal_actions()
        if not moves:
            return
        m = moves[k % len(moves)]
        text = pos.move_text(m)
        ply = pos.ply
        reply = self.serial("move " + text)
        if not reply.startswith("ok"):
            return  # (the game is over, the pieces are not as the position has them...)
        if app.pos.ply == ply:
            after = pos.clone()
            after.apply(m)
            want = bytearray(app.topo.n_cells)
            for g in range(len(after.heights)):
                b = app.place.to_board[g]
                if b != 255:
                    want[b] = after.heights[g]
            self.pieces(want)
            for _ in range(10):
                if app.pos.ply != ply:
                    break
                self.run("wait 300")
        assert app.pos.ply == ply + 1, (text, app.inf.state_name())
        self.sync()

    def op(self, op):
        vb = self.vb
        kind = op[0]
        before = self.game_now()
        if kind == "move":
            self.move(op[1])
        elif kind == "game":
            reply = self.serial("set game " + op[1])
            if reply.startswith("ok"):
                if self.vb.app.settings["game"] != before[0]:
                    self.left[before[0]] = before
                now = self.game_now()
                back = self.left.get(now[0])
                if back is not None:  # the game comes back as it was left
                    assert now == back, (now, back)
            else:
                assert self.game_now() == before, reply  # refused: nothing changed
            self.sync()
        elif kind == "set":
            keys = tuple(vb.app.game.SETTINGS) + OTHER_KEYS
            key = keys[op[1] % len(keys)]
            value = VALUES[key][op[2] % len(VALUES[key])]
            reply = self.serial("set %s %s" % (key, value))
            if key in NEXT_GAME or reply.startswith("error"):
                assert self.game_now() == before, reply  # the game in progress keeps its own
        elif kind == "cut":
            self.run("position")
            out = self.run("power-cut")
            assert self.game_now() == before, out  # resumed exactly
            self.run("position")
            self.sync()
        elif kind == "undo":
            self.serial("undo")
            self.sync()
        elif kind == "new":
            self.serial("new")
            self.sync()
        elif kind == "gesture":
            self.run("hold ok 1600")
            if vb.app.settings["game"] != before[0]:
                self.left[before[0]] = before
            self.sync()
        if kind != "cut":  # whatever happened, the board resumes it after a power cut
            now = self.game_now()
            self.run("power-cut")
            assert self.game_now() == now
            self.sync()


def _check_both_runtimes(scripts, tmp_path):
    """The scripts print the same lines under MicroPython as under CPython (``expected``)."""
    text = "\n".join(s for s, _ in scripts) + "\n"
    expected = [line for _, out in scripts for line in out]
    path = tmp_path / "fuzz.txt"
    path.write_text(text)
    proc = run_micropython(["-m", "xobo.runtime.script", str(path)], heapsize="8M")
    got = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for k in range(min(len(got), len(expected))):
        assert got[k] == expected[k], (k, got[k], expected[k], got[max(0, k - 10):k])
    assert len(got) == len(expected), (len(got), len(expected), got[-5:], expected[-5:])


@pytest.mark.slow
def test_set_game_settings_moves_and_power_cuts_never_crash_and_always_resume(tmp_path):
    scripts = []

    @FUZZ
    @given(st.sampled_from(BOARDS), st.lists(_op, min_size=4, max_size=16))
    def session(board, ops):
        d = Driver(board)
        for op in ops:
            d.op(op)
        scripts.append(("\n".join(d.lines), list(d.runner.out)))

    session()
    _check_both_runtimes(scripts, tmp_path)
