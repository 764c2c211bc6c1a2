"""Shapes and numbers the flow diagram and captions print."""

from __future__ import annotations

import pytest

from explorer.config import RunOptions
from explorer.present.stage_facts import stage_numbers, stage_shape
from explorer.trace.run import run_trace
from explorer.weights.presets import load_preset


@pytest.fixture(scope="module")
def trace():
    bundle = load_preset("seed-toy")  # E=3, D=2, H=2, L=1
    return run_trace(bundle, "This is a pen\nThis is", RunOptions(scale=False))


def test_shapes_drop_batch_and_heads_and_use_the_row_length(trace):
    assert stage_shape("qkv", trace, 0, 0) == ("(4, 2)", 2)
    assert stage_shape("qkv", trace, 0, 1) == ("(2, 2)", 2)
    assert stage_shape("weights", trace, 0, 1) == ("(2, 2)", 2)
    assert stage_shape("tokens", trace, 0, 0) == ("(4,)", 1)
    assert stage_shape("probs", trace, 0, 0) == (f"(4, {trace.config.V})", 1)
    assert stage_shape("concat", trace, 0, 0) == ("(4, 4)", 1)


def test_numbers(trace):
    n = stage_numbers(trace, 0, 1)
    assert (n["C"], n["E"], n["D"], n["H"], n["layer"], n["layers"]) == (2, 3, 2, 2, 0, 1)
    assert n["sqrt_D"] == "1.41"
    assert n["scale"] is False and n["mask"] == "causal"


def test_blocked_rows_count_only_the_real_tokens_of_the_sentence():
    from explorer.config import MaskSpec
    from explorer.present.stage_facts import blocked_rows

    bundle = load_preset("seed-toy")
    # row 0 and row 2 see nothing; the second sentence has 2 tokens, so only its row 0 counts there
    matrix = [[False] * 4, [True, True, False, False], [False] * 4, [True] * 4]
    trace = run_trace(bundle, "This is a pen\nThis is", RunOptions(mask=MaskSpec.explicit(matrix)))
    assert blocked_rows(trace, 0) == 2 and blocked_rows(trace, 1) == 1
    assert stage_numbers(trace, 0, 0)["blocked_rows"] == 2
    assert blocked_rows(run_trace(bundle, "This is a pen"), 0) == 0  # causal: every query sees itself
