"""Sampling rules as properties (hypothesis): top-k and top-p never choose outside their set, computed here
independently by sorting; the drawn token follows the seed; greedy is the argmax."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.generation.sampling import Sampling, candidates, choose, softmax

logit_rows = st.lists(st.floats(-30, 30, allow_nan=False, width=32), min_size=1, max_size=60).map(
    lambda v: np.array(v, dtype=np.float32)
)


def independent_set(logits: np.ndarray, T: float, k: int | None, p: float) -> set[int]:
    """Ids allowed by top-k then top-p: rank (stable, by probability) below k, and the probability of the
    tokens ranked before it below p (with a little slack for rounding at the boundary)."""
    z = logits.astype(np.float64) / T
    probs = np.exp(z - z.max())
    probs /= probs.sum()
    order = np.argsort(-probs, kind="stable")
    if k is not None:
        order = order[:k]
    kept = probs[order] / probs[order].sum()
    before = np.concatenate(([0.0], np.cumsum(kept)[:-1]))
    return {int(i) for i, b in zip(order, before) if b < p + 1e-9}


@settings(max_examples=300, deadline=None)
@given(
    logits=logit_rows,
    T=st.floats(0.05, 5.0),
    k=st.one_of(st.none(), st.integers(1, 70)),
    p=st.floats(0.01, 1.0),
    seed=st.integers(0, 2**32),
)
def test_sampled_token_is_inside_the_top_k_top_p_set(logits, T, k, p, seed):
    s = Sampling(greedy=False, temperature=T, top_k=k, top_p=p, seed=seed)
    chosen, probs = choose(logits, s, s.rng())
    assert chosen in independent_set(logits, T, k, p)
    assert set(candidates(probs, k, p).tolist()) <= independent_set(logits, T, k, p)
    assert abs(probs.sum() - 1.0) < 1e-9


@settings(max_examples=100, deadline=None)
@given(logits=logit_rows, seed=st.integers(0, 2**32))
def test_same_seed_draws_the_same_token_and_greedy_is_argmax(logits, seed):
    s = Sampling(greedy=False, temperature=1.7, top_p=0.8, seed=seed)
    assert choose(logits, s, s.rng())[0] == choose(logits, s, s.rng())[0]
    assert choose(logits, Sampling(), np.random.default_rng(0))[0] == int(np.argmax(logits))


def test_sampling_follows_the_distribution():
    """Over many draws each token's frequency is near its probability (a biased sampler would fail)."""
    logits = np.log(np.array([0.5, 0.3, 0.15, 0.05]))
    s = Sampling(greedy=False, seed=0)
    rng = s.rng()
    counts = np.bincount([choose(logits, s, rng)[0] for _ in range(20_000)], minlength=4) / 20_000
    np.testing.assert_allclose(counts, [0.5, 0.3, 0.15, 0.05], atol=0.015)
    # top-p 0.75 keeps 0.5 and 0.3 (0.5 alone is short of 0.75), renormalised to 0.625 / 0.375
    s = Sampling(greedy=False, top_p=0.75, seed=1)
    rng = s.rng()
    counts = np.bincount([choose(logits, s, rng)[0] for _ in range(20_000)], minlength=4) / 20_000
    np.testing.assert_allclose(counts, [0.625, 0.375, 0, 0], atol=0.015)


def test_softmax_with_temperature():
    logits = np.array([1.0, 2.0, 3.0])
    e = np.exp(logits / 0.5)
    np.testing.assert_allclose(softmax(logits, 0.5), e / e.sum())


def test_end_token_ids_come_from_the_vocabulary():
    from tokenizers import Tokenizer, models

    from explorer.generation.sampling import end_token_ids
    from explorer.tokenize import Tokenizer as Ours
    from explorer.weights.presets import preset_tokenizer

    hf = Tokenizer(models.WordLevel({"<unk>": 0, "a": 1, "<|endoftext|>": 2, "</s>": 3}, unk_token="<unk>"))
    assert set(end_token_ids(Ours(hf))) == {2, 3}
    assert end_token_ids(preset_tokenizer("words-en.json")) == ()
