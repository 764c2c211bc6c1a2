"""Unigram and bigram baselines: what a model must beat to show it learned more than word frequencies.

Both are fitted on the training split, on the same target positions the model's loss counts (every
next token within a row; only the answer part of a task when its loss is answer-only), and scored on the
same held-out targets, in nats per token.

* Unigram: add-one (Laplace) smoothing over the V − 1 tokens that can be targets (all but ``<pad>``):
  p(w) = (c(w) + 1) / (N + V − 1).
* Bigram: interpolated absolute discounting with d = 0.75, backing off to the add-one unigram:
  p(w | u) = max(c(u, w) − d, 0) / c(u) + d · n(u) / c(u) · p_uni(w), where n(u) is the number of different
  tokens seen after u; an unseen u falls back to p_uni(w). This is a much stronger baseline than add-one
  bigrams (which spread mass over every unseen pair), so beating it means something.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.train.corpora import Sequence

DISCOUNT = 0.75


def _pairs(seqs: list[Sequence], answer_only: bool) -> tuple[np.ndarray, np.ndarray]:
    """(previous token, target) for every counted target position."""
    prev, nxt = [], []
    for s in seqs:
        n = len(s)
        if n < 2:
            continue
        keep = np.ones(n - 1, dtype=bool)
        if answer_only and s.answer is not None:
            keep = s.answer[: n - 1]
        prev.append(s.ids[:-1][keep])
        nxt.append(s.ids[1:][keep])
    if not prev:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(prev).astype(np.int64), np.concatenate(nxt).astype(np.int64)


@dataclass
class NGramBaselines:
    vocab_size: int
    pad_id: int
    unigram: np.ndarray  # (V,) probabilities
    keys: np.ndarray  # sorted u·V + w of seen bigrams
    counts: np.ndarray  # their counts
    context_total: np.ndarray  # (V,) c(u)
    context_types: np.ndarray  # (V,) n(u)
    train_tokens: int

    @classmethod
    def fit(cls, seqs: list[Sequence], vocab_size: int, pad_id: int, answer_only: bool = False) -> NGramBaselines:
        V = int(vocab_size)
        u, w = _pairs(seqs, answer_only)
        uni = np.bincount(w, minlength=V).astype(np.float64) + 1.0
        uni[pad_id] = 0.0
        uni /= uni.sum()
        keys, counts = np.unique(u * V + w, return_counts=True)
        ctx = keys // V
        context_total = np.bincount(ctx, weights=counts, minlength=V)
        context_types = np.bincount(ctx, minlength=V).astype(np.float64)
        return cls(V, pad_id, uni, keys, counts.astype(np.float64), context_total, context_types, int(len(w)))

    def unigram_logprob(self, w: np.ndarray) -> np.ndarray:
        return np.log(self.unigram[w])

    def bigram_logprob(self, u: np.ndarray, w: np.ndarray) -> np.ndarray:
        V = self.vocab_size
        q = u * V + w
        pos = np.searchsorted(self.keys, q)
        pos_c = np.minimum(pos, len(self.keys) - 1) if len(self.keys) else pos
        found = (pos < len(self.keys)) & (self.keys[pos_c] == q) if len(self.keys) else np.zeros(len(q), bool)
        c_uw = np.where(found, self.counts[pos_c] if len(self.keys) else 0.0, 0.0)
        c_u = self.context_total[u]
        n_u = self.context_types[u]
        p_uni = self.unigram[w]
        seen = c_u > 0
        safe = np.where(seen, c_u, 1.0)
        p = np.where(seen, np.maximum(c_uw - DISCOUNT, 0.0) / safe + DISCOUNT * n_u / safe * p_uni, p_uni)
        return np.log(p)

    def score(self, seqs: list[Sequence], answer_only: bool = False) -> dict[str, float]:
        """Mean negative log-likelihood (nats/token) of both baselines on ``seqs``' counted targets."""
        u, w = _pairs(seqs, answer_only)
        if len(w) == 0:
            return {"unigram_loss": float("nan"), "bigram_loss": float("nan"), "tokens": 0}
        return {
            "unigram_loss": float(-self.unigram_logprob(w).mean()),
            "bigram_loss": float(-self.bigram_logprob(u, w).mean()),
            "tokens": int(len(w)),
        }
