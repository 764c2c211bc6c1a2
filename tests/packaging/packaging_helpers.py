"""Shared facts for the packaging tests: where things are, the app id, and a few small readers.

(A module with its own name, not conftest.py: several conftest modules exist and `from conftest import` would be
ambiguous.)
"""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
RESOURCES = ROOT / "resources"
APP_ID = "io.github.attention_explorer.AttentionExplorer"
ICON_SIZES = (16, 32, 48, 64, 128, 256, 512)
SENTENCE = "This is a pen ."


def pyproject() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def resource_files() -> list[str]:
    """Paths (relative to resources/, posix) of every file that must ship: all but hidden files and caches."""
    out = []
    for path in sorted(RESOURCES.rglob("*")):
        rel = path.relative_to(RESOURCES)
        if path.is_file() and not any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
            out.append(rel.as_posix())
    return out


def trained_presets() -> list[str]:
    """Names of the presets whose trained weights lie in resources/presets/ (none until they are trained)."""
    from explorer.weights.presets import PRESETS

    return [name for name, p in PRESETS.items() if p.has_trained_weights()]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def check_snapshot(path: Path, sentence: str = SENTENCE, tokens_expected: int | None = 5) -> dict:
    """A snapshot written by `export` opens with numpy alone (no pickle) and holds a sane trace; returns its manifest.

    tokens_expected: 5 for the default word-level tokenizer on "This is a pen ."; None for presets whose
    tokenizer splits differently (characters, letters)."""
    with np.load(path, allow_pickle=False) as z:
        names = set(z.files)
        for name in ("manifest", "tokens", "layers.0.attn.weights", "logits", "params.embed.tok"):
            assert name in names, f"{name} missing from {path}: {sorted(names)[:20]}"
        manifest = json.loads(z["manifest"].tobytes().decode("utf-8"))
        tokens = z["tokens"]
        weights = z["layers.0.attn.weights"]
        logits = z["logits"]
    assert manifest["text"] == sentence
    assert tokens.shape == (1, manifest["batch"][0]["length"]) and tokens.shape[1] >= 1
    if tokens_expected is not None:
        assert tokens.shape[1] == tokens_expected, manifest["batch"][0]["tokens"]
    b, h, c, c2 = weights.shape
    assert (b, c, c2) == (1, tokens.shape[1], tokens.shape[1]) and h >= 1
    assert np.isfinite(weights).all() and np.allclose(weights.sum(-1), 1.0, atol=1e-4)
    if manifest["options"]["mask"]["kind"] == "causal":
        assert np.allclose(np.triu(weights[0, 0], k=1), 0.0)
    assert logits.shape[:2] == tokens.shape and np.isfinite(logits).all()
    return manifest


def desktop_file_name_in_app() -> str:
    """The desktop file name the window announces (explorer/ui/shell/app.py), read as text: no Qt import."""
    source = (ROOT / "explorer" / "ui" / "shell" / "app.py").read_text(encoding="utf-8")
    found = re.search(r"setDesktopFileName\(\s*[\"']([^\"']+)[\"']\s*\)", source)
    assert found, "explorer/ui/shell/app.py no longer calls setDesktopFileName('...')"
    return found.group(1)
