"""Batches of rows of about the same length (TrainSettings.group_by_length, train --group-by-length): every
row once per epoch, far less padding than shuffled batches, about the same number of positions per step, and
a refusal where rows do not vary in length."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.config import ModelConfig
from explorer.errors import ConfigError
from explorer.train.corpora import get_corpus
from explorer.train.corpora_text import GROUP_SPAN, _grouped_by_length
from explorer.train.loop import Trainer, TrainSettings


@pytest.fixture
def sentences(tmp_path):
    """A corpus of 2,000 one-line rows of 1–40 words: the kind whose shuffled batches are mostly padding."""
    rng = np.random.default_rng(3)
    words = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "far", "away"]
    lines = [" ".join(rng.choice(words, size=int(rng.integers(1, 41)))) + " ." for _ in range(2000)]
    path = tmp_path / "sentences.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return get_corpus(str(path), word_level=True, mode="lines")


def _epoch(corpus, by_length: bool, batch_size: int = 16, context: int = 64):
    """The batches of the first epoch: the rows' lengths add up to the corpus's tokens."""
    total = sum(min(len(s), context) for s in corpus.train_ids)
    batches, seen = [], 0
    for b in corpus.train_batches(batch_size, context, seed=0, by_length=by_length):
        batches.append(b)
        seen += b.tokens
        if seen >= total - batch_size * context:  # the shuffled epoch drops its last partial batch
            break
    return batches, total


def test_every_row_is_seen_once_per_epoch(sentences):
    order = np.random.default_rng(0).permutation(len(sentences.train_ids))
    lengths = np.array([len(s) for s in sentences.train_ids])
    batches = _grouped_by_length(order, lengths, 16, np.random.default_rng(1))
    rows = np.concatenate(batches)
    assert sorted(rows.tolist()) == list(range(len(sentences.train_ids)))


def test_grouped_batches_compute_far_less_padding(sentences):
    def padding(batches):
        return sum(b.ids.numel() - b.tokens for b in batches) / sum(b.ids.numel() for b in batches)

    shuffled, _ = _epoch(sentences, by_length=False)
    grouped, total = _epoch(sentences, by_length=True)
    assert sum(b.tokens for b in grouped) >= total - 16 * 64
    assert padding(shuffled) > 0.3  # rows of 2–42 tokens in random batches
    assert padding(grouped) < padding(shuffled) / 4, (padding(grouped), padding(shuffled))


def test_each_step_takes_about_a_batch_of_mean_length_positions(sentences):
    grouped, _ = _epoch(sentences, by_length=True)
    budget = 16 * np.mean([min(len(s), 64) for s in sentences.train_ids])
    sizes = np.array([b.ids.numel() for b in grouped])
    assert sizes.max() <= budget  # many short rows or a few long ones, never more positions than the budget
    assert np.median(sizes) > budget / 2
    assert len({b.ids.shape[0] for b in grouped}) > 5  # the row count varies with the length


def test_grouped_batches_are_shuffled_across_spans(sentences):
    grouped, _ = _epoch(sentences, by_length=True)
    longest = [int(b.lengths.max()) for b in grouped[: GROUP_SPAN // 4]]
    assert longest != sorted(longest) and longest != sorted(longest, reverse=True)


def test_training_with_grouped_rows_learns(sentences):
    cfg = ModelConfig(
        vocab_size=sentences.tokenizer.vocab_size, embed_dim=16, key_dim=8, heads=2, layers=1, max_positions=64
    )
    settings = TrainSettings(steps=60, batch_size=16, lr=3e-3, eval_every=60, group_by_length=True)
    result = Trainer(sentences, cfg, settings).run()
    first, last = result.history[0]["heldout_loss"], result.history[-1]["heldout_loss"]
    assert last < first - 0.5, (first, last)


def test_corpora_whose_rows_are_one_length_refuse_it():
    corpus = get_corpus("copy")
    cfg = ModelConfig(vocab_size=corpus.tokenizer.vocab_size, embed_dim=16, key_dim=8, heads=2, layers=1)
    with pytest.raises(ConfigError, match="grouping rows by length applies to corpora of one sentence per row"):
        Trainer(corpus, cfg, TrainSettings(steps=2, group_by_length=True))
    with pytest.raises(ConfigError, match="group_by_length must be true or false"):
        TrainSettings(group_by_length="yes")


def test_the_train_command_passes_it_on():
    from explorer.cli import build_parser
    from explorer.cli.train_cmd import settings_from

    corpus = get_corpus("tiny-en")
    on = settings_from(build_parser().parse_args(["train", "--corpus", "tiny-en", "--group-by-length"]), corpus)
    off = settings_from(build_parser().parse_args(["train", "--corpus", "tiny-en"]), corpus)
    assert on.group_by_length and not off.group_by_length
