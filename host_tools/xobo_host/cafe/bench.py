"""The café benchmark: many boards playing at once on one host (docs/cafe.md, "Measured").

It starts ``--boards`` stand-in boards (the real firmware behind pseudo-terminals,
``xobo_host.sim.ptyboard``, each logging its events with the time), ``xobo cafe`` as its own
process following them, a floor-view client (the page's server-sent events) and, with
``--browser``, the floor page itself in headless Chromium (Playwright, Debian's
/usr/bin/chromium). Players at every table play X (three players; any empty cell is a move)
until ``--moves`` moves are played in all, a new game when one ends; after a move is shown a
player thinks ``--pause-ms`` (1 s: 32 tables make about 25 moves a second, some hundred times
a real café's pace; 0: moves as fast as the boards' settle time lets them). It reports:

- the latency from each board's ``event move`` (the board's clock: the host's, same machine)
  to the floor view's message showing that move: median, p95, max;
- with ``--browser``, the latency from the same event to the floor page having painted it:
  the page marks each update once the frame drawing it is painted (``xobo:painted``,
  cafe.js) with its wall-clock time (``performance.timeOrigin + performance.now()``, the
  same system clock as the boards' event times);
- the records: every move played must be in the database, in order, in its table's games;
- the time from a board's end of a game (its ``event result``: a game over by the rules, and
  every table's last game, resigned when the moves are all played) to the end being in that
  game's record (its end time set; the database read every 20 ms): median, p95, max;
- the host process's memory: its RSS sampled every second (by tenths of the run), and at
  every tenth of the moves by its owners (``host_memory_parts``: anonymous memory by mapping,
  the C heap, SQLite's own, Python's arenas; with ``--trace-memory`` Python's objects by
  tracemalloc, and where they grew); its growth from the first tenth (the warm-up) to the
  end. The host runs as ``xobo cafe`` does, with glibc's per-thread caches off
  (``cafe/allocator.py``; ``--glibc-caches``: on, as before);
- the host's CPU (user + system seconds over the run, as a share of one core).

Usage::

    python -m xobo_host.cafe.bench                      # 32 boards, 1,000 moves
    python -m xobo_host.cafe.bench --boards 8 --moves 200
    python -m xobo_host.cafe.bench --browser            # and the latency to the painting
    python -m xobo_host.cafe.bench --moves 12000        # the long run of the host's memory
"""

import argparse
import contextlib
import ctypes
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from xobo_host.cafe import allocator
from xobo_host.chromium import CHROMIUM
from xobo_host.records.gamesdb import GamesDB
from xobo_host.sim.ptyboard import PtyBoard

SETTLE_MS = 200
X_CELLS = [f + str(r) for r in range(1, 9) for f in "abcdefgh"]  # X's 8 x 8 rhombus
# its own switches (not xobo_host.chromium's: the floor page's documented figures were
# measured with these), Chromium where the host's tools launch it
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]
# what the bench adds to the floor page: it keeps the page's paint marks for the bench to
# collect (the page itself keeps none: a floor screen runs for weeks)
PAINT_COLLECTOR = """
window.__xoboPaints = [];
document.addEventListener("xobo:painted", (e) => {
  for (const t of e.detail.tables) window.__xoboPaints.push([t.key, t.ply, e.detail.at]);
});
"""


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


