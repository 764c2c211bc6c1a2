"""The one way any model source becomes a model: a preset (with size overrides, seed, random weights), a
checkpoint folder, a run folder (its newest complete checkpoint), a Hugging Face folder or a GGUF file.
The CLI (explorer/cli/model_options.py, every command that opens a model: export, eval, generate, attribute,
train --init), the window's job runner (explorer/ui/background/worker.py) and training's starting weights all call
``open_source``, so a model opened in one is the model opened in the other; File → Open model resolves the
chosen path with ``resolve_model_path`` first, so that the window names the checkpoint it shows.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.session.records import RunFolderShown
from explorer.session.request import ModelSource
from explorer.vocab import CONFIG_FILE, RUN_FILE
from explorer.weights.presets import load_preset, preset_config

if TYPE_CHECKING:  # the bundle module imports torch: the window must not wait for it at start
    from explorer.weights.bundle import ModelBundle


def open_source(
    source: ModelSource, progress=None, cancel=None, note: Callable[[str], None] | None = None, dtype: str = "float32"
) -> ModelBundle:
    """The model ``source`` names (a path with ``random_weights``: its random-weight twin). ``dtype``: what
    it will run in; a real model stored in that half dtype is kept in it (explorer/weights/real_models.py).
    ``progress(done, total, what)`` and ``cancel`` (an Event) serve long loads; ``note`` hears plain-words
    remarks (which checkpoint of a run folder was taken)."""
    if source.kind == "preset":
        config = preset_source_config(source)
        return load_preset(source.name, random_weights=source.random_weights, seed=source.seed, config=config)
    from explorer.weights.loaders import load_model

    bundle = load_model(resolve_run_folder(source.name, note), progress=progress, cancel=cancel, dtype=dtype)
    if source.random_weights:  # its random-weight twin: the same config and tokenizer, untrained (compare --random-b)
        from explorer.weights.bundle import random_bundle

        return random_bundle(bundle.config, bundle.tokenizer, source.seed or 0, f"{bundle.name} (random weights)")
    return bundle


@lru_cache(maxsize=32)
def preset_source_config(source: ModelSource) -> ModelConfig:
    """The ModelConfig a preset source asks for: the preset's sizes with the source's overrides.

    Built once per source and passed on: a size edit makes one new source, whose config the controls count
    parameters from and ``open_source`` builds the model with (it used to be built three times per edit).
    ConfigError for sizes that cannot work (not cached: the next ask says it again)."""
    return preset_config(source.name, **source.size_overrides())


def model_path(path: str) -> str:
    """What a chosen path opens, without raising (File → Open model, before the load): a config.json, or any
    file inside a model folder that is not a GGUF file, means its folder; a run folder means its newest
    complete checkpoint; anything else (a GGUF file, a named model) is returned as given."""
    p = Path(path).expanduser()
    if p.is_file() and p.suffix.lower() != ".gguf" and (p.parent / CONFIG_FILE).is_file():
        return str(p.parent)
    if p.is_dir() and not (p / CONFIG_FILE).is_file():
        from explorer.train.runs import latest_checkpoint

        latest = latest_checkpoint(p)
        if latest is not None:
            return str(latest)
    return str(path)


def resolve_model_path(asked: str) -> tuple[str, RunFolderShown | None]:
    """What File → Open model's ``asked`` opens (``model_path``), and, when a run folder stood for its newest
    checkpoint, the note that says so once it shows. The window's bridge carries out the Session's
    ResolveModelPath effect with this (the Session itself reads no file)."""
    from explorer.train.runs import checkpoint_step_of

    opened = model_path(asked)
    note = None
    if Path(opened).parent == Path(asked) and checkpoint_step_of(opened) is not None:
        note = RunFolderShown(opened, Path(asked).name, Path(opened).name)
    return opened, note


def resolve_run_folder(path: str, note: Callable[[str], None] | None = None) -> str:
    """A run folder written by ``train --out runs/x`` stands for its latest complete checkpoint (a ``step-N``
    folder with its config and weights); ``note`` hears which; one without a complete checkpoint yet is
    refused. A file inside a model folder means that folder (as ``model_path`` says). Anything else is
    returned as given, for the loaders to open or to refuse."""
    p = Path(path).expanduser()
    if p.is_file() and p.suffix.lower() != ".gguf" and (p.parent / CONFIG_FILE).is_file():
        return str(p.parent)
    if not p.is_dir() or (p / CONFIG_FILE).is_file():
        return path
    from explorer.train.runs import checkpoint_step_of, latest_checkpoint

    latest = latest_checkpoint(p)
    if latest is None:
        if (p / RUN_FILE).is_file() or any(checkpoint_step_of(c) is not None for c in p.iterdir()):
            raise ModelLoadError(
                f"{p} is a run folder without a complete checkpoint yet: wait for the first one, or train longer"
            )
        return path
    if note is not None:
        note(f"{p} is a run folder: using its latest complete checkpoint, {latest.name}")
    return str(latest)
