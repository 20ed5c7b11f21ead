"""xobo board bench: one scan-debounce-infer-render cycle timed under MicroPython and CPython
against a baseline of the same run, and the heap a cycle allocates under MicroPython (0)."""

from xobo_host.bench.board import main


def test_bench_reports_both_runtimes_and_no_heap_per_cycle():
    lines = main(cycles=50)
    text = "\n".join(lines)
    assert "micropython baseline" in text and "cpython     baseline" in text
    heap = [x for x in lines if x.startswith("micropython heap")][0]
    assert "idle 0 bytes, stack lifted 0 bytes, pulsing 0 bytes" in heap, heap
