"""The Trace: everything one run of the model produced, as read-only numpy arrays under public names, with
the record of the run (``TraceInfo``, explorer/trace/record.py).

A trace is immutable: views, exports and the CLI can share one without copies. The (C, C) maps of a head
(scores, scaled, masked, weights) may be stored, or derived on demand from the stored q and k with the very
function the model uses (``attention_maps``), so a 4096-token trace need not hold L·H·C² numbers; what is
derived is kept in the trace's derivation cache (explorer/trace/derived.py), apart from the record.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from explorer import names
from explorer.errors import InputError
from explorer.trace.deferred import ArrayRecord, Deferred
from explorer.trace.derived import Derivations, pairwise_parts
from explorer.trace.overview import MapOverview, map_overview
from explorer.trace.record import Row, TraceInfo
from explorer.vocab import array_dtype

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "Row", "Trace", "TraceInfo"]

FORMAT_NAME = "attention-explorer-snapshot"
FORMAT_VERSION = 1


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


def _held_layers(arrays: Mapping[str, np.ndarray], positions: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the layers with tensors beyond q and k, every layer with tensors): a layer of which only q and k
    were kept gives its maps but is not a captured layer."""
    held: dict[int, set[str]] = {}
    for n in arrays:
        layer = None if n.startswith("params.") else names.layer_of(n)
        if layer is not None:
            held.setdefault(layer, set()).add(n)
    whole = tuple(sorted(l for l, got in held.items() if not got <= set(names.qk(l, positions))))
    return whole, tuple(sorted(held))


