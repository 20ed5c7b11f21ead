"""Out-of-memory recovery cannot fail: a 2,000-move soak of every game (make soak; 200 moves
in make test, with the heap at each new game's start checked for a leak), the computer on every
side (its sides by the ``opponent`` setting, the other by its hint played as a host move), on
both boards where the game fits, under MicroPython with the Pico's heap (320 KB on this 64-bit
port: tests/device/test_boot_heap.py, plus the virtual board's own cost: HEAP), the firmware
compiled with mpy-cross as on the device.
It must end (no hang: the subprocess is bounded) with every move committed and no error but
the recovered ``event error out of memory`` ones (tests/device/soak_games.py)."""

import os
import subprocess

import pytest
from conftest import ROOT, soak_moves

from device.devicekit import compile_firmware
from xobo_host.upy import micropython_executable

MOVES = soak_moves(2000, 200)
# the free heap at each new game's start may vary by this much (fragments, a longer game's
# garbage), never run down: a leak of 200 B a move once lost 5 KB a game here
NEW_GAME_DRIFT = 2048
# The heap: the Pico's (320 KB on this port) plus what the virtual board costs over the device
# build (its drivers and host-side modules). Measured here, free bytes after the boot with the
# computer loaded, the device build from main.py (tests/device/test_long_saves.py's way) vs
# the virtual board: XoBo 9x9 103,008 vs 72,416 (30.6 KB), Chain Reaction 15x15 109,120 vs
# 71,104 (38.0 KB), Brochs 15x15 96,672 vs 53,312 (43.4 KB). At 320 KB the virtual board
# leaves Brochs's computer too little for a search on the 15x15 board (out of memory at
# every try after 50-200 moves) where the device has room.
HEAP = {"pico_gpio": "352K", "pico_15x15": "364K"}
CASES = [("xobo", "pico_gpio"), ("x", "pico_gpio"), ("chain-reaction", "pico_gpio"),
         ("tiny", "pico_gpio"), ("xobo", "pico_15x15"), ("chain-reaction", "pico_15x15"),
         ("brochs", "pico_15x15"), ("x", "pico_15x15"), ("tiny", "pico_15x15")]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    out = tmp_path_factory.mktemp("soak_games")
    compile_firmware(out, "soak_games.py")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("game, board", CASES)
def test_a_soak_with_the_computer_on_every_side_ends_without_an_unrecovered_error_or_a_leak(
        compiled, tmp_path, game, board):
    env = dict(os.environ)
    env["MICROPYPATH"] = "%s:.frozen" % compiled
    proc = subprocess.run([micropython_executable(), "-X", "heapsize=" + HEAP[board], "-m",
                           "soak_games", game, board, str(MOVES), str(tmp_path)],
                          capture_output=True, text=True, env=env, cwd=str(ROOT),
                          timeout=600 if MOVES < 1000 else 3600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    soak = [x for x in proc.stdout.splitlines() if x.startswith("SOAK ")][0]
    fields = dict(w.split("=") for w in soak.split()[1:])
    assert int(fields["moves"]) == MOVES, out[-2000:]
    assert int(fields["errors"]) == 0 and int(fields["stuck"]) == 0, out[-2000:]
    starts = [int(x) for x in
              [x for x in proc.stdout.splitlines() if x.startswith("NEWFREE")][0].split()[1:]]
    if len(starts) >= 3:  # the heap at the start of each game, from the second on
        assert min(starts[1:]) >= starts[1] - NEW_GAME_DRIFT, starts


if not os.path.exists(micropython_executable()):  # pragma: no cover
    pytest.skip("the MicroPython unix port is not installed", allow_module_level=True)
