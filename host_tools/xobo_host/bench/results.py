"""Benchmark results as files: what every benchmark writes, and what docs/figures.md is made of.

A run writes ``bench-results/BENCH/YYYYMMDDTHHMMSSZ.json`` (UTC) and, when it ran with the
benchmark's standard arguments, the same to ``bench-results/BENCH/latest.json``. Only the
``latest.json`` files are committed: they are the figures the docs quote (docs/figures.md,
``xobo_host.bench.figures``), and git keeps their history; a timestamped file is the machine's own
record of a run (an experiment with other arguments writes only that), ignored by git.
``XOBO_BENCH_RESULTS`` names another folder (tests write to a temporary one).

Each file says when (UTC), on what code (the commit, and whether the tree had changes), on
what machine (CPU model, cores, the Python and MicroPython versions), under what load (the
load average when the run started and when it ended), with what command (the standard one
that measures it, and the actual command line), and its figures, each a value with its unit
and what it is::

    {"bench": "board-cycle", "title": "...", "command": "make bench",
     "argv": ["python", "-m", "xobo_host.bench.run"], "standard": true,
     "date": "2026-11-28T16:04:00Z", "seconds": 41.2,
     "git": {"commit": "7ef9c81...", "dirty": false},
     "machine": {"cpu": "AMD EPYC", "cores": 2, "python": "3.11.2", "micropython": "..."},
     "load": {"start": [2.3, 2.8, 1.5], "end": [2.9, 2.7, 1.6]},
     "figures": {"upy.idle": {"value": 148.5, "unit": "us", "what": "..."}}}

A figure's value is a number (rounded where it was measured) or a short text; ``quote``
gives the text the docs show for it. A file may also say where its figures come from when
no run of this code wrote them (``"source"``).

Usage::

    >>> from xobo_host.bench import results as benchresults
    >>> run = benchresults.Run("board-cycle", "The board's cycle", command="make bench")
    >>> # ... measure, then:
    >>> run.figure("upy.idle", 148.5, "us", "one idle cycle, MicroPython unix port")
    >>> path = run.write()            # bench-results/board-cycle/2026...Z.json, and latest.json
    >>> path.parent.name, path.suffix
    ('board-cycle', '.json')
    >>> latest = benchresults.latest("board-cycle")   # the committed figures, or None
    >>> latest["figures"]["upy.idle"]
    {'value': 148.5, 'unit': 'us', 'what': 'one idle cycle, MicroPython unix port'}
    >>> benchresults.quote(latest["figures"]["upy.idle"])   # as the docs show it
    '148.5 us'
"""

import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # the repository (host_tools/xobo_host/bench/..)
LATEST = "latest.json"
BENCH_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")  # (a heading of docs/figures.md: its anchor)
FIGURE_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")


def results_dir():
    """The folder of every benchmark's results (``XOBO_BENCH_RESULTS`` or bench-results/)."""
    return Path(os.environ.get("XOBO_BENCH_RESULTS") or ROOT / "bench-results")


def utc_now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def load_average():
    """The 1, 5 and 15 minute load averages, or None where the system has none."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def git_state(root=ROOT):
    """{"commit": full hash or None, "dirty": whether tracked files differ from it}."""
    def git(*args):
        try:
            out = subprocess.run(["git", "-C", str(root)] + list(args), capture_output=True,
                                 text=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout.strip() if out.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": bool(status) if status is not None else None}


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


_UPY_VERSION = ("import sys; v = sys.implementation.version; print('%d.%d.%d%s (%s)' % (v[0], "
                "v[1], v[2], '-' + v[3] if len(v) > 3 and v[3] else '', sys.version))")


def micropython_version():
    """The unix port's own words (``sys.version``, its build), or None when it is missing."""
    try:
        from xobo_host.upy import micropython_executable

        out = subprocess.run([micropython_executable(), "-c", _UPY_VERSION],
                             capture_output=True, text=True, timeout=30)
        return out.stdout.strip() or None
    except (OSError, FileNotFoundError, subprocess.SubprocessError):
        return None


