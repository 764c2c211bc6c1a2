"""One tokenizer type for every kind of vocabulary, wrapping a Hugging Face ``tokenizers.Tokenizer``.

Unknown words become ``<unk>`` (never an exception), and every token keeps the piece of the original text
it came from, so the window can show "pen" rather than "<unk>" and mark it as unknown.
"""

from __future__ import annotations

import json
import os
from functools import cached_property
from pathlib import Path

# Sequential batches: an abandoned slow encode (see _encode_bounded) must not hold the library's shared
# thread pool and stall every later one. Also silences the library's warning after fork. A user's own
# setting wins.
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import tokenizers  # noqa: E402

from explorer.errors import InputError, ModelLoadError
from explorer.tokenize.encoding import Encoded
from explorer.tokenize.encoding import encode_bounded as _encode_bounded
from explorer.tokenize.encoding import valid_unicode as _valid_unicode
from explorer.tokenize.quiet import rust_panics_quiet

PAD = "<pad>"
UNK = "<unk>"


class Tokenizer:
    def __init__(self, hf: tokenizers.Tokenizer, kind: str | None = None, specials: bool = False) -> None:
        # Padding and cutting are the trace's own (a batch padded to its longest row and the padding masked, a
        # sentence cut to the model's context with a note): a tokenizer.json's are dropped, as transformers
        # does unless asked. Its padding fixed at 2,000,000,000 aborted the process; its truncation cut silently.
        hf.no_padding()
        hf.no_truncation()
        self.hf = hf
        self.kind = kind or _infer_kind(hf)
        # An encoder's tokenizer adds its special tokens ([CLS] … [SEP]) and reads two sentences
        # (explorer/tokenize/pairs.py); a decoder's text is traced exactly as typed.
        self.specials = specials
        self.unk_id = hf.token_to_id(UNK)
        if self.unk_id is None:
            self.unk_id = hf.token_to_id("[UNK]")  # BERT's WordPiece
        pad = hf.token_to_id(PAD)
        if pad is None:
            pad = hf.token_to_id("[PAD]")
        # Real models rarely have a pad token: padded keys are masked anyway, so any id will do.
        self.pad_id = pad if pad is not None else (self.unk_id if self.unk_id is not None else 0)

    # ---------------------------------------------------------------- construction and storage
    @classmethod
    def from_str(cls, text: str, kind: str | None = None, origin: str = "tokenizer.json") -> Tokenizer:
        from explorer.tokenize.json_schema import check_tokenizer_json

        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise ModelLoadError(f"cannot read tokenizer: {str(exc)[:200]}") from None
        check_tokenizer_json(data, origin)  # every field the library and the loaders rely on, before building
        if kind is None and isinstance(data.get("model", {}).get("type"), str):
            kind = kind_of(data)  # from the file already read, not from the library's copy of it written out
        try:
            with rust_panics_quiet():
                return cls(tokenizers.Tokenizer.from_str(text), kind)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # plain Exceptions for malformed JSON; a Rust panic is a BaseException
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ModelLoadError(f"cannot read tokenizer: {first[:200]}") from None

    @classmethod
    def from_file(cls, path: str | Path, kind: str | None = None) -> Tokenizer:
        from explorer.util.reading import MAX_TOKENIZER_BYTES, read_bytes

        # Bounded and never blocking: a FIFO or /dev/zero in place of tokenizer.json is one line.
        data = read_bytes(
            path,
            MAX_TOKENIZER_BYTES,
            ModelLoadError,
            "tokenizer.json",
            missing=f"cannot read tokenizer {path}: no such file",
        )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:  # a binary file in its place raised a traceback
            raise ModelLoadError(f"tokenizer {path} is not a tokenizer.json (not UTF-8 text)") from None
        where = Path(path)  # messages name the folder too: the model's, not any tokenizer.json
        return cls.from_str(text, kind, f"{where.parent.name}/{where.name}" if where.parent.name else where.name)

    def check_fits(self, vocab_size: int, segments: int, origin: str) -> None:
        """Every id this tokenizer can give has a row of the model's embedding table (its largest id, not its
        count of entries), and every token type a row of its segment table (``segments`` > 0)."""
        from explorer.tokenize.json_schema import check_ids_fit

        check_ids_fit(json.loads(self.hf.to_str()), origin, vocab_size, segments)

    def to_str(self) -> str:
        return self.hf.to_str()

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_str(), encoding="utf-8")

    # ---------------------------------------------------------------- use
    @property
    def vocab_size(self) -> int:
        return self.hf.get_vocab_size(with_added_tokens=True)

    def token_id(self, token: str) -> int | None:
        """The id of one vocabulary entry spelled as the tokenizer file stores it, or None (also for text that
        is not valid Unicode: an argument's undecodable byte is never an entry, and Rust refuses it)."""
        try:
            token.encode("utf-8")
        except UnicodeEncodeError:
            return None
        return self.hf.token_to_id(token)

    def encode(self, text: str) -> Encoded:
        text = _valid_unicode(text)  # an undecodable byte of an argument: U+FFFD, as the traced text gets it
        if self.specials:
            from explorer.tokenize.pairs import encode_with_specials

            return encode_with_specials(self, text)
        try:
            with rust_panics_quiet():
                enc = _encode_bounded(self.hf, text)
        except (KeyboardInterrupt, SystemExit, InputError):
            raise
        except BaseException as exc:
            # A tokenizer.json whose regex backtracks catastrophically ((a+)+b on "aaaa…!") makes the Rust
            # library panic once its regex engine gives up (Oniguruma's retry limit, which also bounds the
            # time: well under a second). PanicException is a BaseException: uncaught, it killed the window's
            # worker thread and printed 79 lines in the command line.
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise InputError(
                f"the model's tokenizer failed on this text ({first[:160]}); its tokenizer.json may be damaged"
            ) from None
        spans = enc.offsets
        pieces = []
        for k, (tok, (a, b)) in enumerate(zip(enc.tokens, spans)):
            # A byte-level vocabulary may split one character into several tokens (an emoji, a kanji the
            # vocabulary never merged): each then covers the same character, and showing that character on
            # every one of them would read as a repeat. Show such a token's bytes instead ("<0xE7>").
            shared = (k > 0 and spans[k - 1][1] > a) or (k + 1 < len(spans) and spans[k + 1][0] < b)
            if shared:
                pieces.append(self._byte_piece(tok))
            else:
                # The pieces join to the text (explorer.generation.choose.join_tokens relies on it): byte-level BPE's
                # pieces keep the space it glues to the front of a word (" pen").
                pieces.append(text[a:b] if b > a else tok)
        unknown = tuple(self.unk_id is not None and i == self.unk_id for i in enc.ids)
        return Encoded(tuple(enc.ids), tuple(pieces), unknown)

    def _byte_piece(self, tok: str) -> str:
        """How a token that holds part of a character reads: its whole characters, and <0xXX> per loose byte."""
        if not self._byte_level:
            return tok  # e.g. SentencePiece's byte fallback tokens, already spelled "<0xE7>"
        try:
            raw = bytes(_BYTE_OF[c] for c in tok)
        except KeyError:
            return tok
        return _bytes_to_text(raw)

    @cached_property
    def _byte_level(self) -> bool:
        data = json.loads(self.hf.to_str())
        return "ByteLevel" in json.dumps(data.get("pre_tokenizer")) or "ByteLevel" in json.dumps(data.get("decoder"))

    def decode(self, ids: list[int] | tuple[int, ...]) -> str:
        return self.hf.decode(list(ids), skip_special_tokens=False)

    @cached_property
    def _display(self) -> tuple[str, ...]:
        vocab = self.hf.get_vocab(with_added_tokens=True)
        table = [""] * self.vocab_size
        for tok, i in vocab.items():
            if i < len(table):
                table[i] = tok
        if self.kind in ("bpe", "hf"):
            # Byte-level pieces such as "Ġis" read better decoded (" is").
            # A token holding part of a character decodes to "\ufffd": show its bytes instead ("<0xE7>").
            decoded = [self.hf.decode([i], skip_special_tokens=False) or table[i] for i in range(len(table))]
            table = [self._byte_piece(t) if "\ufffd" in d and "\ufffd" not in t else d for t, d in zip(table, decoded)]
        return tuple(table)

    def display_vocab(self) -> tuple[str, ...]:
        """Every token id's display string, in id order (computed once)."""
        return self._display

    def token(self, i: int) -> str:
        """How token id ``i`` reads on its own (for top-k bars and vocabulary tables)."""
        return self._display[i] if 0 <= i < len(self._display) else UNK

    def __repr__(self) -> str:
        return f"Tokenizer(kind={self.kind!r}, vocab_size={self.vocab_size})"


