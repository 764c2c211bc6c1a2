"""The work the window runs off the GUI thread, as plain functions: each ``*_work`` returns a callable
``work(report, cancel)`` that the window's job runner (explorer/ui/jobs.py) runs on a thread of its own.
A work function takes a model's *source* and the runner's model cache: the model is built (or found) in that
thread, so no view ever holds one. ``report.progress(done, total, what)`` and ``report.send(value)`` say how
far it is; ``cancel`` is an Event. Torch loads when the work runs, never when this module is imported.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

from explorer.config import RunOptions
from explorer.session.model_cache import ModelCache
from explorer.session.request import ModelSource
from explorer.trace import Trace


class Report(Protocol):
    def progress(self, done: int, total: int, what: str = "") -> None: ...

    def send(self, value: Any) -> None: ...


Work = Callable[[Report, threading.Event], Any]


def lens_work(models: ModelCache, source: ModelSource, trace: Trace, row: int) -> Work:
    """The logit lens of every position of sentence ``row`` (explorer.interventions.lens.lens_grid)."""

    def work(report: Report, cancel: threading.Event) -> Any:
        from explorer.interventions.lens import lens_grid

        return lens_grid(models.get(source, cancel=cancel), trace, row, report.progress, cancel)

    return work


def attribution_work(
    models: ModelCache, source: ModelSource, trace: Trace, position: int, target: str | None, row: int
) -> Work:
    """One position's direct logit attribution (explorer.interventions.lens.explain_logit)."""

    def work(_report: Report, cancel: threading.Event) -> Any:
        from explorer.interventions.lens import explain_logit

        return explain_logit(models.get(source, cancel=cancel), trace, position, target, row)

    return work


def sweep_work(
    models: ModelCache, source: ModelSource, clean: str, corrupted: str, kind: str, options: RunOptions | None
) -> Work:
    """The activation-patching sweep, one run per cell, progress per cell (explorer.interventions.sweep)."""

    def work(report: Report, cancel: threading.Event) -> Any:
        from explorer.interventions.sweep import patching_sweep

        return patching_sweep(
            models.get(source, cancel=cancel),
            clean,
            corrupted,
            kind,
            options=options,
            progress=report.progress,
            cancel=cancel,
        )

    return work


def generation_work(
    models: ModelCache, source: ModelSource, text: str, options: RunOptions, how: dict[str, Any]
) -> Work:
    """A generation of ``how["max_new_tokens"]`` tokens with ``how["sampling"]`` (Sampling's keywords) and
    ``how["use_cache"]``; each chosen Step is sent as it comes. Stop keeps the tokens written so far."""

    def work(report: Report, cancel: threading.Event) -> Any:
        from explorer.generation.loop import GenerateOptions, generate
        from explorer.generation.sampling import Sampling, end_token_ids

        bundle = models.get(source, cancel=cancel)
        settings = GenerateOptions(
            max_new_tokens=how["max_new_tokens"],
            sampling=Sampling(**how["sampling"]),
            use_cache=how["use_cache"],
            stop_ids=end_token_ids(bundle.tokenizer),  # a real model stops at its end-of-text token
        )
        return generate(bundle, text, options, settings, cancel=cancel, on_step=report.send)

    return work
