"""A trace's derivation cache: the (C, C) maps it derives when they are looked at (explorer/trace/derive.py
does the arithmetic, with the model's own functions), the next-token probabilities, and small values computed
once (``memo``). Kept apart from the Trace's record: the record is immutable, this is a bounded, locked cache
that the worker and the GUI thread share."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

from explorer import names
from explorer.config import ModelConfig, RunOptions
from explorer.trace.logits import LogitBlocks, derives_logits

HEAD_CACHE = 64  # derived (C, C) maps of single heads kept for quick re-display …
HEAD_CACHE_BYTES = 384 * 1024**2  # … within this many bytes (a 4096-token map is 64 MB)
LAYER_CACHE = 2  # derived (B, H, C, C) stages of whole layers
MEMO = 128  # small derived values (levels, thumbnails of at most 256² cells): a few MB at most


def pairwise_parts(name: str) -> tuple[int, str]:
    """(layer, stage) of a (C, C) map's name; KeyError for any other name."""
    entry = names.spec(name)
    if not entry.pairwise:
        raise KeyError(name)
    return names.layer_of(name), name.rsplit(".", 1)[1]  # type: ignore[return-value]


class Derivations:
    def __init__(self, arrays: Mapping[str, np.ndarray], config: ModelConfig, options: RunOptions) -> None:
        self._arrays, self._config, self._options = arrays, config, options
        self._lock = threading.Lock()
        self._head_cache: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._layer_cache: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._memo: OrderedDict[tuple, object] = OrderedDict()
        # The logits, when the trace kept final.out instead (explorer/trace/logits.py); None: stored or absent.
        self.logits = LogitBlocks(arrays, config, options) if derives_logits(arrays, config) else None

    def inherit(self, other: Derivations, layers: Mapping[int, int]) -> None:
        """The maps ``other`` (a partial trace this one completes) derived for ``layers``: the same numbers."""
        with other._lock:
            self._head_cache.update((k, m) for k, m in other._head_cache.items() if k[0] in layers)

    def memo(self, key: tuple, compute) -> Any:
        with self._lock:
            if key in self._memo:
                self._memo.move_to_end(key)
                return self._memo[key]
        value = compute()  # outside the lock: it may derive maps, which take the lock
        with self._lock:
            self._memo[key] = value
            while len(self._memo) > MEMO:
                self._memo.popitem(last=False)
        return value

    # ------------------------------------------------------------------ what can be derived
    def qk_names(self, layer: int) -> tuple[str, str]:
        return names.qk(layer, self._config.positions)

    def can_derive(self, layer: int) -> bool:
        if "mask" not in self._arrays:
            return False
        if names.attn(layer, "scores") in self._arrays and names.attn(layer, "weights") in self._arrays:
            return True
        qn, kn = self.qk_names(layer)
        return qn in self._arrays and kn in self._arrays

    def _derive(self, layer: int, b: int | None, h: int | None, steps: bool = True) -> tuple[np.ndarray | None, ...]:
        """The four maps of one head (b, h), or of every head of the layer when b is None (trace.derive)."""
        from explorer.trace.derive import derive_maps  # imports torch: reading a trace needs numpy alone

        return derive_maps(self._arrays, self._config, self._options, self.qk_names(layer), layer, b, h, steps)

    # ------------------------------------------------------------------ derived values
    def has_logits(self) -> bool:
        return "logits" in self._arrays or self.logits is not None

    def all_logits(self) -> np.ndarray:
        return self._arrays["logits"] if self.logits is None else self.logits.whole()

    def logits_rows(self, b: int, start: int, stop: int) -> np.ndarray:
        """(stop − start, V): the logits after tokens start … stop−1 of sentence b, derived only for them."""
        if self.logits is None:
            return self._arrays["logits"][b, start:stop]
        return self.logits.rows(b, start, stop)

    def probs(self) -> np.ndarray:
        logits = self.all_logits()  # outside the lock: deriving them takes the blocks' own lock
        with self._lock:
            if "probs" not in self._layer_cache:
                self._layer_cache["probs"] = self.softmax(logits)
            return self._layer_cache["probs"]

    def probs_row(self, b: int, i: int) -> np.ndarray:
        with self._lock:
            if "probs" in self._layer_cache:
                return self._layer_cache["probs"][b, i]
        return self.softmax(self.logits_rows(b, i, i + 1))[0]

    def softmax(self, logits: np.ndarray) -> np.ndarray:
        # The model's own expression, so a row derived here equals the row of a full computation.
        import torch

        with torch.inference_mode():
            out = torch.softmax(torch.from_numpy(np.array(logits)) / self._options.temperature, dim=-1).numpy()
        out.flags.writeable = False
        return out

    def layer_stage(self, layer: int, stage: str) -> np.ndarray:
        """The (B, H, C, C) map of ``stage`` for every head of ``layer``."""
        key = (layer, stage)
        with self._lock:
            if key in self._layer_cache:
                self._layer_cache.move_to_end(key)
                return self._layer_cache[key]
        maps = self._derive(layer, None, None)
        with self._lock:
            for s, m in zip(names.PAIRWISE_STAGES, maps):
                if s == stage:
                    self._layer_cache[key] = m
            while len(self._layer_cache) > LAYER_CACHE:
                self._layer_cache.popitem(last=False)
            return self._layer_cache[key]

    def head_map(self, layer: int, stage: str, b: int, h: int) -> np.ndarray:
        """The (C, C) map of one head, derived for that head alone (cheap in a lazy trace)."""
        key = (layer, stage, b, h)
        with self._lock:
            if key in self._head_cache:
                self._head_cache.move_to_end(key)
                return self._head_cache[key]
            if (layer, stage) in self._layer_cache:
                return self._layer_cache[(layer, stage)][b, h]
            scores = self._head_cache.get((layer, "scores", b, h))
        if scores is not None and stage in ("scaled", "masked"):
            from explorer.trace.derive import scaled_and_masked
            from explorer.trace.layer_mask import layer_allowed

            allowed = layer_allowed(self._arrays["mask"][b], self._config, layer)  # a sliding layer's own
            maps = scaled_and_masked(
                scores,
                allowed,
                self._config.score_dim,
                self._options.scale,
                self._config.attn_softcap,
                self._options.dtype,
            )
            derived = dict(zip(("scaled", "masked"), maps))
        else:  # scores and weights alone leave fewer (C, C) maps alive on the way (4096 tokens: 64 MB each)
            steps = stage not in ("scores", "weights")
            maps = self._derive(layer, b, h, steps)
            derived = {s: m[0, 0] for s, m in zip(names.PAIRWISE_STAGES, maps) if m is not None}
        with self._lock:
            # Kept: S and A (4096 tokens: 64 MB each) and the stage asked; S/√D and the masked scores follow
            # from S by one element-wise step when asked, so four maps per head need not stay in memory.
            for s, m in derived.items():
                if s in ("scores", "weights") or s == stage:
                    self._head_cache[(layer, s, b, h)] = m
            while len(self._head_cache) > HEAD_CACHE or (
                len(self._head_cache) > 4 and sum(m.nbytes for m in self._head_cache.values()) > HEAD_CACHE_BYTES
            ):
                self._head_cache.popitem(last=False)
            return self._head_cache.get(key, derived[stage])