# -- the host process: its memory by owners ------------------------------------------------
class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def host_memory_parts(traced=False):
    """This process's memory by its owners: RSS; the C heap (glibc's ``mallinfo2``: in use,
    and free but kept by the allocator); SQLite's own (``sqlite3_memory_used``: every
    connection's page cache, statements and schema); with ``traced``, Python's objects as
    tracemalloc counts them."""
    import ctypes.util
    import gc

    out = {"rss_mb": round(_rss_mb(os.getpid()), 2)}
    with open("/proc/self/status") as f:  # RSS = anonymous + file pages + shared memory
        for line in f:
            if line.startswith(("RssAnon:", "RssFile:", "RssShmem:")):
                key = line.split(":")[0][3:].lower()
                out["rss_%s_mb" % key] = round(int(line.split()[1]) / 1024, 2)
    out.update(_anon_by_mapping())
    out["python_arenas_mb"] = _pymalloc_arenas_mb()
    out.update(python_blocks=sys.getallocatedblocks(), python_objects=len(gc.get_objects()),
               threads=threading.active_count())
    try:
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
        out["malloc_in_use_mb"] = round((info.uordblks + info.hblkhd) / 2**20, 2)
        out["malloc_free_kept_mb"] = round(info.fordblks / 2**20, 2)
    except (OSError, AttributeError):  # not glibc
        pass
    name = ctypes.util.find_library("sqlite3")
    if name:
        lib = ctypes.CDLL(name)  # the library _sqlite3 loaded: the same one, its counters
        lib.sqlite3_memory_used.restype = ctypes.c_int64
        out["sqlite_mb"] = round(lib.sqlite3_memory_used() / 2**20, 2)
    if traced:
        import tracemalloc

        out["python_traced_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 2)
    return out


def _anon_by_mapping():
    """The anonymous memory resident, by the kind of mapping that holds it (``smaps``): the
    main heap (``[heap]``: glibc's main arena), glibc's other arenas (a 64 MB reservation,
    its used part writable), the threads' stacks (8 MB behind a guard page), and the rest
    (Python's 1 MB arenas among it)."""
    maps = []  # [start, end, perms, name, rss kB]
    with open("/proc/self/smaps") as f:
        for line in f:
            first = line.split(None, 1)[0]
            if "-" in first and not first.endswith(":"):  # a mapping's header line
                words = line.split()
                start, end = (int(x, 16) for x in first.split("-"))
                maps.append([start, end, words[1], words[5] if len(words) > 5 else "", 0])
            elif first == "Rss:" and maps:
                maps[-1][4] = int(line.split()[1])
    kinds = {"heap": 0, "malloc_arenas": 0, "thread_stacks": 0, "other_anon": 0}
    for i, (start, end, perms, name, rss) in enumerate(maps):
        if name == "[heap]":
            kinds["heap"] += rss
            continue
        if name or not perms.startswith("rw"):
            continue  # files, the main thread's stack, guard pages
        before = maps[i - 1] if i else None
        after = maps[i + 1] if i + 1 < len(maps) else None
        if after and after[0] == end and after[2].startswith("---") and not after[3] \
                and (after[1] - start) % (64 << 20) == 0:
            kinds["malloc_arenas"] += rss
        elif before and before[1] == start and before[2].startswith("---") and not before[3] \
                and before[1] - before[0] <= (64 << 10) and end - start >= (1 << 20):
            kinds["thread_stacks"] += rss
        else:
            kinds["other_anon"] += rss
    return {"anon_%s_mb" % k: round(v / 1024, 2) for k, v in kinds.items()}


def _pymalloc_arenas_mb():
    """The arenas Python's small-object allocator holds (``sys._debugmallocstats``, which
    writes to the C stderr: read back through a temporary file)."""
    import re

    with tempfile.TemporaryFile() as tmp:
        saved = os.dup(2)
        try:
            sys.stderr.flush()
            os.dup2(tmp.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode("ascii", "replace")
    found = re.search(r"(\d+) arenas \* (\d+) bytes/arena", text)
    return round(int(found.group(1)) * int(found.group(2)) / 2**20, 2) if found else None


def measured_host(stats_dir, trace, argv):
    """Run ``xobo cafe`` (``argv``) so that each SIGUSR1 writes the host's memory by its
    owners (``stats_dir/N.json``) and, with ``trace``, a tracemalloc snapshot
    (``stats_dir/N.snap``)."""
    import tracemalloc

    from xobo_host.cli import main as cli

    if trace:
        tracemalloc.start(12)
    taken = [0]

    def dump(*_):
        taken[0] += 1
        base = os.path.join(stats_dir, str(taken[0]))
        if trace:
            tracemalloc.take_snapshot().dump(base + ".snap")
        parts = host_memory_parts(trace)
        with open(base + ".tmp", "w") as f:
            json.dump(parts, f)
        os.replace(base + ".tmp", base + ".json")  # whole, when the bench sees it

    signal.signal(signal.SIGUSR1, dump)
    return cli.main(argv)


def _short(filename):
    for cut in ("site-packages/", "host_tools/", "firmware/", "lib/python3.11/"):
        if cut in filename:
            return filename.split(cut, 1)[1]
    return filename


def growth(before, after, top=12):
    """Where the host's traced memory grew between two tracemalloc snapshots: the largest
    differences by the calls that allocated (the innermost first)."""
    import tracemalloc

    ignore = [tracemalloc.Filter(False, tracemalloc.__file__)]
    old = tracemalloc.Snapshot.load(before).filter_traces(ignore)
    new = tracemalloc.Snapshot.load(after).filter_traces(ignore)
    out = []
    for stat in new.compare_to(old, "traceback")[:top]:
        where = ["%s:%d" % (_short(f.filename), f.lineno) for f in reversed(list(stat.traceback))]
        out.append({"kb": round(stat.size_diff / 1024, 1), "blocks": stat.count_diff,
                    "where": " < ".join(where[:5])})
    return out


# -- the floor's viewers -------------------------------------------------------------------
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


class FloorPage(threading.Thread):
    """The floor page in headless Chromium: every paint mark (table, ply, when) it makes.
    Playwright's sync API stays in this thread; the marks are collected every half second."""

    def __init__(self, url):
        threading.Thread.__init__(self, daemon=True, name="bench-browser")
        self.url = url
        self.seen = {}  # key -> [(time, ply)] for every change of ply painted
        self.ready = threading.Event()
        self.done = threading.Event()
        self.error = None

    def run(self):
        try:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1920, "height": 1080})
                page.add_init_script(PAINT_COLLECTOR)
                page.goto(self.url)
                page.wait_for_selector(".table-card")
                self.ready.set()
                last = {}
                while True:
                    stop = self.done.wait(0.5)
                    for key, ply, at in page.evaluate("() => window.__xoboPaints.splice(0)"):
                        if last.get(key) != ply:
                            last[key] = ply
                            self.seen.setdefault(key, []).append((at / 1000, ply))
                    if stop:
                        break
                browser.close()
        except Exception as exc:  # said in the report, not a hang
            self.error = "%s: %s" % (type(exc).__name__, exc)
            self.ready.set()


