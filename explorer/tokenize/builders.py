"""Build the three kinds of vocabulary from text. The shipped ones are built by explorer/train/build_tokenizers.py."""

from __future__ import annotations

import json
from collections.abc import Iterable

import tokenizers
from tokenizers import Regex, decoders, models, pre_tokenizers, trainers

from explorer.tokenize.tokenizer import PAD, UNK, Tokenizer

SPECIALS = (PAD, UNK)


def _vocab(items: Iterable[str]) -> dict[str, int]:
    vocab = {tok: i for i, tok in enumerate(SPECIALS)}
    for item in items:
        if item not in vocab:
            vocab[item] = len(vocab)
    return vocab


def word_tokenizer(words: Iterable[str]) -> Tokenizer:
    """Words and punctuation marks are tokens: "This is a pen ." → This | is | a | pen | ."""
    hf = tokenizers.Tokenizer(models.WordLevel(_vocab(words), unk_token=UNK))
    hf.pre_tokenizer = pre_tokenizers.Whitespace()  # \w+ | [^\w\s]+
    hf.decoder = decoders.WordPiece(prefix="##", cleanup=True)  # joins with spaces, tidies " ." → "."
    return Tokenizer(hf, "word")


def char_tokenizer(chars: Iterable[str]) -> Tokenizer:
    """Every character is a token (spaces too): works for Japanese, which has no spaces between words."""
    hf = tokenizers.Tokenizer(models.WordLevel(_vocab(c for c in chars if c != "\n"), unk_token=UNK))
    hf.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    hf.decoder = decoders.Fuse()
    return Tokenizer(hf, "char")


def bpe_tokenizer(lines: Iterable[str], vocab_size: int = 1000) -> Tokenizer:
    """Byte-level BPE (as GPT-2): any text encodes, because every byte is in the base alphabet."""
    hf = tokenizers.Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(SPECIALS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    hf.train_from_iterator(list(lines), trainer=trainer)
    return Tokenizer(hf, "bpe")


BYTE_TOKENS = tuple(f"<0x{b:02X}>" for b in range(256))


def char_bpe_tokenizer(lines: Iterable[str], vocab_size: int = 1000, max_token_length: int | None = 2) -> Tokenizer:
    """BPE over characters with byte fallback (as Llama's SentencePiece vocabularies): pieces are always
    whole characters, and a character the vocabulary lacks becomes its UTF-8 bytes (<0xE6> <0x9D> <0xB1>),
    so any text encodes and nothing is unknown. Byte-level BPE would instead merge bytes across character
    boundaries in Japanese (a token "昨" + half of "日"). ``max_token_length`` is in characters.
    ``vocab_size`` counts the 256 byte tokens."""
    hf = tokenizers.Tokenizer(models.BPE())
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size - len(BYTE_TOKENS),
        special_tokens=list(SPECIALS),
        show_progress=False,
        max_token_length=max_token_length,
    )
    hf.train_from_iterator(list(lines), trainer=trainer)
    data = json.loads(hf.to_str())
    vocab = data["model"]["vocab"]
    for tok in BYTE_TOKENS:  # after the trained pieces, so that the frequent ones keep small ids
        vocab.setdefault(tok, len(vocab))
    data["model"]["byte_fallback"] = True
    data["decoder"] = {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Fuse"}]}
    return Tokenizer(tokenizers.Tokenizer.from_str(json.dumps(data, ensure_ascii=False)), "bpe")
