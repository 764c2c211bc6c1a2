"""The finite check of derived logits (explorer/trace/finite.py): an ordinary trace is known finite from a
bound, without deriving its logits in the trace's thread (deriving them there for the check alone grew the
window's worker by 13 to 39 MB over 1,000 traces); logits that do overflow, or a NaN in the unembedding,
are still found and named."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.config import RunOptions
from explorer.trace.finite import first_nonfinite_stage
from explorer.trace.run import run_trace
from explorer.trace.trace import Trace
from explorer.weights.presets import load_preset


@pytest.fixture(scope="module")
def trace():
    bundle = load_preset("classroom")
    assert bundle.config.tie_embeddings  # the unembedding these tests change is the token table
    return run_trace(bundle, "The cat sat on the mat .", RunOptions())


def test_an_ordinary_trace_is_checked_without_deriving_its_logits(trace, monkeypatch):
    assert "logits" in trace and "logits" not in trace.stored_names()  # derived, not stored

    def derived(*_args):
        raise AssertionError("the check derived the logits")

    monkeypatch.setattr(Trace, "logits_rows", derived)
    monkeypatch.setattr(Trace, "__getitem__", _stored_only(Trace.__getitem__))
    assert first_nonfinite_stage(trace) is None


def _stored_only(getitem):
    def get(self, name):
        assert name != "logits", "the check derived the logits"
        return getitem(self, name)

    return get


def _with_table(trace: Trace, table: np.ndarray) -> Trace:
    return trace.replace({**{n: trace[n] for n in trace.stored_names()}, "params.embed.tok": table})


def test_logits_that_overflow_are_named(trace):
    x = trace["final.out"][0, -1]  # the last token's final vector, finite
    assert np.isfinite(x).all() and np.abs(x).max() > 1.5
    table = np.array(trace["params.embed.tok"])
    table[0] = np.sign(x) * 3e38  # word 0's logit after the last token: 3e38 · Σ|x| > float32's largest number
    assert first_nonfinite_stage(_with_table(trace, table)) == "logits"


def test_a_nan_in_the_unembedding_is_named(trace):
    table = np.array(trace["params.embed.tok"])
    table[5, 3] = np.nan  # the table is not a stored activation: only the logits carry it
    assert first_nonfinite_stage(_with_table(trace, table)) == "logits"
