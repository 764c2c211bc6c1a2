"""Issue 40 item 2: tokens of two runs matched by the characters they cover. The spans read back from a
trace's Row are checked against the tokenizer's own offsets; the units against partitions worked out by hand;
the gathering against sums written out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.compare import align, gather, token_spans
from explorer.compare.align import NO_CHARACTERS, NOT_COVERED, SHARED, TEXT_ONE_SIDE
from explorer.trace import Row
from explorer.weights.presets import preset_tokenizer

TEXTS = ("The animal didn't cross it, 私は  ok.", "これはペンです。", "a  b\tc", "naïve café 🙂!")
VOCABULARIES = ("words-en.json", "bpe-english.json", "bpe-en.json", "letters.json", "chars-ja.json", "bpe-ja.json")


def row(tokens: list[str], text: str | None = None) -> Row:
    text = "".join(tokens) if text is None else text
    n = len(tokens)
    return Row(text, tuple(tokens), tuple(range(n)), (False,) * n)


def encoded_row(vocabulary: str, text: str) -> tuple[Row, list[tuple[int, int]]]:
    tok = preset_tokenizer(vocabulary)
    enc = tok.encode(text)
    offsets = tok.hf.encode(text).offsets  # the tokenizer's own record, not the Row's pieces
    return Row(text, enc.tokens, enc.ids, enc.unknown), offsets


@pytest.mark.parametrize("vocabulary", VOCABULARIES)
@pytest.mark.parametrize("text", TEXTS)
def test_spans_read_from_the_row_are_the_tokenizers_offsets(vocabulary, text):
    r, offsets = encoded_row(vocabulary, text)
    spans = token_spans(r)
    for k, ((a, b), span) in enumerate(zip(offsets, spans)):
        if r.tokens[k].startswith("<0x"):  # a byte of a character: within that character's offsets
            assert span is not None and a <= span[0] < span[1] <= b, (k, r.tokens[k], span, (a, b))
        else:
            assert span == (a, b), (k, r.tokens[k], span, (a, b))


def test_byte_pieces_are_placed_on_the_character_they_spell():
    r = row(["x", " ", "<0xE7>", "<0xA7>", "<0x81>", "<0xE3>", "<0x81>", "<0xAF>"], "x 私は")
    assert token_spans(r) == ((0, 1), (1, 2), (2, 3), (2, 3), (2, 3), (3, 4), (3, 4), (3, 4))


def test_special_tokens_have_no_characters_and_are_paired_only_with_their_twin():
    a = row(["<s>", "The", " cat"], "The cat")
    b = row(["[CLS]", "The", " cat", "[SEP]"], "The cat")
    assert token_spans(b) == (None, (0, 3), (3, 7), None)
    units = align(a, b).units
    specials = [u for u in units if u.why == NO_CHARACTERS]
    assert [(u.a, u.b) for u in specials] == [((0,), ()), ((), (0,)), ((), (3,))]
    twin = align(a, row(["<s>", "The", " cat"], "The cat")).units
    assert (twin[0].a, twin[0].b, twin[0].why) == ((0,), (0,), SHARED)


def test_two_tokenizations_of_one_text_meet_on_the_fewest_tokens_covering_the_same_characters():
    a = row(["The", " anim", "al", " did", "n't"])  # byte-level BPE, spaces glued to the front
    b = row(["The", "animal", "didn", "'", "t"], "The animal didn't")  # word-level: spaces dropped
    units = align(a, b).units
    assert [(u.a, u.b) for u in units] == [((0,), (0,)), ((1, 2), (1,)), ((3, 4), (2, 3, 4))]
    assert all(u.why == SHARED for u in units)


def test_a_space_token_the_other_side_skips_is_one_sided_never_dropped():
    a = row(["a", " ", "b"])  # letters: the space is a token
    b = row(["a", "b"], "a b")  # words: no token covers the space
    units = align(a, b).units
    assert [(u.a, u.b, u.why) for u in units] == [((0,), (0,), SHARED), ((1,), (), NOT_COVERED), ((2,), (1,), SHARED)]


def test_two_sentences_align_on_their_common_words_and_list_the_changed_ones():
    a = row(["it", " was", " tired", "."])
    b = row(["it", " was", " w", "ide", "."])
    alignment = align(a, b)
    assert [(u.a, u.b, u.why) for u in alignment.units] == [
        ((0,), (0,), SHARED),
        ((1,), (1,), SHARED),
        ((2,), (), TEXT_ONE_SIDE),
        ((), (2,), TEXT_ONE_SIDE),  # each token keeps its own row: only the bytes of one character share one
        ((), (3,), TEXT_ONE_SIDE),
        ((3,), (4,), SHARED),
    ]
    assert [u.text for u in alignment.one_sided("a")] == [" tired"]
    assert [u.text for u in alignment.one_sided("b")] == [" w", "ide"]


def test_gathered_cells_sum_over_keys_and_average_over_queries():
    a = row(["x", "ab", "c"])
    b = row(["x", "a", "bc"])
    alignment = align(a, b)
    assert [(u.a, u.b) for u in alignment.units] == [((0,), (0,)), ((1, 2), (1, 2))]
    w = np.array([[1.0, 0, 0], [0.5, 0.5, 0], [0.2, 0.3, 0.5]])
    allowed = np.tril(np.ones((3, 3), bool))
    g = gather(alignment, "a", w, allowed)
    # row "ab c": the mean of rows 1 and 2; column "ab c": the sum of columns 1 and 2
    assert np.allclose(g.values, [[1.0, 0.0], [(0.5 + 0.2) / 2, (0.5 + 0.3 + 0.5) / 2]], atol=0)
    assert g.blocked.tolist() == [[False, True], [False, False]]
    assert np.allclose(g.values.sum(axis=1), 1.0)


def test_a_unit_a_side_lacks_is_nan_on_that_side():
    a = row(["it", " tired"])
    b = row(["it", " wide"])
    alignment = align(a, b)
    g = gather(alignment, "a", np.array([[1.0, 0], [0.25, 0.75]]), np.tril(np.ones((2, 2), bool)))
    wide = [i for i, u in enumerate(alignment.units) if not u.a][0]
    assert np.isnan(g.values[wide]).all() and np.isnan(g.values[:, wide]).all()
    assert np.nansum(g.values, axis=1)[[i for i, u in enumerate(alignment.units) if u.a]].tolist() == [1.0, 1.0]
