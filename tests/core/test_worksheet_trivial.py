"""A worksheet refuses a sentence whose exercises would be trivial (issue 38): on seed-toy a Japanese sentence
became one or two <unk>, every score of the query's row was the same, and every exercise had the same answer
for every key. Trivial: the query the exercises use sees fewer than two keys whose scores differ at the
printed digits."""

from __future__ import annotations

import numpy as np
import pytest

from explorer import names
from explorer.errors import TrivialWorksheet
from explorer.handouts.worksheet import worksheet, worksheet_trace


@pytest.mark.parametrize(
    "text, keys, unknown",
    [
        ("猫が好きです", 1, 1),  # one run of CJK: one unknown word, one key
        ("猫 犬", 2, 2),  # two different unknown words: both <unk>, the same vector
        ("the the", 2, 0),  # the same word twice
        ("the", 1, 0),
    ],
)
def test_a_trivial_sentence_is_refused_with_why(text, keys, unknown):
    trace = worksheet_trace(text)
    with pytest.raises(TrivialWorksheet) as refused:
        worksheet(trace)
    assert (refused.value.keys, refused.value.unknown) == (keys, unknown)
    i = refused.value.query
    row = np.asarray(trace[names.attn(0, "scores")][0, 0, i, : i + 1])
    assert np.allclose(row, row[0])  # the definition holds: every key the query sees scores the same


def test_two_different_known_words_make_a_worksheet():
    trace = worksheet_trace("the cat sat")
    assert not any(trace.rows[0].unknown)
    assert len(worksheet(trace)) == 7
