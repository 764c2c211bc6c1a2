"""The Trace: everything one run of the model produced, as read-only numpy arrays under public names.

A trace is immutable: views, exports and the CLI can share one without copies. The (C, C) maps of a head
(scores, scaled, masked, weights) may be stored, or derived on demand from the stored q and k with the very
function the model uses (``attention_maps``), so a 4096-token trace need not hold L·H·C² numbers.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np

from explorer import __version__, names
from explorer.config import ModelConfig, RunOptions

FORMAT_NAME = "attention-explorer-snapshot"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Row:
    """One sentence of the batch."""

    text: str
    tokens: tuple[str, ...]  # the text piece of each token
    ids: tuple[int, ...]
    unknown: tuple[bool, ...]

    @property
    def length(self) -> int:
        return len(self.ids)


@lru_cache(maxsize=8192)  # the same few hundred names in every trace: sorting them was a tenth of a small trace
def _order_key(name: str) -> tuple[int, int, int, int]:
    """Pipeline order: tokens and embeddings, then layer by layer, then the output; parameters after."""
    entry = names.spec(name)
    group = names.PARAMS if entry.is_param else names.ACTIVATIONS
    index = group.index(entry)
    layer = names.layer_of(name)
    first_layered = next(i for i, e in enumerate(group) if e.per_layer)
    section = 1 if layer is not None else (0 if index < first_layered else 2)
    return (int(entry.is_param), section, layer if layer is not None else 0, index)


_SERIALS = itertools.count(1)



class Trace(Mapping[str, np.ndarray]):
    _HEAD_CACHE = 64  # derived (C, C) maps of single heads kept for quick re-display …
    _HEAD_CACHE_BYTES = 384 * 1024**2  # … within this many bytes (a 4096-token map is 64 MB)
    _LAYER_CACHE = 2  # derived (B, H, C, C) stages of whole layers
    _MEMO = 128  # small derived values (levels, thumbnails of at most 256² cells): a few MB at most

    def __init__(
        self,
        arrays: Mapping[str, np.ndarray],
        *,
        rows: tuple[Row, ...],
        config: ModelConfig,
        options: RunOptions,
        source: str,
        seed: int | None,
        vocab: tuple[str, ...] | None = None,
        notices: tuple[str, ...] = (),
        labels: Mapping[str, tuple[str, ...]] | None = None,
        model_name: str = "",
        tokenizer_kind: str = "",
        app_version: str = __version__,
        origin: str = "computed",  # "computed", or the path of the snapshot it was read from
        partial: bool = False,  # True while later layers and the output are still being computed
        continues: Trace | None = None,  # the partial trace this one completes: its layers are the same data
        interventions: Mapping[str, Any] | None = None,  # what an intervened run changed (explorer.interventions)
    ) -> None:
        frozen = {}
        for name, array in arrays.items():
            names.spec(name)  # refuse names that are not part of the public list
            a = np.asarray(array)
            if a.flags.writeable:
                a = a.view()
                a.flags.writeable = False
            frozen[name] = a
        self._arrays = MappingProxyType(dict(sorted(frozen.items(), key=lambda kv: _order_key(kv[0]))))
        self.rows = tuple(rows)
        self.config = config
        self.options = options
        self.source = source
        self.seed = seed
        self.vocab = tuple(vocab) if vocab is not None else None
        self.notices = tuple(notices)
        self.model_name = model_name
        self.tokenizer_kind = tokenizer_kind
        self.app_version = app_version
        self.origin = origin
        self.partial = partial
        self.interventions = dict(interventions) if interventions is not None else None
        found = {names.layer_of(n) for n in self._arrays if not n.startswith("params.")}
        self._layers = tuple(sorted(l for l in found if l is not None))
        self._labels = dict(labels or {})
        self._lock = threading.Lock()
        # A number no other trace of this process has (an id() can be reused once a trace is freed): views key
        # what they drew on it. A trace completing a partial one keeps the partial's number for the layers
        # they share, so the maps drawn from the partial one need not be drawn again.
        self.serial = next(_SERIALS)
        self._layer_serials = dict(continues._layer_serials) if continues is not None else {}
        for layer in self._layers:
            self._layer_serials.setdefault(layer, self.serial)
        self._head_cache: OrderedDict[tuple, np.ndarray] = OrderedDict()
        if continues is not None:  # the maps already derived from the partial trace's layers are the same numbers
            with continues._lock:
                self._head_cache.update((k, m) for k, m in continues._head_cache.items() if k[0] in self._layer_serials)
        self._layer_cache: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._memo: OrderedDict[tuple, object] = OrderedDict()

    def memo(self, key: tuple, compute):
        """A small value derived from this trace (a map's colour levels, a shrunk thumbnail), computed once.
        The worker computes what the window will ask for before handing the trace over, so the GUI thread
        finds it here instead of computing it while the window waits."""
        with self._lock:
            if key in self._memo:
                self._memo.move_to_end(key)
                return self._memo[key]
        value = compute()  # outside the lock: it may derive maps, which take the lock
        with self._lock:
            self._memo[key] = value
            while len(self._memo) > self._MEMO:
                self._memo.popitem(last=False)
        return value

    # ------------------------------------------------------------------ sizes and labels
    @property
    def B(self) -> int:
        return len(self.rows)

    @property
    def C(self) -> int:
        return int(self._arrays["tokens"].shape[1])

    @property
    def read_only(self) -> bool:
        """True for a trace reopened from a snapshot: it can be shown and exported, not recomputed."""
        return self.origin != "computed"

    def layer_serial(self, layer: int) -> int:
        """Equal for two traces exactly when they hold the same computed data for ``layer``."""
        return self._layer_serials.get(layer, self.serial)

    @property
    def layers(self) -> tuple[int, ...]:
        """The layers whose tensors this trace holds (all of them unless capture was restricted)."""
        return self._layers

    def labels(self, name: str) -> tuple[str, ...]:
        if name in self._labels:
            return tuple(self._labels[name])
        labels = names.spec(name).labels
        if self.config.H_kv == self.config.H:
            labels = tuple(l.replace("H_kv", "H") for l in labels)
        if self.config.D_v == self.config.D and not self.config.unfactored_value:
            labels = tuple(l.replace("D_v", "D") for l in labels)
        return labels

    def shape(self, name: str) -> tuple[int, ...]:
        if name in self._arrays:
            return tuple(self._arrays[name].shape)
        if name == "probs":
            return tuple(self._arrays["logits"].shape)
        self._pairwise_parts(name)
        return (self.B, self.config.H, self.C, self.C)

    # ------------------------------------------------------------------ Mapping interface
    def stored_names(self) -> tuple[str, ...]:
        return tuple(self._arrays)

    def names(self) -> tuple[str, ...]:
        """Every name this trace can give: stored ones and (C, C) maps it can derive."""
        derivable = [
            names.attn(l, s) for l in self.layers if self._can_derive(l) for s in names.PAIRWISE_STAGES
        ]
        if "logits" in self._arrays:
            derivable.append("probs")
        extra = [n for n in derivable if n not in self._arrays]
        return tuple(sorted((*self._arrays, *extra), key=_order_key))

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def __contains__(self, name: object) -> bool:
        if name in self._arrays:
            return True
        if name == "probs":
            return "logits" in self._arrays
        try:
            layer, _ = self._pairwise_parts(name)  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError):
            return False
        return self._can_derive(layer)

    def __getitem__(self, name: str) -> np.ndarray:
        if name in self._arrays:
            return self._arrays[name]
        if name == "probs" and "logits" in self._arrays:
            with self._lock:
                if "probs" not in self._layer_cache:
                    self._layer_cache["probs"] = self._softmax(self._arrays["logits"])
                return self._layer_cache["probs"]
        try:
            layer, stage = self._pairwise_parts(name)
        except (KeyError, ValueError):
            raise KeyError(name) from None
        if not self._can_derive(layer):
            raise KeyError(name)
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
            while len(self._layer_cache) > self._LAYER_CACHE:
                self._layer_cache.popitem(last=False)
            return self._layer_cache[key]

    def head_map(self, layer: int, stage: str, b: int, h: int) -> np.ndarray:
        """The (C, C) map of one head: query i (row) against key j (column). Cheap in a lazy trace."""
        name = names.attn(layer, stage)
        if name in self._arrays:
            return self._arrays[name][b, h]
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

            derived = dict(zip(("scaled", "masked"), scaled_and_masked(scores, self["mask"][b], self.config.D, self.options.scale)))
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
            while len(self._head_cache) > self._HEAD_CACHE or (
                len(self._head_cache) > 4 and sum(m.nbytes for m in self._head_cache.values()) > self._HEAD_CACHE_BYTES
            ):
                self._head_cache.popitem(last=False)
            return self._head_cache.get(key, derived[stage])

    def probs_row(self, b: int, i: int) -> np.ndarray:
        """The next-token distribution after token i of sentence b: one (V,) row, cheap in any trace."""
        if "probs" in self._arrays:
            return self._arrays["probs"][b, i]
        with self._lock:
            if "probs" in self._layer_cache:
                return self._layer_cache["probs"][b, i]
        return self._softmax(self._arrays["logits"][b, i : i + 1])[0]

    def probs_rows(self, b: int, start: int, stop: int) -> np.ndarray:
        """Next-token distributions after tokens start … stop−1 of sentence b: (stop − start, V)."""
        if "probs" in self._arrays:
            return self._arrays["probs"][b, start:stop]
        return self._softmax(self._arrays["logits"][b, start:stop])

    def _softmax(self, logits: np.ndarray) -> np.ndarray:
        # The model's own expression, so a row derived here equals the row of a full computation.
        import torch

        with torch.inference_mode():
            out = torch.softmax(torch.from_numpy(np.array(logits)) / self.options.temperature, dim=-1).numpy()
        out.flags.writeable = False
        return out

    # ------------------------------------------------------------------ derivation
    @staticmethod
    def _pairwise_parts(name: str) -> tuple[int, str]:
        entry = names.spec(name)
        if not entry.pairwise:
            raise KeyError(name)
        return names.layer_of(name), name.rsplit(".", 1)[1]  # type: ignore[return-value]

    def _qk_names(self, layer: int) -> tuple[str, str]:
        return names.qk(layer, self.config.positions)

    def _can_derive(self, layer: int) -> bool:
        if "mask" not in self._arrays:
            return False
        if names.attn(layer, "scores") in self._arrays and names.attn(layer, "weights") in self._arrays:
            return True
        qn, kn = self._qk_names(layer)
        return qn in self._arrays and kn in self._arrays

    def _derive(self, layer: int, b: int | None, h: int | None, steps: bool = True) -> tuple[np.ndarray | None, ...]:
        """The four maps of one head (b, h), or of every head of the layer when b is None (trace.derive)."""
        from explorer.trace.derive import derive_maps  # imports torch: reading a trace needs numpy alone

        return derive_maps(self._arrays, self.config, self.options.scale, self._qk_names(layer), layer, b, h, steps)

    # ------------------------------------------------------------------ convenience
    def params(self) -> dict[str, np.ndarray]:
        return {n: a for n, a in self._arrays.items() if n.startswith("params.")}

    def activations(self) -> tuple[str, ...]:
        return tuple(n for n in self.names() if not n.startswith("params."))

    def token_label(self, b: int, i: int) -> str:
        row = self.rows[b]
        return row.tokens[i] if i < row.length else "<pad>"

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in self._arrays.values())

    def manifest(self, selected: tuple[str, ...] | None = None) -> dict[str, Any]:
        chosen = selected if selected is not None else self.names()
        return {
            "format": FORMAT_NAME,
            "format_version": FORMAT_VERSION,
            "app_version": self.app_version,
            "text": "\n".join(r.text for r in self.rows),
            "batch": [
                {"text": r.text, "tokens": list(r.tokens), "ids": list(r.ids), "unknown": list(r.unknown), "length": r.length}
                for r in self.rows
            ],
            "config": self.config.to_dict(),
            "options": self.options.to_dict(),
            "seed": self.seed,
            "dtype": self.options.dtype,
            "device": self.options.device,
            "weights_source": self.source,
            "model_name": self.model_name,
            "tokenizer_kind": self.tokenizer_kind,
            "notices": list(self.notices),
            "vocab": list(self.vocab) if self.vocab is not None else None,
            **({"interventions": self.interventions} if self.interventions is not None else {}),
            "names": {
                n: {"labels": list(self.labels(n)), "shape": list(self.shape(n)), "dtype": str(self._dtype_of(n))}
                for n in chosen
            },
        }

    def _dtype_of(self, name: str) -> np.dtype:
        if name in self._arrays:
            return self._arrays[name].dtype
        return np.dtype(self.options.dtype)
