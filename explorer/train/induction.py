"""Finding induction heads: heads whose query attends to the token right after the previous occurrence of
itself ("…A B … A → look at B, predict B"). Two layers are needed: a previous-token head in layer 0 lets a
layer-1 head match "the token before you was A" against the current A.

``induction_scores(trace)`` gives, for every layer and head, the mean attention weight that queries put on
their induction target, so the window can point the head out. For a row that is a sequence followed by its
exact repetition (``qwertyqwerty``) the targets are the textbook ones: query n+j (second half) → key j+1.
For any other row, query i's target is j+1 for the earlier position j with the same token whose preceding
tokens match i's for longest (the most recent one on a tie); queries whose token did not occur before are
not counted.
"""

from __future__ import annotations

from collections.abc import Sequence as Seq

import numpy as np
import torch

from explorer.trace.trace import Trace
from explorer.weights.bundle import ModelBundle


def _repeat_half(ids: Seq[int]) -> int | None:
    n = len(ids) // 2
    if len(ids) >= 4 and len(ids) % 2 == 0 and list(ids[:n]) == list(ids[n:]):
        return n
    return None


def induction_targets(ids: Seq[int]) -> list[tuple[int, int]]:
    """(query, key) pairs: the key an induction head at that query should attend to."""
    ids = list(ids)
    n = _repeat_half(ids)
    if n is not None:
        return [(i, i - n + 1) for i in range(n, 2 * n)]
    pairs = []
    for i, tok in enumerate(ids):
        best_j, best_len = None, 0
        for j in range(i - 1, -1, -1):
            if ids[j] != tok:
                continue
            k = 1
            while j - k >= 0 and ids[j - k] == ids[i - k]:
                k += 1
            if k > best_len:
                best_j, best_len = j, k
        if best_j is not None:
            pairs.append((i, best_j + 1))
    return pairs


def _scores(trace: Trace, targets_of) -> np.ndarray:
    L, H = trace.config.layers, trace.config.heads
    out = np.full((L, H), np.nan)
    layers = trace.layers
    for l in layers:
        for h in range(H):
            total, count = 0.0, 0
            for b, row in enumerate(trace.rows):
                pairs = targets_of(row.ids)
                if not pairs:
                    continue
                w = trace.head_map(l, "weights", b, h)  # (C, C): query (row) attends to key (column)
                q = np.fromiter((p[0] for p in pairs), dtype=np.int64)
                k = np.fromiter((p[1] for p in pairs), dtype=np.int64)
                total += float(w[q, k].sum())
                count += len(pairs)
            if count:
                out[l, h] = total / count
    return out


def induction_scores(trace: Trace) -> np.ndarray:
    """(L, H): mean attention mass on the induction target (NaN where nothing can be scored)."""
    return _scores(trace, induction_targets)


def previous_token_scores(trace: Trace) -> np.ndarray:
    """(L, H): mean attention mass of query i on key i−1 (the other half of the induction circuit)."""
    return _scores(trace, lambda ids: [(i, i - 1) for i in range(1, len(ids))])


def best_head(scores: np.ndarray) -> tuple[int, int, float]:
    """(layer, head, score) of the highest finite score."""
    s = np.where(np.isfinite(scores), scores, -np.inf)
    l, h = np.unravel_index(int(np.argmax(s)), s.shape)
    return int(l), int(h), float(scores[l, h])


def random_repeats(count: int, min_len: int, max_len: int, seed: int) -> list[str]:
    """``count`` strings of random letters a–z (length min_len…max_len) followed by their repetition."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    out = []
    for n in rng.integers(min_len, max_len + 1, size=count):
        s = "".join(letters[rng.integers(0, 26, size=int(n))])
        out.append(s + s)
    return out


def repeats_with_prefix(
    count: int, length: int, max_prefix: int, seed: int, min_prefix: int = 0
) -> list[tuple[str, int]]:
    """``count`` (text, prefix length) pairs: min_prefix … max_prefix random letters, then ``length`` random
    letters and their repetition ("xq" + "abcd" + "abcd"). Letters are uniform over a–z."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    out = []
    for _ in range(count):
        p = int(rng.integers(min_prefix, max_prefix + 1))
        pre = "".join(letters[rng.integers(0, 26, size=p)])
        s = "".join(letters[rng.integers(0, 26, size=length)])
        out.append((pre + s + s, p))
    return out


