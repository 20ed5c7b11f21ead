"""The host tools' examples run: a module of ``host_tools/xobo_host`` that opens with a
``Usage::`` block shows either a doctest, run here on CPython, or command lines, each checked
without running it: ``xobo ...`` parses with the ``xobo`` command's own parser, ``make X``
expands (``make -n``), ``python -m M`` names a module that exists (tests/usagekit.py).

A doctest runs in a temporary directory (its home and bench-results folder too): its files, its
SQLite databases and its servers' ports (0: a free one) are its own, so the examples run side by
side under pytest-xdist; a connection to anywhere but this machine is refused. What needs a
Pico, a broker or a browser is shown as a comment saying so, after the part that runs without.
"""

import ipaddress
import socket
import tempfile

import pytest
import usagekit

from xobo_host.cli import main as cli

# each example is independent (its own folder, boards and ports): they go to whichever worker
# is free (tests/conftest.py), not all to one
SPREAD_OVER_WORKERS = True

HOST_TOOLS = usagekit.ROOT / "host_tools" / "xobo_host"
MODULES = usagekit.modules_with_usage(HOST_TOOLS)
DOCTESTS = [p for p in MODULES if usagekit.is_doctest(usagekit.usage_block(p)[1])]
COMMAND_LINES = [p for p in MODULES if p not in DOCTESTS]


@pytest.fixture(scope="module")
def parser():
    return cli.build_parser()


def test_the_scan_finds_the_host_tools_usage_blocks():
    assert len(MODULES) > 50, "the scan found only %d modules" % len(MODULES)
    assert len(DOCTESTS) > 30, [usagekit.name(p) for p in DOCTESTS]


def _loopback_only(connect):
    def guarded(sock, address, *rest):
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            host = address[0]
            try:
                local = ipaddress.ip_address(host).is_loopback
            except ValueError:
                local = host == "localhost"
            if not local:
                raise ConnectionRefusedError("a usage example connected to %r (only this "
                                             "machine's loopback is allowed)" % (host,))
        return connect(sock, address, *rest)

    return guarded


@pytest.mark.parametrize("path", DOCTESTS, ids=usagekit.name)
def test_the_usage_example_runs(path, parser, monkeypatch, tmp_path):
    wrong = usagekit.doctest_text_lines(path, parser)
    assert not wrong, "\n".join(wrong)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.setenv("XOBO_BENCH_RESULTS", str(tmp_path / "bench-results"))
    for proxy in ("http_proxy", "https_proxy", "all_proxy"):  # (the server is on loopback)
        monkeypatch.delenv(proxy, raising=False)
        monkeypatch.delenv(proxy.upper(), raising=False)
    monkeypatch.setattr(socket.socket, "connect", _loopback_only(socket.socket.connect))
    monkeypatch.setattr(socket.socket, "connect_ex", _loopback_only(socket.socket.connect_ex))
    attempted, failed, report = usagekit.run_doctest(path)
    assert attempted > 0
    assert failed == 0, report


@pytest.mark.parametrize("path", COMMAND_LINES, ids=usagekit.name)
def test_the_command_lines_of_a_usage_block_are_right(path, parser):
    wrong = usagekit.check_command_lines(path, parser)
    assert not wrong, "\n".join(wrong)


# --- the checks themselves can fail --------------------------------------------------------

def _module(tmp_path, block):
    path = tmp_path / "example.py"
    path.write_text('"""A module.\n\nUsage::\n\n%s\n"""\n' % block, encoding="utf-8")
    return path


def test_a_block_that_is_neither_a_doctest_nor_command_lines_fails_naming_its_line(
        tmp_path, parser):
    path = _module(tmp_path, "    from xobo_host.sim.legend import legend\n    legend()")
    wrong = usagekit.check_command_lines(path, parser)
    assert wrong == ["%s:5: from xobo_host.sim.legend import legend: neither a command "
                     "(python -m, xobo, make) nor a # comment" % path,
                     "%s:6: legend(): neither a command (python -m, xobo, make) nor a # "
                     "comment" % path]


def test_python_without_its_prompt_in_a_doctest_fails(tmp_path, parser):
    path = _module(tmp_path, "    >>> 1 + 1\n    2\n\n    legend()")
    wrong = usagekit.doctest_text_lines(path, parser)
    assert len(wrong) == 1 and "legend(): neither a command" in wrong[0], wrong


def test_a_wrong_command_line_fails_saying_why(tmp_path, parser):
    path = _module(tmp_path, "\n".join([
        "    xobo sim --board pico_16x16",
        "    xobo nosuch",
        "    make no-such-target",
        "    python -m xobo_host.no_such_module",
        "    xobo sim --board pico_15x15 \\",
        "        --game brochs      # a continued line, right",
        "    make lint",
        "    python -m xobo_host.bench.figures --check",
        "    python -m xobo_host.cafe.match      # a module, but no program"]))
    wrong = usagekit.check_command_lines(path, parser)
    assert len(wrong) == 5, wrong
    assert "pico_16x16" in wrong[0] and "xobo's parser refuses it" in wrong[0]
    assert "xobo nosuch" in wrong[1] and "refuses" in wrong[1]
    assert "make -n no-such-target" in wrong[2]
    assert wrong[3].endswith("no module xobo_host.no_such_module")
    assert wrong[4].endswith("module xobo_host.cafe.match does nothing when run (no __main__)")


def test_a_wrong_example_fails(tmp_path):
    path = _module(tmp_path, "    >>> from xobo_host.sim.legend import legend\n"
                             "    >>> legend()[0]['nosuch']\n    1")
    attempted, failed, report = usagekit.run_doctest(path)
    assert (attempted, failed) == (2, 1) and "KeyError: 'nosuch'" in report, report


def test_a_connection_beyond_this_machine_is_refused():
    guarded = _loopback_only(lambda sock, address: "connected")
    with socket.socket() as sock:
        assert guarded(sock, ("127.0.0.1", 9)) == "connected"
        with pytest.raises(ConnectionRefusedError):
            guarded(sock, ("192.0.2.1", 80))
