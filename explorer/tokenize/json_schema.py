"""tokenizer.json's schema, checked before the tokenizers library builds it: ids whole numbers, the normalizer
made of known kinds that cannot multiply the text (its padding and truncation are not used: see
explorer/tokenize/tokenizer.py); and ``largest_ids``, the largest
token id and token type anywhere in the file (vocabulary, added tokens, the template's special tokens), which
the loaders compare with the model's embeddings (``check_ids_fit``).

A vocabulary's size is its largest id + 1, not its count of entries: an encoder template's [SEP] at id 999
of a 50-row table passed a count and ended in IndexError. A normalizer that replaces a character by a
thousand reached 7 GB on a pasted text: the tokenizer's time limit does not bound memory, so each normalizer's
worst growth is multiplied out here and refused above ``MAX_GROWTH``.
"""

from __future__ import annotations

from typing import Any

from explorer.errors import ModelLoadError
from explorer.util.schema import LARGEST, Where, listing, mapping, text, whole

MAX_GROWTH = 64  # how many times longer (in UTF-8 bytes) a normalizer may make the text: 200,000 characters
# then take about 0.5 GB in the tokenizers library, which keeps an alignment per byte
MODELS = ("BPE", "WordPiece", "WordLevel", "Unigram")
# Normalizers by the most one character can become (NFKC: U+FDFA is 18 characters; NFD 4, NFC 3; Lowercase:
# "İ" is 2; BertNormalizer puts spaces around CJK characters; ByteLevel spells a 4-byte character as 4).
GROWTH = {
    "NFC": 3,
    "NFD": 4,
    "NFKC": 18,
    "NFKD": 18,
    "Lowercase": 2,
    "Strip": 1,
    "StripAccents": 1,
    "Nmt": 1,
    "BertNormalizer": 3,
    "ByteLevel": 4,
    "Precompiled": 4,
    "Prepend": 1,  # its text (at most 1,000 characters) is added once, not per character
}


def check_tokenizer_json(data: Any, origin: str) -> None:
    """The fields of a parsed tokenizer.json that the loaders and the tokenizer rely on; ModelLoadError naming
    the first that is wrong."""
    where = Where(origin, ModelLoadError)
    data = mapping(data, "tokenizer.json", where)
    model = mapping(data.get("model"), "model", where)
    kind = model.get("type", "BPE" if "merges" in model else None)
    if kind not in MODELS:
        raise where.fail(f"model.type {str(kind)[:40]!r} is not supported ({', '.join(MODELS)})")
    for i, token in enumerate(listing(data.get("added_tokens") or [], "added_tokens", where, mapping)):
        whole(token.get("id"), f"added_tokens[{i}].id", where)
        text(token.get("content"), f"added_tokens[{i}].content", where, 10_000)
    if data.get("normalizer") is not None:
        growth = _growth(data["normalizer"], "normalizer", where)
        if growth > MAX_GROWTH:
            raise where.fail(
                f"normalizer can make the text {growth:,} times longer (at most {MAX_GROWTH} are read): "
                "a replacement longer than what it replaces?"
            )
    largest_ids(data, origin)  # every id and type id a whole number in range


