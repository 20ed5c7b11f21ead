"""The matrix scan's time on the emulated Pico, for any board definition (the 9x9 GPIO
matrix, the 15x15 board's 74HC595 rows): only the scan driver and a timing loop go on the
littlefs image, so the figure is the driver's own, whatever state the runtime is in.

    python -m xobo_host.device.picocheck.scantime --uf2 RPI_PICO.uf2 --bootrom bootrom.bin \\
        [--board pico_15x15] [--cells 0,112,224] [--interpreted]

Prints ``scan mean=US min=US max=US`` over 50 scans (emulated microseconds, from
``time.ticks_us`` on the Pico) and the cells the scan saw closed, which must be the
``--cells`` the harness closed. Exit 1 when they differ.
"""

import argparse
import shutil
import sys
from pathlib import Path

from xobo_host.device import deploy
from xobo_host.device.picocheck import image, runner

DRIVER_FILES = ("xobo/__init__.py", "xobo/compat.py", "xobo/drivers/__init__.py",
                "xobo/drivers/matrix.py", "xobo/drivers/shiftrows.py")

MAIN = '''import json, time
CHIP = @CHIP@
b = json.load(open("board.json"))
m = b["matrix"]
n = len(m["cell_of_key"])
if m.get("scanner") == "shift595":
    from xobo.drivers.shiftrows import ShiftRowMatrix
    s = m["shift"]
    mx = ShiftRowMatrix(s["data"], s["clock"], s["latch"], s["rows"], m["cols"],
                        m["cell_of_key"], m["row_active"], m["col_pull"], m["settle_us"],
                        s["outputs"], CHIP)
else:
    from xobo.drivers.matrix import SwitchMatrix
    mx = SwitchMatrix(m["rows"], m["cols"], m["cell_of_key"], m["row_active"],
                      m["col_pull"], m["settle_us"], CHIP)
raw = bytearray(n)
mx.scan_into(raw)
while True:
    lo, hi, tot = 1 << 30, 0, 0
    for i in range(50):
        t0 = time.ticks_us()
        mx.scan_into(raw)
        dt = time.ticks_diff(time.ticks_us(), t0)
        tot += dt
        lo = min(lo, dt)
        hi = max(hi, dt)
    print("scan mean=%d min=%d max=%d" % (tot // 50, lo, hi))
    print("closed " + ",".join(str(c) for c in range(n) if raw[c]))
    time.sleep_ms(100)
'''


def measure(uf2, bootrom, board="pico_15x15", cells=(), cache_dir=None, interpreted=False):
    """(mean_us, min_us, max_us, closed cells) of the board's scan on the emulated Pico;
    ``interpreted``: without the viper fast path (the drivers' code on machine.mem32)."""
    image.check_uf2(uf2)
    image.check_bootrom(bootrom)
    board_path = deploy.find_board(board)
    cache = Path(cache_dir) if cache_dir else deploy.ROOT / "build" / "pico-check"
    files = cache / "scantime" / board_path.stem
    if files.exists():
        shutil.rmtree(files)
    for rel in DRIVER_FILES:
        dst = files / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(deploy.ROOT / "firmware" / rel, dst)
    shutil.copyfile(board_path, files / "board.json")
    chip = '"RP2040"' if interpreted else "None"  # an explicit chip: no viper path
    (files / "main.py").write_text(MAIN.replace("@CHIP@", chip))
    fs_img = cache / ("scantime-%s.img" % board_path.stem)
    image.build_fs_image(files, fs_img)
    modules = runner.install(cache)
    with runner.Harness(modules, uf2, bootrom, fs_img, board_path, False) as h:
        for c in cells:
            h.switch(c, True)
        h.run(10000, until=["closed"])
        h.run(1000, until=["closed"])  # a second round: the first may start before USB is up
        lines = [ln for _, ln in h.serial]
    scan = [ln for ln in lines if ln.startswith("scan ")][-1]
    closed = [ln for ln in lines if ln.startswith("closed")][-1]
    fig = dict(kv.split("=") for kv in scan.split()[1:])
    seen = [int(x) for x in closed.split()[1].split(",")] if " " in closed else []
    return int(fig["mean"]), int(fig["min"]), int(fig["max"]), seen


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m xobo_host.device.picocheck.scantime")
    ap.add_argument("--uf2", required=True)
    ap.add_argument("--bootrom", required=True)
    ap.add_argument("--board", default="pico_15x15")
    ap.add_argument("--cells", default="0,112,224")
    ap.add_argument("--interpreted", action="store_true", help="without the viper fast path")
    a = ap.parse_args(argv)
    cells = [int(x) for x in a.cells.split(",") if x]
    try:
        mean, lo, hi, seen = measure(a.uf2, a.bootrom, a.board, cells,
                                    interpreted=a.interpreted)
    except (image.ImageError, runner.HarnessError) as exc:
        print("error: %s" % exc)
        return 2
    print("%s: full scan mean %d us, min %d, max %d (emulated Pico); closed %s, saw %s"
          % (a.board, mean, lo, hi, cells, seen))
    return 0 if sorted(seen) == sorted(cells) else 1


if __name__ == "__main__":
    sys.exit(main())
