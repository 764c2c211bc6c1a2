"""The memory estimate counts the logits a trace really holds: a CPU trace derives them from final.out when
read (explorer/trace/logits.py) and holds a few 64-row blocks of them, not the whole (B, C, V); a run that
patches the logits, an encoder's masked-LM head and a GPU run store every row, and are estimated so.

Checked against the trace itself: the budget that the new estimate fits lets the trace run, and the bytes the
trace holds, with every block it keeps read, stay under the estimate; a run that stores the logits is refused
by that budget before anything is allocated."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.config import ModelConfig, RunOptions, estimate_memory
from explorer.errors import MemoryBudgetError
from explorer.tokenize import word_tokenizer
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle

WORDS = [f"w{i}" for i in range(20_000)]
TEXT = " ".join(WORDS[i * 7 % 20_000] for i in range(1_000))  # 1,000 words: 1,000 tokens


@pytest.fixture(scope="module")
def wide_vocabulary():
    """A small model with a large vocabulary: its logits (C × V) dwarf everything else the trace holds."""
    tok = word_tokenizer(WORDS)
    cfg = ModelConfig(tok.vocab_size, embed_dim=16, key_dim=4, heads=2, layers=1)
    return random_bundle(cfg, tok, seed=3)


def _budget_between(cfg: ModelConfig, C: int) -> int:
    derived = estimate_memory(cfg, 1, C, RunOptions(lazy_pairwise=True)).peak_bytes
    kept = estimate_memory(cfg, 1, C, RunOptions(lazy_pairwise=True), logits_kept=True).peak_bytes
    assert kept - derived >= 0.9 * (C - 512) * cfg.V * 4  # the whole (C, V) less the blocks kept
    return (derived + kept) // 2


def test_a_trace_that_derives_its_logits_fits_the_budget_its_logits_would_not(wide_vocabulary, monkeypatch):
    cfg = wide_vocabulary.config
    C = 1_000
    monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", str(_budget_between(cfg, C) / 1024**3))
    trace = run_trace(wide_vocabulary, TEXT, RunOptions(lazy_pairwise=True))  # not refused
    assert trace.C == C and "logits" not in trace.stored_names()
    for start in range(0, C, 64):  # every block read once: at most 8 are kept
        trace.logits_rows(0, start, min(C, start + 64))
    kept_blocks = trace._derived.logits._blocks  # the blocks a trace holds for re-display
    assert 0 < len(kept_blocks) <= 8
    held = trace.nbytes + sum(block.nbytes for block in kept_blocks.values())  # a trace also keeps the weights
    est = estimate_memory(cfg, 1, C, RunOptions(lazy_pairwise=True))
    assert held <= est.params_bytes + est.trace_bytes


def test_a_run_that_stores_its_logits_is_refused_by_that_budget(wide_vocabulary, monkeypatch):
    cfg = wide_vocabulary.config
    monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", str(_budget_between(cfg, 1_000) / 1024**3))
    with pytest.raises(MemoryBudgetError, match="budget"):
        run_trace(wide_vocabulary, TEXT, RunOptions(lazy_pairwise=True), patches={"logits": lambda t: t})


def test_stored_logits_are_counted_where_they_are_stored():
    plain = ModelConfig(20_000, embed_dim=16, key_dim=4, heads=2, layers=1)
    encoder = ModelConfig(20_000, embed_dim=16, key_dim=4, heads=2, layers=1, mlm_head=True)
    whole = 4_000 * 20_000 * 4
    cpu = estimate_memory(plain, 1, 4_000).trace_bytes
    assert estimate_memory(plain, 1, 4_000, RunOptions(device="cuda")).trace_bytes - cpu >= 0.8 * whole
    assert estimate_memory(encoder, 1, 4_000).trace_bytes - cpu >= 0.8 * whole
    assert np.isclose(
        estimate_memory(plain, 1, 4_000, logits_kept=True).trace_bytes,
        estimate_memory(plain, 1, 4_000, RunOptions(device="cuda")).trace_bytes,
    )
