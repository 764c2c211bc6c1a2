"""The memory a Llama-3.2-1B-shaped trace at 2,048 tokens holds, estimated from the config alone before anything
is allocated (issue 43, item 3), and the refusal when it does not fit the budget.

What the trace holds is read from a real trace of a small model of the same form (its names and their shapes,
each checked against the shape its labels give for that config), then sized for the 1B config: nothing large is
built. The window's options for a deep model: the selected layer captured whole, maps derived when looked at,
every other layer's q and k kept (config.keeps_every_map)."""

from __future__ import annotations

import math

import pytest

from explorer import names
from explorer.config import LOGIT_BLOCKS, LOGIT_ROWS, RunOptions, check_memory, estimate_memory
from explorer.errors import MemoryBudgetError
from explorer.tokenize import word_tokenizer
from explorer.trace.run import run_trace
from explorer.weights.bundle import random_bundle
from explorer.weights.hf import config_from_hf

# meta-llama/Llama-3.2-1B's config.json (the fields that size and shape it)
LLAMA_1B = {
    "model_type": "llama",
    "head_dim": 64,
    "hidden_act": "silu",
    "hidden_size": 2048,
    "intermediate_size": 8192,
    "max_position_embeddings": 131072,
    "num_attention_heads": 32,
    "num_hidden_layers": 16,
    "num_key_value_heads": 8,
    "rms_norm_eps": 1e-05,
    "rope_scaling": {
        "factor": 32.0,
        "high_freq_factor": 4.0,
        "low_freq_factor": 1.0,
        "original_max_position_embeddings": 8192,
        "rope_type": "llama3",
    },  # fmt: skip
    "rope_theta": 500000.0,
    "tie_word_embeddings": True,
    "vocab_size": 128256,
}
SMALL = {**LLAMA_1B, "hidden_size": 64, "intermediate_size": 256, "num_attention_heads": 8,
         "num_key_value_heads": 2, "head_dim": 8, "num_hidden_layers": 3, "vocab_size": 300}  # fmt: skip
OPTIONS = RunOptions(lazy_pairwise=True, layers_to_capture=(0,))
CONTEXT = 2048


def sizes(cfg, B: int, C: int):
    """A label ("C", "H·D") → its length for ``cfg`` at (B, C)."""
    one = {"B": B, "C": C, "E": cfg.E, "D": cfg.D, "D_v": cfg.D_v, "H": cfg.H, "H_kv": cfg.H_kv, "F": cfg.F,
           "V": cfg.V, "R": cfg.R}  # fmt: skip
    return lambda label: math.prod(one[part] for part in label.split("·"))


@pytest.fixture(scope="module")
def small_trace():
    cfg = config_from_hf(SMALL, "small/config.json")
    tok = word_tokenizer([f"w{i}" for i in range(200)])
    bundle = random_bundle(cfg, tok, seed=1)
    trace = run_trace(bundle, " ".join(f"w{i % 200}" for i in range(40)), OPTIONS)
    trace.logits_rows(0, trace.C - 1, trace.C)  # the row the window shows first
    return trace


def held(trace, cfg, B: int, C: int) -> int:
    """Bytes of the arrays ``trace`` holds, sized for ``cfg`` at (B, C): its captured layer 0, every other
    layer's q and k, the tensors outside the layers, and the most logit blocks a trace keeps."""
    size = sizes(cfg, B, C)
    total = 0
    for name in trace.stored_names():
        if name.startswith("params."):
            continue
        layer = names.layer_of(name)
        copies = 1 if layer in (None, 0) else (cfg.layers - 1) / (trace.config.layers - 1)
        total += copies * math.prod(size(l) for l in trace.labels(name)) * trace[name].itemsize
    return int(total + min(B * C, LOGIT_ROWS * LOGIT_BLOCKS) * cfg.V * 4)


def test_small_trace_holds_what_its_labels_say(small_trace):
    """The sizing below reads each array's labels: here they give each array's real shape."""
    size = sizes(small_trace.config, small_trace.B, small_trace.C)
    for name in small_trace.stored_names():
        if not name.startswith("params."):
            expected = tuple(size(l) for l in small_trace.labels(name))
            assert small_trace[name].shape == expected, name
    captured = {names.layer_of(n) for n in small_trace.stored_names() if not n.startswith("params.")} - {None}
    assert captured == {0, 1, 2} and small_trace.layers == (0,)
    assert {n for n in small_trace.stored_names() if names.layer_of(n) == 2 and not n.startswith("params.")} == set(
        names.qk(2, "rope")
    )


def test_1b_estimate_is_within_15_percent_of_the_arrays_held(small_trace):
    cfg = config_from_hf(LLAMA_1B, "Llama-3.2-1B/config.json")
    measured = held(small_trace, cfg, 1, CONTEXT)
    est = estimate_memory(cfg, 1, CONTEXT, OPTIONS)
    assert abs(est.trace_bytes - measured) <= 0.15 * measured, (est.trace_bytes / 2**20, measured / 2**20)
    assert est.params_bytes == cfg.parameter_count() * 4
    # the design point: beside the weights, the whole request fits in 2 GB
    assert est.peak_bytes - est.params_bytes < 2 * 1024**3


def test_1b_trace_past_the_budget_is_refused_naming_the_estimate_and_the_budget(monkeypatch):
    cfg = config_from_hf(LLAMA_1B, "Llama-3.2-1B/config.json")
    est = estimate_memory(cfg, 1, CONTEXT, OPTIONS)
    monkeypatch.delenv("ATTENTION_EXPLORER_MEMORY_GB", raising=False)
    with pytest.raises(MemoryBudgetError) as refused:  # the 4 GiB default: the weights alone are 4.6 GiB
        check_memory(cfg, 1, CONTEXT, OPTIONS)
    message = str(refused.value)
    assert f"{est.peak_bytes / 1024**3:.2f} GiB" in message and "4.00 GiB budget" in message
    assert "raise the budget (--memory-budget GB or ATTENTION_EXPLORER_MEMORY_GB)" in message  # says how
    monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", "6")  # a user raises it as today
    assert check_memory(cfg, 1, CONTEXT, OPTIONS).peak_bytes == est.peak_bytes


def test_a_trace_past_the_budget_is_refused_before_it_runs(small_trace, monkeypatch):
    cfg = small_trace.config
    bundle = random_bundle(cfg, word_tokenizer([f"w{i}" for i in range(200)]), seed=1)
    monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", "0.001")
    with pytest.raises(MemoryBudgetError, match=r"more than the 1\.0 MiB budget"):
        run_trace(bundle, " ".join(f"w{i}" for i in range(40)), OPTIONS)
