"""The classroom and japanese presets' vocabularies: subwords with bytes beneath them, so no text is unknown.

* any Unicode string (every scalar value; lone surrogates are not text and cannot be UTF-8) encodes with
  zero unknown tokens and decodes back to itself;
* the chips show pieces of what was typed: a whole-character piece is a substring of the text, and a
  token that holds part of a character shows its bytes (<0xE7>), which are that character's UTF-8 bytes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.weights.presets import get_preset, load_preset, preset_tokenizer

SUBWORD_PRESETS = ("classroom", "japanese")
BYTE = re.compile(r"<0x([0-9A-F]{2})>")


def _tok(name):
    return preset_tokenizer(get_preset(name).tokenizer)


@pytest.mark.parametrize("name", SUBWORD_PRESETS)
def test_the_preset_uses_a_subword_vocabulary(name):
    tok = load_preset(name).tokenizer
    assert tok.kind == "bpe"
    assert tok.to_str() == _tok(name).to_str()  # the shipped model carries the vocabulary it was trained with


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(st.characters(codec="utf-8"), max_size=40), name=st.sampled_from(SUBWORD_PRESETS))
def test_any_text_round_trips_with_no_unknown_token(text, name):
    tok = _tok(name)
    enc = tok.encode(text)
    assert not any(enc.unknown)
    assert tok.unk_id not in enc.ids
    assert all(0 <= i < tok.vocab_size for i in enc.ids)
    assert tok.decode(enc.ids) == text
    assert (len(enc) == 0) == (text == "")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(st.characters(codec="utf-8"), min_size=1, max_size=20), name=st.sampled_from(SUBWORD_PRESETS))
def test_every_chip_is_a_piece_of_the_text_or_its_bytes(text, name):
    enc = _tok(name).encode(text)
    utf8 = text.encode("utf-8")
    for piece in enc.tokens:
        assert piece != "<unk>"
        loose = bytes(int(h, 16) for h in BYTE.findall(piece))
        whole = BYTE.sub("", piece)
        if loose:
            assert loose in utf8, (piece, text)  # the very bytes of the text, in order
        if whole and not loose:
            assert whole in text, (piece, text)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("classroom", "The students are learning how attention works in a transformer ."),
        ("classroom", "the cat sat on the mat and the dog barked"),
        ("classroom", "Attention 😀 naïve café 東京 Ελληνικά"),
        ("japanese", "これはペンです。"),
        ("japanese", "東京タワーで 😀 Hello!"),
    ],
)
def test_the_issue_sentences_have_no_unknown_words(name, text):
    tok = _tok(name)
    enc = tok.encode(text)
    assert not any(enc.unknown) and tok.decode(enc.ids) == text


def test_english_words_are_whole_pieces_and_a_split_character_shows_its_bytes():
    tok = _tok("classroom")
    enc = tok.encode("The cat sat on the mat and the dog.")
    assert enc.tokens == ("The", " cat", " sat", " on", " the", " mat", " and", " the", " dog", ".")
    # 😀 is F0 9F 98 80 in UTF-8: the English vocabulary holds no merge for it, so four byte tokens.
    assert tok.encode("😀").tokens == ("<0xF0>", "<0x9F>", "<0x98>", "<0x80>")


def test_japanese_pieces_are_whole_characters_and_unseen_kanji_fall_back_to_bytes():
    tok = _tok("japanese")
    for kana in "あいうえおカタカナー。":
        assert tok.encode(kana).tokens == (kana,)
    enc = tok.encode("これはペンです。")
    assert "".join(enc.tokens) == "これはペンです。"
    # 鬱 (E9 AC B1) is not in the corpus: its three bytes, never <unk>.
    assert tok.encode("鬱").tokens == ("<0xE9>", "<0xAC>", "<0xB1>")
    assert tok.token(tok.encode("鬱").ids[0]) == "<0xE9>"  # the vocabulary table shows the byte, not "\ufffd"


def test_the_shipped_vocabularies_equal_a_fresh_build():
    from explorer.train.build_tokenizers import build_all
    from explorer.util.paths import resource

    built = build_all()
    for name in ("bpe-english.json", "bpe-ja.json"):
        assert built[name].to_str() == resource("tokenizers", name).read_text(encoding="utf-8"), name


ENGLISH_SOURCES = (  # a file of each Debian package the english corpus is extracted from
    "/usr/share/wordnet/data.noun",
    "/usr/share/games/fortunes/fortunes",
    "/usr/share/games/fortunes/cookie",
    "/usr/share/dictd/devil.dict.dz",
    "/usr/lib/R/site-library/janeaustenr/data/Rdata.rdb",
)


@pytest.mark.skipif(
    not all(Path(p).is_file() for p in ENGLISH_SOURCES),
    reason="needs the Debian packages wordnet-base, fortunes-min, fortunes, dict-devil and r-cran-janeaustenr",
)
def test_the_english_corpus_is_extracted_again_byte_for_byte(tmp_path):
    from explorer.train.corpora_english import write
    from explorer.util.paths import resource

    counts = write(tmp_path)
    assert counts == {
        "train.txt": 48_152,
        "heldout.txt": 431,
        "glosses.txt.gz": 126_482,
        "fortunes.txt.gz": 26_063,
        "devil.txt.gz": 2_116,
        "austen.txt.gz": 35_982,
    }
    for name in (*counts, "LICENSE.txt"):
        assert (tmp_path / name).read_bytes() == resource("corpora", "english", name).read_bytes(), name
