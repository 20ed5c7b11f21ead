"""The matches' benchmark (docs/remote.md, "Measured"): many matches at once between two
cafés through one local MQTT broker, the broker killed and restarted along the way.

It starts Debian's mosquitto on a free loopback port, two stand-in processes of ``--matches``
boards each (the real firmware on virtual drivers behind pseudo-terminals, as ``xobo board
serial --pty``, many boards a process: each board's serial input is answered at once, a busy
board is stepped every ``STEP_MS`` and an idle one every ``IDLE_STEP_MS``, its flash in
memory: a café's real boards are Picos that cost its host nothing), two ``xobo cafe`` hosts
(café A following the first process's boards, café B the second's) on the broker, and
invites every table of A to play the game the boards start with (the first of the games:
XoBo) against a table of B (the staff's own routes: login,
invite, accept). Then at every table players play: a random legal move on their turn, the
other table's move as the board lights it, each after thinking ``--pause-ms``, until every
game is over (or has ``--most-moves``: a long random game is left there); meanwhile the
broker is killed and started again ``--restarts`` times (down ``--down-ms`` each time).

It reports:

- the latency from a board's ``event move`` (its players' move committed) to the other
  board's ``event expect host`` (that move lit there): median, p95, max, over the moves
  played while the broker was up, and over every move;
- moves lost or doubled: every match's log in both cafés, every board's position and every
  table's record in each café's database against the moves the players played;
- the café hosts' CPU (user + system, as a share of one core) and memory (RSS at the end).

Usage::

    python -m xobo_host.cafe.remotebench --matches 100 --restarts 10
    python -m xobo_host.cafe.remotebench --matches 10 --restarts 2    # a quick look
"""

import argparse
import bisect
import contextlib
import http.client
import json
import os
import queue
import random
import select
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

STEP_MS = 40  # a stand-in board that is busy is stepped this often (its serial input: at once)
# ...busy: for this long after its serial input, a hand on it or an event of it; else it is
# stepped every IDLE_STEP_MS (a café's real boards are Picos that cost its host nothing: a
# hundred idle boards stepped 25 times a second took the host's cores from the hosts)
ACTIVE_S = 1.0  # (the settle time, 200 ms, and the debounce fit in it)
IDLE_STEP_MS = 1000
SETTLE_MS = 200
# The stand-in boards run at this niceness, below the hosts and the broker: a café's boards
# are Picos, each with its own core, and what they do never takes a core from its host. At
# the hosts' own priority the two stand-in processes (about a quarter of a core each, in
# bursts: the lockstep players' moves come in waves) took the cores from the hosts just as
# a wave of moves had to go through them: p95 137-242 ms on the quiet machine, 44-65 ms
# with them niced (docs/remote.md). Their own hops (a move read off a board, lit on the other)
# are still in the latency measured.
STAND_IN_NICENESS = 10
RECENT_EVENTS = 8  # a stand-in board's last events kept for a stuck match's report
RESTART_EVERY_S = 5.0  # the broker is killed this long after it came back
# a host following a hundred boards reads each every 10 s besides its events (every 2 s:
# 250 serial commands a second for nothing)
POLL_S = 10
STALL_S = 60  # no move in all the matches for this long: something is stuck
PASSWORD = "bench-password"


# ------------------------------------------------------------------ the stand-in boards


