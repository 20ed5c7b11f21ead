"""Benchmark kernels: plain scripts that run under CPython and the MicroPython unix port."""
