"""The café benchmark: many boards playing at once on one host (docs/cafe.md, "Measured").

It starts ``--boards`` stand-in boards (the real firmware behind pseudo-terminals,
``xobo_host.ptyboard``, each logging its events with the time), ``xobo cafe`` as its own
process following them, and a floor-view client (the page's server-sent events). Players at
every table play X (three players; any empty cell is a move) until ``--moves`` moves are
played in all, a new game when one ends; after a move is shown a player thinks ``--pause-ms``
(1 s: 32 tables make about 25 moves a second, some hundred times a real café's pace; 0: moves
as fast as the boards' settle time lets them). It reports:

- the latency from each board's ``event move`` (the board's clock: the host's, same machine)
  to the floor view's message showing that move: median, p95, max;
- the records: every move played must be in the database, in order, in its table's games;
- the host process's memory (RSS, sampled every second: after the warm-up, at the end, the
  most) and CPU (user + system seconds over the run, as a share of one core).

Usage::

    python -m xobo_host.cafe.bench                      # 32 boards, 1,000 moves
    python -m xobo_host.cafe.bench --boards 8 --moves 200
"""

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time

from xobo_host.gamesdb import GamesDB
from xobo_host.ptyboard import PtyBoard

SETTLE_MS = 200
X_CELLS = [f + str(r) for r in range(1, 9) for f in "abcdefgh"]  # X's 8 x 8 rhombus


