"""How make test spreads the suite over the cores (tests/conftest.py, CONTRIBUTING.md): with
``--dist loadgroup`` the tests of one group run on one worker, so a module's fixtures (a
browser, a built firmware, a broker) are made once. pytest 9.2 with pytest-xdist 3.8 stopped
grouping without a word (pytest-dev/pytest-xdist#1386): this test says so if it comes back."""

import os
import subprocess
import sys


def test_loadgroup_runs_the_tests_of_a_group_on_one_worker(tmp_path):
    for name in ("a", "b"):
        (tmp_path / ("test_%s.py" % name)).write_text(
            "import pytest\n\n\n"
            "@pytest.mark.xdist_group('together')\n"
            "@pytest.mark.parametrize('i', range(4))\n"
            "def test_one(i):\n"
            "    pass\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # not the project's options
    # xdist alone: the installed plugins (hypothesis, playwright...) would be imported by the
    # run and by each of its workers for nothing
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "xdist.plugin", "-n", "2", "--dist", "loadgroup",
         "-vv", "-p", "no:cacheprovider", "-c", str(tmp_path / "pytest.ini"), str(tmp_path)],
        capture_output=True, text=True, cwd=str(tmp_path), timeout=600,
        env=dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1"))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    ran = [line.split() for line in proc.stdout.splitlines() if line.startswith("[gw")]
    assert len(ran) == 8, proc.stdout[-3000:]
    workers = {words[0] for words in ran}
    assert len(workers) == 1, "the group's 8 tests ran on %s:\n%s" % (
        sorted(workers), "\n".join(" ".join(w) for w in ran))


def _modules_importing_a_test_module(root=None):
    """[(module, the test module it imports)] under ``root`` (tests/): shared helpers live in
    kit modules (tests/xobo_testing.py, a folder's ``*kit.py``), so that a test module is
    collected once and its tests run once, and moving a test never breaks another module."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent if root is None else root
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names.append(node.module)
                names.extend(node.module + "." + a.name for a in node.names)
            elif isinstance(node, ast.Import):
                names.extend(a.name for a in node.names)
            for name in names:
                if name.split(".")[-1].startswith("test_"):
                    found.append((str(path.relative_to(root)), name))
    return found


def test_no_test_module_imports_another_test_module(tmp_path):
    found = _modules_importing_a_test_module()
    assert not found, "test modules imported by others (move the helpers to a kit): %s" % found
    # (and the check sees one)
    (tmp_path / "test_a.py").write_text("def helper():\n    pass\n")
    (tmp_path / "test_b.py").write_text("from test_a import helper\n")
    (tmp_path / "kit.py").write_text("import os\nfrom sim import test_x\n")
    assert _modules_importing_a_test_module(tmp_path) == [
        ("kit.py", "sim.test_x"), ("test_b.py", "test_a")]