def machine(extra=None):
    """What the figures were measured on: CPU, cores, the interpreters (``extra`` adds to it:
    the emulator, the firmware under check)."""
    out = {"cpu": cpu_model(), "cores": os.cpu_count(), "os": platform.platform(),
           "python": platform.python_version(), "micropython": micropython_version()}
    out.update(extra or {})
    return out


def quote(figure):
    """The text the docs show for a figure: its value (thousands separated) and its unit
    (``%`` and ``x``, a ratio, glued to the number)."""
    value, unit = figure["value"], figure.get("unit") or ""
    text = format(value, ",") if isinstance(value, (int, float)) else str(value)
    if not unit:
        return text
    return text + unit if unit in ("%", "x") else "%s %s" % (text, unit)


class Run:
    """One run of a benchmark: started when made (its load, its clock), written by
    ``write``."""

    def __init__(self, bench, title, command, standard=True, argv=None):
        if not BENCH_NAME.match(bench):
            raise ValueError("bench name %r: lower-case letters, digits, '-', '_'" % bench)
        self.bench = bench
        self.title = title
        self.command = command
        self.standard = standard
        self.argv = list(getattr(sys, "orig_argv", sys.argv) if argv is None else argv)
        self.date = utc_now()
        self.t0 = time.monotonic()
        self.load_start = load_average()
        self.git = git_state()  # (the code as it was when the run started)
        self.figures = {}
        self.notes = []
        self.machine_extra = {}

    def figure(self, name, value, unit, what):
        """Record a figure: ``value`` (a number, rounded as it should be quoted, or a short
        text) in ``unit`` (``ms``, ``us``, ``B``, ``%``, ``x`` for a ratio,
        ``games``...), ``what`` it is in words."""
        if not FIGURE_ID.match(name):
            raise ValueError("figure name %r: lower-case letters, digits, '.', '-', '_'"
                             % name)
        if isinstance(value, float) and value != value:
            raise ValueError("figure %s is not a number (NaN): it was not measured" % name)
        self.figures[name] = {"value": value, "unit": unit, "what": what}

    def note(self, text):
        """A sentence the figures page shows with this run (what it did, what to know)."""
        self.notes.append(text)

    def as_dict(self):
        return {
            "bench": self.bench, "title": self.title, "command": self.command,
            "argv": self.argv, "standard": self.standard, "date": self.date,
            "seconds": round(time.monotonic() - self.t0, 1), "git": self.git,
            "machine": machine(self.machine_extra),
            "load": {"start": self.load_start, "end": load_average()},
            "notes": self.notes, "figures": self.figures,
        }

    def write(self, folder=None):
        """Write the run (its end load taken now): the timestamped file, and ``latest.json``
        when it ran with the standard arguments. Returns the timestamped file's path."""
        data = self.as_dict()
        return write(data, folder)


def write(data, folder=None):
    """Write one run's ``data`` (``Run.as_dict``'s shape) under ``folder`` (default:
    ``results_dir()``); returns the timestamped file's path."""
    where = Path(folder or results_dir()) / data["bench"]
    where.mkdir(parents=True, exist_ok=True)
    stamp = data["date"].replace("-", "").replace(":", "")
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    path = where / (stamp + ".json")
    _write_atomically(path, text)
    if data.get("standard"):
        _write_atomically(where / LATEST, text)
    return path


def _write_atomically(path, text):
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def latest(bench, folder=None):
    """The latest standard run of ``bench`` as a dict, or None."""
    path = Path(folder or results_dir()) / bench / LATEST
    return json.loads(path.read_text()) if path.exists() else None


def all_latest(folder=None):
    """{bench: its latest run} of every benchmark with one, by name."""
    base = Path(folder or results_dir())
    out = {}
    for path in sorted(base.glob("*/" + LATEST)):
        out[path.parent.name] = json.loads(path.read_text())
    return out
