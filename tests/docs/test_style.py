"""One style for the tree (issue 37): ruff's linter and formatter, configured in pyproject.toml, pass over
every folder of Python the project keeps, and the check is one that can fail."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "pyproject.toml"
FOLDERS = ("explorer", "tests", "benchmarks", "packaging")

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ruff") is None, reason="ruff is not installed (it is in the test extras: .[test])"
)


def _ruff(*args: str) -> subprocess.CompletedProcess:
    # --no-cache: parallel test workers would race on .ruff_cache, and the test leaves nothing behind
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_ruff_check_passes():
    r = _ruff("check", *FOLDERS)
    assert r.returncode == 0, (
        f"ruff check found problems (fix them; `ruff check --fix` fixes some):\n{r.stdout}{r.stderr}"
    )


def test_ruff_format_is_applied():
    r = _ruff("format", "--check", *FOLDERS)
    assert r.returncode == 0, f"files ruff format would change (run `ruff format`):\n{r.stdout}{r.stderr}"


def test_the_check_reports_an_unused_import_under_the_projects_settings(tmp_path):
    bad = tmp_path / "bad.py"
    long_line = "x = " + repr("a" * 100)  # 108 characters: within the project's 120, over ruff's default 88
    bad.write_text(f"import os\n\n{long_line}\n")
    r = _ruff("check", "--config", str(CONFIG), "--output-format", "concise", str(bad))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "F401" in r.stdout and "E501" not in r.stdout, r.stdout


def test_the_format_check_fails_on_unformatted_code(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("x = {'a':1,  'b':2}\n")
    r = _ruff("format", "--check", "--config", str(CONFIG), str(bad))
    assert r.returncode == 1 and "bad.py" in r.stdout, r.stdout + r.stderr
