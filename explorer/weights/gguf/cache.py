"""The disk cache of dequantised GGUF files: float32 safetensors + config + tokenizer.json in the user's cache
folder, keyed by the file's path, size and modification time, so the second open skips the slow read. A model
kept in its file's half dtype (F16, BF16 opened in that dtype) is cached in it."""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import threading
from pathlib import Path
from typing import Any

from explorer import __version__
from explorer.config import ModelConfig
from explorer.errors import Cancelled, ModelLoadError
from explorer.tokenize import Tokenizer
from explorer.util.fileio import atomic_dir
from explorer.util.paths import user_cache_dir
from explorer.util.reading import read_json
from explorer.vocab import TOKENIZER_FILE, WEIGHTS_FILE
from explorer.weights.real_models import Filler, Progress, check_cancel, check_fits, kept_dtype, report

log = logging.getLogger(__name__)

CACHE_FORMAT = "attention-explorer-gguf-cache"
CACHE_VERSION = 3  # bump when what is stored changes (2: half dtypes; 3: a rope.scaling.factor without a type scales)


def _file_state(path: Path) -> dict[str, Any]:
    st = path.stat()
    return {"path": str(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def cache_folder(path: Path) -> Path:
    """The cache entry of this file: <cache>/gguf/<stem>-<hash of path>-<hash of size, mtime, version>."""
    state = _file_state(path)
    where = hashlib.sha256(state["path"].encode("utf-8")).hexdigest()[:12]
    when = hashlib.sha256(f"{state['size']}|{state['mtime_ns']}|{CACHE_VERSION}".encode()).hexdigest()[:12]
    stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in path.stem)[:60]
    return user_cache_dir() / "gguf" / f"{stem}-{where}-{when}"


def read_cache(
    folder: Path, path: Path, progress: Progress | None, cancel: threading.Event | None, dtype: str = "float32"
):
    """(config, tokenizer, model, name, stored dtype) from a cache entry, or None when there is no valid one.
    ``dtype``: the run's (a file stored in that half dtype is kept in it, as read_file does)."""
    meta_file = folder / "meta.json"
    if not meta_file.is_file():
        return None
    try:
        meta = read_json(meta_file, ModelLoadError)
        if (
            meta.get("format") != CACHE_FORMAT
            or meta.get("version") != CACHE_VERSION
            or meta.get("source") != _file_state(path)
        ):
            return None
        cfg = ModelConfig.from_dict(meta["config"])
        stored = str(meta.get("stored", "float32"))
    except Exception as exc:  # an unreadable entry is rebuilt
        log.warning("ignoring the damaged cache entry %s: %s", folder, exc)
        return None
    kept = kept_dtype({stored}, dtype)
    check_fits(cfg, path.name, kept)  # too big for the budget is the user's to know, not a damaged entry
    try:
        tokenizer = Tokenizer.from_file(folder / TOKENIZER_FILE, kind="hf")
        from safetensors import safe_open

        filler = Filler(cfg, path.name, kept)
        with safe_open(str(folder / WEIGHTS_FILE), framework="pt") as f:
            keys = list(f.keys())
            total = len(keys)
            for done, key in enumerate(keys, 1):
                check_cancel(cancel)
                filler.put(key, f.get_tensor(key), f"cached {key}")
                report(progress, done, total, f"cached {key}")
        return cfg, tokenizer, filler.finish(), str(meta.get("name") or path.stem), stored
    except Cancelled:
        raise
    except Exception as exc:  # anything wrong with the entry (half-deleted, older format): rebuild it
        log.warning("ignoring the damaged cache entry %s: %s", folder, exc)
        return None


def write_cache(
    folder: Path, path: Path, cfg: ModelConfig, tokenizer: Tokenizer, model, name: str, stored: str = "float32"
) -> None:
    """The entry: the model's weights in the dtype it is held in (float32, or the file's half dtype: exact
    either way), its config, tokenizer and the dtype the file stores."""
    from safetensors.torch import save_file

    state = {n: p.detach().contiguous() for n, p in model.named_parameters()}
    meta = {
        "format": CACHE_FORMAT,
        "version": CACHE_VERSION,
        "app_version": __version__,
        "source": _file_state(path),
        "name": name,
        "config": cfg.to_dict(),
        "stored": stored,
    }
    with atomic_dir(folder) as tmp:
        save_file(state, str(tmp / WEIGHTS_FILE))
        tokenizer.save(tmp / TOKENIZER_FILE)
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    # Older entries of the same file (it was modified since) are dead weight: remove them.
    prefix = folder.name.rsplit("-", 1)[0] + "-"
    for other in folder.parent.glob(prefix + "*"):
        if other != folder and other.is_dir() and not other.name.startswith("."):
            shutil.rmtree(other, ignore_errors=True)
