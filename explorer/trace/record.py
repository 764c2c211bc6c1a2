"""What a run was, besides its arrays: the sentences (``Row``) and the record of the run (``TraceInfo``: the
model's config, the run options, where the weights came from, notices, …). Frozen: a Trace is its arrays
plus one TraceInfo, and a trace made from another (an intervened run, a baseline, a generation) starts from
the other's info with ``dataclasses.replace``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from explorer import __version__
from explorer.config import ModelConfig, RunOptions


@dataclass(frozen=True)
class Row:
    """One sentence of the batch."""

    text: str
    tokens: tuple[str, ...]  # the text piece of each token
    ids: tuple[int, ...]
    unknown: tuple[bool, ...]
    segments: tuple[int, ...] | None = None  # an encoder's sentence of each token (0: A, 1: B); None: all A

    @property
    def length(self) -> int:
        return len(self.ids)


@dataclass(frozen=True)
class TraceInfo:
    rows: tuple[Row, ...]
    config: ModelConfig
    options: RunOptions
    source: str  # where the weights came from (a preset, a file)
    seed: int | None
    vocab: tuple[str, ...] | None = None
    notices: tuple[str, ...] = ()
    labels: Mapping[str, tuple[str, ...]] | None = None  # shape labels read from a snapshot
    model_name: str = ""
    tokenizer_kind: str = ""
    app_version: str = __version__
    origin: str = "computed"  # "computed", or the path of the snapshot it was read from
    partial: bool = False  # True while later layers and the output are still being computed
    interventions: Mapping[str, Any] | None = None  # what an intervened run changed (explorer.interventions)