def serve_boards(n, prefix, stalls_log=None, niceness=0):
    """Run ``n`` boards behind ptys in this process: prints ``pty I DEVICE`` for each, then
    ``E I TIME LINE`` for every event of board I (its own clock: the host's). Stdin takes
    ``I LINE``: a hands line of ``xobo_host.sim.ptyboard`` (``play MOVE``, ``play expected``,
    ``look``, ``arrange``), answered ``R I ok ...`` or ``R I error ...``. ``niceness`` is
    added to the process's own (``STAND_IN_NICENESS``)."""
    if niceness:
        os.nice(niceness)
    from xobo.runtime.script import ScriptError, ScriptRunner
    from xobo.runtime.virtual_board import VirtualBoard
    from xobo_host.sim import ptyboard

    out = sys.stdout
    lock = threading.Lock()

    def say(line):
        with lock:
            out.write(line + "\n")
            out.flush()

    boards, masters, runners = [], {}, []
    recent = [[] for _ in range(n)]  # each board's last events, but its switches'
    busy_until = [0.0] * n  # (time.monotonic) stepped every STEP_MS until then

    def busy(i):
        busy_until[i] = time.monotonic() + ACTIVE_S

    for i in range(n):
        master, slave = ptyboard.open_pty()
        board = VirtualBoard(flash_dir=None, realtime=True)
        board.command("set name %s%03d" % (prefix, i))
        board.command("set settle %d" % SETTLE_MS)

        def writer(line, master=master):
            try:
                os.write(master, (line + "\n").encode())
            except OSError:
                pass

        board.set_writer(writer)

        def listen(line, i=i):
            busy(i)
            if line.startswith(("event move", "event expect")):
                say("E %d %.6f %s" % (i, time.time(), line))
            if line.startswith("event") and not line.startswith("event switch"):
                recent[i].append("%.3f %s" % (time.time(), line))  # (for ``inspect``)
                del recent[i][:-RECENT_EVENTS]

        board.subscribe(listen)
        boards.append(board)
        masters[master] = [i, bytearray(), slave]
        runners.append(ScriptRunner(board=board, emit=None, events=False))
        say("pty %d %s" % (i, os.ttyname(slave)))
    poller = select.poll()
    for fd in masters:
        poller.register(fd, select.POLLIN)
    stdin = sys.stdin.fileno()
    poller.register(stdin, select.POLLIN)
    hands = bytearray()
    # (``--dump``: a round of the boards' steps that held them 50 ms or longer, with where
    # its time went: the boards' serial commands by their first word, the steps, the
    # players' hands; a round longer than its work is the process waiting for a core)
    stalls = open(stalls_log, "a", buffering=1) if stalls_log else None  # noqa: SIM115
    work = {"feeds": 0.0, "steps": 0.0}

    def serve(timeout_ms):
        """The hands' lines and the boards' serial input that came (waiting ``timeout_ms``
        at most for some); False when the hands' line closed."""
        for fd, _ in poller.poll(timeout_ms):
            if fd == stdin:
                t = time.perf_counter()
                data = os.read(stdin, 65536)
                if not data:
                    return False
                hands.extend(data)
                while b"\n" in hands:
                    k = hands.index(b"\n")
                    text = bytes(hands[:k]).decode()
                    del hands[:k + 1]
                    idx, _, line = text.partition(" ")
                    i = int(idx)
                    board, runner = boards[i], runners[i]
                    busy(i)
                    try:
                        runner.out = []
                        if line == "look":
                            runner.out.append(ptyboard.look(board))
                        elif line == "inspect":  # (a stuck match: what the board went through)
                            st = board.state()
                            runner.out.append("inference %s expect %s; %s; last events: %s" % (
                                st["inference"], st["expect"],
                                " ".join(board.command("state")),
                                " / ".join(recent[i]) or "none"))
                        elif line == "arrange":
                            board.switches.set_counts(bytearray(board.bd.n_cells))
                            board.set_cubes(board.app.pos.heights)
                            board.advance(50)
                        else:  # (one gesture on the board's clock: ``ptyboard.play``)
                            ptyboard.play(board, runner, line[5:].strip())
                        say("R %d ok %s" % (i, " | ".join(runner.out)))
                    except ScriptError as exc:
                        say("R %d error %s" % (i, exc))
                if stalls is not None:
                    work["hands"] = work.get("hands", 0.0) + time.perf_counter() - t
                continue
            entry = masters[fd]
            try:
                data = os.read(fd, 4096)
            except OSError:
                continue
            entry[1].extend(data)
            cut = entry[1].rfind(b"\n")
            busy(entry[0])
            if cut >= 0:
                line = bytes(entry[1][:cut + 1])
                t = time.perf_counter()
                boards[entry[0]].feed(line)
                del entry[1][:cut + 1]
                if stalls is not None:
                    spent = time.perf_counter() - t
                    work["feeds"] += spent
                    words = line.split(None, 1)
                    what = words[0].decode(errors="replace") if words else "?"
                    work[what] = work.get(what, 0.0) + spent
        return True

    stepped = all_stepped = 0.0
    while True:
        now = time.monotonic()
        if now - stepped >= STEP_MS / 1000:
            stepped = now
            every = now - all_stepped >= IDLE_STEP_MS / 1000
            if every:
                all_stepped = now
            if stalls is not None:
                started = time.perf_counter()
                work = {"feeds": 0.0, "steps": 0.0}
            for i in range(n):
                if every or busy_until[i] > now:
                    t = time.perf_counter()
                    boards[i].step()
                    if stalls is not None:
                        work["steps"] += time.perf_counter() - t
                    # (each board is its own Pico: a command to one is answered at once,
                    # not after the other boards' steps; a round of a hundred busy boards'
                    # steps held every command to them for tens of ms: docs/remote.md)
                    if not serve(0):
                        return 0
            if stalls is not None and time.perf_counter() - started >= 0.05:
                stalls.write("%.6f round %.0f %s\n" % (time.time(), (
                    time.perf_counter() - started) * 1000, " ".join(
                    "%s=%.0f" % kv for kv in sorted(
                        ((k, v * 1000) for k, v in work.items()), key=lambda kv: -kv[1])
                    if kv[1] >= 1)))
        if not serve(10):
            return 0


