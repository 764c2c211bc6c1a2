"""The models the window has built, kept for the next request: one cache that every job reads (the trace
queue, the logit lens, an attribution, the sweep, a generation, training's starting weights), so that a
model is built once and no view ever holds one. Thread-safe; a model is built in the thread that asks.

Training hands each checkpoint's weights in (``put``) from its own thread, under the checkpoint folder's
path; a model dropped here (``forget``, or the oldest of more than ``KEEP``) is simply read back from disk.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from explorer.config import memory_budget_bytes
from explorer.session.request import ModelSource

if TYPE_CHECKING:  # the bundle module imports torch: the window must not wait for it at start
    from explorer.weights.bundle import ModelBundle

KEEP = 4  # switching back and forth between a few presets stays instant


def _open(source: ModelSource, progress=None, cancel=None, dtype: str = "float32") -> ModelBundle:
    from explorer.session.open import open_source

    return open_source(source, progress=progress, cancel=cancel, dtype=dtype)


class ModelCache:
    def __init__(self, opener: Callable[..., Any] | None = None) -> None:
        """``opener(source, progress=, cancel=)`` builds a model (default: explorer.session.open.open_source)."""
        self._opener = opener or _open
        self._lock = threading.Lock()
        self._bundles: dict[ModelSource, ModelBundle] = {}
        self.loading: ModelSource | None = None  # the source whose model is being built right now
        self.loads = 0  # models built so far (tests: a model is built once)

    def get(
        self, source: ModelSource, progress=None, cancel: threading.Event | None = None, dtype: str = "float32"
    ) -> ModelBundle:
        """The model ``source`` names: the one kept, or one built now (in the calling thread). ``dtype``: the
        run's, for a model built now (one stored in that half dtype is kept in it); a kept model serves every
        dtype (ModelBundle.model_for casts its copy)."""
        with self._lock:
            cached = self._bundles.get(source)
            if cached is not None:
                return cached
            self.loading = source
            self._trim(memory_budget_bytes() // 4)  # the models kept are counted against the budget too
        try:
            bundle = self._opener(
                source, progress=progress, cancel=cancel, **({"dtype": dtype} if dtype != "float32" else {})
            )
        finally:
            with self._lock:
                self.loading = None
        self.put(source, bundle)
        with self._lock:
            self.loads += 1
        return bundle

    def put(self, source: ModelSource, bundle: ModelBundle) -> None:
        """Keep ``bundle`` under ``source`` (a model built elsewhere: a training checkpoint's weights)."""
        with self._lock:
            self._bundles.pop(source, None)
            if len(self._bundles) >= KEEP:
                self._bundles.pop(next(iter(self._bundles)))
            self._trim(memory_budget_bytes() // 4)
            self._bundles[source] = bundle

    def _trim(self, keep_bytes: int) -> None:
        """Forget the oldest kept models until those left hold at most ``keep_bytes`` of parameters (a lesson
        walking through large models kept four of them, past the memory budget its traces were checked by).
        Called with the lock held."""

        def held() -> int:  # a model kept without a config (a stand-in) counts as nothing
            return sum(b.config.parameter_count() * 4 for b in self._bundles.values() if hasattr(b, "config"))

        while self._bundles and held() > keep_bytes:
            self._bundles.pop(next(iter(self._bundles)))

    def peek(self, source: ModelSource) -> ModelBundle | None:
        """The model kept for ``source``, or None; never builds one (the Model view runs the shown model only
        when it is at hand)."""
        with self._lock:
            return self._bundles.get(source)

    def has(self, source: ModelSource) -> bool:
        with self._lock:
            return source in self._bundles

    def forget(self, source: ModelSource) -> None:
        with self._lock:
            self._bundles.pop(source, None)

    def is_loading(self, source: ModelSource) -> bool:
        with self._lock:
            return self.loading == source
