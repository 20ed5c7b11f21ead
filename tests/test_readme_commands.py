"""Every command the README shows in a fenced shell block works as shown.

A command that answers at once is run, as written (``xobo`` is the project's ``.venv/bin/xobo``,
from the repository's folder), and must succeed. A command that serves until it is stopped,
runs for minutes, or needs a Pico, a MicroPython source tree or a terminal is not run: it is
listed in ``NOT_RUN`` with the reason, and checked without running it: a ``make`` target with
``make -n`` (the target exists and its recipe expands with the variables shown), an ``xobo``
command by parsing its words with the command's own parser (every option exists and every value
is accepted: a board, a game, a number). A command in neither list fails the suite, and so does
an entry of either list the README no longer shows."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from xobo_host.cli import main as cli

FENCE = re.compile(r"^```(\S*)\n(.*?)^```", re.S | re.M)
SHELLS = ("sh", "shell", "bash", "console")

# run for real: each answers in about a second
RUN = (
    "xobo --help",
    "xobo games",
    "xobo rules play e5 d4 e4",
    "xobo rules --game x --help",
    "xobo rules hint --level greedy",
    "xobo board run --script tests/boardapp/scripts/host_move.txt",
    "xobo match --a greedy --b random --games 4",
)

# checked without running, and why
NOT_RUN = {
    "make sim": "serves the simulator until stopped",
    "make test": "the whole suite, this test among it",
    "make doctor": "looks for a Pico on the USB ports",
    "make flash BOARD=pico_gpio_adapter PORT=/dev/ttyACM0": "needs a Pico on USB",
    "make firmware MICROPYTHON=path/to/micropython": "needs a MicroPython source tree",
    "make pico-check UF2=build/firmware/xobo-pico_gpio.uf2 BOOTROM=bootrom.bin":
        "needs the RP2040's bootrom and the built image; runs for half an hour",
    "xobo cafe --set-password": "asks for the password on a terminal",
    "xobo cafe": "serves the floor page until stopped",
    "xobo sim --board pico_15x15 --game brochs": "serves the simulator until stopped",
    "xobo monitor --port /dev/ttyACM0": "needs a board on that port",
    "xobo records list": "reads the records the monitor or the café wrote (none on a fresh "
                         "machine: it says so, an error)",
    "make test-long": "plays whole games in the browser for minutes",
    "make soak": "runs for several minutes",
    "make bench": "runs for minutes, and writes bench-results/",
    "make figures": "rewrites docs/figures.md and the docs' quotes",
}


def readme_commands():
    """Each command line of the README's shell blocks, its comment taken off."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    out = []
    for lang, body in FENCE.findall(text):
        if lang not in SHELLS:
            continue
        for line in body.splitlines():
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def test_every_shell_command_of_the_readme_is_run_or_listed_as_not_run():
    shown = readme_commands()
    assert len(shown) >= 10, shown  # (the blocks were found)
    unlisted = [c for c in shown if c not in RUN and c not in NOT_RUN]
    assert not unlisted, "README commands neither run nor listed in NOT_RUN: %s" % unlisted
    stale = [c for c in list(RUN) + list(NOT_RUN) if c not in shown]
    assert not stale, "listed here but no longer in the README: %s" % stale
    assert not set(RUN) & set(NOT_RUN)


def _env():
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


@pytest.mark.parametrize("command", RUN)
def test_a_readme_command_that_answers_at_once_runs_and_succeeds(command):
    proc = subprocess.run(["bash", "-c", command], cwd=ROOT, env=_env(), capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, (command, proc.stdout[-2000:], proc.stderr[-2000:])
    assert proc.stdout.strip(), command
    assert "Traceback" not in proc.stderr and "error:" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("command", sorted(NOT_RUN))
def test_a_long_or_hardware_readme_command_is_checked_without_running(command):
    words = shlex.split(command)
    if words[0] == "make":
        proc = subprocess.run(["make", "-n"] + words[1:], cwd=ROOT, env=_env(),
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, (command, proc.stderr)
        assert proc.stdout.strip(), command  # the recipe, expanded
        return
    assert words[0] == "xobo", command
    args = cli.build_parser().parse_args(words[1:])  # argparse exits 2 on a bad word
    assert callable(args.func), command


def test_the_dry_check_refuses_a_wrong_option_value_and_target():
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["sim", "--board", "pico_16x16"])
    proc = subprocess.run(["make", "-n", "no-such-target"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode != 0
