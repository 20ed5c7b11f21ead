"""The device check's results file: its report's figures written with
``xobo_host.bench.results`` as the bench ``pico-check-BOARD-image`` (the XoBo image, ``make
firmware``) or ``pico-check-BOARD-stock`` (a stock MicroPython with ``make build``'s files),
which docs/figures.md shows and the docs quote.

Every figure is emulated time on rp2040js (a lower bound for a Pico: docs/device-check.md),
or bytes of the emulated Pico's heap; a run with other than the standard arguments (some
games, another session length, the flash read-only) is written, but not as the latest.

Usage::

    >>> from xobo_host.bench import results as benchresults
    >>> from xobo_host.device.picocheck import results
    >>> from xobo_host.device.picocheck.check import Result
    >>> check_results = [Result("boot", "first reply after 640 ms", "<= 1,000 ms", True,
    ...                         [("ms", 640, "ms", "reset to the first reply")])]  # run_check's
    >>> path = results.write(check_results, "pico_gpio", frozen=True, uf2="xobo-pico_gpio.uf2",
    ...                      emulated_s=124.4, wall_s=900, rp2040js="1.4.1")
    >>> latest = benchresults.latest("pico-check-pico_gpio-image")
    >>> latest["figures"]["boot.ms"]["value"], latest["figures"]["passed"]["value"]
    (640, 1)
"""

import time
from pathlib import Path

from xobo_host.bench import results as benchresults


def bench_name(board, frozen):
    return "pico-check-%s-%s" % (board, "image" if frozen else "stock")


def figures(check_results):
    """[(figure name, value, unit, what)] of the check's results: ``ITEM.KEY`` for the
    board's own items, ``GAME.ITEM.KEY`` for a game's round."""
    out = []
    for r in check_results:
        words = r.name.split()
        prefix = ".".join(words)
        about = "%s's round: " % words[0] if len(words) > 1 else ""
        for key, value, unit, what in r.values:
            out.append(("%s.%s" % (prefix, key), value, unit, about + what))
    return out


def write(check_results, board, frozen, uf2, emulated_s, wall_s, rp2040js, standard=True,
          started=None, git=None, sizes=None, folder=None):
    """Write the results file of one ``xobo pico-check`` run; returns its path."""
    firmware = "the XoBo image (make firmware)" if frozen else \
        "stock MicroPython with make build's files"
    run = benchresults.Run(bench_name(board, frozen),
                           "The device check on the emulated Pico: board %s, %s"
                           % (board, firmware),
                           command="make pico-check UF2=%s BOOTROM=... BOARD=%s"
                           % ("build/firmware/xobo-%s.uf2" % board if frozen
                              else "RPI_PICO-v1.28.0.uf2", board),
                           standard=standard)
    run.t0 -= wall_s  # (the run began when the check did: its date and length say so)
    run.date = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - wall_s))
    if started is not None:
        run.load_start = started
    if git is not None:
        run.git = git
    run.machine_extra = {"emulator": "rp2040js %s" % rp2040js, "firmware": Path(uf2).name}
    passed = sum(r.passed for r in check_results)
    run.figure("passed", passed, "items", "items that met their target")
    run.figure("failed", len(check_results) - passed, "items", "items that missed it")
    run.figure("emulated", round(emulated_s, 1), "s", "emulated time of the whole check")
    run.figure("wall", round(wall_s), "s", "wall time of the whole check (it depends on the "
               "machine and its load)")
    sizes = sizes or {}
    if "firmware" in sizes:
        run.figure("flash.firmware", sizes["firmware"], "B", "flash the firmware (.uf2) takes")
    if "files" in sizes:
        run.figure("flash.files", sizes["files"], "files", "files put on the littlefs")
        run.figure("flash.files-bytes", sizes["files-bytes"], "B", "their bytes")
    for name, value, unit, what in figures(check_results):
        run.figure(name, value, unit, what)
    run.note("Times are the emulated Pico's (rp2040js), a lower bound for a real Pico; the "
             "load average does not change them.")
    failed = [r.name for r in check_results if not r.passed]
    if failed:
        run.note("Missed targets: %s." % ", ".join(failed))
    return run.write(folder)
