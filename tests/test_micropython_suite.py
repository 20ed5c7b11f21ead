"""Every dual-runtime test module also runs under the MicroPython unix port.

A module opts in with ``# dual-runtime`` as its first line; each becomes one test here, so a
failure names the module, and the output names the failing functions. A first line
``# dual-runtime per-game`` makes one test a game instead (the module's tests name their game,
``test_<game>_...``: the conformance suite), so the games run side by side on the cores.
"""


import pytest
from conftest import TESTS, run_micropython

from xobo.games import GAMES

# each module (or game) is a test of its own, on whichever worker is free (tests/conftest.py)
SPREAD_OVER_WORKERS = True
PER_GAME = "per-game"


def _dual_modules():
    """[(module, options)] of every dual-runtime module: its first line's words after
    ``# dual-runtime``."""
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        with open(path, encoding="utf-8") as f:
            words = f.readline().split()
        if words[:2] == ["#", "dual-runtime"]:
            rel = path.relative_to(TESTS).with_suffix("")
            found.append((".".join(rel.parts), words[2:]))
    return found


DUAL = _dual_modules()
# a module run game by game is long (the conformance suite's random games): those start first
RUNS = [pytest.param(module + ":" + game, marks=pytest.mark.slow) if PER_GAME in options
        else module
        for module, options in DUAL for game in (GAMES if PER_GAME in options else ("",))]


@pytest.mark.parametrize("module", RUNS)
def test_module_passes_under_micropython(module):
    # (the timeout only turns a hang into a failure: the conformance module takes 2 min of
    # CPU, and a loaded 2-core machine stretches that past the default 10 min)
    proc = run_micropython([str(TESTS / "upy" / "runner.py"), module], heapsize="4M",
                           timeout=1800)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, "under MicroPython:\n" + out[-6000:]
    assert " 0 failed" in out and "upy: 0 passed" not in out, out[-3000:]


def test_dual_runtime_modules_exist():
    # the rules engine's own suite must be among them
    assert any(m.startswith("games.xobo.") for m, _ in DUAL), DUAL


def test_a_module_run_per_game_has_no_test_that_names_no_game():
    # under MicroPython such a module runs game by game (tests/upy/runner.py): a test naming
    # no game, or two, would run in none of them, or twice
    import importlib

    for module, options in DUAL:
        if PER_GAME not in options:
            continue
        names = [n for n in dir(importlib.import_module(module)) if n.startswith("test_")]
        for name in names:
            games = [g for g in GAMES if ("_%s_" % g.replace("-", "_")) in name + "_"]
            assert len(games) == 1, (module, name, games)


def test_firmware_compiles_with_mpy_cross_for_the_rp2040(tmp_path):
    # -march: the native/viper functions are compiled to Cortex-M0+ code, as deploy does
    import subprocess

    from xobo_host.device.deploy import mpy_cross_executable

    mpy_cross = mpy_cross_executable()
    root = TESTS.parent / "firmware"
    failures = []
    for src in sorted(root.rglob("*.py")):
        out = tmp_path / (src.stem + ".mpy")
        proc = subprocess.run([str(mpy_cross), "-march=armv6m", "-o", str(out), str(src)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            failures.append("%s: %s" % (src.relative_to(root), proc.stderr.strip()))
    assert not failures, "\n".join(failures)
