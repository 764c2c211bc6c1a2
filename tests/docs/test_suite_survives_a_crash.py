"""`make test` survives a worker that dies: the crashed test is reported failed, the other tests still run,
and the run ends. With `--dist loadfile` pytest-xdist 3.8 waited for ever once a worker had crashed (or been
ended by pytest-timeout): CI stopped for an hour at 99.8 %. The pytest arguments are read from the Makefile,
so this checks the command the README gives."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CRASHING = """
import os

def test_crashes():
    os._exit(1)

def test_after_the_crash():
    pass
"""

PLAIN = """
def test_one():
    pass

def test_two():
    pass
"""


def _make_test_arguments() -> list[str]:
    recipe = re.search(r"^test: .*\n\t\$\(PY\) -m pytest (.+)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert recipe, "the Makefile has a test target that runs pytest"
    return recipe.group(1).split()


def test_a_crashed_worker_fails_its_test_and_the_rest_still_run(tmp_path):
    for name, body in {"test_a_crash.py": CRASHING, "test_b_plain.py": PLAIN, "test_c_plain.py": PLAIN}.items():
        (tmp_path / name).write_text(body)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # not this project's settings
    args = [a for a in _make_test_arguments() if a != "-q"]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *args, "-p", "no:cacheprovider", "-rA", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
    )
    out = result.stdout + result.stderr
    assert result.returncode == 1, out[-3000:]
    assert re.search(r"1 failed, 5 passed", out), out[-3000:]
    assert "test_after_the_crash" in out and "crashed" in out
