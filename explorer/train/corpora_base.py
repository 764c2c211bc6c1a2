"""The data every corpus gives: rows (Sequence), padded batches with shifted targets (Batch, make_batch)
and the Corpus base class; the corpus names and what each teaches. See explorer.train.corpora.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from explorer.tokenize import Tokenizer
from explorer.vocab import CORPORA, SHIPPED_CORPORA, TASK_CORPORA

if TYPE_CHECKING:  # torch loads on first batch: the CLI parser and the window import these names
    import torch

IGNORE = -100  # target id that the loss skips (padding, and the question part of a task when asked)

SHIPPED = SHIPPED_CORPORA  # the names are defined once, in explorer.vocab (the window lists them without torch)
TASKS = TASK_CORPORA
NAMES = CORPORA

TASK_SEPARATOR = "|"
HELDOUT_SEED = 1_000_003  # held-out task sequences: never a training seed (those start at 0)
BASELINE_SEED = 2_000_003  # the "training split" sample a task's baselines are fitted on
SPLIT_SEED = 0  # default seed of the 90/10 line split of a text file
FILE_DEFAULT_CONTEXT = 64
MAX_FILE_VOCAB = 8000

TEACHES = {
    "tiny-en": "English word order, agreement (a/an, is/are, -s) and which verbs take which objects",
    "tiny-ja": "Japanese particles, verb endings set by a time word, います/あります by the noun",
    "english": "ordinary English (WordNet, fortune cookies, Bierce, Austen; held out: other cookies), word tokens",
    "copy": "attend a fixed distance back (n+1 tokens): a head whose map is a shifted diagonal",
    "reverse": "attend to the mirror position: an anti-diagonal attention map",
    "sort": "attend to the smallest letter not yet written: content-based attention",
    "induction": "an induction head: attend to the token after the previous occurrence of the current one",
}


@dataclass(frozen=True)
class Sequence:
    """One row of training or held-out data."""

    ids: np.ndarray  # (n,) int64 token ids
    answer: np.ndarray | None = None  # (n,) bool: True where the target ids[t+1] is part of the answer

    def __len__(self) -> int:
        return int(self.ids.shape[0])


@dataclass
class Batch:
    """Right-padded rows. ``targets[b, t]`` is the token position t should predict, or IGNORE."""

    ids: torch.Tensor  # (B, C) int64, padded with the tokenizer's pad id
    targets: torch.Tensor  # (B, C) int64, IGNORE where no loss is taken
    lengths: torch.Tensor  # (B,) real tokens per row
    answer: torch.Tensor  # (B, C) bool, True where the target is part of a task's answer

    @property
    def tokens(self) -> int:
        """Real (non-padding) tokens in the batch: what tokens/s counts."""
        return int(self.lengths.sum())

    @property
    def n_targets(self) -> int:
        return int((self.targets != IGNORE).sum())

    def to(self, device: str | torch.device) -> Batch:
        return Batch(self.ids.to(device), self.targets.to(device), self.lengths.to(device), self.answer.to(device))


def make_batch(seqs: list[Sequence], pad_id: int, answer_only: bool = False, context: int | None = None) -> Batch:
    """Pad ``seqs`` to the longest (at most ``context``) and build the shifted targets."""
    if context is not None:
        seqs = [Sequence(s.ids[:context], None if s.answer is None else s.answer[:context]) for s in seqs]
    C = max(len(s) for s in seqs)
    B = len(seqs)
    ids = np.full((B, C), pad_id, dtype=np.int64)
    targets = np.full((B, C), IGNORE, dtype=np.int64)
    answer = np.zeros((B, C), dtype=bool)
    lengths = np.zeros(B, dtype=np.int64)
    for b, s in enumerate(seqs):
        n = len(s)
        ids[b, :n] = s.ids
        lengths[b] = n
        if n < 2:
            continue
        targets[b, : n - 1] = s.ids[1:]
        if s.answer is not None:
            answer[b, : n - 1] = s.answer[: n - 1]
            if answer_only:
                targets[b, : n - 1][~s.answer[: n - 1]] = IGNORE
    import torch

    return Batch(torch.from_numpy(ids), torch.from_numpy(targets), torch.from_numpy(lengths), torch.from_numpy(answer))


def batches_of(seqs: list[Sequence], size: int, pad_id: int, answer_only: bool, context: int | None) -> list[Batch]:
    """Fixed batches in order (for held-out evaluation); rows sorted by length to waste little padding."""
    order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
    ordered = [seqs[i] for i in order]
    return [make_batch(ordered[i : i + size], pad_id, answer_only, context) for i in range(0, len(ordered), size)]


class Corpus:
    """Base: a name, a tokenizer and three ways to get data."""

    name: str
    kind: str  # "text" or "task"
    tokenizer: Tokenizer
    description: str = ""
    answer_only_default: bool = False
    default_preset: str = "classroom"
    default_context: int = FILE_DEFAULT_CONTEXT
    groups_by_length: bool = False  # train_batches takes by_length (rows of many lengths: sentences)

    def spec(self) -> dict[str, Any]:
        """What ``corpus_from_spec`` needs to rebuild this corpus (stored in checkpoints)."""
        return {"name": self.name}

    @property
    def is_task(self) -> bool:
        return self.kind == "task"

    def train_batches(
        self, batch_size: int, context: int, seed: int, answer_only: bool | None = None
    ) -> Iterator[Batch]:
        raise NotImplementedError

    def heldout_sequences(self, context: int) -> list[Sequence]:
        raise NotImplementedError

    def baseline_sequences(self, context: int) -> list[Sequence]:
        """The training split (or a fixed sample of it) that unigram and bigram baselines are fitted on."""
        raise NotImplementedError

    def heldout_batches(self, context: int, answer_only: bool | None = None, batch_size: int = 256) -> list[Batch]:
        answer_only = self.answer_only_default if answer_only is None else answer_only
        return batches_of(self.heldout_sequences(context), batch_size, self.tokenizer.pad_id, answer_only, context)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}: {self.tokenizer}>"
