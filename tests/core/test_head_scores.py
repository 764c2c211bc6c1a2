"""Head scores (explorer.analysis.head_scores) against loops over the cells written here, the Model view's
forward pass (explorer.trace.attention_pass) against run_trace's own maps, and its thumbnails
(explorer.present.model_view) against a numpy block maximum."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.analysis import head_scores as hs


def _causal_weights(H: int, n: int, seed: int = 0) -> np.ndarray:
    """(H, n, n) rows that sum to 1 over keys 0 … i (a causal softmax of random scores)."""
    rng = np.random.default_rng(seed)
    S = rng.normal(size=(H, n, n)) * 3
    S[:, np.triu_indices(n, 1)[0], np.triu_indices(n, 1)[1]] = -np.inf
    A = np.exp(S - S.max(axis=2, keepdims=True))
    return A / A.sum(axis=2, keepdims=True)


def test_entropy_previous_and_first_against_loops():
    A = _causal_weights(5, 9)
    H, n, _ = A.shape
    for h in range(H):
        ent, prev, first = [], [], []
        for i in range(1, n):
            ent.append(-sum(a * math.log(a) for a in A[h, i] if a > 0))
            prev.append(A[h, i, i - 1])
            first.append(A[h, i, 0])
        assert hs.mean_entropy(A)[h] == pytest.approx(sum(ent) / len(ent), rel=1e-12)
        assert hs.previous_token(A)[h] == pytest.approx(sum(prev) / len(prev), rel=1e-12)
        assert hs.first_token(A)[h] == pytest.approx(sum(first) / len(first), rel=1e-12)


def test_scores_of_textbook_heads():
    n = 8
    prev = np.zeros((n, n))
    prev[0, 0] = 1
    prev[np.arange(1, n), np.arange(n - 1)] = 1  # every query on the token before it
    sink = np.zeros((n, n))
    sink[:, 0] = 1
    uniform = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    A = np.stack([prev, sink, uniform])
    assert hs.previous_token(A).tolist() == pytest.approx([1, 1 / (n - 1), np.mean([1 / (i + 1) for i in range(1, n)])])
    assert hs.first_token(A)[1] == 1
    assert hs.mean_entropy(A)[:2].tolist() == [0, 0]
    assert hs.mean_entropy(A)[2] == pytest.approx(np.mean([math.log(i + 1) for i in range(1, n)]))


def test_induction_reads_the_token_after_the_first_occurrence():
    half, start = 5, 2
    n = start + 2 * half
    A = np.zeros((1, n, n))
    A[0, :, 0] = 1  # every other query on the first token
    for i in range(start + half, n):
        A[0, i] = 0
        A[0, i, i - half + 1] = 1  # the induction target
    assert hs.induction(A, half, start)[0] == 1
    assert hs.induction(np.roll(A, 1, axis=2), half, start)[0] == 0
    with pytest.raises(ValueError):
        hs.induction(A, half + 1, start)


def test_short_maps_have_no_score():
    assert np.isnan(hs.text_scores(np.ones((3, 1, 1)))["previous"]).all()


def test_order_and_top_heads():
    s = np.array([[0.1, 0.9, np.nan], [0.5, 0.2, 0.95]])
    assert hs.order(s[0], "previous").tolist() == [1, 0, 2]  # NaN last
    assert hs.order(s[0], "entropy").tolist() == [0, 1, 2]  # low entropy first
    assert hs.top_heads(s, "previous", 2) == [(1, 2, 0.95), (0, 1, 0.9)]
    assert hs.highlight_count(30, 9) == 14 and hs.highlight_count(2, 2) == 1


# ------------------------------------------------------------------ the pass and the thumbnails


@pytest.fixture(scope="module")
def bundle():
    from explorer.config import ModelConfig
    from explorer.weights.bundle import random_bundle
    from explorer.weights.presets import preset_tokenizer

    tok = preset_tokenizer("words-en.json")  # word-level: random tokens written as words read back the same
    cfg = ModelConfig(
        vocab_size=tok.vocab_size,
        embed_dim=24,
        key_dim=6,
        heads=4,
        kv_heads=2,
        layers=3,
        positions="rope",
        norm="rmsnorm",
    )
    return random_bundle(cfg, tok, seed=3)


@pytest.mark.parametrize("stage", ["weights", "scores", "scaled", "masked"])
def test_the_pass_hands_over_the_traces_maps(bundle, stage):
    from explorer.trace import run_trace
    from explorer.trace.attention_pass import text_pass

    text = "This is a pen .\nthe cat sat on the mat and the dog ran"  # two rows: the first one padded
    trace = run_trace(bundle, text)
    for row in (0, 1):
        got = {}
        n = text_pass(
            bundle,
            text,
            trace.options,
            row,
            stage,
            lambda l, A, S, blocked, got=got: got.setdefault(l, (A, S, blocked)),
        )
        assert n == trace.rows[row].length and sorted(got) == [0, 1, 2]
        for layer, (A, shown, blocked) in got.items():
            for h in range(bundle.config.H):
                np.testing.assert_array_equal(A[h], trace.head_map(layer, "weights", row, h)[:n, :n])
                np.testing.assert_array_equal(shown[h], trace.head_map(layer, stage, row, h)[:n, :n])
            np.testing.assert_array_equal(blocked, ~trace["mask"][row, :n, :n])


def test_the_pass_stops_when_cancelled(bundle):
    import threading

    from explorer.errors import Cancelled
    from explorer.trace.attention_pass import text_pass

    cancel = threading.Event()
    seen = []

    def on_layer(layer, *_maps):
        seen.append(layer)
        cancel.set()

    with pytest.raises(Cancelled):
        text_pass(bundle, "This is a pen .", None, 0, "weights", on_layer, cancel)
    assert seen == [0]


def test_induction_pass_scores_the_repeated_sequence(bundle):
    """Against the weights of run_trace on the same tokens (written as text), scored by a loop here."""
    from explorer.trace import run_trace
    from explorer.trace.attention_pass import induction_pass, random_repeat

    half, rows = 6, 2
    ids = random_repeat(bundle, half, rows, seed=5)
    assert ids.shape == (rows, 2 * half) and (ids[:, :half] == ids[:, half:]).all()
    assert len(set(ids[0, :half].tolist())) == half  # drawn without replacement
    vocab = bundle.tokenizer.display_vocab()
    text = "\n".join(" ".join(vocab[i] for i in r) for r in ids.tolist())
    trace = run_trace(bundle, text)
    assert [list(r.ids) for r in trace.rows] == ids.tolist()
    got = induction_pass(bundle, half=half, rows=rows, seed=5)
    for layer in range(bundle.config.layers):
        for h in range(bundle.config.H):
            values = [
                trace.head_map(layer, "weights", b, h)[i, i - half + 1]
                for b in range(rows)
                for i in range(half, 2 * half)
            ]
            assert got[layer, h] == pytest.approx(np.mean(values), abs=1e-6)


def _block_max(m: np.ndarray, f: int) -> np.ndarray:
    n = m.shape[0]
    size = -(-n // f) * f
    padded = np.full((size, size), -np.inf, dtype=np.float32)
    padded[:n, :n] = m
    return padded.reshape(size // f, f, size // f, f).max(axis=(1, 3))


def test_thumbnails_are_block_maxima_coloured_by_the_table(bundle):
    from explorer.present import model_view as mv
    from explorer.trace import run_trace

    text = " ".join(["the cat sat on the mat"] * 25)  # 150 tokens: shrunk by 3 to 50 × 50
    trace = run_trace(bundle, text)
    lut = np.stack([np.arange(256), 255 - np.arange(256), np.zeros(256), np.full(256, 255)], axis=1).astype(np.uint8)
    layers = []
    n = mv.trace_layers(trace, "weights", 0, lut, layers.append)
    assert n == 150 and [h.layer for h in layers] == [0, 1, 2]
    for heads in layers:
        assert heads.images.shape == (4, 50, 50, 4)
        for h in range(4):
            expected = _block_max(trace.head_map(heads.layer, "weights", 0, h), 3)
            np.testing.assert_array_equal(heads.thumbs[h], expected)
        lo, hi = heads.levels
        blocked = (~np.asarray(trace["mask"][0])).reshape(50, 3, 50, 3).all(axis=(1, 3))  # every cell of the block
        # a block that is not blocked: its colour is the table's row for its value
        i, j = 40, 2
        assert not blocked[i, j]
        index = int(np.clip(np.rint((heads.thumbs[0][i, j] - lo) / (hi - lo) * 255), 0, 255))
        assert heads.images[0][i, j].tolist() == lut[index].tolist()
        assert (heads.images[0][blocked] == mv.BLOCKED_RGBA).all()
        np.testing.assert_allclose(
            heads.scores["previous"],
            hs.previous_token(np.stack([trace.head_map(heads.layer, "weights", 0, h) for h in range(4)])),
        )


def test_the_induction_presets_induction_head_is_found():
    """The trained induction preset: the head this score puts first is the one the training's own report
    (explorer.train.induction, scored on repeated letters) names; layer 0 alone scores low."""
    from explorer.trace.attention_pass import induction_pass
    from explorer.train.induction import induction_report
    from explorer.weights.presets import load_preset

    bundle = load_preset("induction")
    scores = induction_pass(bundle)
    report = induction_report(bundle)
    ((layer, head, value),) = hs.top_heads(scores, "induction", 1)
    assert (layer, head) == report["best_head"] and value > 0.8
    assert np.nanmax(scores[0]) < 0.2  # layer 0 cannot do it alone
