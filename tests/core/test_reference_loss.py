"""explorer.train.reference_loss: another model's nats on a corpus's held-out lines, counted in the corpus's
own targets. Checked against the batched held-out loss (same vocabulary) and a uniform model (another one)."""

from __future__ import annotations

import math

import pytest
import torch

from explorer.tokenize import char_tokenizer
from explorer.train.corpora import get_corpus
from explorer.train.corpora_text import SentenceCorpus
from explorer.train.losses import evaluate
from explorer.train.reference_loss import reference_nats
from explorer.weights.presets import load_preset

LINES = 60


def test_with_the_corpus_own_vocabulary_it_is_the_held_out_loss():
    english = get_corpus("english")
    lines = english._heldout_lines[:LINES]
    corpus = SentenceCorpus("english", english.tokenizer, lines, lines)
    bundle = load_preset("classroom")
    figures = evaluate(bundle.model, corpus, 64)  # padded batches: another computation of the same figure
    nats, targets = reference_nats(bundle, lines, english.tokenizer)
    assert targets == figures["tokens"]
    assert nats / targets == pytest.approx(figures["heldout_loss"], abs=1e-4)


class _Uniform(torch.nn.Module):
    def __init__(self, V: int) -> None:
        super().__init__()
        self.V = V

    def forward(self, ids):  # (1, T) → (1, T, V): every token equally likely
        return torch.zeros(*ids.shape, self.V)


class _Bundle:
    def __init__(self, tokenizer) -> None:
        self.tokenizer = tokenizer
        self.model = _Uniform(tokenizer.vocab_size)

    def model_for(self, dtype, device):
        return self.model


def test_another_vocabulary_is_scored_on_the_text_after_the_corpus_first_token():
    english = get_corpus("english")
    lines = ["The cat sat on the mat.", "Everything is a pen, said nobody at all.", "Hi"]
    chars = char_tokenizer("".join(lines))
    nats, targets = reference_nats(_Bundle(chars), lines, english.tokenizer)
    # a character model scores every character after the corpus's first token ("The", "Everything", …)
    scored = 0
    for line in lines:
        own = english.tokenizer.encode(line)
        if len(own) >= 2:
            scored += len(line) - len(own.tokens[0])
    assert scored > 0
    assert nats == pytest.approx(scored * math.log(chars.vocab_size), rel=1e-6)
    assert targets == sum(len(english.tokenizer.encode(l)) - 1 for l in lines if len(english.tokenizer.encode(l)) >= 2)


def test_a_corpus_whose_own_vocabulary_misses_held_out_words_is_refused():
    from explorer.errors import ConfigError
    from explorer.tokenize import word_tokenizer
    from explorer.train.evaluate import evaluate_bundle

    train = ["the cat sat on the mat .", "the dog sat on the rug ."] * 10
    heldout = ["the zebra sat on the mat ."]  # "zebra": no token in a vocabulary of the training words
    words = word_tokenizer(w for line in train for w in line.split())
    corpus = SentenceCorpus("mine.txt", words, train, heldout)
    with pytest.raises(ConfigError, match=r"mine.txt's own vocabulary has no token for 1 pieces .*'zebra'"):
        evaluate_bundle(load_preset("classroom"), corpus, other_vocabulary=True)
    # with every held-out word known, the same model is scored
    known = SentenceCorpus("mine.txt", words, train, ["the dog sat on the mat ."])
    assert evaluate_bundle(load_preset("classroom"), known, other_vocabulary=True)["tokens"] == 6