class Boards:
    """A stand-in process of many boards, driven from here."""

    def __init__(self, n, prefix, stalls_log=None, niceness=STAND_IN_NICENESS):
        self.prefix = prefix
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "xobo_host.cafe.remotebench", "--serve-boards", str(n),
             "--prefix", prefix, "--stand-ins-nice", str(niceness)] +
            (["--stalls", stalls_log] if stalls_log else []),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.devices = []
        for _ in range(n):
            words = self.proc.stdout.readline().split()
            if not words or words[0] != "pty":
                raise RuntimeError("the stand-in boards did not start")
            self.devices.append(words[2])
        self.replies = {}
        self.errors = []  # hands lines refused (a move the board did not take)
        self.events = queue.Queue()
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            words = line.rstrip("\n").split(" ", 3)
            if words[0] == "E":
                self.events.put((self.prefix, int(words[1]), float(words[2]), words[3]))
            elif words[0] == "R":
                if words[2] == "error":
                    self.errors.append("%s%03d: %s" % (self.prefix, int(words[1]),
                                                       " ".join(words[3:])))
                with self.cond:
                    self.replies.setdefault(int(words[1]), []).append(" ".join(words[2:]))
                    self.cond.notify_all()

    def hands(self, i, line):
        """Send a hands line to board i; returns its reply (waits for it)."""
        with self.cond:
            self.replies.pop(i, None)
        self.proc.stdin.write("%d %s\n" % (i, line))
        self.proc.stdin.flush()
        with self.cond:
            while not self.replies.get(i):
                self.cond.wait(30)
            return self.replies.pop(i)[0]

    def send(self, i, line):
        """A hands line whose reply nobody waits for."""
        self.proc.stdin.write("%d %s\n" % (i, line))
        self.proc.stdin.flush()

    def stop(self):
        self.proc.kill()
        self.proc.wait(10)


# ------------------------------------------------------------------ the broker, the cafés


