"""The firmware image (``make firmware``, docs/deploy.md): the out-of-tree MicroPython board
firmware/board/XOBO_PICO, its manifest, its entry point and the build. The build itself runs
when a MicroPython v1.28.0 tree is given (XOBO_MICROPYTHON=path, with the rp2 port's
submodules and an arm-none-eabi-gcc), and is skipped, saying so, otherwise."""

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from xobo_host.device import deploy, firmware
from xobo_host.device.picocheck import image

BOARD_DIR = firmware.BOARD_DIR


def manifest_files():
    """What the board's manifest freezes, read the way MicroPython's manifestfile reads it
    (its own folder as the current directory; module() and include() recorded)."""
    frozen = []
    included = []

    def module(path, base_path=".", opt=None):
        frozen.append((os.path.normpath(os.path.join(os.getcwd(), base_path, path))
                       if "$(" not in base_path else base_path + "/" + path, path, opt))

    def include(path, **kw):
        included.append(path)

    prev = os.getcwd()
    os.chdir(BOARD_DIR)
    try:
        exec((BOARD_DIR / "manifest.py").read_text(),
             {"module": module, "include": include, "package": None, "require": None})
    finally:
        os.chdir(prev)
    return frozen, included


def test_the_board_manifest_freezes_every_device_file_of_the_firmware_manifest():
    frozen, included = manifest_files()
    targets = {target for _full, target, _opt in frozen}
    device = {n for n in deploy.read_manifest() if n.startswith("xobo/")}
    assert device <= targets
    # every game's files, and nothing host-only (the firmware manifest's own check)
    for game in ("xobo", "x", "chain_reaction", "brochs", "tiny"):
        assert any(t.startswith("xobo/games/%s/" % game) for t in targets), game
    assert "main.py" in targets and "xobo_image.py" in targets
    assert deploy.REGISTRY in targets  # the games' registry (a frozen image lists no folder)
    assert included == ["$(PORT_DIR)/boards/manifest.py"]  # MicroPython's RPI_PICO modules
    for full, target, opt in frozen:
        assert opt == 3, target  # as xobo flash compiles them (-O3)
        if target == deploy.REGISTRY:
            assert full == "$(XOBO_GEN_DIR)/" + target  # generated with xobo_image.py
        elif target.startswith("xobo/"):
            assert Path(full) == deploy.FIRMWARE_DIR / target


def test_the_board_keeps_the_stock_rpi_pico_filesystem_so_saves_survive_a_firmware_change():
    h = (BOARD_DIR / "mpconfigboard.h").read_text()
    assert "MICROPY_HW_FLASH_STORAGE_BYTES          (1408 * 1024)" in h
    assert image.FS_SIZE == 1408 * 1024
    cmake = (BOARD_DIR / "mpconfigboard.cmake").read_text()
    assert 'set(PICO_BOARD "pico")' in cmake and "MICROPY_FROZEN_MANIFEST" in cmake


def test_the_image_module_holds_the_board_definition_as_text(tmp_path):
    path = firmware.write_image_module(deploy.find_board("pico_15x15"), tmp_path)
    ns = {}
    exec(path.read_text(), ns)
    assert ns["BOARD"] == "pico_15x15"
    assert json.loads(ns["BOARD_JSON"]) == json.loads(
        (deploy.BOARDS_DIR / "pico_15x15.json").read_text())


def test_device_build_prefers_the_filesystem_board_json_over_the_frozen_default(tmp_path,
                                                                                monkeypatch):
    from xobo.drivers import boarddef
    from xobo.runtime import device

    seen = []
    monkeypatch.setattr(boarddef, "load", lambda path: seen.append(("file", path)) or 1 / 0)
    monkeypatch.setattr(boarddef, "parse", lambda text: seen.append(("frozen", text)) or 1 / 0)
    board_json = tmp_path / "board.json"
    with pytest.raises(ZeroDivisionError):
        device.build(str(board_json), watchdog_ms=0, default="{}")
    assert seen == [("frozen", "{}")]
    board_json.write_text("{}")
    seen.clear()
    with pytest.raises(ZeroDivisionError):
        device.build(str(board_json), watchdog_ms=0, default="{}")
    assert seen == [("file", str(board_json))]