def _latencies(event_times, seen):
    """The delay of each move: the k-th ``event move`` of a table against the k-th ply
    increase seen (a ply that jumps by two shows two moves at once)."""
    out = []
    for name, events in event_times.items():
        shown = []
        last = 0
        for when, ply in seen.get(name, []):
            if ply > last:
                shown.extend([when] * (ply - last))
            last = ply
        for ev, when in zip(events, shown, strict=False):
            out.append((when - ev) * 1000)
    return out


def _summary(latencies):
    if not latencies:
        return {"n": 0, "median": None, "p95": None, "max": None}
    ordered = sorted(latencies)
    return {"n": len(ordered), "median": round(statistics.median(ordered), 1),
            "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
            "max": round(ordered[-1], 1)}


# -- the run -------------------------------------------------------------------------------
def run(n_boards=32, n_moves=1000, pause_ms=1000, verbose=True, trace_memory=False,
        browser=False, glibc_caches=False):
    """The benchmark (see the module's docstring); its report as a dict. Whatever happens,
    the boards and the host it started are stopped when it returns or fails."""
    started = []  # the stand-ins and the host, as they start
    try:
        return _run(started, n_boards, n_moves, pause_ms, verbose, trace_memory, browser,
                    glibc_caches)
    finally:
        for thing in reversed(started):
            if isinstance(thing, PtyBoard):
                thing.unplug()
            elif thing.poll() is None:
                thing.terminate()
                thing.wait(20)


