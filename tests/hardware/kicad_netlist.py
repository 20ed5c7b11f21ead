"""The KiCad netlist reader the tests use: hardware/netlist.py (shared with the PCB generator)."""

from .conftest import load_hardware

_netlist = load_hardware("netlist")
Netlist = _netlist.Netlist
parse_sexp = _netlist.parse_sexp