def test_is_frozen_tells_a_module_from_a_file_from_one_in_the_image(tmp_path):
    from xobo import compat
    from xobo.games.x import ai

    assert not compat.is_frozen(ai)  # a file

    class Frozen:
        __file__ = "xobo/games/x/ai.py"  # MicroPython's name of it in the image: no such file

    assert compat.is_frozen(Frozen)


def uf2_of(payload, addr=0x10000000):
    blocks = []
    chunks = [payload[i:i + 256] for i in range(0, len(payload), 256)]
    for n, chunk in enumerate(chunks):
        head = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x2000, addr + 256 * n, len(chunk),
                           n, len(chunks), image.UF2_FAMILY_RP2040)
        blocks.append(head + chunk.ljust(476, b"\0") + struct.pack("<I", 0x0AB16F30))
    return b"".join(blocks)


def test_the_device_check_recognises_the_image_by_its_frozen_modules(tmp_path):
    stock = tmp_path / "stock.uf2"
    stock.write_bytes(uf2_of(b"MicroPython v1.28.0" * 40))
    frozen = tmp_path / "xobo.uf2"
    # a frozen module's name split across two UF2 blocks is still found
    frozen.write_bytes(uf2_of(b"x" * 250 + image.FROZEN_MARK + b"\0" * 300))
    assert not image.has_frozen_firmware(stock)
    assert image.has_frozen_firmware(frozen)


def test_a_tree_that_is_not_micropython_1_28_0_is_refused_with_what_to_do(tmp_path):
    with pytest.raises(firmware.FirmwareError, match="not a MicroPython source tree"):
        firmware.check_tree(tmp_path)
    (tmp_path / "py").mkdir()
    (tmp_path / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR 1\n#define MICROPY_VERSION_MINOR 27\n"
        "#define MICROPY_VERSION_MICRO 0\n")
    with pytest.raises(firmware.FirmwareError, match="is MicroPython 1.27.0.*v1.28.0"):
        firmware.check_tree(tmp_path)
    (tmp_path / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR 1\n#define MICROPY_VERSION_MINOR 28\n"
        "#define MICROPY_VERSION_MICRO 0\n")
    with pytest.raises(firmware.FirmwareError, match="make -C .*ports/rp2 submodules"):
        firmware.check_tree(tmp_path)


def test_make_firmware_without_a_tree_says_what_it_needs():
    proc = subprocess.run(["make", "-s", "firmware", "MICROPYTHON="], cwd=str(deploy.ROOT),
                          capture_output=True, text=True)
    assert proc.returncode != 0
    assert "make firmware needs MICROPYTHON=path/to/micropython" in proc.stdout + proc.stderr


@pytest.mark.slow
def test_make_firmware_builds_one_uf2_with_every_game_frozen(tmp_path):
    tree = os.environ.get("XOBO_MICROPYTHON")
    if not (tree and Path(tree, "py", "mpconfig.h").is_file()):
        pytest.skip("no MicroPython source tree given: set XOBO_MICROPYTHON=path/to/micropython "
                    "(v1.28.0 with the rp2 port's submodules; make firmware MICROPYTHON=...)")
    out = tmp_path / "firmware"
    proc = subprocess.run([sys.executable, "-m", "xobo_host.device.firmware",
                           "--micropython", tree,
                           "--out", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    uf2 = out / "xobo-pico_gpio.uf2"
    assert image.check_uf2(uf2) > 0  # fits below the filesystem
    payload = image.uf2_payload(uf2)
    for name in deploy.read_manifest():
        if name.startswith("xobo/"):
            assert name.encode() in payload, name
    assert image.has_frozen_firmware(uf2)
