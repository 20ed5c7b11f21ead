"""A whole event evening on stand-in boards, with no hand on it: the tests' and the
benchmark's.

``boards`` stand-in boards (the firmware behind pseudo-terminals, ``ptyboard``, on the
players' clock: their time passes only with the players' lines, so a loaded machine plays
the same games), a café host (in this process, or ``xobo cafe`` in its own), an event made
and started through the host's own routes with the staff's login, and at each board the
players of the game the event put there: each plays the moves its level of the computer
opponent chooses (``xobo.games.<game>.ai``), with its hands (``play MOVE``), and a game
longer than ``max_plies`` is resigned by the player to move (the staff's *resign* on the
event's page). The event pairs each round when the last ended (``auto``), to the last.

Everything the players know of the event they read as the room's screen does (its
server-sent events); everything the host knows of the games it reads from the boards.

Usage::

    python -m xobo_host.cafe.events.evening --players 24 --rounds 5 --boards 12 --out e.json

    >>> from xobo.games import load
    >>> from xobo_host.cafe.events.evening import Evening, default_levels, player_names
    >>> player_names(3), default_levels(load("x"))   # who plays, at what levels in turn
    (['Alice', 'Bruno', 'Chloé'], ('random', 'greedy'))
    >>> # a whole evening (not run here: it takes seconds, the stand-ins' games played out):
    >>> # with Evening(tmp_dir, boards=12) as ev:
    >>> #     out = ev.run(game="xobo", players=24, rounds=5)   # waits for the event's end
    >>> # out["view"]["standings"], out["exports"]["results.csv"]
"""

import http.cookiejar
import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from xobo.games import part
from xobo_host.sim.ptyboard import PtyBoard

PASSWORD = "evening-staff-1"
SETTLE_MS = 200
FIRST_NAMES = ("Alice", "Bruno", "Chloé", "Dmitri", "Elif", "Farid", "Gaia", "Hugo", "Ines",
               "Jonas", "Kenji", "Lena", "Malik", "Nora", "Oskar", "Paula", "Quentin", "Rosa",
               "Samir", "Tala", "Ugo", "Vera", "Wim", "Xenia", "Yann", "Zoé")


class EveningError(RuntimeError):
    """The evening could not run (a board, the host); the message says where."""


def default_levels(pkg):
    """The levels the players are given in turn: the game's, weakest first, but its
    strongest when it has more than two (the slowest by far: an evening of them would be
    an evening of searches)."""
    levels = tuple(pkg.LEVELS)
    return levels[:-1] if len(levels) > 2 else levels


