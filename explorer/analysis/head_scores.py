"""One number per head that points out the heads a student looks for in a real model, from its attention
weights A (H, n, n): query i (row) attends to key j (column), each row summing to 1.

- ``entropy``: the mean entropy (nats) of the query rows 1 … n−1: 0 when every query puts all its weight on
  one key, log(i+1) when query i spreads evenly over the i+1 keys a causal mask lets it see. Low first.
- ``previous``: the mean weight query i puts on key i−1 (i = 1 … n−1): previous-token heads score near 1.
- ``first``: the mean weight query i puts on key 0 (i = 1 … n−1): "attention sink" heads score near 1.
- ``induction``: on a random token sequence written twice (r r, r of ``half`` tokens, after ``start``
  other tokens), the mean weight a query of the second copy puts on the token right after the same token in
  the first copy (query i → key i − half + 1): induction heads score near 1.

Row 0 is left out of every score: under a causal mask it sees only itself, which says nothing about a head.
Pure numpy; tests/core/test_head_scores.py checks each against its own loop over the cells.
"""

from __future__ import annotations

import numpy as np

SCORES = ("entropy", "previous", "first", "induction")
# Which end of each score is the notable one (sorted first, highlighted): sharp heads have low entropy.
HIGH_FIRST = {"entropy": False, "previous": True, "first": True, "induction": True}
# The scores read from the text's own maps; the induction score needs a sequence of its own.
TEXT_SCORES = ("entropy", "previous", "first")
# Heads outlined as the most notable: this share of the model's heads (at least one).
HIGHLIGHT_SHARE = 0.05


def _queries(A: np.ndarray) -> np.ndarray:
    A = np.asarray(A, dtype=np.float64)
    if A.ndim != 3 or A.shape[1] != A.shape[2]:
        raise ValueError(f"attention weights must be (H, n, n), got {A.shape}")
    return A


def mean_entropy(A: np.ndarray) -> np.ndarray:
    """(H,) mean over queries 1 … n−1 of −Σ_j a_ij log a_ij (0 log 0 = 0); NaN for n < 2."""
    A = _queries(A)
    if A.shape[1] < 2:
        return np.full(A.shape[0], np.nan)
    rows = A[:, 1:, :]  # (H, n−1, n)
    logs = np.log(rows, out=np.zeros_like(rows), where=rows > 0)
    return -(rows * logs).sum(axis=2).mean(axis=1)


def previous_token(A: np.ndarray) -> np.ndarray:
    """(H,) mean of A[h, i, i−1] over i = 1 … n−1; NaN for n < 2."""
    A = _queries(A)
    n = A.shape[1]
    if n < 2:
        return np.full(A.shape[0], np.nan)
    i = np.arange(1, n)
    return A[:, i, i - 1].mean(axis=1)


def first_token(A: np.ndarray) -> np.ndarray:
    """(H,) mean of A[h, i, 0] over i = 1 … n−1; NaN for n < 2."""
    A = _queries(A)
    if A.shape[1] < 2:
        return np.full(A.shape[0], np.nan)
    return A[:, 1:, 0].mean(axis=1)


def induction(A: np.ndarray, half: int, start: int = 0) -> np.ndarray:
    """(H,) on tokens [start others] r r (r of ``half`` tokens): mean of A[h, i, i − half + 1] over the
    queries i of the second copy, start + half … start + 2·half − 1."""
    A = _queries(A)
    if half < 1 or start + 2 * half > A.shape[1]:
        raise ValueError(f"a repeated half of {half} tokens after {start} does not fit {A.shape[1]} tokens")
    i = np.arange(start + half, start + 2 * half)
    return A[:, i, i - half + 1].mean(axis=1)


def text_scores(A: np.ndarray) -> dict[str, np.ndarray]:
    """The scores read from one layer's maps of a text: name → (H,)."""
    return {"entropy": mean_entropy(A), "previous": previous_token(A), "first": first_token(A)}


def order(scores: np.ndarray, name: str) -> np.ndarray:
    """Indices of ``scores`` (H,) from the most notable to the least; NaN (not scored) last, ties by index."""
    s = np.asarray(scores, dtype=np.float64)
    key = s if not HIGH_FIRST[name] else -s
    key = np.where(np.isfinite(key), key, np.inf)
    return np.argsort(key, kind="stable")


def top_heads(scores: np.ndarray, name: str, k: int | None = None) -> list[tuple[int, int, float]]:
    """(layer, head, score) of the ``k`` most notable heads of an (L, H) table (default: highlight_count)."""
    s = np.asarray(scores, dtype=np.float64)
    k = highlight_count(*s.shape) if k is None else k
    flat = order(s.ravel(), name)
    out = []
    for index in flat[:k]:
        value = float(s.ravel()[index])
        if not np.isfinite(value):
            break
        layer, head = divmod(int(index), s.shape[1])
        out.append((layer, head, value))
    return out


def highlight_count(layers: int, heads: int) -> int:
    return max(1, round(HIGHLIGHT_SHARE * layers * heads))
