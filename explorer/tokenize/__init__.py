"""Text → token ids: word-level, character-level and byte-level BPE, all on Hugging Face ``tokenizers``."""

from explorer.tokenize.builders import bpe_tokenizer, char_tokenizer, word_tokenizer
from explorer.tokenize.tokenizer import Encoded, Tokenizer

__all__ = ["Encoded", "Tokenizer", "word_tokenizer", "char_tokenizer", "bpe_tokenizer"]