def process_cpu(pid):
    """A process's CPU time so far (user + system), in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """mosquitto with the configuration ``xobo broker-setup`` writes (a login per café, the
    access list: the matches' messages authenticated as a café network runs them), without
    persistence (each restart forgets the queued messages: the hardest case)."""

    def __init__(self, root, cafes):
        import getpass

        from xobo_host.cafe.brokersetup import write_config

        self.exe = "/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") \
            else shutil.which("mosquitto")
        if not self.exe:
            raise RuntimeError("mosquitto is not installed: make mosquitto")
        self.port = free_port()
        setup = write_config(os.path.join(root, "broker"), cafes, port=self.port,
                             bind="127.0.0.1", persistence=False, run_as=getpass.getuser())
        self.conf = setup["conf"]
        self.settings = setup["cafes"]  # café -> its settings file (its login)
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([self.exe, "-c", self.conf], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        for _ in range(500):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.01)
        raise RuntimeError("mosquitto did not start")

    def kill(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None


class Host:
    """One ``xobo cafe`` process, and its page's API with the staff's login."""

    def __init__(self, root, name, devices, broker_settings, trace=None):
        from xobo_host.cafe.staff import Staff

        self.dir = os.path.join(root, name)
        os.makedirs(self.dir)
        self.db = os.path.join(self.dir, "games.sqlite")
        Staff.create(os.path.join(self.dir, "staff.json"), PASSWORD)
        args = [sys.executable, "-m", "xobo_host.cli.main", "cafe", "--no-usb-scan", "--db",
                self.db, "--http-port", "0", "--no-browser", "--cafe-name", name,
                "--broker", broker_settings,
                "--poll-s", str(POLL_S)]
        for d in devices:
            args += ["--port", d]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=dict(os.environ, PYTHONUNBUFFERED="1",
                                                         **({"XOBO_MATCH_TRACE": trace}
                                                            if trace else {})))
        line = self.proc.stdout.readline()
        if not line.startswith("XoBo cafe: http://"):
            raise RuntimeError("xobo cafe did not start: %s %s" % (line, self.proc.stderr.read()))
        self.port = int(line.split()[2].rstrip("/").rsplit(":", 1)[1])
        self.cookie = ""

    def request(self, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
            headers["Origin"] = "http://127.0.0.1:%d" % self.port
        conn.request(method, path, data, headers)
        resp = conn.getresponse()
        out = json.loads(resp.read() or b"{}")
        cookie = resp.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        conn.close()
        return resp.status, out

    def login(self):
        status, out = self.request("POST", "/api/login", {"password": PASSWORD})
        if status != 200:
            raise RuntimeError("login: %s" % out)

    def cpu(self):
        return process_cpu(self.proc.pid)

    def rss_mb(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# ------------------------------------------------------------------ the run


def _until(pred, timeout, what):
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise RuntimeError("timed out waiting for " + what)
        time.sleep(0.1)


def run(n_matches=100, restarts=10, pause_ms=1000, down_ms=1000, seed=1, verbose=True,
        most_moves=60, dump=None, think_spread=0.0, stand_ins_nice=STAND_IN_NICENESS):
    from xobo import games
    from xobo_host.cafe.match import Match
    from xobo_host.records.gamesdb import GamesDB

    say = print if verbose else (lambda *a, **k: None)
    root = tempfile.mkdtemp(prefix="xobo-remote-bench-")
    broker = Broker(root, ["cafe-" + k for k in "ab"])
    broker.start()
    say("broker on port %d; starting 2 x %d stand-in boards..." % (broker.port, n_matches))
    if dump:
        os.makedirs(dump, exist_ok=True)
    sides = {k: Boards(n_matches, k, os.path.join(dump, k + ".boards") if dump else None,
                       stand_ins_nice) for k in "ab"}
    hosts = {k: Host(root, "cafe-" + k, sides[k].devices, broker.settings["cafe-" + k],
                     os.path.join(dump, k + ".trace") if dump else None) for k in sides}
    try:
        for h in hosts.values():
            h.login()
        for k, h in hosts.items():
            _until(lambda h=h: sum(t["online"] for t in h.request("GET", "/api/floor")[1]
                                   ["tables"]) == n_matches, 120, "cafe-%s's tables" % k)
        say("every table on its café's floor; inviting...")
        matches = []
        # the boards' game: the one a board starts with (the first of the games), its first
        # player at café A's tables
        boot = games.load(games.GAMES[0])
        seat = boot.PLAYER_NAMES[0]
        for i in range(n_matches):
            status, out = hosts["a"].request("POST", "/api/invite",
                                             {"table": "a%03d" % i, "seat": seat})
            if status != 200:
                raise RuntimeError("invite: %s" % out)
            # the match's game and settings, as café B reads the invitation
            status, look = hosts["b"].request("POST", "/api/invite/lookup",
                                              {"code": out["code"]})
            if status != 200:
                raise RuntimeError("lookup: %s" % look)
            status, acc = hosts["b"].request("POST", "/api/invite/accept",
                                             {"code": out["code"], "table": "b%03d" % i})
            if status != 200:
                raise RuntimeError("accept: %s" % acc)
            matches.append({"id": out["match"], "i": i, "replica": Match(
                out["match"], look["game"], look["params"],
                [["cafe-a", "a"], ["cafe-b", "b"]]), "t0": {}, "next": None, "lit": None,
                "sent": []})

        def all_playing():
            for h in hosts.values():
                views = h.request("GET", "/api/matches")[1]["matches"]
                if sum(1 for v in views if v["state"] == "playing") < n_matches:
                    return False
            return True

        _until(all_playing, 120, "every match playing in both cafés")
        for k in sides:  # the boards start the match (a new game): the cubes cleared
            for i in range(n_matches):
                _until(lambda k=k, i=i: sides[k].hands(i, "look").split()[2] == "0", 60,
                       "board %s%03d at the start" % (k, i))
        say("%d matches playing; the players play (a %d ms thought a move), %d broker "
            "restarts..." % (n_matches, pause_ms, restarts))
        rng = random.Random(seed)
        pause = pause_ms / 1000
        thinking = random.Random(seed + 1)  # (its own: the games stay the seed's)

        def think():
            """A thought: ``pause`` exactly, or spread evenly over pause * (1 +- spread)."""
            return pause * (1 + think_spread * (2 * thinking.random() - 1))

        by_board = {}
        for m in matches:
            by_board[("a", m["i"])] = m
            by_board[("b", m["i"])] = m
            m["next"] = (time.time() + rng.random() * pause, "a", None)
        latencies = []  # (t_move, latency)
        samples = []  # (match, n, the mover's side, t_move, latency)
        outages = []  # (down, up)
        t_start = time.time()
        cpu0 = {k: h.cpu() for k, h in hosts.items()}
        cpu0.update({"boards " + k: process_cpu(b.proc.pid) for k, b in sides.items()})
        stop = threading.Event()

        def restarter():
            if not restarts:
                return
            gap = RESTART_EVERY_S
            for _ in range(restarts):
                if stop.wait(gap):
                    return
                down = time.time()
                broker.kill()
                time.sleep(down_ms / 1000)  # (the broker's absence)
                broker.start()
                outages.append((down, time.time()))

        threading.Thread(target=restarter, daemon=True).start()
        events = queue.Queue()

        def pump(k):
            while True:
                events.put(sides[k].events.get())

        for k in sides:
            threading.Thread(target=pump, args=(k,), daemon=True).start()
        live = {m["id"] for m in matches}
        played = 0
        progress = time.time()
        while live:
            now = time.time()
            if now - progress > STALL_S:
                for m in matches:
                    if m["id"] in live:
                        say("stuck %s at %d (%s to move, lit %s): a %s | b %s" % (
                            m["id"], m["replica"].ply, m["replica"].side(), m["lit"],
                            sides["a"].hands(m["i"], "look"),
                            sides["b"].hands(m["i"], "look")))
                        for k in sides:
                            say("  board %s%03d: %s" % (k, m["i"],
                                                        sides[k].hands(m["i"], "inspect")))
                        say("  the players' last hands: %s" % " / ".join(m["sent"]))
                for k, h in hosts.items():
                    for v in h.request("GET", "/api/matches")[1]["matches"]:
                        if v["id"] in live:
                            say("cafe-%s %s: ply %d notes %s" % (k, v["id"], v["ply"],
                                                                 v["notes"]))
                say("refused hands lines: %s" % (sides["a"].errors + sides["b"].errors))
                raise RuntimeError("no move for %d s: matches %s stuck" % (
                    STALL_S, ", ".join(sorted(live))))
            for m in matches:
                nxt = m["next"]
                if m["id"] in live and nxt is not None and nxt[0] <= now:
                    m["next"] = None
                    side, what = nxt[1], nxt[2]
                    if what is None:  # this side's own move
                        pos = m["replica"].position()
                        move = pos.move_text(rng.choice(pos.legal_actions()))
                        sides[side].send(m["i"], "play " + move)
                        m["sent"].append("%.3f %s play %s" % (time.time(), side, move))
                    else:
                        sides[side].send(m["i"], "play expected")
                        m["sent"].append("%.3f %s play expected" % (time.time(), side))
                    del m["sent"][:-RECENT_EVENTS]
            try:
                side, i, t, line = events.get(timeout=0.02)
            except queue.Empty:
                continue
            m = by_board[(side, i)]
            words = line.split()
            rep = m["replica"]
            mover = "a" if rep.side() == 0 else "b"
            if words[1] == "move":
                move = words[2]
                if side == mover and m["lit"] is None:
                    m["t0"][rep.ply + 1] = t  # its players' own move
                    m["pending"] = move
                    early = m.pop("early", None)
                    if early is not None:  # (the two processes' lines cross on the way)
                        events.put(early)
                elif side != mover and m.get("lit") == move:
                    # the other board played the lit move (not the mover's board reporting
                    # its own move again: taken for it, the mover's players were asked for
                    # the other side's next move, which its host took back: a match stuck)
                    rep.play(move)
                    played += 1
                    progress = time.time()
                    m["lit"] = None
                    if rep.terminal() or rep.ply >= most_moves:
                        live.discard(m["id"])  # (a long game is left there)
                    else:
                        m["next"] = (time.time() + think(), side, None)
            elif words[1] == "expect" and words[2] == "host":
                move = words[3]
                n = rep.ply + 1
                if side != mover and n in m["t0"] and m.get("pending") == move:
                    latencies.append((m["t0"][n], t - m["t0"][n]))
                    samples.append((m["id"], m["i"], n, mover, m["t0"][n], t - m["t0"][n]))
                    m["lit"] = move
                    m["next"] = (time.time() + think(), side, "expected")
                elif side != mover and n not in m["t0"]:
                    m["early"] = (side, i, t, line)  # read before the move it lights
        stop.set()
        t_end = time.time()
        cpu = {k: (h.cpu() - cpu0[k]) / (t_end - t_start) * 100 for k, h in hosts.items()}
        boards_cpu = {k: (process_cpu(b.proc.pid) - cpu0["boards " + k]) /
                      (t_end - t_start) * 100 for k, b in sides.items()}
        rss = {k: h.rss_mb() for k, h in hosts.items()}
        say("every game over (or at %d moves): %d moves in %.0f s; checking..." % (
            most_moves, played, t_end - t_start))
        # the checks: logs, boards, records
        lost = doubled = 0
        views = {}
        plies = {m["id"]: m["replica"].ply for m in matches}
        for k, h in hosts.items():
            _until(lambda h=h: all(v["ply"] >= plies[v["id"]] for v in h.request(
                "GET", "/api/matches")[1]["matches"]), 120, "every move in cafe-" + k)
            views[k] = {v["id"]: v for v in h.request("GET", "/api/matches")[1]["matches"]}
        for m in matches:
            want = m["replica"].moves
            for k in hosts:
                got = views[k][m["id"]]["moves"]
                lost += max(0, len(want) - len(got))
                doubled += max(0, len(got) - len(want))
                if got[:len(want)] != want[:len(got)]:
                    raise RuntimeError("match %s: cafe-%s's log differs" % (m["id"], k))
        for k in sides:
            for m in matches:
                words = sides[k].hands(m["i"], "look").split(None, 6)
                if words[6] != m["replica"].position_text():
                    raise RuntimeError("board %s%03d is not at its match's position" % (
                        k, m["i"]))
        for k, h in hosts.items():
            h.stop()
            db = GamesDB(h.db, readonly=True)
            try:
                for m in matches:
                    rows = db.list_games("%s%03d" % (k, m["i"]), None, None)
                    n = rows[-1]["n_moves"] if rows else 0
                    lost += max(0, m["replica"].ply - n)
                    doubled += max(0, n - m["replica"].ply)
            finally:
                db.close()

        def during_outage(t0, lat):
            return any(t0 - 2.5 <= up and t0 + lat >= down for down, up in outages)

        up = [lat for t0, lat in latencies if not during_outage(t0, lat)]
        if dump:
            with open(os.path.join(dump, "bench.json"), "w") as f:
                json.dump({"samples": samples, "outages": outages}, f)
        every = [lat for _, lat in latencies]

        def stats(xs):
            if not xs:
                return "none"
            xs = sorted(xs)
            p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
            return "median %.1f ms, p95 %.1f ms, max %.1f ms (%d moves)" % (
                statistics.median(xs) * 1000, p95 * 1000, xs[-1] * 1000, len(xs))

        say("")
        say("matches: %d (%s, cafe-a vs cafe-b), moves played: %d, broker restarts: %d"
            % (n_matches, boot.NAME, played, len(outages)))
        say("event move -> the other board's light, broker up:  %s" % stats(up))
        say("event move -> the other board's light, every move: %s" % stats(every))
        say("moves lost: %d, moves doubled: %d (logs of both cafés, boards, records)"
            % (lost, doubled))
        say("cafe hosts: CPU %s of one core; RSS %s MB" % (
            ", ".join("%s %.0f %%" % (k, v) for k, v in cpu.items()),
            ", ".join("%s %.0f" % (k, v) for k, v in rss.items())))
        say("stand-in boards: CPU %s of one core, niceness +%d (a café's boards are Picos: "
            "not its host's)" % (", ".join("%s %.0f %%" % (k, v) for k, v in
                                          boards_cpu.items()), stand_ins_nice))
        if dump:
            hops(dump, samples, lambda t0, lat: not during_outage(t0, lat), say)
        return {"lost": lost, "doubled": doubled, "up": up, "every": every, "played": played,
                "cpu": cpu, "rss": rss}
    finally:
        for h in hosts.values():
            if h.proc.poll() is None:
                h.proc.kill()
        for b in sides.values():
            b.stop()
        broker.kill()
        shutil.rmtree(root, ignore_errors=True)


# ------------------------------------------------------------------ where the time went

HOPS = ("line", "woke", "fast", "locked", "pub", "read", "deq", "recv", "stored", "cmd",
        "lit")
HOP_NAMES = {
    "line": "the board's event read by its host (serial)",
    "woke": "the table's worker woken",
    "fast": "the matches' lock to find the table's match",
    "locked": "the matches' lock taken",
    "pub": "in the log, published (paho)",
    "read": "read by the other host's network thread (the broker's hop)",
    "deq": "taken from the other host's inbox (its inbox's thread)",
    "recv": "checked there (the signature, the replay guard)",
    "stored": "in the other host's database (SQLite, its store's thread)",
    "cmd": "the move sent to the other board",
    "lit": "lit on the other board (its serial, the stand-in's step)",
}


def _read_trace(path):
    """{(what, words...): [times]} of one host's ``movetrace`` file."""
    out = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) < 3:
                continue
            what = words[1]
            if what in ("fast", "locked", "saved", "pub", "cmd") and len(words) > 3:
                key = (what, words[2], words[3])
            elif what in ("line", "recv", "read", "deq", "woke", "stored"):
                key = (what, words[2])
            else:
                continue
            out.setdefault(key, []).append((float(words[0]), words[3:]))
    return out


