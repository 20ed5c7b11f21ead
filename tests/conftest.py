"""Shared pytest set-up: import paths and the MicroPython unix port."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
TESTS = ROOT / "tests"

for p in (str(FIRMWARE), str(TESTS)):
    if p not in sys.path:
        sys.path.insert(0, p)

# a benchmark run by a test (the device check, a bench's own test) writes its results file
# in a folder of its own, never in the repository's bench-results/ (xobo_host.bench.results)
if not os.environ.get("XOBO_BENCH_RESULTS"):
    os.environ["XOBO_BENCH_RESULTS"] = tempfile.mkdtemp(prefix="xobo-bench-results-")


def soak_moves(full, short):
    """A soak's length: ``full`` under ``make soak`` (XOBO_SOAK=full), ``short`` in
    ``make test`` (which keeps each test under a minute; the heap checks catch a leak in the
    shorter run too: a XoBo soak once lost 200 B a move)."""
    import os

    return full if os.environ.get("XOBO_SOAK") == "full" else short


def run_micropython(args, heapsize="2M", extra_path=(), timeout=600, input_text=None, cwd=None):
    """Run the unix port with firmware/ and tests/ on MICROPYPATH; returns CompletedProcess.

    The interpreter and MICROPYPATH come from xobo_host.upy, as for the CLI and the bench."""
    from xobo_host.upy import micropython_command

    cmd, env = micropython_command(args, heapsize=heapsize,
                                   extra_path=[TESTS] + list(extra_path))
    return subprocess.run(
        cmd, env=env, capture_output=True, text=True, timeout=timeout, input=input_text, cwd=cwd
    )


@pytest.fixture
def upy():
    return run_micropython


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: two workers more than the cores. The browser, café and simulator tests
    wait on real time (a board's settle time, a host's hello, a page's update) while Chromium
    or a subprocess works: on a 2-core machine a third and a fourth worker fill those waits
    (CHANGELOG.md, "a shorter make test", has the measurements: 3 workers 239 s, 4 workers
    228 s, 5 workers 228 s with more Chromium)."""
    import os

    return (os.cpu_count() or 1) + 2


# --- how make test spreads the suite over the cores (-n auto --dist loadgroup) -----------------
# A module's tests run on one worker, together, so its module fixtures (a browser, a built
# firmware, a broker) are made once; a module that sets SPREAD_OVER_WORKERS = True has
# independent long tests (each dual-runtime module under MicroPython) that go to whichever
# worker is free; modules that set the same WORKER_GROUP run on one worker, together (what
# they build once in a process, they share). The groups with a test marked slow start first
# (xdist keeps this order: --no-loadscope-reorder), so a long test never begins while the
# other worker is idle.
@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config, items):
    group_of, first, slow = {}, {}, set()
    for k, item in enumerate(items):
        module = getattr(item, "module", None)
        if getattr(module, "SPREAD_OVER_WORKERS", False):
            group = item.nodeid
        else:
            # WORKER_GROUP: modules that share what a process builds once (the schematics)
            group = getattr(module, "WORKER_GROUP", None) or item.nodeid.split("::")[0]
            item.add_marker(pytest.mark.xdist_group(group))
        group_of[item.nodeid] = group
        first.setdefault(group, k)
        if item.get_closest_marker("slow") is not None:
            slow.add(group)
    order = {item.nodeid: k for k, item in enumerate(items)}
    items.sort(key=lambda item: (group_of[item.nodeid] not in slow,
                                 first[group_of[item.nodeid]], order[item.nodeid]))
