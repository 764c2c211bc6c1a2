"""The anatomy's pure parts (issue 39): a long sum shortened to its largest terms plus the rest, the one list
of step kinds with both languages, the stages it explains read from the pipeline's STAGES, and JSON without
non-standard numbers. The steps against exported tensors: tests/cli/test_anatomy_cli.py."""

from __future__ import annotations

import json

import pytest

from explorer.anatomy import ANATOMY_STAGES, OPS, Step
from explorer.anatomy.shorten import shorten
from explorer.present.stages import STAGE_KEYS


def _terms(values, op="product"):
    total, out = 0.0, []
    for d, v in enumerate(values):
        total += v
        out.append(Step(op, {"d": d}, v, total, index=d))
    return out


def test_a_long_sum_keeps_its_largest_terms_in_order_and_adds_the_rest_as_one():
    values = [1.0, -20.0, 2.0, 3.0, 30.0, -4.0, 5.0]  # the three largest in size: −20, 30, 5
    steps = shorten([*_terms(values), Step("scale", {}, 0.5)], keep=3, limit=4)
    assert [s.op for s in steps] == ["product", "product", "product", "others", "scale"]
    assert [s.index for s in steps[:3]] == [1, 4, 6]
    assert [s.running for s in steps[:3]] == [-20.0, 10.0, 15.0]
    others = steps[3]
    assert others.operands["count"] == 4 and others.result == 1.0 + 2.0 + 3.0 - 4.0 and others.running == 17.0
    assert others.operands["largest"] == 4.0


def test_a_short_sum_and_a_softmax_rows_selected_entry_stay():
    assert shorten(_terms([1.0, 2.0, 3.0]), keep=1, limit=4) == _terms([1.0, 2.0, 3.0])
    row = _terms([0.5, 0.1, 0.2, 0.05, 0.15], op="divide")
    shown = shorten(row, keep=1, limit=2, always=(3,))
    assert [s.index for s in shown[:-1]] == [0, 3] and shown[-1].operands["count"] == 3
    assert shown[-1].running == pytest.approx(1.0)


def test_every_step_kind_has_an_english_and_a_japanese_label():
    for op, (english, japanese) in OPS.items():
        assert english and japanese and not japanese.isascii(), op
    with pytest.raises(KeyError):
        Step("no such op", {}, 0.0)


def test_the_stages_come_from_the_pipeline_in_its_order():
    assert set(ANATOMY_STAGES) <= set(STAGE_KEYS)
    assert list(ANATOMY_STAGES) == [k for k in STAGE_KEYS if k in ANATOMY_STAGES]
    assert {"scores", "weights", "heads", "out", "residual", "ffn", "logits", "probs"} <= set(ANATOMY_STAGES)


def test_minus_infinity_is_written_as_strict_json():
    step = Step("mask", {"x": -1.5, "reason": "causal"}, float("-inf"))
    text = json.dumps(step.to_json("ja"), allow_nan=False, ensure_ascii=False)
    back = json.loads(text)
    assert back["result"] == "-inf" and back["label"] == OPS["mask"][1] and back["operands"]["reason"] == "causal"


@pytest.fixture(scope="module")
def grouped(words):
    """Grouped-query heads (H=4, H_kv=2), biases, D = 3: a hover spells the dot product out term by term."""
    from explorer.config import ModelConfig
    from explorer.trace import run_trace
    from explorer.weights.bundle import random_bundle

    cfg = ModelConfig(words.vocab_size, embed_dim=8, key_dim=3, heads=4, kv_heads=2, layers=1, bias=True)
    return run_trace(random_bundle(cfg, words, 3), "This is a pen .")


def test_the_steps_hold_the_numbers_the_hover_prints(grouped):
    """Today's one-line hover (explorer/present/explain_maps.py) and the anatomy tell the same story: the
    score, ÷√D and the weight of the hover are the anatomy's steps, to the hover's printed precision."""
    import re

    from explorer.anatomy import Cell, anatomy
    from explorer.present.explain import explain_cell
    from explorer.present.hover_numbers import agrees

    number = r"(−?\d+(?:\.\d+)?(?:e[+−-]?\d+)?)"
    for h in range(4):
        for i in range(grouped.C):
            for j in range(i + 1):
                hover = explain_cell(grouped, "weights", 0, h, 0, i, j)
                steps = anatomy(grouped, Cell("weights", 0, h, i, key=j))
                score = [s.running for s in steps if s.op == "product"][-1]
                (scale,) = [s.result for s in steps if s.op == "scale"]
                printed_score = re.search(r"= " + number + r" → ÷√3", hover).group(1)
                printed_scaled = re.search(r"÷√3 = " + number, hover).group(1)
                assert agrees(score, printed_score) and agrees(float(scale), printed_scaled), hover
                assert agrees(steps[-1].result, re.findall(number, hover)[-1]), hover
