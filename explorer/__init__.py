"""Attention Explorer: watch every tensor flow through a Transformer you size yourself.

The package is split in two: a pure core (everything outside ``explorer.ui``) that imports no Qt and
can be tested without a display, and the Qt layer in ``explorer.ui`` that only renders what the core
gives it.

From Python (explorer.api; docs/api.md)::

    import explorer as ax
    t = ax.trace("This is a pen .", preset="seed-toy")
    t["layers.0.attn.weights"], t.tokens, t.next_token(top=5)

The public names load when first used: ``import explorer`` imports neither torch nor numpy nor Qt, and a
trace imports torch but never Qt.
"""

import os
import sys
import types

# numpy's small matrix work (SVDs of one W_v, the scaling sweep) runs beside torch's own thread pool; with
# OpenBLAS's threads also spinning, a 64×64 SVD took 140 ms instead of 1 ms on a 2-core machine. Set
# before numpy is first imported; a user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# MKL's products the same to the last bit on any thread count, so that a run's count may follow the machine's
# load (explorer/util/invariant_products.py). Read by MKL before its first product; a user's own setting wins.
os.environ.setdefault("MKL_CBWR", "AUTO,STRICT")

__version__ = "0.1.0"

# The public API, by the name explorer.api gives each (loaded on first use, PEP 562).
_PUBLIC = ("trace", "open", "generate", "attribute", "models", "TraceResult", "Figure", "Error")

__all__ = [*_PUBLIC, "__version__"]


def __getattr__(name: str):
    if name in _PUBLIC:
        from explorer import api

        return getattr(api, name)
    raise AttributeError(f"module 'explorer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})


class _Explorer(types.ModuleType):
    """The package's own module type, for one name: ``explorer.trace`` is the API's function, although the core
    has a subpackage of that name (explorer/trace/), which the import system binds here as an attribute the
    first time it loads. The subpackage stays what ``from explorer.trace import …``, sys.modules and
    ``mock.patch("explorer.trace.run.…")`` reach; only ``import explorer.trace.run as r`` (which reads the
    attribute) cannot: write ``from explorer.trace import run`` (tests/api/test_import_light.py checks the tree)."""

    @property
    def trace(self):
        from explorer.api.calls import trace

        return trace

    @trace.setter
    def trace(self, subpackage: types.ModuleType) -> None:
        self.__dict__["trace"] = subpackage  # shadowed by the property: kept, never served as explorer.trace


sys.modules[__name__].__class__ = _Explorer
