"""The tokenizer a GGUF file describes in its metadata, rebuilt with Hugging Face ``tokenizers``.

Byte-level BPE ("gpt2": SmolLM2, Llama 3) gets llama.cpp's pre-tokenizer splits by name; SentencePiece BPE
("llama": Llama 2, TinyLlama) gets its merges back from the token scores. The metadata's lists are checked
first (the tokenizers library panics on items of the wrong type).
"""

from __future__ import annotations

import logging
from typing import Any

from explorer.errors import ModelLoadError
from explorer.tokenize import Tokenizer
from explorer.util.schema import Where, listing, number, text, whole
from explorer.weights.gguf.header import TOKEN_LISTS

log = logging.getLogger(__name__)

_GPT2_SPLIT = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"
_LLAMA3_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
_QWEN2_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
# llama.cpp's pre-tokenizer names (tokenizer.ggml.pre) → the splits it applies before byte-level BPE.
# "smollm" (and the StarCoder family) first isolate every digit, then use GPT-2's split.
_PRE_SPLITS: dict[str, tuple[str, ...]] = {
    "default": (_GPT2_SPLIT,),
    "gpt2": (_GPT2_SPLIT,),
    "gpt-2": (_GPT2_SPLIT,),
    "mpt": (_GPT2_SPLIT,),
    "olmo": (_GPT2_SPLIT,),
    "jais": (_GPT2_SPLIT,),
    "smollm": (r"\p{N}", _GPT2_SPLIT),
    "starcoder": (r"\p{N}", _GPT2_SPLIT),
    "refact": (r"\p{N}", _GPT2_SPLIT),
    "codeshell": (r"\p{N}", _GPT2_SPLIT),
    "command-r": (r"\p{N}", _GPT2_SPLIT),
    "exaone": (r"\p{N}", _GPT2_SPLIT),
    "minerva-7b": (r"\p{N}", _GPT2_SPLIT),
    "llama3": (_LLAMA3_SPLIT,),
    "llama-v3": (_LLAMA3_SPLIT,),
    "llama-bpe": (_LLAMA3_SPLIT,),
    "smaug-bpe": (_LLAMA3_SPLIT,),
    "falcon3": (_LLAMA3_SPLIT,),
    "dbrx": (_LLAMA3_SPLIT,),
    "qwen2": (_QWEN2_SPLIT,),
    "deepseek-r1-qwen": (_QWEN2_SPLIT,),
}

# tokenizer.ggml.token_type values (llama.cpp's llama_token_type)
_CONTROL, _USER_DEFINED = 3, 4


def tokenizer_from_metadata(meta: dict[str, Any], origin: str) -> Tokenizer:
    """The tokenizer a GGUF file describes: byte-level BPE ("gpt2") or SentencePiece BPE ("llama")."""
    check_tokenizer_metadata(meta, origin)
    kind = meta.get("tokenizer.ggml.model")
    tokens = meta.get("tokenizer.ggml.tokens")
    if kind in ("gpt2", "llama") and not tokens:
        raise ModelLoadError(f"{origin}: the tokenizer's vocabulary is missing from the metadata")
    if kind == "gpt2":
        hf = _byte_level_bpe(meta, tokens, origin)
    elif kind == "llama":
        hf = _sentencepiece_bpe(meta, tokens, origin)
    else:
        raise ModelLoadError(
            f"{origin}: tokenizer {kind!r} is not supported; this version reads byte-level BPE ('gpt2', as SmolLM2 "
            "and Llama 3) and SentencePiece BPE ('llama', as Llama 2 and TinyLlama)"
        )
    _add_special_tokens(hf, tokens, meta.get("tokenizer.ggml.token_type") or [])
    if hf.get_vocab_size(with_added_tokens=True) != len(tokens):
        raise ModelLoadError(f"{origin}: the tokenizer's vocabulary has repeated tokens")
    return Tokenizer(hf, "hf")


def _bpe(vocab: dict[str, int], merges: list[tuple[str, str]], origin: str, **options):
    from tokenizers import models

    try:
        return models.BPE(vocab=vocab, merges=merges, **options)
    except Exception as exc:
        raise ModelLoadError(f"{origin}: cannot build the tokenizer ({exc})") from None


def _byte_level_bpe(meta: dict[str, Any], tokens: list[str], origin: str):
    """GPT-2-style BPE over bytes spelled as printable characters, with the file's merges."""
    import tokenizers
    from tokenizers import Regex, decoders, pre_tokenizers, processors

    merges = meta.get("tokenizer.ggml.merges")
    if merges is None:
        raise ModelLoadError(f"{origin}: the tokenizer's merges are missing from the metadata")
    pairs = []
    for m in merges:
        a, sep, b = m.partition(" ")
        if not sep:
            raise ModelLoadError(f"{origin}: malformed tokenizer merge {m!r}")
        pairs.append((a, b))
    hf = tokenizers.Tokenizer(_bpe({t: i for i, t in enumerate(tokens)}, pairs, origin, fuse_unk=False))
    pre = meta.get("tokenizer.ggml.pre") or "default"
    splits = _PRE_SPLITS.get(pre)
    if splits is None:
        log.warning("%s: unknown pre-tokenizer %r, using GPT-2's split", origin, str(pre)[:60])
        splits = _PRE_SPLITS["default"]
    hf.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(s), behavior="isolated") for s in splits]
        + [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]
    )
    hf.decoder = decoders.ByteLevel()
    hf.post_processor = processors.ByteLevel(trim_offsets=False)
    return hf