def _gpt2_byte_alphabet() -> dict[str, int]:
    """The printable stand-in character of every byte in byte-level BPE (GPT-2's table), inverted."""
    keep = (
        list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    )
    chars = keep[:]
    extra = 0
    for byte in range(256):
        if byte not in keep:
            keep.append(byte)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): byte for byte, c in zip(keep, chars)}


_BYTE_OF = _gpt2_byte_alphabet()


def _bytes_to_text(raw: bytes) -> str:
    """Whole UTF-8 characters as text, every byte that is not part of one as <0xXX>."""
    out, i = [], 0
    while i < len(raw):
        for width in (1, 2, 3, 4):
            try:
                out.append(raw[i : i + width].decode("utf-8"))
                i += width
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(f"<0x{raw[i]:02X}>")
            i += 1
    return "".join(out)


def _infer_kind(hf: tokenizers.Tokenizer) -> str:
    return kind_of(json.loads(hf.to_str()))


def kind_of(data: dict) -> str:
    """The kind of a parsed tokenizer.json whose model names its type (as the library writes every file)."""
    model = data.get("model", {}).get("type")
    pre = json.dumps(data.get("pre_tokenizer"))
    if model == "WordLevel":
        return "char" if '"Split"' in pre else "word"
    byte_based = "ByteLevel" in pre or data.get("model", {}).get("byte_fallback")
    if (
        model == "BPE"
        and byte_based
        and data.get("added_tokens")
        and any(t.get("content") == UNK for t in data["added_tokens"])
    ):
        return "bpe"
    return "hf"
