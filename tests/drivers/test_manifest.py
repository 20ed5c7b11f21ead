"""The device manifest (firmware/manifest.py): only device modules go onto the Pico, and the
device files import nothing that is not there (or part of MicroPython itself)."""

import ast
from pathlib import Path

from conftest import ROOT

from xobo_host import deploy

FIRMWARE = ROOT / "firmware"

# firmware/xobo files that run on the host only (never on the Pico)
HOST_ONLY = {
    "xobo/benchtiming.py",  # bench harness
    "xobo/rulescli.py",  # every game's rules CLI and perft (xobo rules under the unix port)
    "xobo/hostkit.py",  # what the host knows of every game (its games/<name>/host.py)
    "xobo/games/xobo/ai/bench.py",
    "xobo/runtime/bench.py",
    "xobo/runtime/meanings.py",  # the light codes in words: the page's legend
    "xobo/runtime/script.py",  # scripted physical sessions
    "xobo/runtime/unix_main.py",  # xobo board serial/run under the unix port
    "xobo/runtime/virtual_board.py",  # the simulator's board
    "xobo/games/brochs/cli.py",  # xobo rules --game brochs
    "xobo/drivers/virtual.py",  # virtual twins of the drivers
    "xobo/drivers/leds_circuitpython.py",  # CircuitPython / Blinka boards, not the rp2 build
    "xobo/games/xobo/rules/cli.py",  # xobo rules under the unix port
    "xobo/games/tiny/cli.py",  # xobo rules --game tiny under the unix port
    "xobo/games/x/cli.py",  # xobo rules --game x under the unix port
    "xobo/games/chain_reaction/cli.py",  # xobo rules --game chain-reaction (unix port)
}
# imports of device files that a Pico build never reaches (other platforms' branches)
OTHER_PLATFORMS = {"xobo.drivers.leds_circuitpython", "digitalio", "board", "microcontroller",
                   "watchdog", "supervisor", "neopixel_write"}
# MicroPython's own modules (built into the rp2 firmware)
BUILTIN = {"array", "asyncio", "uasyncio", "gc", "json", "machine", "micropython", "neopixel",
           "os", "rp2", "sys", "time", "math", "struct", "select", "io", "errno"}


def _device_files():
    return deploy.read_manifest()


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            for a in node.names:  # from xobo.runtime import app -> xobo.runtime.app
                yield node.module + "." + a.name


def test_every_firmware_file_is_a_device_file_or_named_host_only():
    device = set(_device_files())
    every = {p.relative_to(FIRMWARE).as_posix() for p in (FIRMWARE / "xobo").rglob("*.py")}
    # the components' own manifests (games/<g>/manifest.py) are read on the host
    # and every game's rules CLI (xobo rules --game G) runs on the host
    every = {f for f in every if not f.endswith("/manifest.py")
             and not (f.startswith("xobo/games/") and f.endswith(("/cli.py", "/host.py")))}
    assert not (device & HOST_ONLY)
    assert every - device - HOST_ONLY == set(), "new file: add it to the manifest or HOST_ONLY"
    assert device - every - {"main.py"} == set(), "the manifest names a missing file"


def test_device_files_import_only_device_modules_and_micropython_builtins():
    device = _device_files()
    modules = set()
    for name in device:
        stem = name[:-3].replace("/", ".")
        modules.add(stem[:-len(".__init__")] if stem.endswith(".__init__") else stem)
    wrong = []
    for name in device:
        for mod in _imports(FIRMWARE / name):
            top = mod.split(".")[0]
            if mod in modules or top in BUILTIN:
                continue
            if mod in OTHER_PLATFORMS or mod.rsplit(".", 1)[0] in OTHER_PLATFORMS:
                continue
            if top == "xobo":
                # "from xobo.games.xobo.rules.geometry import RAYS": a name, not a module
                parent = mod.rsplit(".", 1)[0]
                module_file = FIRMWARE / (mod.replace(".", "/") + ".py")
                if parent in modules and not module_file.exists():
                    continue
            if top in OTHER_PLATFORMS:
                continue
            wrong.append("%s imports %s" % (name, mod))
    assert wrong == []


def test_host_only_modules_stay_off_the_device_build(tmp_path):
    deploy.build(deploy.find_board("pico_gpio"), tmp_path / "b")
    for name in HOST_ONLY:
        assert not (tmp_path / "b" / Path(name).with_suffix(".mpy")).exists(), name
