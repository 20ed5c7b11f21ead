"""The matches' benchmark's stand-in boards (``remotebench.Boards``): a café's boards are
Picos of their own, so the stand-ins that play them on the host's machine run below the
hosts' priority (``STAND_IN_NICENESS``) and still answer their serial lines."""

import os

import pytest

from xobo_host.cafe import remotebench


def test_the_stand_in_boards_run_below_the_hosts_priority():
    boards = remotebench.Boards(1, "a", niceness=remotebench.STAND_IN_NICENESS)
    try:
        assert remotebench.STAND_IN_NICENESS > 0
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        theirs = os.getpriority(os.PRIO_PROCESS, boards.proc.pid)
        assert theirs == min(19, ours + remotebench.STAND_IN_NICENESS)
        assert boards.hands(0, "look").startswith("ok")  # (niced, it still answers)
    finally:
        boards.stop()


def test_the_stand_in_boards_at_the_hosts_priority_when_asked():
    boards = remotebench.Boards(1, "b", niceness=0)
    try:
        assert os.getpriority(os.PRIO_PROCESS, boards.proc.pid) == \
            os.getpriority(os.PRIO_PROCESS, 0)
    finally:
        boards.stop()


def test_a_niceness_out_of_range_is_a_clear_error(capsys):
    for bad in ("25", "-3", "x"):
        with pytest.raises(SystemExit):
            remotebench.main(["--stand-ins-nice", bad])
        assert "is no niceness to add: use 0 to 19" in capsys.readouterr().err
