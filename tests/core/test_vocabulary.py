"""The vocabulary is defined once (explorer/vocab.py, explorer/names.py) and the model, the CLI and the window
read it: the sliding window's rule, the sized mask kinds, item sizes, which q/k a model's scores use, the
corpora, the panels and a checkpoint's file names. Literals that used to drift are looked for in the code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from explorer import names, vocab
from explorer.config import MaskSpec

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("W", [1, 2, 3, 7])
def test_the_models_window_mask_is_the_vocabularys_rule(W):
    from explorer.model.mask import base_mask

    C = 9
    mask = base_mask(MaskSpec("window", W), C).numpy()
    for i in range(C):
        assert [j for j in range(C) if mask[i, j]] == list(vocab.window_keys(i, W))
    assert vocab.window_keys_before(W) == W - 1


def test_sized_kinds_parse_with_a_size_and_the_others_without():
    for kind in vocab.MASK_KINDS:
        if kind in vocab.SIZED_MASKS:
            assert str(MaskSpec.parse(f"{kind}:3")) == f"{kind}:3"
        elif kind != "explicit":
            assert str(MaskSpec.parse(kind)) == kind


def test_item_sizes_are_torchs():
    import torch  # numpy has no bfloat16: torch's own element size is the independent answer

    for dtype in vocab.DTYPES:
        assert vocab.itemsize(dtype) == torch.empty(0, dtype=getattr(torch, dtype)).element_size()


def test_scores_read_the_rotated_q_and_k_exactly_when_the_model_stores_them(words):
    from explorer.config import ModelConfig
    from explorer.trace.run import run_trace
    from explorer.weights.bundle import random_bundle

    for positions in vocab.POSITIONS:
        cfg = ModelConfig(words.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=1, positions=positions)
        trace = run_trace(random_bundle(cfg, words, 1), "This is a pen .")
        q, k = names.qk(0, positions)
        assert q in trace.stored_names() and k in trace.stored_names()
        assert (names.attn(0, "q_rot") in trace.stored_names()) == (positions == "rope")


def test_corpora_and_panels_are_the_ones_the_core_uses():
    from explorer.lessons.model import PANELS
    from explorer.train.corpora import NAMES, TEACHES

    assert NAMES == vocab.CORPORA and set(TEACHES) == set(vocab.CORPORA)
    assert PANELS == vocab.PANELS


def test_the_vocabulary_loads_without_torch():
    code = "import sys, explorer.vocab; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


def test_a_checkpoint_holds_the_vocabularys_files(tmp_path, words):
    from explorer.config import ModelConfig
    from explorer.weights.bundle import random_bundle
    from explorer.weights.checkpoint import save_checkpoint

    bundle = random_bundle(ModelConfig(words.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=1), words, 1)
    save_checkpoint(bundle, tmp_path / "ckpt")
    assert {p.name for p in (tmp_path / "ckpt").iterdir()} == {
        vocab.WEIGHTS_FILE,
        vocab.CONFIG_FILE,
        vocab.TOKENIZER_FILE,
    }


# Literals that were written again beside their definition; each now has one home.
DRIFTED = {
    r"\(\s*\"window\",\s*\"prefix\"\s*\)": "vocab.SIZED_MASKS",
    r"\(\s*\"causal\",\s*\"window\"\s*\)": "vocab.DECODING_MASKS",
    r"8 if [\w.]*dtype == \"float64\" else 4": "vocab.itemsize",
    r"\"q_rot\",\s*\"k_rot\"": "names.qk",
    r"\"(?:model\.safetensors|run\.json|metrics\.json)\"": "vocab's file names",
    r"\"tiny-en\",\s*\"tiny-ja\"": "vocab.CORPORA",
    r"\"identities\",\s*\"scaling\",\s*\"params\"": "vocab.PANELS",
}
HOMES = {ROOT / "explorer" / "vocab.py", ROOT / "explorer" / "names.py"}


def test_no_vocabulary_literal_is_written_again():
    found = []
    for path in sorted((ROOT / "explorer").rglob("*.py")):
        if path in HOMES:
            continue
        text = path.read_text(encoding="utf-8")
        for pattern, home in DRIFTED.items():
            for m in re.finditer(pattern, text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line} writes {m.group(0)!r}: use {home}")
    assert not found, "\n".join(found)
