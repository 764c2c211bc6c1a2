"""What a model can be trained on: the shipped corpora, any UTF-8 text file, and algorithmic tasks.

Every corpus gives a tokenizer, an endless stream of training batches (fixed by a seed), a fixed held-out
set, and the training sequences the unigram/bigram baselines are fitted on.

* ``tiny-en``  simple English sentences, word-level (resources/tokenizers/words-en.json)
* ``tiny-ja``  simple Japanese sentences, character BPE with byte fallback (bpe-ja.json: nothing is unknown)
* ``english`` ordinary English: WordNet's usage examples and the tiny-en sentences to train on, BSD
  fortune cookies held out (a different source); byte-level BPE (bpe-english.json). See corpora_english.
* ``copy``     ``abc|abc``: the answer copies the sequence (attend n+1 tokens back)
* ``reverse``  ``abc|cba``: the answer reverses it (attend to the mirror position)
* ``sort``     ``cab|abc``: the answer sorts the letters (attend to the smallest letter not yet written)
* ``induction`` ``qwertyqwerty``: random letters, then the same letters again (optionally after a few random
  letters, ``max_prefix``); character-level with letters.json, so ``qwertyqwerty`` is 12 tokens (attend to
  the token after the previous occurrence)
* any path to a UTF-8 text file: a character-level vocabulary built from it (or word-level on request),
  its non-empty lines split 90/10 into train and held-out by a fixed seed.

A sentence corpus trains one sentence per row (right-padded, the padding masked out of the loss), exactly
as the window traces one line per row; a long-line text file is packed into windows of ``context`` tokens.
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from explorer.errors import ConfigError, InputError
from explorer.util.paths import resource
from explorer.tokenize import Tokenizer, char_tokenizer, word_tokenizer

if TYPE_CHECKING:  # torch loads on first batch: the CLI parser and the window import these names
    import torch

IGNORE = -100  # target id that the loss skips (padding, and the question part of a task when asked)

SHIPPED = ("tiny-en", "tiny-ja", "english")
TASKS = ("copy", "reverse", "sort", "induction")
NAMES = SHIPPED + TASKS

TASK_SEPARATOR = "|"
HELDOUT_SEED = 1_000_003  # held-out task sequences: never a training seed (those start at 0)
BASELINE_SEED = 2_000_003  # the "training split" sample a task's baselines are fitted on
SPLIT_SEED = 0  # default seed of the 90/10 line split of a text file
FILE_DEFAULT_CONTEXT = 64
MAX_FILE_VOCAB = 8000

TEACHES = {
    "tiny-en": "English word order, agreement (a/an, is/are, -s) and which verbs take which objects",
    "tiny-ja": "Japanese particles, verb endings set by a time word, います/あります by the noun",
    "english": "ordinary English (WordNet's usage examples; held out: fortune cookies), subword tokens",
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


# ======================================================================================================
# Corpora
# ======================================================================================================


class Corpus:
    """Base: a name, a tokenizer and three ways to get data."""

    name: str
    kind: str  # "text" or "task"
    tokenizer: Tokenizer
    description: str = ""
    answer_only_default: bool = False
    default_preset: str = "classroom"
    default_context: int = FILE_DEFAULT_CONTEXT

    def spec(self) -> dict[str, Any]:
        """What ``corpus_from_spec`` needs to rebuild this corpus (stored in checkpoints)."""
        return {"name": self.name}

    @property
    def is_task(self) -> bool:
        return self.kind == "task"

    def train_batches(self, batch_size: int, context: int, seed: int, answer_only: bool | None = None) -> Iterator[Batch]:
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


def _encode_lines(tok: Tokenizer, lines: list[str]) -> list[np.ndarray]:
    encs = tok.hf.encode_batch(lines, add_special_tokens=False)
    return [np.asarray(e.ids, dtype=np.int64) for e in encs]


class SentenceCorpus(Corpus):
    """One sentence (line) per row. Rows are reshuffled every epoch."""

    kind = "text"

    def __init__(self, name: str, tokenizer: Tokenizer, train_lines: list[str], heldout_lines: list[str], **info: Any) -> None:
        self.name = name
        self.tokenizer = tokenizer
        self._train_lines = train_lines
        self._heldout_lines = heldout_lines
        self._info = info
        self.description = info.get("description", "")
        self.default_preset = info.get("default_preset", "classroom")
        self.default_context = info.get("default_context", FILE_DEFAULT_CONTEXT)

    def spec(self) -> dict[str, Any]:
        spec = {k: v for k, v in self._info.items() if k in ("path", "word_level", "split_seed", "mode")}
        if "tokenizer_file" in self._info:
            spec["tokenizer"] = self._info["tokenizer_file"]
        return {"name": self.name, **spec}

    @cached_property
    def train_ids(self) -> list[np.ndarray]:
        return [s for s in _encode_lines(self.tokenizer, self._train_lines) if len(s) > 0]

    @cached_property
    def heldout_ids(self) -> list[np.ndarray]:
        return [s for s in _encode_lines(self.tokenizer, self._heldout_lines) if len(s) > 0]

    def train_batches(self, batch_size: int, context: int, seed: int, answer_only: bool | None = None) -> Iterator[Batch]:
        rng = np.random.default_rng(seed)
        data = self.train_ids
        if not data:
            raise InputError(f"{self.name} has no training text")
        pad = self.tokenizer.pad_id
        while True:  # epochs of shuffled sentences; the remainder of an epoch is dropped
            order = rng.permutation(len(data))
            if len(order) < batch_size:  # a corpus smaller than one batch: repeat it within the batch
                order = np.resize(order, batch_size)
            for i in range(0, len(order) - batch_size + 1, batch_size):
                yield make_batch([Sequence(data[j]) for j in order[i : i + batch_size]], pad, False, context)

    def heldout_sequences(self, context: int) -> list[Sequence]:
        return [Sequence(s[:context]) for s in self.heldout_ids]

    def baseline_sequences(self, context: int) -> list[Sequence]:
        return [Sequence(s[:context]) for s in self.train_ids]


class StreamCorpus(Corpus):
    """A long text: lines joined into one token stream; rows are windows of ``context`` tokens."""

    kind = "text"
    HELDOUT_WINDOWS = 256

    def __init__(self, name: str, tokenizer: Tokenizer, train: np.ndarray, heldout: np.ndarray, **info: Any) -> None:
        self.name = name
        self.tokenizer = tokenizer
        self.train_stream = train
        self.heldout_stream = heldout
        self._info = info
        self.description = info.get("description", "")

    def spec(self) -> dict[str, Any]:
        return {"name": self.name, **{k: v for k, v in self._info.items() if k in ("path", "word_level", "split_seed", "mode")}}

    def train_batches(self, batch_size: int, context: int, seed: int, answer_only: bool | None = None) -> Iterator[Batch]:
        rng = np.random.default_rng(seed)
        data = self.train_stream
        n = min(context, len(data))
        pad = self.tokenizer.pad_id
        while True:
            starts = rng.integers(0, len(data) - n + 1, size=batch_size)
            yield make_batch([Sequence(data[s : s + n]) for s in starts], pad)

    def heldout_sequences(self, context: int) -> list[Sequence]:
        data = self.heldout_stream
        n = min(context, len(data))
        count = max(1, min(self.HELDOUT_WINDOWS, len(data) // n))
        return [Sequence(data[i * n : (i + 1) * n]) for i in range(count)]

    def baseline_sequences(self, context: int) -> list[Sequence]:
        return [Sequence(self.train_stream)]


# ------------------------------------------------------------------------------------------------ tasks


class TaskCorpus(Corpus):
    """Sequences generated on the fly from a seed; the held-out set is a fixed sample from its own seed."""

    kind = "task"
    HELDOUT_SIZE = 512
    BASELINE_SIZE = 4096

    def __init__(self, name: str, min_len: int, max_len: int, min_alphabet: int = 26, max_prefix: int = 0) -> None:
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

    def train_batches(self, batch_size: int, context: int, seed: int, answer_only: bool | None = None) -> Iterator[Batch]:
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


def task_tokenizer() -> Tokenizer:
    """a–z plus the separator ``|`` (ids: <pad> 0, <unk> 1, a 2 … z 27, | 28, as letters.json plus one)."""
    return char_tokenizer(list(string.ascii_lowercase) + [TASK_SEPARATOR])


# ------------------------------------------------------------------------------------------ text files


# A corpus file is read up to this many characters (a few hundred times the shipped corpora; training never
# sees more in the few thousand steps this app runs). /dev/zero or a 1 GiB file was read whole before.
MAX_CORPUS_CHARS = 4_000_000


def _read_text(path: Path) -> str:
    import logging

    from explorer.util.reading import read_text

    missing = f"no such corpus or file: {path} (corpora: {', '.join(NAMES)}, or a UTF-8 text file)"
    text, more = read_text(path, MAX_CORPUS_CHARS, InputError, missing=missing)
    if more:
        logging.getLogger(__name__).warning(
            "%s is longer than %s characters: only its start is used", path.name, f"{MAX_CORPUS_CHARS:,}"
        )
    return text


def _by_frequency(counter: Counter, limit: int) -> list[str]:
    return [tok for tok, _ in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))][:limit]


def file_corpus(path: str | Path, word_level: bool = False, split_seed: int = SPLIT_SEED, mode: str = "auto") -> Corpus:
    """A corpus from any UTF-8 text file; see the module docstring."""
    path = Path(path).expanduser().resolve()
    text = _read_text(path).replace("\r\n", "\n").replace("\r", "\n")
    units = [line.strip() for line in text.split("\n") if line.strip()]
    if len(units) < 10:  # one long paragraph, or very few lines: cut it into pieces of ~200 characters
        flat = " ".join(units)
        units = [flat[i : i + 200] for i in range(0, len(flat), 200)]
    if len(units) < 2 or sum(len(u) for u in units) < 50:
        raise InputError(f"{path.name} has too little text to train on (at least a few lines are needed)")
    if word_level:
        pre = word_tokenizer([]).hf.pre_tokenizer
        counts = Counter(w for u in units for w, _ in pre.pre_tokenize_str(u))
        tok = word_tokenizer(_by_frequency(counts, MAX_FILE_VOCAB))
    else:
        counts = Counter(ch for u in units for ch in u)
        tok = char_tokenizer(_by_frequency(counts, MAX_FILE_VOCAB))
    order = np.random.default_rng(split_seed).permutation(len(units))
    n_held = max(1, len(units) // 10)
    held = sorted(order[:n_held].tolist())
    train = sorted(order[n_held:].tolist())
    train_lines = [units[i] for i in train]
    held_lines = [units[i] for i in held]
    info = dict(path=str(path), word_level=bool(word_level), split_seed=int(split_seed))
    if mode == "auto":
        lengths = [len(s) for s in _encode_lines(tok, train_lines[:2000])]
        mode = "lines" if np.percentile(lengths, 90) <= FILE_DEFAULT_CONTEXT else "stream"
    if mode not in ("lines", "stream"):
        raise ConfigError(f"file corpus mode must be auto, lines or stream, got {mode!r}")
    info["mode"] = mode
    level = "words" if word_level else "characters"
    info["description"] = f"{path.name}: {len(train_lines)} train / {len(held_lines)} held-out lines, {level}, V={tok.vocab_size}"
    if mode == "lines":
        return SentenceCorpus(str(path), tok, train_lines, held_lines, **info)
    sep = [] if word_level else [tok.hf.token_to_id(" ")] if tok.hf.token_to_id(" ") is not None else []

    def stream(lines: list[str]) -> np.ndarray:
        parts = []
        for ids in _encode_lines(tok, lines):
            parts += [ids, np.asarray(sep, dtype=np.int64)]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)

    train_stream, held_stream = stream(train_lines), stream(held_lines)
    if len(train_stream) < 16 or len(held_stream) < 2:
        raise InputError(f"{path.name} has too little text to train on")
    return StreamCorpus(str(path), tok, train_stream, held_stream, **info)


# ------------------------------------------------------------------------------------------------ lookup


# name: (training files, held-out file, tokenizer file, preset whose sizes it trains by default)
SHIPPED_FILES = {
    "tiny-en": (("tiny-en/train.txt",), "tiny-en/heldout.txt", "words-en.json", "classroom"),
    "tiny-ja": (("tiny-ja/train.txt",), "tiny-ja/heldout.txt", "bpe-ja.json", "japanese"),
    # WordNet's examples are phrases and sentences of every register; the tiny-en sentences add the note's
    # "This is a pen ." style that the window starts with. The held-out cookies come from elsewhere.
    "english": (("english/train.txt", "tiny-en/train.txt"), "english/heldout.txt", "bpe-english.json", "classroom"),
}


def read_lines(rel: str) -> list[str]:
    """The non-empty lines of a shipped corpus file (``tiny-en/train.txt``)."""
    path = resource("corpora", *rel.split("/"))
    if not path.is_file():
        raise InputError(f"the corpus file {rel} is missing ({path}); reinstall or run `make setup`")
    return [l.strip() for l in path.read_text(encoding="utf-8").splitlines() if l.strip()]


def _shipped(name: str, tokenizer: str | None = None) -> SentenceCorpus:
    train_files, heldout_file, tok_file, preset = SHIPPED_FILES[name]
    train = [line for rel in train_files for line in read_lines(rel)]
    tokenizer = Path(tokenizer).name if tokenizer else None  # a file of resources/tokenizers/, nothing else
    tok = Tokenizer.from_file(resource("tokenizers", tokenizer or tok_file))
    info: dict[str, Any] = dict(description=TEACHES[name], default_preset=preset, default_context=64)
    if tokenizer and tokenizer != tok_file:
        info["tokenizer_file"] = tokenizer  # kept in the spec: the corpus is rebuilt with the same vocabulary
    return SentenceCorpus(name, tok, train, read_lines(heldout_file), **info)


_CACHE: dict[tuple, Corpus] = {}


def get_corpus(
    name: str,
    *,
    word_level: bool = False,
    split_seed: int = SPLIT_SEED,
    min_len: int | None = None,
    max_len: int | None = None,
    min_alphabet: int | None = None,
    max_prefix: int | None = None,
    mode: str = "auto",
    tokenizer: str | None = None,
) -> Corpus:
    """``tiny-en``, ``tiny-ja``, ``english``, ``copy``, ``reverse``, ``sort``, ``induction``, or a text file's
    path. ``tokenizer``: another vocabulary file of resources/tokenizers/ for a shipped corpus."""
    key = (name, word_level, split_seed, min_len, max_len, min_alphabet, max_prefix, mode, tokenizer)
    if key in _CACHE:
        return _CACHE[key]
    if name in SHIPPED:
        corpus: Corpus = _shipped(name, tokenizer)
    elif name in TASKS:
        lo, hi = TASK_LENGTHS[name]
        corpus = TaskCorpus(
            name,
            lo if min_len is None else min_len,
            hi if max_len is None else max_len,
            TASK_MIN_ALPHABET[name] if min_alphabet is None else min_alphabet,
            TASK_MAX_PREFIX[name] if max_prefix is None else max_prefix,
        )
    else:
        corpus = file_corpus(name, word_level=word_level, split_seed=split_seed, mode=mode)
    if len(_CACHE) > 16:
        _CACHE.clear()
    _CACHE[key] = corpus
    return corpus


def corpus_from_spec(spec: dict[str, Any] | str) -> Corpus:
    """Rebuild the corpus a checkpoint was trained on from the ``spec()`` stored in it."""
    if isinstance(spec, str):
        return get_corpus(spec)
    name = spec.get("path") or spec.get("name")
    if not name:
        raise ConfigError("the checkpoint does not say which corpus it was trained on; pass --corpus")
    return get_corpus(
        str(name),
        word_level=bool(spec.get("word_level", False)),
        split_seed=int(spec.get("split_seed", SPLIT_SEED)),
        min_len=spec.get("min_len"),
        max_len=spec.get("max_len"),
        min_alphabet=spec.get("min_alphabet"),
        # a task spec written before prefixes existed trained without one
        max_prefix=spec.get("max_prefix", 0) if "min_len" in spec else None,
        mode=spec.get("mode", "auto"),
        tokenizer=spec.get("tokenizer"),
    )


def describe_corpora() -> list[tuple[str, str]]:
    return [(n, TEACHES[n]) for n in NAMES]


__all__ = [
    "IGNORE", "NAMES", "TASKS", "SHIPPED", "TEACHES", "Sequence", "Batch", "Corpus", "SentenceCorpus", "StreamCorpus",
    "TaskCorpus", "get_corpus", "corpus_from_spec", "file_corpus", "make_batch", "batches_of", "task_tokenizer",
    "describe_corpora",
]
