"""The README's test command keeps the tests of one `xdist_group` on one worker (`--dist loadgroup`): the Ray tests
share one cluster, the module kinds' strict restart report is played once. pytest-xdist 3.8 lost the groups on
pytest 9.2 without a word (tests/conftest.py puts them back); this runs a small grouped suite on two workers."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from .conftest import REPO

pytest.importorskip("xdist")


@pytest.mark.xdist_group("suite-groups-probe")
@pytest.mark.parametrize("n", range(4))
def test_grouped_probe(n):
    """Run only by the test below (in its own pytest): four tests of one group."""


@pytest.mark.parametrize("n", range(4))
def test_ungrouped_probe(n):
    """Run only by the test below: four tests of no group, spread over the workers."""


def test_one_group_runs_on_one_worker():
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}  # CI's `-q` would hide the workers' lines
    run = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-v", "-p",
                          "no:cacheprovider", "tests/test_suite_groups.py", "-k", "probe"],
                         capture_output=True, text=True, cwd=REPO, timeout=300, env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    ran = re.findall(r"\[(gw\d)\] .*PASSED \S+::test_(grouped|ungrouped)_probe\[\d\]", run.stdout)
    assert len(ran) == 8, run.stdout[-3000:]
    workers = {worker for worker, kind in ran if kind == "grouped"}
    assert len(workers) == 1, f"the group ran on {sorted(workers)}:\n{run.stdout[-3000:]}"
