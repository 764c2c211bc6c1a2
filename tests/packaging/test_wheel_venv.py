"""The wheel, installed into a fresh venv, runs `attention-explorer export` with the resources it carries.

Slow (a fresh venv gets torch and Qt: minutes), so it runs only when given a wheel:
    make wheel-test          # builds dist/*.whl with `python -m build`, then runs this file
    ATTENTION_EXPLORER_WHEEL=dist/attention_explorer-0.1.0-py3-none-any.whl pytest tests/packaging/test_wheel_venv.py
TORCH_PIN (default torch==2.13.0) keeps pip on the CPU build of torch.
"""

from __future__ import annotations

import json
import os
import subprocess
import venv
from pathlib import Path

import pytest
from packaging_helpers import SENTENCE, check_snapshot, resource_files, trained_presets

WHEEL = os.environ.get("ATTENTION_EXPLORER_WHEEL")
pytestmark = pytest.mark.skipif(not WHEEL, reason="set ATTENTION_EXPLORER_WHEEL (make wheel-test)")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    wheel = Path(WHEEL).resolve()
    assert wheel.is_file(), f"no wheel at {wheel}"
    env_dir = tmp_path_factory.mktemp("wheel-venv") / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    pin = os.environ.get("TORCH_PIN", "torch==2.13.0")
    result = subprocess.run(
        [str(env_dir / "bin" / "python"), "-m", "pip", "install", "--quiet", pin, str(wheel)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return env_dir


def run(installed: Path, args: list[str], env: dict, cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(installed / "bin" / args[0]), *args[1:]], capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout
    )


def test_resources_come_from_the_installed_package(installed, clean_env, tmp_path):
    code = "import json, explorer.util.paths as p; print(json.dumps([str(p.resources_dir()), p.__file__]))"
    result = run(installed, ["python", "-c", code], clean_env, tmp_path)
    assert result.returncode == 0, result.stderr
    resources, module = map(Path, json.loads(result.stdout))
    package = Path(module).parent.parent  # explorer/ (the module is explorer/util/paths.py)
    assert resources == package / "resources" and str(installed) in str(resources)
    for folder in {rel.split("/")[0] for rel in resource_files()}:  # corpora, tokenizers, icons, presets, ...
        assert (resources / folder).is_dir(), folder
    missing = [rel for rel in resource_files() if not (resources / rel).is_file()]
    assert not missing, missing[:20]


def test_export_from_the_installed_wheel(installed, clean_env, tmp_path):
    out = tmp_path / "x.npz"
    result = run(installed, ["attention-explorer", "export", SENTENCE, "-o", str(out)], clean_env, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    check_snapshot(out)
    info = run(installed, ["attention-explorer", "info", str(out)], clean_env, tmp_path)
    assert info.returncode == 0 and "layers.0.attn.weights" in info.stdout, info.stderr


@pytest.mark.parametrize(
    "preset", trained_presets() or [pytest.param(None, marks=pytest.mark.skip("no trained presets yet"))]
)
def test_trained_preset_from_the_installed_wheel(installed, clean_env, tmp_path, preset):
    out = tmp_path / f"{preset}.npz"
    result = run(
        installed, ["attention-explorer", "export", SENTENCE, "--preset", preset, "-o", str(out)], clean_env, tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert check_snapshot(out, tokens_expected=None)["weights_source"] == f"preset:{preset}"