def hops(dump, samples, is_up, say=print):
    """Each move's hops from the hosts' traces: median / p95 of each over the moves counted
    as "broker up", and for the slowest twentieth of them the hop where each waited
    longest, how many moves were made within 50 ms of it, and how the other café got it (its
    move message, or a log asked for)."""
    traces = {k: _read_trace(os.path.join(dump, k + ".trace")) for k in "ab"}
    starts = sorted(x[4] for x in samples)

    def crowd(t):
        return bisect.bisect(starts, t + 0.05) - bisect.bisect(starts, t - 0.05)

    def first(times, after):
        later = [t for t, _ in times if t >= after]
        return min(later) if later else None

    def first_move(times, n, after, before):
        """The first time of move ``n``'s message (``move N`` traced) in [after, before]."""
        return next((t for t, w in times if after <= t <= before and len(w) > 1 and
                     w[0] == "move" and w[1].isdigit() and int(w[1]) == n), None)

    rows = []
    for ident, i, n, mover, t0, lat in samples:
        if not is_up(t0, lat):
            continue
        other = "b" if mover == "a" else "a"
        mine, theirs = traces[mover], traces[other]
        at = {"line": first(mine.get(("line", "%s%03d" % (mover, i)), []), t0 - 0.01)}
        at["woke"] = first(mine.get(("woke", "%s%03d" % (mover, i)), []), at["line"] or t0)
        for what in ("fast", "locked", "pub"):
            at[what] = first(mine.get((what, ident, str(n)), []), t0 - 0.01)
        # (the message that brought it: its move, or a log the other café asked for)
        got = [(t, w) for t, w in theirs.get(("recv", ident), []) if t0 - 0.01 <= t <= t0 + lat
               and len(w) > 1 and w[1].isdigit() and (w[0] == "move" and int(w[1]) == n or
                                                     w[0] == "log" and int(w[1]) >= n)]
        at["recv"] = got[0][0] if got else None
        # (the same move message read by the network thread, then taken from the inbox)
        at["read"] = first_move(theirs.get(("read", ident), []), n, t0 - 0.01,
                                at["recv"] or t0 + lat)
        at["deq"] = first_move(theirs.get(("deq", ident), []), n, at["read"] or t0,
                               at["recv"] or t0 + lat)
        # (the other host's first row of the match with this move in it)
        stored = [t for t, w in theirs.get(("stored", ident), []) if t >= (at["recv"] or t0)
                  and w and w[0].isdigit() and int(w[0]) >= n]
        at["stored"] = min(stored) if stored else None
        at["cmd"] = first(theirs.get(("cmd", ident, str(n)), []), t0 - 0.01)
        at["lit"] = t0 + lat
        legs, last = {}, t0
        for what in HOPS:
            if at[what] is not None:
                legs[what] = at[what] - last
                last = at[what]
        rows.append((lat, legs, crowd(t0), got[0][1][0] if got else "-"))
    if not rows:
        return

    def pct(xs, q):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000

    say("where the time went (broker up, %d moves): each hop's median / p95 in ms" % len(rows))
    for what in HOPS:
        xs = [r[1][what] for r in rows if what in r[1]]
        if xs:
            say("  -> %-58s %6.1f / %6.1f" % (HOP_NAMES[what], pct(xs, 0.5), pct(xs, 0.95)))
    cut = pct([r[0] for r in rows], 0.95) / 1000
    tail = [r for r in rows if r[0] >= cut]
    worst = {}
    for r in tail:
        hop = max(r[1], key=r[1].get)
        worst[hop] = worst.get(hop, 0) + 1
    how = {}
    for r in tail:
        how[r[3]] = how.get(r[3], 0) + 1
    for k in "ab":  # the matches' lock held 20 ms or longer, by whom (movetrace.HeldLock)
        held = {}
        with open(os.path.join(dump, k + ".trace")) as f:
            for line in f:
                words = line.split()
                if len(words) > 3 and words[1] == "held":
                    ms, where = int(words[2]), words[3].split("<")[0]
                    n, total, most = held.get(where, (0, 0, 0))
                    held[where] = (n + 1, total + ms, max(most, ms))
        say("cafe-%s's matches' lock held >= 20 ms: %s" % (k, ", ".join(
            "by %s %d times, %d ms in all, at most %d ms" % ((w,) + v) for w, v in
            sorted(held.items(), key=lambda kv: -kv[1][1])) or "never"))
    for k in "ab":  # Python's collections of 5 ms or longer (movetrace)
        ms = []
        with open(os.path.join(dump, k + ".trace")) as f:
            for line in f:
                words = line.split()
                if len(words) > 3 and words[1] == "gc":
                    ms.append(float(words[3]))
        say("cafe-%s's garbage collections >= 5 ms: %d, %.0f ms in all, at most %.0f ms" % (
            k, len(ms), sum(ms), max(ms or [0])))
    for k in "ab":  # the stand-ins' rounds of 50 ms or longer, and what they did in them
        path = os.path.join(dump, k + ".boards")
        rounds, spent = [], {}
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    words = line.split()
                    if len(words) > 2 and words[1] == "round":
                        rounds.append(float(words[2]))
                        for w in words[3:]:
                            what, _, v = w.partition("=")
                            spent[what] = spent.get(what, 0.0) + float(v)
        say("stand-ins %s: rounds >= 50 ms: %d (at most %.0f ms, %.0f ms in all; their work: "
            "%s)" % (k, len(rounds), max(rounds or [0]), sum(rounds), ", ".join(
                "%s %.0f ms" % kv for kv in sorted(spent.items(), key=lambda kv: -kv[1]))
                     or "none"))
    say("the slowest 5 %% (>= %.0f ms, %d moves): moves made within 50 ms of each: %.1f "
        "(of every move: %.1f); their longest hop: %s; the other café got them as: %s" % (
            cut * 1000, len(tail), statistics.mean(r[2] for r in tail),
            statistics.mean(r[2] for r in rows),
            ", ".join("%s %d" % (HOP_NAMES[k].split(" (")[0], v) for k, v in
                      sorted(worst.items(), key=lambda kv: -kv[1])),
            ", ".join("%s %d" % kv for kv in sorted(how.items(), key=lambda kv: -kv[1]))))