def repeat_probabilities(bundle: ModelBundle, items: list[tuple[str, int]]) -> np.ndarray:
    """Per item: the mean probability of the right next letter over the repeated half.

    For a text made of a prefix of p letters and a string of n letters written twice, queries p+n … p+2n−2
    have seen the first copy, so the next letter is known: query i should predict the letter at i+1."""
    tok = bundle.tokenizer
    rows = [tok.encode(t).ids for t, _ in items]
    C = max(len(r) for r in rows)
    ids = torch.full((len(rows), C), tok.pad_id, dtype=torch.long)  # right-padded: causal queries never see it
    for b, r in enumerate(rows):
        ids[b, : len(r)] = torch.tensor(r)
    with torch.inference_mode():
        p = torch.softmax(bundle.model(ids).float(), dim=-1)  # (B, C, V)
    out = np.zeros(len(items))
    for b, ((_, pre), r) in enumerate(zip(items, rows)):
        n = (len(r) - pre) // 2
        q = torch.arange(pre + n, pre + 2 * n - 1)
        out[b] = float(p[b, q, torch.tensor(r)[q + 1]].mean())
    return out


def induction_by_length(
    bundle: ModelBundle,
    lengths=range(3, 31),
    count: int = 40,
    max_prefix: int = 0,
    seed: int = 54_321,
    min_prefix: int = 0,
) -> dict[int, float]:
    """Mean probability of the right next letter over the repeated half, per string length (letters), after
    a random prefix of min_prefix … max_prefix letters."""
    return {
        int(n): float(
            repeat_probabilities(
                bundle, repeats_with_prefix(count, int(n), max_prefix, seed + int(n), min_prefix)
            ).mean()
        )
        for n in lengths
    }


def induction_report(
    bundle: ModelBundle, count: int = 50, min_len: int = 10, max_len: int = 20, seed: int = 12_345
) -> dict:
    """How well a model continues repeated random letters, and which head does it.

    ``correct_prob``: mean probability of the right next letter over the predictable repeated half (queries
    n … 2n−2); ``accuracy``: how often it is the most likely letter; ``scores``: induction_scores (L, H).
    """
    from explorer.trace import run_trace

    texts = random_repeats(count, min_len, max_len, seed)
    tok = bundle.tokenizer
    probs, right = [], []
    with torch.inference_mode():
        for text in texts:
            ids = torch.tensor([tok.encode(text).ids])  # (1, 2n)
            n = ids.shape[1] // 2
            p = torch.softmax(bundle.model(ids)[0].float(), dim=-1)  # (2n, V)
            q = torch.arange(n, 2 * n - 1)
            target = ids[0, q + 1]
            probs.append(p[q, target])
            right.append(p[q].argmax(-1) == target)
    trace = run_trace(bundle, "\n".join(texts))  # 50 short rows: the stored maps are small
    scores = induction_scores(trace)
    prev = previous_token_scores(trace)
    l, h, s = best_head(scores)
    pl, ph, ps = best_head(prev)
    return {
        "correct_prob": float(torch.cat(probs).mean()),
        "accuracy": float(torch.cat(right).float().mean()),
        "scores": scores,
        "best_head": (l, h),
        "best_score": s,
        "previous_token_head": (pl, ph),
        "previous_token_score": ps,
        "sequences": count,
        "lengths": (min_len, max_len),
        "seed": seed,
    }


__all__ = [
    "induction_scores",
    "previous_token_scores",
    "induction_targets",
    "best_head",
    "random_repeats",
    "induction_report",
    "repeats_with_prefix",
    "repeat_probabilities",
    "induction_by_length",
]
