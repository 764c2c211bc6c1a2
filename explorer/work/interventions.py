"""The Interventions panel's work: the logit lens of a sentence, one position's direct logit attribution, and
the activation-patching sweep, each a ``Work`` (explorer/work/report.py) that finds or builds its model in the
runner's model cache, in the job's thread.
"""

from __future__ import annotations

import threading
from typing import Any

from explorer.config import RunOptions
from explorer.session.request import ModelSource
from explorer.trace import Trace
from explorer.work.model_cache import ModelCache
from explorer.work.report import Report, Work


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
