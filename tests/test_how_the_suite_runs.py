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