def _run(started, n_boards, n_moves, pause_ms, verbose, trace_memory, browser, glibc_caches):
    from xobo_host.cafe.staff import Staff

    tmp = tempfile.mkdtemp(prefix="xobo-cafe-bench-")
    say = print if verbose else (lambda *a, **k: None)
    boards = []
    say("starting %d stand-in boards..." % n_boards)
    for i in range(n_boards):
        name = "table-%02d" % (i + 1)
        b = PtyBoard(os.path.join(tmp, name), events_file=os.path.join(tmp, name + ".events"))
        started.append(b)
        b.plug()
        b.play("serial set name " + name)
        b.play("serial set settle %d" % SETTLE_MS)
        b.play("serial set game x")
        boards.append((name, b))
    db_path = os.path.join(tmp, "games.sqlite")
    Staff.create(os.path.join(tmp, "staff.json"), "bench-password")
    stats_dir = os.path.join(tmp, "host-memory")
    os.makedirs(stats_dir)
    args = [sys.executable, "-m", "xobo_host.cafe.bench", "--measured-host", stats_dir,
            "traced" if trace_memory else "untraced",
            "cafe", "--no-usb-scan", "--db", db_path, "--http-port", "0", "--no-browser"]
    for _, b in boards:
        args += ["--port", b.device]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if not glibc_caches:  # as `xobo cafe` runs itself (cafe/allocator.py)
        env = allocator.environment(env)
    host = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    started.append(host)
    line = host.stdout.readline()
    if not line.startswith("XoBo cafe: http://"):
        raise RuntimeError("xobo cafe did not start: %s %s" % (line, host.stderr.read()))
    url = line.split()[2]
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    watcher = FloorWatcher(port)
    watcher.start()
    for name, _ in boards:
        if not watcher.wait_ply(name, 0, 240 if trace_memory else 60):  # traced: slower
            raise RuntimeError("%s never appeared on the floor" % name)
    page = None
    if browser:
        page = FloorPage(url)
        page.start()
        page.ready.wait(120)
        if page.error:
            raise RuntimeError("the floor page in Chromium: %s" % page.error)
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
    marks = []  # the host's memory by owners: after each tenth of the moves, at the end
    tenth = max(1, n_moves // 10)

    marking = threading.Lock()  # one mark at a time (two signals at once would be one)

    def memory_mark():
        with marking:
            out = {"at_move": n_moves - max(left[0], 0)}
            os.kill(host.pid, signal.SIGUSR1)
            path = os.path.join(stats_dir, "%d.json" % (len(marks) + 1))
            deadline = time.monotonic() + 120
            while not os.path.exists(path) and time.monotonic() < deadline:
                time.sleep(0.05)
            with open(path) as f:
                out.update(json.load(f))
            marks.append(out)

    cpu0, t0 = _proc_stat(host.pid), time.time()

    recorded_ends = {name: [] for name, _ in boards}  # when each end was in its record

    def ended_in_record(name):
        """Wait for the table's next game end to be in its record (its end time set);
        the time it was seen there (an error after a minute)."""
        want = len(recorded_ends[name]) + 1
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                db = GamesDB(db_path, readonly=True)
            except Exception:  # (the host has not made the file yet)
                time.sleep(0.02)
                continue
            try:
                n = sum(1 for g in db.list_games(source=name) if g["ended_at"])
            finally:
                db.close()
            if n >= want:
                recorded_ends[name].append(time.time())
                return
            time.sleep(0.02)
        errors.append("%s: the end of its game %d never reached its record" % (name, want))

    def player(name, board):
        cells = list(X_CELLS)
        ply = 0
        try:
            while True:
                with lock:
                    if left[0] <= 0:
                        # the table's last game ends: resigned (red for everyone)
                        board.play("serial resign red none")
                        ended_in_record(name)
                        return
                    left[0] -= 1
                    mark = (n_moves - left[0]) % tenth == 0 and left[0] > 0
                if mark:
                    memory_mark()
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
                    if tables["result"] != "*":
                        ended_in_record(name)
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
    time.sleep(3.0)  # the host records the last moves (its poll); the page paints them
    memory_mark()
    if page is not None:
        page.done.set()
        page.join(60)
    sampling.set()
    watcher.stop = True
    host.terminate()
    host.wait(20)
    for _, b in boards:
        b.unplug()

    event_times = {}  # the board's clock at each 'event move', per table
    end_to_record = []  # each game's 'event result' to its end in the record, ms
    for name, _ in boards:
        with open(os.path.join(tmp, name + ".events")) as f:
            lines = [line.split(" ", 1) for line in f]
        event_times[name] = [float(t) for t, line in lines if line.startswith("event move ")]
        ends = [float(t) for t, line in lines if line.startswith("event result ")]
        end_to_record += [1000 * (seen - at) for at, seen in zip(ends, recorded_ends[name],
                                                                  strict=False)]
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
        "latency_ms": _summary(_latencies(event_times, watcher.seen)),
        "records_lost": lost,
        "end_to_record_ms": _summary(end_to_record),
        "host_cpu_percent_of_one_core": round(100 * (cpu1 - cpu0) / (t1 - t0), 1),
        "host_rss_mb": {"after_warmup": round(warm[0], 1) if warm else None,
                        "end": round(warm[-1], 1) if warm else None,
                        "max": round(max(warm), 1) if warm else None,
                        "tenths": [round(warm[i * (len(warm) - 1) // 10], 1)
                                   for i in range(11)] if warm else []},
        "host_glibc_thread_caches": "on" if glibc_caches else "off",
        "host_memory": marks,
        # after the warm-up (the first tenth of the moves) to the end
        "host_memory_growth_mb": {k: round(marks[-1][k] - marks[0][k], 2) for k in marks[0]
                                  if k.endswith("_mb") and marks[0][k] is not None}
        if len(marks) >= 2 else {},
        "errors": errors[:10],
    }
    if page is not None:
        out["paint_latency_ms"] = _summary(_latencies(event_times, page.seen))
        if page.error:
            out["errors"].append("the floor page: " + page.error)
    if trace_memory and len(marks) >= 2:
        out["tracemalloc_growth"] = growth(os.path.join(stats_dir, "1.snap"),
                                           os.path.join(stats_dir, "%d.snap" % len(marks)))
    return out


def _get(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        return conn.getresponse().read()
    finally:
        conn.close()


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--measured-host"]:  # the host process the benchmark starts
        return measured_host(argv[1], argv[2] == "traced", argv[3:])
    p = argparse.ArgumentParser(prog="python -m xobo_host.cafe.bench",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--boards", type=int, default=32)
    p.add_argument("--moves", type=int, default=1000)
    p.add_argument("--pause-ms", type=int, default=1000,
                   help="how long a player thinks after a move is shown (0: none)")
    p.add_argument("--browser", action="store_true",
                   help="the floor page in headless Chromium too: the latency to its paint")
    p.add_argument("--glibc-caches", action="store_true",
                   help="the host with glibc's per-thread caches on (as before cafe/"
                   "allocator.py: the C heap grows all along the run)")
    p.add_argument("--trace-memory", action="store_true",
                   help="the host under tracemalloc (slower): Python's objects after the "
                   "warm-up and at the end, and where they grew")
    p.add_argument("--burner", action="store_true",
                   help="a CPU burner on one core all along (its results: cafe-burner)")
    args = p.parse_args(argv)
    from xobo_host.bench.burner import Burner
    from xobo_host.cafe import benchfigures  # the results file (docs/figures.md)

    started = benchfigures.cafe_run(args)
    burner = Burner() if args.burner else contextlib.nullcontext()
    with burner:
        out = run(args.boards, args.moves, args.pause_ms, trace_memory=args.trace_memory,
                  browser=args.browser, glibc_caches=args.glibc_caches)
    if args.burner:
        started.note(burner.words())
    print(json.dumps(out, indent=2))
    ok = (out["records_lost"] == 0 and out["played"] == args.moves and not out["errors"]
          and out["end_to_record_ms"]["n"] >= args.boards
          and out["latency_ms"]["p95"] is not None and out["latency_ms"]["p95"] <= 200)
    print("PASS" if ok else "FAIL: the café's targets are 200 ms p95, no record lost")
    print("results: %s" % benchfigures.write_cafe(started, out, args))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
