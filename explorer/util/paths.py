"""Where the shipped resources (corpora, tokenizers, presets, translations, icons) live.

From a source checkout they are the top-level ``resources/`` folder; in an installed wheel they are the
package data ``explorer/resources``; in a PyInstaller bundle they sit beside the executable.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def resources_dir() -> Path:
    package = Path(__file__).resolve().parent.parent  # explorer/ (this file is explorer/util/paths.py)
    candidates = []
    if os.environ.get("ATTENTION_EXPLORER_RESOURCES"):
        candidates.append(Path(os.environ["ATTENTION_EXPLORER_RESOURCES"]))
    if getattr(sys, "_MEIPASS", None):
        candidates.append(Path(sys._MEIPASS) / "resources")
    candidates += [package.parent / "resources", package / "resources"]
    for c in candidates:
        if (c / "corpora").is_dir() or (c / "tokenizers").is_dir():
            return c
    return candidates[-1]


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


def user_cache_dir() -> Path:
    """Per-user cache (dequantised GGUF weights); XDG on Linux, the usual places elsewhere."""
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    elif sys.platform.startswith("win"):
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "attention-explorer"
