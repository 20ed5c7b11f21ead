"""The device's boot path and heap budget, measured without a Pico: the firmware exactly as
`xobo flash` builds it (the manifest's files, compiled by mpy-cross, native code for this
machine) boots from its own main.py under the MicroPython unix port with a Pico-sized heap, on
fake rp2 hardware, and answers the serial protocol.

The unix port here is 64-bit: its objects are larger than the Pico's (32-bit pointers). The
bytes the firmware allocates (from the prompt, after the fake hardware is installed) convert to
the Pico's with FACTOR_64_TO_32, measured on an emulated RP2040 (rp2040js, stock MicroPython
1.28) against this port for the same build: boot 162,560 B here vs 118,700 B there (1.37), boot
and a hint 189,664 B vs 141,200 B (1.34); the game-agnostic runtime (more, smaller objects:
topology, layers, events) boots in 169,312 B here vs 120,992 B there (1.40, re-measured with
make pico-check). So the Pico's 245,888-byte heap is about 320 KB here
(PICO_HEAP_HERE): the boot and the hint run in that, and the app's own decisions that depend
on the free heap (it unloads the computer's code after a search when less than AI_KEEP_FREE
would stay free) are taken as on the Pico. The device issue's target is at least 100 KB free
after boot and after a computer move; the emulated Pico's figures (make pico-check) are the
measurement, this is the guard that runs everywhere.
"""

import subprocess
from pathlib import Path

import pytest
from conftest import ROOT

from device.devicekit import MAIN_WRAPPER, PICO_HEAP_HERE, measuring_env
from xobo_host.device import deploy
from xobo_host.upy import micropython_executable

PICO_FREE_AT_PROMPT = 241_456  # gc.mem_free() of stock MicroPython 1.28 on an RP2040 at boot
FACTOR_64_TO_32 = 1.40  # bytes on this 64-bit port per byte on the Pico (measured, above)
TARGET_FREE = 100_000  # the device issue's floor, after boot and after a computer move
# the factor is a measurement, not a law: the estimate after a computer move (102.8 KB free)
# was once 1.3 KB above the emulated Pico's measurement (101,536 B) for the same build; on
# 2026-11-26 the estimate after boot (101.9-102.3 KB free: it varies by 0.5 KB with the
# machine's load, the conservative collector seeing other stacks) was 1.9 KB below the
# emulated Pico's 104,176 B (docs/device-check.md); in the fourth check that day the emulated
# stock Pico had 113,056 B free after boot (XoBo's geometry literals are bytes, as large on both
# ports, which the factor over-converts) where this estimate said 101.0 KB: 12 KB below it. The
# guard keeps no margin of its own since (a fresh clone's paths alone moved it by a few bytes)
MARGIN = 0
AI_KEEP_FREE = 104_000  # xobo.runtime.computer._AI_KEEP_FREE
# while learning (xobo.runtime.learn): the course's code, its lessons and a lesson's position
# on top of play (docs/firmware.md, "Learn"). 85,000 until the lessons' conditions were
# evaluated by the engine (xobo.runtime.course, 2,470 B of .mpy, and learn.mpy +968 B): the
# estimate from here went from 87,102 B to 82,828 B free at XoBo's third lesson (the board id
# and the request ids already on main). The last lesson's computer unloads its code after each
# search when short (AI_KEEP_FREE), and the budget after a course and a hint below still holds;
# 82,000 until a game's parts became one table (xobo.games.part) and the app declared every
# field and installs a game's parts: 81,571 B, then 81,136 B estimated here (within the half
# KB the estimate moves with the machine's load); to be measured on the emulated Pico;
# 81,000 until each game had its own id (issue 35: the play's code +181 B, learn.py +29 B):
# 81,045 -> 80,839 B estimated here
LEARN_FREE = 80_500

def _booted(tmp_path, lines, heapsize):
    out = tmp_path / "flash"
    deploy.build(deploy.find_board("pico_gpio"), out, march="x64")
    (out / "run_main.py").write_text(MAIN_WRAPPER)
    env = measuring_env()
    proc = subprocess.run([micropython_executable(), "-X", "heapsize=" + heapsize, "-m",
                           "run_main"],
                          input="".join(line + "\n" for line in lines), capture_output=True,
                          text=True, cwd=str(out), env=env, timeout=300)
    return proc


def _mem(line):
    words = dict(w.split("=") for w in line.split()[2:])
    return int(words["free"]), int(words["alloc"])