def _proc_stat(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick  # utime + stime


def _rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class FloorWatcher(threading.Thread):
    """A floor view: follows /api/events and notes when each table's ply changed."""

    def __init__(self, port):
        threading.Thread.__init__(self, daemon=True, name="bench-floor")
        self.port = port
        self.plies = {}  # key -> ply last seen
        self.seen = {}  # key -> [(time, ply)] for every change of ply
        self.changed = threading.Condition()
        self.stop = False

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", "/api/events")
        resp = conn.getresponse()
        data = b""
        while not self.stop:
            line = resp.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                data = line[6:]
            elif line == b"\n" and data:
                now = time.time()
                msg = json.loads(data)
                data = b""
                with self.changed:
                    for t in msg.get("tables", []):
                        if self.plies.get(t["key"]) != t["ply"] and t["online"]:
                            self.plies[t["key"]] = t["ply"]
                            self.seen.setdefault(t["key"], []).append((now, t["ply"]))
                    self.changed.notify_all()

    def wait_ply(self, key, ply, timeout=30.0):
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.plies.get(key) != ply:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
        return True


def run(n_boards=32, n_moves=1000, pause_ms=1000, verbose=True):
    from xobo_host.cafe.staff import Staff

    tmp = tempfile.mkdtemp(prefix="xobo-cafe-bench-")
    say = print if verbose else (lambda *a, **k: None)
    boards = []
    say("starting %d stand-in boards..." % n_boards)
    for i in range(n_boards):
        name = "table-%02d" % (i + 1)
        b = PtyBoard(os.path.join(tmp, name), events_file=os.path.join(tmp, name + ".events"))
        b.plug()
        b.play("serial set name " + name)
        b.play("serial set settle %d" % SETTLE_MS)
        b.play("serial set game x")
        boards.append((name, b))
    db_path = os.path.join(tmp, "games.sqlite")
    Staff.create(os.path.join(tmp, "staff.json"), "bench-password")
    import subprocess

    args = [sys.executable, "-m", "xobo_host.cli", "cafe", "--no-usb-scan", "--db", db_path,
            "--http-port", "0", "--no-browser"]
    for _, b in boards:
        args += ["--port", b.device]
    host = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    line = host.stdout.readline()
    if not line.startswith("XoBo cafe: http://"):
        raise RuntimeError("xobo cafe did not start: %s %s" % (line, host.stderr.read()))
    port = int(line.split()[2].rstrip("/").rsplit(":", 1)[1])
    watcher = FloorWatcher(port)
    watcher.start()
    for name, _ in boards:
        if not watcher.wait_ply(name, 0, 60):
            raise RuntimeError("%s never appeared on the floor" % name)
    say("all %d tables on the floor; playing %d moves..." % (n_boards, n_moves))
    samples = []  # (time, rss MB)
    sampling = threading.Event()

    def sample():
        while not sampling.wait(1.0):
            samples.append((time.time(), _rss_mb(host.pid)))

    threading.Thread(target=sample, daemon=True).start()
    played = {name: [[]] for name, _ in boards}  # the games each table played (cells)
    left = [n_moves]
    lock = threading.Lock()
    errors = []
    cpu0, t0 = _proc_stat(host.pid), time.time()

    def player(name, board):
        cells = list(X_CELLS)
        ply = 0
        try:
            while True:
                with lock:
                    if left[0] <= 0:
                        return
                    left[0] -= 1
                cell = cells.pop(0)
                board.play("put " + cell)
                ply += 1
                if not watcher.wait_ply(name, ply):
                    errors.append("%s: move %d (%s) never shown" % (name, ply, cell))
                    return
                played[name][-1].append(cell)
                if pause_ms:
                    time.sleep(pause_ms / 1000)  # the next player thinks (a fast one)
                tables = json.loads(_get(port, "/api/table/" + name))
                if tables["result"] != "*" or not cells:
                    board.play("serial new")
                    for c in played[name][-1]:
                        board.play("lift " + c)
                    played[name].append([])
                    cells = list(X_CELLS)
                    ply = 0
                    watcher.wait_ply(name, 0)
        except Exception as exc:
            errors.append("%s: %s: %s" % (name, type(exc).__name__, exc))

    threads = [threading.Thread(target=player, args=(n, b), daemon=True) for n, b in boards]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cpu1, t1 = _proc_stat(host.pid), time.time()
    time.sleep(3.0)  # the host records the last moves (its poll)
    sampling.set()
    watcher.stop = True
    host.terminate()
    host.wait(20)
    for _, b in boards:
        b.unplug()

    # latency: the k-th move event of a board against the k-th ply increase on the floor
    latencies = []
    for name, _ in boards:
        events = []
        with open(os.path.join(tmp, name + ".events")) as f:
            for line in f:
                stamp, _, text = line.partition(" ")
                if text.startswith("event move "):
                    events.append(float(stamp))
        shown = []
        last = 0
        for when, ply in watcher.seen.get(name, []):
            if ply > last:
                shown.extend([when] * (ply - last))
            last = ply
        for ev, seen in zip(events, shown, strict=False):
            latencies.append((seen - ev) * 1000)
    # records: every game of every table, every move, in order
    db = GamesDB(db_path, readonly=True)
    lost = 0
    total = 0
    for name, _ in boards:
        games = [g for g in db.list_games(source=name) if g["n_moves"]]
        recorded = [[m["notation"] for m in db.moves(g["id"])] for g in games]
        for i, cells in enumerate(g for g in played[name] if g):
            total += len(cells)
            got = recorded[i] if i < len(recorded) else []
            lost += sum(1 for a, b in zip(cells, got + [None] * len(cells), strict=False)
                        if a != b)
    db.close()
    warm = [rss for when, rss in samples if when > t0 + 5]
    out = {
        "boards": n_boards, "moves": n_moves, "pause_ms": pause_ms, "played": total,
        "seconds": round(t1 - t0, 1),
        "latency_ms": {
            "n": len(latencies),
            "median": round(statistics.median(latencies), 1) if latencies else None,
            "p95": round(sorted(latencies)[int(0.95 * (len(latencies) - 1))], 1)
            if latencies else None,
            "max": round(max(latencies), 1) if latencies else None,
        },
        "records_lost": lost,
        "host_cpu_percent_of_one_core": round(100 * (cpu1 - cpu0) / (t1 - t0), 1),
        "host_rss_mb": {"after_warmup": round(warm[0], 1) if warm else None,
                        "end": round(warm[-1], 1) if warm else None,
                        "max": round(max(warm), 1) if warm else None,
                        "tenths": [round(warm[i * (len(warm) - 1) // 10], 1)
                                   for i in range(11)] if warm else []},
        "errors": errors[:10],
    }
    return out


def _get(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        return conn.getresponse().read()
    finally:
        conn.close()


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m xobo_host.cafe.bench",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--boards", type=int, default=32)
    p.add_argument("--moves", type=int, default=1000)
    p.add_argument("--pause-ms", type=int, default=1000,
                   help="how long a player thinks after a move is shown (0: none)")
    args = p.parse_args(argv)
    out = run(args.boards, args.moves, args.pause_ms)
    print(json.dumps(out, indent=2))
    ok = (out["records_lost"] == 0 and out["played"] == args.moves and not out["errors"]
          and out["latency_ms"]["p95"] is not None and out["latency_ms"]["p95"] <= 200)
    print("PASS" if ok else "FAIL: the café's targets are 200 ms p95, no record lost")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
