"""rp2040js from npm and the harness (tools/pico-check/harness.mjs) as a Python object.

``install(cache)`` installs the rp2040js version pinned in tools/pico-check/package.json (and
its package-lock.json) into ``cache/npm`` with ``npm ci``, once. ``Harness`` starts the
harness with node and talks to it in JSON lines; everything the board said, lit or scanned is
kept with its emulated time in nanoseconds.

Usage::

    >>> from xobo_host.device.picocheck import runner
    >>> runner.pinned_version()                   # tools/pico-check/package.json's rp2040js
    '...'
    >>> # the emulated board (not run here: npm installs rp2040js once, from the network, and
    >>> # the board needs MicroPython's UF2 and the RP2040's bootrom):
    >>> # modules = runner.install("build/pico-check")
    >>> # with runner.Harness(modules, uf2, bootrom, "fs.img", "boards/pico_gpio.json") as h:
    >>> #     h.send("version")
    >>> #     t, line = h.run(5000, until=["ok xobo-board"])   # (None, None) if it never came
"""

import json
import shutil
import subprocess
from pathlib import Path

from xobo_host.device.deploy import ROOT

TOOL_DIR = ROOT / "tools" / "pico-check"
HARNESS = TOOL_DIR / "harness.mjs"
PINNED = ("package.json", "package-lock.json")
NODE_HEAP_MB = 12000


class HarnessError(Exception):
    """node, npm or the harness failed; the message says how."""


def pinned_version():
    return json.loads((TOOL_DIR / "package.json").read_text())["dependencies"]["rp2040js"]


def node_executable():
    node = shutil.which("node")
    if not node:
        raise HarnessError("node is not installed: the device check runs rp2040js in Node.js "
                           "(>= 18; e.g. apt-get install nodejs npm)")
    return node


def install(cache_dir):
    """The node_modules folder holding the pinned rp2040js (installed with npm if needed)."""
    node_executable()
    npm_dir = Path(cache_dir) / "npm"
    modules = npm_dir / "node_modules"
    want = pinned_version()
    have = modules / "rp2040js" / "package.json"
    same = all((npm_dir / n).exists() and (npm_dir / n).read_bytes() ==
               (TOOL_DIR / n).read_bytes() for n in PINNED)
    if same and have.exists() and json.loads(have.read_text()).get("version") == want:
        return modules
    npm = shutil.which("npm")
    if not npm:
        raise HarnessError("npm is not installed: it installs rp2040js %s for the device "
                           "check (e.g. apt-get install npm)" % want)
    npm_dir.mkdir(parents=True, exist_ok=True)
    for n in PINNED:
        shutil.copyfile(TOOL_DIR / n, npm_dir / n)
    proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                          cwd=str(npm_dir), capture_output=True, text=True)
    if proc.returncode != 0 or not have.exists():
        raise HarnessError("npm could not install rp2040js %s into %s:\n%s"
                           % (want, npm_dir, (proc.stderr or proc.stdout).strip()))
    return modules


class Harness:
    """One emulated board. ``serial`` is [(t_ns, line)], ``frames`` [(start_ns, end_ns, bits,
    bytes)], ``row0`` [t_ns], ``notes`` [text]: everything since the start."""

    def __init__(self, modules, uf2, bootrom, fs_image, board_json, flash_writes=True):
        # node's default heap (about 4 GB) ran out after 38 min of wall time on the 15x15 board
        # with every game's session (the harness's memory grows with the emulated time)
        cmd = [node_executable(), "--max-old-space-size=%d" % NODE_HEAP_MB, str(HARNESS),
               "--modules", str(modules), "--uf2", str(uf2),
               "--bootrom", str(bootrom), "--fs", str(fs_image), "--board", str(board_json)]
        if not flash_writes:
            cmd.append("--no-flash-writes")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.t = 0
        self.serial = []
        self.frames = []
        self.row0 = []
        self.notes = []
        self.closed = set()  # the cells whose switch is closed now
        self.flash = {}
        self.wall_ms = 0.0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def request(self, **req):
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
            text = self.proc.stdout.readline()
        except BrokenPipeError:
            text = ""
        if not text:
            self.proc.wait(timeout=10)
            raise HarnessError("the harness stopped (exit %s): %s"
                               % (self.proc.returncode, self.proc.stderr.read().strip()))
        msg = json.loads(text)
        self.t = msg["t"]
        self.serial.extend((t, line) for t, line in msg["serial"])
        self.frames.extend((s, e, bits, bytes.fromhex(h)) for s, e, bits, h in msg["frames"])
        self.row0.extend(msg["row0"])
        self.notes.extend(msg["notes"])
        self.flash = msg.get("flash", self.flash)
        self.wall_ms += msg.get("wall_ms", 0.0)
        if "error" in msg:
            raise HarnessError("harness: %s" % msg["error"])
        return msg

    def run(self, ms, until=None):
        """Run ``ms`` emulated milliseconds, or until a line starting with one of ``until``;
        returns (t_ns, line) of that line or (None, None)."""
        msg = self.request(cmd="run", ms=ms, until=list(until or ()))
        return tuple(msg["matched"]) if msg.get("matched") else (None, None)

    def send(self, line):
        """Send a line to the board; returns the emulated time it was sent."""
        self.request(cmd="send", line=line)
        return self.t

    def switch(self, cell, closed):
        self.request(cmd="switch", cell=cell, closed=bool(closed))
        (self.closed.add if closed else self.closed.discard)(cell)
        return self.t

    def button(self, name, pressed):
        self.request(cmd="button", name=name, pressed=bool(pressed))
        return self.t

    def lines_since(self, t_ns):
        return [(t, line) for t, line in self.serial if t >= t_ns]

    def close(self):
        if self.proc.poll() is None:
            try:
                self.request(cmd="quit")
            except (HarnessError, ValueError):
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            f.close()