def _niceness(text):
    from xobo_host.cli.argtypes import whole_number

    try:
        value = whole_number(text)  # (ASCII digits, as every number of the xobo command)
    except argparse.ArgumentTypeError:
        value = -1
    if value > 19 or value < 0:
        raise argparse.ArgumentTypeError("'%s' is no niceness to add: use 0 to 19" % text)
    return value


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m xobo_host.cafe.remotebench",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--restarts", type=int, default=10)
    p.add_argument("--pause-ms", type=int, default=1000)
    p.add_argument("--think-spread", type=float, default=0.0,
                   help="each thought lasts pause * (1 +- this) at random (0: all alike)")
    p.add_argument("--down-ms", type=int, default=1000)
    p.add_argument("--most-moves", type=int, default=60,
                   help="a match is left after this many moves (a long random game)")
    p.add_argument("--dump", help="a directory for each move's times and the hosts' traces")
    p.add_argument("--stand-ins-nice", type=_niceness, default=STAND_IN_NICENESS,
                   help="the stand-in boards' niceness, added to this process's (default "
                   "%(default)s: below the hosts, as a café's boards are Picos of their own; "
                   "0: at the hosts' priority)")
    p.add_argument("--burner", action="store_true",
                   help="a CPU burner on one core all along (its results: remote-burner)")
    p.add_argument("--serve-boards", type=int, help=argparse.SUPPRESS)
    p.add_argument("--prefix", help=argparse.SUPPRESS)
    p.add_argument("--stalls", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve_boards:
        return serve_boards(args.serve_boards, args.prefix, args.stalls, args.stand_ins_nice)
    from xobo_host.bench.burner import Burner
    from xobo_host.cafe import benchfigures  # the results file (docs/figures.md)

    started = benchfigures.remote_run(args)
    burner = Burner() if args.burner else contextlib.nullcontext()
    with burner:
        out = run(args.matches, args.restarts, args.pause_ms, args.down_ms,
                  most_moves=args.most_moves, dump=args.dump, think_spread=args.think_spread,
                  stand_ins_nice=args.stand_ins_nice)
    if args.burner:
        started.note(burner.words())
    print("results: %s" % benchfigures.write_remote(started, out, args))
    return 1 if out["lost"] or out["doubled"] else 0


if __name__ == "__main__":
    sys.exit(main())
