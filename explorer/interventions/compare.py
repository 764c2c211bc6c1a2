"""Before and after, in numbers the window only draws: the KL divergence between the baseline's and the
intervened run's next-token distributions, how the top tokens' probabilities and ranks moved, and the
difference of two maps. numpy only (no torch): the window's views call these on the GUI thread."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def kl_divergence(p: np.ndarray, q: np.ndarray) -> float:
    """KL(p ‖ q) = Σ p·ln(p/q) in nats, p the baseline's distribution and q the intervened one's. A token with
    p = 0 adds nothing; one with p > 0 and q = 0 makes it infinite."""
    p64, q64 = np.asarray(p, np.float64), np.asarray(q, np.float64)
    seen = p64 > 0
    with np.errstate(divide="ignore"):
        return float(np.sum(p64[seen] * (np.log(p64[seen]) - np.log(q64[seen]))))


def ranks(p: np.ndarray) -> np.ndarray:
    """Rank of every token (1 = most probable); equal probabilities keep the lower id first."""
    order = np.argsort(-np.asarray(p, np.float64), kind="stable")
    out = np.empty(len(order), np.int64)
    out[order] = np.arange(1, len(order) + 1)
    return out


@dataclass(frozen=True)
class TokenMove:
    token: int
    before: float  # probability in the baseline
    after: float  # probability in the intervened run
    rank_before: int
    rank_after: int


def token_moves(before: np.ndarray, after: np.ndarray, k: int = 5) -> list[TokenMove]:
    """The tokens in either run's top k, ordered by their baseline rank."""
    rb, ra = ranks(before), ranks(after)
    ids = sorted(set(np.flatnonzero(rb <= k)) | set(np.flatnonzero(ra <= k)), key=lambda t: rb[t])
    return [TokenMove(int(t), float(before[t]), float(after[t]), int(rb[t]), int(ra[t])) for t in ids]


def difference(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """after − before, cell by cell (float32 for drawing); a cell −∞ in both (masked in both runs) is 0."""
    a, b = np.asarray(after, np.float64), np.asarray(before, np.float64)
    both_blocked = np.isneginf(a) & np.isneginf(b)
    with np.errstate(invalid="ignore"):
        out = np.where(both_blocked, 0.0, a - b)
    return out.astype(np.float32)
