"""A Hugging Face folder's tokenizer: tokenizer.json, or GPT-2's older vocab.json + merges.txt."""

from __future__ import annotations

from pathlib import Path

from explorer.errors import ModelLoadError
from explorer.tokenize import Tokenizer
from explorer.util.reading import is_regular
from explorer.weights.hf.files import first_line


def load_hf_tokenizer(folder: Path, specials: bool = False) -> Tokenizer:
    """tokenizer.json, or GPT-2's older vocab.json + merges.txt pair. ``specials``: an encoder's, which adds
    [CLS] and [SEP] and reads two sentences (explorer/tokenize/pairs.py)."""
    tj = folder / "tokenizer.json"
    if is_regular(tj, ModelLoadError):
        tokenizer = Tokenizer.from_file(tj, kind="hf")
        tokenizer.specials = specials
        return tokenizer
    vocab, merges = folder / "vocab.json", folder / "merges.txt"
    if is_regular(vocab, ModelLoadError) and is_regular(merges, ModelLoadError):
        import tokenizers
        from tokenizers import decoders, models, pre_tokenizers, processors

        try:
            bpe = models.BPE.from_file(str(vocab), str(merges))
        except Exception as exc:
            raise ModelLoadError(f"cannot read {vocab.name} / {merges.name}: {first_line(exc)}") from None
        hf = tokenizers.Tokenizer(bpe)
        hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        hf.decoder = decoders.ByteLevel()
        hf.post_processor = processors.ByteLevel(trim_offsets=False)
        return Tokenizer(hf, "hf")
    raise ModelLoadError(
        f"{folder} has no tokenizer.json (nor vocab.json + merges.txt): the text cannot be turned into tokens"
    )
