"""What a model can be trained on: the shipped corpora, any UTF-8 text file, and algorithmic tasks.

Every corpus gives a tokenizer, an endless stream of training batches (fixed by a seed), a fixed held-out
set, and the training sequences the unigram/bigram baselines are fitted on.

* ``tiny-en``  simple English sentences, word-level (resources/tokenizers/words-en.json)
* ``tiny-ja``  simple Japanese sentences, character BPE with byte fallback (bpe-ja.json: nothing is unknown)
* ``english`` ordinary English: WordNet's examples and definitions, fortune cookies, Bierce, Austen and the
  tiny-en sentences to train on, other BSD fortune cookies held out; byte-level BPE of 16,384 tokens
  (bpe-english.json: ordinary words whole). See corpora_english.
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

This module looks a corpus up by name (``get_corpus``, ``corpus_from_spec``) and re-exports the rest: rows,
batches and the Corpus base class are in ``corpora_base``, the text corpora in ``corpora_text``, the tasks
in ``corpora_tasks``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from explorer.errors import ConfigError
from explorer.train.corpora_base import (  # noqa: F401  (re-exported: callers import from here)
    BASELINE_SEED,
    FILE_DEFAULT_CONTEXT,
    HELDOUT_SEED,
    IGNORE,
    MAX_FILE_VOCAB,
    NAMES,
    SHIPPED,
    SPLIT_SEED,
    TASK_SEPARATOR,
    TASKS,
    TEACHES,
    Batch,
    Corpus,
    Sequence,
    batches_of,
    make_batch,
)
from explorer.train.corpora_tasks import (  # noqa: F401
    TASK_DISTINCT,
    TASK_LENGTHS,
    TASK_MAX_PREFIX,
    TASK_MIN_ALPHABET,
    TaskCorpus,
    task_tokenizer,
)
from explorer.train.corpora_text import (  # noqa: F401
    MAX_CORPUS_CHARS,
    SHIPPED_FILES,
    SentenceCorpus,
    StreamCorpus,
    _shipped,
    file_corpus,
    read_lines,
    shipped_part,
)

_CACHE: dict[tuple, Corpus] = {}


@dataclass(frozen=True)
class CorpusOptions:
    """How a corpus is built beyond its name. A text file: word-level or characters, its split seed, its
    mode; a shipped corpus: another vocabulary of resources/tokenizers/; a task: its lengths, alphabet,
    prefix and distinctness (None: the task's own)."""

    word_level: bool = False
    split_seed: int = SPLIT_SEED
    min_len: int | None = None
    max_len: int | None = None
    min_alphabet: int | None = None
    max_prefix: int | None = None
    distinct: float | None = None
    mode: str = "auto"
    tokenizer: str | None = None


def get_corpus(name: str, options: CorpusOptions = CorpusOptions(), **changes: Any) -> Corpus:
    """``tiny-en``, ``tiny-ja``, ``english``, ``copy``, ``reverse``, ``sort``, ``induction``, or a text file's
    path, built as ``options`` say (with ``changes``: CorpusOptions fields, e.g. ``word_level=True``)."""
    o = dataclasses.replace(options, **changes) if changes else options
    key = (name, o)
    if key in _CACHE:
        return _CACHE[key]
    if name in SHIPPED:
        corpus: Corpus = _shipped(name, o.tokenizer)
    elif name in TASKS:
        lo, hi = TASK_LENGTHS[name]
        corpus = TaskCorpus(
            name,
            lo if o.min_len is None else o.min_len,
            hi if o.max_len is None else o.max_len,
            TASK_MIN_ALPHABET[name] if o.min_alphabet is None else o.min_alphabet,
            TASK_MAX_PREFIX[name] if o.max_prefix is None else o.max_prefix,
            TASK_DISTINCT[name] if o.distinct is None else o.distinct,
        )
    else:
        corpus = file_corpus(name, word_level=o.word_level, split_seed=o.split_seed, mode=o.mode)
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
    if spec.get("files") and name in SHIPPED:  # some of a shipped corpus's training files
        return shipped_part(str(name), tuple(str(f) for f in spec["files"]))
    return get_corpus(
        str(name),
        word_level=bool(spec.get("word_level", False)),
        split_seed=int(spec.get("split_seed", SPLIT_SEED)),
        min_len=spec.get("min_len"),
        max_len=spec.get("max_len"),
        min_alphabet=spec.get("min_alphabet"),
        # a task spec written before prefixes existed trained without one
        max_prefix=spec.get("max_prefix", 0) if "min_len" in spec else None,
        distinct=spec.get("distinct", 0.0) if "min_len" in spec else None,
        mode=spec.get("mode", "auto"),
        tokenizer=spec.get("tokenizer"),
    )


def describe_corpora() -> list[tuple[str, str]]:
    return [(n, TEACHES[n]) for n in NAMES]


__all__ = [
    "CorpusOptions",
    "IGNORE",
    "NAMES",
    "TASKS",
    "SHIPPED",
    "TEACHES",
    "Sequence",
    "Batch",
    "Corpus",
    "SentenceCorpus",
    "StreamCorpus",
    "TaskCorpus",
    "get_corpus",
    "corpus_from_spec",
    "file_corpus",
    "make_batch",
    "batches_of",
    "task_tokenizer",
    "describe_corpora",
    "read_lines",
    "shipped_part",
    "SHIPPED_FILES",
    "MAX_CORPUS_CHARS",
    "TASK_SEPARATOR",
    "HELDOUT_SEED",
    "BASELINE_SEED",
    "SPLIT_SEED",
    "FILE_DEFAULT_CONTEXT",
    "MAX_FILE_VOCAB",
    "TASK_LENGTHS",
    "TASK_MIN_ALPHABET",
    "TASK_MAX_PREFIX",
    "TASK_DISTINCT",
]