def _sentencepiece_bpe(meta: dict[str, Any], tokens: list[str], origin: str):
    """SentencePiece BPE (Llama 2, TinyLlama): "▁" marks a space, unknown characters fall back to <0xNN> bytes.

    The file has scores, not merges; the merges are recovered from them: every token that splits into two
    tokens gives a merge, ranked by the merged token's score (higher merges first).
    """
    import tokenizers
    from tokenizers import decoders, pre_tokenizers

    scores = meta.get("tokenizer.ggml.scores")
    vocab = {t: i for i, t in enumerate(tokens)}
    if meta.get("tokenizer.ggml.merges"):
        pairs = [tuple(m.split(" ", 1)) for m in meta["tokenizer.ggml.merges"]]
    else:
        if not scores or len(scores) != len(tokens):
            raise ModelLoadError(f"{origin}: a SentencePiece tokenizer needs tokenizer.ggml.scores for every token")
        found = []
        for token, score in zip(tokens, scores):
            local = [(token[:i], token[i:]) for i in range(1, len(token)) if token[:i] in vocab and token[i:] in vocab]
            local.sort(key=lambda ab: (vocab[ab[0]], vocab[ab[1]]))
            found.extend((a, b, float(score)) for a, b in local)
        found.sort(key=lambda m: (m[2], len(m[0]), len(m[1])), reverse=True)
        pairs = [(a, b) for a, b, _ in found]
    unk_id = meta.get("tokenizer.ggml.unknown_token_id")
    unk = tokens[unk_id] if isinstance(unk_id, int) and 0 <= unk_id < len(tokens) else None
    hf = tokenizers.Tokenizer(_bpe(vocab, pairs, origin, unk_token=unk, fuse_unk=True, byte_fallback=True))
    prefix = bool(meta.get("tokenizer.ggml.add_space_prefix", True))
    hf.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement="\u2581", prepend_scheme="first" if prefix else "never", split=False
    )
    steps = [decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse()]
    if prefix:
        steps.append(decoders.Strip(content=" ", left=1))
    hf.decoder = decoders.Sequence(steps)
    return hf


def _add_special_tokens(hf, tokens: list[str], types: list[int]) -> None:
    """Control tokens (<|im_start|>, <s>) and user-defined ones stay whole instead of being cut into pieces."""
    from tokenizers import AddedToken

    special = [AddedToken(t, special=True, normalized=False) for t, k in zip(tokens, types) if k == _CONTROL]
    user = [AddedToken(t, special=False, normalized=False) for t, k in zip(tokens, types) if k == _USER_DEFINED]
    if special:
        hf.add_special_tokens(special)
    if user:
        hf.add_tokens(user)


def check_tokenizer_metadata(meta: dict[str, Any], origin: str) -> None:
    """The tokenizer's fields: lists of the right item types (the tokenizers library panics on others)."""
    where = Where(origin, ModelLoadError)
    for key, item in (
        ("tokenizer.ggml.model", None),
        ("tokenizer.ggml.pre", None),
        ("tokenizer.ggml.tokens", text),
        ("tokenizer.ggml.merges", text),
        ("tokenizer.ggml.token_type", whole),
        ("tokenizer.ggml.scores", lambda v, f, w: number(v, f, w)),
    ):
        if meta.get(key) is None:
            continue
        if item is None:
            text(meta[key], key, where, 200)
        else:
            listing(meta[key], key, where, item)
    tokens = meta.get("tokenizer.ggml.tokens") or []
    for key in ("tokenizer.ggml.token_type", "tokenizer.ggml.scores"):  # one entry per token (zip cut them short)
        if meta.get(key) is not None and len(meta[key]) != len(tokens):
            raise ModelLoadError(f"{origin}: {key} has {len(meta[key])} entries for {len(tokens)} tokens")
    for key, most in TOKEN_LISTS.items():  # the merges' work grows with the square of a token's length
        longest = max((len(t) for t in meta.get(key) or []), default=0)
        if longest > most:
            raise ModelLoadError(f"{origin}: {key} holds an entry of {longest:,} characters; at most {most:,} are read")
    unk = meta.get("tokenizer.ggml.unknown_token_id")
    if unk is not None:
        whole(unk, "tokenizer.ggml.unknown_token_id", where, hi=max(len(tokens) - 1, 0))
