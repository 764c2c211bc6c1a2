"""``TraceResult``: what ``explorer.trace`` and ``explorer.open`` give. A core Trace (``.core``) and how it was
made (``.source``, ``.text``, ``.options``, ``.interventions``), with the current selection (``.selection``:
stage, layer, head, row, token) that its picture, ``map`` and ``show`` start from.

Arrays come as the core trace holds them (read-only numpy, under the snapshot names), never copies; every
mistake a user can make raises explorer.Error (explorer.errors.ExplorerError) with the command line's line.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from explorer.errors import ConfigError, SnapshotError
from explorer.session.request import Selection


class UnknownName(SnapshotError, KeyError):
    """``t[name]`` for a name the trace does not hold: an explorer.Error and a KeyError (as a mapping's)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _in_range(what: str, value: Any, count: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
        raise ConfigError(f"{what} {value} does not exist: choose 0 … {count - 1}")
    return value


def checked_selection(core, selection: Selection) -> Selection:
    """``selection`` if it names a stage, layer, head, row and token of ``core``; else one line saying why."""
    from explorer.present.stages import STAGE_KEYS, shown

    if selection.stage not in STAGE_KEYS or not shown(selection.stage, core.config):
        raise ConfigError(f"this model has no stage {selection.stage!r}")
    _in_range("layer", selection.layer, core.config.L)
    if selection.layer not in core.layers:
        raise ConfigError(f"layer {selection.layer} was not captured: capture it (--layers-to-capture) or pick another")
    _in_range("head", selection.head, core.config.H)
    _in_range("sentence", selection.row, core.B)
    for what in ("token", "key"):
        if getattr(selection, what) is not None:
            _in_range(what, getattr(selection, what), core.rows[selection.row].length)
    return selection


class TraceResult:
    """One traced (or reopened) run: ``t[name]``, ``t.names()``, ``t.tokens``, ``t.config``,
    ``t.next_token()``, ``t.map()``, ``t.heads()``, ``t.cell()``, ``t.compare()``, ``t.save()``, ``t.show()``."""

    def __init__(self, core, source=None, text: str | None = None, options=None, interventions=None, selection=None):
        self.core = core  # explorer.trace.Trace
        self.source = source  # explorer.session.ModelSource; None for a snapshot
        self.text = text if text is not None else "\n".join(r.text for r in core.rows)
        self.options = options if options is not None else core.options  # explorer.config.RunOptions
        self.interventions = interventions  # explorer.interventions.Interventions or None
        first = core.layers[0] if core.layers else 0  # a trace may hold only some layers (--layers-to-capture)
        self.selection = checked_selection(core, selection) if selection is not None else Selection(layer=first)

    # ------------------------------------------------------------------ arrays
    def __getitem__(self, name: str):
        if not isinstance(name, str) or name not in self.core:
            raise UnknownName(f"no tensor matches {name}; `attention-explorer info` lists the names") from None
        return self.core[name]

    def __contains__(self, name: object) -> bool:
        return name in self.core

    def names(self) -> tuple[str, ...]:
        """Every name ``t[name]`` gives: the snapshot's names (``export`` writes these)."""
        return self.core.names()

    @property
    def tokens(self) -> list[str]:
        """The first sentence's tokens (``rows`` gives every sentence's)."""
        return self.rows[0]

    @property
    def rows(self) -> list[list[str]]:
        return [list(r.tokens) for r in self.core.rows]

    @property
    def config(self):
        """The model's explorer.config.ModelConfig (E, D, H, L, …)."""
        return self.core.config

    # ------------------------------------------------------------------ what the model says next
    def next_token(self, top: int = 5, row: int = 0, position: int = -1) -> list[tuple[str, float]]:
        """The ``top`` most likely next tokens after ``position`` (−1: the sentence's last token) of sentence
        ``row``, as (token, probability), most likely first (probabilities at the run's temperature)."""
        import numpy as np

        if self.config.bidirectional or "logits" not in self.core:
            raise ConfigError(
                "this model reads the whole text at once (an encoder): it predicts no next token; "
                "read its output in t['logits'] if it has one"
            )
        length = self.core.rows[_in_range("sentence", row, self.core.B)].length
        i = _in_range("position", position + length if isinstance(position, int) and position < 0 else position, length)
        if isinstance(top, bool) or not isinstance(top, int) or top < 1:
            raise ConfigError(f"top must be a whole number of at least 1, got {top!r}")
        probs = np.asarray(self.core.probs_row(row, i), dtype=np.float64)
        order = np.argsort(-probs, kind="stable")[:top]
        return [(self._token_text(int(k)), float(probs[k])) for k in order]

    def _token_text(self, token_id: int) -> str:
        vocab = self.core.vocab
        return vocab[token_id] if vocab is not None and token_id < len(vocab) else str(token_id)

    # ------------------------------------------------------------------ selection and pictures
    def select(self, stage=None, layer=None, head=None, row=None, token=None, key=None) -> TraceResult:
        """The same run with another selection (what its picture, ``map`` and ``show`` start from)."""
        asked = dict(stage=stage, layer=layer, head=head, row=row, token=token, key=key)
        selection = dataclasses.replace(self.selection, **{k: v for k, v in asked.items() if v is not None})
        return TraceResult(self.core, self.source, self.text, self.options, self.interventions, selection)

    def map(
        self, stage: str = "weights", layer: int = 0, head: int = 0, row: int = 0, token=None, key=None, language="en"
    ):
        """One stage's figure (explorer.api.figure.Figure: displays; ``.svg()``, ``.png(dpi=)``, ``.save()``);
        ``language``: its words', as ``figure --language`` ("en", "ja")."""
        from explorer.api.figure import Figure

        selection = checked_selection(self.core, Selection(stage, layer, head, row, token, key))
        return Figure.of_stage(self.core, selection, language=language)

    def heads(
        self, stage: str = "weights", layer: int = 0, row: int = 0, columns=None, language="en", token=None, key=None
    ):
        """Every head of ``layer`` at a map stage (scores, scaled, masked, weights) as one Figure: a grid of
        small maps on the layer's shared colours, ``columns`` to a row (None: ⌈√H⌉), as ``figure --all-heads``;
        ``token``, ``key``: a query row and key column framed in every map."""
        from explorer.api.figure import Figure

        selection = checked_selection(self.core, Selection(stage, layer, 0, row, token, key))
        return Figure.of_heads(self.core, selection, language=language, columns=columns)

    def svg(self, language: str = "en") -> str:
        """The notebook picture of this run at its selection: the pipeline, the selected map, the next token;
        the figure's words in ``language``."""
        from explorer.api.display import trace_svg

        return trace_svg(self.core, self.selection, language=language)

    # ------------------------------------------------------------------ anatomy and comparison
    def cell(self, stage: str, layer: int = 0, head: int = 0, query: int = 0, key=None, dim=None, neuron=None, **more):
        """One number of the trace (``row=`` its sentence, ``part=`` q, k or v of the Q K V stage); its
        ``.explain()`` gives the steps that make it, as ``attention-explorer anatomy`` prints them."""
        from explorer.anatomy import Cell
        from explorer.api.views import CellRef

        unknown = [k for k in more if k not in ("row", "part")]
        if unknown:
            raise ConfigError(f"cell() has no option {unknown[0]!r}; besides stage … neuron it takes row and part")
        cell = Cell(stage, layer, head, query, key, dim, neuron, more.get("row", 0), more.get("part"))
        return CellRef(self.core, cell)

    def compare(self, other: TraceResult, top: int = 5):
        """This run (A) against ``other`` (B), as ``attention-explorer compare`` reports them."""
        from explorer.api.views import ComparisonResult, made
        from explorer.compare import Pair, Run, compare

        if not isinstance(other, TraceResult):
            raise ConfigError(
                f"compare() takes another trace (explorer.trace or explorer.open), got {type(other).__name__}"
            )
        if isinstance(top, bool) or not isinstance(top, int) or top < 1:
            raise ConfigError(f"--top must be at least 1, got {top}")
        return ComparisonResult(compare(Pair(Run(self.core, made(self)), Run(other.core, made(other))), top))

    # ------------------------------------------------------------------ files and the window
    def save(self, path, names=None, format: str | None = None):
        """One snapshot, as ``attention-explorer export`` writes it (``names``: wildcard patterns, as --names)."""
        from explorer.export.snapshot import write_snapshot

        select = [names] if isinstance(names, str) else names
        return write_snapshot(self.core, path, format, select)

    def show(self, stage=None, layer=None, head=None, token=None, row=None, screenshot=None, size=None, wait=False):
        """The desktop window in its own process, on a snapshot of this run, at its selection (or the stage,
        layer, head, token and sentence given): explorer.api.show.launch, a Popen (with ``wait``, the finished
        process). ``screenshot``: a PNG of the window instead; ``size``: "1600x1000"."""
        from explorer.api.show import launch

        at = self.select(stage=stage, layer=layer, head=head, row=row, token=token).selection
        return launch(self.core, at, screenshot, size, wait)

    # ------------------------------------------------------------------ display
    def __repr__(self) -> str:
        model = self.source.label() if self.source is not None else (self.core.model_name or self.core.source)
        lengths = "+".join(str(r.length) for r in self.core.rows)
        cfg = self.config
        return f"<TraceResult {model}: {lengths} tokens, {cfg.L} layers, {cfg.H} heads, {len(self.names())} tensors>"

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        bundle: dict[str, str] = {"text/plain": repr(self)}
        if (include is None or "image/svg+xml" in include) and "image/svg+xml" not in (exclude or ()):
            bundle["image/svg+xml"] = self.svg()
        return bundle
