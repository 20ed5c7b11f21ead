"""Every legal game fits: the longest game each game keeps (its MAX_PLIES, docs/firmware.md
"The longest games") resumes at boot in the Pico's heap, on both boards where the game fits,
with the computer loaded after it and searching a hint. The firmware exactly as `xobo flash`
builds it boots from its own main.py under the MicroPython unix port (320 KB here is the
Pico's 240 KB: tests/device/test_boot_heap.py), on fake rp2 hardware, as in that test.

The saves are written as the board writes them (``SavedGame.save``), with the moves of a
seeded legal game that does not end before (tests/device/long_games.py).
"""

import os
import shutil
import subprocess

import pytest

from device.devicekit import PICO_HEAP_HERE, measuring_env
from device.long_games import long_game
from xobo import games
from xobo.drivers.flash import Flash
from xobo.games import part
from xobo.runtime.storage import SavedGame, Settings
from xobo_host.device import deploy
from xobo_host.upy import micropython_executable

MAIN_WRAPPER = """
import fakehw
fakehw.install()
exec(open("main.py").read())
"""

# (game, board): the games that fit each board (Brochs needs the 15 x 15 one)
CASES = [("xobo", "pico_gpio"), ("x", "pico_gpio"), ("chain-reaction", "pico_gpio"),
         ("tiny", "pico_gpio"), ("xobo", "pico_15x15"), ("chain-reaction", "pico_15x15"),
         ("brochs", "pico_15x15"), ("x", "pico_15x15"), ("tiny", "pico_15x15")]


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    out = {}
    for board in ("pico_gpio", "pico_15x15"):
        d = tmp_path_factory.mktemp(board)
        deploy.build(deploy.find_board(board), d, march="x64")
        (d / "run_main.py").write_text(MAIN_WRAPPER)
        out[board] = d
    return out


def boot(build, tmp_path, files, lines, heap=PICO_HEAP_HERE):
    """Boot a copy of ``build`` whose flash also holds ``files`` (written by ``files(flash)``),
    send ``lines``, return (returncode, stdout + stderr)."""
    flash = tmp_path / "flash"
    shutil.copytree(build, flash)
    files(Flash(str(flash)))
    # the firmware's own files by a relative path, as the device names them ("xobo/..."):
    # run as a module, not a script (tests/device/test_boot_heap.py: measuring_env)
    proc = subprocess.run([micropython_executable(), "-X", "heapsize=" + heap, "-m",
                           "run_main"], input="".join(x + "\n" for x in lines),
                          capture_output=True, text=True, cwd=str(flash), env=measuring_env(),
                          timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


def slot_name(game):
    return "game" if game == "xobo" else "game-" + game


def longest(game):
    """The moves of the longest game the board keeps for ``game``, its last move left to
    play (the computer then searches from the deepest position the board can hold)."""
    rules = part(games.load(game), "engine")
    plies = rules.MAX_PLIES - 1
    if game == "x":
        plies = 64 - 1  # the default 8 x 8 board is full after 64 moves (XM1)
    return long_game(game, plies)


@pytest.mark.slow
@pytest.mark.parametrize("game, board", CASES)
def test_the_longest_game_resumes_at_boot_in_the_pico_heap_with_the_computer(
        builds, tmp_path, game, board):
    pkg = games.load(game)
    moves = longest(game)
    side = pkg.PLAYER_NAMES[len(moves) % pkg.PLAYERS]
    other = [p for p in pkg.PLAYER_NAMES if p != side][0]

    def files(flash):
        Settings(flash).save({"game": game, "opponent": other})  # loaded, not searching
        params = {k: v for k, v in pkg.DEFAULTS.items() if k != "first"}
        SavedGame(flash, slot_name(game)).save(game, params, 0, "", list(moves))

    pos = pkg.new_position(dict(pkg.DEFAULTS))
    for text in moves:
        pos.apply(pos.parse_move(text))
    rc, out = boot(builds[board], tmp_path, files, ["position", "mem", "hint", "mem"])
    assert rc == 0, out[-3000:]
    assert "ok %s\n" % pos.to_string() in out, out[-3000:]  # resumed, every move
    assert "MemoryError" not in out and "Traceback" not in out, out[-3000:]
    assert "out of memory" not in out, out[-3000:]
    assert "\nok hint " in out, out[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("heap", ["290K", "300K"])
def test_a_saved_game_too_long_for_the_free_heap_boots_a_new_game_never_a_failed_boot(
        builds, tmp_path, heap):
    # a smaller heap than the Pico's (other firmware, other settings): the longest Chain
    # Reaction game does not fit while the board boots. That once let the boot end in a
    # MemoryError at every power-up (the protocol's import, after the replay); the code is
    # loaded first now, and the replay that does not fit falls back to a new game
    moves = longest("chain-reaction")
    pkg = games.load("chain-reaction")
    params = {k: v for k, v in pkg.DEFAULTS.items() if k != "first"}

    def files(flash):
        Settings(flash).save({"game": "chain-reaction"})
        SavedGame(flash, slot_name("chain-reaction")).save("chain-reaction", params, 0, "",
                                                           list(moves))

    rc, out = boot(builds["pico_15x15"], tmp_path, files, ["position", "new", "position"],
                   heap)
    assert rc == 0 and "Traceback" not in out, out[-3000:]
    answers = [x for x in out.splitlines() if x.startswith("ok ")]
    assert len(answers) == 3, out[-3000:]  # both positions and the new game answered


if not os.path.exists(micropython_executable()):  # pragma: no cover
    pytest.skip("the MicroPython unix port is not installed", allow_module_level=True)
