"""What the window's Logit lens and Attribution tabs draw (explorer.interventions.lens): the grid for every
position at once against a numpy recomputation of the final norm and unembedding, its last layer against the
trace's own probs; one position's attribution adding up to the trace's logit; the target field's spellings."""

from __future__ import annotations

import numpy as np
import pytest
from test_interventions_attribution import CONFIGS, layernorm, make  # the same small random models

from explorer.config import RunOptions
from explorer.errors import ConfigError, InputError
from explorer.interventions.lens import explain_logit, lens_grid, window_target
from explorer.trace.run import run_trace

TEXT = "the cat sat on the dog ."


def _numpy_lens(trace, bundle, l):
    """Softmax of the final norm and unembedding of layer l's stream, every position, in float64."""
    p = trace.params()
    W_u = p["params.unembed.W_u"] if "params.unembed.W_u" in p else p["params.embed.tok"].T
    x = trace[f"layers.{l}.out"][0].astype(np.float64)  # (C, E)
    if bundle.config.norm == "layernorm":
        y = layernorm(x, p["params.ln_final.weight"], p["params.ln_final.bias"], bundle.config.norm_eps)
    else:
        y = x / np.sqrt((x**2).mean(-1, keepdims=True) + bundle.config.norm_eps) * p["params.ln_final.weight"]
    z = y @ W_u + p.get("params.unembed.b_u", 0.0)  # (C, V)
    q = np.exp(z - z.max(-1, keepdims=True))
    return q / q.sum(-1, keepdims=True)


@pytest.mark.parametrize("kind", ["explorer", "gpt2-like", "llama-like"])
def test_lens_grid_matches_numpy_and_its_last_layer_is_probs(tokenizer, kind):
    bundle = make(tokenizer, **CONFIGS[kind])
    trace = run_trace(bundle, TEXT)
    grid = lens_grid(bundle, trace)
    n = trace.rows[0].length
    assert grid.top_prob.shape == (3, n) and len(grid.tokens) == n
    probs = trace["probs"][0, :n].astype(np.float64)
    final = probs.argmax(-1)
    np.testing.assert_allclose(grid.top_prob[-1], probs.max(-1), atol=1e-6)
    assert grid.top[-1] == tuple(trace.vocab[t] for t in final) == grid.predicted
    for l in range(3):
        q = _numpy_lens(trace, bundle, l)
        np.testing.assert_allclose(grid.top_prob[l], q.max(-1), atol=1e-5)
        np.testing.assert_allclose(grid.predicted_prob[l], q[np.arange(n), final], atol=1e-5)


def test_lens_grid_reports_progress_and_stops_when_cancelled(tokenizer):
    import threading

    from explorer.errors import Cancelled

    bundle = make(tokenizer)
    trace = run_trace(bundle, TEXT)
    steps = []
    lens_grid(bundle, trace, progress=lambda d, t: steps.append((d, t)))
    assert steps == [(1, 3), (2, 3), (3, 3)]
    stop = threading.Event()
    stop.set()
    with pytest.raises(Cancelled):
        lens_grid(bundle, trace, cancel=stop)


@pytest.mark.parametrize("kind", ["explorer", "gpt2-like", "llama-like"])
def test_explanation_adds_up_to_the_traces_logit(tokenizer, kind):
    bundle = make(tokenizer, **CONFIGS[kind])
    trace = run_trace(bundle, TEXT, RunOptions(dtype="float64"))
    for position, target in ((6, None), (2, "#119")):
        e = explain_logit(bundle, trace, position, target)
        logits = trace["logits"][0, position]
        expected = int(logits.argmax()) if target is None else 119
        assert e.target == expected and e.logit == float(logits[expected])
        assert abs(e.values.sum() - e.parts) < 1e-9 and abs(e.parts + e.constant - e.total) < 1e-9
        assert abs(e.total - e.logit) <= 1e-6 * max(1.0, abs(e.logit))
        assert len(e.components) == len(e.values) == 1 + 3 * (bundle.config.H + 1)


def test_the_target_field_spellings_and_refusals(tokenizer):
    bundle = make(tokenizer)
    shown = bundle.tokenizer.display_vocab()
    # a word the vocabulary holds only mid-sentence (with its space): typed bare, the spaced entry is found
    word = next(w for w in ("dog", "cat", "sees", "pen", "big", "red") if " " + w in shown and w not in shown)
    (spaced,) = tokenizer.encode(" " + word).ids
    assert window_target(bundle, " " + word) == spaced == window_target(bundle, word)
    both = next(w for w in shown if w.isalpha() and " " + w in shown)  # held both ways: the exact entry wins
    assert window_target(bundle, both) == shown.index(both) != window_target(bundle, " " + both)
    assert window_target(bundle, " #12 ") == 12
    with pytest.raises(ConfigError, match="does not exist: ids run 0"):
        window_target(bundle, f"#{bundle.config.V}")
    with pytest.raises(InputError, match="not one token"):
        window_target(bundle, "the cat")
    with pytest.raises(ConfigError, match="position 9 does not exist"):
        explain_logit(bundle, run_trace(bundle, TEXT), 9)


def test_lens_and_attribution_need_every_layer(tokenizer):
    bundle = make(tokenizer)
    trace = run_trace(bundle, TEXT, RunOptions(layers_to_capture=(0, 2)))
    with pytest.raises(ConfigError, match="did not keep layers 1"):
        lens_grid(bundle, trace)
    with pytest.raises(ConfigError, match="did not keep layers 1"):
        explain_logit(bundle, trace, 2)
