"""Why the note divides by √D (DESIGN.md section 1, item 3), measured.

For random query and key vectors whose entries have variance 1, q·k is a sum of D products of variance 1, so
its variance grows like D. Softmax of such large scores saturates: every row becomes (nearly) one-hot and
its entropy collapses to 0. Dividing by √D brings the variance back to about 1 and the entropy stays flat.
``score_statistics`` measures both effects on a real trace; ``sweep`` shows them as D grows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

SWEEP_DIMS: tuple[int, ...] = tuple(2**k for k in range(10))  # 1, 2, 4, …, 512


def row_entropy(logits: np.ndarray, allowed: np.ndarray | None = None) -> np.ndarray:
    """Entropy in nats of softmax over the last axis, counting only allowed keys.

    logits (…, C); allowed broadcastable to it (True = the key may be attended). A row with no allowed key
    has no distribution: its entropy is NaN."""
    x = np.asarray(logits, dtype=np.float64)
    ok = np.ones(x.shape, dtype=bool) if allowed is None else np.broadcast_to(np.asarray(allowed, dtype=bool), x.shape)
    x = np.where(ok, x, -np.inf)
    top = np.max(x, axis=-1, keepdims=True)  # (…, 1); −inf for a row with nothing allowed
    empty = ~np.isfinite(top[..., 0])
    shifted = np.where(ok, x - np.where(np.isfinite(top), top, 0.0), -np.inf)  # largest allowed logit is 0
    e = np.exp(shifted)  # 0 where blocked
    z = e.sum(axis=-1, keepdims=True)
    p = e / np.where(z > 0, z, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)
    h = -plogp.sum(axis=-1)
    return np.where(empty, np.nan, h)


# Statistics of a long sentence use at most this many query rows, evenly spread: the entropies of 4096
# rows of 4096 keys in float64 took seconds and gigabytes on the GUI thread.
MAX_STAT_ROWS = 256


def sample_rows(n: int, limit: int = MAX_STAT_ROWS) -> np.ndarray:
    """Indices of the query rows the statistics use: all of them, or ``limit`` evenly spaced ones."""
    if n <= limit:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, limit).round().astype(int))


@dataclass(frozen=True)
class ScoreStats:
    var_raw: float  # variance of Q·Kᵀ over allowed cells
    var_scaled: float  # variance of Q·Kᵀ/√D over the same cells
    entropy_raw: float  # mean row entropy (nats) of softmax(Q·Kᵀ)
    entropy_scaled: float  # mean row entropy of softmax(Q·Kᵀ/√D)
    entropy_uniform: float  # mean of log(number of allowed keys): the entropy of an even spread
    D: int


def score_statistics(scores: np.ndarray, allowed: np.ndarray, D: int) -> ScoreStats:
    """Statistics of unscaled scores (H, rows, C) or (rows, C) against their ÷√D version, over allowed keys.

    allowed (rows, C) is the mask of the sentence for those query rows (True = query i may see key j). Rows with no
    allowed key are left out of the entropies; cells that are blocked are left out of the variances."""
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim == 2:
        s = s[None]  # (1, C, C)
    ok = np.broadcast_to(np.asarray(allowed, dtype=bool), s.shape)
    scaled = s / math.sqrt(D)
    cells_raw, cells_scaled = s[ok], scaled[ok]
    nan = float("nan")
    var_raw = float(np.var(cells_raw)) if cells_raw.size else nan
    var_scaled = float(np.var(cells_scaled)) if cells_scaled.size else nan
    h_raw = row_entropy(s, ok)  # (H, C)
    h_scaled = row_entropy(scaled, ok)
    counts = ok.sum(axis=-1)  # (H, C)
    has = counts > 0
    uniform = float(np.mean(np.log(counts[has]))) if has.any() else nan
    return ScoreStats(
        var_raw,
        var_scaled,
        float(np.mean(h_raw[has])) if has.any() else nan,
        float(np.mean(h_scaled[has])) if has.any() else nan,
        uniform,
        int(D),
    )


@dataclass(frozen=True)
class Sweep:
    dims: tuple[int, ...]
    var_raw: np.ndarray  # (len(dims),)
    var_scaled: np.ndarray
    entropy_raw: np.ndarray  # mean row entropy, nats
    entropy_scaled: np.ndarray
    entropy_uniform: float  # log(keys): the largest possible entropy
    queries: int
    keys: int


def sweep(dims: tuple[int, ...] = SWEEP_DIMS, queries: int = 512, keys: int = 64, seed: int = 0) -> Sweep:
    """For each D: random q (queries, D) and k (keys, D) with unit-variance entries (fixed seed), the
    variance of q·k and of q·k/√D, and the mean row entropy of softmax of each (no mask)."""
    rng = np.random.default_rng(seed)
    out = {k: [] for k in ("vr", "vs", "hr", "hs")}
    for D in dims:
        q = rng.standard_normal((queries, D))
        k = rng.standard_normal((keys, D))
        s = q @ k.T  # (queries, D) · (D, keys) → (queries, keys)
        scaled = s / math.sqrt(D)
        out["vr"].append(np.var(s))
        out["vs"].append(np.var(scaled))
        out["hr"].append(np.mean(row_entropy(s)))
        out["hs"].append(np.mean(row_entropy(scaled)))
    return Sweep(
        tuple(dims),
        np.array(out["vr"]),
        np.array(out["vs"]),
        np.array(out["hr"]),
        np.array(out["hs"]),
        math.log(keys),
        queries,
        keys,
    )
