"""Fixtures for the hardware tests: the repo's ``hardware/`` package and its generated files.

``tests/hardware`` is itself imported as the package ``hardware`` (tests/ is on sys.path), so the
repo's ``hardware/`` is loaded under the name ``xobo_hardware``.
"""

import importlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HW_DIR = ROOT / "hardware"
OUT_DIR = HW_DIR / "out"
BOARDS_DIR = ROOT / "boards"


def load_hardware(sub):
    if "xobo_hardware" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "xobo_hardware", HW_DIR / "__init__.py", submodule_search_locations=[str(HW_DIR)]
        )
        mod = importlib.util.module_from_spec(spec)
        sys.modules["xobo_hardware"] = mod
        spec.loader.exec_module(mod)
    return importlib.import_module("xobo_hardware." + sub)


@pytest.fixture(scope="session")
def design():
    return load_hardware("design")


@pytest.fixture(scope="session")
def schematic():
    return load_hardware("schematic")


@pytest.fixture(scope="session")
def outputs():
    return load_hardware("outputs")


@pytest.fixture(scope="session")
def overlay():
    return load_hardware("overlay")


@pytest.fixture(scope="session")
def pieces():
    return load_hardware("pieces")


@pytest.fixture(scope="session")
def generate():
    return load_hardware("generate")


@pytest.fixture(scope="session")
def boards():
    """{name: dict} of the committed boards/*.json."""
    return {p.stem: json.loads(p.read_text()) for p in sorted(BOARDS_DIR.glob("*.json"))}


@pytest.fixture(scope="session")
def netlist():
    """The committed KiCad netlist, parsed (see kicad_netlist.py)."""
    from .kicad_netlist import Netlist

    return Netlist.parse((OUT_DIR / "xobo_board.net").read_text())


@pytest.fixture(scope="session")
def netlist15():
    """The committed netlist of the 15x15 board, parsed."""
    from .kicad_netlist import Netlist

    return Netlist.parse((OUT_DIR / "xobo_board_15x15.net").read_text())