def player_names(n):
    out = []
    for i in range(n):
        base = FIRST_NAMES[i % len(FIRST_NAMES)]
        out.append(base if i < len(FIRST_NAMES) else "%s %d" % (base, i // len(FIRST_NAMES) + 1))
    return out


class Client:
    """The host's routes, as the staff's page calls them (its cookie, its origin)."""

    def __init__(self, url):
        self.url = url.rstrip("/") + "/"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path, raw=False):
        with self.opener.open(self.url + path.lstrip("/"), timeout=30) as r:
            data = r.read()
        return data if raw else json.loads(data)

    def post(self, path, body):
        req = urllib.request.Request(self.url + path.lstrip("/"), json.dumps(body).encode(),
                                     {"Content-Type": "application/json",
                                      "Origin": self.url.rstrip("/")}, method="POST")
        try:
            with self.opener.open(req, timeout=30) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return json.loads(exc.read() or b"{}")

    def login(self):
        out = self.post("api/login", {"password": PASSWORD})
        if not out.get("ok"):
            raise EveningError("the staff's login failed: %s" % out)

    def stream(self, path, on_message, stop):
        """Follow server-sent events at ``path`` until ``stop`` is set (reconnecting)."""
        while not stop.is_set():
            try:
                with self.opener.open(self.url + path.lstrip("/"), timeout=20) as r:
                    kind = None
                    for raw in r:
                        if stop.is_set():
                            return
                        line = raw.decode("utf-8").rstrip("\n")
                        if line.startswith("event: "):
                            kind = line[7:]
                        elif line.startswith("data: ") and kind:
                            on_message(kind, json.loads(line[6:]))
            except (OSError, ValueError):
                stop.wait(0.2)


class InProcessHost:
    """``xobo cafe``'s parts in this process: the floor, the events, the page's server."""

    def __init__(self, workdir, ports):
        from xobo_host.cafe.events.director import Director
        from xobo_host.cafe.floor import Floor
        from xobo_host.cafe.staff import Staff
        from xobo_host.cafe.web import CafeServer
        from xobo_host.records.gamesdb import GamesDB

        self.db_path = os.path.join(workdir, "games.sqlite")
        GamesDB(self.db_path).close()
        staff = Staff.create(os.path.join(workdir, "staff.json"), PASSWORD)
        self.floor = Floor(self.db_path, ports=ports, scan_usb=False, scan_s=0.3,
                           poll_s=1.0).start()
        self.director = Director(self.floor, os.path.join(workdir, "events.sqlite"),
                                 tick_s=0.5).start()
        self.server = CafeServer(self.floor, staff, self.db_path,
                                 director=self.director).start()
        self.url = self.server.url

    def add_port(self, device):
        self.floor.add_port(device)

    def stop(self):
        self.server.stop()
        self.director.stop()
        self.floor.stop()


class ProcessHost:
    """``xobo cafe`` in its own process (a host that can be killed)."""

    def __init__(self, workdir, ports):
        from xobo_host.cafe.staff import Staff

        self.workdir = workdir
        self.ports = list(ports)
        self.db_path = os.path.join(workdir, "games.sqlite")
        staff_file = os.path.join(workdir, "staff.json")
        if not os.path.exists(staff_file):
            Staff.create(staff_file, PASSWORD)
        self.proc = None
        self.url = None
        self.start()

    def start(self):
        args = [sys.executable, "-m", "xobo_host.cli.main", "cafe", "--no-usb-scan", "--db",
                self.db_path, "--http-port", "0", "--no-browser", "--poll-s", "1"]
        for port in self.ports:
            args += ["--port", port]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("XoBo cafe: http://"):
            self.proc.kill()
            raise EveningError("xobo cafe did not start: %r %s" % (line,
                                                                    self.proc.stderr.read()))
        self.url = line.split()[2]

    def kill(self):
        self.proc.kill()
        self.proc.wait(10)

    def add_port(self, device):
        self.ports.append(device)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        for f in (self.proc.stdout, self.proc.stderr):
            f.close()


class Seat:
    """The players at one board: they play the game the event put there, at their levels."""

    def __init__(self, evening, board, key):
        self.evening = evening
        self.board = board
        self.key = key
        self.game_id = None  # the event game they play (the screen's id)
        self.done_id = None  # the last game they saw end
        self.last_ply = 0  # the board's ply after their last move
        self.lock = threading.Lock()

    def step(self, game):
        """Play one move of ``game`` (the screen's view of the game at this table), or
        nothing; True when it moved."""
        ev = self.evening
        if game["id"] != self.game_id:
            self.game_id = game["id"]
            self.last_ply = 0
            self.board.play("arrange")  # the last game's pieces off the table
        if self.done_id == game["id"]:
            return False
        look = self.board.play("look")[0].split()
        ply = int(look[1])
        if ply < self.last_ply:
            # the board is at a new game already, the screen not yet: this one is over
            self.done_id = game["id"]
            return False
        text = " ".join(look[look.index("position") + 1:])
        with ev.ai_lock:
            pos = ev.pkg.parse_position(text, ev.settings)
            over = pos.is_terminal()
        if over or self.board.play("look result")[0].split()[1] != "*":
            self.done_id = game["id"]
            return False
        seat = ev.pkg.PLAYER_NAMES[pos.side]
        by_seat = {s["seat"]: s["name"] for s in game["seats"]}
        name = by_seat.get(seat)
        if ply >= ev.max_plies:
            out = ev.client.post("api/event/%d/action" % ev.eid, {
                "action": "resign", "game": game["id"], "seat": seat})
            if out.get("ok"):
                ev.resigned.append((game["id"], name))
                self.done_id = game["id"]
            return False
        level = ev.levels[name]
        with ev.ai_lock:  # (the games' rules and computer reuse module-wide move buffers, as
            # on the Pico: one search at a time)
            move = ev.ai.choose_move(pos, level, seed=game["id"] * 1009 + ply)
            text = pos.move_text(move)
        self.board.play("play %s" % text)
        self.board.play("wait %d" % (SETTLE_MS + 100))
        if int(self.board.play("look")[0].split()[1]) == ply:
            # a move that could still grow (a regroup the board waits longer for): the player
            # confirms it with ok, as the board asks
            self.board.play("press ok")
            self.board.play("wait %d" % (SETTLE_MS + 100))
            if int(self.board.play("look")[0].split()[1]) == ply:
                # (not taken: the pieces as the board shows them, and the move again)
                self.board.play("arrange")
                self.board.play("wait %d" % (SETTLE_MS + 100))
        self.last_ply = int(self.board.play("look")[0].split()[1])
        with ev.lock:
            ev.moves += 1
        return True


class Evening:
    """Stand-in boards, a host, an event and its players (see the module's docstring)."""

    def __init__(self, workdir, boards=12, board="pico_gpio", host="process", names=None):
        self.workdir = str(workdir)
        self.board_kind = board
        self.names = names or ["t%02d" % (i + 1) for i in range(boards)]
        self.boards = []
        self.host = None
        self.host_kind = host
        self.lock = threading.Lock()
        self.ai_lock = threading.Lock()
        self.moves = 0
        self.resigned = []
        self.stop = threading.Event()
        self.view = None
        self.view_seen = threading.Condition()

    def __enter__(self):
        for name in self.names:
            b = PtyBoard(os.path.join(self.workdir, "flash-" + name), board=self.board_kind,
                         hands_clock=True).plug()
            self.boards.append(b)
            b.play("serial set name " + name)
            b.play("serial set settle %d" % SETTLE_MS)
        ports = [b.device for b in self.boards]
        self.host = (InProcessHost if self.host_kind == "in-process" else ProcessHost)(
            self.workdir, ports)
        self.client = Client(self.host.url)
        self.client.login()
        self.wait(lambda: self._online() == len(self.boards), 120, "every board online")
        return self

    def __exit__(self, *exc):
        self.stop.set()
        if self.host is not None:
            self.host.stop()
        for b in self.boards:
            b.unplug()

    def _online(self):
        try:
            return sum(1 for t in self.client.get("api/floor")["tables"] if t["online"])
        except (OSError, ValueError):
            return 0

    def wait(self, pred, timeout, what):
        """Wait for ``pred()`` (the state asked), checking every 50 ms; the timeout only
        turns a hang into a failure."""
        deadline = time.monotonic() + timeout
        while True:
            got = pred()
            if got:
                return got
            if time.monotonic() > deadline:
                raise EveningError("timed out waiting for " + what)
            time.sleep(0.05)

    # -- the event ----------------------------------------------------------------------------
    def make_event(self, game, players, rounds, settings=None, levels=None, name=None):
        from xobo import games

        self.game = game
        self.pkg = games.load(game)
        self.ai = part(self.pkg, "computer")
        self.settings = dict(self.pkg.DEFAULTS, **(settings or {}))
        out = self.client.post("api/event/new", {
            "name": name or "Stand-in evening", "game": game, "format": "swiss",
            "rounds": rounds, "settings": settings or {}, "auto": True})
        if not out.get("ok"):
            raise EveningError("the event was refused: %s" % out)
        self.eid = out["id"]
        cycle = levels or default_levels(self.pkg)
        self.levels = {}
        for i, n in enumerate(player_names(players)):
            self.levels[n] = cycle[i % len(cycle)]
            got = self.client.post("api/event/%d/action" % self.eid,
                                   {"action": "add_player", "name": n, "checked_in": True})
            if not got.get("ok"):
                raise EveningError("%s was refused: %s" % (n, got))
        return self.eid

    def _follow(self):
        def on(kind, msg):
            if kind == "event":
                with self.view_seen:
                    self.view = msg
                    self.view_seen.notify_all()
        self.client.stream("api/event/%d/live" % self.eid, on, self.stop)

    def _play(self, seat):
        """One board's players, until the evening stops."""
        while not self.stop.is_set():
            with self.view_seen:
                view = self.view
            game = None
            if view is not None:
                game = next((g for g in view["games"] if g["table"] == seat.key
                             and g["state"] == "playing" and g["kind"] == "game"), None)
            try:
                moved = game is not None and seat.step(game)
            except Exception as exc:  # (a board unplugged by a test: the next look tells)
                if self.stop.is_set():
                    return
                self.errors.append("%s: %s" % (seat.key, exc))
                moved = False
            if not moved:
                with self.view_seen:
                    if self.view is view:
                        self.view_seen.wait(0.3)

    def start_players(self):
        self.errors = []
        self.seats = [Seat(self, b, name) for b, name in zip(self.boards, self.names,
                                                             strict=True)]
        threads = [threading.Thread(target=self._follow, daemon=True, name="evening-screen")]
        threads += [threading.Thread(target=self._play, args=(s,), daemon=True,
                                     name="evening-" + s.key) for s in self.seats]
        for t in threads:
            t.start()
        self.threads = threads

    def run(self, game=None, players=24, rounds=5, settings=None, levels=None,
            max_plies=160, timeout=1800.0, name=None):
        """Make the event of ``game`` (default: the first of ``xobo.games.GAMES``), start it,
        play it to its end; the evening's summary."""
        if game is None:
            from xobo.games import GAMES

            game = GAMES[0]
        self.max_plies = max_plies
        t0 = time.monotonic()
        self.make_event(game, players, rounds, settings, levels, name)
        self.start_players()
        out = self.client.post("api/event/%d/action" % self.eid, {"action": "start"})
        if not out.get("ok"):
            raise EveningError("the event did not start: %s" % out)
        self.wait(lambda: self.client.get("api/event/%d" % self.eid)["state"] == "finished",
                  timeout, "the event's end")
        return self.summary(time.monotonic() - t0)

    def summary(self, seconds):
        view = self.client.get("api/event/%d" % self.eid)
        exports = {}
        for name in ("pairings.csv", "results.csv", "standings.csv", "records.txt"):
            exports[name] = self.client.get("api/event/%d/export/%s" % (self.eid, name),
                                            raw=True).decode("utf-8")
        return {"event": self.eid, "view": view, "exports": exports, "moves": self.moves,
                "resigned": list(self.resigned), "seconds": round(seconds, 1),
                "levels": dict(self.levels), "errors": list(self.errors)}


def main(argv=None):
    import argparse
    import tempfile

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default=None, help="the game (default: the first game)")
    p.add_argument("--players", type=int, default=24)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--boards", type=int, default=12)
    p.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--max-plies", type=int, default=160)
    p.add_argument("--out", help="write the summary here (JSON)")
    args = p.parse_args(argv)
    settings = dict(s.split("=", 1) for s in args.setting)
    random.seed(1)
    with tempfile.TemporaryDirectory() as tmp, Evening(tmp, boards=args.boards) as ev:
        out = ev.run(args.game, args.players, args.rounds, settings,
                     max_plies=args.max_plies)
    text = json.dumps(out, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    rows = out["view"]["standings"]
    print("%s: %d players, %d rounds, %d moves, %d resigned, %.0f s" % (
        out["view"]["game"], args.players, args.rounds, out["moves"], len(out["resigned"]),
        out["seconds"]))
    for r in rows[:10]:
        print("%3s %-12s %4.1f  Buchholz %4.1f  SB %5.2f  rating %.1f ± %.1f  (%s)" % (
            "%d%s" % (r["rank"], "=" if r["shared"] else ""), r["name"], r["points"],
            r["buchholz"], r["sb"], r["rating"]["mu"], r["rating"]["sigma"],
            out["levels"][r["name"]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
