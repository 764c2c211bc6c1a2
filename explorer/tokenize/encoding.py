"""One encoding, bounded: what a tokenizer gives for a text (``Encoded``) and the call into the tokenizer
library that is given up after ``ENCODE_SECONDS``. Shared by explorer/tokenize/tokenizer.py and pairs.py
(an encoder's special tokens), which import it and not each other."""

from __future__ import annotations

from dataclasses import dataclass

import tokenizers

from explorer.errors import InputError
from explorer.tokenize.guard import TimedOut, call_bounded


@dataclass(frozen=True)
class Encoded:
    ids: tuple[int, ...]
    tokens: tuple[str, ...]  # the piece of the text each token covers (what a person typed)
    unknown: tuple[bool, ...]  # True where the piece is not in the vocabulary
    segments: tuple[int, ...] | None = None  # an encoder's token types: 0 in sentence A, 1 in sentence B

    def __len__(self) -> int:
        return len(self.ids)


# A tokenizer.json comes from anywhere: its regexes can backtrack for minutes on 200,000 characters without
# ever reaching the regex engine's retry limit (which turns the worst cases into a panic, caught above).
ENCODE_SECONDS = 10.0


def valid_unicode(text: str) -> str:
    """Lone surrogates (bytes of an argument that were not UTF-8) as U+FFFD: the tokenizer library refused
    them with a TypeError that read as a damaged tokenizer.json."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)


def encode_bounded(hf: tokenizers.Tokenizer, text, add_special: bool = False):
    """hf.encode(text) given at most ENCODE_SECONDS (``text`` may be a pair of sentences). encode_batch
    releases the GIL (encode holds it), so one of the guard's reused helper threads runs it while this one
    waits (explorer/tokenize/guard.py); one that is still busy is abandoned (it cannot be stopped) and the
    text refused, instead of a window or command that waits without end."""
    try:
        return call_bounded(lambda: hf.encode_batch([text], add_special_tokens=add_special)[0], ENCODE_SECONDS)
    except TimedOut:
        raise InputError(
            f"the model's tokenizer took more than {ENCODE_SECONDS:g} s on this text and was given up "
            "(a pattern in its tokenizer.json that backtracks?); try a shorter text or another model"
        ) from None
