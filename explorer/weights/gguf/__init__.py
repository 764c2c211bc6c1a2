"""Open a GGUF file of the llama architecture (llama.cpp's format), offline, with the ``gguf`` package.

Steps: read the metadata (sizes, rope base, tokenizer), dequantise every tensor to float32, undo the
row permutation that llama.cpp's converter applies to W_q and W_k (so that our RoPE, which rotates the
pair (i, i + D/2) like Hugging Face's "rotate half", sees the same layout), transpose nn.Linear's
(out, in) into the note's (in, out), and build the tokenizer from the metadata with HF ``tokenizers``.

Dequantising is slow (seconds for a 135M-parameter file), so the result is cached in the user's cache folder
as float32 safetensors + config + tokenizer.json, keyed by the file's path, size and modification time. The
second open reads the cache.

The parts: ``header`` (the metadata and the tensors' places, every declared count checked against the file),
``tokenizer`` (the metadata's tokenizer), ``config`` (the metadata's sizes), ``reading`` (the file's
tensors), ``cache`` (the dequantised copy on disk); this module joins them.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from explorer.errors import ModelLoadError
from explorer.util.reading import check_regular, open_regular
from explorer.weights.bundle import ModelBundle
from explorer.weights.gguf.cache import CACHE_FORMAT, CACHE_VERSION, cache_folder, read_cache, write_cache
from explorer.weights.gguf.config import config_from_gguf
from explorer.weights.gguf.reading import gguf_sources, read_file, unpermute_rows
from explorer.weights.gguf.tokenizer import check_tokenizer_metadata, tokenizer_from_metadata
from explorer.weights.real_models import Progress, check_cancel, report

__all__ = [
    "CACHE_FORMAT",
    "CACHE_VERSION",
    "cache_folder",
    "check_tokenizer_metadata",
    "config_from_gguf",
    "gguf_sources",
    "load_gguf",
    "tokenizer_from_metadata",
    "unpermute_rows",
]

log = logging.getLogger(__name__)


def load_gguf(
    path: str | Path,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    use_cache: bool = True,
    dtype: str = "float32",
) -> ModelBundle:
    """The model in the GGUF file at ``path``; ``dtype``: the run's, which a file storing its matrices in that
    half dtype (F16, BF16) is kept in (no float32 copy), else float32."""
    path = Path(path).expanduser().resolve()
    check_regular(path, ModelLoadError)  # a FIFO or /dev/zero: refused before any open
    with open_regular(path, ModelLoadError) as fh:
        if fh.read(4) != b"GGUF":
            raise ModelLoadError(f"{path.name} is not a GGUF file (it does not start with 'GGUF')")
    use_cache = use_cache and not os.environ.get("ATTENTION_EXPLORER_NO_CACHE")
    folder = cache_folder(path) if use_cache else None
    loaded = read_cache(folder, path, progress, cancel, dtype) if folder is not None else None
    from_cache = loaded is not None
    if loaded is None:
        loaded = read_file(path, progress, cancel, dtype)
    cfg, tokenizer, model, name, stored = loaded
    if folder is not None and not from_cache:
        check_cancel(cancel)
        report(progress, 0, 1, "writing the cache")
        try:
            write_cache(folder, path, cfg, tokenizer, model, name, stored)
        except Exception as exc:  # the cache only saves time; a full disk must not stop the load
            log.warning("could not cache the dequantised weights: %s", exc)
        report(progress, 1, 1, "writing the cache")
    return ModelBundle(cfg, tokenizer, model, f"gguf:{path}", None, name=name, editable_sizes=False, stored=stored)
