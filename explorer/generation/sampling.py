"""How the next token is chosen from one row of logits: greedy, or sampled with temperature, top-k, top-p.

Pure numpy, built on ``explorer.generation.choose`` (the output panel's top-k, argmax and sample), so a generation and
the panel's "append" button choose by the same rules. Every choice is reproducible: sampling draws from a
``numpy.random.Generator`` seeded once per generation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.config import check_seed
from explorer.errors import ConfigError
from explorer.generation.choose import argmax, sample, top_k


@dataclass(frozen=True)
class Sampling:
    """greedy: always the most likely token. Otherwise draw from softmax(logits / temperature), keeping
    only the ``top_k`` most likely tokens (None: all) and then the smallest set whose probabilities reach
    ``top_p`` (1.0: all)."""

    greedy: bool = True
    temperature: float = 1.0
    top_k: int | None = None
    top_p: float = 1.0
    seed: int = 0

    def __post_init__(self) -> None:
        t = self.temperature
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not (t > 0 and math.isfinite(t)):
            raise ConfigError(f"the sampling temperature must be a positive number, got {t!r}")
        if self.top_k is not None and (
            isinstance(self.top_k, bool) or not isinstance(self.top_k, int) or self.top_k < 1
        ):
            raise ConfigError(f"top-k must be a whole number of at least 1, got {self.top_k!r}")
        p = self.top_p
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p <= 1:
            raise ConfigError(f"top-p must lie in (0, 1], got {p!r}")
        check_seed(self.seed)

    def to_dict(self) -> dict:
        return {
            "greedy": self.greedy,
            "temperature": self.temperature,
            "top_k": self.top_k,
            "top_p": self.top_p,
            "seed": self.seed,
        }

    def rng(self) -> np.random.Generator:
        return np.random.default_rng(self.seed)


def softmax(logits_row: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """softmax(logits / T) in float64 (the distribution a token is drawn from).

    The largest logit is taken away before dividing by T, so that a tiny T (5e-324) gives 0 for the best
    token and -inf for the others (a one-hot row) instead of inf - inf = NaN everywhere; a logit that is not
    finite counts as impossible."""
    z = np.asarray(logits_row, dtype=np.float64)
    z = np.where(np.isfinite(z), z, -np.inf)
    top = np.max(z)
    if not np.isfinite(top):  # no finite logit at all: nothing is more likely than anything else
        return np.full(z.shape, 1.0 / max(z.shape[0], 1))
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        z = (z - top) / temperature  # ≤ 0: -inf where the gap over T overflows, never NaN
    e = np.exp(z)
    return e / e.sum()


def candidates(probs: np.ndarray, k: int | None, p: float) -> np.ndarray:
    """The ids sampling may choose: the k most likely (ties to the lower id), then the shortest prefix of
    those, most likely first, whose probabilities sum to at least p (always at least one id)."""
    V = probs.shape[0]
    ids, kept = top_k(probs, V if k is None else min(k, V))
    if p < 1.0:
        total = np.cumsum(kept) / max(kept.sum(), np.finfo(np.float64).tiny)
        n = int(np.searchsorted(total, p, side="left")) + 1  # first index where the sum reaches p
        ids = ids[: min(n, len(ids))]
    return ids


def choose(logits_row: np.ndarray, sampling: Sampling, rng: np.random.Generator) -> tuple[int, np.ndarray]:
    """(the chosen id, the distribution softmax(logits / T) it was judged by) for one (V,) row of logits."""
    row = np.asarray(logits_row)
    if np.isnan(row).any() or np.isposinf(row).any() or not np.isfinite(row).any():
        # numbers that cannot be shown (an extreme setting): no token is likelier than another (an IndexError)
        raise ConfigError(
            "no next token can be chosen: the logits hold NaN or infinite values (a setting or a weight goes "
            "past what the precision can hold; `export` the prompt to see where they first appear)"
        )
    if sampling.greedy:
        return argmax(np.asarray(logits_row)), softmax(logits_row)
    probs = softmax(logits_row, sampling.temperature)
    if sampling.top_k is None and sampling.top_p >= 1.0:
        return sample(probs, rng), probs
    allowed = candidates(probs, sampling.top_k, sampling.top_p)
    kept = np.zeros_like(probs)
    kept[allowed] = probs[allowed]
    return sample(kept, rng), probs


# End-of-text tokens of common vocabularies: a generation stops after writing one unless told otherwise.
END_TOKENS = ("<|endoftext|>", "</s>", "<|im_end|>", "<|end_of_text|>", "<eos>")


def end_token_ids(tokenizer) -> tuple[int, ...]:
    """The ids of the vocabulary's end-of-text tokens (none for this app's word and character vocabularies)."""
    return tuple(i for t in END_TOKENS if (i := tokenizer.token_id(t)) is not None)
