"""The café benches' results files (``cafe/benchfigures.py``): the latency, the records and
the hosts' resources of a run, as figures with their units; a run with other than ``make
cafe-bench``'s / ``make remote-bench``'s arguments is not the latest."""

import argparse
import json

from xobo_host.cafe import benchfigures


def cafe_args(**kw):
    base = dict(boards=32, moves=1000, pause_ms=1000, browser=False, glibc_caches=False,
                trace_memory=False)
    base.update(kw)
    return argparse.Namespace(**base)


CAFE_OUT = {"boards": 32, "moves": 1000, "pause_ms": 1000, "played": 1000, "seconds": 60.0,
            "latency_ms": {"n": 1000, "median": 12.5, "p95": 40.1, "max": 90.0},
            "records_lost": 0, "host_cpu_percent_of_one_core": 10.2,
            "host_rss_mb": {"after_warmup": 45.6, "end": 46.2, "max": 46.2, "tenths": []},
            "host_memory_growth_mb": {"rss_mb": 0.6}, "errors": []}


def test_the_cafe_benchs_results_give_its_latency_records_and_host(tmp_path):
    started = benchfigures.cafe_run(cafe_args())
    path = benchfigures.write_cafe(started, CAFE_OUT, cafe_args(), folder=tmp_path)
    data = json.loads((tmp_path / "cafe" / "latest.json").read_text())
    assert path.parent.name == "cafe" and data["standard"]
    figs = data["figures"]
    assert figs["latency.p95"]["value"] == 40.1 and figs["latency.p95"]["unit"] == "ms"
    assert figs["records-lost"]["value"] == 0 and figs["host-cpu"]["unit"] == "%"
    assert figs["host-rss.end"]["value"] == 46.2 and figs["host-growth.rss"]["unit"] == "MB"


def test_a_cafe_bench_with_other_arguments_is_not_the_latest(tmp_path):
    args = cafe_args(boards=8, moves=200)
    benchfigures.write_cafe(benchfigures.cafe_run(args), dict(CAFE_OUT, boards=8, moves=200),
                            args, folder=tmp_path)
    assert not (tmp_path / "cafe" / "latest.json").exists()
    assert len(list((tmp_path / "cafe").glob("*Z.json"))) == 1


def test_the_remote_benchs_results_give_its_latency_losses_and_hosts(tmp_path):
    args = argparse.Namespace(matches=100, restarts=10, pause_ms=1000, think_spread=0.0,
                              down_ms=1000, most_moves=60, stand_ins_nice=10)
    out = {"lost": 0, "doubled": 0, "up": [0.010, 0.020, 0.030], "every": [0.010, 1.5],
           "played": 2, "cpu": {"a": 20.4, "b": 19.6}, "rss": {"a": 40.2, "b": 41.0}}
    benchfigures.write_remote(benchfigures.remote_run(args), out, args, folder=tmp_path)
    figs = json.loads((tmp_path / "remote" / "latest.json").read_text())["figures"]
    assert figs["up.median"]["value"] == 20.0 and figs["every.max"]["value"] == 1500.0
    assert figs["lost"]["value"] == 0 and figs["doubled"]["value"] == 0
    assert figs["host-cpu.a"]["value"] == 20 and figs["host-rss.b"]["unit"] == "MB"
