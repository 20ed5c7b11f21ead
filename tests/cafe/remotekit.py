"""Helpers of the match tests: a real MQTT broker on loopback (Debian's mosquitto, on a free
port, killed and restarted at will), café hosts (a ``Floor`` and its ``MatchService`` in this
process, stopped and started again on the same database), and players who play what their
board lights or a move of their own."""

import getpass
import os
import random
import shutil
import socket
import subprocess
import threading
import time

import pytest
from xobo_testing import wait_for

from cafe.cafekit import named_board
from xobo.games import part

MOSQUITTO = "/usr/sbin/mosquitto"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# the cafés the tests name (a test that names others gives them: ``Broker(cafes=...)``); the
# attack tests' third café has a valid login of its own too
CAFES = ["cafe-%d" % i for i in range(4)] + ["cafe-a", "cafe-b", "cafe-c", "cafe-k",
                                             "cafe-o", "evil-cafe"]


class Broker:
    """Debian's mosquitto on 127.0.0.1, its own port, run with the configuration ``xobo
    broker-setup`` writes (``brokersetup.write_config``): a login per café, the access list,
    no persistence (a restart forgets every queued message, the hardest case for the
    matches). ``open_network``: the open broker of that command (anyone writes anywhere)."""

    def __init__(self, tmp_path, cafes=(), open_network=False, tls=None, ca_file=None):
        from xobo_host.cafe.brokersetup import write_config

        if not os.path.exists(MOSQUITTO) and not shutil.which("mosquitto"):
            pytest.skip("mosquitto is absent: install it with 'make mosquitto' "
                        "(apt-get install mosquitto)")
        self.exe = MOSQUITTO if os.path.exists(MOSQUITTO) else shutil.which("mosquitto")
        self.port = free_port()
        self.open = open_network
        setup = write_config(str(tmp_path / "broker"), CAFES + list(cafes), port=self.port,
                             bind="127.0.0.1", persistence=False, open_network=open_network,
                             tls=tls, ca_file=ca_file,
                             run_as=getpass.getuser())  # (root: it stays in the tests' dirs)
        self.conf = setup["conf"]
        self.cafes = setup["cafes"]
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([self.exe, "-c", self.conf],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def listening():
            if self.proc.poll() is not None:  # not ours that listens: the port was taken
                raise RuntimeError("mosquitto ended at its start (exit %s): port %d is taken "
                                   "by another process" % (self.proc.returncode, self.port))
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
            except OSError:
                return False
            return self.proc.poll() is None

        wait_for(listening, "mosquitto listening", 10)  # (a restart: the port may linger)
        return self

    def restart_later(self, away_s=1.0):
        """Killed now, started again on its port after ``away_s`` (in a thread)."""
        self.kill()

        def back():
            time.sleep(away_s)  # (the broker's absence: the test's fault, not a wait)
            self.start()

        threading.Thread(target=back, daemon=True).start()

    def kill(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def settings(self, cafe):
        """Café ``cafe``'s settings file, as ``xobo broker-setup`` wrote it."""
        from xobo_host.cafe.broker import BrokerSettings

        return BrokerSettings.from_file(self.cafes[cafe])


class Cafe:
    """A café host in this process: its floor following its boards, its matches."""

    def __init__(self, tmp_path, name, boards, broker=None, hello_s=0.5, publish=False):
        self.dir = tmp_path / name
        self.dir.mkdir(exist_ok=True)
        self.db = str(self.dir / "games.sqlite")
        self.name = name
        self.boards = boards
        self.broker = broker
        self.hello_s = hello_s
        self.publish = publish
        self.floor = self.service = None
        self.restarting = threading.Lock()  # held while the host is away

    def start(self):
        from xobo_host.cafe.floor import Floor
        from xobo_host.cafe.matches import MatchService

        self.floor = Floor(self.db, ports=[b.device for b in self.boards.values()],
                           scan_usb=False, scan_s=0.2, poll_s=0.5, first_timeout=10)
        settings = self.broker.settings(self.name) if self.broker else None
        self.service = MatchService(self.floor, self.db, cafe=self.name, broker=settings,
                                    hello_s=self.hello_s, publish_floor=self.publish)
        self.floor.start()
        self.service.start()
        for key in self.boards:
            wait_for(lambda k=key: self.floor.table(k) is not None and self.floor.table(k).online,
                     "%s on the floor of %s" % (key, self.name), 20)
        if self.broker is not None:
            wait_for(self.service.broker.connected.is_set, self.name + " on the broker", 20)
        return self

    def stop(self):
        self.service.stop()
        self.floor.stop()

    def match(self, ident):
        with self.restarting:
            with self.service.lock:
                return self.service.matches[ident]

    def restart_later(self, away_s=1.0):
        """The host goes away now (its threads and ports closed: what a killed host leaves
        is its database and the broker's session) and comes back after ``away_s``."""
        self.restarting.acquire()
        self.stop()

        def back():
            try:
                time.sleep(away_s)  # (the host's absence: the test's fault, not a wait)
                self.start()
            finally:
                self.restarting.release()

        threading.Thread(target=back, daemon=True).start()


def boards(tmp_path, names, board="pico_gpio"):
    out = {}
    for name in names:
        b = named_board(tmp_path, name) if board == "pico_gpio" else None
        if b is None:
            from xobo_host.sim.ptyboard import PtyBoard

            b = PtyBoard(tmp_path / ("flash-" + name), board=board).plug()
            b.play("serial set name " + name)
            b.play("serial set settle 200")
        out[name] = b
    return out


def board_state(board):
    """(ply, position, expect) of a stand-in board, as its players see it (``look``: no
    line on the serial port the host reads)."""
    words = board.play("look")[0].split(None, 5)
    return int(words[1]), words[5], (None if words[3] == "-" else words[3])


def wait_expect(board, move=None, timeout=30):
    """Until the board lights a host move (``move``, when given)."""
    def lit():
        ply, _, expect = board_state(board)
        return expect if expect is not None and (move is None or expect == move) else None

    return wait_for(lit, "the board to light %s" % (move or "a host move"), timeout)


def commit(board, lines=None):
    """The players' hands play (``play MOVE`` / ``play expected``) and the board commits it:
    wait for its settle time, then until its ply changes."""
    before = board_state(board)[0]
    board.play(lines)
    try:
        # (the timeout only turns a hang into a failure: a loaded machine starves the hosts)
        wait_for(lambda: board_state(board)[0] != before, "the board to commit " + lines, 60)
    except AssertionError as exc:
        raise AssertionError("%s; the board (ply, position, lit move): %r" % (
            exc, board_state(board))) from None


def random_move(match, rng):
    """A legal move of the match's position, chosen by ``rng`` (the players' choice)."""
    pos = match.position()
    return pos.move_text(rng.choice(pos.legal_actions()))


def greedy_move(seed):
    """Players who take what the game's greedy computer level would (a shorter game than
    random moves: Chain Reaction's random games last hundreds of moves)."""
    def choose(match, rng):
        pos = match.position()
        ai = part(match.pkg, "computer")
        m = ai.choose_move(pos.clone(), level="greedy", seed=seed * 1000 + match.ply,
                           time_ms=200)
        return pos.move_text(m)

    return choose


def play_match(cafes, tables, match_id, rng=None, most=400, fault=None, choose=random_move):
    """Every table plays on its turn (a move of its own when its seat moves, the lit move
    when another table's): until the match is over. ``tables``: {key: (cafe, board)}.
    ``fault(n)`` runs before move ``n`` (a broker killed, a host restarted)."""
    rng = rng or random.Random(7)
    home = cafes[0]
    for n in range(1, most + 1):
        match = home.match(match_id)
        if match.state != "playing":
            return match
        if fault is not None:
            fault(n)
            match = home.match(match_id)
        seat = match.side()
        cafe_name, key = match.seats[seat]
        cafe, board = tables[key]
        assert cafe.name == cafe_name
        mine = cafe.match(match_id)
        wait_for(lambda m=mine, k=n: m.ply >= k - 1, "move %d known at %s" % (n - 1, key), 30)
        wait_for(lambda b=board, k=n: board_state(b)[0] == k - 1, "%s at ply %d" % (key, n - 1),
                 30)
        move = choose(mine, rng)
        commit(board, "play " + move)
        for other_key, (_, other) in tables.items():
            if other_key == key:
                continue
            # lit, and played with the pieces; a move no switch sees (a pass, a
            # resignation) the board plays at once
            wait_for(lambda b=other, k=n, mv=move: board_state(b)[0] == k
                  or board_state(b)[2] == mv, "%s to light %s" % (other_key, move), 30)
            if board_state(other)[0] != n:
                commit(other, "play expected")
        wait_for(lambda k=n: all(c.match(match_id).ply >= k for c in cafes),
                 "move %d in every café's log" % n, 30)
    return home.match(match_id)


def same_everywhere(cafes, tables, match_id):
    """Every board at the match's position, every café's log the same, every table's record
    with the match's moves."""
    from xobo_host.records.gamesdb import GamesDB

    logs = [c.match(match_id).moves for c in cafes]
    assert all(log == logs[0] for log in logs), logs
    ref = cafes[0].match(match_id)
    for key, (cafe, board) in tables.items():
        wait_for(lambda b=board: board_state(b)[:2] == (len(logs[0]), ref.position_text()),
                 "%s at the match's position" % key, 20)

        def recorded(c=cafe, k=key):
            db = GamesDB(c.db)
            try:
                games = db.list_games(k, None, None)
                return games and games[-1]["n_moves"] == len(logs[0])
            finally:
                db.close()

        wait_for(recorded, "%s's record with the match's %d moves" % (key, len(logs[0])), 20)
    return logs[0]


def wait_playing(cafes, match_id):
    wait_for(lambda: all(match_id in c.service.matches and c.match(match_id).state == "playing"
                      for c in cafes), "the match playing in every café", 20)
    for c in cafes:
        for key in c.service.local_tables(c.match(match_id)):
            wait_for(lambda c=c, k=key: k in c.match(match_id).prepared,
                     "%s's board started the match" % key, 20)
            board = c.boards[key]
            board.play("arrange")  # the players set out the start as the board shows


def start_match(tmp_path, game, n_cafes=2, board="pico_gpio", broker=None):
    broker = broker or Broker(tmp_path).start()
    names = ["a%d" % i for i in range(n_cafes)]
    bs = boards(tmp_path, names, board)
    bs[names[0]].play("serial set game " + game)
    cafes = [Cafe(tmp_path, "cafe-%d" % i, {names[i]: bs[names[i]]}, broker).start()
             for i in range(n_cafes)]
    ident, tables = seat_match(cafes, names, bs)
    return broker, cafes, bs, tables, ident


def seat_match(cafes, names, bs):
    """The first café invites with its table ``names[0]``, each other café accepts with its
    own (``names[i]``, board ``bs[names[i]]``): (the match's id, {table: (café, board)}),
    once it plays everywhere."""
    code = cafes[0].service.invite(names[0])["code"]
    ident = None
    for i in range(1, len(cafes)):
        ident = cafes[i].service.accept(code, names[i])["match"]
    wait_playing(cafes, ident)
    return ident, {names[i]: (cafes[i], bs[names[i]]) for i in range(len(cafes))}


def stop(broker, cafes, bs):
    for c in cafes:
        c.stop()
    for b in bs.values():
        b.unplug()
    broker.kill()


__all__ = ["Broker", "Cafe", "boards", "board_state", "commit", "play_match",
           "same_everywhere", "start_match", "stop", "time", "wait_expect", "wait_playing",
           "wait_for"]