def test_main_py_boots_the_built_firmware_in_a_pico_sized_heap(tmp_path):
    proc = _booted(tmp_path, ["version", "mem", "hint", "mem", "position"], PICO_HEAP_HERE)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "MemoryError" not in proc.stdout + proc.stderr
    assert lines[0].startswith("base alloc=") and lines[1].startswith("ok xobo-board")
    mems = [x for x in lines if x.startswith("ok mem ")]
    assert len(mems) == 2, lines
    assert any(x.startswith("ok hint ") for x in lines), lines
    assert lines[-1].startswith("ok ........./")


def test_heap_budget_leaves_100_kb_free_on_the_pico_after_boot_and_a_computer_move(tmp_path):
    # a hint runs the computer's search (level pico) as its own move does, synchronously
    proc = _booted(tmp_path, ["mem", "hint", "mem"], PICO_HEAP_HERE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    base = int(lines[0].split("=")[1])
    mems = [_mem(x) for x in lines if x.startswith("ok mem ")]
    assert len(mems) == 2 and lines[2].startswith("ok hint "), lines
    budget = int((PICO_FREE_AT_PROMPT - TARGET_FREE - MARGIN) * FACTOR_64_TO_32)
    ai_code = _ai_code_size(tmp_path)
    for (_free, alloc), when in zip(mems, ("after boot", "after a hint"), strict=True):
        used = alloc - base
        pico_free = PICO_FREE_AT_PROMPT - int(used / FACTOR_64_TO_32)
        if when == "after a hint" and pico_free < AI_KEEP_FREE:
            # the device unloads the computer's code after its search when less than
            # AI_KEEP_FREE would stay free (xobo.runtime.computer.Computer.done): so does
            # the estimate
            used -= ai_code
            pico_free = PICO_FREE_AT_PROMPT - int(used / FACTOR_64_TO_32)
        assert used <= budget, "%s: %d B allocated here (about %d B free on a Pico), " \
            "budget %d B" % (when, used, pico_free, budget)


def _ai_code_size(tmp_path):
    """The bytes XoBo's computer (its four modules) takes here once imported, the app's
    modules loaded first (as on the board)."""
    out = tmp_path / "flash"
    (out / "ai_size.py").write_text(
        "import gc\nimport fakehw\nfakehw.install()\nimport xobo.runtime.app\n"
        "import xobo.runtime.protocol\nimport xobo.games.xobo.rules.notation\n"
        "gc.collect()\na = gc.mem_alloc()\nimport xobo.games.xobo.ai\ngc.collect()\n"
        "print(gc.mem_alloc() - a)\n")
    env = measuring_env()
    proc = subprocess.run([micropython_executable(), "-X", "heapsize=2M", "-m", "ai_size"],
                          capture_output=True, text=True, cwd=str(out), env=env, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return int(proc.stdout.split()[-1])


def test_the_firmware_on_flash_is_only_the_device_files(tmp_path):
    files = deploy.build(deploy.find_board("pico_gpio"), tmp_path / "b")
    # every .mpy imported is loaded into the Pico's RAM: keep what one game imports small
    # (every game is on the flash; only the selected one is imported)
    others = ("xobo/games/x/", "xobo/games/chain_reaction/", "xobo/games/brochs/",
              "xobo/games/tiny/")
    # the learn mode and its lessons are imported only while learning, and forgotten after:
    # the heap while learning has its own test (test_learning_stays_in_the_heap_budget...)
    learning = ("xobo/runtime/learn.mpy", "xobo/runtime/course.mpy", "/lessons.mpy")
    # the board's id is read once, at the host's first 'id', and its code forgotten after; a
    # game's id is drawn once, when the game starts, and its code forgotten after
    read_once = ("xobo/runtime/boardid.mpy", "xobo/runtime/gameid.mpy")
    total = sum((tmp_path / "b" / f).stat().st_size for f in files
                if not any(f.startswith(o) for o in others)
                and not any(f.endswith(x) for x in learning + read_once))
    # (125,000 until 2026-11-26, when loading.py, which the device unloads after each use,
    # took the stock firmware's restart switch and the image's forgetting of the game left;
    # 125,500 until XoBo's geometry tables became literals: 6.4 KB more file, the same heap,
    # since the tables built at import were as large: 36,448 B against 36,416 B allocated by
    # importing XoBo's rules from the .mpy files, unix port); 132,000 until the serial `resign`
    # and the game switch's deferred writes (+164 B), when the boot started unloading the board
    # definition's code (about 8 KB) before the saved game is resumed: the heap tests above and
    # test_long_saves measure what that leaves; 132,500 until pico's refutation check (issue
    # 24: +670 B of XoBo's search), measured on the emulated Pico with a stock firmware:
    # 82,944 B free after the computer's move on the 15x15, 90,608 B on the 9x9 (floor 60,000);
    # 133,500 until pico's fallback for a first iteration out of nodes (issue 24: +139 B of
    # XoBo's search, 133,447 -> 133,586 B), far inside that floor; 134,000 until the search's
    # candidate loops became viper kernels (issue 24: +2,360 B of native code, 133,586 ->
    # 135,946 B), measured on the emulated Pico with a stock firmware, 9x9: 95,664 B free
    # after the computer's move in the board's check, 90,352 B in XoBo's round (floor 60,000);
    # 136,500 until the defences' trial moves became a viper kernel (issue 24: +1,905 B,
    # 135,946 -> 137,851 B), measured on the emulated Pico with a stock firmware, 9x9: 95,792 B
    # free after the computer's move in the board's check, 90,400 B in XoBo's round;
    # 138,500 until the boot said every fallback and the board refused every move past the
    # longest game (issue 37: +1,435 B, 137,851 -> 139,286 B, of which 716 B in loading.py and
    # saveread.py, which the device unloads after the boot; the heap tests above hold);
    # 139,500 until the serial request ids and the 'id' command (issue 35: +864 B, 139,286 ->
    # 140,150 B with the help lines, imported when asked; the heap tests above hold);
    # 140,500 until the inference's classification was split into four functions (+131 B) and
    # the boot said a saved setting it could not use (+351 B, of which 96 B in loading.py);
    # 141,000 until a game's parts became one table reached with xobo.games.part (+215 B in
    # xobo/games, 147 B less in XoBo's package) and the app declared every field and installs
    # a game's parts (+374 B in app.py): 141,049 B; 141,500 until each game had its own id
    # and the board's record said a resignation (issue 35: +933 B, 141,231 -> 142,164 B, of
    # which 239 B in loading.py and saveread.py, unloaded after each load, and 513 B in
    # recordtags.py and XoBo's record.py, imported with `record` only; app.py, protocol.py
    # and storage.py +181 B); the heap tests above hold (after boot 100,039 B free estimated)
    assert total < 142_500, total
    assert not any("virtual" in f or "bench" in f or "cli" in f for f in files), files


if not Path(micropython_executable()).exists():  # pragma: no cover
    pytest.skip("the MicroPython unix port is not installed", allow_module_level=True)

assert ROOT.exists()


def test_learning_stays_in_the_heap_budget_and_leaves_room_for_the_computer_after(tmp_path):
    # the learn mode and the game's lessons are imported by `learn` and forgotten by
    # `learn off`. What stays is MicroPython's: the first new module after boot grows the
    # interned-names pool once (about 14 KB here), and the computer's code would grow it
    # as well; so after a course and a hint the heap is what a hint alone leaves, plus
    # learning's own names (measured: 0.5 KB here when the hint comes first)
    proc = _booted(tmp_path, ["state", "mem", "learn", "learn next", "learn next", "mem",
                              "learn off", "hint", "mem"], PICO_HEAP_HERE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    base = int(lines[0].split("=")[1])
    assert any(x.startswith("ok learn 1/") for x in lines), lines
    assert "ok learn off" in lines and any(x.startswith("ok hint ") for x in lines), lines
    used = [_mem(x)[1] - base for x in lines if x.startswith("ok mem ")]
    assert len(used) == 3, lines
    # while learning: at least LEARN_FREE on a Pico (the lesson that plays against the
    # computer loads its code on top, and unloads it after each search when short)
    learning_free = PICO_FREE_AT_PROMPT - int(used[1] / FACTOR_64_TO_32)
    assert learning_free >= LEARN_FREE, "about %d B free on a Pico while learning" % (
        learning_free)
    after = used[2]
    if PICO_FREE_AT_PROMPT - int(after / FACTOR_64_TO_32) < AI_KEEP_FREE:
        after -= _ai_code_size(tmp_path)  # unloaded after its search, as on the device
    budget = int((PICO_FREE_AT_PROMPT - TARGET_FREE - MARGIN) * FACTOR_64_TO_32)
    assert after <= budget, "after a course and a hint: %d B allocated here, budget %d B" % (
        after, budget)
