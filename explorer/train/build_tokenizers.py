"""Build the shipped vocabularies in resources/tokenizers/ from the shipped corpora.

    python -m explorer.train.build_tokenizers

Word and character vocabularies are ordered by frequency (ties alphabetically), so the build is
reproducible; a test checks that the committed files equal a fresh build.
"""

from __future__ import annotations

import string
from collections import Counter
from pathlib import Path

from explorer.tokenize.builders import bpe_tokenizer, char_bpe_tokenizer, char_tokenizer, word_tokenizer
from explorer.tokenize.tokenizer import Tokenizer
from explorer.train.corpora import read_lines
from explorer.util.paths import resource

HIRAGANA = [chr(c) for c in range(0x3041, 0x3097)]
KATAKANA = [chr(c) for c in range(0x30A1, 0x30FB)] + ["ー"]
JA_PUNCT = list("、。「」！？・（）")
ENGLISH_VOCAB = 16384  # the classroom preset: big enough that ordinary words are whole tokens (issue 38: ≥ 97 %)
JAPANESE_VOCAB = 1000  # every kana and the corpus's kanji as single tokens, and its frequent pairs
JAPANESE_MAX_CHARS = 2  # at most two characters a token: the chips stay readable pieces, not phrases
EXTRA_REPEATS = 20  # copies of each added character: enough for BPE to merge its bytes into one token


def _lines(corpus: str) -> list[str]:
    out = []
    for split in ("train", "heldout"):
        out += resource("corpora", corpus, f"{split}.txt").read_text(encoding="utf-8").splitlines()
    return [l for l in out if l.strip()]


def _by_frequency(counter: Counter) -> list[str]:
    return [tok for tok, _ in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]


def build_all() -> dict[str, Tokenizer]:
    en = _lines("tiny-en")
    ja = _lines("tiny-ja")
    words = Counter(
        w for line in en for w in word_tokenizer([]).hf.pre_tokenizer.pre_tokenize_str(line) for w in [w[0]]
    )
    word_tok = word_tokenizer(_by_frequency(words) + [p for p in string.punctuation if p not in words])
    ja_chars = Counter(ch for line in ja for ch in line)
    extra = HIRAGANA + KATAKANA + JA_PUNCT + list(string.ascii_letters + string.digits + string.punctuation + " ")
    char_tok = char_tokenizer(_by_frequency(ja_chars) + [c for c in extra if c not in ja_chars])
    letters = char_tokenizer(string.ascii_lowercase)
    bpe = bpe_tokenizer([l for l in en if l], vocab_size=1000)
    # The presets' vocabularies: subwords with bytes beneath them, so that no text is ever unknown (English:
    # byte-level BPE; Japanese: character BPE with byte fallback). The ASCII characters, the kana and the
    # Japanese punctuation are added, repeated, so that each is one token even where the corpus never uses
    # it; any other character the vocabulary lacks falls back to its UTF-8 bytes.
    english = _english_training_lines()
    bpe_english = bpe_tokenizer(english + list(string.printable.strip()) * EXTRA_REPEATS, vocab_size=ENGLISH_VOCAB)
    ja_train = read_lines("tiny-ja/train.txt")  # not the held-out sentences the preset is scored on
    ja_extra = (HIRAGANA + KATAKANA + JA_PUNCT) * EXTRA_REPEATS
    bpe_ja = char_bpe_tokenizer(ja_train + ja_extra, vocab_size=JAPANESE_VOCAB, max_token_length=JAPANESE_MAX_CHARS)
    return {
        "words-en.json": word_tok,
        "chars-ja.json": char_tok,
        "letters.json": letters,
        "bpe-en.json": bpe,
        "bpe-english.json": bpe_english,
        "bpe-ja.json": bpe_ja,
    }


def _english_training_lines() -> list[str]:
    """The training text of the ``english`` corpus (never its held-out cookies)."""
    from explorer.train.corpora import SHIPPED_FILES

    return [line for rel in SHIPPED_FILES["english"][0] for line in read_lines(rel)]


def main() -> None:
    out = resource("tokenizers")
    out.mkdir(parents=True, exist_ok=True)
    for name, tok in build_all().items():
        tok.save(Path(out, name))
        print(f"{name}: {tok.kind}, {tok.vocab_size} tokens")


if __name__ == "__main__":
    main()
