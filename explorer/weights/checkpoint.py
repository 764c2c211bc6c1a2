"""Checkpoint folders: the weights, the config and the tokenizer of a model, together.

    folder/
      model.safetensors   tensors named as the model's state_dict keys (embed.tok, layers.0.attn.W_q, …),
                          stored in the note's (in, out) orientation, float32
      config.json         {"format": "attention-explorer-checkpoint", "format_version": 1,
                           "config": ModelConfig.to_dict(), "tokenizer_kind", "step", "train": {…}}
      tokenizer.json      the Hugging Face tokenizers file

A folder is written atomically (a temporary folder beside the target, renamed at the end), so a reader
or a killed writer never sees half a checkpoint. Loading reads only JSON and safetensors: nothing is ever
unpickled, and every problem with the files is a ModelLoadError with a one-line message.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import torch
from torch import nn

from explorer import __version__
from explorer.config import ModelConfig
from explorer.errors import ConfigError, ModelLoadError, SnapshotError
from explorer.model import Transformer
from explorer.tokenize import Tokenizer
from explorer.util.fileio import atomic_dir
from explorer.util.reading import is_regular, read_json
from explorer.util.schema import Where, model_config
from explorer.vocab import CONFIG_FILE, TOKENIZER_FILE, WEIGHTS_FILE  # the file names, defined once
from explorer.weights.bundle import ModelBundle
from explorer.weights.real_models import check_fits, check_weights

CHECKPOINT_FORMAT = "attention-explorer-checkpoint"  # config.json's "format": how the loaders know the folder
FORMAT_VERSION = 1


def _tensors(model: nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.detach().to("cpu", torch.float32).contiguous().clone() for k, v in model.state_dict().items()}


def _write_weights(path: Path, tensors: dict[str, torch.Tensor]) -> None:
    from safetensors.torch import save_file

    save_file(tensors, str(path), metadata={"format": CHECKPOINT_FORMAT, "format_version": str(FORMAT_VERSION)})


def save_checkpoint(
    source: ModelBundle | nn.Module,
    folder: str | Path,
    *,
    config: ModelConfig | None = None,
    tokenizer: Tokenizer | None = None,
    step: int = 0,
    train: dict[str, Any] | None = None,
    extra_files: dict[str, str] | None = None,
) -> Path:
    """Write ``folder`` (replacing an existing one only once the new one is complete). Returns it.

    ``source`` is a ModelBundle (config and tokenizer come with it) or a Transformer with ``config`` and
    ``tokenizer`` given. ``train`` is free-form JSON describing how the weights were made; ``extra_files``
    are small text files to put in the same folder (e.g. metrics.json for shipped presets).
    """
    if isinstance(source, ModelBundle):
        model = source.model
        config = config or source.config
        tokenizer = tokenizer or source.tokenizer
    else:
        model = source
        config = config or getattr(source, "cfg", None)
    if config is None or tokenizer is None:
        raise ConfigError("save_checkpoint needs the model's config and tokenizer")
    if config.vocab_size != tokenizer.vocab_size:
        raise ConfigError(f"the tokenizer has {tokenizer.vocab_size} tokens but the model's V is {config.vocab_size}")
    tensors = _tensors(model)  # copied before any file is touched: training may go on meanwhile
    meta = {
        "format": CHECKPOINT_FORMAT,
        "format_version": FORMAT_VERSION,
        "app_version": __version__,
        "config": config.to_dict(),
        "tokenizer_kind": tokenizer.kind,
        "step": int(step),
        "train": train or {},
    }
    folder = Path(folder)
    with atomic_dir(folder, error=SnapshotError) as tmp:
        _write_weights(tmp / WEIGHTS_FILE, tensors)
        (tmp / TOKENIZER_FILE).write_text(tokenizer.to_str(), encoding="utf-8")
        (tmp / CONFIG_FILE).write_text(json.dumps(meta, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        for name, text in (extra_files or {}).items():
            if Path(name).name != name or name in (WEIGHTS_FILE, TOKENIZER_FILE, CONFIG_FILE):
                raise ConfigError(f"cannot add {name!r} to a checkpoint folder")
            (tmp / name).write_text(text, encoding="utf-8")
        # mkdtemp makes a private (0700) folder; a checkpoint is an ordinary document, readable like one.
        for f in tmp.iterdir():
            f.chmod(0o644)
        tmp.chmod(0o755)
    return folder


# ------------------------------------------------------------------------------------------------ reading


def read_checkpoint_meta(folder: str | Path) -> dict[str, Any]:
    """config.json of a checkpoint folder, checked for format and version."""
    folder = Path(folder)
    if not folder.is_dir():
        if os.path.lexists(folder):  # a file, a FIFO, /dev/zero: "no such folder" would be wrong
            raise ModelLoadError(f"{folder} is not a checkpoint folder (a checkpoint is a folder written by `train`)")
        raise ModelLoadError(f"no such checkpoint folder: {folder}")
    path = folder / CONFIG_FILE
    if not is_regular(path, ModelLoadError):
        raise ModelLoadError(f"{folder} is not a checkpoint: {CONFIG_FILE} is missing")
    meta = read_json(path, ModelLoadError)  # bounded; FIFOs, deep nesting and 5000-digit numbers are one line
    if not isinstance(meta, dict) or meta.get("format") != CHECKPOINT_FORMAT:
        raise ModelLoadError(f'{path} is not an Attention Explorer checkpoint (no "format": "{CHECKPOINT_FORMAT}")')
    version = meta.get("format_version")
    if not isinstance(version, int) or version < 1:
        raise ModelLoadError(f"{path} has no valid format_version")
    if version > FORMAT_VERSION:
        raise ModelLoadError(
            f"{folder.name} was written by a newer version (format {version}); update Attention Explorer"
        )
    if not isinstance(meta.get("config"), dict):
        raise ModelLoadError(f"{path} has no model config")
    return meta


def _read_tensors(path: Path, expected: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The weights, after their names and declared shapes are checked against the config (no data read
    before that: a file declaring 5 GiB for a tiny config is refused at once)."""
    from safetensors import safe_open

    if not is_regular(path, ModelLoadError):
        raise ModelLoadError(f"{path.parent} is missing its weights file {WEIGHTS_FILE}")
    origin = path.parent.name
    try:
        with safe_open(str(path), framework="pt", device="cpu") as fh:
            keys = list(fh.keys())
            # A gated FFN with biases gained b_gate (issue 42); a checkpoint written before has none: zeros
            gate_biases = [k for k in expected if k not in keys and k.endswith(".ffn.b_gate")]
            missing = [k for k in expected if k not in keys and k not in gate_biases]
            unexpected = [k for k in keys if k not in expected]
            if missing or unexpected:
                parts = []
                if missing:
                    parts.append(f"missing {', '.join(missing[:4])}" + (" …" if len(missing) > 4 else ""))
                if unexpected:
                    parts.append(f"unexpected {', '.join(unexpected[:4])}" + (" …" if len(unexpected) > 4 else ""))
                raise ModelLoadError(f"{origin}: the weights do not match the config ({'; '.join(parts)})")
            for key, ref in expected.items():
                if key in gate_biases:
                    continue
                shape = tuple(fh.get_slice(key).get_shape())
                if shape != tuple(ref.shape):
                    raise ModelLoadError(f"{origin}: {key} has shape {shape}, the config needs {tuple(ref.shape)}")
            return {key: fh.get_tensor(key) for key in keys} | {k: torch.zeros(expected[k].shape) for k in gate_biases}
    except ModelLoadError:
        raise
    except Exception as exc:  # safetensors raises its own error type for truncated or malformed files
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ModelLoadError(f"{path} is damaged or truncated ({first})") from None


