"""Top-k, sampling and appending a token: the math behind the output panel."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.generation.choose import append_token, argmax, join_tokens, sample, top_k


def test_top_k_orders_by_probability_and_keeps_ids():
    p = np.array([0.1, 0.4, 0.05, 0.3, 0.15], dtype=np.float32)
    ids, probs = top_k(p, 3)
    assert ids.tolist() == [1, 3, 4]
    np.testing.assert_array_equal(probs, p[[1, 3, 4]])


def test_top_k_breaks_ties_by_lower_id_and_clamps_k():
    p = np.array([0.25, 0.25, 0.25, 0.25])
    ids, _ = top_k(p, 10)
    assert ids.tolist() == [0, 1, 2, 3]
    assert top_k(p, 0)[0].tolist() == []


def test_top_k_rejects_a_matrix():
    with pytest.raises(ValueError):
        top_k(np.ones((2, 3)) / 3, 2)


def test_argmax_is_first_of_top_k():
    p = np.array([0.2, 0.5, 0.5, 0.1])
    assert argmax(p) == 1


def test_sample_follows_the_distribution_and_is_reproducible():
    p = np.array([0.0, 0.7, 0.3], dtype=np.float32)
    draws = [sample(p, np.random.default_rng(s)) for s in range(400)]
    assert 0 not in draws  # zero probability is never drawn
    share = draws.count(1) / len(draws)
    assert 0.6 < share < 0.8
    assert sample(p, np.random.default_rng(3)) == sample(p, np.random.default_rng(3))


def test_sample_tolerates_float32_rounding_and_refuses_an_empty_row():
    p = np.full(7, 1 / 7, dtype=np.float32)  # sums to 1 only approximately
    assert 0 <= sample(p, np.random.default_rng(0)) < 7
    with pytest.raises(ValueError):
        sample(np.zeros(3), np.random.default_rng(0))


def test_append_word_joins_with_a_space():
    assert append_token("This is a", 0, "pen", "word") == "This is a pen"
    assert append_token("This is a  ", 0, "pen", "word") == "This is a pen"


def test_append_char_and_bpe_join_without_a_space():
    assert append_token("これはペン", 0, "です", "char") == "これはペンです"
    assert append_token("Hello", 0, " world", "bpe") == "Hello world"


def test_append_targets_the_row_among_non_blank_lines():
    text = "This is\n\na pen\n"
    assert append_token(text, 1, ".", "word") == "This is\n\na pen .\n"
    assert append_token(text, 0, "a", "word") == "This is a\n\na pen\n"
    with pytest.raises(IndexError):
        append_token(text, 2, "x", "word")


def test_join_tokens():
    assert join_tokens(("This", "is", "a"), "word") == "This is a"
    assert join_tokens(("こ", "れ"), "char") == "これ"


def test_top_k_of_a_large_vocabulary_matches_a_full_sort():
    rng = np.random.default_rng(0)
    p = rng.random(50_000).astype(np.float32)
    p[[10, 20, 30]] = p.max() + 1  # ties at the top
    p /= p.sum()
    ids, probs = top_k(p, 7)
    expected = np.argsort(-p.astype(np.float64), kind="stable")[:7]
    assert ids.tolist() == expected.tolist()
    assert ids[:3].tolist() == [10, 20, 30]
    np.testing.assert_array_equal(probs, p[expected])
