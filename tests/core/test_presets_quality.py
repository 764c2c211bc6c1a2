"""The SHIPPED trained presets (resources/presets/*) do what the app promises a class.

* classroom: held-out cross-entropy on tiny-en clearly below the bigram baseline;
* japanese: below the bigram baseline on tiny-ja;
* induction: ≥ 0.9 mean probability on the correct next letter over the repeated half of fresh random
  letter sequences, and a head whose second-half queries attend mostly to the token after the previous
  occurrence of themselves.

These read the committed files; rebuild them with ``make presets``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from explorer.trace import run_trace
from explorer.train.evaluate import evaluate_bundle
from explorer.train.induction import induction_scores
from explorer.weights.presets import get_preset, load_preset, preset_config, preset_dir

TRAINED = ("classroom", "japanese", "induction")
TEST_SEED = 20_240_601  # not a training seed (0), nor the held-out or baseline seeds of the task corpus


@pytest.mark.parametrize("name", TRAINED)
def test_shipped_preset_files_are_complete_small_and_load_as_trained(name):
    folder = preset_dir(name)
    files = {p.name: p.stat().st_size for p in folder.iterdir()}
    assert {"model.safetensors", "config.json", "tokenizer.json", "metrics.json"} <= set(files)
    assert sum(files.values()) < 3 * 1024**2  # a few MB at most
    assert get_preset(name).has_trained_weights()
    bundle = load_preset(name)
    assert bundle.source == f"preset:{name}"
    assert bundle.config == preset_config(name)  # the shipped sizes are the preset's sizes
    metrics = json.loads((folder / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["preset"] == name and metrics["steps"] > 0 and "command" in metrics
    # The random model stays one click away.
    random = load_preset(name, random_weights=True)
    assert random.source == "random"
    assert not torch.equal(random.model.embed.tok, bundle.model.embed.tok)


def test_classroom_beats_the_bigram_baseline_clearly():
    out = evaluate_bundle(load_preset("classroom"))
    assert out["corpus"] == "tiny-en"
    assert out["bigram_loss"] < out["unigram_loss"]
    assert out["heldout_loss"] <= out["bigram_loss"] - 0.1, out


def test_japanese_beats_the_bigram_baseline():
    out = evaluate_bundle(load_preset("japanese"))
    assert out["corpus"] == "tiny-ja"
    assert out["heldout_loss"] <= out["bigram_loss"] - 0.1, out


def _fresh_repeats(count=50, lo=10, hi=20, seed=TEST_SEED) -> list[str]:
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    texts = []
    for n in rng.integers(lo, hi + 1, size=count):
        s = "".join(rng.choice(letters, size=int(n)))
        texts.append(s + s)
    return texts


@pytest.fixture(scope="module")
def induction():
    return load_preset("induction")


def test_induction_predicts_the_repeated_half(induction):
    texts = _fresh_repeats()
    rows = [induction.tokenizer.encode(t).ids for t in texts]
    assert [len(r) for r in rows] == [len(t) for t in texts]  # one token per letter
    C = max(len(r) for r in rows)
    ids = torch.zeros(len(rows), C, dtype=torch.long)  # right-padded: causal queries never see padding
    for b, r in enumerate(rows):
        ids[b, : len(r)] = torch.tensor(r)
    with torch.inference_mode():
        p = torch.softmax(induction.model(ids), dim=-1)  # (B, C, V)
    probs = []
    for b, r in enumerate(rows):
        n = len(r) // 2
        for i in range(n, 2 * n - 1):  # query i has seen the first copy: the next letter is r[i + 1]
            probs.append(float(p[b, i, r[i + 1]]))
    assert len(probs) == sum(len(r) // 2 - 1 for r in rows)
    assert np.mean(probs) >= 0.9, np.mean(probs)


def test_induction_has_an_induction_head(induction):
    texts = _fresh_repeats()
    trace = run_trace(induction, "\n".join(texts))
    scores = induction_scores(trace)  # (L, H)
    assert scores.shape == (induction.config.layers, induction.config.heads)
    layer, head = np.unravel_index(int(np.nanargmax(scores)), scores.shape)
    assert scores[layer, head] >= 0.5, scores
    # Check that head directly: each second-half query attends mostly to the key right after the
    # previous occurrence of itself (key i − n + 1).
    hits = total = 0
    for b, row in enumerate(trace.rows):
        n = row.length // 2
        w = trace.head_map(int(layer), "weights", b, int(head))  # (C, C): query (row) → key (column)
        for i in range(n, 2 * n):
            hits += int(np.argmax(w[i, : i + 1]) == i - n + 1)
            total += 1
    assert hits / total >= 0.8, (layer, head, hits / total)
