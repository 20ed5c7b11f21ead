"""The café benchmarks' results files: the figures of ``cafe.bench`` and ``cafe.remotebench``
written with ``xobo_host.bench.results`` (docs/figures.md quotes them).

Each bench starts a run before it measures (the load, the commit, the clock) and writes it at
its end with what it measured; a run with the arguments of ``make cafe-bench`` / ``make
remote-bench`` becomes the bench's ``latest.json``, another is kept only as a timestamped file.

Usage::

    >>> import argparse, json
    >>> from xobo_host.cafe import benchfigures
    >>> args = argparse.Namespace(boards=8, moves=200, pause_ms=1000)  # cafe/bench.py's options
    >>> started = benchfigures.cafe_run(args)         # before the bench's run()
    >>> out = {"pause_ms": 1000, "played": 200, "records_lost": 0,    # what run() returned
    ...        "latency_ms": {"n": 200, "median": 12.5, "p95": 40.1, "max": 90.0},
    ...        "host_cpu_percent_of_one_core": 10.2, "host_rss_mb": {"end": 46.2}}
    >>> path = benchfigures.write_cafe(started, out, args)   # at the end of its main
    >>> figure = json.loads(path.read_text())["figures"]["latency.p95"]
    >>> figure["value"], figure["unit"]
    (40.1, 'ms')
    >>> (path.parent / "latest.json").exists()        # make cafe-bench's arguments only
    False
    >>> # cafe/remotebench.py, the same: benchfigures.remote_run(args) before,
    >>> # benchfigures.write_remote(started, out, args) at the end
"""

import statistics

from xobo_host.bench import results as benchresults

# the arguments of make cafe-bench and make remote-bench (the benches' defaults)
CAFE_STANDARD = {"boards": 32, "moves": 1000, "pause_ms": 1000, "glibc_caches": False,
                 "trace_memory": False}
REMOTE_STANDARD = {"matches": 100, "restarts": 10, "pause_ms": 1000, "think_spread": 0.0,
                   "down_ms": 1000, "most_moves": 60}


def _standard(args, standard):
    return all(getattr(args, k, v) == v for k, v in standard.items())


def _latency(run, key, summary, what):
    for stat in ("median", "p95", "max"):
        if summary.get(stat) is not None:
            run.figure("%s.%s" % (key, stat), summary[stat], "ms",
                       "%s: %s (%d moves)" % (what, stat, summary["n"]))


def cafe_run(args):
    """The café bench's run, started (its load and commit now). ``--browser`` runs are the
    ``cafe-browser`` bench (the latency to the floor page's paint), the others ``cafe``."""
    browser = getattr(args, "browser", False)
    burner = getattr(args, "burner", False)  # (its own results: the quiet run's stay)
    bench = "cafe" + ("-browser" if browser else "") + ("-burner" if burner else "")
    if browser:
        command = "make cafe-bench (python -m xobo_host.cafe.bench --browser%s)" % (
            " --burner" if burner else "")
    else:
        command = "make cafe-bench-burner" if burner else "make cafe-bench"
    return benchresults.Run(bench, "The café host: %d stand-in boards playing X at once, "
                            "%d moves%s" % (args.boards, args.moves,
                                            ", a CPU burner on one core" if burner else ""),
                            command=command,
                            standard=_standard(args, CAFE_STANDARD))


def write_cafe(run, out, args, folder=None):
    """The café bench's figures (its ``run()`` result ``out``) into ``run`` (``cafe_run``),
    written as a results file; returns its path."""
    run.note("A player thinks %d ms after a move is shown; every move must be in the "
             "records." % out["pause_ms"])
    _latency(run, "latency", out["latency_ms"],
             "a board's move to the floor view's message showing it")
    if "paint_latency_ms" in out:
        _latency(run, "paint", out["paint_latency_ms"],
                 "a board's move to the floor page having painted it (headless Chromium)")
    ends = out.get("end_to_record_ms") or {}
    for stat in ("median", "p95", "max"):
        if ends.get(stat) is not None:
            run.figure("end-to-record.%s" % stat, ends[stat], "ms",
                       "a board's end of a game (event result) to its end in the game's "
                       "record: %s (%d ends)" % (stat, ends["n"]))
    run.figure("played", out["played"], "moves", "moves played")
    run.figure("records-lost", out["records_lost"], "moves", "moves missing from the records")
    run.figure("host-cpu", out["host_cpu_percent_of_one_core"], "%",
               "the café host's CPU, as a share of one core")
    rss = out["host_rss_mb"]
    for key, what in (("after_warmup", "after the warm-up"), ("end", "at the end"),
                      ("max", "at most")):
        if rss.get(key) is not None:
            run.figure("host-rss." + key.replace("_", "-"), rss[key], "MB",
                       "the café host's resident memory, %s" % what)
    growth = out.get("host_memory_growth_mb") or {}
    for key, value in sorted(growth.items()):
        run.figure("host-growth." + key[:-3].replace("_", "-"), value, "MB",
                   "the host's memory growth after the warm-up: %s" % key[:-3].replace("_", " "))
    for error in out.get("errors") or []:
        run.note("error: %s" % error)
    return run.write(folder)


def _p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))]


def remote_run(args):
    """The matches' bench's run, started (its load and commit now)."""
    burner = getattr(args, "burner", False)
    return benchresults.Run("remote-burner" if burner else "remote",
                            "Matches between two cafés through one local MQTT broker: %d "
                            "matches, the broker restarted %d times%s"
                            % (args.matches, args.restarts,
                               ", a CPU burner on one core" if burner else ""),
                            command="make remote-bench-burner" if burner else
                            "make remote-bench", standard=_standard(args, REMOTE_STANDARD))


def write_remote(run, out, args, folder=None):
    """The matches' bench's figures (its ``run()`` result ``out``) into ``run``
    (``remote_run``), written as a results file; returns its path."""
    run.note("Players think %d ms after a move is lit; the broker is down %d ms at each restart; "
             "the stand-in boards run at niceness +%d." % (args.pause_ms, args.down_ms,
                                                         args.stand_ins_nice))
    for key, xs, what in (("up", out["up"], "while the broker was up"),
                          ("every", out["every"], "every move, restarts included")):
        if not xs:
            continue
        at = "a board's move to the other café's board lighting it, %s (%d moves)" % (
            what, len(xs))
        run.figure(key + ".median", round(statistics.median(xs) * 1000, 1), "ms",
                   at + ": median")
        run.figure(key + ".p95", round(_p95(xs) * 1000, 1), "ms", at + ": p95")
        run.figure(key + ".max", round(max(xs) * 1000, 1), "ms", at + ": max")
    run.figure("lost", out["lost"], "moves", "moves lost (both cafés' logs, boards, records)")
    run.figure("doubled", out["doubled"], "moves", "moves doubled")
    run.figure("played", out["played"], "moves", "moves played")
    for k, v in sorted((out.get("cpu") or {}).items()):
        run.figure("host-cpu." + k, round(v), "%", "café %s's host CPU, as a share of one "
                   "core" % k.upper())
    for k, v in sorted((out.get("rss") or {}).items()):
        run.figure("host-rss." + k, round(v), "MB", "café %s's host resident memory at the end"
                   % k.upper())
    return run.write(folder)
