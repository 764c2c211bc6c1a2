"""The public Python API (issue 41): ``trace``, ``open``, ``generate``, ``attribute`` and ``models``, the
``TraceResult`` they give, its ``Figure`` and the one exception type, ``Error``. ``import explorer`` exposes
the same names. Core: no Qt, never explorer.ui or explorer.cli.

Every name loads when first used (PEP 562): importing this package imports neither torch nor numpy's heavy
modules, so the command line can read its options from explorer.api.options without waiting for them.
"""

from __future__ import annotations

import importlib
from typing import Any

# Each public name and the module of this package that defines it.
PUBLIC = {
    "trace": "calls",
    "open": "calls",
    "generate": "calls",
    "attribute": "calls",
    "models": "calls",
    "TraceResult": "result",
    "Figure": "figure",
}

__all__ = [*PUBLIC, "Error"]


def __getattr__(name: str) -> Any:
    if name == "Error":
        from explorer.errors import ExplorerError

        return ExplorerError
    if name in PUBLIC:
        return getattr(importlib.import_module(f"explorer.api.{PUBLIC[name]}"), name)
    raise AttributeError(f"module 'explorer.api' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