class Trace(Mapping[str, np.ndarray]):
    def __init__(self, arrays: Mapping[str, np.ndarray], info: TraceInfo, continues: Trace | None = None) -> None:
        """``arrays`` by public name, and the record of the run. ``continues``: the partial trace this one
        completes (its layers are the same data: what was drawn or derived from them need not be again)."""
        frozen: dict[str, np.ndarray | Deferred] = {}
        given = arrays.entries() if isinstance(arrays, ArrayRecord) else arrays  # deferred ones stay deferred
        for name, array in given.items():
            names.spec(name)  # refuse names that are not part of the public list
            if isinstance(array, Deferred):  # a half run's parameter: made as float32 when first read
                frozen[name] = array
                continue
            a = np.asarray(array)
            if a.flags.writeable:
                a = a.view()
                a.flags.writeable = False
            frozen[name] = a
        self._arrays = ArrayRecord(dict(sorted(frozen.items(), key=lambda kv: _order_key(kv[0]))))
        self.info = info
        self.rows, self.config, self.options = tuple(info.rows), info.config, info.options
        self.source, self.seed, self.model_name = info.source, info.seed, info.model_name
        self.vocab = tuple(info.vocab) if info.vocab is not None else None
        self.notices, self.tokenizer_kind, self.app_version = tuple(info.notices), info.tokenizer_kind, info.app_version
        self.origin, self.partial = info.origin, info.partial
        self.interventions = dict(info.interventions) if info.interventions is not None else None
        self._layers, self._map_layers = _held_layers(self._arrays, info.config.positions)
        self._labels = dict(info.labels or {})
        # A number no other trace of this process has (an id() can be reused once a trace is freed): views key
        # what they drew on it. A trace completing a partial one keeps the partial's number for the layers
        # they share, so the maps drawn from the partial one need not be drawn again.
        self.serial = next(_SERIALS)
        self._layer_serials = dict(continues._layer_serials) if continues is not None else {}
        for layer in self._layers:
            self._layer_serials.setdefault(layer, self.serial)
        self._derived = Derivations(self._arrays, self.config, self.options)
        if continues is not None:
            self._derived.inherit(continues._derived, self._layer_serials)

    def replace(self, arrays: Mapping[str, np.ndarray] | None = None, **info: Any) -> Trace:
        """A new trace with other ``arrays`` (default: these) and this record with ``info`` changed."""
        return Trace(self._arrays if arrays is None else arrays, dataclasses.replace(self.info, **info))

    def memo(self, key: tuple, compute):
        """A small value derived from this trace (a map's colour levels, a shrunk thumbnail), computed once.
        The worker computes what the window will ask for before handing the trace over, so the GUI thread
        finds it here instead of computing it while the window waits."""
        return self._derived.memo(key, compute)

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

    @property
    def map_layers(self) -> tuple[int, ...]:
        """The layers whose (C, C) maps this trace gives: those it holds, and those of which a lazy trace kept
        only q and k (config.keeps_every_map: a deep model's every layer, its maps derived when looked at)."""
        return self._map_layers

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
            return tuple(self._arrays.entry(name).shape)
        if name in ("logits", "probs") and self._derived.logits is not None:
            return self._derived.logits.shape
        if name == "probs":
            return tuple(self._arrays["logits"].shape)
        pairwise_parts(name)
        return (self.B, self.config.H, self.C, self.C)

    # ------------------------------------------------------------------ Mapping interface
    def stored_names(self) -> tuple[str, ...]:
        return tuple(self._arrays)

    def entry(self, name: str) -> np.ndarray | Deferred:
        """A stored array, or what makes it when first read (a half run's parameter: shape, dtype, nbytes and
        its half tensor, ``source``, without the float32 copy: explorer/trace/deferred.py)."""
        return self._arrays.entry(name)

    def names(self) -> tuple[str, ...]:
        """Every name this trace can give whole: stored ones and (C, C) maps it can derive (not a tiled
        layer's: those are read as tiles, ``tile``)."""
        derivable = [
            names.attn(l, s)
            for l in self.map_layers
            if self._derived.can_derive(l) and not self.tiled(l)
            for s in names.PAIRWISE_STAGES
        ]
        if self._derived.logits is not None:
            derivable.append("logits")
        if self._derived.has_logits():
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
        if name in ("logits", "probs"):
            return self._derived.has_logits() if name == "probs" else self._derived.logits is not None
        try:
            layer, _ = pairwise_parts(name)  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError):
            return False
        return self._derived.can_derive(layer)

    def __getitem__(self, name: str) -> np.ndarray:
        if name in self._arrays:
            return self._arrays[name]
        if name == "logits" and self._derived.logits is not None:
            return self._derived.logits.whole()
        if name == "probs" and self._derived.has_logits():
            return self._derived.probs()
        try:
            layer, stage = pairwise_parts(name)
        except (KeyError, ValueError):
            raise KeyError(name) from None
        if not self._derived.can_derive(layer):
            raise KeyError(name)
        self._refuse_whole(layer)
        return self._derived.layer_stage(layer, stage)

    def head_map(self, layer: int, stage: str, b: int, h: int) -> np.ndarray:
        """The (C, C) map of one head: query i (row) against key j (column). Cheap in a lazy trace."""
        name = names.attn(layer, stage)
        if name in self._arrays:
            return self._arrays[name][b, h]
        self._refuse_whole(layer)
        return self._derived.head_map(layer, stage, b, h)

    # ------------------------------------------------------------------ long texts: maps as tiles
    def tiled(self, layer: int) -> bool:
        """True when this layer's maps are served only as tiles: a long text, whose trace kept q, k and each
        row's log-sum-exp instead of maps (one head's whole map would be too large to hold)."""
        return names.attn(layer, "lse") in self._arrays and names.attn(layer, "weights") not in self._arrays

    def _refuse_whole(self, layer: int) -> None:
        if self.tiled(layer):
            size = self.C * self.C * np.dtype(array_dtype(self.options.dtype)).itemsize
            raise InputError(
                f"layer {layer}'s maps are {self.C:,} × {self.C:,} cells ({size / 1024**3:.1f} GiB a head): this "
                "long text's trace computes them in blocks; read one with trace.tile(layer, stage, b, h, "
                "rows=(r0, r1), cols=(c0, c1))"
            )

    def tile(self, layer: int, stage: str, b: int, h: int, rows: tuple[int, int], cols: tuple[int, int]) -> np.ndarray:
        """(r1 − r0, c1 − c0): the exact cells head_map(layer, stage, b, h)[r0:r1, c0:c1], computed from q, k
        and the rows' log-sum-exp without building the (C, C) map (explorer/trace/tiles.py). Read-only."""
        rows, cols = _span(rows, self.C, "rows"), _span(cols, self.C, "cols")
        if names.attn(layer, "scores") in self._arrays:  # a trace that stored its maps: cut from them
            return self.head_map(layer, stage, b, h)[rows[0] : rows[1], cols[0] : cols[1]]
        if not self._derived.can_derive(layer):
            raise KeyError(names.attn(layer, stage))
        from explorer.trace.tiles import LayerMaps, compute_tile  # imports torch: reading a trace needs numpy

        return compute_tile(LayerMaps(self._arrays, self.config, self.options.scale, layer), stage, b, h, rows, cols)

    def map_row(self, layer: int, stage: str, b: int, h: int, i: int) -> np.ndarray:
        """(C,): query i's row of a map, as one tile on a tiled layer, else of head_map (a hover, an anatomy)."""
        if not self.tiled(layer):
            return self.head_map(layer, stage, b, h)[i]
        return self.tile(layer, stage, b, h, (i, i + 1), (0, self.C))[0]

    def map_overview(self, layer: int, stage: str, b: int, h: int, cells: int) -> MapOverview:
        """The overview of one head's map in at most cells × cells blocks, from its exact tiles
        (explorer/trace/overview.py); computed once per trace."""

        def keys_of(rows: tuple[int, int]) -> tuple[int, int]:
            from explorer.trace.tiles import seen_keys

            return seen_keys(self._arrays["mask"], self.config, layer, b, rows)

        def tile_of(s: str, rows: tuple[int, int], cols: tuple[int, int]) -> np.ndarray:
            return self.tile(layer, s, b, h, rows, cols)

        return self.memo(
            ("map_overview", layer, stage, b, h, cells), lambda: map_overview(tile_of, stage, self.C, cells, keys_of)
        )

    def probs_row(self, b: int, i: int) -> np.ndarray:
        """The next-token distribution after token i of sentence b: one (V,) row, cheap in any trace."""
        if "probs" in self._arrays:
            return self._arrays["probs"][b, i]
        return self._derived.probs_row(b, i)

    def probs_rows(self, b: int, start: int, stop: int) -> np.ndarray:
        """Next-token distributions after tokens start … stop−1 of sentence b: (stop − start, V)."""
        if "probs" in self._arrays:
            return self._arrays["probs"][b, start:stop]
        return self._derived.softmax(self._derived.logits_rows(b, start, stop))

    def logits_rows(self, b: int, start: int, stop: int) -> np.ndarray:
        """Scores over the vocabulary after tokens start … stop−1 of sentence b: (stop − start, V). A trace
        that derives its logits (explorer/trace/logits.py) computes only the blocks holding these rows."""
        return self._derived.logits_rows(b, start, stop)

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
        return sum(self._arrays.entry(n).nbytes for n in self._arrays)  # a deferred array counts as made

    def manifest(self, selected: tuple[str, ...] | None = None) -> dict[str, Any]:
        chosen = selected if selected is not None else self.names()
        return {
            "format": FORMAT_NAME,
            "format_version": FORMAT_VERSION,
            "app_version": self.app_version,
            "text": "\n".join(r.text for r in self.rows),
            "batch": [
                {
                    "text": r.text,
                    "tokens": list(r.tokens),
                    "ids": list(r.ids),
                    "unknown": list(r.unknown),
                    "length": r.length,
                }
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
            return self._arrays.entry(name).dtype
        return np.dtype(array_dtype(self.options.dtype))


def _span(span: tuple[int, int], C: int, what: str) -> tuple[int, int]:
    start, stop = int(span[0]), int(span[1])
    if not 0 <= start <= stop <= C:
        raise IndexError(f"{what} ({start}, {stop}) are not within 0 … {C}")
    return start, stop
