"""Where a token's piece lies in the text box and what replacing or removing it writes (explorer.session.token_edit),
checked against texts written out by hand, for word-level and byte-level (subword) pieces."""

from __future__ import annotations

from explorer.session.token_edit import edit_token, editable_text, token_span
from explorer.trace.run import run_trace
from explorer.weights.presets import load_preset

WORDS = ("This", "is", "a", "pen", ".")


def test_spans_skip_blank_lines_and_leading_spaces():
    text = "\n  first line\n\nThis is a pen ."
    assert token_span(text, 1, WORDS, 3) == (text.index("pen"), text.index("pen") + 3)
    assert token_span(text, 1, WORDS, 3, traced="This is a pen .") is not None
    assert token_span(text, 1, WORDS, 3, traced="This is a cat .") is None  # the box changed since the trace
    assert token_span(text, 2, WORDS, 0) is None  # no third sentence


def test_word_level_replace_and_remove():
    text = "This is a pen .\nsecond"
    assert edit_token(text, 0, WORDS, 3, "cat", "word").apply(text) == "This is a cat .\nsecond"
    assert edit_token(text, 0, WORDS, 1, "", "word").apply(text) == "This a pen .\nsecond"
    assert edit_token(text, 0, WORDS, 0, "  ", "word").apply(text) == "is a pen .\nsecond"  # blank removes too


def test_subword_pieces_keep_their_space_and_byte_tokens_have_no_span():
    bundle = load_preset("classroom")
    row = run_trace(bundle, "This is a pen .").rows[0]
    assert row.tokens[3] == " pen" and editable_text(row.tokens[3]) == "pen"
    text = "This is a pen ."
    assert edit_token(text, 0, row.tokens, 3, "cat", "bpe").apply(text) == "This is a cat ."
    assert edit_token(text, 0, row.tokens, 3, "", "bpe").apply(text) == "This is a ."
    kana = run_trace(bundle, "これはペン").rows[0]
    assert kana.tokens[0].startswith("<0x")  # one byte of a character: not a run of the text
    assert edit_token("これはペン", 0, kana.tokens, 0, "x", "bpe") is None
