"""Next-token choices from one row of probabilities, and how a chosen token is appended to the text.

Pure numpy and strings (no Qt): the output panel shows ``top_k`` as bars and appends ``argmax`` or
``sample`` to the sentence; the same rules serve a command line or a test.
"""

from __future__ import annotations

import numpy as np

# Tokenizers whose display strings carry their own leading space (byte-level BPE: " is") or none at all
# (characters) are joined without a separator; word-level tokens need a space between them.
_SPACED_KINDS = ("word",)


def top_k(probs_row: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` most likely ids of a (V,) distribution and their probabilities, most likely first.

    Ties go to the lower id, so the order is the same on every run and platform.
    """
    p = np.asarray(probs_row)
    if p.ndim != 1:
        raise ValueError(f"top_k expects one row of probabilities (V,), got shape {p.shape}")
    k = max(0, min(int(k), p.shape[0]))
    if k == 0:
        return np.zeros(0, dtype=np.int64), p[:0]
    neg = -p.astype(np.float64)
    # Large vocabularies (50k ids, a table of hundreds of rows): partition first, then sort only the
    # candidates. Every id tied with the k-th value is a candidate, so the tie order stays by id.
    candidates = np.flatnonzero(neg <= np.partition(neg, k - 1)[k - 1]) if k < p.shape[0] else np.arange(p.shape[0])
    order = candidates[np.argsort(neg[candidates], kind="stable")][:k]
    return order.astype(np.int64), p[order]


def argmax(probs_row: np.ndarray) -> int:
    """The most likely id (the lowest id among equals), as ``top_k(row, 1)`` would give it."""
    return int(top_k(probs_row, 1)[0][0])


def sample(probs_row: np.ndarray, rng: np.random.Generator) -> int:
    """Draw one id from a (V,) distribution. Renormalised in float64, so float32 rounding cannot make
    the probabilities sum to slightly more or less than 1."""
    p = np.asarray(probs_row, dtype=np.float64)
    p = np.where(np.isfinite(p) & (p > 0), p, 0.0)
    total = p.sum()
    if total <= 0:
        raise ValueError("cannot sample: the row has no positive probability")
    return int(rng.choice(p.shape[0], p=p / total))


def join_tokens(tokens: tuple[str, ...] | list[str], tokenizer_kind: str) -> str:
    """The text a sequence of token pieces reads as: "This is a" for words, "これは" for characters."""
    sep = " " if tokenizer_kind in _SPACED_KINDS else ""
    return sep.join(tokens)


def append_token(text: str, row: int, token_string: str, tokenizer_kind: str) -> str:
    """``text`` with ``token_string`` appended to sentence ``row``.

    Sentences are the non-blank lines of ``text`` (as the tracer splits a batch); blank lines and the other
    sentences are kept exactly. Word-level tokens are joined with a space, others without.
    """
    lines = text.split("\n")
    sentence_lines = [i for i, line in enumerate(lines) if line.strip()]
    if not 0 <= row < len(sentence_lines):
        raise IndexError(f"there is no sentence {row} in the text (it has {len(sentence_lines)})")
    i = sentence_lines[row]
    line = lines[i].rstrip()
    if tokenizer_kind in _SPACED_KINDS:
        lines[i] = f"{line} {token_string.strip()}"
    else:
        lines[i] = line + token_string
    return "\n".join(lines)
