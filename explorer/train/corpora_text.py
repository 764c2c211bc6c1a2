"""Corpora of text: the shipped sentence corpora (tiny-en, tiny-ja, english) and any UTF-8 text file,
one line per row (SentenceCorpus) or one stream cut into windows (StreamCorpus). See explorer.train.corpora.
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from explorer.errors import ConfigError, InputError
from explorer.tokenize import Tokenizer, char_tokenizer, word_tokenizer
from explorer.train.corpora_base import (
    FILE_DEFAULT_CONTEXT,
    MAX_FILE_VOCAB,
    NAMES,
    SPLIT_SEED,
    TEACHES,
    Batch,
    Corpus,
    Sequence,
    make_batch,
)
from explorer.util.paths import resource


def _encode_lines(tok: Tokenizer, lines: list[str]) -> list[np.ndarray]:
    encs = tok.hf.encode_batch(lines, add_special_tokens=False)
    return [np.asarray(e.ids, dtype=np.int64) for e in encs]


class SentenceCorpus(Corpus):
    """One sentence (line) per row. Rows are reshuffled every epoch."""

    kind = "text"
    groups_by_length = True

    def __init__(
        self, name: str, tokenizer: Tokenizer, train_lines: list[str], heldout_lines: list[str], **info: Any
    ) -> None:
        self.name = name
        self.tokenizer = tokenizer
        self._train_lines = train_lines
        self._heldout_lines = heldout_lines
        self._info = info
        self.description = info.get("description", "")
        self.default_preset = info.get("default_preset", "classroom")
        self.default_context = info.get("default_context", FILE_DEFAULT_CONTEXT)

    def spec(self) -> dict[str, Any]:
        spec = {k: v for k, v in self._info.items() if k in ("path", "word_level", "split_seed", "mode", "files")}
        if "tokenizer_file" in self._info:
            spec["tokenizer"] = self._info["tokenizer_file"]
        return {"name": self.name, **spec}

    @property
    def heldout_lines(self) -> list[str]:
        """The held-out lines as text (a model of another vocabulary is scored on them: reference_loss)."""
        return self._heldout_lines

    @cached_property
    def train_ids(self) -> list[np.ndarray]:
        return [s for s in _encode_lines(self.tokenizer, self._train_lines) if len(s) > 0]

    @cached_property
    def heldout_ids(self) -> list[np.ndarray]:
        return [s for s in _encode_lines(self.tokenizer, self._heldout_lines) if len(s) > 0]

    def train_batches(
        self, batch_size: int, context: int, seed: int, answer_only: bool | None = None, by_length: bool = False
    ) -> Iterator[Batch]:
        """Shuffled rows, epoch after epoch. ``by_length``: each batch takes rows of about the same length
        (see _grouped_by_length), so that little of it is padding."""
        rng = np.random.default_rng(seed)
        data = self.train_ids
        if not data:
            raise InputError(f"{self.name} has no training text")
        pad = self.tokenizer.pad_id
        lengths = np.fromiter((min(len(s), context) for s in data), dtype=np.int64, count=len(data))
        while True:  # epochs of shuffled sentences; the remainder of an epoch is dropped
            order = rng.permutation(len(data))
            if len(order) < batch_size:  # a corpus smaller than one batch: repeat it within the batch
                order = np.resize(order, batch_size)
            if by_length:
                rows = _grouped_by_length(order, lengths, batch_size, rng)
            else:
                rows = [order[i : i + batch_size] for i in range(0, len(order) - batch_size + 1, batch_size)]
            for batch in rows:
                yield make_batch([Sequence(data[j]) for j in batch], pad, False, context)

    def heldout_sequences(self, context: int) -> list[Sequence]:
        return [Sequence(s[:context]) for s in self.heldout_ids]

    def baseline_sequences(self, context: int) -> list[Sequence]:
        return [Sequence(s[:context]) for s in self.train_ids]


GROUP_SPAN = 64  # batches' worth of shuffled rows sorted by length together (see _grouped_by_length)


def _grouped_by_length(
    order: np.ndarray, lengths: np.ndarray, batch_size: int, rng: np.random.Generator
) -> list[np.ndarray]:
    """The batches of one epoch of shuffled ``order``, each of rows of about the same length.

    Rows are padded to the longest of their batch: with one-line rows of 1–64 tokens (mean 12) three
    quarters of a random batch's positions were padding, which the attention and the feed-forward layers
    compute all the same. Within each span of GROUP_SPAN batches' rows, the rows are sorted by length and cut
    into batches of about batch_size × the mean length in padded positions (many short rows or a few long
    ones), so that every step weighs about as many tokens; the batches of the epoch are then shuffled."""
    budget = batch_size * max(1.0, float(lengths.mean()))
    span = batch_size * GROUP_SPAN
    batches: list[np.ndarray] = []
    for lo in range(0, len(order), span):
        chunk = order[lo : lo + span]
        chunk = chunk[np.argsort(lengths[chunk], kind="stable")]
        start = 0
        for k in range(1, len(chunk) + 1):  # rows [start, k) padded to the length of row k - 1
            if k == len(chunk) or (k + 1 - start) * lengths[chunk[k]] > budget:
                batches.append(chunk[start:k])
                start = k
    return [batches[i] for i in rng.permutation(len(batches))]


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
        return {
            "name": self.name,
            **{k: v for k, v in self._info.items() if k in ("path", "word_level", "split_seed", "mode")},
        }

    def train_batches(
        self, batch_size: int, context: int, seed: int, answer_only: bool | None = None
    ) -> Iterator[Batch]:
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


# A corpus file is read up to this many characters (a few hundred times the shipped corpora; training never
# sees more in the few thousand steps this app runs). /dev/zero or a 1 GiB file was read whole before.
MAX_CORPUS_CHARS = 4_000_000


def _read_text(path: Path) -> str:
    import logging

    from explorer.util.reading import read_text

    missing = f"no such corpus or file: {path} (corpora: {', '.join(NAMES)}, or a UTF-8 text file)"
    text, more = read_text(path, MAX_CORPUS_CHARS, InputError, missing=missing)
    if more:
        logging.getLogger("explorer.train.corpora").warning(
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
    info["description"] = (
        f"{path.name}: {len(train_lines)} train / {len(held_lines)} held-out lines, {level}, V={tok.vocab_size}"
    )
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


# name: (training files, held-out file, tokenizer file, preset whose sizes it trains by default)
SHIPPED_FILES = {
    "tiny-en": (("tiny-en/train.txt",), "tiny-en/heldout.txt", "words-en.json", "classroom"),
    "tiny-ja": (("tiny-ja/train.txt",), "tiny-ja/heldout.txt", "bpe-ja.json", "japanese"),
    # WordNet's examples are phrases and sentences of every register; the tiny-en sentences add the note's
    # "This is a pen ." style that the window starts with. The held-out cookies are in no training line.
    # Issue 38 adds WordNet's definitions, the other cookies, The Devil's Dictionary and Austen (corpora_english).
    "english": (
        (
            "english/train.txt",
            "english/glosses.txt.gz",
            "english/fortunes.txt.gz",
            "english/devil.txt.gz",
            "english/austen.txt.gz",
            "tiny-en/train.txt",
        ),
        "english/heldout.txt",
        "bpe-english.json",
        "classroom",
    ),
}


def read_lines(rel: str) -> list[str]:
    """The non-empty lines of a shipped corpus file (``tiny-en/train.txt``)."""
    path = resource("corpora", *rel.split("/"))
    if not path.is_file():
        raise InputError(f"the corpus file {rel} is missing ({path}); reinstall or run `make setup`")
    data = path.read_bytes()
    if path.suffix == ".gz":  # the larger extracts are committed gzipped (about a third of the size)
        data = gzip.decompress(data)
    return [l.strip() for l in data.decode("utf-8").splitlines() if l.strip()]


def shipped_part(name: str, train_files: tuple[str, ...]) -> SentenceCorpus:
    """Some of a shipped corpus's training files, with its vocabulary and its held-out lines: what a second
    phase of a preset's recipe trains on (presets_build.Anneal)."""
    missing = [rel for rel in train_files if rel not in SHIPPED_FILES[name][0]]
    if missing:
        raise ConfigError(f"{', '.join(missing)} is not a training file of the {name} corpus")
    return _shipped(name, files=tuple(train_files))


def _shipped(name: str, tokenizer: str | None = None, files: tuple[str, ...] | None = None) -> SentenceCorpus:
    """A shipped corpus; ``files``: only these of its training files (shipped_part)."""
    train_files, heldout_file, tok_file, preset = SHIPPED_FILES[name]
    train = [line for rel in (train_files if files is None else files) for line in read_lines(rel)]
    tokenizer = Path(tokenizer).name if tokenizer else None  # a file of resources/tokenizers/, nothing else
    tok = Tokenizer.from_file(resource("tokenizers", tokenizer or tok_file))
    info: dict[str, Any] = dict(description=TEACHES[name], default_preset=preset, default_context=64)
    if tokenizer and tokenizer != tok_file:
        info["tokenizer_file"] = tokenizer  # kept in the spec: the corpus is rebuilt with the same vocabulary
    if files is not None:
        info["files"] = list(files)  # in its spec: a part is not the whole (baselines are kept by spec)
    return SentenceCorpus(name, tok, train, read_lines(heldout_file), **info)
