"""``xobo monitor`` mirrors and records every game, not only XoBo: the firmware under the
MicroPython unix port behind a pty (as ``test_monitor.py``), switched to X, Chain Reaction or
Brochs (on the 15 x 15 board), its pieces set and moved by hand with the unix port's script
lines, each move announced with the protocol's ``move`` (so the board expects exactly it). The
database gets the game, its parameters and its moves; ``xobo records export`` gives the game's
own record; the page's snapshot is the game's, as the simulator's."""

import os
import pty
import random
import subprocess
import tty

import pytest
from xobo_testing import wait_for

from xobo import games
from xobo.games import part
from xobo.runtime.topology import Topology
from xobo_host.cli.main import main
from xobo_host.records.gamerecords import record_module
from xobo_host.records.gamesdb import GamesDB, Recorder
from xobo_host.sim.monitor import MonitorBackend, SerialLink
from xobo_host.upy import micropython_command

GAMES = [("x", "pico_gpio", 9), ("chain-reaction", "pico_gpio", 9),
         ("brochs", "pico_15x15", 15)]
PLIES = 4


@pytest.fixture
def firmware(tmp_path):
    """firmware(board) -> the slave device of a pty with the unix-port firmware on it."""
    started = []

    def _start(board):
        master, slave = pty.openpty()
        tty.setraw(slave)
        os.makedirs(tmp_path / "flash", exist_ok=True)
        cmd, env = micropython_command(["-m", "xobo.runtime.unix_main", "--flash",
                                        str(tmp_path / "flash"), "--board", board],
                                       heapsize="4M")
        proc = subprocess.Popen(cmd, stdin=master, stdout=master, stderr=subprocess.PIPE,
                                env=env, cwd=str(tmp_path))
        started.append((proc, master, slave))
        return os.ttyname(slave)

    yield _start
    for proc, master, slave in started:
        proc.kill()
        proc.wait(5)
        os.close(master)
        os.close(slave)


class Hands:
    """Moves the pieces on the firmware's virtual board for a game's move (its footprint)."""

    def __init__(self, link, pkg, pos, size):
        self.link = link
        self.pos = pos
        self.topo = Topology(size, size)
        self.place = self.topo.place(pos.width, pos.height, getattr(pos, "used", None))
        self.lifted = bytearray(part(pkg, "engine").FOOTPRINT_MAX)
        self.added = bytearray(part(pkg, "engine").FOOTPRINT_MAX)

    def cell(self, g):
        return self.topo.cell_name(self.place.to_board[g])

    def script(self, line):
        reply = self.link.command("!" + line)
        assert reply[-1] == "ok", (line, reply)

    def set_up(self):
        for g in range(self.pos.n_cells):
            if self.pos.heights[g]:
                self.script("put %s %d" % (self.cell(g), self.pos.heights[g]))

    def play(self, m):
        nl, na = self.pos.footprint(m, self.lifted, self.added)
        text = self.pos.move_text(m)
        reply = self.link.command("move " + text)
        assert reply[0].startswith("ok move"), reply
        for i in range(nl):
            self.script("lift " + self.cell(self.lifted[i]))
        for i in range(na):
            self.script("put " + self.cell(self.added[i]))
        self.pos.apply(m)
        return text


def _state(link):
    return link.command("state")[0]


@pytest.mark.parametrize("game,board,size", GAMES, ids=[g[0] for g in GAMES])
def test_the_monitor_mirrors_and_records_every_game(firmware, tmp_path, capsys, game, board,
                                                    size):
    device = firmware(board)
    link = SerialLink.open(device)
    db_path = str(tmp_path / "games.sqlite")
    db = GamesDB(db_path)
    backend = MonitorBackend(link, recorder=Recorder(db, source=device), device=device,
                             poll_s=0.3)
    pkg = games.load(game)
    try:
        assert link.command("set settle 200", timeout=20)[0] == "ok settle 200"
        assert link.command("set game " + game, timeout=20)[0].startswith("ok game " + game)
        pos = pkg.new_position(pkg.DEFAULTS)
        assert link.command("position")[0] == "ok " + pos.to_string()
        hands = Hands(link, pkg, pos, size)
        hands.set_up()
        wait_for(lambda: " match " in _state(link) + " ", "the start position set up")
        backend.start()
        rnd = random.Random(7)
        buf = part(pkg, "engine").new_move_buffer()
        played = []
        for _ in range(PLIES):
            n = pos.legal_moves(buf)
            moves = [buf[i] for i in range(n) if pos.footprint(buf[i], hands.lifted,
                                                                hands.added) != (0, 0)]
            played.append(hands.play(moves[rnd.randrange(len(moves))]))
            k = len(played)
            wait_for(lambda k=k: len(db.list_games()) == 1 and db.list_games()[0]["n_moves"] == k,
                   "move %d (%s) recorded" % (k, played[-1]))
        g = db.list_games()[0]
        assert g["game"] == game and g["params"] and g["source"] == device
        assert g["first"] == pkg.DEFAULTS["first"]

        # the page's snapshot is the game's, drawn as the simulator draws it
        final = pos.to_string()
        snap = wait_for(lambda: (lambda s: s if s["state"].get("position") == final else None)(
            backend.snapshot()), "the mirror at the last move")
        st = snap["state"]
        assert st["game"] == game and st["ply"] == PLIES and st["inference"] == "match"
        assert st["board"]["width"] == size and len(snap["counts"]) == size * size
        assert st["side"] == pkg.PLAYER_NAMES[pos.side]
        assert len(snap["colours"]) == pkg.PLAYERS
        for g_cell in range(pos.n_cells):
            if getattr(pos, "used", None) is None or pos.used[g_cell]:
                b = hands.place.to_board[g_cell]
                assert snap["counts"][b] == pos.heights[g_cell]
        assert snap["leds_known"] and len(snap["cells"]) == size * size
        assert snap["draw"]  # the simulator's drawing hook of the game (X: hexagons)
    finally:
        backend.stop()
        link.close()
        db.close()
    assert main(["records", "--db", db_path, "export", "1"]) == 0
    exported = capsys.readouterr().out
    assert record_module(game).parse_record(exported).final_position().to_string() \
        == pos.to_string()
    assert main(["records", "--db", db_path, "show", "1"]) == 0
    shown = capsys.readouterr().out
    assert all(text in shown for text in played)
