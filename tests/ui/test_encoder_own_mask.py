"""Without --mask every command traces an encoder with its own mask (none), as export and the window do: figure
and worksheet once passed no model config and drew BERT's maps causal, a silently wrong picture."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def bert_folder(tmp_path_factory):
    from tests.tiny_bert import make_bert_folder

    return make_bert_folder(tmp_path_factory.mktemp("bert"))


@pytest.fixture()
def traced(monkeypatch):
    """Every trace a command makes in this process, kept for the test to read."""
    import importlib

    tracing = importlib.import_module("explorer.trace")  # the subpackage (the attribute is the API's function)
    made = []
    real = tracing.run_trace

    def spy(*args, **kwargs):
        trace = real(*args, **kwargs)
        made.append(trace)
        return trace

    monkeypatch.setattr(tracing, "run_trace", spy)
    return made


def _run(argv) -> int:
    from explorer.cli import main

    return main(argv)


def _sees_later_keys(trace) -> bool:
    weights = trace["layers.0.attn.weights"][0, 0]  # (C, C) of head 0
    return bool(np.triu(weights, k=1).sum() > 0.05)  # causal would leave the upper triangle at exactly 0


def test_figure_draws_an_encoder_without_a_causal_mask(bert_folder, traced, tmp_path):
    assert (
        _run(
            [
                "figure",
                "the cat sat on the mat .",
                "--model",
                str(bert_folder),
                "--stage",
                "weights",
                "-o",
                str(tmp_path / "w.svg"),
            ]
        )
        == 0
    )
    (trace,) = traced
    assert trace.options.mask.kind == "none" and _sees_later_keys(trace)


def test_figure_still_takes_the_mask_asked_for(bert_folder, traced, tmp_path):
    assert (
        _run(
            [
                "figure",
                "the cat sat on the mat .",
                "--model",
                str(bert_folder),
                "--stage",
                "weights",
                "--mask",
                "causal",
                "-o",
                str(tmp_path / "w.svg"),
            ]
        )
        == 0
    )
    (trace,) = traced
    assert trace.options.mask.kind == "causal" and not _sees_later_keys(trace)


def test_worksheet_traces_an_encoder_with_its_own_mask(bert_folder, traced, tmp_path):
    _run(["worksheet", "the cat sat on the mat .", "--model", str(bert_folder), "-o", str(tmp_path / "s.pdf")])
    assert traced, "the worksheet made no trace"
    assert traced[0].options.mask.kind == "none" and _sees_later_keys(traced[0])
