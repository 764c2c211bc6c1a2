"""Helpers for the tests of files from anywhere: a pickle that would run code, and a tiny Hugging Face folder.

Not a test module (no test_ prefix): imported by tests/core, tests/cli and tests/ui.
"""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import numpy as np

E, H, P, LAYERS = 8, 2, 16, 1
WORDS = ["<unk>", "This", "is", "a", "pen", ".", "dog", "?"]


class Trap:
    """Unpickling this runs a shell command that creates ``marker``: proof that a pickle was executed."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch '{self.marker}'",))


def armed(marker: Path) -> bool:
    """Check that the trap really fires when unpickled unsafely (so a test that sees no marker means
    something), then remove the marker again."""
    pickle.loads(pickle.dumps(Trap(marker)))
    fired = marker.exists()
    marker.unlink(missing_ok=True)
    return fired


def trap_files(folder: Path, marker: Path, name: str) -> list[Path]:
    """``name`` written three ways, each running the trap when unpickled: torch's zip format, torch's
    legacy (one big pickle) format, and a plain pickle."""
    import torch

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for kind in ("zip", "legacy", "pickle"):
        path = folder / kind / name
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = {"wte.weight": torch.zeros(2, 2), "evil": Trap(marker)}
        if kind == "zip":
            torch.save(payload, path)
        elif kind == "legacy":
            torch.save(payload, path, _use_new_zipfile_serialization=False)
        else:
            path.write_bytes(pickle.dumps(payload))
        out.append(path)
    return out


def gpt2_tensors() -> dict[str, np.ndarray]:
    """Every tensor of a one-layer GPT-2 with E=8, H=2, P=16 and the vocabulary above (tied embeddings)."""
    rng = np.random.default_rng(0)
    V = len(WORDS)

    def t(*shape):
        return rng.standard_normal(shape).astype(np.float32) * 0.2

    out = {"wte.weight": t(V, E), "wpe.weight": t(P, E), "ln_f.weight": np.ones(E, np.float32), "ln_f.bias": t(E)}
    for l in range(LAYERS):
        h = f"h.{l}"
        out |= {
            f"{h}.ln_1.weight": np.ones(E, np.float32),
            f"{h}.ln_1.bias": t(E),
            f"{h}.attn.c_attn.weight": t(E, 3 * E),
            f"{h}.attn.c_attn.bias": t(3 * E),
            f"{h}.attn.c_proj.weight": t(E, E),
            f"{h}.attn.c_proj.bias": t(E),
            f"{h}.ln_2.weight": np.ones(E, np.float32),
            f"{h}.ln_2.bias": t(E),
            f"{h}.mlp.c_fc.weight": t(E, 4 * E),
            f"{h}.mlp.c_fc.bias": t(4 * E),
            f"{h}.mlp.c_proj.weight": t(4 * E, E),
            f"{h}.mlp.c_proj.bias": t(E),
        }
    return out


def tiny_gpt2(folder: Path, tensors: dict[str, np.ndarray] | None = None) -> Path:
    """A Hugging Face GPT-2 folder (config.json, tokenizer.json, model.safetensors) that loads, unless
    ``tensors`` says otherwise (a missing tensor, a wrong shape)."""
    import tokenizers
    from safetensors.numpy import save_file
    from tokenizers import models, pre_tokenizers

    folder.mkdir(parents=True, exist_ok=True)
    config = {
        "model_type": "gpt2",
        "vocab_size": len(WORDS),
        "n_embd": E,
        "n_head": H,
        "n_layer": LAYERS,
        "n_positions": P,
    }
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    hf = tokenizers.Tokenizer(models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="<unk>"))
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    (folder / "tokenizer.json").write_text(hf.to_str(), encoding="utf-8")
    save_file(gpt2_tensors() if tensors is None else tensors, str(folder / "model.safetensors"))
    return folder
