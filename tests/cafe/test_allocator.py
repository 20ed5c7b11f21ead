"""``xobo cafe`` runs with glibc's per-thread caches off (cafe/allocator.py): the memory they
held grew all along a long run of 32 tables; the host starts itself again with the tunable
that switches them off, once, keeping its pid and arguments."""

import pytest
from sim.simkit import start_xobo, stop_with_ctrl_c

from xobo_host.cafe import allocator
from xobo_host.cafe.staff import Staff

pytestmark = pytest.mark.skipif(not allocator.on_glibc(), reason="glibc's tunables only")


def test_the_host_environment_switches_the_caches_off_and_keeps_other_tunables():
    assert allocator.environment({})["GLIBC_TUNABLES"] == "glibc.malloc.tcache_count=0"
    env = allocator.environment({"GLIBC_TUNABLES": "glibc.malloc.arena_max=2", "X": "1"})
    assert env == {"GLIBC_TUNABLES": "glibc.malloc.arena_max=2:glibc.malloc.tcache_count=0",
                   "X": "1"}
    mine = {"GLIBC_TUNABLES": "glibc.malloc.tcache_count=3"}  # the user's own choice stays
    assert allocator.environment(mine) == mine


def test_xobo_cafe_runs_with_the_caches_off_under_its_own_pid(tmp_path):
    Staff.create(str(tmp_path / "staff.json"), "counter-staff-7")
    proc = start_xobo(["cafe", "--no-usb-scan", "--db", str(tmp_path / "g.sqlite"),
                       "--http-port", "0", "--no-browser"])
    try:
        line = proc.stdout.readline()
        assert line.startswith("XoBo cafe: http://"), line + proc.stderr.read()
        with open("/proc/%d/environ" % proc.pid, "rb") as f:
            env = f.read().split(b"\0")
        assert b"GLIBC_TUNABLES=glibc.malloc.tcache_count=0" in env
    finally:
        stop_with_ctrl_c(proc)
