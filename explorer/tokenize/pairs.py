"""An encoder's text: its special tokens shown as tokens, and two sentences in one line.

BERT-like models read ``[CLS] sentence A [SEP] sentence B [SEP]`` with a segment (token type) of 0 for A and
1 for B. In the text box a line holds both sentences, parted by the model's separator typed as text
(`` [SEP] `` for BERT and DistilBERT, `` </s> `` for RoBERTa; `` [SEP] `` works for every encoder) or by a
tab. ``[MASK]`` in the text is the mask token (RoBERTa's ``<mask>`` too). The tokenizer's own template (its
``post_processor``) then adds [CLS] and [SEP], exactly as transformers' tokenizer does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from explorer.errors import InputError
from explorer.tokenize.encoding import Encoded, encode_bounded
from explorer.tokenize.quiet import rust_panics_quiet
from explorer.vocab import MASK_TEXT, SENTENCE_SEPARATOR

if TYPE_CHECKING:
    import tokenizers


class Tokenizer(Protocol):
    """What this module needs of explorer.tokenize.tokenizer.Tokenizer (which calls it: no import back)."""

    hf: tokenizers.Tokenizer


MASK = MASK_TEXT  # what a user types for the masked position, whatever the model's own mask token
SEPARATORS = (SENTENCE_SEPARATOR, "</s>", "\t")


def special_token(tokenizer: Tokenizer, *candidates: str) -> str | None:
    """The first of ``candidates`` the vocabulary holds."""
    return next((c for c in candidates if tokenizer.hf.token_to_id(c) is not None), None)


def mask_token(tokenizer: Tokenizer) -> str | None:
    return special_token(tokenizer, "[MASK]", "<mask>")


def split_pair(text: str) -> tuple[str, str | None]:
    """(sentence A, sentence B or None): the line cut at the first separator."""
    cuts = [(text.find(sep), sep) for sep in SEPARATORS if sep in text]
    if not cuts:
        return text, None
    at, sep = min(cuts)
    second = text[at + len(sep) :].strip()
    return text[:at].strip(), (second or None)


def encode_with_specials(tokenizer: Tokenizer, text: str) -> Encoded:
    """The ids, the pieces (special tokens as themselves) and the segments of one line of an encoder's text."""
    mask = mask_token(tokenizer)
    if mask is not None and mask != MASK:
        text = text.replace(MASK, mask)
    first, second = split_pair(text)
    try:
        with rust_panics_quiet():
            enc = encode_bounded(tokenizer.hf, (first, second) if second is not None else first, add_special=True)
    except (KeyboardInterrupt, SystemExit, InputError):
        raise
    except BaseException as exc:  # a Rust panic included, as Tokenizer.encode says
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(
            f"the model's tokenizer failed on this text ({first_line[:160]}); its tokenizer.json may be damaged"
        ) from None
    texts = (first, second or "")
    pieces = []
    for tok, sequence, (a, b) in zip(enc.tokens, enc.sequence_ids, enc.offsets):
        pieces.append(texts[sequence][a:b] if sequence is not None and b > a else tok)
    unknown = tuple(tokenizer.unk_id is not None and i == tokenizer.unk_id for i in enc.ids)
    return Encoded(tuple(enc.ids), tuple(pieces), unknown, tuple(enc.type_ids))
