"""The two runs' next-token distributions compared (issue 40 item 4, the output).

With one vocabulary (the same token strings, id by id) the distributions are compared token by token. Across
two vocabularies they are compared on the decoded strings: each side's probability of a string is the sum
over its tokens that read as that string; only strings both vocabularies have are compared, each side
renormalised over them, and how much of each side's probability they hold is said (``coverage``).
KL in nats, both ways, and the symmetric JS; the tokens that moved most: every token in either side's top k,
ordered by how far its probability moved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.compare.divergence import js_divergence
from explorer.errors import InputError
from explorer.interventions.compare import kl_divergence, ranks

TOKEN_IDS = "token ids (one vocabulary)"
STRINGS = "decoded strings both vocabularies have, each side renormalised over them"


@dataclass(frozen=True)
class Move:
    token: str
    p_a: float
    p_b: float
    rank_a: int
    rank_b: int

    @property
    def moved(self) -> float:
        return self.p_b - self.p_a


@dataclass(frozen=True)
class OutputComparison:
    position_a: int  # the token after which each side predicts
    position_b: int
    space: str  # TOKEN_IDS or STRINGS
    kl_a_b: float  # KL(A ‖ B)
    kl_b_a: float
    js: float
    coverage_a: float  # A's probability on the compared tokens or strings (1 with one vocabulary)
    coverage_b: float
    moves: tuple[Move, ...]


def compare_output(p_a, p_b, vocab_a, vocab_b, position_a: int, position_b: int, k: int = 5) -> OutputComparison:
    """``p_a``, ``p_b``: the (V,) next-token rows; ``vocab_*``: each id's string (None: unknown)."""
    if vocab_a is not None and vocab_a == vocab_b or (vocab_a is None and vocab_b is None and len(p_a) == len(p_b)):
        labels = list(vocab_a) if vocab_a is not None else [str(i) for i in range(len(p_a))]
        qa, qb, space, cover_a, cover_b = np.asarray(p_a, np.float64), np.asarray(p_b, np.float64), TOKEN_IDS, 1.0, 1.0
    else:
        labels, qa, qb, cover_a, cover_b = _on_strings(p_a, p_b, vocab_a, vocab_b)
        space = STRINGS
    ra, rb = ranks(qa), ranks(qb)
    top = set(np.flatnonzero(ra <= k).tolist()) | set(np.flatnonzero(rb <= k).tolist())
    moves = sorted(
        (Move(labels[t], float(qa[t]), float(qb[t]), int(ra[t]), int(rb[t])) for t in top),
        key=lambda m: (-abs(m.moved), m.rank_a, m.token),
    )
    return OutputComparison(
        position_a,
        position_b,
        space,
        kl_divergence(qa, qb),
        kl_divergence(qb, qa),
        js_divergence(qa, qb),
        cover_a,
        cover_b,
        tuple(moves),
    )


def _on_strings(p_a, p_b, vocab_a, vocab_b):
    if vocab_a is None or vocab_b is None:
        raise InputError("two vocabularies are compared on their strings: both runs need their vocabulary")
    sums_a, sums_b = _by_string(p_a, vocab_a), _by_string(p_b, vocab_b)
    common = sorted(set(sums_a) & set(sums_b))
    qa = np.array([sums_a[s] for s in common], np.float64)
    qb = np.array([sums_b[s] for s in common], np.float64)
    cover_a, cover_b = math.fsum(qa.tolist()), math.fsum(qb.tolist())
    return common, qa / (cover_a or 1.0), qb / (cover_b or 1.0), cover_a, cover_b


def _by_string(p, vocab) -> dict[str, float]:
    out: dict[str, float] = {}
    for s, v in zip(vocab, np.asarray(p, np.float64).tolist()):
        if s:
            out[s] = out.get(s, 0.0) + v
    return out