def _growth(value: Any, field: str, where: Where) -> int:
    """How many times longer the normalizer at ``field`` can make a text, at most."""
    block = mapping(value, field, where)
    kind = block.get("type")
    if kind == "Sequence":
        total = 1
        for i, part in enumerate(listing(block.get("normalizers"), f"{field}.normalizers", where, mapping, 100)):
            total *= _growth(part, f"{field}.normalizers[{i}]", where)
        return total
    if kind == "Replace":
        content = len(text(block.get("content"), f"{field}.content", where, 1000).encode("utf-8"))
        pattern = mapping(block.get("pattern"), f"{field}.pattern", where)
        literal = pattern.get("String")
        if isinstance(literal, str) and literal:
            return max(1, -(-content // len(literal.encode("utf-8"))))
        return content + 1  # a regex may match one byte's character, or the empty string between two
    if kind == "Prepend":
        text(block.get("prepend"), f"{field}.prepend", where, 1000)
    if isinstance(kind, str) and kind in GROWTH:
        return GROWTH[kind]
    raise where.fail(f"{field}.type {str(kind)[:40]!r} is not a normalizer this version knows")


def largest_ids(data: dict, origin: str) -> tuple[tuple[int, str], tuple[int, str]]:
    """((largest token id, where it is), (largest token type, where it is)) over the whole file."""
    where = Where(origin, ModelLoadError)
    ids: list[tuple[int, str]] = [(-1, "model.vocab")]
    types: list[tuple[int, str]] = [(0, "post_processor")]
    model = data.get("model") or {}
    vocab = model.get("vocab")
    if isinstance(vocab, dict):
        values = vocab.values()
        if values and all(type(i) is int for i in values) and 0 <= min(values) and max(values) <= LARGEST:
            ids.append((max(values), "model.vocab"))  # the usual file: one pass, no message to build per token
        else:  # the entry at fault is named
            for token, i in vocab.items():
                ids.append((whole(i, f"model.vocab[{str(token)[:40]!r}]", where), "model.vocab"))
    elif isinstance(vocab, list):  # Unigram: [piece, score] in id order
        ids.append((len(vocab) - 1, "model.vocab"))
        if model.get("unk_id") is not None:
            whole(model["unk_id"], "model.unk_id", where, hi=max(len(vocab) - 1, 0))
    for i, token in enumerate(data.get("added_tokens") or []):
        ids.append((whole(token.get("id"), f"added_tokens[{i}].id", where), f"added_tokens[{i}]"))
    if data.get("post_processor") is not None:
        _template_ids(data["post_processor"], "post_processor", where, ids, types)
    return max(ids), max(types)


def _template_ids(value: Any, field: str, where: Where, ids: list, types: list) -> None:
    block = mapping(value, field, where)
    kind = block.get("type")
    if kind == "Sequence":
        for i, part in enumerate(listing(block.get("processors"), f"{field}.processors", where, mapping, 100)):
            _template_ids(part, f"{field}.processors[{i}]", where, ids, types)
    elif kind in ("BertProcessing", "RobertaProcessing"):
        for part in ("sep", "cls"):
            pair = listing(block.get(part), f"{field}.{part}", where, lambda v, f, w: v, 2)
            if len(pair) != 2:
                raise where.fail(f"{field}.{part} must be [token, id]")
            ids.append((whole(pair[1], f"{field}.{part}[1]", where), f"{field}.{part}"))
        types.append((1 if kind == "BertProcessing" else 0, f"{field} (a pair's second sentence)"))
    elif kind == "TemplateProcessing":
        specials = mapping(block.get("special_tokens") or {}, f"{field}.special_tokens", where)
        for name, special in specials.items():
            name = f"{field}.special_tokens[{str(name)[:40]!r}]"
            special = mapping(special, name, where)
            for i in listing(special.get("ids"), f"{name}.ids", where, whole):
                ids.append((i, name))
        for piece_list in ("single", "pair"):
            for i, piece in enumerate(listing(block.get(piece_list) or [], f"{field}.{piece_list}", where, mapping)):
                for part in piece.values():
                    part = mapping(part, f"{field}.{piece_list}[{i}]", where)
                    kind_id = whole(part.get("type_id", 0), f"{field}.{piece_list}[{i}].type_id", where)
                    types.append((kind_id, f"{field}.{piece_list}[{i}].type_id"))


def check_ids_fit(data: dict, origin: str, vocab_size: int, segments: int = 0) -> None:
    """Every id of the tokenizer has a row of the embedding table, and (for a model with a segment table,
    ``segments`` > 0) every token type a row of it."""
    (token, token_at), (kind, kind_at) = largest_ids(data, origin)
    if token >= vocab_size:
        raise ModelLoadError(
            f"{origin}: {token_at} has token id {token:,}, past the model's {vocab_size:,} embeddings"
            f" (ids 0 to {vocab_size - 1:,})"
        )
    if segments and kind >= segments:
        raise ModelLoadError(
            f"{origin}: {kind_at} gives token type {kind}, past the model's {segments} token types (type_vocab_size)"
        )
