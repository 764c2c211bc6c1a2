"""Algorithmic tasks generated on the fly from a seed: copy, reverse, sort and induction (TaskCorpus).
See explorer.train.corpora.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from typing import Any

import numpy as np

from explorer.errors import ConfigError
from explorer.tokenize import Tokenizer, char_tokenizer
from explorer.train.corpora_base import (
    BASELINE_SEED,
    HELDOUT_SEED,
    TASK_SEPARATOR,
    TASKS,
    TEACHES,
    Batch,
    Corpus,
    Sequence,
    make_batch,
)
from explorer.util.paths import resource


class TaskCorpus(Corpus):
    """Sequences generated on the fly from a seed; the held-out set is a fixed sample from its own seed."""

    kind = "task"
    HELDOUT_SIZE = 512
    BASELINE_SIZE = 4096

    def __init__(
        self, name: str, min_len: int, max_len: int, min_alphabet: int = 26, max_prefix: int = 0, distinct: float = 0.0
    ) -> None:
        if name not in TASKS:
            raise ConfigError(f"unknown task {name!r}: choose one of {', '.join(TASKS)}")
        self.name = name
        self.min_len = int(min_len)
        self.max_len = int(max_len)
        if not 1 <= self.min_len <= self.max_len:
            raise ConfigError(f"task lengths must satisfy 1 ≤ min ≤ max, got {min_len}–{max_len}")
        # Each sequence draws its letters from a random subset of k letters, k uniform in min_alphabet … 26.
        # Small alphabets repeat letters often, which a one-token induction head cannot disambiguate
        # ("…ab…ac… a → b or c?"): they push the model to match the previous token too.
        self.min_alphabet = int(min_alphabet)
        if not 2 <= self.min_alphabet <= 26:
            raise ConfigError(f"the smallest alphabet must be 2 … 26 letters, got {min_alphabet}")
        # Induction only: 0 … max_prefix random letters before the string and its repeat, so that the repeat
        # does not always start at position 0 and the model cannot lean on absolute positions.
        self.max_prefix = max(0, int(max_prefix)) if name == "induction" else 0
        # Induction only: this fraction of the rows writes a string of distinct letters after a prefix of other
        # letters, so the only earlier occurrence of a letter is the one to copy from. Chance repeats make a
        # one-letter match ambiguous; without them the first letter of a short repeat is learnt with confidence.
        self.distinct = float(distinct) if name == "induction" else 0.0
        if not 0.0 <= self.distinct <= 1.0:
            raise ConfigError(f"the fraction of rows with distinct letters must be 0 … 1, got {distinct}")
        if name == "induction":
            self.tokenizer = Tokenizer.from_file(resource("tokenizers", "letters.json"))
            self.answer_only_default = False  # the first half is noise, but learning on it does no harm
        else:
            self.tokenizer = task_tokenizer()
            self.answer_only_default = True
        self.description = TEACHES[name]
        self.default_preset = "induction"
        self.default_context = self.length_of(self.max_len)
        letters = [self.tokenizer.hf.token_to_id(c) for c in string.ascii_lowercase]
        self._letters = np.asarray(letters, dtype=np.int64)
        self._sep = self.tokenizer.hf.token_to_id(TASK_SEPARATOR) if name != "induction" else None

    def spec(self) -> dict[str, Any]:
        spec = {"name": self.name, "min_len": self.min_len, "max_len": self.max_len, "min_alphabet": self.min_alphabet}
        if self.max_prefix:
            spec["max_prefix"] = self.max_prefix
        if self.distinct:
            spec["distinct"] = self.distinct
        return spec

    def length_of(self, n: int) -> int:
        """Tokens in the longest sequence built from n letters (with the longest prefix)."""
        return 2 * n + self.max_prefix if self.name == "induction" else 2 * n + 1

    def _fit(self, context: int) -> int:
        """The longest n that fits in ``context`` tokens (and in the configured range)."""
        max_len = self.max_len
        while max_len >= self.min_len and self.length_of(max_len) > context:
            max_len -= 1
        if max_len < self.min_len:
            raise ConfigError(
                f"a context of {context} tokens is too short for {self.name} with {self.min_len} letters "
                f"({self.length_of(self.min_len)} tokens); raise --context"
            )
        return max_len

    def make(self, letters: np.ndarray, prefix: np.ndarray | None = None) -> Sequence:
        """The sequence for the given letter indices (0 = a … 25 = z), with its answer mask.

        ``prefix`` (induction only): letter indices written before the string and its repeat."""
        s = self._letters[np.asarray(letters, dtype=np.int64)]
        n = len(s)
        if self.name == "induction":
            pre = self._letters[np.asarray([] if prefix is None else prefix, dtype=np.int64)]
            p = len(pre)
            ids = np.concatenate([pre, s, s]).astype(np.int64)
            answer = np.zeros(p + 2 * n, dtype=bool)
            answer[p + n : p + 2 * n - 1] = True  # query p+n+j predicts s[j+1]: the predictable repeated half
            return Sequence(ids, answer)
        if self.name == "copy":
            out = s
        elif self.name == "reverse":
            out = s[::-1]
        else:  # sort
            out = np.sort(s)
        ids = np.concatenate([s, [self._sep], out]).astype(np.int64)
        answer = np.zeros(2 * n + 1, dtype=bool)
        answer[n : 2 * n] = True  # the separator predicts out[0], …, position 2n−1 predicts out[n−1]
        return Sequence(ids, answer)

    def sample(self, rng: np.random.Generator, count: int, max_len: int | None = None) -> list[Sequence]:
        hi = self.max_len if max_len is None else max_len
        lengths = rng.integers(self.min_len, hi + 1, size=count)
        if self.distinct:
            return [self._induction_row(rng, int(n)) for n in lengths]
        if self.max_prefix:  # the prefix draws from the same alphabet, so its letters can recur in the string
            out = []
            for n in lengths:
                k = int(rng.integers(self.min_alphabet, 27))
                alphabet = rng.permutation(26)[:k]
                p = int(rng.integers(0, self.max_prefix + 1))
                out.append(self.make(alphabet[rng.integers(0, k, size=int(n))], alphabet[rng.integers(0, k, size=p)]))
            return out
        if self.min_alphabet >= 26:
            return [self.make(rng.integers(0, 26, size=int(n))) for n in lengths]
        out = []
        for n in lengths:
            k = int(rng.integers(self.min_alphabet, 27))
            alphabet = rng.permutation(26)[:k]
            out.append(self.make(alphabet[rng.integers(0, k, size=int(n))]))
        return out

    def _induction_row(self, rng: np.random.Generator, n: int) -> Sequence:
        """One induction row when some rows are distinct: with probability ``distinct`` n different letters
        after a prefix of letters not in them (as far as 26 letters allow), else as without ``distinct``."""
        p = int(rng.integers(0, self.max_prefix + 1))
        if rng.random() < self.distinct:
            order = rng.permutation(26)
            letters = order[:n] if n <= 26 else rng.integers(0, 26, size=n)
            rest = order[n:] if n < 26 else order
            return self.make(letters, rest[:p] if len(rest) >= p else rest[rng.integers(0, len(rest), size=p)])
        k = int(rng.integers(self.min_alphabet, 27))
        alphabet = rng.permutation(26)[:k]
        return self.make(alphabet[rng.integers(0, k, size=n)], alphabet[rng.integers(0, k, size=p)])

    def train_batches(
        self, batch_size: int, context: int, seed: int, answer_only: bool | None = None
    ) -> Iterator[Batch]:
        answer_only = self.answer_only_default if answer_only is None else answer_only
        rng = np.random.default_rng(seed)
        max_len = self._fit(context)
        while True:
            yield make_batch(self.sample(rng, batch_size, max_len), self.tokenizer.pad_id, answer_only)

    def heldout_sequences(self, context: int) -> list[Sequence]:
        return self.sample(np.random.default_rng(HELDOUT_SEED), self.HELDOUT_SIZE, self._fit(context))

    def baseline_sequences(self, context: int) -> list[Sequence]:
        return self.sample(np.random.default_rng(BASELINE_SEED), self.BASELINE_SIZE, self._fit(context))


TASK_LENGTHS = {"copy": (3, 10), "reverse": (3, 10), "sort": (3, 10), "induction": (8, 24)}
TASK_MIN_ALPHABET = {"copy": 26, "reverse": 26, "sort": 26, "induction": 10}
TASK_MAX_PREFIX = {"copy": 0, "reverse": 0, "sort": 0, "induction": 0}  # a prefix is an option (max_prefix)
TASK_DISTINCT = {"copy": 0.0, "reverse": 0.0, "sort": 0.0, "induction": 0.0}  # an option too (distinct)


def task_tokenizer() -> Tokenizer:
    """a–z plus the separator ``|`` (ids: <pad> 0, <unk> 1, a 2 … z 27, | 28, as letters.json plus one)."""
    return char_tokenizer(list(string.ascii_lowercase) + [TASK_SEPARATOR])