def load_checkpoint(folder: str | Path, tokenizer: Tokenizer | None = None) -> ModelBundle:
    """A checkpoint folder → ModelBundle (source ``checkpoint:<path>``), fully checked. ``tokenizer``: one already
    read from a file byte for byte the folder's (a shipped preset's vocabulary), so it is not read twice."""
    folder = Path(folder).expanduser()
    meta = read_checkpoint_meta(folder)
    config = model_config(meta["config"], Where(str(folder / CONFIG_FILE), ModelLoadError))
    check_fits(config, folder.name)  # before the model is built: a config of 10⁹ parameters is refused here
    tok_path = folder / TOKENIZER_FILE
    if not is_regular(tok_path, ModelLoadError):
        raise ModelLoadError(f"{folder} is missing its tokenizer ({TOKENIZER_FILE})")
    kind = meta.get("tokenizer_kind")
    if tokenizer is None:
        tokenizer = Tokenizer.from_file(tok_path, kind if isinstance(kind, str) and kind else None)
    if tokenizer.vocab_size != config.vocab_size:
        raise ModelLoadError(
            f"{folder.name}: the tokenizer has {tokenizer.vocab_size} tokens but the config says V = "
            f"{config.vocab_size}"
        )
    tokenizer.check_fits(config.vocab_size, config.segments, f"{folder.name}/{TOKENIZER_FILE}")
    model = Transformer(config)
    expected = model.state_dict()
    tensors = _read_tensors(folder / WEIGHTS_FILE, expected)
    for key in expected:
        tensors[key] = check_weights(folder.name, key, tensors[key])
    model.load_state_dict({k: tensors[k].to(torch.float32) for k in expected}, strict=True)
    model.eval()
    seed = meta.get("train", {}).get("seed") if isinstance(meta.get("train"), dict) else None
    return ModelBundle(
        config,
        tokenizer,
        model,
        f"checkpoint:{folder.resolve()}",
        seed if isinstance(seed, int) else None,
        name=folder.name,
    )


def checkpoint_step(folder: str | Path) -> int:
    meta = read_checkpoint_meta(folder)
    step = meta.get("step", 0)
    return int(step) if isinstance(step, int) and not isinstance(step, bool) and math.isfinite(step) else 0


__all__ = ["save_checkpoint", "load_checkpoint", "read_checkpoint_meta", "checkpoint_step", "FORMAT_VERSION"]
