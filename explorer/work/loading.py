"""A model's load as work off the GUI thread: the model a source names built into the runner's model cache
(explorer.session.open.open_source through the cache), with progress and cancel for a large file. The window
traces the newest request once its model is there (explorer/ui/background/worker.py)."""

from __future__ import annotations

import threading

from explorer.config import ModelConfig
from explorer.session.request import ModelSource
from explorer.work.model_cache import ModelCache
from explorer.work.report import Report, Work


def load_work(models: ModelCache, source: ModelSource) -> Work:
    """Build ``source``'s model into ``models`` (or find it there); the result is its ModelConfig."""

    def work(report: Report, cancel: threading.Event) -> ModelConfig:
        return models.get(source, progress=report.progress, cancel=cancel).config

    return work
