"""Open a model by path or name: our checkpoint folders, Hugging Face folders, GGUF files, shipped presets.

Each kind lives in its own module; this one only decides which to call. It is the top of `explorer/weights/`:
it imports the catalog, the presets and every reader, and none of them imports it (the "layers" contract in
pyproject.toml fails if one does).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from explorer.errors import ModelLoadError
from explorer.vocab import CONFIG_FILE
from explorer.weights import catalog
from explorer.weights.bundle import ModelBundle
from explorer.weights.checkpoint import CHECKPOINT_FORMAT, load_checkpoint
from explorer.weights.presets import PRESETS, load_preset

if TYPE_CHECKING:  # real_models imports torch; the alias is defined there once
    from explorer.weights.real_models import Progress


def detect_kind(path: Path) -> str:
    """ "checkpoint", "hf" or "gguf" for a path on disk; ModelLoadError if it is none of them."""
    import os
    import stat

    from explorer.util.reading import is_regular, not_regular, open_regular, read_json

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise ModelLoadError(f"no such file or folder: {path}") from None
    except OSError as exc:
        raise ModelLoadError(f"cannot read {path}: {exc.strerror or exc}") from None
    if stat.S_ISREG(mode):
        with open_regular(path, ModelLoadError) as fh:
            if fh.read(4) == b"GGUF":
                return "gguf"
        raise ModelLoadError(f"{path.name} is not a model: expected a GGUF file or a model folder")
    if stat.S_ISDIR(mode):
        config = path / CONFIG_FILE
        if not is_regular(config, ModelLoadError):
            raise ModelLoadError(f"{path} has no config.json: not a checkpoint or Hugging Face folder")
        data = read_json(config, ModelLoadError)
        if isinstance(data, dict) and data.get("format") == CHECKPOINT_FORMAT:
            return "checkpoint"
        if isinstance(data, dict) and "model_type" in data:
            return "hf"
        raise ModelLoadError(f"{config} is neither an Attention Explorer checkpoint nor a Hugging Face config")
    # /dev/zero, a FIFO: "no such file" was wrong, and opening a FIFO would wait forever
    raise ModelLoadError(not_regular(path, mode))


def load_model(
    path_or_name: str | Path, progress: Progress | None = None, cancel=None, dtype: str = "float32"
) -> ModelBundle:
    """A preset or an installed real model by name, else the checkpoint, HF folder or GGUF file at the path.
    ``dtype``: the run's; a Hugging Face model stored in that half dtype is kept in it (no float32 copy)."""
    name = str(path_or_name)
    if name in PRESETS:
        return load_preset(name)
    if name in catalog.REAL_MODELS:
        label, path = catalog.locate_real_model(name)
        bundle = load_path(path, progress=progress, cancel=cancel, dtype=dtype)
        bundle.name = label
        return bundle
    if name in catalog.NOT_SUPPORTED:
        raise ModelLoadError(catalog.NOT_SUPPORTED[name])
    return load_path(Path(name).expanduser(), progress=progress, cancel=cancel, dtype=dtype)


def load_path(path: Path, progress: Progress | None = None, cancel=None, dtype: str = "float32") -> ModelBundle:
    kind = detect_kind(path)
    if kind == "checkpoint":
        return load_checkpoint(path)
    if kind == "hf":  # the readers of real models load their libraries when first used
        from explorer.weights.hf import load_hf_folder

        return load_hf_folder(path, progress=progress, cancel=cancel, dtype=dtype)
    from explorer.weights.gguf import load_gguf

    return load_gguf(path, progress=progress, cancel=cancel, dtype=dtype)
